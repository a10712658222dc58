/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-check-result.h"
#include "sdt-health-report-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-json-strict-private.h"
#include "sdt-error.h"

SdtCheckResult *
sdt_check_result_new(void)
{
	SdtCheckResult *r = g_new0(SdtCheckResult, 1);

	r->notes = g_ptr_array_new_with_free_func(g_free);
	r->map = g_ptr_array_new_with_free_func(sdt_check_result_region_free);
	r->estimated_capacity_bytes = r->capacity_at_least_bytes = NAN;
	r->capacity_at_most_bytes = r->first_bad_offset = NAN;
	r->coverage = r->seconds = r->write_mb_s = r->read_mb_s = NAN;
	r->cache_flushed_bytes = -1;
	r->cache_at_least_bytes = r->cache_at_most_bytes = NAN;
	return r;
}

void
sdt_check_result_free(SdtCheckResult *result)
{
	if (result == NULL)
		return;
	g_free(result->verdict);
	g_free(result->mode);
	g_free(result->failure);
	g_free(result->reason);
	g_free(result->target.path);
	g_free(result->target.device);
	g_free(result->target.disk);
	g_free(result->target.filesystem);
	g_ptr_array_unref(result->notes);
	g_ptr_array_unref(result->map);
	sdt_health_report_registers_free(result->registers);
	sdt_check_result_identity_free(result->identity);
	g_free(result);
}

SdtHealthReportIdentity *
sdt_check_result_identity_new(void)
{
	return g_new0(SdtHealthReportIdentity, 1);
}

void
sdt_check_result_identity_free(SdtHealthReportIdentity *identity)
{
	if (identity == NULL)
		return;
	g_free(identity->device);
	g_free(identity->vendor);
	g_free(identity->model);
	g_free(identity->serial);
	g_free(identity->bus);
	g_free(identity->serial_of);
	g_free(identity->cid);
	g_free(identity->cid_serial);
	g_free(identity);
}

void
sdt_check_result_region_free(gpointer region)
{
	SdtCheckResultRegion *r = region;

	if (r == NULL)
		return;
	g_free(r->state);
	g_free(r);
}

gboolean
sdt_check_result_has_capacity(const SdtCheckResult *result)
{
	g_return_val_if_fail(result != NULL, FALSE);

	return !isnan(result->estimated_capacity_bytes) &&
	       !isnan(result->capacity_at_least_bytes) && !isnan(result->capacity_at_most_bytes);
}

gchar *
sdt_check_result_damaged_journal_words(const gchar *path)
{
	/* Translators: %s is the path of the damaged journal */
	return g_strdup_printf(
		_("A check for a fake card was interrupted and no copy of its journal is whole "
		  "(kept as %s): the blocks it had changed could not be put back. On a genuine "
		  "card nothing of yours was changed. On a fake card some files or the file "
		  "system may be damaged: run e2fsck on the card from another computer, restore "
		  "what is lost from a backup, then delete that file."),
		path);
}

const gchar *
sdt_check_result_phase_label(const gchar *phase)
{
	static const struct {
		const gchar *id;
		const gchar *label;
	} labels[] = {
		{"prepare", N_("Finding the card")},
		{"repair", N_("Putting back what an interrupted check changed")},
		{"read", N_("Looking for a fake by reading only")},
		{"reserve", N_("Reserving the free space")},
		{"probe", N_("Testing how much the card really holds")},
		{"restore", N_("Putting back what was there")},
		{"write", N_("Writing the free space")},
		{"verify", N_("Reading it back")},
		{"write-card", N_("Writing every block of the card")},
		{"verify-card", N_("Reading every block back")},
		{"cleanup", N_("Cleaning up")},
	};

	for (guint i = 0; i < G_N_ELEMENTS(labels); i++)
		if (g_strcmp0(phase, labels[i].id) == 0)
			return _(labels[i].label);
	return phase;
}

/* the reading direction: absent or null is unknown, a wrong type an error */

static gboolean
sdt_check_result_read_target(JsonObject *obj, SdtCheckResultTarget *t, GError **error)
{
	JsonObject *target;
	const gchar *at = "target";

	if (!sdt_json_strict_object(obj, NULL, at, &target, error))
		return FALSE;
	return sdt_json_strict_string(target, at, "path", &t->path, error) &&
	       sdt_json_strict_string(target, at, "device", &t->device, error) &&
	       sdt_json_strict_string(target, at, "disk", &t->disk, error) &&
	       sdt_json_strict_string(target, at, "filesystem", &t->filesystem, error) &&
	       sdt_json_strict_bool(target, at, "stand_in", FALSE, &t->stand_in, error) &&
	       sdt_json_strict_bool(target, at, "whole_device", FALSE, &t->whole_device, error);
}

