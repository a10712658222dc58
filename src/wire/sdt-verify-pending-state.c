/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-json-strict-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-verify-pending-state.h"
#include "sdt-verify-pending-state-private.h"
#include "sdt-verify-report-private.h"
#include "sdt-l10n-record-private.h"

#define SDT_VERIFY_PENDING_STATE_KEY_VERSION       "version"
#define SDT_VERIFY_PENDING_STATE_KEY_ID            "id"
#define SDT_VERIFY_PENDING_STATE_KEY_ORIGINAL_ID   "original_id"
#define SDT_VERIFY_PENDING_STATE_KEY_STEP          "step"
#define SDT_VERIFY_PENDING_STATE_KEY_TRIAL         "trial"
#define SDT_VERIFY_PENDING_STATE_KEY_BOOT_ID       "boot_id"
#define SDT_VERIFY_PENDING_STATE_KEY_ATTEMPTS      "attempts"
#define SDT_VERIFY_PENDING_STATE_KEY_TRIES         "tries"
#define SDT_VERIFY_PENDING_STATE_KEY_TIME          "time"
#define SDT_VERIFY_PENDING_STATE_KEY_CONFIG_SHA256 "config_sha256"
#define SDT_VERIFY_PENDING_STATE_KEY_BEFORE        "before"
#define SDT_VERIFY_PENDING_STATE_KEY_STEPS         "steps"
#define SDT_VERIFY_PENDING_STATE_KEY_FILTER        "filter"
#define SDT_VERIFY_PENDING_STATE_KEY_TYPE_CODE     "type_code"
#define SDT_VERIFY_PENDING_STATE_KEY_REPLACES      "replaces"
#define SDT_VERIFY_PENDING_STATE_KEY_DECIDED       "decided"
#define SDT_VERIFY_PENDING_STATE_KEY_MEDIAN        "median"
#define SDT_VERIFY_PENDING_STATE_KEY_SPREAD        "spread"
#define SDT_VERIFY_PENDING_STATE_KEY_UNIT          "unit"
#define SDT_VERIFY_PENDING_STATE_KEY_DECISION      "decision"
#define SDT_VERIFY_PENDING_STATE_KEY_NEXT_ID       "next_id"
#define SDT_VERIFY_PENDING_STATE_KEY_ERROR         "error"
#define SDT_VERIFY_PENDING_STATE_KEY_RESULT        "result"
#define SDT_VERIFY_PENDING_STATE_KEY_AFTER         "after"
#define SDT_VERIFY_PENDING_STATE_KEY_SOAK          "soak"
#define SDT_VERIFY_PENDING_STATE_KEY_WRITTEN       "bytes_written"
#define SDT_VERIFY_PENDING_STATE_KEY_CHECKED       "bytes_checked"
#define SDT_VERIFY_PENDING_STATE_KEY_MISMATCHES    "mismatches"
#define SDT_VERIFY_PENDING_STATE_KEY_FIRST_BAD     "first_bad_offset"

#define SDT_VERIFY_PENDING_STATE_VERSION 1

static void
sdt_verify_pending_state_figure_free(gpointer data)
{
	SdtVerifyPendingStateFigure *f = data;

	if (f == NULL)
		return;
	g_free(f->name);
	g_free(f->unit);
	g_free(f);
}

static void
sdt_verify_pending_state_step_free(gpointer data)
{
	SdtVerifyPendingStateStep *s = data;

	if (s == NULL)
		return;
	g_free(s->id);
	g_free(s->decision);
	sdt_l10n_record_reason_free(s->reason);
	g_free(s);
}

SdtVerifyPendingStateDecided *
sdt_verify_pending_state_decided_new(void)
{
	return g_new0(SdtVerifyPendingStateDecided, 1);
}

void
sdt_verify_pending_state_decided_free(SdtVerifyPendingStateDecided *decided)
{
	if (decided == NULL)
		return;
	g_free(decided->decision);
	sdt_l10n_record_reason_free(decided->reason);
	g_free(decided->next_id);
	g_free(decided->time);
	g_free(decided->error);
	sdt_verify_report_free(decided->result);
	g_free(decided);
}

