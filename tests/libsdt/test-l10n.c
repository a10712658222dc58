/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * sdt_l10n_translate(): the helper's English text shown in Japanese, with the real
 * Japanese catalogue of the build (SDTUNER_LOCALEDIR) and the generated table of the
 * library's msgids. Also the locale helpers for months, times and columns.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "sdt-l10n-record.h"
#include "sdt-l10n.h"

static void
assert_translates(const gchar *english, const gchar *japanese)
{
	g_autofree gchar *got = sdt_l10n_translate(english);
	g_assert_cmpstr(got, ==, japanese);
}

static void
test_constant(void)
{
	assert_translates(
		"SD Tuner has no change in this file: nothing to revert",
		"このファイルに SD Tuner による変更はありません。元に戻すものはありません");
	/* text that is no message of SD Tuner comes back as it was */
	assert_translates("dtparam=sd_overclock=100", "dtparam=sd_overclock=100");
	assert_translates("", "");
	g_assert_null(sdt_l10n_translate(NULL));
}

static void
test_values(void)
{
	assert_translates("Run the SD card at 100 MHz", "SD カードを 100 MHz で動かす");
	assert_translates(
		"SD clock 100 MHz instead of 50 MHz: the bus ceiling rises from 25 MB/s "
		"to 50.0 MB/s, so sequential reads can be up to that much faster; random "
		"access changes little.",
		"SD クロックが 50 MHz から 100 MHz になり、バスの上限は 25 MB/s から 50.0 "
		"MB/s に上がります。シーケンシャル読み取りは最大でその分だけ速くなりますが、"
		"ランダムアクセスはほとんど変わりません。");
}

static void
test_reordered(void)
{
	/* the Japanese msgstr names the device first: %2$s の %1$s */
	assert_translates(
		"The vfat file system on mmcblk0p1 does not support direct I/O (O_DIRECT)",
		"mmcblk0p1 の vfat ファイルシステムはダイレクト I/O（O_DIRECT）に対応して"
		"いません");
	assert_translates("The test file in /var/tmp landed on device 8:1, not on mmcblk0",
			  "/var/tmp のテストファイルは mmcblk0 上ではなく、デバイス 8:1 上に作られ"
			  "ました");
}

static void
test_plural(void)
{
	assert_translates("3 lines of the kernel log are not kmsg records; they are ignored",
			  "カーネルログの 3 行は kmsg のレコードではないため、無視します");
	assert_translates("1 line of the kernel log is not a kmsg record; it is ignored",
			  "カーネルログの 1 行は kmsg のレコードではないため、無視します");
}

static void
test_nested(void)
{
	/* a prefix and the message it prefixes, each translated */
	assert_translates(
		"cannot edit /boot/firmware/config.txt: free some space on that file "
		"system, then try again",
		"/boot/firmware/config.txt を編集できません: そのファイルシステムの空き容量"
		"を確保してから、もう一度実行してください");
	/* a value that is itself a message */
	assert_translates(
		"cannot write /boot/firmware/config.txt: No space left on device; free "
		"some space on that file system, then try again",
		"/boot/firmware/config.txt に書き込めません: No space left on device。その"
		"ファイルシステムの空き容量を確保してから、もう一度実行してください");
	/* two sentences in a row, each its own msgid */
	assert_translates(
		"The card is A1: it does not support command queueing, so there is "
		"nothing to set. It also replaces the deprecated dtoverlay=sdtweak line.",
		"このカードは A1 で、コマンドキューイングに対応していないため、設定すること"
		"はありません。あわせて非推奨の dtoverlay=sdtweak の行も置き換えます。");
}

static void
test_helpers(void)
{
	g_autofree gchar *month = sdt_l10n_month("2013-02");
	g_autofree gchar *bad = sdt_l10n_month("2013-13");
	g_autofree gchar *padded = sdt_l10n_pad("容量", 6);

	g_assert_cmpstr(month, ==, "2013年2月");
	g_assert_cmpstr(bad, ==, "2013-13");
	g_assert_cmpint(sdt_l10n_columns("容量"), ==, 4);
	g_assert_cmpint(sdt_l10n_columns("Capacity"), ==, 8);
	g_assert_cmpstr(padded, ==, "容量  ");
	g_assert_cmpstr(sdt_l10n_timing("sd-high-speed"), ==, "ハイスピード（50 MHz）");
	g_assert_cmpstr(sdt_l10n_timing("uhs-ddr50"), ==, "UHS-I DDR50");
	g_assert_cmpstr(sdt_l10n_bench_test("seq-write"), ==, "シーケンシャル書き込み");
}

/* a stored reason: English from its code, Japanese for the reader, the stored text when
 * the code is unknown or its arguments do not fit (issue 24) */
