/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The client layer's readers (src/client): every JSON document the app and
 * sdtunerctl read, from the engine's own output and from bad input.
 */

#include "config.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "sdt-bench-record.h"
#include "sdt-bench.h"
#include "sdt-client-check-map.h"
#include "sdt-client-check-map-private.h"
#include "sdt-client-devices.h"
#include "sdt-client-history.h"
#include "sdt-client-disk-words.h"
#include "sdt-status-report.h"
#include "sdt-error.h"
#include "sdt-json.h"

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
	" \"notes\": [\"The test file is on /var/tmp.\"],"
	" \"verdict\": {\"a1\": true, \"a2\": false}}";

static void
test_bench_rows_and_targets(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchRecord) s = sdt_bench_record_parse(bench_json, &error);
	SdtBenchRecordTest *row;

	g_assert_no_error(error);
	g_assert_nonnull(s);
	g_assert_cmpuint(s->tests->len, ==, 4);
	g_assert_cmpuint(s->invalid_rows, ==, 0);
	g_assert_cmpfloat(s->ceiling_mb_s, ==, 25.0);
	g_assert_cmpstr(s->device, ==, "mmcblk0");
	g_assert_cmpstr(s->profile, ==, "quick");
	g_assert_cmpint(s->a1, ==, SDT_TARGET_PASS);
	g_assert_cmpint(s->a2, ==, SDT_TARGET_FAIL);
	g_assert_cmpuint(s->notes->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(s->notes, 0), ==, "The test file is on /var/tmp.");

	row = g_ptr_array_index(s->tests, 0);
	g_assert_cmpstr(row->name, ==, "seq-write");
	g_assert_true(row->valid);
	g_assert_cmpfloat(row->ceiling_pct, ==, 50.0);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_PASS);
	g_assert_cmpint(row->a2, ==, SDT_TARGET_PASS);

	row = g_ptr_array_index(s->tests, 1);
	g_assert_cmpstr(row->name, ==, "seq-read");
	g_assert_cmpfloat(row->ceiling_pct, ==, 90.0);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_NONE);

	row = g_ptr_array_index(s->tests, 2);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_PASS); /* 600 >= 500 */
	g_assert_cmpint(row->a2, ==, SDT_TARGET_FAIL); /* 600 < 2000 */

	row = g_ptr_array_index(s->tests, 3);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_PASS); /* 1953 >= 1500 */
	g_assert_cmpint(row->a2, ==, SDT_TARGET_FAIL); /* 1953 < 4000 */
}

static void
test_bench_zero_duration_is_invalid(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchRecord) s = sdt_bench_record_parse(
		"{\"ceiling_mb_s\": 25, \"tests\": ["
		" {\"name\": \"seq-read\", \"mb_s\": 0, \"iops\": 0, \"seconds\": 0},"
		" {\"name\": \"seq-write\", \"mb_s\": null, \"iops\": 1, \"seconds\": 1},"
		" {\"name\": \"rand-4k-read-qd1\", \"mb_s\": 4.0, \"iops\": 1000, \"seconds\": 1}],"
		" \"verdict\": {\"a1\": true, \"a2\": true}}",
		&error);
	SdtBenchRecordTest *row;

	g_assert_no_error(error);
	g_assert_cmpuint(s->invalid_rows, ==, 2);
	row = g_ptr_array_index(s->tests, 0);
	g_assert_false(row->valid);
	g_assert_true(isnan(row->ceiling_pct));
	g_assert_cmpint(row->a1, ==, SDT_TARGET_NONE);
	row = g_ptr_array_index(s->tests, 1);
	g_assert_false(row->valid);
	row = g_ptr_array_index(s->tests, 2);
	g_assert_true(row->valid);
	g_assert_cmpint(row->a1, ==, SDT_TARGET_FAIL);
	/* a verdict over unusable figures is not shown */
	g_assert_cmpint(s->a1, ==, SDT_TARGET_NONE);
	g_assert_cmpint(s->a2, ==, SDT_TARGET_NONE);
}

/* a run whose test file was not on the SD card: no A1/A2 marks, no verdict on the card */
static void
test_bench_stand_in(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchRecord) s = sdt_bench_record_parse(
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
	for (guint i = 0; i < s->tests->len; i++) {
		SdtBenchRecordTest *row = g_ptr_array_index(s->tests, i);
		g_assert_true(row->valid);
		g_assert_cmpint(row->a1, ==, SDT_TARGET_NONE);
		g_assert_cmpint(row->a2, ==, SDT_TARGET_NONE);
	}
}

