/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-config-txt.h"
#include "sdt-error.h"
#include "sdt-test-config.h"
#include "sdt-config-includes.h"

static SdtConfigTxt *
test_parse_named(const gchar *text, const gchar *name)
{
	g_autoptr(GBytes) bytes = g_bytes_new(text, strlen(text));
	return sdt_config_txt_new_from_bytes(bytes, name);
}

static SdtConfigTxt *
test_parse(const gchar *text)
{
	return test_parse_named(text, "config.txt");
}

/* data: SDT_TEST_CORPUS_OWN or SDT_TEST_CORPUS_SHARED */
static void
test_config_txt_round_trip_corpus(gconstpointer which)
{
	g_autoptr(GPtrArray) paths = sdt_test_corpus_files(GPOINTER_TO_INT(which));

	if (paths == NULL)
		return; /* skipped: no shared corpus */
	if (GPOINTER_TO_INT(which) == SDT_TEST_CORPUS_OWN)
		g_assert_cmpuint(paths->len, >=, 20);
	g_assert_cmpuint(paths->len, >, 0);
	for (guint i = 0; i < paths->len; i++) {
		const gchar *path = g_ptr_array_index(paths, i);
		g_autofree gchar *data = NULL;
		gsize len = 0;
		g_autoptr(GBytes) bytes = NULL;
		g_autoptr(GBytes) out = NULL;
		g_autoptr(SdtConfigTxt) cfg = NULL;

		g_assert_true(g_file_get_contents(path, &data, &len, NULL));
		bytes = g_bytes_new(data, len);
		cfg = sdt_config_txt_new_from_bytes(bytes, "config.txt");
		out = sdt_config_txt_to_bytes(cfg);
		if (!g_bytes_equal(bytes, out))
			g_error("round trip of %s is not byte-exact", path);
	}
	g_test_message("round trip: %u files", paths->len);
}

static void
test_config_txt_round_trip_odd_bytes(void)
{
	const gchar *cases[] = {"",
				"\n",
				"\r\n",
				"a",
				"a\r",
				"\r\r\n",
				"x=1\r\ny=2\nz=3",
				"[pi4\n[all",
				"\t \n  \r\n",
				"#\xff\xfe not utf-8\n"};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GBytes) in = g_bytes_new(cases[i], strlen(cases[i]));
		g_autoptr(SdtConfigTxt) cfg = sdt_config_txt_new_from_bytes(in, "x");
		g_autoptr(GBytes) out = sdt_config_txt_to_bytes(cfg);
		g_assert_true(g_bytes_equal(in, out));
	}
	/* NUL bytes survive in the model too, though editing refuses them */
	{
		const gchar nul[] = "a=1\n\0b=2\n";
		g_autoptr(GBytes) in = g_bytes_new(nul, sizeof(nul) - 1);
		g_autoptr(SdtConfigTxt) cfg = sdt_config_txt_new_from_bytes(in, "x");
		g_autoptr(GBytes) out = sdt_config_txt_to_bytes(cfg);
		g_assert_true(g_bytes_equal(in, out));
	}
}

static void
test_config_txt_line_kinds(void)
{
	g_autoptr(SdtConfigTxt) cfg = test_parse("# c\n"
						 "\n"
						 "  gpu_mem=128  \r\n"
						 "[pi4] # x\n"
						 "[pi3\n"
						 "include extra.txt\n"
						 "initramfs initrd.img followkernel\n"
						 "word\n"
						 "last=1");
	GPtrArray *lines = sdt_config_txt_get_lines(cfg);
	SdtConfigLine *l;

	g_assert_cmpuint(lines->len, ==, 9);
	g_assert_cmpint(((SdtConfigLine *) g_ptr_array_index(lines, 0))->kind,
			==,
			SDT_CONFIG_LINE_COMMENT);
	g_assert_cmpint(((SdtConfigLine *) g_ptr_array_index(lines, 1))->kind,
			==,
			SDT_CONFIG_LINE_BLANK);
	l = g_ptr_array_index(lines, 2);
	g_assert_cmpint(l->kind, ==, SDT_CONFIG_LINE_SETTING);
	g_assert_cmpstr(l->key, ==, "gpu_mem");
	g_assert_cmpstr(l->value, ==, "128");
	g_assert_cmpstr(l->text, ==, "  gpu_mem=128  ");
	g_assert_cmpstr(l->eol, ==, "\r\n");
	l = g_ptr_array_index(lines, 3);
	g_assert_cmpint(l->kind, ==, SDT_CONFIG_LINE_FILTER);
	g_assert_cmpstr(l->filter, ==, "pi4");
	g_assert_cmpint(((SdtConfigLine *) g_ptr_array_index(lines, 4))->kind,
			==,
			SDT_CONFIG_LINE_FILTER_BAD);
	l = g_ptr_array_index(lines, 5);
	g_assert_cmpint(l->kind, ==, SDT_CONFIG_LINE_INCLUDE);
	g_assert_cmpstr(l->value, ==, "extra.txt");
	l = g_ptr_array_index(lines, 6);
	g_assert_cmpint(l->kind, ==, SDT_CONFIG_LINE_DIRECTIVE);
	g_assert_cmpstr(l->key, ==, "initramfs");
	g_assert_cmpint(((SdtConfigLine *) g_ptr_array_index(lines, 7))->kind,
			==,
			SDT_CONFIG_LINE_UNKNOWN);
	l = g_ptr_array_index(lines, 8);
	g_assert_cmpstr(l->eol, ==, "");
	g_assert_cmpstr(sdt_config_txt_get_eol_style(cfg), ==, "\n");
}

