/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "sdt-bench-summary.h"
#include "sdt-block-preview.h"
#include "sdt-card-badges.h"
#include "sdt-error.h"
#include "sdt-user-error.h"

/* a `bench --json` document in the DESIGN.md schema */
static const gchar *bench_json =
	"{\"target\": {\"path\": \"/\", \"device\": \"mmcblk0\", \"filesystem\": \"ext4\"},"
	" \"profile\": \"quick\", \"ceiling_mb_s\": 25.0,"
	" \"tests\": ["
	"  {\"name\": \"seq-write\", \"block_size\": 4194304, \"queue_depth\": 1,"
	"   \"mb_s\": 12.5, \"iops\": 3, \"seconds\": 2.0},"
	"  {\"name\": \"seq-read\", \"block_size\": 4194304, \"queue_depth\": 1,"
	"   \"mb_s\": 22.5, \"iops\": 5, \"seconds\": 2.0},"
	"  {\"name\": \"rand-4k-write-qd1\", \"block_size\": 4096, \"queue_depth\": 1,"
	"   \"mb_s\": 2.4, \"iops\": 600, \"seconds\": 3.0},"
	"  {\"name\": \"rand-4k-read-qd1\", \"block_size\": 4096, \"queue_depth\": 1,"
	"   \"mb_s\": 8.0, \"iops\": 1953, \"seconds\": 3.0}"
	" ],"
	" \"notes\": [\"The test file is on /var/tmp.\", 7],"
	" \"verdict\": {\"a1\": true, \"a2\": false}}";

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
test_bench_summary_rows_and_targets(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchSummary) s = sdt_bench_summary_parse(bench_json, &error);
	SdtBenchRow *row;

	g_assert_no_error(error);
	g_assert_nonnull(s);
	g_assert_cmpuint(s->rows->len, ==, 4);
	g_assert_cmpuint(s->invalid_rows, ==, 0);
	g_assert_cmpfloat(s->ceiling_mb_s, ==, 25.0);
	g_assert_cmpstr(s->device, ==, "mmcblk0");
	g_assert_cmpstr(s->profile, ==, "quick");
	g_assert_cmpint(s->a1, ==, SDT_TARGET_PASS);
	g_assert_cmpint(s->a2, ==, SDT_TARGET_FAIL);
	g_assert_cmpuint(s->notes->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(s->notes, 0), ==, "The test file is on /var/tmp.");

	row = g_ptr_array_index(s->rows, 0);
	g_assert_cmpstr(row->name, ==, "seq-write");
	g_assert_true(row->valid);
	g_assert_cmpfloat(row->ceiling_pct, ==, 50.0);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_PASS);
	g_assert_cmpint(row->a2, ==, SDT_TARGET_PASS);

	row = g_ptr_array_index(s->rows, 1);
	g_assert_cmpstr(row->name, ==, "seq-read");
	g_assert_cmpfloat(row->ceiling_pct, ==, 90.0);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_NONE);

	row = g_ptr_array_index(s->rows, 2);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_PASS); /* 600 >= 500 */
	g_assert_cmpint(row->a2, ==, SDT_TARGET_FAIL); /* 600 < 2000 */

	row = g_ptr_array_index(s->rows, 3);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_PASS); /* 1953 >= 1500 */
	g_assert_cmpint(row->a2, ==, SDT_TARGET_FAIL); /* 1953 < 4000 */
	g_assert_cmpstr(sdt_bench_test_title(row->name), ==, "Random 4K read, one at a time");
}