static gboolean
sdt_check_result_read_samples(JsonObject *obj, SdtCheckResultSamples *s, GError **error)
{
	JsonObject *samples;
	const gchar *at = "samples";

	if (!sdt_json_strict_object(obj, NULL, at, &samples, error))
		return FALSE;
	return sdt_json_strict_int(samples, at, "read", 0, &s->read, error) &&
	       sdt_json_strict_int(samples, at, "written", 0, &s->written, error) &&
	       sdt_json_strict_int(samples, at, "bad", 0, &s->bad, error) &&
	       sdt_json_strict_int(samples, at, "top_verified", 0, &s->top_verified, error) &&
	       sdt_json_strict_int(samples, at, "restored", 0, &s->restored, error) &&
	       sdt_json_strict_int(samples, at, "verified_up_to", 0, &s->verified_up_to, error) &&
	       sdt_json_strict_int(samples, at, "no_wrap_up_to", 0, &s->no_wrap_up_to, error);
}

/* the write cache: absent or null is not sized */
static gboolean
sdt_check_result_read_cache(JsonObject *obj, SdtCheckResult *r, GError **error)
{
	JsonObject *cache = NULL;
	const gchar *at = "write_cache";

	if (!sdt_json_strict_object(obj, NULL, at, &cache, error))
		return FALSE;
	if (cache == NULL)
		return TRUE;
	if (!sdt_json_strict_int(cache, at, "flushed_bytes", -1, &r->cache_flushed_bytes, error) ||
	    !sdt_json_strict_number(cache, at, "at_least_bytes", &r->cache_at_least_bytes, error) ||
	    !sdt_json_strict_number(cache, at, "at_most_bytes", &r->cache_at_most_bytes, error))
		return FALSE;
	if (r->cache_flushed_bytes < 0)
		return sdt_json_strict_missing(at, "flushed_bytes", error);
	return TRUE;
}

/* the map of a whole card: absent or null is none */
static gboolean
sdt_check_result_read_map(JsonObject *obj, GPtrArray *map, GError **error)
{
	JsonArray *array = NULL;

	if (!sdt_json_strict_array(obj, NULL, "map", &array, error))
		return FALSE;
	for (guint i = 0; array != NULL && i < json_array_get_length(array); i++) {
		g_autofree gchar *at = sdt_json_strict_element(NULL, "map", i);
		JsonObject *o =
			sdt_json_strict_element_object(json_array_get_element(array, i), at, error);
		SdtCheckResultRegion *r;
		if (o == NULL)
			return FALSE;
		r = g_new0(SdtCheckResultRegion, 1);
		g_ptr_array_add(map, r);
		if (!sdt_json_strict_int(o, at, "from", 0, &r->from, error) ||
		    !sdt_json_strict_int(o, at, "to", 0, &r->to, error) ||
		    !sdt_json_strict_string(o, at, "state", &r->state, error))
			return FALSE;
		if (r->state == NULL)
			return sdt_json_strict_missing(at, "state", error);
	}
	return TRUE;
}

/* the verdict and what the card was found to hold */
static gboolean
sdt_check_result_read_finding(JsonObject *obj, SdtCheckResult *r, GError **error)
{
	if (!sdt_json_strict_string(obj, NULL, "verdict", &r->verdict, error))
		return FALSE;
	if (r->verdict == NULL)
		return sdt_json_strict_missing(NULL, "verdict", error);
	return sdt_json_strict_string(obj, NULL, "mode", &r->mode, error) &&
	       sdt_json_strict_int(obj, NULL, "claimed_bytes", 0, &r->claimed_bytes, error) &&
	       sdt_json_strict_number(obj,
				      NULL,
				      "estimated_capacity_bytes",
				      &r->estimated_capacity_bytes,
				      error) &&
	       sdt_json_strict_number(obj,
				      NULL,
				      "capacity_at_least_bytes",
				      &r->capacity_at_least_bytes,
				      error) &&
	       sdt_json_strict_number(obj,
				      NULL,
				      "capacity_at_most_bytes",
				      &r->capacity_at_most_bytes,
				      error) &&
	       sdt_json_strict_number(obj, NULL, "first_bad_offset", &r->first_bad_offset, error) &&
	       sdt_json_strict_string(obj, NULL, "failure", &r->failure, error) &&
	       sdt_json_strict_number(obj, NULL, "coverage", &r->coverage, error) &&
	       sdt_json_strict_string(obj, NULL, "reason", &r->reason, error) &&
	       sdt_json_strict_number(obj, NULL, "seconds", &r->seconds, error);
}