SdtVerifyPendingState *
sdt_verify_pending_state_new(void)
{
	SdtVerifyPendingState *p = g_new0(SdtVerifyPendingState, 1);

	p->tries = g_new0(gchar *, 1);
	p->steps = g_ptr_array_new_with_free_func(sdt_verify_pending_state_step_free);
	return p;
}

void
sdt_verify_pending_state_free(SdtVerifyPendingState *p)
{
	if (p == NULL)
		return;
	g_free(p->id);
	g_free(p->original_id);
	g_free(p->boot_id);
	g_strfreev(p->tries);
	g_free(p->time);
	g_free(p->config_sha256);
	g_clear_pointer(&p->before, g_ptr_array_unref);
	g_clear_pointer(&p->steps, g_ptr_array_unref);
	g_free(p->filter);
	sdt_verify_pending_state_decided_free(p->decided);
	g_free(p);
}

GPtrArray *
sdt_verify_pending_state_figures_new(void)
{
	return g_ptr_array_new_with_free_func(sdt_verify_pending_state_figure_free);
}

void
sdt_verify_pending_state_figures_add(GPtrArray *figures,
				     const gchar *name,
				     gdouble median,
				     gdouble spread,
				     const gchar *unit)
{
	SdtVerifyPendingStateFigure *f = g_new0(SdtVerifyPendingStateFigure, 1);

	f->name = g_strdup(name);
	f->median = median;
	f->spread = spread;
	f->unit = g_strdup(unit);
	g_ptr_array_add(figures, f);
}

const SdtVerifyPendingStateFigure *
sdt_verify_pending_state_figures_find(GPtrArray *figures, const gchar *name)
{
	for (guint i = 0; figures != NULL && i < figures->len; i++) {
		const SdtVerifyPendingStateFigure *f = g_ptr_array_index(figures, i);
		if (g_strcmp0(f->name, name) == 0)
			return f;
	}
	return NULL;
}

void
sdt_verify_pending_state_add_step(SdtVerifyPendingState *state,
				  const gchar *id,
				  const gchar *decision,
				  const SdtL10nRecordReason *reason)
{
	SdtVerifyPendingStateStep *s = g_new0(SdtVerifyPendingStateStep, 1);

	s->id = g_strdup(id);
	s->decision = g_strdup(decision);
	s->reason = sdt_l10n_record_reason_copy(reason);
	g_ptr_array_add(state->steps, s);
}

gboolean
sdt_verify_pending_state_damaged(const gchar *member, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	/* Translators: %s is a JSON member name */
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    _("the pending change is damaged: member “%s” is missing or of the wrong "
		      "type"),
		    member);
	return FALSE;
}

/* the reading direction: each member required, of its type and in its range */

static JsonNode *
sdt_verify_pending_state_member(JsonObject *obj, const gchar *name, GType type, gboolean nullable)
{
	JsonNode *node = json_object_get_member(obj, name);

	if (node == NULL)
		return NULL;
	if (JSON_NODE_HOLDS_NULL(node))
		return nullable ? node : NULL;
	if (type == JSON_TYPE_OBJECT)
		return JSON_NODE_HOLDS_OBJECT(node) ? node : NULL;
	if (type == JSON_TYPE_ARRAY)
		return JSON_NODE_HOLDS_ARRAY(node) ? node : NULL;
	return JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == type ? node : NULL;
}

/* an integer member within [@min, @max] */
static gboolean
sdt_verify_pending_state_int(JsonObject *obj,
			     const gchar *name,
			     gint64 min,
			     gint64 max,
			     gint64 *out)
{
	JsonNode *n = sdt_verify_pending_state_member(obj, name, G_TYPE_INT64, FALSE);

	if (n == NULL || json_node_get_int(n) < min || json_node_get_int(n) > max)
		return FALSE;
	*out = json_node_get_int(n);
	return TRUE;
}

/* a string member (NULL for a null one when @nullable), copied into *@out */
static gboolean
sdt_verify_pending_state_string(JsonObject *obj, const gchar *name, gboolean nullable, gchar **out)
{
	JsonNode *n = sdt_verify_pending_state_member(obj, name, G_TYPE_STRING, nullable);

	if (n == NULL)
		return FALSE;
	*out = JSON_NODE_HOLDS_NULL(n) ? NULL : g_strdup(json_node_get_string(n));
	return TRUE;
}

