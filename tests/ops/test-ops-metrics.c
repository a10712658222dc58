/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-error.h"
#include "sdt-ops.h"
#include "sdt-ops-private.h"
#include "sdt-check.h"
#include "sdt-test-root.h"

/*
 * sdt_ops_metrics(): the Prometheus text of the simulated Pi 3 (its SD device chain from
 * umockdev) with the history of tests/data/history: the card, the bus, the last benchmark;
 * no card; a damaged history entry.
 */

static gchar *
test_ops_metrics_of(SdtTestRoot *root)
{
	g_autoptr(GError) error = NULL;
	gchar *text = sdt_ops_metrics(root->ctx, &error);

	g_assert_no_error(error);
	g_assert_nonnull(text);
	return text;
}

/* @sample is one whole line of @text */
static gboolean
test_ops_metrics_has(const gchar *text, const gchar *sample)
{
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	return g_strv_contains((const gchar *const *) lines, sample);
}

static void
test_ops_metrics_pi3(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", "legacy-sd-lines.txt", TRUE);
	g_autofree gchar *text = test_ops_metrics_of(root);
	const gchar *samples[] = {
		"# TYPE sdtuner_card_present gauge",
		"sdtuner_card_present 1",
		"sdtuner_card_info{device=\"mmcblk0\",type=\"SD\",manfid=\"0x03\",oemid=\"SD\","
		"name=\"SU08G\",serial=\"0x1e4c2983\",app_class=\"0\",speed_class=\"4\"} 1",
		"sdtuner_card_holds_system 1",
		"sdtuner_card_capacity_bytes 7948206080",
		"sdtuner_bus_requested_clock_hertz 50000000",
		"sdtuner_bus_actual_clock_hertz 100000000",
		"sdtuner_bus_command_queue{state=\"off\"} 1",
		"sdtuner_bus_command_queue{state=\"enabled\"} 0",
		"sdtuner_mmc_errors_total 0",
		"sdtuner_card_write_protected{kind=\"permanent\"} 0",
		"sdtuner_card_registers_suspicious 0",
		/* the fixture's benchmark: 2026-01-01T00:20:00Z, seq-read 22.5 MB/s, A1 not A2 */
		"sdtuner_benchmark_timestamp_seconds 1767226800",
		"sdtuner_benchmark_throughput_bytes_per_second{test=\"seq-read\"} 22500000",
		"sdtuner_benchmark_iops{test=\"seq-read\"} 21.5",
		"sdtuner_benchmark_app_class_met{class=\"A1\"} 1",
		"sdtuner_benchmark_app_class_met{class=\"A2\"} 0",
	};

	for (guint i = 0; i < G_N_ELEMENTS(samples); i++)
		if (!test_ops_metrics_has(text, samples[i]))
			g_error("no line \"%s\" in:\n%s", samples[i], text);
	/* nothing measured that is not there: no check, no verification */
	g_assert_null(strstr(text, "sdtuner_check_verdict"));
	g_assert_null(strstr(text, "sdtuner_verification_decision"));
	g_assert_true(g_str_has_suffix(text, "\n"));
}

/* no card: only that, no card figures and no benchmark of another card's */
static void
test_ops_metrics_no_card(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi4-no-card", NULL, FALSE);
	g_autofree gchar *text = test_ops_metrics_of(root);

	g_assert_true(test_ops_metrics_has(text, "sdtuner_card_present 0"));
	g_assert_null(strstr(text, "sdtuner_card_info"));
	g_assert_null(strstr(text, "sdtuner_card_capacity_bytes"));
	g_assert_null(strstr(text, "sdtuner_benchmark_"));
}

/* a damaged newer benchmark entry is skipped, as `history` does: the last good one counts */
static void
test_ops_metrics_damaged_history(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, TRUE);
	g_autofree gchar *text = NULL;

	sdt_test_root_write(
		root,
		"var/lib/sd-tuner/history/1767225600000009-bench.json",
		"{\"kind\": \"bench\", \"time\": \"2026-01-02T00:00:00Z\", \"tests\": [");
	text = test_ops_metrics_of(root);
	g_assert_true(test_ops_metrics_has(text, "sdtuner_benchmark_timestamp_seconds 1767226800"));
	g_assert_true(test_ops_metrics_has(
		text,
		"sdtuner_benchmark_throughput_bytes_per_second{test=\"seq-read\"} 22500000"));
}

/*
 * A check journal no copy of which is whole (a power cut on a fake card): repair
 * keeps it, never drops it, and metrics, health and status say so until the user
 * has looked (main's repair removed it: "not whole; ignored", and said nothing).
 */
static void
test_ops_metrics_damaged_check_journal(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_auto(GStrv) dirs = sdt_check_journal_dirs(root->ctx);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHealthReport) health = NULL;
	g_autoptr(JsonNode) status = NULL;
	g_autofree gchar *status_text = NULL;
	g_autofree gchar *text = test_ops_metrics_of(root);
	const gchar *kept = "/var/lib/sd-tuner/check/check-journal.damaged";

	g_assert_true(test_ops_metrics_has(text, "sdtuner_check_journal_damaged 0"));
	g_free(text);
	/* torn: the magic, then nothing whole */
	sdt_test_root_write(root, "var/lib/sd-tuner/check/check-journal", "SDTJRN02 torn");
	g_test_expect_message(NULL, G_LOG_LEVEL_WARNING, "*no copy of its journal is whole*");
	g_assert_cmpint(sdt_check_repair((const gchar *const *) dirs, &error), ==, 0);
	g_test_assert_expected_messages();
	g_assert_no_error(error);
	/* and again at the next start: still kept */
	g_assert_cmpint(sdt_check_repair((const gchar *const *) dirs, &error), ==, 0);
	text = test_ops_metrics_of(root);
	g_assert_true(test_ops_metrics_has(text, "sdtuner_check_journal_damaged 1"));
	health = sdt_ops_health_report(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(health->check_journal_damaged, ==, kept);
	status_text = sdt_ops_status(root->ctx, &error);
	g_assert_no_error(error);
	status = json_from_string(status_text, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(sdt_test_root_json_str(status, "check_journal_damaged"), ==, kept);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-metrics/pi3", test_ops_metrics_pi3);
	g_test_add_func("/sdtuner/ops-metrics/no-card", test_ops_metrics_no_card);
	g_test_add_func("/sdtuner/ops-metrics/damaged-history", test_ops_metrics_damaged_history);
	g_test_add_func("/sdtuner/ops-metrics/damaged-check-journal",
			test_ops_metrics_damaged_check_journal);
	return g_test_run();
}