/* a history of card runs, stand-in runs and a change, oldest first */
static SdtClientHistory *
test_history_entries(const gchar *const *spec)
{
	g_autoptr(JsonArray) entries = json_array_new();
	g_autoptr(JsonObject) doc = json_object_new();
	g_autoptr(GError) error = NULL;
	SdtClientHistory *history;

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
	json_object_set_array_member(doc, "entries", json_array_ref(entries));
	history = sdt_history_report_from_json(doc, &error);
	g_assert_no_error(error);
	return history;
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
	g_autoptr(SdtClientHistory) e1 = test_history_entries(mixed);
	g_autoptr(SdtClientHistory) e2 = test_history_entries(only);
	g_autoptr(SdtClientHistory) e3 = test_history_entries(waiting);
	g_autoptr(SdtClientHistory) e4 = test_history_entries(previous);
	g_autoptr(SdtHistoryComparison) c1 = sdt_client_history_comparison_new(e1);
	g_autoptr(SdtHistoryComparison) c2 = sdt_client_history_comparison_new(e2);
	g_autoptr(SdtHistoryComparison) c3 = sdt_client_history_comparison_new(e3);
	g_autoptr(SdtHistoryComparison) c4 = sdt_client_history_comparison_new(e4);

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
test_bench_bad_documents(void)
{
	const gchar *bad[] = {
		"{\"tests\": [{\"name\": \"seq-read\", \"mb_s\": NaN}]}", /* not JSON */
		"[1, 2]",
		"{\"profile\": \"quick\"}",
		"",
	};
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtBenchRecord) s = sdt_bench_record_parse(bad[i], &error);
		g_assert_null(s);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	}
}

/* a wrong type anywhere is an error that names the member, never a critical */
static void
test_bench_wrong_types(void)
{
	const gchar *base = "\"name\": \"rand-4k-read-qd32\", \"mb_s\": 1, \"iops\": 2, "
			    "\"seconds\": 1";
	struct {
		const gchar *json;
		const gchar *member;
	} cases[] = {
		{"{\"tests\": [{@, \"mb_s\": \"nan\"}]}", "“tests[0].mb_s”"},
		{"{\"tests\": [{@}, 7]}", "“tests[1]”"},
		{"{\"tests\": [{\"mb_s\": 1}]}", "“tests[0].name”"},
		{"{\"tests\": [{@, \"latency_us\": {\"p99\": \"x\"}}]}",
		 "“tests[0].latency_us.p99”"},
		{"{\"tests\": [{@, \"block_size\": 4.5}]}", "“tests[0].block_size”"},
		{"{\"tests\": [{@, \"ci_percent\": true}]}", "“tests[0].ci_percent”"},
		{"{\"tests\": [], \"notes\": [\"a\", 7]}", "“notes[1]”"},
		/* the {"pass": …} shape, which the engine never wrote */
		{"{\"tests\": [], \"verdict\": {\"a1\": {\"pass\": true}}}", "“verdict.a1”"},
		{"{\"tests\": [], \"verdict\": {\"a1\": \"pass\"}}", "“verdict.a1”"},
		{"{\"tests\": [], \"target\": [\"/\"]}", "“target”"},
		{"{\"tests\": [], \"target\": {\"stand_in\": 1}}", "“target.stand_in”"},
		{"{\"tests\": [], \"ceiling_mb_s\": \"25\"}", "“ceiling_mb_s”"},
		{"{\"tests\": {}}", "“tests”"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GString) json = g_string_new(cases[i].json);
		g_autoptr(SdtBenchRecord) b = NULL;

		g_string_replace(json, "@", base, 0);
		g_test_message("%s", json->str);
		b = sdt_bench_record_parse(json->str, &error);
		g_assert_null(b);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, cases[i].member));
	}
}

/* what the engine writes (sdt_bench_result_to_record(), sdt_bench_record_to_json()) is read
 * back, every field */