/* an id member SD Tuner could have written */
static gboolean
sdt_verify_pending_state_id(JsonObject *obj, const gchar *name, gchar **out)
{
	const gchar *id;
	gsize n;

	if (!sdt_verify_pending_state_string(obj, name, FALSE, out))
		return FALSE;
	id = *out;
	n = strlen(id);
	return n > 0 && n <= 64 && strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789-_.") == n &&
	       strstr(id, "..") == NULL;
}

/* "tries": an array of boot id strings */
static gboolean
sdt_verify_pending_state_read_tries(JsonObject *obj, SdtVerifyPendingState *p)
{
	g_autoptr(GPtrArray) tries = g_ptr_array_new_with_free_func(g_free);

	if (sdt_verify_pending_state_member(obj,
					    SDT_VERIFY_PENDING_STATE_KEY_TRIES,
					    JSON_TYPE_ARRAY,
					    FALSE) == NULL ||
	    !sdt_json_strict_strings(obj, NULL, SDT_VERIFY_PENDING_STATE_KEY_TRIES, tries, NULL))
		return FALSE;
	g_ptr_array_add(tries, NULL);
	g_strfreev(p->tries);
	p->tries = (gchar **) g_ptr_array_free(g_steal_pointer(&tries), FALSE);
	return TRUE;
}

/* version, id, original_id, step, trial: the change; the member at fault in *@bad */
static gboolean
sdt_verify_pending_state_read_change(JsonObject *obj, SdtVerifyPendingState *p, const gchar **bad)
{
	gint64 v = 0;
	JsonNode *n;

	if (!sdt_verify_pending_state_int(obj,
					  SDT_VERIFY_PENDING_STATE_KEY_VERSION,
					  SDT_VERIFY_PENDING_STATE_VERSION,
					  SDT_VERIFY_PENDING_STATE_VERSION,
					  &v))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_VERSION, FALSE);
	if (!sdt_verify_pending_state_id(obj, SDT_VERIFY_PENDING_STATE_KEY_ID, &p->id))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_ID, FALSE);
	if (!sdt_verify_pending_state_id(obj,
					 SDT_VERIFY_PENDING_STATE_KEY_ORIGINAL_ID,
					 &p->original_id))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_ORIGINAL_ID, FALSE);
	if (!sdt_verify_pending_state_int(obj,
					  SDT_VERIFY_PENDING_STATE_KEY_STEP,
					  0,
					  SDT_VERIFY_PENDING_STATE_MAX_STEP,
					  &v))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_STEP, FALSE);
	p->step = (guint) v;
	n = sdt_verify_pending_state_member(obj,
					    SDT_VERIFY_PENDING_STATE_KEY_TRIAL,
					    G_TYPE_BOOLEAN,
					    FALSE);
	if (n == NULL)
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_TRIAL, FALSE);
	p->trial = json_node_get_boolean(n);
	return TRUE;
}

/* boot_id, attempts, tries, time, config_sha256: the verification's own state */
static gboolean
sdt_verify_pending_state_read_progress(JsonObject *obj, SdtVerifyPendingState *p, const gchar **bad)
{
	gint64 v = 0;

	if (!sdt_verify_pending_state_string(obj,
					     SDT_VERIFY_PENDING_STATE_KEY_BOOT_ID,
					     TRUE,
					     &p->boot_id))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_BOOT_ID, FALSE);
	if (!sdt_verify_pending_state_int(obj, SDT_VERIFY_PENDING_STATE_KEY_ATTEMPTS, 0, 1000, &v))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_ATTEMPTS, FALSE);
	p->attempts = (guint) v;
	if (!sdt_verify_pending_state_read_tries(obj, p))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_TRIES, FALSE);
	if (!sdt_verify_pending_state_string(obj,
					     SDT_VERIFY_PENDING_STATE_KEY_TIME,
					     FALSE,
					     &p->time))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_TIME, FALSE);
	if (!sdt_verify_pending_state_string(obj,
					     SDT_VERIFY_PENDING_STATE_KEY_CONFIG_SHA256,
					     TRUE,
					     &p->config_sha256))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_CONFIG_SHA256, FALSE);
	return TRUE;
}