static void
test_bench_summary_zero_duration_is_invalid(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchSummary) s = sdt_bench_summary_parse(
		"{\"ceiling_mb_s\": 25, \"tests\": ["
		" {\"name\": \"seq-read\", \"mb_s\": 0, \"iops\": 0, \"seconds\": 0},"
		" {\"name\": \"seq-write\", \"mb_s\": \"nan\", \"iops\": 1, \"seconds\": 1},"
		" {\"name\": \"rand-4k-read-qd1\", \"mb_s\": 4.0, \"iops\": 1000, \"seconds\": 1}],"
		" \"verdict\": {\"a1\": true, \"a2\": true}}",
		&error);
	SdtBenchRow *row;

	g_assert_no_error(error);
	g_assert_cmpuint(s->invalid_rows, ==, 2);
	row = g_ptr_array_index(s->rows, 0);
	g_assert_false(row->valid);
	g_assert_cmpfloat(row->ceiling_pct, ==, -1);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_NONE);
	row = g_ptr_array_index(s->rows, 1);
	g_assert_false(row->valid);
	row = g_ptr_array_index(s->rows, 2);
	g_assert_true(row->valid);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_FAIL);
	/* a verdict over unusable figures is not shown */
	g_assert_cmpint(s->a1, ==, SDT_TARGET_NONE);
	g_assert_cmpint(s->a2, ==, SDT_TARGET_NONE);
}

/* a run whose test file was not on the SD card: no A1/A2 marks, no verdict on the card */
static void
test_bench_summary_stand_in(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchSummary) s = sdt_bench_summary_parse(
		"{\"target\": {\"path\": \"/var/tmp/x\", \"device\": \"sda1\", \"stand_in\": true},"
		" \"tests\": ["
		"  {\"name\": \"seq-write\", \"mb_s\": 300, \"iops\": 75, \"seconds\": 1},"
		"  {\"name\": \"rand-4k-read-qd32\", \"mb_s\": 90, \"iops\": 22000, \"seconds\": "
		"1}],"
		" \"verdict\": {\"a1\": true, \"a2\": true, \"stand_in\": true}}",
		&error);

	g_assert_no_error(error);
	g_assert_true(s->stand_in);
	g_assert_cmpstr(s->path, ==, "/var/tmp/x");
	g_assert_cmpstr(s->device, ==, "sda1");
	g_assert_cmpint(s->a1, ==, SDT_TARGET_NONE);
	g_assert_cmpint(s->a2, ==, SDT_TARGET_NONE);
	for (guint i = 0; i < s->rows->len; i++) {
		SdtBenchRow *row = g_ptr_array_index(s->rows, i);
		g_assert_true(row->valid);
		g_assert_cmpint(row->a1, ==, SDT_TARGET_NONE);
		g_assert_cmpint(row->a2, ==, SDT_TARGET_NONE);
	}
}

/* a history of card runs, stand-in runs and a change, oldest first */
static JsonArray *
test_history_entries(const gchar *const *spec)
{
	JsonArray *entries = json_array_new();

	for (guint i = 0; spec[i] != NULL; i++) {
		g_autofree gchar *json = NULL;
		g_autoptr(JsonNode) node = NULL;
		gdouble mb_s = 10.0 + i;
		if (g_strcmp0(spec[i], "apply") == 0)
			json = g_strdup("{\"kind\": \"apply\", \"id\": \"sd-overclock-100\"}");
		else
			json = g_strdup_printf(
				"{\"kind\": \"bench\", \"target\": {\"path\": \"/p%u\", "
				"\"device\": \"d\", \"stand_in\": %s}, \"tests\": [{\"name\": "
				"\"seq-read\", \"mb_s\": %.1f, \"iops\": 1, \"seconds\": 1}], "
				"\"verdict\": {\"a1\": true, \"a2\": false}}",
				i,
				g_strcmp0(spec[i], "stand-in") == 0 ? "true" : "false",
				mb_s);
		node = json_from_string(json, NULL);
		g_assert_nonnull(node);
		json_array_add_element(entries, g_steal_pointer(&node));
	}
	return entries;
}