static void
test_bench_engine_round_trip(void)
{
	SdtBenchTarget target = {.dir = (gchar *) "/var/tmp/sd-tuner-bench",
				 .device = (gchar *) "mmcblk0p2",
				 .disk_node = (gchar *) "/dev/mmcblk0",
				 .filesystem = (gchar *) "ext4",
				 .size = 64 << 20,
				 .tmpfile = TRUE};
	g_autoptr(SdtBenchResult) result = g_new0(SdtBenchResult, 1);
	SdtBenchTestResult *seq = g_new0(SdtBenchTestResult, 1);
	SdtBenchTestResult *rnd = g_new0(SdtBenchTestResult, 1);
	g_autoptr(JsonNode) node = NULL;
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchRecord) record = NULL;
	g_autoptr(SdtBenchRecord) b = NULL;
	SdtBenchRecordTest *t;

	result->profile = g_strdup("quick");
	result->tests = g_ptr_array_new_with_free_func(g_free);
	result->notes = g_ptr_array_new_with_free_func(g_free);
	*seq = (SdtBenchTestResult){.name = (gchar *) "seq-write",
				    .block_size = 4 << 20,
				    .queue_depth = 1,
				    .io_engine = "sync",
				    .seconds = 2,
				    .ios = 16,
				    .bytes = 64 << 20,
				    .mb_s = 33.55,
				    .iops = 8,
				    .fsync_seconds = 0.25,
				    .slices = 8,
				    .ci_percent = 4.3,
				    .cpu_seconds = 0.0016};
	*rnd = (SdtBenchTestResult){.name = (gchar *) "rand-4k-read-qd32",
				    .block_size = 4096,
				    .queue_depth = 32,
				    .random = TRUE,
				    .io_engine = "io_uring",
				    .in_flight_max = 32,
				    .seconds = 1,
				    .ios = 4000,
				    .bytes = 4000 * 4096,
				    .mb_s = 16.38,
				    .iops = 4000,
				    .slices = 4,
				    .ci_percent = NAN};
	sdt_bench_latency_add(&rnd->latency, 250000);
	g_ptr_array_add(result->tests, seq);
	g_ptr_array_add(result->tests, rnd);
	g_ptr_array_add(result->notes, g_strdup("raw-read skipped: no raw device"));
	result->verdict = (SdtBenchVerdict){.known = TRUE,
					    .a1 = TRUE,
					    .a2 = FALSE,
					    .seq_write_mb_s = 33.55,
					    .read_iops = 4000,
					    .write_iops = 400,
					    .seconds = 3.5,
					    .spread_percent = 4.3};
	result->seconds = 5;
	result->spread_percent = NAN;
	record = sdt_bench_result_to_record(result, &target, 50);
	node = sdt_bench_record_to_json(record);
	text = sdt_json_to_string(node, FALSE);

	b = sdt_bench_record_parse(text, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(b->path, ==, "/var/tmp/sd-tuner-bench");
	g_assert_cmpstr(b->device, ==, "mmcblk0p2");
	g_assert_cmpstr(b->raw_device, ==, "/dev/mmcblk0");
	g_assert_cmpstr(b->filesystem, ==, "ext4");
	g_assert_cmpint(b->file_size, ==, 64 << 20);
	g_assert_true(b->tmpfile);
	g_assert_false(b->stand_in);
	g_assert_cmpstr(b->profile, ==, "quick");
	g_assert_cmpfloat(b->ceiling_mb_s, ==, 50);
	g_assert_true(isfinite(b->ceiling_percent));
	g_assert_true(isnan(b->spread_percent));
	g_assert_cmpfloat(b->seconds, ==, 5);
	g_assert_cmpuint(b->notes->len, ==, 1);
	g_assert_true(b->verdict.present);
	g_assert_true(b->verdict.a1);
	g_assert_false(b->verdict.a2);
	g_assert_cmpfloat(b->verdict.read_iops, ==, 4000);
	g_assert_cmpfloat(b->verdict.seconds, ==, 3.5);
	g_assert_cmpfloat(b->verdict.spread_percent, ==, 4.3);
	g_assert_nonnull(b->verdict.basis);
	g_assert_cmpint(b->a1, ==, SDT_TARGET_PASS);
	g_assert_cmpint(b->a2, ==, SDT_TARGET_FAIL);

	t = sdt_bench_record_get_test(b, "seq-write");
	g_assert_cmpint(t->block_size, ==, 4 << 20);
	g_assert_cmpstr(t->io_engine, ==, "sync");
	g_assert_cmpint(t->ios, ==, 16);
	g_assert_cmpint(t->slices, ==, 8);
	g_assert_cmpfloat(t->ci_percent, ==, 4.3);
	g_assert_cmpfloat(t->cpu_us_per_io, ==, 100);
	g_assert_cmpfloat(t->fsync_seconds, ==, 0.25);
	g_assert_false(t->has_latency);
	g_assert_true(t->valid);
	g_assert_cmpint(t->a1, ==, SDT_TARGET_PASS);

	t = sdt_bench_record_get_test(b, "rand-4k-read-qd32");
	g_assert_cmpint(t->queue_depth, ==, 32);
	g_assert_cmpint(t->in_flight_max, ==, 32);
	g_assert_true(isnan(t->ci_percent));
	g_assert_true(isnan(t->fsync_seconds));
	g_assert_true(t->has_latency);
	g_assert_cmpfloat(t->latency.max, ==, 250);
	g_assert_true(t->latency.p99 > 0);
	/* the thresholds of sdt-bench.h: 4000 IOPS is A2's read target exactly */
	g_assert_cmpint(t->a2, ==, SDT_TARGET_PASS);
	g_assert_null(sdt_bench_record_get_test(b, "raw-read"));
}

static const gchar *status_json =
	"{\"path\": \"/boot/firmware/config.txt\", \"damaged\": false, \"error\": null,"
	" \"applied\": true, \"id\": \"sd-overclock-100\", \"lines\": "
	"[\"dtparam=sd_overclock=100\"],"
	" \"filter\": \"[pi4]\", \"disabled\": [\"dtoverlay=sdtweak\"], \"verified\": null,"
	" \"failed\": false, \"reboot_pending\": true, \"verification\": \"Restart.\","
	" \"trial\": {\"id\": \"sd-overclock-100\", \"path\": \"/boot/firmware/tryboot.txt\","
	"  \"reboot_command\": \"reboot '0 tryboot'\"}, \"tryboot_active\": false,"
	" \"pending_verification\": {\"id\": \"sd-overclock-100\", \"trial\": true},"
	" \"last_verification\": {\"id\": \"sd-overclock-100\", \"decision\": \"keep\","
	"  \"reason\": \"It works.\", \"time\": \"2026-01-01T00:00:00Z\"}}";

