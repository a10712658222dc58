/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * libFuzzer target for the config.txt parser and the pure edit functions.
 * Properties checked on every input: the model serialises to the input
 * bytes; every query runs; and where SD Tuner agrees to edit the input,
 * apply then revert gives the input back and applying twice equals once.
 * Build and run with `tools/fuzz.sh config-txt` (meson -Dfuzzing=true, clang).
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "sdt-config-writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
fuzz_check_edit(SdtConfigTxt *cfg, GBytes *bytes, gint type_code, const gchar *filter)
{
	const gchar *lines[] = {type_code >= 0x17 ? "dtparam=sd_cqe=2" : "dtparam=sd_overclock=100",
				NULL};
	SdtConfigBlock block = {type_code >= 0x17 ? "sd-cqe-2" : "sd-overclock-100",
				filter,
				lines,
				type_code,
				type_code >= 0x17
					? SDT_CONFIG_SD_CQE
					: SDT_CONFIG_SD_OVERCLOCK | SDT_CONFIG_SD_OVERLAY_SDHOST};
	g_autoptr(SdtConfigEdit) edit = sdt_config_edit_apply(cfg, &block, NULL, NULL);
	g_autoptr(SdtConfigTxt) applied = NULL;
	g_autoptr(SdtConfigEdit) rev = NULL;
	g_autoptr(SdtConfigEdit) again = NULL;
	g_autofree gchar *diff = NULL;
	g_autofree gchar **strv = NULL;

	if (edit == NULL)
		return;
	applied = sdt_config_txt_new_from_bytes(edit->new_bytes, "config.txt");
	/* an input that already holds SD Tuner's block: apply replaces it, so
	 * only "twice equals once" holds, checked below */
	if (sdt_config_sd_find_block(cfg, NULL, NULL)) {
		g_autoptr(SdtConfigEdit) twice = sdt_config_edit_apply(applied, &block, NULL, NULL);
		if (twice == NULL || !g_bytes_equal(twice->new_bytes, edit->new_bytes))
			abort();
		return;
	}
	strv = g_new0(gchar *, edit->block->len + 1);
	for (guint i = 0; i < edit->block->len; i++)
		strv[i] = g_ptr_array_index(edit->block, i);
	rev = sdt_config_revert(applied, (const gchar *const *) strv, NULL);
	if (rev == NULL || !g_bytes_equal(rev->new_bytes, bytes))
		abort();
	again = sdt_config_edit_apply(applied, &block, (const gchar *const *) strv, NULL);
	if (again == NULL || !g_bytes_equal(again->new_bytes, edit->new_bytes))
		abort();
	diff = sdt_config_diff_unified("/boot/firmware/config.txt", bytes, edit->new_bytes);
	if (diff == NULL || diff[0] == '\0')
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GBytes) out = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	const gint codes[] = {-1, 0x04, 0x08, 0x0d, 0x11, 0x12, 0x17, 0x19};

	if (size > 64 * 1024)
		return 0;
	bytes = g_bytes_new(data, size);
	cfg = sdt_config_txt_new_from_bytes(bytes, "config.txt");
	out = sdt_config_txt_to_bytes(cfg);
	if (!g_bytes_equal(bytes, out))
		abort();
	for (guint i = 0; i < G_N_ELEMENTS(codes); i++) {
		g_autoptr(GPtrArray) entries = sdt_config_entries_get(cfg, codes[i], TRUE);
		g_autoptr(GPtrArray) eff = sdt_config_entries_lines_in_effect(cfg, codes[i]);
		g_autoptr(GPtrArray) sd = sdt_config_sd_settings(cfg, codes[i]);
		if (entries->len != sdt_config_txt_get_lines(cfg)->len)
			abort();
		(void) sdt_config_entries_get_value(cfg, "dtparam", codes[i]);
		(void) eff;
		(void) sd;
	}
	if (!sdt_config_editable_check_bytes(bytes, NULL) || !sdt_config_editable_check(cfg, NULL))
		return 0;
	fuzz_check_edit(cfg, bytes, 0x08, "[board-type=0x08]");
	fuzz_check_edit(cfg, bytes, 0x0d, "[pi3+]");
	fuzz_check_edit(cfg, bytes, 0x17, "[board-type=0x17]");
	return 0;
}
