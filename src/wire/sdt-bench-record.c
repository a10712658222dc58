/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-bench-record.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-json-strict-private.h"
#include "sdt-error.h"

static void
sdt_bench_record_test_free(SdtBenchRecordTest *test)
{
	if (test == NULL)
		return;
	g_free(test->name);
	g_free(test->io_engine);
	g_free(test->skipped);
	g_free(test->stopped);
	g_free(test);
}

void
sdt_bench_record_free(SdtBenchRecord *bench)
{
	if (bench == NULL)
		return;
	g_ptr_array_unref(bench->tests);
	g_ptr_array_unref(bench->notes);
	g_free(bench->path);
	g_free(bench->device);
	g_free(bench->filesystem);
	g_free(bench->raw_device);
	g_free(bench->device_node);
	g_free(bench->writes);
	g_free(bench->bus);
	g_free(bench->profile);
	g_free(bench->verdict.basis);
	g_free(bench->config_sha256);
	g_free(bench->card_id);
	g_free(bench->card_name);
	g_free(bench->card_serial);
	g_free(bench);
}

static SdtTarget
sdt_bench_record_target(gdouble value, gdouble target)
{
	if (!isfinite(value))
		return SDT_TARGET_NONE;
	return value >= target ? SDT_TARGET_PASS : SDT_TARGET_FAIL;
}

static void
sdt_bench_record_latency_init(SdtBenchRecordLatency *l)
{
	l->mean = l->p50 = l->p90 = l->p99 = l->p99_9 = l->max = NAN;
}

SdtBenchRecordTest *
sdt_bench_record_test_new(const gchar *name)
{
	SdtBenchRecordTest *t = g_new0(SdtBenchRecordTest, 1);

	t->name = g_strdup(name);
	t->mb_s = t->iops = t->seconds = NAN;
	t->ci_percent = t->spread_percent = t->cpu_us_per_io = t->fsync_seconds = NAN;
	t->confidence_percent = t->target_ci_percent = NAN;
	t->ceiling_pct = NAN;
	sdt_bench_record_latency_init(&t->latency);
	return t;
}

SdtBenchRecord *
sdt_bench_record_new(void)
{
	SdtBenchRecord *r = g_new0(SdtBenchRecord, 1);
	SdtBenchRecordVerdict *v = &r->verdict;

	r->tests = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_bench_record_test_free);
	r->notes = g_ptr_array_new_with_free_func(g_free);
	v->seq_write_mb_s = v->read_iops = v->write_iops = v->seconds = v->spread_percent = NAN;
	v->confidence_percent = NAN;
	r->spread_percent = r->ceiling_mb_s = r->ceiling_percent = r->seconds = NAN;
	r->usb_speed_mbit_s = NAN;
	return r;
}

/* the SD Association's targets (sdt-bench.h), per test */
static void
sdt_bench_record_test_set_targets(SdtBenchRecordTest *test)
{
	test->a1 = SDT_TARGET_NONE;
	test->a2 = SDT_TARGET_NONE;
	if (!test->valid)
		return;
	if (g_strcmp0(test->name, "seq-write") == 0) {
		test->a1 = sdt_bench_record_target(test->mb_s, SDT_BENCH_A_SEQ_MB_S);
		test->a2 = test->a1;
	} else if (g_str_has_prefix(test->name, "rand-4k-read-")) {
		test->a1 = sdt_bench_record_target(test->iops, SDT_BENCH_A1_READ_IOPS);
		test->a2 = sdt_bench_record_target(test->iops, SDT_BENCH_A2_READ_IOPS);
	} else if (g_str_has_prefix(test->name, "rand-4k-write-")) {
		test->a1 = sdt_bench_record_target(test->iops, SDT_BENCH_A1_WRITE_IOPS);
		test->a2 = sdt_bench_record_target(test->iops, SDT_BENCH_A2_WRITE_IOPS);
	}
}

static gboolean
sdt_bench_record_read_latency(JsonObject *obj,
			      const gchar *where,
			      SdtBenchRecordTest *test,
			      GError **error)
{
	JsonObject *lat;
	g_autofree gchar *at = NULL;
	SdtBenchRecordLatency *l = &test->latency;

	if (!sdt_json_strict_object(obj, where, "latency_us", &lat, error))
		return FALSE;
	test->has_latency = lat != NULL;
	at = g_strdup_printf("%s.latency_us", where);
	return sdt_json_strict_number(lat, at, "mean", &l->mean, error) &&
	       sdt_json_strict_number(lat, at, "p50", &l->p50, error) &&
	       sdt_json_strict_number(lat, at, "p90", &l->p90, error) &&
	       sdt_json_strict_number(lat, at, "p99", &l->p99, error) &&
	       sdt_json_strict_number(lat, at, "p99_9", &l->p99_9, error) &&
	       sdt_json_strict_number(lat, at, "max", &l->max, error);
}