/* "before": {name: {median, spread, unit}} or null */
static gboolean
sdt_verify_pending_state_read_before(JsonObject *obj, SdtVerifyPendingState *p)
{
	JsonNode *n = sdt_verify_pending_state_member(obj,
						      SDT_VERIFY_PENDING_STATE_KEY_BEFORE,
						      JSON_TYPE_OBJECT,
						      TRUE);
	JsonObject *before;
	g_autoptr(GList) names = NULL;

	if (n == NULL)
		return FALSE;
	if (JSON_NODE_HOLDS_NULL(n))
		return TRUE;
	before = json_node_get_object(n);
	names = json_object_get_members(before);
	p->before = sdt_verify_pending_state_figures_new();
	for (GList *l = names; l != NULL; l = l->next) {
		JsonNode *f = json_object_get_member(before, l->data);
		g_autofree gchar *unit = NULL;
		gdouble median = NAN;
		gdouble spread = NAN;
		if (!JSON_NODE_HOLDS_OBJECT(f) ||
		    !sdt_json_strict_number(json_node_get_object(f),
					    NULL,
					    SDT_VERIFY_PENDING_STATE_KEY_MEDIAN,
					    &median,
					    NULL) ||
		    !sdt_json_strict_number(json_node_get_object(f),
					    NULL,
					    SDT_VERIFY_PENDING_STATE_KEY_SPREAD,
					    &spread,
					    NULL) ||
		    !sdt_json_strict_string(json_node_get_object(f),
					    NULL,
					    SDT_VERIFY_PENDING_STATE_KEY_UNIT,
					    &unit,
					    NULL))
			return FALSE;
		sdt_verify_pending_state_figures_add(p->before, l->data, median, spread, unit);
	}
	return TRUE;
}

/* "steps": the decisions taken so far, {id, decision, reason...} each */
static gboolean
sdt_verify_pending_state_read_steps(JsonObject *obj, SdtVerifyPendingState *p)
{
	JsonNode *n = sdt_verify_pending_state_member(obj,
						      SDT_VERIFY_PENDING_STATE_KEY_STEPS,
						      JSON_TYPE_ARRAY,
						      FALSE);
	JsonArray *steps;

	if (n == NULL)
		return FALSE;
	steps = json_node_get_array(n);
	for (guint i = 0; i < json_array_get_length(steps); i++) {
		JsonNode *e = json_array_get_element(steps, i);
		JsonObject *o = JSON_NODE_HOLDS_OBJECT(e) ? json_node_get_object(e) : NULL;
		SdtVerifyPendingStateStep *s;
		if (o == NULL)
			return FALSE;
		s = g_new0(SdtVerifyPendingStateStep, 1);
		g_ptr_array_add(p->steps, s);
		if (!sdt_json_strict_string(o,
					    NULL,
					    SDT_VERIFY_PENDING_STATE_KEY_ID,
					    &s->id,
					    NULL) ||
		    !sdt_json_strict_string(o,
					    NULL,
					    SDT_VERIFY_PENDING_STATE_KEY_DECISION,
					    &s->decision,
					    NULL) ||
		    !sdt_l10n_record_reason_read(o, NULL, &s->reason, NULL))
			return FALSE;
	}
	return TRUE;
}