static void
test_reason(void)
{
	g_autoptr(JsonArray) clock = sdt_l10n_record_args("80.0", "100.0", NULL);
	g_autoptr(JsonArray) two = sdt_l10n_record_args("2", NULL);
	g_autoptr(JsonArray) wrong = sdt_l10n_record_args("80.0", NULL);
	g_autoptr(JsonArray) figures = json_array_new();
	g_autoptr(JsonArray) list = json_array_new();
	g_autofree gchar *english = sdt_l10n_record_reason_english("clock-wrong", clock);
	g_autofree gchar *plural = sdt_l10n_record_reason_english("interrupted", two);
	g_autofree gchar *works = NULL;
	const gchar *shown;

	g_assert_cmpstr(english,
			==,
			"The change did not take effect: the SD clock is 80.0 MHz, not the "
			"expected 100.0 MHz; the change was undone.");
	g_assert_cmpstr(sdt_l10n_record_reason_tr("clock-wrong", clock, english),
			==,
			"変更が有効になっていません。SD クロックは 80.0 MHz で、想定していた "
			"100.0 MHz ではありません。変更を元に戻しました。");
	g_assert_nonnull(strstr(plural, "interrupted 2 times"));
	g_assert_nonnull(
		strstr(sdt_l10n_record_reason_tr("interrupted", two, plural), "検証が 2 回"));
	/* an unknown code, too few arguments: the stored text, translated as before */
	g_assert_null(sdt_l10n_record_reason_english("no-such-code", NULL));
	g_assert_null(sdt_l10n_record_reason_english("clock-wrong", wrong));
	g_assert_cmpstr(sdt_l10n_record_reason_tr("no-such-code", NULL, english),
			==,
			sdt_l10n_record_reason_tr("clock-wrong", clock, english));
	g_assert_cmpstr(sdt_l10n_record_reason_tr("clock-wrong", wrong, "落ちていない"),
			==,
			"落ちていない");
	/* a list of figures: the tests by their titles, never their ids */
	json_array_add_string_element(list, "seq-write: 18.0 → 21.5 MB/s (+19%, ±0.4/±0.5)");
	json_array_add_array_element(figures, json_array_ref(list));
	works = sdt_l10n_record_reason_english("works", figures);
	g_assert_nonnull(strstr(works, "faster (seq-write: 18.0"));
	shown = sdt_l10n_record_reason_tr("works", figures, works);
	g_assert_nonnull(strstr(shown, "シーケンシャル書き込み: 18.0 → 21.5 MB/s"));
	g_assert_null(strstr(shown, "seq-write"));
}

/* the library in-process speaks English in this thread only while asked to */
static void
test_english_thread(void)
{
	gpointer before;
	const gchar *inside;

	g_assert_cmpstr(_("Sequential write"), ==, "シーケンシャル書き込み");
	before = sdt_l10n_english_begin();
	inside = _("Sequential write");
	g_assert_cmpstr(inside, ==, "Sequential write");
	{
		/* a progress callback inside shows text in the user's language again */
		gpointer user = sdt_l10n_user_begin();
		g_assert_cmpstr(_("Sequential write"), ==, "シーケンシャル書き込み");
		sdt_l10n_english_end(user);
	}
	g_assert_cmpstr(_("Sequential write"), ==, "Sequential write");
	sdt_l10n_english_end(before);
	g_assert_cmpstr(_("Sequential write"), ==, "シーケンシャル書き込み");
}

/* identifiers the history and the bus carry, as words */
static void
test_identifiers(void)
{
	g_autofree gchar *note = sdt_l10n_record_bench_note("raw-read skipped: something else");
	g_autofree gchar *other = sdt_l10n_record_bench_note("No fake found.");

	g_assert_true(g_str_has_prefix(note, sdt_l10n_bench_test("raw-read")));
	g_assert_null(strstr(note, "raw-read"));
	g_assert_cmpstr(other, ==, "No fake found.");
	g_assert_cmpstr(sdt_l10n_record_history_kind("something-new"), ==, "something-new");
	g_assert_cmpstr(sdt_l10n_record_history_kind(NULL), ==, "?");
	g_assert_cmpstr(sdt_l10n_record_decision("something-new"), ==, "something-new");
}

int
main(int argc, char **argv)
{
	const gchar *localedir = g_getenv("SDTUNER_LOCALEDIR");

	g_setenv("LANGUAGE", "ja", TRUE);
	/* a locale that is not C: glibc 2.41 ignores LANGUAGE under C.UTF-8 (tests/meson.build) */
	g_assert_nonnull(setlocale(LC_ALL, g_getenv("SDTUNER_TEST_LOCALE") ?: "C.UTF-8"));
	g_test_init(&argc, &argv, NULL);
	if (localedir == NULL) {
		g_test_skip("SDTUNER_LOCALEDIR is not set (meson test sets it)");
		return g_test_run();
	}
	bindtextdomain(GETTEXT_PACKAGE, localedir);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	g_test_add_func("/l10n/constant", test_constant);
	g_test_add_func("/l10n/values", test_values);
	g_test_add_func("/l10n/reordered", test_reordered);
	g_test_add_func("/l10n/plural", test_plural);
	g_test_add_func("/l10n/nested", test_nested);
	g_test_add_func("/l10n/helpers", test_helpers);
	g_test_add_func("/l10n/reason", test_reason);
	g_test_add_func("/l10n/english-thread", test_english_thread);
	g_test_add_func("/l10n/identifiers", test_identifiers);
	return g_test_run();
}
