/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "sdt-block-preview.h"
#include "sdt-card-badges.h"
#include "sdt-error.h"
#include "sdt-user-error.h"

static void
test_badges_full_label(void)
{
	g_autoptr(GPtrArray) badges = sdt_card_badges_new(10, 1, 30, 1, FALSE);
	SdtCardBadge *b;

	g_assert_cmpuint(badges->len, ==, 4);
	b = g_ptr_array_index(badges, 0);
	g_assert_cmpstr(b->label, ==, "C10");
	g_assert_cmpstr(b->explanation, ==, "Writes video at 10 MB/s or more");
	b = g_ptr_array_index(badges, 1);
	g_assert_cmpstr(b->label, ==, "U1");
	g_assert_cmpstr(b->explanation, ==, "Writes 10 MB/s or more on a fast (UHS) bus");
	b = g_ptr_array_index(badges, 2);
	g_assert_cmpstr(b->label, ==, "V30");
	g_assert_cmpstr(b->explanation, ==, "Records video at 30 MB/s or more");
	b = g_ptr_array_index(badges, 3);
	g_assert_cmpstr(b->label, ==, "A1");
	g_assert_cmpstr(b->explanation,
			==,
			"Runs apps: 1500 small reads and 500 small writes per second or more");
}

static void
test_badges_a2_depends_on_queueing(void)
{
	g_autoptr(GPtrArray) without = sdt_card_badges_new(0, 3, 0, 2, FALSE);
	g_autoptr(GPtrArray) with = sdt_card_badges_new(0, 3, 0, 2, TRUE);
	SdtCardBadge *b;

	g_assert_cmpuint(without->len, ==, 2);
	b = g_ptr_array_index(without, 0);
	g_assert_cmpstr(b->label, ==, "U3");
	g_assert_cmpstr(b->explanation, ==, "Writes 30 MB/s or more on a fast (UHS) bus");
	b = g_ptr_array_index(without, 1);
	g_assert_cmpstr(b->label, ==, "A2");
	g_assert_cmpstr(b->explanation,
			==,
			"Built for command queueing, which this board does not use: expect A1 "
			"speeds or less");
	b = g_ptr_array_index(with, 1);
	g_assert_cmpstr(b->explanation,
			==,
			"Runs apps: 4000 small reads and 2000 small writes per second, with "
			"command queueing on this board");
}

static void
test_badges_none_for_zero_classes(void)
{
	/* the emulated card's SSR is all zeros (PLATFORM.md 10.1) */
	g_autoptr(GPtrArray) badges = sdt_card_badges_new(0, 0, 0, 0, FALSE);
	g_assert_cmpuint(badges->len, ==, 0);
}

static void
test_user_error_helper_missing(void)
{
	g_autoptr(GError) error = g_error_new_literal(
		G_DBUS_ERROR,
		G_DBUS_ERROR_SERVICE_UNKNOWN,
		"The name org.example.SdTuner1 was not provided by any .service files");
	g_autofree gchar *text = sdt_user_error_describe(SDT_USER_ACTION_INFO, error);

	g_assert_true(sdt_user_error_is_service_gone(error));
	g_assert_cmpstr(text,
			==,
			"SD Tuner could not read the board and card details. The SD Tuner system "
			"service (sd-tuner-helper) is not installed or could not start. Reinstall "
			"SD Tuner, then press Retry.\n(The name org.example.SdTuner1 was not "
			"provided by any .service files)");
}