/* optional: a decision being carried out, with its result to record */
static gboolean
sdt_verify_pending_state_read_decided(JsonObject *obj, SdtVerifyPendingState *p)
{
	JsonNode *n = json_object_get_member(obj, SDT_VERIFY_PENDING_STATE_KEY_DECIDED);
	g_autoptr(SdtVerifyPendingStateDecided) d = NULL;
	JsonObject *o;
	JsonObject *result = NULL;

	if (n == NULL || JSON_NODE_HOLDS_NULL(n))
		return TRUE;
	if (!JSON_NODE_HOLDS_OBJECT(n))
		return FALSE;
	o = json_node_get_object(n);
	d = sdt_verify_pending_state_decided_new();
	if (!sdt_verify_pending_state_string(o,
					     SDT_VERIFY_PENDING_STATE_KEY_DECISION,
					     FALSE,
					     &d->decision) ||
	    !sdt_json_strict_object(o, NULL, SDT_VERIFY_PENDING_STATE_KEY_RESULT, &result, NULL) ||
	    result == NULL || !sdt_l10n_record_reason_read(o, NULL, &d->reason, NULL) ||
	    !sdt_json_strict_string(o,
				    NULL,
				    SDT_VERIFY_PENDING_STATE_KEY_NEXT_ID,
				    &d->next_id,
				    NULL) ||
	    !sdt_json_strict_string(o, NULL, SDT_VERIFY_PENDING_STATE_KEY_TIME, &d->time, NULL) ||
	    !sdt_json_strict_string(o, NULL, SDT_VERIFY_PENDING_STATE_KEY_ERROR, &d->error, NULL))
		return FALSE;
	d->result = sdt_verify_report_from_json(result, NULL);
	if (d->result == NULL)
		return FALSE;
	p->decided = g_steal_pointer(&d);
	return TRUE;
}

/* before, steps, filter, type_code, replaces, decided: the evidence and the block */
static gboolean
sdt_verify_pending_state_read_block(JsonObject *obj, SdtVerifyPendingState *p, const gchar **bad)
{
	gint64 v = 0;

	if (!sdt_verify_pending_state_read_before(obj, p))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_BEFORE, FALSE);
	if (!sdt_verify_pending_state_read_steps(obj, p))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_STEPS, FALSE);
	if (!sdt_verify_pending_state_string(obj,
					     SDT_VERIFY_PENDING_STATE_KEY_FILTER,
					     FALSE,
					     &p->filter) ||
	    !g_str_has_prefix(p->filter, "[") || strlen(p->filter) > 64)
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_FILTER, FALSE);
	if (!sdt_verify_pending_state_int(obj,
					  SDT_VERIFY_PENDING_STATE_KEY_TYPE_CODE,
					  -1,
					  0xff,
					  &v))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_TYPE_CODE, FALSE);
	p->type_code = (gint) v;
	if (!sdt_verify_pending_state_int(obj, SDT_VERIFY_PENDING_STATE_KEY_REPLACES, 0, 0xff, &v))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_REPLACES, FALSE);
	p->replaces = (guint) v;
	if (!sdt_verify_pending_state_read_decided(obj, p))
		return (*bad = SDT_VERIFY_PENDING_STATE_KEY_DECIDED, FALSE);
	return TRUE;
}

SdtVerifyPendingState *
sdt_verify_pending_state_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtVerifyPendingState) p = sdt_verify_pending_state_new();
	const gchar *bad = "(root)";

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (obj != NULL && sdt_verify_pending_state_read_change(obj, p, &bad) &&
	    sdt_verify_pending_state_read_progress(obj, p, &bad) &&
	    sdt_verify_pending_state_read_block(obj, p, &bad))
		return g_steal_pointer(&p);
	sdt_verify_pending_state_damaged(bad, error);
	return NULL;
}

SdtVerifyPendingState *
sdt_verify_pending_state_parse(const gchar *text, gsize len, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) local = NULL;
	JsonNode *root;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (!json_parser_load_from_data(parser, text, (gssize) len, &local)) {
		g_autofree gchar *where = sdt_json_parse_problem(local);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("the pending change is not valid JSON: %s"),
			    where);
		return NULL;
	}
	root = json_parser_get_root(parser);
	return sdt_verify_pending_state_from_json(
		root != NULL && JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL,
		error);
}

/* the writing direction: every member in the order SD Tuner has always written */

static void
sdt_verify_pending_state_put_before(JsonBuilder *b, GPtrArray *before)
{
	json_builder_set_member_name(b, SDT_VERIFY_PENDING_STATE_KEY_BEFORE);
	if (before == NULL) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	for (guint i = 0; i < before->len; i++) {
		const SdtVerifyPendingStateFigure *f = g_ptr_array_index(before, i);
		json_builder_set_member_name(b, f->name);
		json_builder_begin_object(b);
		sdt_json_number_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_MEDIAN, f->median);
		sdt_json_number_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_SPREAD, f->spread);
		sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_UNIT, f->unit);
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
}