/* the members of one test as written, without judging them */
static gboolean
sdt_bench_record_read_test_members(JsonObject *obj,
				   const gchar *at,
				   SdtBenchRecordTest *t,
				   GError **error)
{
	if (!sdt_json_strict_string(obj, at, "name", &t->name, error))
		return FALSE;
	if (t->name == NULL)
		return sdt_json_strict_missing(at, "name", error);
	return sdt_json_strict_int(obj, at, "block_size", 0, &t->block_size, error) &&
	       sdt_json_strict_int(obj, at, "queue_depth", 0, &t->queue_depth, error) &&
	       sdt_json_strict_number(obj, at, "mb_s", &t->mb_s, error) &&
	       sdt_json_strict_number(obj, at, "iops", &t->iops, error) &&
	       sdt_json_strict_number(obj, at, "seconds", &t->seconds, error) &&
	       sdt_json_strict_int(obj, at, "ios", 0, &t->ios, error) &&
	       sdt_json_strict_int(obj, at, "bytes", 0, &t->bytes, error) &&
	       sdt_json_strict_string(obj, at, "io_engine", &t->io_engine, error) &&
	       sdt_json_strict_int(obj, at, "in_flight_max", 0, &t->in_flight_max, error) &&
	       sdt_json_strict_int(obj, at, "slices", 0, &t->slices, error) &&
	       sdt_json_strict_number(obj, at, "ci_percent", &t->ci_percent, error) &&
	       sdt_json_strict_number(obj,
				      at,
				      "confidence_percent",
				      &t->confidence_percent,
				      error) &&
	       sdt_json_strict_number(obj, at, "target_ci_percent", &t->target_ci_percent, error) &&
	       sdt_json_strict_string(obj, at, "stopped", &t->stopped, error) &&
	       sdt_json_strict_number(obj, at, "spread_percent", &t->spread_percent, error) &&
	       sdt_json_strict_number(obj, at, "cpu_us_per_io", &t->cpu_us_per_io, error) &&
	       sdt_json_strict_number(obj, at, "fsync_seconds", &t->fsync_seconds, error) &&
	       sdt_json_strict_string(obj, at, "skipped", &t->skipped, error) &&
	       sdt_bench_record_read_latency(obj, at, t, error);
}

static SdtBenchRecordTest *
sdt_bench_record_read_test(JsonNode *node, guint index, GError **error)
{
	g_autofree gchar *at = sdt_json_strict_element(NULL, "tests", index);
	JsonObject *obj = sdt_json_strict_element_object(node, at, error);
	SdtBenchRecordTest *t;

	if (obj == NULL)
		return NULL;
	t = sdt_bench_record_test_new(NULL);
	if (!sdt_bench_record_read_test_members(obj, at, t, error)) {
		sdt_bench_record_test_free(t);
		return NULL;
	}
	return t;
}

static void
sdt_bench_record_test_derive(SdtBenchRecord *bench, SdtBenchRecordTest *t)
{
	t->valid = isfinite(t->mb_s) && t->mb_s >= 0 && isfinite(t->iops) && t->iops >= 0 &&
		   isfinite(t->seconds) && t->seconds > 0;
	t->ceiling_pct =
		t->valid && bench->ceiling_mb_s > 0 ? 100.0 * t->mb_s / bench->ceiling_mb_s : NAN;
	/* a stand-in's figures are not the card's: no A1/A2 marks */
	t->a1 = t->a2 = SDT_TARGET_NONE;
	if (!bench->stand_in)
		sdt_bench_record_test_set_targets(t);
}

void
sdt_bench_record_derive(SdtBenchRecord *bench)
{
	g_return_if_fail(bench != NULL);

	if (!isfinite(bench->ceiling_mb_s) || bench->ceiling_mb_s <= 0)
		bench->ceiling_mb_s = NAN;
	bench->stand_in = bench->target_stand_in || bench->verdict.stand_in;
	bench->invalid_rows = 0;
	for (guint i = 0; i < bench->tests->len; i++) {
		SdtBenchRecordTest *t = g_ptr_array_index(bench->tests, i);
		sdt_bench_record_test_derive(bench, t);
		if (!t->valid)
			bench->invalid_rows++;
	}
	/* a verdict over unusable figures, or on a stand-in, is no verdict on the card */
	bench->a1 = bench->a2 = SDT_TARGET_NONE;
	if (bench->verdict.present && bench->invalid_rows == 0 && !bench->stand_in) {
		bench->a1 = bench->verdict.a1 ? SDT_TARGET_PASS : SDT_TARGET_FAIL;
		bench->a2 = bench->verdict.a2 ? SDT_TARGET_PASS : SDT_TARGET_FAIL;
	}
}

