/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include <math.h>
#include <string.h>

#include "sdt-bench-words.h"
#include "sdt-bench-record.h"
#include "sdt-client-history.h"
#include "sdt-status-report.h"
#include "sdt-block-preview.h"
#include "sdt-card-badges.h"
#include "sdt-chart-logic.h"
#include "sdt-check-words.h"
#include "sdt-disk-words.h"
#include "sdt-history-words.h"
#include "sdt-loop-state.h"
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
			"SD Tuner, then press Retry.\n(the system bus has no running or startable "
			"service org.example.SdTuner1)");
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
		 "The setting was not applied. Permission was not given.\n(msg)"},
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

/* issue 10: the rate graph draws each test as its own line, and a pause (no
 * sample for longer than the gap) ends a line too: never a straight line
 * across the time between two tests */
static void
test_rate_segments_break_between_tests(void)
{
	const gchar *w = g_intern_static_string("seq-write");
	const gchar *r = g_intern_static_string("seq-read");
	const SdtRatePoint points[] = {
		{0.1, 20, w},
		{0.2, 21, w},
		{0.3, 22, w}, /* the write test */
		{4.0, 40, r},
		{4.1, 41, r}, /* the read test after a pause */
		{9.0, 39, r},
		{9.1, 40, r}, /* same test, after 4.9 s of nothing */
		{9.2, 10, w}, /* a lone sample of the next test */
	};
	g_autoptr(GArray) segs = sdt_chart_logic_rate_segments(points, G_N_ELEMENTS(points), 2.0);
	const SdtRateSegment want[] = {{0, 3}, {3, 2}, {5, 2}, {7, 1}};

	g_assert_cmpuint(segs->len, ==, G_N_ELEMENTS(want));
	for (guint i = 0; i < segs->len; i++) {
		g_assert_cmpuint(g_array_index(segs, SdtRateSegment, i).first, ==, want[i].first);
		g_assert_cmpuint(g_array_index(segs, SdtRateSegment, i).n, ==, want[i].n);
	}
	g_clear_pointer(&segs, g_array_unref);
	segs = sdt_chart_logic_rate_segments(points, 0, 2.0);
	g_assert_cmpuint(segs->len, ==, 0);
}

/* the time axis: at most 6 ticks of a readable step */
static void
test_chart_time_step(void)
{
	g_assert_cmpfloat(sdt_chart_logic_time_step(0), ==, 1);
	g_assert_cmpfloat(sdt_chart_logic_time_step(5), ==, 1);
	g_assert_cmpfloat(sdt_chart_logic_time_step(7), ==, 2);
	g_assert_cmpfloat(sdt_chart_logic_time_step(28), ==, 5);
	g_assert_cmpfloat(sdt_chart_logic_time_step(80), ==, 15);
	g_assert_cmpfloat(sdt_chart_logic_time_step(125), ==, 30);
	g_assert_cmpfloat(sdt_chart_logic_time_step(1000), ==, 300);
	g_assert_cmpfloat(sdt_chart_logic_nice_ceiling(41), ==, 50);
	g_assert_cmpfloat(sdt_chart_logic_nice_ceiling(0), ==, 1);
}

/* an error bar spans value ± spread on the bar's scale, clamped to the bar */
static void
test_chart_error_bar(void)
{
	gdouble lo;
	gdouble hi;

	sdt_chart_logic_error_bar(20, 2, 40, 100, &lo, &hi);
	g_assert_cmpfloat_with_epsilon(lo, 45, 1e-9);
	g_assert_cmpfloat_with_epsilon(hi, 55, 1e-9);
	sdt_chart_logic_error_bar(39, 3, 40, 100, &lo, &hi); /* past the scale: clamped */
	g_assert_cmpfloat_with_epsilon(lo, 90, 1e-9);
	g_assert_cmpfloat_with_epsilon(hi, 100, 1e-9);
	sdt_chart_logic_error_bar(1, 3, 40, 100, &lo, &hi);
	g_assert_cmpfloat_with_epsilon(lo, 0, 1e-9);
	g_assert_cmpfloat_with_epsilon(hi, 10, 1e-9);
	sdt_chart_logic_error_bar(20, -1, 40, 100, &lo, &hi); /* unknown spread: no bar */
	g_assert_cmpfloat_with_epsilon(lo, hi, 1e-9);
	sdt_chart_logic_error_bar(-1, 2, 40, 100, &lo, &hi); /* not measured */
	g_assert_cmpfloat(lo, ==, 0);
	g_assert_cmpfloat(hi, ==, 0);
}