/* the applies value of the line that holds @text */
static SdtConfigApplies
test_applies(SdtConfigTxt *cfg, const gchar *text, gint type_code)
{
	g_autoptr(GPtrArray) entries = sdt_config_entries_get(cfg, type_code, FALSE);
	for (guint i = 0; i < entries->len; i++) {
		SdtConfigEntry *e = g_ptr_array_index(entries, i);
		if (g_strcmp0(e->line->text, text) == 0)
			return e->applies;
	}
	g_assert_not_reached();
	return SDT_CONFIG_APPLIES_NO;
}

static void
test_config_txt_filters_combine(void)
{
	g_autoptr(SdtConfigTxt) cfg = test_parse("top=1\n"
						 "[pi1]\n"
						 "a=1\n"
						 "[pi2]\n"
						 "b=1\n"
						 "[HDMI:1]\n"
						 "c=1\n"
						 "[pi3]\n"
						 "d=1\n"
						 "[tryboot]\n"
						 "e=1\n"
						 "[all]\n"
						 "f=1\n"
						 "[none]\n"
						 "g=1\n"
						 "[pi3]\n"
						 "h=1\n"
						 "[all]\n"
						 "[board-type=0x08]\n"
						 "i=1\n"
						 "[pi02]\n"
						 "j=1\n"
						 "[pi0]\n"
						 "k=1\n");

	/* same type replaces: [pi2] overrides [pi1] */
	g_assert_cmpint(test_applies(cfg, "b=1", 0x01), ==, SDT_CONFIG_APPLIES_NO);
	g_assert_cmpint(test_applies(cfg, "b=1", 0x04), ==, SDT_CONFIG_APPLIES_YES);
	g_assert_cmpint(test_applies(cfg, "a=1", 0x01), ==, SDT_CONFIG_APPLIES_YES);
	/* different types AND: [pi2] and [HDMI:1] */
	g_assert_cmpint(test_applies(cfg, "c=1", 0x04), ==, SDT_CONFIG_APPLIES_MAYBE);
	g_assert_cmpint(test_applies(cfg, "c=1", 0x08), ==, SDT_CONFIG_APPLIES_NO);
	/* [pi3] replaces [pi2] but keeps [HDMI:1] */
	g_assert_cmpint(test_applies(cfg, "d=1", 0x0d), ==, SDT_CONFIG_APPLIES_MAYBE);
	/* tryboot is false in a normal boot */
	g_assert_cmpint(test_applies(cfg, "e=1", 0x08), ==, SDT_CONFIG_APPLIES_NO);
	/* [all] clears every filter */
	g_assert_cmpint(test_applies(cfg, "f=1", 0x11), ==, SDT_CONFIG_APPLIES_YES);
	/* [none] stays until [all], whatever model filter follows */
	g_assert_cmpint(test_applies(cfg, "g=1", 0x08), ==, SDT_CONFIG_APPLIES_NO);
	g_assert_cmpint(test_applies(cfg, "h=1", 0x08), ==, SDT_CONFIG_APPLIES_NO);
	/* board-type is exact, [pi3] is wider */
	g_assert_cmpint(test_applies(cfg, "i=1", 0x08), ==, SDT_CONFIG_APPLIES_YES);
	g_assert_cmpint(test_applies(cfg, "i=1", 0x0d), ==, SDT_CONFIG_APPLIES_NO);
	/* a Zero 2 W sees [pi02] and [pi0]; a Zero only [pi0] */
	g_assert_cmpint(test_applies(cfg, "j=1", 0x12), ==, SDT_CONFIG_APPLIES_YES);
	g_assert_cmpint(test_applies(cfg, "j=1", 0x09), ==, SDT_CONFIG_APPLIES_NO);
	g_assert_cmpint(test_applies(cfg, "k=1", 0x12), ==, SDT_CONFIG_APPLIES_YES);
	g_assert_cmpint(test_applies(cfg, "k=1", 0x09), ==, SDT_CONFIG_APPLIES_YES);
	/* with the tryboot flag the [tryboot] section applies */
	{
		g_autoptr(GPtrArray) entries = sdt_config_entries_get(cfg, 0x08, TRUE);
		SdtConfigEntry *e = g_ptr_array_index(entries, 10);
		g_assert_cmpstr(e->line->text, ==, "e=1");
		g_assert_cmpint(e->applies, ==, SDT_CONFIG_APPLIES_MAYBE);
	}
}

