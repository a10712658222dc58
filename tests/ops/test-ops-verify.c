/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-bench-record.h"
#include "sdt-ops-verify-private.h"
#include "sdt-test-root.h"

/* the history's entries as `history --json` lists them (sdt_history_entries()) */
static JsonArray *
test_history_json(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) entries = sdt_history_entries(ctx, NULL, error);

	return entries != NULL ? sdt_history_entry_list_to_json(entries) : NULL;
}

/*
 * The verify family of the ops layer: sdt_ops_verify() with nothing pending and with a
 * damaged pending record (the undo on a scratch copy of the simulated Pi 3), the pure
 * steps of its record (the figures of a benchmark, on the card or a stand-in, the last
 * one of the card under a given config.txt) and its progress words.
 */

static const gchar block_pi3[] =
	"arm_64bit=1\n"
	"# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n"
	"[all]\n[board-type=0x08]\ndtoverlay=\ndtparam=sd_overclock=100\n[all]\n"
	"# --- SD Tuner end ---\n";

static JsonNode *
test_ops_verify_run(SdtTestRoot *root)
{
	SdtOpsVerifyOptions options = {.soak_seconds = -1};
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = sdt_ops_verify(root->ctx, &options, NULL, &error);
	JsonNode *node;

	g_assert_no_error(error);
	g_assert_nonnull(text);
	node = json_from_string(text, &error);
	g_assert_no_error(error);
	return node;
}

static void
test_ops_verify_nothing_pending(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", "legacy-sd-lines.txt", TRUE);
	g_autofree gchar *before = sdt_test_root_read(root, "boot/firmware/config.txt");
	g_autofree gchar *after = NULL;
	g_autoptr(JsonNode) node = test_ops_verify_run(root);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonArray) history = NULL;

	g_assert_false(sdt_test_root_json_bool(node, "pending"));
	g_assert_true(sdt_test_root_json_is_null(node, "decision"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "reason_code"), ==, "nothing-pending");
	/* nothing touched, nothing recorded */
	after = sdt_test_root_read(root, "boot/firmware/config.txt");
	g_assert_cmpstr(after, ==, before);
	history = test_history_json(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(history), ==, 3);
}

/* a pending record that cannot be read: undo SD Tuner's block, stop, record why */
static void
test_ops_verify_damaged_record(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autofree gchar *pending = NULL;
	g_autofree gchar *after = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonArray) history = NULL;
	JsonObject *last;

	sdt_test_root_write(root, "boot/firmware/config.txt", block_pi3);
	sdt_test_root_write(root, "var/lib/sd-tuner/pending.json", "{\"id\": \"sd-overcl");
	node = test_ops_verify_run(root);
	g_assert_true(sdt_test_root_json_bool(node, "pending"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "decision"), ==, "undo");
	g_assert_cmpstr(sdt_test_root_json_str(node, "reason_code"), ==, "record-damaged");
	g_assert_true(sdt_test_root_json_bool(node, "stop"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "action.what"), ==, "reverted");
	/* the block is gone, the record too, and the history says so */
	after = sdt_test_root_read(root, "boot/firmware/config.txt");
	g_assert_null(strstr(after, "SD Tuner begin"));
	g_assert_null(strstr(after, "sd_overclock"));
	g_assert_nonnull(strstr(after, "arm_64bit=1"));
	pending = sdt_test_root_file(root, "var/lib/sd-tuner/pending.json");
	g_assert_false(g_file_test(pending, G_FILE_TEST_EXISTS));
	history = test_history_json(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(history), >=, 1);
	last = json_array_get_object_element(history, json_array_get_length(history) - 1);
	g_assert_cmpstr(json_object_get_string_member(last, "kind"), ==, "verify");
	g_assert_cmpstr(json_object_get_string_member(last, "decision"), ==, "undo");
}

/* the figures of a benchmark: IOPS for random tests, MB/s for the rest, with their spread */
static void
test_ops_verify_bench_figures(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) bench = json_from_string(
		"{\"kind\": \"bench\", \"tests\": ["
		"{\"name\": \"seq-write\", \"mb_s\": 20.0, \"ci_percent\": 5.0},"
		"{\"name\": \"rand-4k-write-qd1\", \"mb_s\": 1.0, \"iops\": 250, \"ci_percent\": "
		"10},"
		"{\"name\": \"seq-read\", \"mb_s\": 40.0}]}",
		&error);
	g_autoptr(JsonNode) damaged = json_from_string(
		"{\"kind\": \"bench\", \"tests\": ["
		"{\"name\": \"rand-4k-read-qd1\", \"mb_s\": \"fast\", \"ci_percent\": 1}]}",
		&error);
	g_autoptr(SdtBenchRecord) record = NULL;
	g_autoptr(SdtBenchRecord) none = NULL;
	g_autoptr(GPtrArray) figures = NULL;
	const SdtVerifyPendingStateFigure *f;

	g_assert_no_error(error);
	record = sdt_bench_record_from_json(json_node_get_object(bench), &error);
	g_assert_no_error(error);
	figures = sdt_ops_verify_record_bench_figures(record);
	g_assert_nonnull(figures);
	/* a test without a spread is left out */
	g_assert_cmpuint(figures->len, ==, 2);
	f = sdt_verify_pending_state_figures_find(figures, "seq-write");
	g_assert_cmpfloat_with_epsilon(f->median, 20.0, 1e-9);
	g_assert_cmpfloat_with_epsilon(f->spread, 1.0, 1e-9);
	g_assert_cmpstr(f->unit, ==, "MB/s");
	f = sdt_verify_pending_state_figures_find(figures, "rand-4k-write-qd1");
	g_assert_cmpfloat_with_epsilon(f->median, 250.0, 1e-9);
	g_assert_cmpfloat_with_epsilon(f->spread, 25.0, 1e-9);
	g_assert_cmpstr(f->unit, ==, "IOPS");
	/* a figure that is no number: the whole stored benchmark is left out, with a reason */
	none = sdt_bench_record_from_json(json_node_get_object(damaged), &error);
	g_assert_null(none);
	g_assert_nonnull(error);
}