/* History's error bars come from the newest verification's evidence */
static void
test_chart_figures_from_verify(void)
{
	const gchar *json =
		"{\"entries\": [{\"kind\": \"verify\", \"time\": \"2026-01-01T10:00:00Z\", "
		"\"evidence\": "
		"  {\"figures\": [{\"name\": \"seq-read\", \"unit\": \"MB/s\", \"before\": 22,"
		"   \"before_spread\": 0.3, \"after\": 41, \"after_spread\": 0.6}]}},"
		" {\"kind\": \"bench\", \"time\": \"2026-01-02T10:00:00Z\"},"
		" {\"kind\": \"verify\", \"time\": \"2026-01-03T10:00:00Z\", \"evidence\": "
		"  {\"figures\": [{\"name\": \"rand-4k-read-qd32\", \"unit\": \"IOPS\","
		"   \"before\": 2000, \"before_spread\": 40, \"after\": 2400, \"after_spread\": "
		"null},"
		"   7, {\"unit\": \"MB/s\"}]}},"
		" {\"kind\": \"verify\", \"time\": \"2026-01-04T10:00:00Z\", \"decision\": "
		"\"wait\","
		"  \"evidence\": {\"figures\": []}}]}";
	g_autoptr(JsonNode) root = json_from_string(json, NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtClientHistory) history =
		sdt_history_report_from_json(json_node_get_object(root), &error);
	g_autoptr(GPtrArray) figures = NULL;
	const gchar *time = NULL;
	SdtChartFigure *f;

	g_assert_no_error(error);
	figures = sdt_chart_logic_figures_from_verify(history, &time);
	g_assert_nonnull(figures);
	g_assert_cmpstr(time, ==, "2026-01-03T10:00:00Z");
	g_assert_cmpuint(figures->len, ==, 1);
	f = g_ptr_array_index(figures, 0);
	g_assert_cmpstr(f->name, ==, "rand-4k-read-qd32");
	g_assert_true(f->iops);
	g_assert_cmpfloat(f->before, ==, 2000);
	g_assert_cmpfloat(f->before_spread, ==, 40);
	g_assert_cmpfloat(f->after, ==, 2400);
	g_assert_cmpfloat(f->after_spread, ==, -1);
	g_assert_null(sdt_chart_logic_figures_from_verify(NULL, NULL));
}

/* the engine's notes in words a user understands, not kernel jargon */
static void
test_bench_note_plain(void)
{
	g_autofree gchar *no_node =
		sdt_bench_words_note_plain("raw-read skipped: No device node for 254:0");
	g_autofree gchar *no_open = sdt_bench_words_note_plain(
		"raw-read skipped: Cannot open /dev/mmcblk0: Permission denied");
	g_autofree gchar *other = sdt_bench_words_note_plain("raw-read skipped: something else");
	g_autofree gchar *sim = sdt_bench_words_note_plain(
		"Simulated board: the test file is on 8:1 of this machine, not on the SD card's "
		"mmcblk0");
	g_autofree gchar *unknown = sdt_bench_words_note_plain("The test file is on /var/tmp.");
	g_autofree gchar *spread = sdt_bench_words_spread_text(1.25);
	g_autofree gchar *no_spread = sdt_bench_words_spread_text(-1);

	g_assert_cmpstr(no_node,
			==,
			"The test that reads the card directly was left out: SD Tuner could not "
			"find the card's device.");
	g_assert_cmpstr(no_open,
			==,
			"The test that reads the card directly was left out: the card's device "
			"could not be opened.");
	g_assert_cmpstr(other, ==, "The test that reads the card directly was left out.");
	g_assert_cmpstr(sim,
			==,
			"This board is simulated: these figures are the speed of a disk of this "
			"computer, not of an SD card.");
	g_assert_cmpstr(unknown, ==, "The test file is on /var/tmp.");
	g_assert_null(strstr(no_node, "254:0"));
	g_assert_cmpstr(spread, ==, "±1.2 %");
	g_assert_cmpstr(no_spread, ==, "—");
}