static void
test_config_txt_filter_types(void)
{
	struct {
		const gchar *name;
		SdtConfigFilterType type;
	} cases[] = {
		{"pi3", SDT_CONFIG_FILTER_MODEL},
		{"pi3+", SDT_CONFIG_FILTER_MODEL},
		{"cm4s", SDT_CONFIG_FILTER_MODEL},
		{"pi6", SDT_CONFIG_FILTER_MODEL},
		{"board-type=0x11", SDT_CONFIG_FILTER_MODEL},
		{"none", SDT_CONFIG_FILTER_NONE},
		{"tryboot", SDT_CONFIG_FILTER_TRYBOOT},
		{"EDID=VSC-TD2220", SDT_CONFIG_FILTER_EDID},
		{"0x12345678", SDT_CONFIG_FILTER_SERIAL},
		{"gpio4=1", SDT_CONFIG_FILTER_GPIO},
		{"HDMI:0", SDT_CONFIG_FILTER_HDMI},
		{"boot_partition=2", SDT_CONFIG_FILTER_PARTITION},
		{"Pi2scart", SDT_CONFIG_FILTER_UNKNOWN},
		{"board-type=0x", SDT_CONFIG_FILTER_UNKNOWN},
	};
	SdtConfigFilterType type;

	g_assert_false(sdt_config_filter_parse("all", &type));
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		type = SDT_CONFIG_FILTER_LAST;
		g_assert_true(sdt_config_filter_parse(cases[i].name, &type));
		g_assert_cmpint(type, ==, cases[i].type);
	}
	g_assert_true(sdt_config_filter_model_matches("board-type=0x08", 0x08));
	g_assert_true(sdt_config_filter_model_matches("board-type=8", 0x08));
	g_assert_false(sdt_config_filter_model_matches("board-type=0x08", 0x0d));
	g_assert_true(sdt_config_filter_model_matches("pi3", 0x10));
	g_assert_false(sdt_config_filter_model_matches("pi3+", 0x08));
	g_assert_false(sdt_config_filter_model_matches("pi6", 0x17));
}

static void
test_config_txt_overlay_scope(void)
{
	g_autoptr(SdtConfigTxt) cfg = test_parse("dtparam=audio=on\n"
						 "dtoverlay=sdtweak\n"
						 "dtparam=overclock_50=80\n"
						 "[pi4]\n"
						 "dtoverlay=vc4-kms-v3d-pi4\n"
						 "[all]\n"
						 "dtparam=poll_once\n"
						 "dtoverlay=\n"
						 "dtparam=sd_overclock=100\n");
	g_autoptr(GPtrArray) e3 = sdt_config_entries_get(cfg, 0x08, FALSE);
	g_autoptr(GPtrArray) e4 = sdt_config_entries_get(cfg, 0x11, FALSE);
	g_autoptr(GPtrArray) sd = sdt_config_sd_settings(cfg, 0x08);

	g_assert_null(((SdtConfigEntry *) g_ptr_array_index(e3, 0))->overlay);
	g_assert_cmpstr(((SdtConfigEntry *) g_ptr_array_index(e3, 2))->overlay, ==, "sdtweak");
	/* the [pi4] overlay is not loaded on a Pi 3: poll_once still belongs to sdtweak */
	g_assert_cmpstr(((SdtConfigEntry *) g_ptr_array_index(e3, 6))->overlay, ==, "sdtweak");
	g_assert_cmpstr(((SdtConfigEntry *) g_ptr_array_index(e4, 6))->overlay,
			==,
			"vc4-kms-v3d-pi4");
	/* an empty dtoverlay= ends the scope */
	g_assert_null(((SdtConfigEntry *) g_ptr_array_index(e3, 8))->overlay);

	/* sdtweak line, overclock_50 of sdtweak, poll_once of sdtweak, sd_overclock */
	g_assert_cmpuint(sd->len, ==, 4);
	g_assert_cmpint(((SdtConfigSdSetting *) g_ptr_array_index(sd, 1))->kinds,
			==,
			SDT_CONFIG_SD_OVERCLOCK);
	g_assert_cmpint(((SdtConfigSdSetting *) g_ptr_array_index(sd, 1))->overclock_mhz, ==, 80);
	g_assert_cmpint(((SdtConfigSdSetting *) g_ptr_array_index(sd, 2))->kinds,
			==,
			SDT_CONFIG_SD_OTHER_PARAM);
	g_assert_cmpint(((SdtConfigSdSetting *) g_ptr_array_index(sd, 3))->overclock_mhz, ==, 100);
}