static void
sdt_verify_pending_state_put_steps(JsonBuilder *b, GPtrArray *steps)
{
	json_builder_set_member_name(b, SDT_VERIFY_PENDING_STATE_KEY_STEPS);
	json_builder_begin_array(b);
	for (guint i = 0; steps != NULL && i < steps->len; i++) {
		const SdtVerifyPendingStateStep *s = g_ptr_array_index(steps, i);
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_ID, s->id);
		sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_DECISION, s->decision);
		sdt_l10n_record_reason_write(b, s->reason);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void
sdt_verify_pending_state_put_decided(JsonBuilder *b, const SdtVerifyPendingStateDecided *d)
{
	json_builder_set_member_name(b, SDT_VERIFY_PENDING_STATE_KEY_DECIDED);
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_DECISION, d->decision);
	sdt_l10n_record_reason_write(b, d->reason);
	sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_NEXT_ID, d->next_id);
	sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_TIME, d->time);
	sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_ERROR, d->error);
	json_builder_set_member_name(b, SDT_VERIFY_PENDING_STATE_KEY_RESULT);
	if (d->result != NULL)
		json_builder_add_value(b, sdt_verify_report_to_json(d->result));
	else
		json_builder_add_null_value(b);
	json_builder_end_object(b);
}

JsonNode *
sdt_verify_pending_state_to_json(const SdtVerifyPendingState *p)
{
	g_autoptr(JsonBuilder) b = NULL;

	g_return_val_if_fail(p != NULL, NULL);

	b = json_builder_new();
	json_builder_begin_object(b);
	sdt_json_put_int(b, SDT_VERIFY_PENDING_STATE_KEY_VERSION, SDT_VERIFY_PENDING_STATE_VERSION);
	sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_ID, p->id);
	sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_ORIGINAL_ID, p->original_id);
	sdt_json_put_int(b, SDT_VERIFY_PENDING_STATE_KEY_STEP, p->step);
	json_builder_set_member_name(b, SDT_VERIFY_PENDING_STATE_KEY_TRIAL);
	json_builder_add_boolean_value(b, p->trial);
	sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_BOOT_ID, p->boot_id);
	sdt_json_put_int(b, SDT_VERIFY_PENDING_STATE_KEY_ATTEMPTS, p->attempts);
	json_builder_set_member_name(b, SDT_VERIFY_PENDING_STATE_KEY_TRIES);
	json_builder_begin_array(b);
	for (guint i = 0; p->tries != NULL && p->tries[i] != NULL; i++)
		json_builder_add_string_value(b, p->tries[i]);
	json_builder_end_array(b);
	json_builder_set_member_name(b, SDT_VERIFY_PENDING_STATE_KEY_TIME);
	json_builder_add_string_value(b, p->time != NULL ? p->time : "");
	sdt_json_string_or_null(b, SDT_VERIFY_PENDING_STATE_KEY_CONFIG_SHA256, p->config_sha256);
	sdt_verify_pending_state_put_before(b, p->before);
	sdt_verify_pending_state_put_steps(b, p->steps);
	json_builder_set_member_name(b, SDT_VERIFY_PENDING_STATE_KEY_FILTER);
	json_builder_add_string_value(b, p->filter != NULL ? p->filter : "");
	sdt_json_put_int(b, SDT_VERIFY_PENDING_STATE_KEY_TYPE_CODE, p->type_code);
	sdt_json_put_int(b, SDT_VERIFY_PENDING_STATE_KEY_REPLACES, p->replaces);
	if (p->decided != NULL)
		sdt_verify_pending_state_put_decided(b, p->decided);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_verify_pending_state_to_string(const SdtVerifyPendingState *state)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(state != NULL, NULL);

	node = sdt_verify_pending_state_to_json(state);
	return sdt_json_to_string(node, TRUE);
}

/* the evidence file of `verify --evidence` */

void
sdt_verify_pending_state_evidence_free(SdtVerifyPendingStateEvidence *evidence)
{
	if (evidence == NULL)
		return;
	g_clear_pointer(&evidence->before, g_ptr_array_unref);
	g_clear_pointer(&evidence->after, g_ptr_array_unref);
	g_free(evidence);
}