static void
test_status_read(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) root = sdt_json_reader_parse(status_json, &error);
	g_autoptr(SdtStatusReport) s = NULL;

	g_assert_no_error(error);
	s = sdt_status_report_from_json(json_node_get_object(root), &error);
	g_assert_no_error(error);
	g_assert_true(s->applied);
	g_assert_true(s->reboot_pending);
	g_assert_false(s->verified);
	g_assert_null(s->error);
	g_assert_cmpstr(s->id, ==, "sd-overclock-100");
	g_assert_cmpstr(s->filter, ==, "[pi4]");
	g_assert_cmpuint(s->lines->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(s->disabled, 0), ==, "dtoverlay=sdtweak");
	g_assert_nonnull(s->trial);
	g_assert_cmpstr(s->trial->reboot_command, ==, "reboot '0 tryboot'");
	g_assert_cmpstr(s->pending_verification->id, ==, "sd-overclock-100");
	g_assert_true(s->pending_verification->trial);
	g_assert_cmpstr(s->last_verification->decision, ==, "keep");
	g_assert_cmpstr(s->last_verification->time, ==, "2026-01-01T00:00:00Z");
}

static void
test_status_wrong_types(void)
{
	const gchar *cases[][2] = {
		{"{\"applied\": \"yes\"}", "“applied”"},
		{"{\"lines\": [1]}", "“lines[0]”"},
		{"{\"trial\": {\"id\": 5}}", "“trial.id”"},
		{"{\"last_verification\": {\"decision\": []}}", "“last_verification.decision”"},
		{"{\"pending_verification\": \"x\"}", "“pending_verification”"},
		{"{\"pending_verification\": {\"trial\": \"yes\"}}",
		 "“pending_verification.trial”"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonNode) root = sdt_json_reader_parse(cases[i][0], NULL);
		g_autoptr(SdtStatusReport) s =
			sdt_status_report_from_json(json_node_get_object(root), &error);

		g_assert_null(s);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, cases[i][1]));
	}
}

static JsonNode *
parse_object(const gchar *json)
{
	g_autoptr(GError) error = NULL;
	JsonNode *root = sdt_json_reader_parse(json, &error);

	g_assert_no_error(error);
	return root;
}

/* an entry edited by hand loses only its bad members; the others are read */
static void
test_history_read(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) root = parse_object(
		"{\"entries\": ["
		" {\"kind\": \"bench\", \"time\": \"t0\", \"profile\": \"quick\","
		"  \"target\": {\"path\": \"/var/tmp/x\", \"stand_in\": true}},"
		" {\"kind\": \"apply\", \"time\": \"t1\", \"id\": \"sd-overclock-100\", \"trial\": "
		"\"yes\"},"
		" {\"kind\": \"verify\", \"time\": \"t2\", \"id\": \"sd-overclock-100\","
		"  \"decision\": \"keep\", \"reason\": \"It works.\"},"
		" [1],"
		" {\"kind\": \"verify\", \"decision\": \"keep\", \"evidence\": {\"figures\": ["
		"  {\"name\": \"seq-read\", \"unit\": \"MB/s\", \"before\": 22, \"before_spread\": "
		"\"x\","
		"   \"after\": 41.5, \"after_spread\": null}, 7]}},"
		" {\"kind\": \"bench\", \"result\": {\"target\": {\"stand_in\": false}, \"tests\":"
		"  [{\"name\": \"seq-read\", \"mb_s\": 20, \"iops\": 5, \"seconds\": 2}]}}],"
		" \"warnings\": [\"w\"]}");
	g_autoptr(SdtClientHistory) h =
		sdt_history_report_from_json(json_node_get_object(root), &error);
	SdtClientHistoryEntry *e;
	SdtClientFigure *f;

	g_assert_no_error(error);
	g_assert_cmpuint(h->entries->len, ==, 6);
	g_assert_cmpstr(g_ptr_array_index(h->warnings, 0), ==, "w");
	e = g_ptr_array_index(h->entries, 0);
	g_assert_no_error(e->error);
	g_assert_cmpstr(e->profile, ==, "quick");
	g_assert_cmpstr(e->target_path, ==, "/var/tmp/x");
	g_assert_true(e->stand_in);
	g_assert_null(e->bench); /* no tests: no readable result, and not an error */
	e = g_ptr_array_index(h->entries, 1);
	g_assert_error(e->error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(e->error->message, "“entries[1].trial”"));
	g_assert_cmpstr(e->id, ==, "sd-overclock-100");
	g_assert_false(e->trial);
	e = g_ptr_array_index(h->entries, 2);
	g_assert_cmpstr(e->verification->decision, ==, "keep");
	g_assert_cmpuint(e->figures->len, ==, 0);
	e = g_ptr_array_index(h->entries, 3);
	g_assert_null(e->kind);
	g_assert_error(e->error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	/* the evidence's figures: a bad member stays unknown, a bad element is left out */
	e = g_ptr_array_index(h->entries, 4);
	g_assert_cmpuint(e->figures->len, ==, 1);
	f = g_ptr_array_index(e->figures, 0);
	g_assert_cmpstr(f->name, ==, "seq-read");
	g_assert_cmpstr(f->unit, ==, "MB/s");
	g_assert_cmpfloat(f->before, ==, 22);
	g_assert_true(isnan(f->before_spread));
	g_assert_cmpfloat(f->after, ==, 41.5);
	g_assert_true(isnan(f->after_spread));
	g_assert_error(e->error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(
		strstr(e->error->message, "“entries[4].evidence.figures[0].before_spread”"));
	/* a benchmark under "result" */
	e = g_ptr_array_index(h->entries, 5);
	g_assert_no_error(e->error);
	g_assert_nonnull(e->bench);
	g_assert_cmpuint(e->bench->tests->len, ==, 1);
	g_assert_false(e->bench->stand_in);
}

static void
test_history_bad(void)
{
	const gchar *cases[] = {"{\"entries\": {}}", "{\"warnings\": [1]}"};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonNode) root = parse_object(cases[i]);
		g_autoptr(SdtClientHistory) h =
			sdt_history_report_from_json(json_node_get_object(root), &error);

		g_assert_null(h);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	}
}