/* each figure's spread (ci_percent) and the verdict's reach the summary */
static void
test_bench_summary_spread(void)
{
	const gchar *json =
		"{\"tests\": [{\"name\": \"seq-read\", \"mb_s\": 20, \"iops\": 5, \"seconds\": 2,"
		" \"ci_percent\": 1.5}, {\"name\": \"seq-write\", \"mb_s\": 10, \"iops\": 3,"
		" \"seconds\": 2, \"ci_percent\": null}], \"spread_percent\": 4.0,"
		" \"verdict\": {\"a1\": true, \"a2\": false, \"spread_percent\": 2.5},"
		" \"notes\": [\"raw-read skipped: No device node for 254:0\"]}";
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchRecord) s = sdt_bench_record_parse(json, &error);

	g_assert_no_error(error);
	g_assert_cmpfloat(((SdtBenchRecordTest *) g_ptr_array_index(s->tests, 0))->ci_percent,
			  ==,
			  1.5);
	g_assert_true(isnan(((SdtBenchRecordTest *) g_ptr_array_index(s->tests, 1))->ci_percent));
	g_assert_cmpfloat(s->verdict.spread_percent, ==, 2.5);
	g_assert_cmpfloat(s->spread_percent, ==, 4.0);
	g_assert_cmpstr(g_ptr_array_index(s->notes, 0),
			==,
			"raw-read skipped: No device node for 254:0");
}

/* a GetStatus answer through the client's status reader */
static SdtStatusReport *
status_read(const gchar *json)
{
	g_autoptr(JsonNode) root = json_from_string(json, NULL);
	g_autoptr(GError) error = NULL;
	SdtStatusReport *status;

	g_assert_nonnull(root);
	status = sdt_status_report_from_json(json_node_get_object(root), &error);
	g_assert_no_error(error);
	return status;
}

/* the Tuning page's three states from GetStatus */
static void
test_loop_state_phases(void)
{
	g_autoptr(SdtStatusReport) s1 = status_read(
		"{\"tryboot_active\": false, \"reboot_pending\": false, \"pending_verification\":"
		" {\"id\": \"sd-overclock-100\", \"trial\": true}, \"last_verification\": null}");
	g_autoptr(SdtStatusReport) s2 =
		status_read("{\"tryboot_active\": true, \"pending_verification\":"
			    " {\"id\": \"sd-overclock-100\", \"trial\": true}}");
	g_autoptr(SdtStatusReport) s3 =
		status_read("{\"reboot_pending\": true, \"pending_verification\":"
			    " {\"id\": \"sd-overclock-100\", \"trial\": false}}");
	g_autoptr(SdtStatusReport) s4 = status_read(
		"{\"pending_verification\": null, \"last_verification\": {\"id\": "
		"\"sd-overclock-100\", \"decision\": \"undo\", \"reason\": \"no real gain\","
		" \"time\": \"2026-01-03T10:00:00Z\"}}");
	/* a trial still waiting although a reboot is pending: tryboot decides */
	g_autoptr(SdtStatusReport) s5 =
		status_read("{\"tryboot_active\": false, \"reboot_pending\": true,"
			    " \"pending_verification\": {\"trial\": true}}");
	g_autoptr(SdtLoopState) trial_waits = sdt_loop_state_new(s1);
	g_autoptr(SdtLoopState) trial_checks = sdt_loop_state_new(s2);
	g_autoptr(SdtLoopState) plain_waits = sdt_loop_state_new(s3);
	g_autoptr(SdtLoopState) decided = sdt_loop_state_new(s4);
	g_autoptr(SdtLoopState) no_id = sdt_loop_state_new(s5);
	g_autofree gchar *t1 = sdt_loop_state_phase_text(trial_waits);
	g_autofree gchar *t2 = sdt_loop_state_phase_text(trial_checks);
	g_autofree gchar *t3 = sdt_loop_state_phase_text(plain_waits);
	g_autofree gchar *t4 = sdt_loop_state_outcome_text(decided);
	g_autofree gchar *none = sdt_loop_state_phase_text(decided);
	g_autofree gchar *t5 = sdt_loop_state_phase_text(no_id);

	g_assert_cmpint(trial_waits->phase, ==, SDT_LOOP_PENDING);
	g_assert_true(g_str_has_prefix(t1, "The trial of sd-overclock-100 is ready."));
	g_assert_cmpint(trial_checks->phase, ==, SDT_LOOP_VERIFYING);
	g_assert_true(g_str_has_prefix(t2, "SD Tuner is checking sd-overclock-100 since"));
	g_assert_cmpint(plain_waits->phase, ==, SDT_LOOP_PENDING);
	g_assert_true(g_str_has_prefix(t3, "sd-overclock-100 is in config.txt."));
	g_assert_cmpint(decided->phase, ==, SDT_LOOP_IDLE);
	g_assert_null(none);
	g_assert_cmpstr(t4, ==, "SD Tuner undid sd-overclock-100 after checking it. no real gain");
	g_assert_cmpstr(decided->time, ==, "2026-01-03T10:00:00Z");
	g_assert_cmpstr(decided->decided_id, ==, "sd-overclock-100");
	g_assert_cmpint(no_id->phase, ==, SDT_LOOP_PENDING);
	g_assert_true(no_id->trial);
	g_assert_true(g_str_has_prefix(t5, "The trial of ? is ready."));
}