/* a whole card's members (issue 34); absent in a benchmark of the running card */
static gboolean
sdt_bench_record_read_whole_device(JsonObject *t, SdtBenchRecord *bench, GError **error)
{
	const gchar *at = "target";

	return sdt_json_strict_bool(t, at, "whole_device", FALSE, &bench->whole_device, error) &&
	       sdt_json_strict_string(t, at, "device_node", &bench->device_node, error) &&
	       sdt_json_strict_int(t, at, "region_offset", 0, &bench->region_offset, error) &&
	       sdt_json_strict_int(t, at, "device_size", 0, &bench->device_size, error) &&
	       sdt_json_strict_string(t, at, "writes", &bench->writes, error) &&
	       sdt_json_strict_string(t, at, "bus", &bench->bus, error) &&
	       sdt_json_strict_number(t, at, "usb_speed_mbit_s", &bench->usb_speed_mbit_s, error) &&
	       sdt_json_strict_bool(t,
				    at,
				    "reader_bottleneck",
				    FALSE,
				    &bench->reader_bottleneck,
				    error);
}

static gboolean
sdt_bench_record_read_target(JsonObject *obj, SdtBenchRecord *bench, GError **error)
{
	JsonObject *target;

	return sdt_json_strict_object(obj, NULL, "target", &target, error) &&
	       sdt_json_strict_string(target, "target", "path", &bench->path, error) &&
	       sdt_json_strict_string(target, "target", "device", &bench->device, error) &&
	       sdt_json_strict_string(target, "target", "filesystem", &bench->filesystem, error) &&
	       sdt_json_strict_string(target, "target", "raw_device", &bench->raw_device, error) &&
	       sdt_json_strict_int(target, "target", "file_size", 0, &bench->file_size, error) &&
	       sdt_json_strict_bool(target, "target", "tmpfile", FALSE, &bench->tmpfile, error) &&
	       sdt_json_strict_bool(target,
				    "target",
				    "stand_in",
				    FALSE,
				    &bench->target_stand_in,
				    error) &&
	       sdt_bench_record_read_whole_device(target, bench, error);
}

/* {"a1": true, "a2": false, ...}: the only shape the engine writes */
static gboolean
sdt_bench_record_read_verdict(JsonObject *obj, SdtBenchRecordVerdict *v, GError **error)
{
	JsonObject *verdict;
	const gchar *at = "verdict";

	if (!sdt_json_strict_object(obj, NULL, at, &verdict, error))
		return FALSE;
	v->present = verdict != NULL;
	return sdt_json_strict_bool(verdict, at, "a1", FALSE, &v->a1, error) &&
	       sdt_json_strict_bool(verdict, at, "a2", FALSE, &v->a2, error) &&
	       sdt_json_strict_bool(verdict, at, "stand_in", FALSE, &v->stand_in, error) &&
	       sdt_json_strict_number(verdict, at, "seq_write_mb_s", &v->seq_write_mb_s, error) &&
	       sdt_json_strict_number(verdict, at, "read_iops", &v->read_iops, error) &&
	       sdt_json_strict_number(verdict, at, "write_iops", &v->write_iops, error) &&
	       sdt_json_strict_number(verdict, at, "seconds", &v->seconds, error) &&
	       sdt_json_strict_number(verdict, at, "spread_percent", &v->spread_percent, error) &&
	       sdt_json_strict_number(verdict,
				      at,
				      "confidence_percent",
				      &v->confidence_percent,
				      error) &&
	       sdt_json_strict_string(verdict, at, "basis", &v->basis, error);
}

/* everything but the tests */
static gboolean
sdt_bench_record_read_document(JsonObject *obj, SdtBenchRecord *bench, GError **error)
{
	if (!sdt_bench_record_read_target(obj, bench, error) ||
	    !sdt_json_strict_string(obj, NULL, "profile", &bench->profile, error) ||
	    !sdt_json_strict_strings(obj, NULL, "notes", bench->notes, error) ||
	    !sdt_bench_record_read_verdict(obj, &bench->verdict, error) ||
	    !sdt_json_strict_number(obj, NULL, "spread_percent", &bench->spread_percent, error) ||
	    !sdt_json_strict_number(obj, NULL, "ceiling_mb_s", &bench->ceiling_mb_s, error) ||
	    !sdt_json_strict_number(obj, NULL, "ceiling_percent", &bench->ceiling_percent, error) ||
	    !sdt_json_strict_number(obj, NULL, "seconds", &bench->seconds, error))
		return FALSE;
	return TRUE;
}