/* the words of the disk members (card.system_device, card.emmc): every byte value of a
 * life-time estimate is worded, JEDEC's table as shares, the rest unknown */
static void
test_disk_words(void)
{
	for (gint64 v = -1; v <= 0x100; v++) {
		g_autofree gchar *words = sdt_client_disk_words_life_time(v);
		g_autofree gchar *eol = sdt_client_disk_words_pre_eol(v);

		g_assert_nonnull(words);
		g_assert_nonnull(eol);
		if (v >= 0x0c && v <= 0xff)
			g_assert_nonnull(strstr(words, "unknown value"));
	}
	{
		g_autofree gchar *w = sdt_client_disk_words_life_time(0x01);
		g_autofree gchar *x = sdt_client_disk_words_life_time(0x0b);
		g_autofree gchar *y = sdt_client_disk_words_life_time(0x0c);
		g_autofree gchar *z = sdt_client_disk_words_life_time(-1);
		g_autofree gchar *big = sdt_client_disk_words_life_time(0x100);
		g_autofree gchar *eol = sdt_client_disk_words_pre_eol(0x02);
		g_autofree gchar *worn = sdt_client_disk_words_emmc_summary("urgent");
		g_autofree gchar *unknown = sdt_client_disk_words_emmc_summary(NULL);

		g_assert_cmpstr(w, ==, "0–10% of its rated life used (0x01)");
		g_assert_cmpstr(x, ==, "past its rated life (0x0B: more than 100% used)");
		g_assert_cmpstr(y, ==, "unknown value 0x0C (not in the JEDEC table)");
		g_assert_cmpstr(z, ==, "unknown (the chip's report cannot be read)");
		g_assert_cmpstr(big, ==, z);
		g_assert_cmpstr(eol, ==, "warning (0x02): 80% of the reserved blocks are used");
		g_assert_nonnull(strstr(worn, "worn out"));
		g_assert_nonnull(strstr(unknown, "unknown"));
	}
	g_assert_cmpstr(sdt_client_disk_words_system_device_kind("nvme0n1p2"), ==, "an NVMe drive");
	g_assert_cmpstr(sdt_client_disk_words_system_device_kind("sda2"), ==, "a USB drive");
	g_assert_cmpstr(sdt_client_disk_words_system_device_kind("mmcblk1p2"),
			==,
			"another SD card or eMMC");
	g_assert_null(sdt_client_disk_words_system_device_kind("vda1"));
	g_assert_null(sdt_client_disk_words_system_device_kind(NULL));
}