static void
test_history_comparison_leaves_out_stand_ins(void)
{
	/* card, stand-in, apply, stand-in, card, stand-in: the two card runs */
	const gchar *const mixed[] =
		{"card", "stand-in", "apply", "stand-in", "card", "stand-in", NULL};
	/* stand-ins only, around a change: nothing to compare */
	const gchar *const only[] = {"stand-in", "apply", "stand-in", NULL};
	/* a card run before the change, stand-ins after: waiting for a card run */
	const gchar *const waiting[] = {"card", "apply", "stand-in", NULL};
	/* two card runs, no change, a stand-in between */
	const gchar *const previous[] = {"card", "stand-in", "card", NULL};
	g_autoptr(JsonArray) e1 = test_history_entries(mixed);
	g_autoptr(JsonArray) e2 = test_history_entries(only);
	g_autoptr(JsonArray) e3 = test_history_entries(waiting);
	g_autoptr(JsonArray) e4 = test_history_entries(previous);
	g_autoptr(SdtHistoryComparison) c1 = sdt_history_comparison_new(e1);
	g_autoptr(SdtHistoryComparison) c2 = sdt_history_comparison_new(e2);
	g_autoptr(SdtHistoryComparison) c3 = sdt_history_comparison_new(e3);
	g_autoptr(SdtHistoryComparison) c4 = sdt_history_comparison_new(e4);

	g_assert_cmpint(c1->kind, ==, SDT_HISTORY_COMPARE_CHANGE);
	g_assert_cmpstr(c1->before->path, ==, "/p0");
	g_assert_cmpstr(c1->after->path, ==, "/p4");
	g_assert_cmpuint(c1->stand_in_runs, ==, 3);

	g_assert_cmpint(c2->kind, ==, SDT_HISTORY_COMPARE_NONE);
	g_assert_null(c2->before);
	g_assert_null(c2->after);
	g_assert_cmpuint(c2->stand_in_runs, ==, 2);

	g_assert_cmpint(c3->kind, ==, SDT_HISTORY_COMPARE_WAITING);
	g_assert_cmpstr(c3->before->path, ==, "/p0");
	g_assert_null(c3->after);

	g_assert_cmpint(c4->kind, ==, SDT_HISTORY_COMPARE_PREVIOUS);
	g_assert_cmpstr(c4->before->path, ==, "/p0");
	g_assert_cmpstr(c4->after->path, ==, "/p2");
}

static void
test_bench_summary_bad_documents(void)
{
	const gchar *bad[] = {
		"{\"tests\": [{\"name\": \"seq-read\", \"mb_s\": NaN}]}", /* not JSON */
		"[1, 2]",
		"{\"profile\": \"quick\"}",
		"",
	};
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtBenchSummary) s = sdt_bench_summary_parse(bad[i], &error);
		g_assert_null(s);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	}
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
	g_test_add_func("/sdtuner/app-bench-summary/rows-and-targets",
			test_bench_summary_rows_and_targets);
	g_test_add_func("/sdtuner/app-bench-summary/zero-duration-is-invalid",
			test_bench_summary_zero_duration_is_invalid);
	g_test_add_func("/sdtuner/app-bench-summary/stand-in", test_bench_summary_stand_in);
	g_test_add_func("/sdtuner/app-history/comparison-leaves-out-stand-ins",
			test_history_comparison_leaves_out_stand_ins);
	g_test_add_func("/sdtuner/app-bench-summary/bad-documents",
			test_bench_summary_bad_documents);
	g_test_add_func("/sdtuner/app-user-error/helper-missing", test_user_error_helper_missing);
	g_test_add_func("/sdtuner/app-user-error/remote-codes", test_user_error_remote_codes);
	g_test_add_func("/sdtuner/app-user-error/helper-crashed-and-bus-gone",
			test_user_error_helper_crashed_and_bus_gone);
	g_test_add_func("/sdtuner/app-block-preview/is-the-written-block",
			test_block_preview_is_the_written_block);
	g_test_add_func("/sdtuner/app-block-preview/refuses-all", test_block_preview_refuses_all);
	return g_test_run();
}
