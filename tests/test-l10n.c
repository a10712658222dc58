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

int
main(int argc, char **argv)
{
	const gchar *localedir = g_getenv("SDTUNER_LOCALEDIR");

	g_setenv("LANGUAGE", "ja", TRUE);
	setlocale(LC_ALL, "C.UTF-8");
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
	return g_test_run();
}