/* the devices document (issue 34): its words for a person, and each bad member named */
static void
test_devices(void)
{
	const gchar *good =
		"{\"devices\": [{\"device\": \"sda\", \"path\": \"/dev/sda\", \"vendor\": "
		"\"Generic\", \"model\": \"STORAGE DEVICE\", \"serial\": \"000000000819\", "
		"\"bus\": "
		"\"usb\", \"size_bytes\": 31914983424, \"offered\": true, \"reason_code\": null, "
		"\"reason\": null, \"mount_points\": [], \"partition_table\": \"dos\", "
		"\"filesystems\": [{\"device\": \"sda1\", \"type\": \"vfat\", \"label\": \"NO "
		"NAME\"}, {\"device\": \"sda2\", \"type\": \"ext4\", \"label\": null}], "
		"\"signatures_from\": \"blkid\"}, {\"device\": \"sdb\", \"vendor\": null, "
		"\"model\": "
		"null, \"size_bytes\": 0, \"offered\": false, \"reason_code\": \"no-medium\", "
		"\"reason\": \"There is no card in it\"}, {\"device\": \"vda\", \"size_bytes\": "
		"1000000000, \"offered\": false, \"reason\": \"It is the system disk\", "
		"\"signatures_from\": null}]}";
	const gchar *bad[][2] = {
		{"{}", "devices"},
		{"{\"devices\": {}}", "devices"},
		{"{\"devices\": [3]}", "devices[0]"},
		{"{\"devices\": [{}]}", "devices[0].device"},
		{"{\"devices\": [{\"device\": 1}]}", "devices[0].device"},
		{"{\"devices\": [{\"device\": \"a\", \"offered\": \"yes\"}]}",
		 "devices[0].offered"},
		{"{\"devices\": [{\"device\": \"a\", \"size_bytes\": \"1\"}]}",
		 "devices[0].size_bytes"},
		{"{\"devices\": [{\"device\": \"a\", \"filesystems\": [{\"type\": 2}]}]}",
		 "devices[0].filesystems[0].type"},
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtDeviceList) list = sdt_device_list_parse(good, &error);
	GPtrArray *devices = list->devices;
	g_autofree gchar *title = NULL;
	g_autofree gchar *contents = NULL;
	g_autofree gchar *verdict = NULL;

	g_assert_no_error(error);
	g_assert_cmpuint(devices->len, ==, 3);
	title = sdt_client_devices_title(g_ptr_array_index(devices, 0));
	g_assert_true(g_str_has_prefix(title, "Generic STORAGE DEVICE (sda), 31.9"));
	contents = sdt_client_devices_contents(g_ptr_array_index(devices, 0));
	g_assert_cmpstr(contents, ==, "dos partition table; file systems: vfat, ext4");
	verdict = sdt_client_devices_verdict(g_ptr_array_index(devices, 0));
	g_assert_cmpstr(verdict, ==, "Can be checked");
	g_clear_pointer(&verdict, g_free);
	/* a loop device on a simulated board is offered as a stand-in, and says so */
	{
		SdtDeviceListEntry *d = g_ptr_array_index(devices, 0);
		d->reason_code = g_strdup("stand-in");
		verdict = sdt_client_devices_verdict(d);
		g_assert_true(g_str_has_prefix(verdict, "Can be checked: a loop device"));
	}
	g_clear_pointer(&title, g_free);
	g_clear_pointer(&contents, g_free);
	g_clear_pointer(&verdict, g_free);
	title = sdt_client_devices_title(g_ptr_array_index(devices, 1));
	g_assert_cmpstr(title, ==, "sdb");
	g_assert_null(sdt_client_devices_contents(g_ptr_array_index(devices, 1)));
	verdict = sdt_client_devices_verdict(g_ptr_array_index(devices, 1));
	g_assert_cmpstr(verdict, ==, "There is no card in it");
	contents = sdt_client_devices_contents(g_ptr_array_index(devices, 2));
	g_assert_cmpstr(contents, ==, "What is on it is unknown: it cannot be read");

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) e = NULL;
		g_assert_null(sdt_device_list_parse(bad[i][0], &e));
		g_assert_error(e, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		if (strstr(e->message, bad[i][1]) == NULL)
			g_error("%s: %s does not name %s", bad[i][0], e->message, bad[i][1]);
	}
}

/* what the helper put back at the sight of a card, in words; nothing to say is NULL */
static void
test_devices_repairs(void)
{
	const gchar *bad[][2] = {
		{"{\"repaired\": 1}", "repaired"},
		{"{\"repaired\": [2]}", "repaired[0]"},
		{"{\"repaired\": [{\"device\": \"/dev/sdc\", \"blocks\": \"8\"}]}",
		 "repaired[0].blocks"},
		{"{\"repair_waiting\": false}", "repair_waiting"},
	};
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtDeviceList) both = sdt_device_list_parse(
		"{\"devices\": [], \"repaired\": [{\"device\": \"/dev/sdc\", \"blocks\": 8}, "
		"{\"device\": \"/dev/sdd\", \"blocks\": 1}], \"repair_waiting\": \"A journal "
		"waits for its card\"}",
		&error);
	g_autoptr(SdtDeviceList) none = sdt_device_list_parse(
		"{\"devices\": [], \"repaired\": [], \"repair_waiting\": null}",
		&error);
	g_autofree gchar *words = sdt_client_devices_repair_words(both);

	g_assert_no_error(error);
	g_assert_cmpstr(words,
			==,
			"Put back 8 blocks that an interrupted check had changed on /dev/sdc.\n"
			"Put back 1 block that an interrupted check had changed on /dev/sdd.\n"
			"A journal waits for its card");
	g_assert_null(sdt_client_devices_repair_words(none));
	g_assert_no_error(error);
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) e = NULL;
		g_assert_null(sdt_device_list_parse(bad[i][0], &e));
		g_assert_error(e, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		if (strstr(e->message, bad[i][1]) == NULL)
			g_error("%s: %s does not name %s", bad[i][0], e->message, bad[i][1]);
	}
}

/* the series of history --json: read leniently (a bad point or series is left out or
 * unknown, the rest kept), the slot card's picked, else the runs without a card */
