/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sdt-bench.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-ops.h"
#include "sdt-ops-private.h"
#include "sdt-test-root.h"

/* the history's entries as `history --json` lists them (sdt_history_entries()) */
static JsonArray *
test_history_json(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) entries = sdt_history_entries(ctx, NULL, error);

	return entries != NULL ? sdt_history_entry_list_to_json(entries) : NULL;
}

/*
 * The benchmark as the ops layer runs it (sdt-ops-bench.c): a short run on a real file in a
 * disk-backed folder, the simulated Pi 3's bus as its ceiling (umockdev), the document and
 * the history entry; a run stopped at its first progress leaves no file and no entry; the
 * profiles it refuses.
 */

#define MIB (1024 * 1024)

/* disk-backed scratch space: /tmp may be tmpfs, which the engine refuses */
static gchar *
test_ops_bench_dir(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *tmpl = g_build_filename("/var/tmp", "sdt-ops-bench-XXXXXX", NULL);
	gchar *dir = g_mkdtemp_full(g_steal_pointer(&tmpl), 0700);

	g_assert_nonnull(dir);
	return dir;
}

static guint
test_ops_bench_count(const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	guint n = 0;

	g_assert_nonnull(d);
	while (g_dir_read_name(d) != NULL)
		n++;
	return n;
}

static void
test_ops_bench_progress(const gchar *phase, gdouble fraction, gdouble rate_mb_s, gpointer data)
{
	GPtrArray *phases = data;

	g_assert_cmpfloat(fraction, >=, 0);
	g_assert_cmpfloat(fraction, <=, 1);
	if (phases->len == 0 || g_strcmp0(g_ptr_array_index(phases, phases->len - 1), phase) != 0)
		g_ptr_array_add(phases, g_strdup(phase));
}