/* a bench entry's own members (absent in a `bench --json` document) */
static gboolean
sdt_bench_record_read_entry(JsonObject *obj, SdtBenchRecord *bench, GError **error)
{
	const gchar *at = SDT_BENCH_RECORD_KEY_CARD;
	JsonObject *card;

	if (!sdt_json_strict_string(obj,
				    NULL,
				    SDT_BENCH_RECORD_KEY_CONFIG_SHA256,
				    &bench->config_sha256,
				    error) ||
	    !sdt_json_strict_object(obj, NULL, at, &card, error))
		return FALSE;
	return card == NULL ||
	       (sdt_json_strict_string(card, at, "id", &bench->card_id, error) &&
		sdt_json_strict_string(card, at, "name", &bench->card_name, error) &&
		sdt_json_strict_string(card, at, "serial", &bench->card_serial, error));
}

SdtBenchRecord *
sdt_bench_record_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtBenchRecord) bench = NULL;
	JsonArray *tests;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	bench = sdt_bench_record_new();
	if (!sdt_json_strict_array(obj, NULL, "tests", &tests, error))
		return NULL;
	if (tests == NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("The benchmark result has no list of tests"));
		return NULL;
	}
	if (!sdt_bench_record_read_document(obj, bench, error) ||
	    !sdt_bench_record_read_entry(obj, bench, error))
		return NULL;
	for (guint i = 0; i < json_array_get_length(tests); i++) {
		SdtBenchRecordTest *t =
			sdt_bench_record_read_test(json_array_get_element(tests, i), i, error);
		if (t == NULL)
			return NULL;
		g_ptr_array_add(bench->tests, t);
	}
	sdt_bench_record_derive(bench);
	return g_steal_pointer(&bench);
}

SdtBenchRecord *
sdt_bench_record_parse(const gchar *json, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(json != NULL, NULL);

	root = sdt_json_reader_parse(json, error);
	if (root == NULL)
		return NULL;
	return sdt_bench_record_from_json(json_node_get_object(root), error);
}

SdtBenchRecordTest *
sdt_bench_record_get_test(SdtBenchRecord *bench, const gchar *name)
{
	for (guint i = 0; bench != NULL && i < bench->tests->len; i++) {
		SdtBenchRecordTest *t = g_ptr_array_index(bench->tests, i);
		if (g_strcmp0(t->name, name) == 0)
			return t;
	}
	return NULL;
}

/* the writing direction: every member in the engine's order */

static void
sdt_bench_record_put_target(JsonBuilder *b, const SdtBenchRecord *r)
{
	json_builder_set_member_name(b, "target");
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, "path", r->path);
	sdt_json_string_or_null(b, "device", r->device);
	sdt_json_string_or_null(b, "filesystem", r->filesystem);
	sdt_json_string_or_null(b, "raw_device", r->raw_device);
	sdt_json_put_int(b, "file_size", r->file_size);
	sdt_json_put_bool(b, "tmpfile", r->tmpfile);
	/* not the SD card: kept out of A1/A2 claims about the card and of comparisons */
	sdt_json_put_bool(b, "stand_in", r->target_stand_in);
	if (r->whole_device) {
		sdt_json_put_bool(b, "whole_device", TRUE);
		sdt_json_string_or_null(b, "device_node", r->device_node);
		sdt_json_put_int(b, "region_offset", r->region_offset);
		sdt_json_put_int(b, "device_size", r->device_size);
		sdt_json_string_or_null(b, "writes", r->writes);
		sdt_json_string_or_null(b, "bus", r->bus);
		sdt_json_number_or_null(b, "usb_speed_mbit_s", r->usb_speed_mbit_s);
		sdt_json_put_bool(b, "reader_bottleneck", r->reader_bottleneck);
	}
	json_builder_end_object(b);
}

static void
sdt_bench_record_put_latency(JsonBuilder *b, const SdtBenchRecordLatency *l)
{
	json_builder_set_member_name(b, "latency_us");
	json_builder_begin_object(b);
	sdt_json_number_or_null(b, "mean", l->mean);
	sdt_json_number_or_null(b, "p50", l->p50);
	sdt_json_number_or_null(b, "p90", l->p90);
	sdt_json_number_or_null(b, "p99", l->p99);
	sdt_json_number_or_null(b, "p99_9", l->p99_9);
	sdt_json_number_or_null(b, "max", l->max);
	json_builder_end_object(b);
}