static void
test_config_txt_sd_lines_detected(void)
{
	g_autofree gchar *path =
		g_test_build_filename(G_TEST_DIST, "data", "config", "legacy-sd-lines.txt", NULL);
	g_autofree gchar *data = NULL;
	gsize len = 0;
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(GPtrArray) sd3 = NULL;
	g_autoptr(GPtrArray) eff3 = NULL;
	g_autoptr(GPtrArray) eff4 = NULL;
	SdtConfigSdSetting *s;

	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	bytes = g_bytes_new(data, len);
	cfg = sdt_config_txt_new_from_bytes(bytes, "config.txt");
	sd3 = sdt_config_sd_settings(cfg, 0x08);
	/* sdhost overlay, its force_pio, sdtweak, sd_overclock, sd_cqe, sd_poll_once, sd_debug */
	g_assert_cmpuint(sd3->len, ==, 7);
	s = g_ptr_array_index(sd3, 0);
	g_assert_cmpstr(s->entry->line->text, ==, "dtoverlay=sdhost,overclock_50=100");
	g_assert_cmpint(s->kinds, ==, SDT_CONFIG_SD_OVERLAY_SDHOST | SDT_CONFIG_SD_OVERCLOCK);
	g_assert_cmpint(s->overclock_mhz, ==, 100);
	g_assert_true(s->kills_wlan_here);
	g_assert_cmpstr(s->filter_text, ==, "[pi3]");
	g_assert_cmpuint(s->entry->lineno, ==, 5);
	s = g_ptr_array_index(sd3, 4);
	g_assert_cmpstr(s->cqe, ==, "1");
	g_assert_cmpint(s->entry->applies, ==, SDT_CONFIG_APPLIES_NO);
	g_assert_cmpstr(s->filter_text, ==, "[pi5]");
	s = g_ptr_array_index(sd3, 6);
	g_assert_cmpint(s->kinds, ==, SDT_CONFIG_SD_OTHER_PARAM);
	g_assert_cmpstr(s->filter_text, ==, "[all]");

	eff3 = sdt_config_sd_settings_in_effect(cfg, 0x08);
	g_assert_cmpuint(eff3->len, ==, 5);
	eff4 = sdt_config_sd_settings_in_effect(cfg, 0x11);
	/* sdtweak, sd_poll_once under [pi4], sd_debug */
	g_assert_cmpuint(eff4->len, ==, 3);
	g_assert_false(((SdtConfigSdSetting *) g_ptr_array_index(eff4, 0))->kills_wlan_here);
	g_assert_cmpstr(sdt_config_entries_get_value(cfg, "dtparam", 0x11),
			==,
			"i2c_arm=on,sd_debug=off");
}