/* a device check's "identity": null or absent is none */
static gboolean
sdt_check_result_read_identity(JsonObject *obj, SdtCheckResult *r, GError **error)
{
	SdtHealthReportIdentity *id = sdt_check_result_identity_new();
	const gchar *at = SDT_CHECK_RESULT_KEY_IDENTITY;
	JsonObject *o;

	r->identity = id;
	if (!sdt_json_strict_object(obj, NULL, at, &o, error))
		return FALSE;
	if (o == NULL) {
		g_clear_pointer(&r->identity, sdt_check_result_identity_free);
		return TRUE;
	}
	return sdt_json_strict_string(o, at, "device", &id->device, error) &&
	       sdt_json_strict_int(o, at, "size_bytes", 0, &id->size_bytes, error) &&
	       sdt_json_strict_string(o, at, "vendor", &id->vendor, error) &&
	       sdt_json_strict_string(o, at, "model", &id->model, error) &&
	       sdt_json_strict_string(o, at, "serial", &id->serial, error) &&
	       sdt_json_strict_string(o, at, "bus", &id->bus, error) &&
	       sdt_json_strict_string(o, at, "serial_of", &id->serial_of, error) &&
	       sdt_json_strict_string(o, at, "cid", &id->cid, error) &&
	       sdt_json_strict_string(o, at, "cid_serial", &id->cid_serial, error);
}

/* what ops adds: "registers" (present, maybe null) and "identity" */
static gboolean
sdt_check_result_read_added(JsonObject *obj, SdtCheckResult *r, GError **error)
{
	r->has_registers = json_object_has_member(obj, SDT_CHECK_RESULT_KEY_REGISTERS);
	return sdt_health_report_read_registers(obj, NULL, &r->registers, error) &&
	       sdt_check_result_read_identity(obj, r, error);
}

SdtCheckResult *
sdt_check_result_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtCheckResult) r = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	r = sdt_check_result_new();
	if (!sdt_check_result_read_finding(obj, r, error) ||
	    !sdt_check_result_read_target(obj, &r->target, error) ||
	    !sdt_json_strict_int(obj, NULL, "reserved_bytes", 0, &r->reserved_bytes, error) ||
	    !sdt_json_strict_int(obj,
				 NULL,
				 "reserved_top_offset",
				 0,
				 &r->reserved_top_offset,
				 error) ||
	    !sdt_json_strict_number(obj, NULL, "write_mb_s", &r->write_mb_s, error) ||
	    !sdt_json_strict_number(obj, NULL, "read_mb_s", &r->read_mb_s, error) ||
	    !sdt_check_result_read_samples(obj, &r->samples, error) ||
	    !sdt_check_result_read_cache(obj, r, error) ||
	    !sdt_json_strict_strings(obj, NULL, "notes", r->notes, error) ||
	    !sdt_check_result_read_map(obj, r->map, error) ||
	    !sdt_check_result_read_added(obj, r, error))
		return NULL;
	return g_steal_pointer(&r);
}

SdtCheckResult *
sdt_check_result_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_check_result_from_json(json_node_get_object(root), error);
}

gboolean
sdt_check_result_parse_registers(const gchar *text,
				 SdtHealthReportRegisters **registers,
				 GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(text != NULL, FALSE);
	g_return_val_if_fail(registers != NULL, FALSE);

	*registers = NULL;
	root = sdt_json_reader_parse(text, error);
	return root != NULL &&
	       sdt_health_report_read_registers(json_node_get_object(root), NULL, registers, error);
}

/* the writing direction: every member in the engine's order */

/* a byte count that is unknown (NaN) as null */
static void
sdt_check_result_put_bytes(JsonBuilder *b, const gchar *name, gdouble value)
{
	json_builder_set_member_name(b, name);
	if (isnan(value))
		json_builder_add_null_value(b);
	else
		json_builder_add_int_value(b, (gint64) value);
}

static void
sdt_check_result_put_target(JsonBuilder *b, const SdtCheckResultTarget *t)
{
	json_builder_set_member_name(b, "target");
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, "path", t->path);
	sdt_json_string_or_null(b, "device", t->device);
	sdt_json_string_or_null(b, "disk", t->disk);
	sdt_json_string_or_null(b, "filesystem", t->filesystem);
	json_builder_set_member_name(b, "stand_in");
	json_builder_add_boolean_value(b, t->stand_in);
	if (t->whole_device) {
		json_builder_set_member_name(b, "whole_device");
		json_builder_add_boolean_value(b, TRUE);
	}
	json_builder_end_object(b);
}

static void
sdt_check_result_put_samples(JsonBuilder *b, const SdtCheckResultSamples *s)
{
	json_builder_set_member_name(b, "samples");
	json_builder_begin_object(b);
	sdt_json_put_int(b, "read", s->read);
	sdt_json_put_int(b, "written", s->written);
	sdt_json_put_int(b, "bad", s->bad);
	sdt_json_put_int(b, "top_verified", s->top_verified);
	sdt_json_put_int(b, "restored", s->restored);
	sdt_json_put_int(b, "verified_up_to", s->verified_up_to);
	sdt_json_put_int(b, "no_wrap_up_to", s->no_wrap_up_to);
	json_builder_end_object(b);
}