static void
sdt_bench_record_put_test(JsonBuilder *b, const SdtBenchRecordTest *t)
{
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, "name", t->name);
	sdt_json_put_int(b, "block_size", t->block_size);
	sdt_json_put_int(b, "queue_depth", t->queue_depth);
	sdt_json_number_or_null(b, "mb_s", t->mb_s);
	sdt_json_number_or_null(b, "iops", t->iops);
	sdt_json_number_or_null(b, "seconds", t->seconds);
	sdt_json_put_int(b, "ios", t->ios);
	sdt_json_put_int(b, "bytes", t->bytes);
	sdt_json_string_or_null(b, "io_engine", t->io_engine);
	sdt_json_put_int(b, "in_flight_max", t->in_flight_max);
	sdt_json_put_int(b, "slices", t->slices);
	sdt_json_number_or_null(b, "ci_percent", t->ci_percent);
	if (!isnan(t->confidence_percent))
		sdt_json_number_or_null(b, "confidence_percent", t->confidence_percent);
	if (!isnan(t->target_ci_percent))
		sdt_json_number_or_null(b, "target_ci_percent", t->target_ci_percent);
	if (t->stopped != NULL)
		sdt_json_string_or_null(b, "stopped", t->stopped);
	if (!isnan(t->spread_percent))
		sdt_json_number_or_null(b, "spread_percent", t->spread_percent);
	sdt_json_number_or_null(b, "cpu_us_per_io", t->cpu_us_per_io);
	if (!isnan(t->fsync_seconds))
		sdt_json_number_or_null(b, "fsync_seconds", t->fsync_seconds);
	if (t->has_latency)
		sdt_bench_record_put_latency(b, &t->latency);
	if (t->skipped != NULL)
		sdt_json_string_or_null(b, "skipped", t->skipped);
	json_builder_end_object(b);
}

static void
sdt_bench_record_put_verdict(JsonBuilder *b, const SdtBenchRecordVerdict *v)
{
	json_builder_set_member_name(b, "verdict");
	json_builder_begin_object(b);
	sdt_json_put_bool(b, "a1", v->a1);
	sdt_json_put_bool(b, "a2", v->a2);
	sdt_json_number_or_null(b, "seq_write_mb_s", v->seq_write_mb_s);
	sdt_json_number_or_null(b, "read_iops", v->read_iops);
	sdt_json_number_or_null(b, "write_iops", v->write_iops);
	sdt_json_put_bool(b, "stand_in", v->stand_in);
	sdt_json_string_or_null(b, "basis", v->basis);
	sdt_json_number_or_null(b, "seconds", v->seconds);
	sdt_json_number_or_null(b, "spread_percent", v->spread_percent);
	if (!isnan(v->confidence_percent))
		sdt_json_number_or_null(b, "confidence_percent", v->confidence_percent);
	json_builder_end_object(b);
}

static void
sdt_bench_record_put_tests(JsonBuilder *b, const SdtBenchRecord *r)
{
	json_builder_set_member_name(b, "tests");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->tests->len; i++)
		sdt_bench_record_put_test(b, g_ptr_array_index(r->tests, i));
	json_builder_end_array(b);
	json_builder_set_member_name(b, "notes");
	json_builder_begin_array(b);
	for (guint i = 0; i < r->notes->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(r->notes, i));
	json_builder_end_array(b);
}

JsonNode *
sdt_bench_record_to_json(const SdtBenchRecord *record)
{
	g_autoptr(JsonBuilder) b = NULL;

	g_return_val_if_fail(record != NULL, NULL);

	b = json_builder_new();
	json_builder_begin_object(b);
	sdt_bench_record_put_target(b, record);
	sdt_json_string_or_null(b, "profile", record->profile);
	sdt_bench_record_put_tests(b, record);
	if (record->verdict.present)
		sdt_bench_record_put_verdict(b, &record->verdict);
	sdt_json_number_or_null(b, "spread_percent", record->spread_percent);
	sdt_json_number_or_null(b, "ceiling_mb_s", record->ceiling_mb_s);
	sdt_json_number_or_null(b, "ceiling_percent", record->ceiling_percent);
	sdt_json_number_or_null(b, "seconds", record->seconds);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_bench_record_to_string(const SdtBenchRecord *record, gboolean pretty)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(record != NULL, NULL);

	node = sdt_bench_record_to_json(record);
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, pretty);
}