/* issue 27: the Overview's and Health page's words for eMMC and a card that is not the system */
static void
test_disk_words(void)
{
	g_autoptr(SdtInfoReportEmmc) worn = sdt_info_report_emmc_new();
	g_autoptr(SdtInfoReportEmmc) odd = sdt_info_report_emmc_new();
	g_autofree gchar *nvme = sdt_disk_words_system(SDT_INFO_REPORT_FLAG_NO, "nvme0n1p2");
	g_autofree gchar *usb = sdt_disk_words_system(SDT_INFO_REPORT_FLAG_NO, "sda2");
	g_autofree gchar *nowhere = sdt_disk_words_system(SDT_INFO_REPORT_FLAG_NO, NULL);
	g_autofree gchar *w = NULL;
	g_autofree gchar *o = NULL;

	/* card.emmc as the engine writes it: the verdict and the three values */
	worn->wear = g_strdup("urgent");
	worn->life_time_a.value = 0x0b;
	worn->life_time_b.value = 0x0a;
	worn->pre_eol = 0x03;
	odd->wear = g_strdup("unknown");
	odd->life_time_a.value = 0x0c;
	odd->pre_eol = 0x07;
	w = sdt_disk_words_emmc_wear(worn);
	o = sdt_disk_words_emmc_wear(odd);

	g_assert_cmpstr(nvme,
			==,
			"The system runs from nvme0n1p2 (an NVMe drive), not from this card: SD "
			"Tuner tunes nothing for it. You can still benchmark and check the card.");
	g_assert_nonnull(strstr(usb, "sda2 (a USB drive)"));
	g_assert_nonnull(strstr(nowhere, "The system does not run from this card"));
	g_assert_null(sdt_disk_words_system(SDT_INFO_REPORT_FLAG_YES, NULL));
	g_assert_null(sdt_disk_words_system(SDT_INFO_REPORT_FLAG_UNKNOWN, "nvme0n1p2"));
	g_assert_cmpstr(
		w,
		==,
		"The eMMC reports that it is worn out: back up your data now and replace "
		"the board or module.\nLife used, type A memory: past its rated life (0x0B: "
		"more than 100% used)\nLife used, type B memory: 90–100% of its rated life "
		"used (0x0A)\nReserved blocks (pre-EOL): urgent (0x03): the reserved blocks "
		"are almost used up");
	g_assert_nonnull(strstr(o, "unknown value 0x0C"));
	g_assert_nonnull(strstr(o, "type B memory: unknown (the chip's report cannot be read)"));
	g_assert_nonnull(strstr(o, "unknown value 0x07"));
}

