/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-bench.h"
#include "sdt-client-bench.h"
#include "sdt-client-private.h"
#include "sdt-error.h"
#include "sdt-json-reader.h"

static void
sdt_client_bench_test_free(SdtClientBenchTest *test)
{
	g_free(test->name);
	g_free(test->io_engine);
	g_free(test->skipped);
	g_free(test);
}

void
sdt_client_bench_free(SdtClientBench *bench)
{
	if (bench == NULL)
		return;
	g_ptr_array_unref(bench->tests);
	g_ptr_array_unref(bench->notes);
	g_free(bench->path);
	g_free(bench->device);
	g_free(bench->filesystem);
	g_free(bench->raw_device);
	g_free(bench->profile);
	g_free(bench->verdict.basis);
	g_free(bench);
}

static SdtTarget
sdt_client_bench_target(gdouble value, gdouble target)
{
	if (!isfinite(value))
		return SDT_TARGET_NONE;
	return value >= target ? SDT_TARGET_PASS : SDT_TARGET_FAIL;
}

/* the SD Association's targets (sdt-bench.h), per test */
static void
sdt_client_bench_test_set_targets(SdtClientBenchTest *test)
{
	test->a1 = SDT_TARGET_NONE;
	test->a2 = SDT_TARGET_NONE;
	if (!test->valid)
		return;
	if (g_strcmp0(test->name, "seq-write") == 0) {
		test->a1 = sdt_client_bench_target(test->mb_s, SDT_BENCH_A_SEQ_MB_S);
		test->a2 = test->a1;
	} else if (g_str_has_prefix(test->name, "rand-4k-read-")) {
		test->a1 = sdt_client_bench_target(test->iops, SDT_BENCH_A1_READ_IOPS);
		test->a2 = sdt_client_bench_target(test->iops, SDT_BENCH_A2_READ_IOPS);
	} else if (g_str_has_prefix(test->name, "rand-4k-write-")) {
		test->a1 = sdt_client_bench_target(test->iops, SDT_BENCH_A1_WRITE_IOPS);
		test->a2 = sdt_client_bench_target(test->iops, SDT_BENCH_A2_WRITE_IOPS);
	}
}

static gboolean
sdt_client_bench_read_latency(JsonObject *obj,
			      const gchar *where,
			      SdtClientBenchTest *test,
			      GError **error)
{
	JsonObject *lat;
	g_autofree gchar *at = NULL;
	SdtClientLatency *l = &test->latency;

	if (!sdt_client_read_object(obj, where, "latency_us", &lat, error))
		return FALSE;
	test->has_latency = lat != NULL;
	at = g_strdup_printf("%s.latency_us", where);
	return sdt_client_read_number(lat, at, "mean", &l->mean, error) &&
	       sdt_client_read_number(lat, at, "p50", &l->p50, error) &&
	       sdt_client_read_number(lat, at, "p90", &l->p90, error) &&
	       sdt_client_read_number(lat, at, "p99", &l->p99, error) &&
	       sdt_client_read_number(lat, at, "p99_9", &l->p99_9, error) &&
	       sdt_client_read_number(lat, at, "max", &l->max, error);
}

/* the members of one test as written, without judging them */
static gboolean
sdt_client_bench_read_test_members(JsonObject *obj,
				   const gchar *at,
				   SdtClientBenchTest *t,
				   GError **error)
{
	if (!sdt_client_read_string(obj, at, "name", &t->name, error))
		return FALSE;
	if (t->name == NULL)
		return sdt_client_read_missing(at, "name", error);
	return sdt_client_read_int(obj, at, "block_size", 0, &t->block_size, error) &&
	       sdt_client_read_int(obj, at, "queue_depth", 0, &t->queue_depth, error) &&
	       sdt_client_read_number(obj, at, "mb_s", &t->mb_s, error) &&
	       sdt_client_read_number(obj, at, "iops", &t->iops, error) &&
	       sdt_client_read_number(obj, at, "seconds", &t->seconds, error) &&
	       sdt_client_read_int(obj, at, "ios", 0, &t->ios, error) &&
	       sdt_client_read_int(obj, at, "bytes", 0, &t->bytes, error) &&
	       sdt_client_read_string(obj, at, "io_engine", &t->io_engine, error) &&
	       sdt_client_read_int(obj, at, "in_flight_max", 0, &t->in_flight_max, error) &&
	       sdt_client_read_int(obj, at, "slices", 0, &t->slices, error) &&
	       sdt_client_read_number(obj, at, "ci_percent", &t->ci_percent, error) &&
	       sdt_client_read_number(obj, at, "spread_percent", &t->spread_percent, error) &&
	       sdt_client_read_number(obj, at, "cpu_us_per_io", &t->cpu_us_per_io, error) &&
	       sdt_client_read_number(obj, at, "fsync_seconds", &t->fsync_seconds, error) &&
	       sdt_client_read_string(obj, at, "skipped", &t->skipped, error) &&
	       sdt_client_bench_read_latency(obj, at, t, error);
}

static SdtClientBenchTest *
sdt_client_bench_read_test(SdtClientBench *bench, JsonNode *node, guint index, GError **error)
{
	g_autofree gchar *at = sdt_client_read_element(NULL, "tests", index);
	JsonObject *obj = sdt_client_read_element_object(node, at, error);
	SdtClientBenchTest *t;

	if (obj == NULL)
		return NULL;
	t = g_new0(SdtClientBenchTest, 1);
	if (!sdt_client_bench_read_test_members(obj, at, t, error)) {
		sdt_client_bench_test_free(t);
		return NULL;
	}
	t->valid = isfinite(t->mb_s) && t->mb_s >= 0 && isfinite(t->iops) && t->iops >= 0 &&
		   isfinite(t->seconds) && t->seconds > 0;
	t->ceiling_pct =
		t->valid && bench->ceiling_mb_s > 0 ? 100.0 * t->mb_s / bench->ceiling_mb_s : -1;
	/* a stand-in's figures are not the card's: no A1/A2 marks */
	if (!bench->stand_in)
		sdt_client_bench_test_set_targets(t);
	return t;
}