/* a benchmark entry of the history as the engine writes it, taken at @time */
static void
test_ops_verify_bench_entry(SdtTestRoot *root,
			    guint n,
			    const gchar *time,
			    gdouble seq_mb_s,
			    gboolean stand_in,
			    const gchar *sha256)
{
	g_autofree gchar *rel =
		g_strdup_printf("var/lib/sd-tuner/history/%" G_GUINT64_FORMAT "-bench.json",
				G_GUINT64_CONSTANT(1767225600000000) + n);
	g_autofree gchar *text = g_strdup_printf(
		"{\"kind\": \"bench\", \"time\": \"%s\", \"target\": {\"path\": \"/var/tmp\", "
		"\"stand_in\": %s}, \"config_sha256\": \"%s\", \"tests\": [{\"name\": "
		"\"seq-write\", \"mb_s\": %.1f, \"ci_percent\": 2.0}]}",
		time,
		stand_in ? "true" : "false",
		sha256,
		seq_mb_s);

	sdt_test_root_write(root, rel, text);
}

/* the "before" of a change: the last benchmark of the card itself under that config.txt */
static void
test_ops_verify_last_card_bench(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GPtrArray) any = NULL;
	g_autoptr(GPtrArray) under_a = NULL;
	g_autoptr(GPtrArray) until = NULL;
	g_autoptr(GPtrArray) none = NULL;
	g_autoptr(GPtrArray) bad = NULL;

	test_ops_verify_bench_entry(root, 0, "2026-01-01T00:00:00Z", 11.0, FALSE, "aaaa");
	test_ops_verify_bench_entry(root, 1, "2026-01-02T00:00:00Z", 12.0, FALSE, "bbbb");
	/* a stand-in directory is not the card */
	test_ops_verify_bench_entry(root, 2, "2026-01-03T00:00:00Z", 99.0, TRUE, "bbbb");

	any = sdt_ops_verify_record_last_card_bench(root->ctx, NULL, NULL);
	g_assert_cmpfloat_with_epsilon(
		sdt_verify_pending_state_figures_find(any, "seq-write")->median,
		12.0,
		1e-9);
	under_a = sdt_ops_verify_record_last_card_bench(root->ctx, NULL, "aaaa");
	g_assert_cmpfloat_with_epsilon(
		sdt_verify_pending_state_figures_find(under_a, "seq-write")->median,
		11.0,
		1e-9);
	until = sdt_ops_verify_record_last_card_bench(root->ctx, "2026-01-01T12:00:00Z", NULL);
	g_assert_cmpfloat_with_epsilon(
		sdt_verify_pending_state_figures_find(until, "seq-write")->median,
		11.0,
		1e-9);
	none = sdt_ops_verify_record_last_card_bench(root->ctx, NULL, "cccc");
	g_assert_null(none);
	bad = sdt_ops_verify_record_last_card_bench(root->ctx, "yesterday", NULL);
	g_assert_null(bad);
}

static void
test_ops_verify_stage_words(void)
{
	g_autofree gchar *log = sdt_ops_verify_stage_describe(SDT_OPS_VERIFY_STAGE_LOG, 0);
	g_autofree gchar *bench =
		sdt_ops_verify_stage_describe(SDT_OPS_VERIFY_STAGE_BENCHMARK, 0.4);
	g_autofree gchar *soak = sdt_ops_verify_stage_describe(SDT_OPS_VERIFY_STAGE_SOAK, 1.7);

	g_assert_nonnull(strstr(log, "kernel log"));
	g_assert_cmpstr(bench, ==, "Benchmark: 40 % done");
	/* clamped: never more than all of it */
	g_assert_cmpstr(soak, ==, "Soak test: 100 % done");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-verify/nothing-pending", test_ops_verify_nothing_pending);
	g_test_add_func("/sdtuner/ops-verify/damaged-record", test_ops_verify_damaged_record);
	g_test_add_func("/sdtuner/ops-verify/bench-figures", test_ops_verify_bench_figures);
	g_test_add_func("/sdtuner/ops-verify/last-card-bench", test_ops_verify_last_card_bench);
	g_test_add_func("/sdtuner/ops-verify/stage-words", test_ops_verify_stage_words);
	return g_test_run();
}