/* the History page's lines: the kinds and ids the history stores are words (issue 24) */
static void
test_history_entry_words(void)
{
	const gchar *json =
		"{\"entries\": ["
		" {\"kind\": \"check\", \"time\": \"2026-01-01T10:00:00Z\", \"verdict\": "
		"\"genuine\", \"reason\": \"No fake found.\"},"
		" {\"kind\": \"soak\", \"time\": \"2026-01-01T10:01:00Z\", \"soak\": "
		"{\"mismatches\": 0}},"
		" {\"kind\": \"soak\", \"time\": \"2026-01-01T10:02:00Z\", \"soak\": "
		"{\"mismatches\": 4096}},"
		" {\"kind\": \"something-new\", \"time\": \"2026-01-01T10:03:00Z\"},"
		" {\"kind\": \"verify\", \"time\": \"2026-01-01T10:04:00Z\", \"id\": "
		"\"sd-overclock-100\", \"decision\": \"undo\", \"reason\": \"A figure got "
		"worse by more than its spread (seq-write: 9.2 → 8.2 MB/s (-12%, ±0.1/±0.1)), so "
		"the change was undone.\", \"reason_code\": \"figure-worse\", \"reason_args\": "
		"[[\"seq-write: 9.2 → 8.2 MB/s (-12%, ±0.1/±0.1)\"]]}]}";
	g_autoptr(JsonNode) root = json_from_string(json, NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtClientHistory) history =
		sdt_history_report_from_json(json_node_get_object(root), &error);
	const gchar *want[] = {
		"  Authenticity check: genuine. No fake found.",
		"  Soak test: every byte read back intact",
		"  Soak test: 4096 bytes read back wrong",
		"  something-new",
		"  SD Tuner undid sd-overclock-100 after checking it. A figure got worse by more "
		"than its spread (Sequential write: 9.2 → 8.2 MB/s (-12%, ±0.1/±0.1)), so the "
		"change was undone.",
	};

	g_assert_no_error(error);
	g_assert_cmpuint(history->entries->len, ==, G_N_ELEMENTS(want));
	for (guint i = 0; i < G_N_ELEMENTS(want); i++) {
		g_autofree gchar *line =
			sdt_history_words_entry_text(g_ptr_array_index(history->entries, i));
		g_assert_nonnull(strstr(line, want[i]));
		g_assert_true(g_str_has_suffix(line, want[i]));
	}
}

/* issue 33: a decision that could not be carried out is never told as done, on the
 * History page nor in the outcome of the Tuning page (status's last_verification) */
#define FAILED_STEP_DOWN                                                                   \
	"{\"kind\": \"verify\", \"time\": \"2026-01-01T10:04:00Z\", \"id\": "              \
	"\"sd-overclock-100\", \"decision\": \"step-down\", \"reason\": \"The kernel log " \
	"shows 1 I/O error at this clock, so SD Tuner prepared the next slower step, "     \
	"sd-overclock-80 (80.0 MHz): restart the Pi to try it.\", \"action\": {\"what\": " \
	"\"failed\", \"error\": \"cannot write config.txt: Read-only file system. Run "    \
	"“sudo sdtunerctl revert” to take the change back\"}}"

static void
test_history_failed_action_words(void)
{
	g_autoptr(JsonNode) root = json_from_string("{\"entries\": [" FAILED_STEP_DOWN "]}", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtClientHistory) history =
		sdt_history_report_from_json(json_node_get_object(root), &error);
	g_autoptr(SdtStatusReport) status =
		status_read("{\"last_verification\": " FAILED_STEP_DOWN "}");
	g_autoptr(SdtLoopState) state = sdt_loop_state_new(status);
	g_autofree gchar *outcome = sdt_loop_state_outcome_text(state);
	g_autofree gchar *line = NULL;

	g_assert_no_error(error);
	g_assert_cmpuint(history->entries->len, ==, 1);
	line = sdt_history_words_entry_text(g_ptr_array_index(history->entries, 0));
	for (guint i = 0; i < 2; i++) {
		const gchar *text = i == 0 ? line : outcome;
		g_test_message("%s", text);
		g_assert_null(strstr(text, "stepped sd-overclock-100 down"));
		g_assert_null(strstr(text, "prepared the next slower step"));
		g_assert_nonnull(strstr(text, "could not step sd-overclock-100 down"));
		g_assert_nonnull(strstr(text, "still in place"));
		g_assert_nonnull(strstr(text, "Read-only file system"));
		g_assert_nonnull(strstr(text, "sdtunerctl revert"));
	}
}