static void
test_user_error_remote_codes(void)
{
	struct {
		const gchar *dbus_name;
		SdtUserAction action;
		const gchar *expected;
	} cases[] = {
		{"org.example.SdTuner1.Error.NotAuthorized",
		 SDT_USER_ACTION_APPLY,
		 "The setting was not applied. Permission was not given. Try again and enter an "
		 "administrator password when asked.\n(msg)"},
		{"org.example.SdTuner1.Error.Cancelled",
		 SDT_USER_ACTION_REVERT,
		 "The change was not reverted. The password prompt was dismissed. Try again when "
		 "you are ready.\n(msg)"},
		{"org.example.SdTuner1.Error.ConfigChanged",
		 SDT_USER_ACTION_APPLY,
		 "The setting was not applied. config.txt was changed by another program at the "
		 "same time, so nothing was written. Press Retry to read it again, then try "
		 "again.\n(msg)"},
		{"org.example.SdTuner1.Error.NotFound",
		 SDT_USER_ACTION_BENCHMARK,
		 "The benchmark did not finish. No SD card was found. Insert the card the system "
		 "runs from, then press Retry.\n(msg)"},
		{"org.example.SdTuner1.Error.IO",
		 SDT_USER_ACTION_BENCHMARK,
		 "The benchmark did not finish. Reading or writing the SD card failed. The card "
		 "may be failing or was removed: check it, then press Retry.\n(msg)"},
	};

	/* the domain is registered with D-Bus when first used */
	g_assert_cmpuint(SDT_ERROR, !=, 0);
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error =
			g_dbus_error_new_for_dbus_error(cases[i].dbus_name, "msg");
		g_autofree gchar *text = sdt_user_error_describe(cases[i].action, error);

		g_assert_cmpuint(error->domain, ==, SDT_ERROR);
		g_assert_false(sdt_user_error_is_service_gone(error));
		g_assert_cmpstr(text, ==, cases[i].expected);
	}
}

static void
test_user_error_helper_crashed_and_bus_gone(void)
{
	g_autoptr(GError) crashed =
		g_error_new_literal(G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY, "stopped");
	g_autoptr(GError) no_bus =
		g_error_new_literal(G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no socket");
	g_autofree gchar *t1 = sdt_user_error_describe(SDT_USER_ACTION_BENCHMARK, crashed);
	g_autofree gchar *t2 = sdt_user_error_describe(SDT_USER_ACTION_CONNECT, no_bus);

	g_assert_cmpstr(t1,
			==,
			"The benchmark did not finish. The SD Tuner system service stopped "
			"unexpectedly. Press Retry; if it happens again, reinstall SD "
			"Tuner.\n(stopped)");
	g_assert_cmpstr(
		t2,
		==,
		"SD Tuner could not reach its system service. The system message bus is "
		"not running. Restart the computer, then open SD Tuner again.\n(no socket)");
}

static void
test_block_preview_is_the_written_block(void)
{
	const gchar *lines[] = {"dtparam=sd_overclock=100", NULL};
	g_autoptr(GError) error = NULL;
	g_autofree gchar *block =
		sdt_block_preview("sd-overclock-100", "[board-type=0x08]", lines, &error);

	/* what `sdtunerctl apply sd-overclock-100` appends on the simulated Pi 3 */
	g_assert_no_error(error);
	g_assert_cmpstr(block,
			==,
			"# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n"
			"[all]\n"
			"[board-type=0x08]\n"
			"dtoverlay=\n"
			"dtparam=sd_overclock=100\n"
			"[all]\n"
			"# --- SD Tuner end ---\n");
}

static void
test_block_preview_refuses_all(void)
{
	const gchar *lines[] = {"dtparam=sd_overclock=100", NULL};
	g_autoptr(GError) error = NULL;
	g_autofree gchar *block = sdt_block_preview("sd-overclock-100", "[all]", lines, &error);

	g_assert_null(block);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
}

int
main(int argc, char **argv)
{
	g_setenv("LANGUAGE", "C", TRUE);
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/app-badges/full-label", test_badges_full_label);
	g_test_add_func("/sdtuner/app-badges/a2-depends-on-queueing",
			test_badges_a2_depends_on_queueing);
	g_test_add_func("/sdtuner/app-badges/none-for-zero-classes",
			test_badges_none_for_zero_classes);
	g_test_add_func("/sdtuner/app-user-error/helper-missing", test_user_error_helper_missing);
	g_test_add_func("/sdtuner/app-user-error/remote-codes", test_user_error_remote_codes);
	g_test_add_func("/sdtuner/app-user-error/helper-crashed-and-bus-gone",
			test_user_error_helper_crashed_and_bus_gone);
	g_test_add_func("/sdtuner/app-block-preview/is-the-written-block",
			test_block_preview_is_the_written_block);
	g_test_add_func("/sdtuner/app-block-preview/refuses-all", test_block_preview_refuses_all);
	return g_test_run();
}
