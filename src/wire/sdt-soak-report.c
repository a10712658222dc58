/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-json-strict-private.h"
#include "sdt-soak-report.h"
#include "sdt-soak-report-private.h"

#define KEY_TARGET                    "target"
#define KEY_PATH                      "path"
#define KEY_DEVICE                    "device"
#define KEY_FILESYSTEM                "filesystem"
#define KEY_STAND_IN                  "stand_in"
#define KEY_PROFILE                   "profile"
#define KEY_TESTS                     "tests"
#define KEY_SOAK                      "soak"
#define KEY_NOTES                     "notes"
#define KEY_BYTES_WRITTEN             "bytes_written"
#define KEY_BYTES_CHECKED             "bytes_checked"
#define KEY_MISMATCHES                "mismatches"
#define KEY_FIRST_BAD_OFFSET          "first_bad_offset"
#define KEY_FIRST_BAD_ROUND           "first_bad_round"
#define KEY_FILE_SIZE                 "file_size"
#define KEY_ROUNDS                    "rounds"
#define KEY_SEED                      "seed"
#define KEY_SECONDS                   "seconds"
#define KEY_WRITE_MB_S                "write_mb_s"
#define KEY_READ_MB_S                 "read_mb_s"
#define KEY_CHECKED_MB_PER_RUN_SECOND "checked_mb_per_run_second"

SdtSoakReport *
sdt_soak_report_new(void)
{
	SdtSoakReport *r = g_new0(SdtSoakReport, 1);

	r->profile = g_strdup("soak");
	r->first_bad_offset = -1;
	r->seconds = r->write_mb_s = r->read_mb_s = r->checked_mb_per_run_second = NAN;
	r->notes = g_ptr_array_new_with_free_func(g_free);
	return r;
}

void
sdt_soak_report_free(SdtSoakReport *report)
{
	if (report == NULL)
		return;
	g_free(report->target.path);
	g_free(report->target.device);
	g_free(report->target.filesystem);
	g_free(report->profile);
	g_free(report->seed);
	g_ptr_array_unref(report->notes);
	g_free(report);
}

/* the reading direction: absent or null is unknown, a wrong type an error */

static gboolean
sdt_soak_report_read_target(JsonObject *obj, SdtSoakReportTarget *t, GError **error)
{
	JsonObject *target = NULL;
	const gchar *at = KEY_TARGET;

	if (!sdt_json_strict_object(obj, NULL, at, &target, error))
		return FALSE;
	return target == NULL ||
	       (sdt_json_strict_string(target, at, KEY_PATH, &t->path, error) &&
		sdt_json_strict_string(target, at, KEY_DEVICE, &t->device, error) &&
		sdt_json_strict_string(target, at, KEY_FILESYSTEM, &t->filesystem, error) &&
		sdt_json_strict_bool(target, at, KEY_STAND_IN, FALSE, &t->stand_in, error));
}

static gboolean
sdt_soak_report_read_soak(JsonObject *soak, SdtSoakReport *r, GError **error)
{
	const gchar *at = KEY_SOAK;

	return sdt_json_strict_int(soak, at, KEY_BYTES_WRITTEN, 0, &r->bytes_written, error) &&
	       sdt_json_strict_int(soak, at, KEY_BYTES_CHECKED, 0, &r->bytes_checked, error) &&
	       sdt_json_strict_int(soak, at, KEY_MISMATCHES, 0, &r->mismatches, error) &&
	       sdt_json_strict_int(soak,
				   at,
				   KEY_FIRST_BAD_OFFSET,
				   -1,
				   &r->first_bad_offset,
				   error) &&
	       sdt_json_strict_int(soak, at, KEY_FIRST_BAD_ROUND, 0, &r->first_bad_round, error) &&
	       sdt_json_strict_int(soak, at, KEY_FILE_SIZE, 0, &r->file_size, error) &&
	       sdt_json_strict_int(soak, at, KEY_ROUNDS, 0, &r->rounds, error) &&
	       sdt_json_strict_string(soak, at, KEY_SEED, &r->seed, error) &&
	       sdt_json_strict_number(soak, at, KEY_SECONDS, &r->seconds, error) &&
	       sdt_json_strict_number(soak, at, KEY_WRITE_MB_S, &r->write_mb_s, error) &&
	       sdt_json_strict_number(soak, at, KEY_READ_MB_S, &r->read_mb_s, error) &&
	       sdt_json_strict_number(soak,
				      at,
				      KEY_CHECKED_MB_PER_RUN_SECOND,
				      &r->checked_mb_per_run_second,
				      error);
}

