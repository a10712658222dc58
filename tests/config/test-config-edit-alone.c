/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * libsdt-config-edit links alone (issue 25): this program is linked with the
 * whole of libsdt-config-edit.a (every object, --whole-archive) and only the
 * one library below it, libsdt.a (the error domain, the board model table),
 * none of the writer, the probes or the ops. It then does what the app's
 * preview does: parse a config.txt, apply SD Tuner's block, read it back.
 */

#include "config.h"

#include <glib.h>

#include "sdt-config-edit.h"
#include "sdt-config-txt.h"

static const gchar config_txt[] = "# a Pi 3's config.txt\n"
				  "dtparam=audio=on\n"
				  "[pi3]\n"
				  "dtoverlay=sdtweak,overclock_50=63\n"
				  "[all]\n"
				  "arm_64bit=1\n";

static void
test_edit_alone(void)
{
	g_autoptr(GBytes) bytes = g_bytes_new_static(config_txt, sizeof(config_txt) - 1);
	g_autoptr(SdtConfigTxt) cfg = sdt_config_txt_new_from_bytes(bytes, "config.txt");
	const gchar *lines[] = {"dtparam=sd_overclock=62", NULL};
	SdtConfigBlock block = {
		.id = "sd-overclock-62",
		.filter = "[pi3]",
		.lines = lines,
		.type_code = 0x08,
		.replaces = SDT_CONFIG_SD_OVERCLOCK | SDT_CONFIG_SD_OVERLAY_SDHOST,
	};
	g_autoptr(GError) error = NULL;
	SdtConfigEdit *edit = sdt_config_edit_apply(cfg, &block, NULL, &error);
	g_autoptr(SdtConfigTxt) applied = NULL;
	g_autofree gchar *id = NULL;
	gsize len = 0;
	const gchar *text;

	g_assert_no_error(error);
	g_assert_nonnull(edit);
	text = g_bytes_get_data(edit->new_bytes, &len);
	g_assert_nonnull(g_strstr_len(text, (gssize) len, "dtparam=sd_overclock=62"));
	/* the old overlay of the same board family is commented out, not deleted */
	g_assert_cmpuint(edit->disabled->len, ==, 1);
	g_assert_nonnull(g_strstr_len(text, (gssize) len, "dtoverlay=sdtweak,overclock_50=63"));
	applied = sdt_config_txt_new_from_bytes(edit->new_bytes, "config.txt");
	id = sdt_config_sd_get_block_id(applied);
	g_assert_cmpstr(id, ==, "sd-overclock-62");
	g_assert_cmpstr(g_ptr_array_index(edit->disabled, 0),
			==,
			"dtoverlay=sdtweak,overclock_50=63");
	sdt_config_block_edit_free(edit);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/config/edit/links-alone", test_edit_alone);
	return g_test_run();
}