static void
test_config_txt_includes(void)
{
	g_autoptr(SdtConfigTxt) cfg = test_parse("a=1\n[pi3]\ninclude pi3.txt\n[all]\n"
						 "include loop.txt\nz=1\n");
	g_autoptr(SdtConfigTxt) inc = test_parse_named("b=1\n[all]\nc=1\n", "pi3.txt");
	g_autoptr(SdtConfigTxt) loop = test_parse_named("include loop.txt\nl=1\n", "loop.txt");
	g_autoptr(GPtrArray) names = sdt_config_txt_get_include_names(cfg);
	g_autoptr(GPtrArray) e3 = NULL;
	g_autoptr(GPtrArray) e4 = NULL;
	g_autoptr(GBytes) out = NULL;

	g_assert_cmpuint(names->len, ==, 2);
	g_assert_cmpstr(g_ptr_array_index(names, 0), ==, "pi3.txt");
	sdt_config_txt_set_include(cfg, "pi3.txt", inc);
	sdt_config_txt_set_include(cfg, "loop.txt", loop);
	e3 = sdt_config_entries_lines_in_effect(cfg, 0x08);
	e4 = sdt_config_entries_lines_in_effect(cfg, 0x11);
	/* a, include, b, c, include loop.txt, include loop.txt (cut), l, z */
	g_assert_cmpuint(e3->len, ==, 8);
	g_assert_cmpstr(((SdtConfigEntry *) g_ptr_array_index(e3, 2))->line->text, ==, "b=1");
	g_assert_true(((SdtConfigEntry *) g_ptr_array_index(e3, 2))->in_include);
	g_assert_cmpstr(((SdtConfigEntry *) g_ptr_array_index(e3, 2))->file, ==, "pi3.txt");
	/* the [all] inside the include resets the filter for the Pi 4 too */
	g_assert_cmpuint(e4->len, ==, 6);
	g_assert_cmpstr(((SdtConfigEntry *) g_ptr_array_index(e4, 1))->line->text, ==, "c=1");
	/* the main file's bytes do not change by attaching includes */
	out = sdt_config_txt_to_bytes(cfg);
	g_assert_cmpuint(g_bytes_get_size(out),
			 ==,
			 strlen("a=1\n[pi3]\ninclude pi3.txt\n[all]\n"
				"include loop.txt\nz=1\n"));
}

static void
test_config_txt_oracle_agrees(gconstpointer which)
{
	g_autoptr(GPtrArray) paths = sdt_test_corpus_files(GPOINTER_TO_INT(which));
	guint checked = 0;

	if (paths == NULL)
		return; /* skipped: no shared corpus */
	for (guint i = 0; i < paths->len; i++) {
		g_autofree gchar *data = NULL;
		gsize len = 0;
		g_autoptr(GBytes) bytes = NULL;
		g_autoptr(SdtConfigTxt) cfg = NULL;

		g_assert_true(g_file_get_contents(g_ptr_array_index(paths, i), &data, &len, NULL));
		bytes = g_bytes_new(data, len);
		cfg = sdt_config_txt_new_from_bytes(bytes, "config.txt");
		for (guint f = 0; f < sdt_test_n_families; f++) {
			gint tc = sdt_test_families[f].type_code;
			g_autoptr(GPtrArray) entries = sdt_config_entries_get(cfg, tc, FALSE);
			g_autoptr(GArray) oracle = sdt_test_oracle_applies(data, len, tc);
			g_assert_cmpuint(entries->len, ==, oracle->len);
			for (guint j = 0; j < entries->len; j++) {
				SdtConfigEntry *e = g_ptr_array_index(entries, j);
				gint want = g_array_index(oracle, gint, j);
				gint got = e->applies == SDT_CONFIG_APPLIES_NO    ? 0
					   : e->applies == SDT_CONFIG_APPLIES_YES ? 1
										  : 2;
				if (got != want)
					g_error("%s line %u board 0x%02x: model %d, oracle %d",
						(const gchar *) g_ptr_array_index(paths, i),
						j + 1,
						tc,
						got,
						want);
				checked++;
			}
		}
	}
	g_test_message("%u line x board evaluations agree", checked);
}