static gboolean
sdt_client_bench_read_target(JsonObject *obj, SdtClientBench *bench, GError **error)
{
	JsonObject *target;

	return sdt_client_read_object(obj, NULL, "target", &target, error) &&
	       sdt_client_read_string(target, "target", "path", &bench->path, error) &&
	       sdt_client_read_string(target, "target", "device", &bench->device, error) &&
	       sdt_client_read_string(target, "target", "filesystem", &bench->filesystem, error) &&
	       sdt_client_read_string(target, "target", "raw_device", &bench->raw_device, error) &&
	       sdt_client_read_int(target, "target", "file_size", 0, &bench->file_size, error) &&
	       sdt_client_read_bool(target, "target", "tmpfile", FALSE, &bench->tmpfile, error) &&
	       sdt_client_read_bool(target, "target", "stand_in", FALSE, &bench->stand_in, error);
}

/* {"a1": true, "a2": false, ...}: the only shape the engine writes */
static gboolean
sdt_client_bench_read_verdict(JsonObject *obj, SdtClientBenchVerdict *v, GError **error)
{
	JsonObject *verdict;
	const gchar *at = "verdict";

	if (!sdt_client_read_object(obj, NULL, at, &verdict, error))
		return FALSE;
	v->present = verdict != NULL;
	return sdt_client_read_bool(verdict, at, "a1", FALSE, &v->a1, error) &&
	       sdt_client_read_bool(verdict, at, "a2", FALSE, &v->a2, error) &&
	       sdt_client_read_bool(verdict, at, "stand_in", FALSE, &v->stand_in, error) &&
	       sdt_client_read_number(verdict, at, "seq_write_mb_s", &v->seq_write_mb_s, error) &&
	       sdt_client_read_number(verdict, at, "read_iops", &v->read_iops, error) &&
	       sdt_client_read_number(verdict, at, "write_iops", &v->write_iops, error) &&
	       sdt_client_read_number(verdict, at, "seconds", &v->seconds, error) &&
	       sdt_client_read_number(verdict, at, "spread_percent", &v->spread_percent, error) &&
	       sdt_client_read_string(verdict, at, "basis", &v->basis, error);
}

/* everything but the tests */
static gboolean
sdt_client_bench_read_document(JsonObject *obj, SdtClientBench *bench, GError **error)
{
	if (!sdt_client_bench_read_target(obj, bench, error) ||
	    !sdt_client_read_string(obj, NULL, "profile", &bench->profile, error) ||
	    !sdt_client_read_strings(obj, NULL, "notes", bench->notes, error) ||
	    !sdt_client_bench_read_verdict(obj, &bench->verdict, error) ||
	    !sdt_client_read_number(obj, NULL, "spread_percent", &bench->spread_percent, error) ||
	    !sdt_client_read_number(obj, NULL, "ceiling_mb_s", &bench->ceiling_mb_s, error) ||
	    !sdt_client_read_number(obj, NULL, "ceiling_percent", &bench->ceiling_percent, error) ||
	    !sdt_client_read_number(obj, NULL, "seconds", &bench->seconds, error))
		return FALSE;
	if (!isfinite(bench->ceiling_mb_s) || bench->ceiling_mb_s <= 0)
		bench->ceiling_mb_s = -1;
	bench->stand_in = bench->stand_in || bench->verdict.stand_in;
	return TRUE;
}

SdtClientBench *
sdt_client_bench_from_json(JsonObject *obj, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtClientBench) bench = g_new0(SdtClientBench, 1);
	JsonArray *tests;

	bench->tests = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_bench_test_free);
	bench->notes = g_ptr_array_new_with_free_func(g_free);
	if (!sdt_client_read_array(obj, NULL, "tests", &tests, error))
		return NULL;
	if (tests == NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("The benchmark result has no list of tests"));
		return NULL;
	}
	if (!sdt_client_bench_read_document(obj, bench, error))
		return NULL;
	for (guint i = 0; i < json_array_get_length(tests); i++) {
		SdtClientBenchTest *t = sdt_client_bench_read_test(bench,
								   json_array_get_element(tests, i),
								   i,
								   error);
		if (t == NULL)
			return NULL;
		if (!t->valid)
			bench->invalid_rows++;
		g_ptr_array_add(bench->tests, t);
	}
	/* a verdict over unusable figures, or on a stand-in, is no verdict on the card */
	if (bench->verdict.present && bench->invalid_rows == 0 && !bench->stand_in) {
		bench->a1 = bench->verdict.a1 ? SDT_TARGET_PASS : SDT_TARGET_FAIL;
		bench->a2 = bench->verdict.a2 ? SDT_TARGET_PASS : SDT_TARGET_FAIL;
	}
	return g_steal_pointer(&bench);
}

SdtClientBench *
sdt_client_bench_parse(const gchar *json, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(JsonNode) root = sdt_json_reader_parse(json, error);
	if (root == NULL)
		return NULL;
	return sdt_client_bench_from_json(json_node_get_object(root), error);
}

SdtClientBenchTest *
sdt_client_bench_get_test(SdtClientBench *bench, const gchar *name)
{
	for (guint i = 0; bench != NULL && i < bench->tests->len; i++) {
		SdtClientBenchTest *t = g_ptr_array_index(bench->tests, i);
		if (g_strcmp0(t->name, name) == 0)
			return t;
	}
	return NULL;
}
