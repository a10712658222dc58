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
#include "sdt-test-root.h"

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
	node = sdt_ops_bench_run(root->ctx,
				 &config,
				 dir,
				 test_ops_bench_progress,
				 phases,
				 NULL,
				 &error);
	g_assert_no_error(error);
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
	history = sdt_history_list(root->ctx, &error);
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
	g_autoptr(JsonNode) node = NULL;
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
	history = sdt_history_list(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(history), ==, 0);
	g_assert_cmpint(g_rmdir(dir), ==, 0);
}

static void
test_ops_bench_refused(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) turbo =
		sdt_ops_bench(root->ctx, "turbo", NULL, NULL, NULL, NULL, &error);
	g_autoptr(SdtContext) real = NULL;
	g_autoptr(JsonNode) dir = NULL;

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

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-bench/short-run", test_ops_bench_short_run);
	g_test_add_func("/sdtuner/ops-bench/cancelled", test_ops_bench_cancelled);
	g_test_add_func("/sdtuner/ops-bench/refused", test_ops_bench_refused);
	return g_test_run();
}