static void
test_config_txt_bad_input(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *big = g_malloc0(2 * 1000 * 1000);
	g_autoptr(GBytes) big_bytes = NULL;
	g_autofree gchar *long_line = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	const gchar nul[] = "a=1\n\0b=2\n";
	g_autoptr(GBytes) nul_bytes = g_bytes_new(nul, sizeof(nul) - 1);

	memset(big, '#', 2 * 1000 * 1000);
	big_bytes = g_bytes_new(big, 2 * 1000 * 1000);
	g_assert_false(sdt_config_editable_check_bytes(big_bytes, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "2000000 bytes"));
	g_clear_error(&error);

	g_assert_false(sdt_config_editable_check_bytes(nul_bytes, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "NUL byte at offset 4"));
	g_clear_error(&error);

	long_line = g_strnfill(10000, 'x');
	cfg = test_parse(long_line);
	g_assert_false(sdt_config_editable_check(cfg, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "line 1 is 10000 characters long"));
	g_clear_error(&error);
	g_clear_object(&cfg);

	cfg = test_parse("a=1\n[pi4\nb=2\n");
	g_assert_false(sdt_config_editable_check(cfg, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "line 2 “[pi4”"));
	g_clear_error(&error);
	g_clear_object(&cfg);

	cfg = test_parse("[none]\n");
	g_assert_false(sdt_config_editable_check(cfg, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "[none]"));
	g_clear_error(&error);
	g_clear_object(&cfg);

	cfg = test_parse("a=1\n#sd-tuner-off: dtparam=sd_overclock=90\n");
	g_assert_false(sdt_config_editable_check(cfg, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "line 2 was switched off by SD Tuner"));
	g_clear_error(&error);
	g_clear_object(&cfg);

	/* found by fuzzing: a lone CR at the end would merge with the added line feed */
	cfg = test_parse("a=1\nabc\r");
	g_assert_false(sdt_config_editable_check(cfg, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "carriage return"));
	g_clear_error(&error);
	g_clear_object(&cfg);

	/* an empty file is a valid config.txt (firmware defaults) */
	cfg = test_parse("");
	g_assert_true(sdt_config_editable_check(cfg, &error));
	g_assert_no_error(error);
}

/* a long-running helper reads many files: no name from a file may be interned */
static void
test_config_txt_interns_nothing(void)
{
	g_autoptr(GString) text = g_string_new(NULL);
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(GPtrArray) entries = NULL;
	g_autoptr(GPtrArray) sd = NULL;
	g_autoptr(GPtrArray) eff = NULL;

	for (guint i = 0; i < 50; i++)
		g_string_append_printf(text,
				       "[zz-filter-%u]\ndtoverlay=zz-overlay-%u\n"
				       "dtparam=sd_cqe=zz-cqe-%u\n",
				       i,
				       i,
				       i);
	cfg = test_parse(text->str);
	entries = sdt_config_entries_get(cfg, 0x17, FALSE);
	sd = sdt_config_sd_settings(cfg, 0x17);
	eff = sdt_config_entries_lines_in_effect(cfg, 0x17);
	g_assert_cmpuint(entries->len, ==, 150);
	g_assert_cmpuint(sd->len, ==, 50);
	/* the state points into the model's own lines */
	g_assert_cmpstr(((SdtConfigEntry *) g_ptr_array_index(entries, 149))
				->state.active[SDT_CONFIG_FILTER_UNKNOWN],
			==,
			"zz-filter-49");
	g_assert_cmpstr(((SdtConfigEntry *) g_ptr_array_index(entries, 149))->overlay,
			==,
			"zz-overlay-49");
	for (guint i = 0; i < 50; i++) {
		g_autofree gchar *f = g_strdup_printf("zz-filter-%u", i);
		g_autofree gchar *o = g_strdup_printf("zz-overlay-%u", i);
		g_assert_cmpuint(g_quark_try_string(f), ==, 0);
		g_assert_cmpuint(g_quark_try_string(o), ==, 0);
	}
}

static void
test_write_file(const gchar *dir, const gchar *name, const gchar *text)
{
	g_autofree gchar *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) error = NULL;
	g_file_set_contents(path, text, -1, &error);
	g_assert_no_error(error);
}

/* config.txt including @n files inc1..incN; each includes all @n when @nested */
static SdtConfigTxt *
test_fanout(const gchar *dir, guint n, gboolean nested)
{
	g_autoptr(GString) main = g_string_new("arm_64bit=1\n");
	g_autoptr(GString) each = g_string_new(NULL);
	g_autoptr(GBytes) bytes = NULL;

	for (guint i = 1; i <= n; i++) {
		g_string_append_printf(main, "include inc%u.txt\n", i);
		g_string_append_printf(each, "include inc%u.txt\n", i);
	}
	for (guint i = 1; i <= n; i++) {
		g_autofree gchar *name = g_strdup_printf("inc%u.txt", i);
		g_autofree gchar *flat = g_strdup_printf("# %s\ndisable_splash=1\n", name);
		test_write_file(dir, name, nested ? each->str : flat);
	}
	bytes = g_bytes_new(main->str, main->len);
	return sdt_config_txt_new_from_bytes(bytes, "config.txt");
}