static void
test_ops_bench_short_run(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", "legacy-sd-lines.txt", FALSE);
	g_autofree gchar *dir = test_ops_bench_dir();
	g_autoptr(GPtrArray) phases = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autoptr(SdtBenchRecord) record = NULL;
	g_autoptr(JsonArray) history = NULL;
	JsonObject *entry;
	SdtBenchConfig config;

	g_assert_true(sdt_bench_config_for_profile("quick", &config, &error));
	config.profile = "test";
	config.file_size = 8 * MIB;
	config.seq_block_size = 1 * MIB;
	config.rand_seconds = 0.2;
	config.rand_qd1_seconds = 0.1;
	config.raw_seconds = 0;
	record = sdt_ops_bench_run(root->ctx,
				   &config,
				   dir,
				   test_ops_bench_progress,
				   phases,
				   NULL,
				   &error);
	g_assert_no_error(error);
	node = sdt_bench_record_to_json(record);
	g_assert_cmpstr(sdt_test_root_json_str(node, "profile"), ==, "test");
	g_assert_cmpstr(sdt_test_root_json_str(node, "target.path"), ==, dir);
	g_assert_true(sdt_test_root_json_bool(node, "target.stand_in"));
	g_assert_true(sdt_test_root_json_bool(node, "verdict.stand_in"));
	/* a stand-in folder is not on the card: the card's bus is no ceiling of it */
	g_assert_true(sdt_test_root_json_is_null(node, "ceiling_mb_s"));
	g_assert_cmpuint(sdt_test_root_json_len(node, "tests"), ==, 6);
	g_assert_cmpstr(sdt_test_root_json_str(node, "tests.0.name"), ==, "seq-write");
	g_assert_cmpint(sdt_test_root_json_int(node, "tests.0.block_size"), ==, MIB);
	g_assert_cmpfloat(sdt_test_root_json_double(node, "tests.0.mb_s"), >, 0);
	g_assert_cmpstr(sdt_test_root_json_str(node, "tests.2.name"), ==, "rand-4k-read-qd32");
	g_assert_cmpint(sdt_test_root_json_int(node, "tests.2.queue_depth"), ==, 32);
	g_assert_cmpfloat(sdt_test_root_json_double(node, "tests.2.iops"), >, 0);
	g_assert_cmpuint(phases->len, >=, 6);
	/* no test file left; the result is in the history, marked as a stand-in */
	g_assert_cmpuint(test_ops_bench_count(dir), ==, 0);
	history = test_history_json(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(history), ==, 1);
	entry = json_array_get_object_element(history, 0);
	g_assert_cmpstr(json_object_get_string_member(entry, "kind"), ==, "bench");
	g_assert_cmpuint(json_array_get_length(json_object_get_array_member(entry, "tests")),
			 ==,
			 6);
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

static void
test_ops_bench_cancel_progress(const gchar *phase, gdouble fraction, gdouble rate, gpointer data)
{
	g_cancellable_cancel(G_CANCELLABLE(data));
}

/* the quick profile, stopped at its first progress: cancelled, nothing left, nothing recorded */
static void
test_ops_bench_cancelled(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autofree gchar *dir = test_ops_bench_dir();
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	g_autoptr(GError) error = NULL;
	g_autofree gchar *node = NULL;
	g_autoptr(JsonArray) history = NULL;

	node = sdt_ops_bench(root->ctx,
			     "quick",
			     dir,
			     test_ops_bench_cancel_progress,
			     cancellable,
			     cancellable,
			     &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_CANCELLED);
	g_assert_null(node);
	g_assert_cmpuint(test_ops_bench_count(dir), ==, 0);
	g_clear_error(&error);
	history = test_history_json(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(history), ==, 0);
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

static void
test_ops_bench_refused(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *turbo = sdt_ops_bench(root->ctx, "turbo", NULL, NULL, NULL, NULL, &error);
	g_autoptr(SdtContext) real = NULL;
	g_autofree gchar *dir = NULL;

	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_assert_nonnull(strstr(error->message, "turbo"));
	g_assert_null(turbo);
	g_clear_error(&error);
	/* a folder of one's choosing only in --root mode (tests), never on the real system */
	real = sdt_context_new("/", &error);
	g_assert_no_error(error);
	dir = sdt_ops_bench(real, "quick", "/var/tmp", NULL, NULL, NULL, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_assert_null(dir);
}

/* issue 34: what a USB reader hides, and when its link caps the reads: the record of a
 * run on a whole card from figures (sdt_ops_bench_device_record()) */
static JsonObject *
test_ops_bench_device_target(JsonNode *node)
{
	return json_object_get_object_member(json_node_get_object(node), "target");
}

static JsonNode *
test_ops_bench_device_run(const gchar *bus, gdouble mbit_s, gdouble seq_read_mb_s)
{
	g_autoptr(SdtBenchResult) result = g_new0(SdtBenchResult, 1);
	SdtBenchTarget target = {
		.fd = -1,
		.device = (gchar *) "sdb",
		.device_node = (gchar *) "/dev/sdb",
		.disk_node = (gchar *) "/dev/sdb",
		.whole_device = TRUE,
		.offset = SDT_BENCH_DEVICE_OFFSET,
		.size = 64 * MIB,
		.device_size = G_GUINT64_CONSTANT(32) * 1000 * 1000 * 1000,
		.no_writes = TRUE,
	};
	SdtDevice d = {.devnode = (gchar *) "/dev/sdb",
		       .bus = (gchar *) bus,
		       .usb_speed_mbit_s = mbit_s};
	SdtBenchTestResult *read = g_new0(SdtBenchTestResult, 1);

	result->profile = g_strdup("quick");
	result->tests = g_ptr_array_new();
	result->notes = g_ptr_array_new_with_free_func(g_free);
	read->name = g_strdup("seq-read");
	read->block_size = 4 * MIB;
	read->queue_depth = 1;
	read->io_engine = "threads";
	read->seconds = 1;
	read->bytes = (guint64) (seq_read_mb_s * 1e6);
	read->mb_s = seq_read_mb_s;
	read->ci_percent = 1;
	g_ptr_array_add(result->tests, read);
	{
		g_autoptr(SdtBenchRecord) record =
			sdt_ops_bench_device_record(result,
						    &target,
						    &d,
						    NULL,
						    g_strdup("write tests skipped: test"));
		g_free(read->name);
		g_free(read);
		return sdt_bench_record_to_json(record);
	}
}

static gboolean
test_ops_bench_device_has_note(JsonNode *node, const gchar *text)
{
	JsonArray *notes = json_object_get_array_member(json_node_get_object(node), "notes");

	for (guint i = 0; i < json_array_get_length(notes); i++)
		if (strstr(json_array_get_string_element(notes, i), text) != NULL)
			return TRUE;
	return FALSE;
}

static void
test_ops_bench_device_reader(void)
{
	g_autoptr(JsonNode) capped = test_ops_bench_device_run("usb", 480, 38.5);
	g_autoptr(JsonNode) free_usb2 = test_ops_bench_device_run("usb", 480, 20.0);
	g_autoptr(JsonNode) usb3 = test_ops_bench_device_run("usb", 5000, 38.5);
	g_autoptr(JsonNode) slot = test_ops_bench_device_run("mmc", 0, 38.5);
	JsonObject *t;

	g_assert_cmpfloat(sdt_ops_bench_device_usb_ceiling(480), ==, 40);
	g_assert_cmpfloat(sdt_ops_bench_device_usb_ceiling(5000), ==, 400);
	g_assert_cmpfloat(sdt_ops_bench_device_usb_ceiling(0), ==, 0);

	/* USB 2.0 at 38.5 of its 40 MB/s: the reader is the bottleneck, and says so */
	t = test_ops_bench_device_target(capped);
	g_assert_true(json_object_get_boolean_member(t, "whole_device"));
	g_assert_cmpfloat(json_object_get_double_member(t, "usb_speed_mbit_s"), ==, 480);
	g_assert_true(json_object_get_boolean_member(t, "reader_bottleneck"));
	g_assert_cmpint(json_object_get_int_member(t, "region_offset"), ==, 16 * MIB);
	g_assert_cmpfloat(
		json_object_get_double_member(json_node_get_object(capped), "ceiling_mb_s"),
		==,
		40);
	g_assert_true(test_ops_bench_device_has_note(capped, "linked at 480 Mbit/s"));
	g_assert_true(test_ops_bench_device_has_note(capped, "registers (CID, CSD)"));
	g_assert_true(test_ops_bench_device_has_note(capped, "The reader is the bottleneck"));
	g_assert_true(test_ops_bench_device_has_note(capped, "A1/A2 cannot be judged"));
	g_assert_false(json_object_has_member(json_node_get_object(capped), "verdict"));

	/* half the link: the registers hidden, but the card, not the reader, set the pace */
	t = test_ops_bench_device_target(free_usb2);
	g_assert_false(json_object_get_boolean_member(t, "reader_bottleneck"));
	g_assert_true(test_ops_bench_device_has_note(free_usb2, "linked at 480 Mbit/s"));
	g_assert_false(test_ops_bench_device_has_note(free_usb2, "bottleneck"));

	/* the same read behind USB 3: far from its link */
	t = test_ops_bench_device_target(usb3);
	g_assert_false(json_object_get_boolean_member(t, "reader_bottleneck"));
	g_assert_true(test_ops_bench_device_has_note(usb3, "linked at 5000 Mbit/s"));

	/* a second slot: nothing about a reader, no USB speed */
	t = test_ops_bench_device_target(slot);
	g_assert_true(json_object_get_null_member(t, "usb_speed_mbit_s"));
	g_assert_false(json_object_get_boolean_member(t, "reader_bottleneck"));
	g_assert_false(test_ops_bench_device_has_note(slot, "USB reader"));
	g_assert_true(JSON_NODE_HOLDS_NULL(
		json_object_get_member(json_node_get_object(slot), "ceiling_mb_s")));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-bench/short-run", test_ops_bench_short_run);
	g_test_add_func("/sdtuner/ops-bench/cancelled", test_ops_bench_cancelled);
	g_test_add_func("/sdtuner/ops-bench/refused", test_ops_bench_refused);
	g_test_add_func("/sdtuner/ops-bench/device-reader", test_ops_bench_device_reader);
	return g_test_run();
}