static void
test_history_series(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) root = parse_object(
		"{\"entries\": [], \"series\": ["
		" {\"card\": {\"id\": \"aa\", \"name\": \"X\", \"serial\": \"0x1\"}, \"in_slot\": "
		"false, \"tests\": [], \"changes\": []},"
		" 5,"
		" {\"card\": {\"id\": \"bb\", \"name\": \"SU08G\", \"serial\": \"0x2\"}, "
		"\"in_slot\": "
		"true, \"tests\": [{\"name\": \"seq-read\", \"unit\": \"MB/s\", \"points\": ["
		"  {\"time\": \"2026-02-01T00:00:00Z\", \"value\": 20.5, \"spread\": 0.5, "
		"\"change\": "
		"null},"
		"  {\"time\": \"2026-02-02T00:00:00Z\", \"value\": \"fast\", \"spread\": null, "
		"\"change\": \"sd-overclock-100\"}, 7]}],"
		"  \"changes\": [{\"time\": \"2026-02-01T12:00:00Z\", \"kind\": \"apply\", \"id\": "
		"\"sd-overclock-100\"}]}]}");
	g_autoptr(SdtClientHistory) h =
		sdt_history_report_from_json(json_node_get_object(root), &error);
	const SdtClientSeries *s;
	const SdtClientSeriesTest *t;
	const SdtClientPoint *p;
	gboolean unidentified = TRUE;

	g_assert_no_error(error);
	g_assert_cmpuint(h->series->len, ==, 2);
	s = sdt_client_series_for_slot(h->series, &unidentified);
	g_assert_false(unidentified);
	g_assert_cmpstr(s->card_id, ==, "bb");
	g_assert_cmpstr(s->card_serial, ==, "0x2");
	t = sdt_client_series_get_test(s, "seq-read");
	g_assert_nonnull(t);
	g_assert_null(sdt_client_series_get_test(s, "seq-write"));
	g_assert_cmpuint(t->points->len, ==, 2);
	p = g_ptr_array_index(t->points, 0);
	g_assert_cmpfloat(p->value, ==, 20.5);
	g_assert_cmpfloat(p->spread, ==, 0.5);
	g_assert_null(p->change);
	g_assert_cmpint(p->usec, ==, G_GINT64_CONSTANT(1769904000) * G_USEC_PER_SEC);
	p = g_ptr_array_index(t->points, 1);
	g_assert_true(isnan(p->value));
	g_assert_cmpuint(s->changes->len, ==, 1);
	g_assert_cmpstr(((SdtClientChange *) g_ptr_array_index(s->changes, 0))->kind, ==, "apply");

	/* an older helper: no series at all */
	{
		g_autoptr(JsonNode) old = parse_object("{\"entries\": []}");
		g_autoptr(SdtClientHistory) h2 =
			sdt_history_report_from_json(json_node_get_object(old), &error);
		g_assert_no_error(error);
		g_assert_cmpuint(h2->series->len, ==, 0);
		g_assert_null(sdt_client_series_for_slot(h2->series, &unidentified));
	}
	/* only runs without a card: shown, said to be unidentified */
	{
		g_autoptr(JsonNode) older = parse_object(
			"{\"entries\": [], \"series\": [{\"card\": null, \"in_slot\": false, "
			"\"tests\": [], \"changes\": []}]}");
		g_autoptr(SdtClientHistory) h3 =
			sdt_history_report_from_json(json_node_get_object(older), &error);
		g_assert_no_error(error);
		g_assert_nonnull(sdt_client_series_for_slot(h3->series, &unidentified));
		g_assert_true(unidentified);
	}
}