static void
sdt_check_result_put_finding(JsonBuilder *b, const SdtCheckResult *r)
{
	sdt_json_string_or_null(b, "verdict", r->verdict);
	sdt_json_string_or_null(b, "mode", r->mode);
	sdt_json_put_int(b, "claimed_bytes", r->claimed_bytes);
	sdt_check_result_put_bytes(b, "estimated_capacity_bytes", r->estimated_capacity_bytes);
	sdt_check_result_put_bytes(b, "capacity_at_least_bytes", r->capacity_at_least_bytes);
	sdt_check_result_put_bytes(b, "capacity_at_most_bytes", r->capacity_at_most_bytes);
	sdt_check_result_put_bytes(b, "first_bad_offset", r->first_bad_offset);
	sdt_json_string_or_null(b, "failure", r->failure);
	sdt_json_number_or_null(b, "coverage", r->coverage);
	sdt_json_string_or_null(b, "reason", r->reason);
	sdt_json_number_or_null(b, "seconds", r->seconds);
}

/* what ops adds, after the engine's members */
static void
sdt_check_result_put_added(JsonBuilder *b, const SdtCheckResult *r)
{
	const SdtHealthReportIdentity *id = r->identity;

	if (r->has_registers) {
		json_builder_set_member_name(b, SDT_CHECK_RESULT_KEY_REGISTERS);
		json_builder_add_value(b, sdt_health_report_registers_to_json(r->registers));
	}
	if (id == NULL)
		return;
	json_builder_set_member_name(b, SDT_CHECK_RESULT_KEY_IDENTITY);
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, "device", id->device);
	sdt_json_put_int(b, "size_bytes", id->size_bytes);
	sdt_json_string_or_null(b, "vendor", id->vendor);
	sdt_json_string_or_null(b, "model", id->model);
	sdt_json_string_or_null(b, "serial", id->serial);
	sdt_json_string_or_null(b, "bus", id->bus);
	sdt_json_string_or_null(b, "serial_of", id->serial_of);
	sdt_json_string_or_null(b, "cid", id->cid);
	sdt_json_string_or_null(b, "cid_serial", id->cid_serial);
	json_builder_end_object(b);
}

JsonNode *
sdt_check_result_to_json(const SdtCheckResult *result)
{
	g_autoptr(JsonBuilder) b = NULL;

	g_return_val_if_fail(result != NULL, NULL);

	b = json_builder_new();
	json_builder_begin_object(b);
	sdt_check_result_put_finding(b, result);
	sdt_check_result_put_target(b, &result->target);
	sdt_json_put_int(b, "reserved_bytes", result->reserved_bytes);
	sdt_json_put_int(b, "reserved_top_offset", result->reserved_top_offset);
	if (g_strcmp0(result->mode, "full") == 0) {
		sdt_json_number_or_null(b, "write_mb_s", result->write_mb_s);
		sdt_json_number_or_null(b, "read_mb_s", result->read_mb_s);
	}
	sdt_check_result_put_samples(b, &result->samples);
	if (result->cache_flushed_bytes >= 0) {
		json_builder_set_member_name(b, "write_cache");
		json_builder_begin_object(b);
		sdt_json_put_int(b, "flushed_bytes", result->cache_flushed_bytes);
		sdt_check_result_put_bytes(b, "at_least_bytes", result->cache_at_least_bytes);
		sdt_check_result_put_bytes(b, "at_most_bytes", result->cache_at_most_bytes);
		json_builder_end_object(b);
	}
	json_builder_set_member_name(b, "notes");
	json_builder_begin_array(b);
	for (guint i = 0; i < result->notes->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(result->notes, i));
	json_builder_end_array(b);
	if (result->map->len > 0) {
		json_builder_set_member_name(b, "map");
		json_builder_begin_array(b);
		for (guint i = 0; i < result->map->len; i++) {
			const SdtCheckResultRegion *r = g_ptr_array_index(result->map, i);
			json_builder_begin_object(b);
			sdt_json_put_int(b, "from", r->from);
			sdt_json_put_int(b, "to", r->to);
			sdt_json_string_or_null(b, "state", r->state);
			json_builder_end_object(b);
		}
		json_builder_end_array(b);
	}
	sdt_check_result_put_added(b, result);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_check_result_to_string(const SdtCheckResult *result, gboolean pretty)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(result != NULL, NULL);

	node = sdt_check_result_to_json(result);
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, pretty);
}