/* the words of a check's result, shared by the Health and Cards pages */
static void
test_check_words(void)
{
	g_autoptr(SdtCheckResult) r = sdt_check_result_new();
	g_autofree gchar *fake = NULL;
	g_autofree gchar *genuine = NULL;

	r->verdict = g_strdup("fake");
	r->capacity_at_least_bytes = 734003200;
	r->capacity_at_most_bytes = 738197504;
	r->reason = g_strdup("The card wraps around.");
	r->coverage = 0.5;
	r->seconds = 3.25;
	fake = sdt_check_words_result(r);
	g_assert_true(g_str_has_prefix(fake, "Fake: the card holds less than it claims.\n"));
	g_assert_nonnull(strstr(fake,
				"It really holds between 734 and 739 MB. Files written "
				"past about 734 MB are lost"));
	g_assert_nonnull(strstr(fake, "\nThe card wraps around.\n"));
	g_assert_true(g_str_has_suffix(fake, "Checked 50% of the card's addresses in 3.2 s."));
	g_free(r->verdict);
	r->verdict = g_strdup("genuine");
	genuine = sdt_check_words_result(r);
	g_assert_true(g_str_has_prefix(genuine, "Genuine: the card holds what it claims.\n"));
	g_assert_null(strstr(genuine, "really holds"));
	g_assert_null(strstr(genuine, "cache"));
}

/* a write cache found is said; the card checked before, by CID or maybe by its size */
static void
test_check_words_cache_and_before(void)
{
	g_autoptr(SdtCheckResult) r = sdt_check_result_new();
	g_autofree gchar *fake = NULL;
	g_autofree gchar *cid = NULL;
	g_autofree gchar *size = NULL;
	g_autofree gchar *none = NULL;

	r->verdict = g_strdup("fake");
	r->capacity_at_least_bytes = 536829952;
	r->capacity_at_most_bytes = 536879104;
	r->cache_flushed_bytes = 33554432;
	r->cache_at_least_bytes = 16777216;
	r->cache_at_most_bytes = 33554432;
	fake = sdt_check_words_result(r);
	g_assert_nonnull(strstr(fake,
				"\nThe card answered reads from a cache of the last 16 to 32 MiB "
				"written; the check wrote past it.\n"));
	cid = sdt_check_words_checked_before("cid", "2026-12-02T03:00:00Z", "fake");
	g_assert_true(g_str_has_prefix(cid, "This card was checked before, on "));
	g_assert_true(g_str_has_suffix(cid, ": fake"));
	size = sdt_check_words_checked_before("size", "2026-12-02T03:00:00Z", "genuine");
	g_assert_true(g_str_has_prefix(size, "A card of the same size was checked in a card "));
	g_assert_true(g_str_has_suffix(size, "(maybe this one): genuine"));
	none = sdt_check_words_checked_before(NULL, NULL, NULL);
	g_assert_null(none);
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
	g_test_add_func("/sdtuner/app-chart/rate-segments-break-between-tests",
			test_rate_segments_break_between_tests);
	g_test_add_func("/sdtuner/app-chart/time-step", test_chart_time_step);
	g_test_add_func("/sdtuner/app-chart/error-bar", test_chart_error_bar);
	g_test_add_func("/sdtuner/app-chart/figures-from-verify", test_chart_figures_from_verify);
	g_test_add_func("/sdtuner/app-bench-words/plain-notes", test_bench_note_plain);
	g_test_add_func("/sdtuner/app-bench-summary/spread", test_bench_summary_spread);
	g_test_add_func("/sdtuner/app-check-words/fake-and-genuine", test_check_words);
	g_test_add_func("/sdtuner/app-check-words/cache-and-before",
			test_check_words_cache_and_before);
	g_test_add_func("/sdtuner/app-loop-state/phases", test_loop_state_phases);
	g_test_add_func("/sdtuner/app-disk-words/emmc-and-system-disk", test_disk_words);
	g_test_add_func("/sdtuner/app-history/entry-words", test_history_entry_words);
	g_test_add_func("/sdtuner/app-history/failed-action-words",
			test_history_failed_action_words);
	return g_test_run();
}