/* issue 34: the map of a whole card, as the engine writes it and from bad input */
static void
test_check_map(void)
{
	/* a wrap fake 1000/700 MiB: written and read back below, wraps above; runs out of
	 * order, past the claim, of one state side by side, and a state from a newer helper */
	const gchar *doc = "{\"verdict\": \"fake\", \"claimed_bytes\": 1048576000, \"map\": ["
			   "{\"from\": 734003200, \"to\": 2000000000, \"state\": \"wrap\"},"
			   "{\"from\": 0, \"to\": 300000000, \"state\": \"ok\"},"
			   "{\"from\": 300000000, \"to\": 734003200, \"state\": \"ok\"},"
			   "{\"from\": 700000000, \"to\": 720000000, \"state\": \"glitter\"}]}";
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtCheckResult) result = sdt_check_result_parse(doc, &error);
	g_autoptr(SdtClientCheckMap) map = NULL;
	g_autofree gchar *words = NULL;
	g_autofree gchar *at = g_format_size(734003200);
	g_autofree gchar *end = g_format_size(1048576000);
	g_autofree gchar *wrap = NULL;
	const SdtClientMapRun *r;

	g_assert_no_error(error);
	map = sdt_client_check_map_new(result);
	g_assert_cmpint(map->claimed_bytes, ==, 1048576000);
	/* the two "ok" joined, the unknown state inside them overlapped away, cut to the claim */
	g_assert_cmpuint(map->runs->len, ==, 2);
	r = &g_array_index(map->runs, SdtClientMapRun, 0);
	g_assert_cmpint(r->from, ==, 0);
	g_assert_cmpint(r->to, ==, 734003200);
	g_assert_cmpint(r->state, ==, SDT_CLIENT_MAP_OK);
	r = &g_array_index(map->runs, SdtClientMapRun, 1);
	g_assert_cmpint(r->from, ==, 734003200);
	g_assert_cmpint(r->to, ==, 1048576000);
	g_assert_cmpint(r->state, ==, SDT_CLIENT_MAP_WRAP);
	words = sdt_client_check_map_describe(map);
	wrap = g_strdup_printf("From %s to %s: wraps to a lower address.", at, end);
	g_assert_nonnull(strstr(words, wrap));
	g_assert_true(g_str_has_prefix(words, "From 0 bytes to "));
	g_clear_pointer(&result, sdt_check_result_free);
	g_clear_pointer(&map, sdt_client_check_map_free);

	/* every state the engine writes, and one it does not: lenient, never an error */
	g_assert_cmpint(sdt_client_check_map_state_from_string("ok"), ==, SDT_CLIENT_MAP_OK);
	g_assert_cmpint(sdt_client_check_map_state_from_string("wrap"), ==, SDT_CLIENT_MAP_WRAP);
	g_assert_cmpint(sdt_client_check_map_state_from_string("lost-writes"),
			==,
			SDT_CLIENT_MAP_ZEROS);
	g_assert_cmpint(sdt_client_check_map_state_from_string("io-error"),
			==,
			SDT_CLIENT_MAP_FAIL);
	g_assert_cmpint(sdt_client_check_map_state_from_string("corrupted"),
			==,
			SDT_CLIENT_MAP_CORRUPTED);
	g_assert_cmpint(sdt_client_check_map_state_from_string("untested"),
			==,
			SDT_CLIENT_MAP_UNTESTED);
	g_assert_cmpint(sdt_client_check_map_state_from_string("glitter"),
			==,
			SDT_CLIENT_MAP_OTHER);
	g_assert_cmpint(sdt_client_check_map_state_from_string(NULL), ==, SDT_CLIENT_MAP_OTHER);
	for (guint i = 0; i <= SDT_CLIENT_MAP_N_STATES; i++)
		g_assert_nonnull(sdt_client_check_map_state_label((SdtClientMapState) i));

	/* a check of a folder has no map: empty, no words */
	result = sdt_check_result_parse("{\"verdict\": \"genuine\", \"claimed_bytes\": 5}", &error);
	g_assert_no_error(error);
	map = sdt_client_check_map_new(result);
	g_assert_cmpuint(map->runs->len, ==, 0);
	g_assert_null(sdt_client_check_map_describe(map));
	g_clear_pointer(&result, sdt_check_result_free);
	g_clear_pointer(&map, sdt_client_check_map_free);

	/* no claimed size: as wide as the runs */
	result = sdt_check_result_parse("{\"verdict\": \"fake\", \"map\": [{\"from\": 0, \"to\": "
					"10, \"state\": \"untested\"}]}",
					&error);
	g_assert_no_error(error);
	map = sdt_client_check_map_new(result);
	g_assert_cmpint(map->claimed_bytes, ==, 10);
	g_assert_cmpuint(map->runs->len, ==, 1);
	g_clear_pointer(&map, sdt_client_check_map_free);

	/* wrong types: an error naming the member, no map */
	{
		const struct {
			const gchar *doc;
			const gchar *names;
		} bad[] = {
			{"{\"verdict\": \"fake\", \"map\": {}}", "map"},
			{"{\"verdict\": \"fake\", \"map\": [1]}", "map[0]"},
			{"{\"verdict\": \"fake\", \"map\": [{\"from\": \"0\", \"to\": 1, "
			 "\"state\": \"ok\"}]}",
			 "map[0].from"},
			{"{\"verdict\": \"fake\", \"map\": [{\"from\": 0, \"to\": 1, \"state\": "
			 "3}]}",
			 "map[0].state"},
			{"{\"verdict\": \"fake\", \"claimed_bytes\": \"big\"}", "claimed_bytes"},
		};
		for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
			g_autoptr(GError) e = NULL;
			g_assert_null(sdt_check_result_parse(bad[i].doc, &e));
			g_assert_error(e, SDT_ERROR, SDT_ERROR_INVALID_DATA);
			g_assert_nonnull(strstr(e->message, bad[i].names));
		}
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/client-check-map/read-and-words", test_check_map);
	g_test_add_func("/sdtuner/client-devices/read-and-words", test_devices);
	g_test_add_func("/sdtuner/client-devices/repairs", test_devices_repairs);
	g_test_add_func("/sdtuner/client-bench/rows-and-targets", test_bench_rows_and_targets);
	g_test_add_func("/sdtuner/client-bench/zero-duration-is-invalid",
			test_bench_zero_duration_is_invalid);
	g_test_add_func("/sdtuner/client-bench/stand-in", test_bench_stand_in);
	g_test_add_func("/sdtuner/client-bench/bad-documents", test_bench_bad_documents);
	g_test_add_func("/sdtuner/client-bench/wrong-types", test_bench_wrong_types);
	g_test_add_func("/sdtuner/client-bench/engine-round-trip", test_bench_engine_round_trip);
	g_test_add_func("/sdtuner/client-history/comparison-leaves-out-stand-ins",
			test_history_comparison_leaves_out_stand_ins);
	g_test_add_func("/sdtuner/client-status/read", test_status_read);
	g_test_add_func("/sdtuner/client-status/wrong-types", test_status_wrong_types);
	g_test_add_func("/sdtuner/client-history/read", test_history_read);
	g_test_add_func("/sdtuner/client-history/bad", test_history_bad);
	g_test_add_func("/sdtuner/client-history/series", test_history_series);
	g_test_add_func("/sdtuner/client-disk-words/emmc-and-system-disk", test_disk_words);
	return g_test_run();
}