SdtSoakReport *
sdt_soak_report_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtSoakReport) r = sdt_soak_report_new();
	JsonObject *soak = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	g_clear_pointer(&r->profile, g_free);
	if (!sdt_soak_report_read_target(obj, &r->target, error) ||
	    !sdt_json_strict_string(obj, NULL, KEY_PROFILE, &r->profile, error) ||
	    !sdt_json_strict_object(obj, NULL, KEY_SOAK, &soak, error) ||
	    !sdt_json_strict_strings(obj, NULL, KEY_NOTES, r->notes, error))
		return NULL;
	if (soak == NULL) {
		sdt_json_strict_missing(NULL, KEY_SOAK, error);
		return NULL;
	}
	if (!sdt_soak_report_read_soak(soak, r, error))
		return NULL;
	return g_steal_pointer(&r);
}

SdtSoakReport *
sdt_soak_report_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_soak_report_from_json(json_node_get_object(root), error);
}

/* the writing direction: every member in the order the soak has always written */

static void
sdt_soak_report_put_double(JsonBuilder *b, const gchar *name, gdouble value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_double_value(b, value);
}

static void
sdt_soak_report_put_soak(JsonBuilder *b, const SdtSoakReport *r)
{
	json_builder_set_member_name(b, KEY_SOAK);
	json_builder_begin_object(b);
	sdt_json_put_int(b, KEY_BYTES_WRITTEN, r->bytes_written);
	sdt_json_put_int(b, KEY_BYTES_CHECKED, r->bytes_checked);
	sdt_json_put_int(b, KEY_MISMATCHES, r->mismatches);
	sdt_json_int_or_null(b,
			     KEY_FIRST_BAD_OFFSET,
			     r->first_bad_offset >= 0,
			     r->first_bad_offset);
	if (r->first_bad_offset >= 0)
		sdt_json_put_int(b, KEY_FIRST_BAD_ROUND, r->first_bad_round);
	sdt_json_put_int(b, KEY_FILE_SIZE, r->file_size);
	sdt_json_put_int(b, KEY_ROUNDS, r->rounds);
	sdt_json_string_or_null(b, KEY_SEED, r->seed);
	/* NaN (unknown) is written null by sdt_json_to_string() */
	sdt_soak_report_put_double(b, KEY_SECONDS, r->seconds);
	sdt_soak_report_put_double(b, KEY_WRITE_MB_S, r->write_mb_s);
	sdt_soak_report_put_double(b, KEY_READ_MB_S, r->read_mb_s);
	sdt_soak_report_put_double(b, KEY_CHECKED_MB_PER_RUN_SECOND, r->checked_mb_per_run_second);
	json_builder_end_object(b);
}

JsonNode *
sdt_soak_report_to_json(const SdtSoakReport *report)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	g_return_val_if_fail(report != NULL, NULL);

	json_builder_begin_object(b);
	json_builder_set_member_name(b, KEY_TARGET);
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, KEY_PATH, report->target.path);
	sdt_json_string_or_null(b, KEY_DEVICE, report->target.device);
	sdt_json_string_or_null(b, KEY_FILESYSTEM, report->target.filesystem);
	json_builder_set_member_name(b, KEY_STAND_IN);
	json_builder_add_boolean_value(b, report->target.stand_in);
	json_builder_end_object(b);
	sdt_json_string_or_null(b, KEY_PROFILE, report->profile);
	json_builder_set_member_name(b, KEY_TESTS);
	json_builder_begin_array(b);
	json_builder_end_array(b);
	sdt_soak_report_put_soak(b, report);
	json_builder_set_member_name(b, KEY_NOTES);
	json_builder_begin_array(b);
	for (guint i = 0; i < report->notes->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(report->notes, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_soak_report_to_string(const SdtSoakReport *report, gboolean pretty)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	node = sdt_soak_report_to_json(report);
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, pretty);
}