/* {NAME: {median, spread, unit}} of @member; *@figures stays NULL when absent or null */
static gboolean
sdt_verify_pending_state_evidence_figures(JsonObject *obj,
					  const gchar *member,
					  GPtrArray **figures,
					  GError **error)
{
	JsonObject *fig = NULL;
	g_autoptr(GList) names = NULL;

	if (!sdt_json_strict_object(obj, NULL, member, &fig, error))
		return FALSE;
	if (fig == NULL)
		return TRUE;
	*figures = sdt_verify_pending_state_figures_new();
	names = json_object_get_members(fig);
	for (GList *l = names; l != NULL; l = l->next) {
		g_autofree gchar *where = g_strdup_printf("%s.%s", member, (const gchar *) l->data);
		g_autofree gchar *unit = NULL;
		JsonObject *f = NULL;
		gdouble median = NAN;
		gdouble spread = NAN;

		if (!sdt_json_strict_object(fig, member, l->data, &f, error))
			return FALSE;
		if (f == NULL)
			continue;
		if (!sdt_json_strict_number(f,
					    where,
					    SDT_VERIFY_PENDING_STATE_KEY_MEDIAN,
					    &median,
					    error) ||
		    !sdt_json_strict_number(f,
					    where,
					    SDT_VERIFY_PENDING_STATE_KEY_SPREAD,
					    &spread,
					    error) ||
		    !sdt_json_strict_string(f,
					    where,
					    SDT_VERIFY_PENDING_STATE_KEY_UNIT,
					    &unit,
					    error))
			return FALSE;
		sdt_verify_pending_state_figures_add(*figures,
						     l->data,
						     median,
						     spread,
						     unit != NULL ? unit : "");
	}
	return TRUE;
}

static gboolean
sdt_verify_pending_state_evidence_soak(JsonObject *obj,
				       SdtVerifyPendingStateEvidence *ev,
				       GError **error)
{
	const gchar *key = SDT_VERIFY_PENDING_STATE_KEY_SOAK;
	JsonObject *soak = NULL;

	if (!sdt_json_strict_object(obj, NULL, key, &soak, error))
		return FALSE;
	ev->has_soak = soak != NULL;
	return soak == NULL || (sdt_json_strict_number(soak,
						       key,
						       SDT_VERIFY_PENDING_STATE_KEY_WRITTEN,
						       &ev->soak_bytes_written,
						       error) &&
				sdt_json_strict_number(soak,
						       key,
						       SDT_VERIFY_PENDING_STATE_KEY_CHECKED,
						       &ev->soak_bytes_checked,
						       error) &&
				sdt_json_strict_number(soak,
						       key,
						       SDT_VERIFY_PENDING_STATE_KEY_MISMATCHES,
						       &ev->soak_mismatches,
						       error) &&
				sdt_json_strict_number(soak,
						       key,
						       SDT_VERIFY_PENDING_STATE_KEY_FIRST_BAD,
						       &ev->soak_first_bad_offset,
						       error));
}

SdtVerifyPendingStateEvidence *
sdt_verify_pending_state_evidence_parse(const gchar *text, gsize len, GError **error)
{
	g_autoptr(JsonObject) obj = NULL;
	g_autoptr(SdtVerifyPendingStateEvidence) ev = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	obj = sdt_json_parse_object(text, len, error);
	if (obj == NULL)
		return NULL;
	ev = g_new0(SdtVerifyPendingStateEvidence, 1);
	ev->soak_bytes_written = NAN;
	ev->soak_bytes_checked = NAN;
	ev->soak_mismatches = NAN;
	ev->soak_first_bad_offset = NAN;
	if (!sdt_verify_pending_state_evidence_figures(obj,
						       SDT_VERIFY_PENDING_STATE_KEY_BEFORE,
						       &ev->before,
						       error) ||
	    !sdt_verify_pending_state_evidence_figures(obj,
						       SDT_VERIFY_PENDING_STATE_KEY_AFTER,
						       &ev->after,
						       error) ||
	    !sdt_verify_pending_state_evidence_soak(obj, ev, error))
		return NULL;
	return g_steal_pointer(&ev);
}