/* issue 9 item 8: 20 files each including all 20 took 12 s and 800 MiB */
static void
test_config_txt_include_fanout(void)
{
	g_autofree gchar *dir = sdt_test_mkdtemp("sdt-fanout-XXXXXX");
	g_autoptr(SdtConfigTxt) cfg = test_fanout(dir, 20, TRUE);
	g_autoptr(SdtConfigTxt) manual = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) entries = NULL;

	g_assert_false(sdt_config_includes_load(cfg, dir, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "remove the nested include lines"));
	g_test_message("%s", error->message);

	/* attached by hand, past the loader: the walk still stops at the budget */
	manual = test_parse("include a.txt\ninclude a.txt\ninclude a.txt\n");
	{
		g_autoptr(SdtConfigTxt) a = test_parse_named("include b.txt\ninclude b.txt\n"
							     "include b.txt\ninclude b.txt\n",
							     "a.txt");
		g_autoptr(GString) big = g_string_new(NULL);
		g_autoptr(SdtConfigTxt) b = NULL;
		g_autoptr(GBytes) big_bytes = NULL;
		for (guint i = 0; i < 3000; i++)
			g_string_append_printf(big, "x%u=1\n", i);
		big_bytes = g_bytes_new(big->str, big->len);
		b = sdt_config_txt_new_from_bytes(big_bytes, "b.txt");
		sdt_config_txt_set_include(manual, "a.txt", a);
		sdt_config_txt_set_include(manual, "b.txt", b);
	}
	g_clear_error(&error);
	g_assert_false(sdt_config_entries_check_include_budget(manual, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "lines"));
	/* the 3 lines of the main file, then included lines up to the budget */
	entries = sdt_config_entries_get(manual, 0x08, FALSE);
	g_assert_cmpuint(entries->len, <=, 3 + SDT_CONFIG_TXT_MAX_WALK_LINES);
	sdt_test_rm_rf(dir);
}

static void
test_config_txt_include_budget(void)
{
	g_autofree gchar *dir = sdt_test_mkdtemp("sdt-incbudget-XXXXXX");
	g_autoptr(GError) error = NULL;

	/* within the budget: 20 flat includes, each read once and walked in place */
	{
		g_autoptr(SdtConfigTxt) cfg = test_fanout(dir, 20, FALSE);
		g_autoptr(GPtrArray) lines = NULL;
		g_assert_true(sdt_config_includes_load(cfg, dir, &error));
		g_assert_no_error(error);
		lines = sdt_config_entries_lines_in_effect(cfg, 0x08);
		/* arm_64bit, then per file: the include line and disable_splash */
		g_assert_cmpuint(lines->len, ==, 1 + 2 * 20);
		g_assert_cmpstr(((SdtConfigEntry *) g_ptr_array_index(lines, 2))->file,
				==,
				"inc1.txt");
	}
	/* a long main file is bounded by its size, not by the include budget */
	{
		g_autoptr(GString) big = g_string_new(NULL);
		g_autoptr(GBytes) bytes = NULL;
		g_autoptr(SdtConfigTxt) cfg = NULL;
		g_autoptr(GPtrArray) lines = NULL;
		for (guint i = 0; i < SDT_CONFIG_TXT_MAX_WALK_LINES + 5000; i++)
			g_string_append_printf(big, "k%u=1\n", i);
		g_string_append(big, "include inc1.txt\n");
		bytes = g_bytes_new(big->str, big->len);
		cfg = sdt_config_txt_new_from_bytes(bytes, "config.txt");
		g_assert_true(sdt_config_includes_load(cfg, dir, &error));
		g_assert_no_error(error);
		lines = sdt_config_entries_lines_in_effect(cfg, 0x08);
		g_assert_cmpuint(lines->len, ==, SDT_CONFIG_TXT_MAX_WALK_LINES + 5000 + 2);
	}
	/* more different files than the budget */
	{
		g_autoptr(SdtConfigTxt) cfg =
			test_fanout(dir, SDT_CONFIG_TXT_MAX_INCLUDE_FILES + 1, FALSE);
		g_assert_false(sdt_config_includes_load(cfg, dir, &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, "different files"));
		g_clear_error(&error);
	}
	/* more bytes than the budget, split over two files */
	{
		g_autofree gchar *half = g_strnfill(SDT_CONFIG_TXT_MAX_INCLUDE_BYTES / 2 + 10, '#');
		g_autoptr(SdtConfigTxt) cfg = test_parse("include big1.txt\ninclude big2.txt\n");
		test_write_file(dir, "big1.txt", half);
		test_write_file(dir, "big2.txt", half);
		g_assert_false(sdt_config_includes_load(cfg, dir, &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, "big2.txt"));
		g_assert_nonnull(strstr(error->message, "KiB"));
		g_clear_error(&error);
	}
	/* missing: skipped as the firmware does; "..": never read; a FIFO or a
	 * symlink: a clear error, and no hang on the FIFO */
	{
		g_autoptr(SdtConfigTxt) cfg =
			test_parse("include missing.txt\ninclude ../etc/passwd.txt\na=1\n");
		g_autofree gchar *fifo = g_build_filename(dir, "fifo.txt", NULL);
		g_autofree gchar *link = g_build_filename(dir, "link.txt", NULL);
		g_autoptr(SdtConfigTxt) with_fifo = test_parse("include fifo.txt\n");
		g_autoptr(SdtConfigTxt) with_link = test_parse("include link.txt\n");

		g_assert_true(sdt_config_includes_load(cfg, dir, &error));
		g_assert_no_error(error);
		g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
		g_assert_false(sdt_config_includes_load(with_fifo, dir, &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, "fifo.txt"));
		g_clear_error(&error);
		g_assert_cmpint(symlink("inc1.txt", link), ==, 0);
		g_assert_false(sdt_config_includes_load(with_link, dir, &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_clear_error(&error);
	}
	/* nested includes are followed as deep as the walk goes, each file read once */
	{
		g_autoptr(SdtConfigTxt) cfg = test_parse("include n1.txt\ninclude n1.txt\n");
		g_autoptr(GPtrArray) lines = NULL;
		test_write_file(dir, "n1.txt", "one=1\ninclude n2.txt\n");
		test_write_file(dir, "n2.txt", "two=1\ninclude n3.txt\n");
		test_write_file(dir, "n3.txt", "three=1\ninclude n4.txt\n");
		test_write_file(dir, "n4.txt", "four=1\n");
		g_assert_true(sdt_config_includes_load(cfg, dir, &error));
		g_assert_no_error(error);
		g_assert_cmpstr(sdt_config_entries_get_value(cfg, "three", 0x08), ==, "1");
		/* depth 4 is not followed, as before */
		g_assert_null(sdt_config_entries_get_value(cfg, "four", 0x08));
		lines = sdt_config_entries_lines_in_effect(cfg, 0x08);
		/* twice: include, one, include, two, include, three, include */
		g_assert_cmpuint(lines->len, ==, 14);
	}
	sdt_test_rm_rf(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_data_func("/sdtuner/config-txt/round-trip-corpus",
			     GINT_TO_POINTER(SDT_TEST_CORPUS_OWN),
			     test_config_txt_round_trip_corpus);
	g_test_add_data_func("/sdtuner/config-txt/round-trip-shared-corpus",
			     GINT_TO_POINTER(SDT_TEST_CORPUS_SHARED),
			     test_config_txt_round_trip_corpus);
	g_test_add_func("/sdtuner/config-txt/round-trip-odd-bytes",
			test_config_txt_round_trip_odd_bytes);
	g_test_add_func("/sdtuner/config-txt/line-kinds", test_config_txt_line_kinds);
	g_test_add_func("/sdtuner/config-txt/filters-combine", test_config_txt_filters_combine);
	g_test_add_func("/sdtuner/config-txt/filter-types", test_config_txt_filter_types);
	g_test_add_func("/sdtuner/config-txt/overlay-scope", test_config_txt_overlay_scope);
	g_test_add_func("/sdtuner/config-txt/sd-lines-detected", test_config_txt_sd_lines_detected);
	g_test_add_func("/sdtuner/config-txt/includes", test_config_txt_includes);
	g_test_add_data_func("/sdtuner/config-txt/oracle-agrees",
			     GINT_TO_POINTER(SDT_TEST_CORPUS_OWN),
			     test_config_txt_oracle_agrees);
	g_test_add_data_func("/sdtuner/config-txt/oracle-agrees-shared-corpus",
			     GINT_TO_POINTER(SDT_TEST_CORPUS_SHARED),
			     test_config_txt_oracle_agrees);
	g_test_add_func("/sdtuner/config-txt/bad-input", test_config_txt_bad_input);
	g_test_add_func("/sdtuner/config-txt/interns-nothing", test_config_txt_interns_nothing);
	g_test_add_func("/sdtuner/config-txt/include-fanout", test_config_txt_include_fanout);
	g_test_add_func("/sdtuner/config-txt/include-budget", test_config_txt_include_budget);
	return g_test_run();
}
