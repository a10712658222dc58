/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-json-strict-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-verify-report.h"
#include "sdt-verify-report-private.h"
#include "sdt-l10n-record-private.h"

#define SDT_VERIFY_REPORT_KEY_PENDING        "pending"
#define SDT_VERIFY_REPORT_KEY_ID             "id"
#define SDT_VERIFY_REPORT_KEY_ORIGINAL_ID    "original_id"
#define SDT_VERIFY_REPORT_KEY_STEP           "step"
#define SDT_VERIFY_REPORT_KEY_TRIAL          "trial"
#define SDT_VERIFY_REPORT_KEY_DECISION       "decision"
#define SDT_VERIFY_REPORT_KEY_NEXT_ID        "next_id"
#define SDT_VERIFY_REPORT_KEY_TIME           "time"
#define SDT_VERIFY_REPORT_KEY_STOP           "stop"
#define SDT_VERIFY_REPORT_KEY_FOREIGN_CHANGE "foreign_change"
#define SDT_VERIFY_REPORT_KEY_IMPROVED       "improved"
#define SDT_VERIFY_REPORT_KEY_WORSE          "worse"
#define SDT_VERIFY_REPORT_KEY_EVIDENCE       "evidence"
#define SDT_VERIFY_REPORT_KEY_DECIDED_AT     "decided_at"
#define SDT_VERIFY_REPORT_KEY_ACTION         "action"
#define SDT_VERIFY_REPORT_KEY_KIND           "kind"

#define SDT_VERIFY_REPORT_KEY_BOOT_ID_THEN    "boot_id_then"
#define SDT_VERIFY_REPORT_KEY_BOOT_ID         "boot_id"
#define SDT_VERIFY_REPORT_KEY_TRYBOOT_ACTIVE  "tryboot_active"
#define SDT_VERIFY_REPORT_KEY_CONFIG_EDITED   "config_edited"
#define SDT_VERIFY_REPORT_KEY_ATTEMPTS_BEFORE "attempts_before"
#define SDT_VERIFY_REPORT_KEY_CLOCK           "clock"
#define SDT_VERIFY_REPORT_KEY_EXPECTED_HZ     "expected_hz"
#define SDT_VERIFY_REPORT_KEY_OBSERVED_HZ     "observed_hz"
#define SDT_VERIFY_REPORT_KEY_CQE             "cqe"
#define SDT_VERIFY_REPORT_KEY_EXPECTED        "expected"
#define SDT_VERIFY_REPORT_KEY_OBSERVED        "observed"
#define SDT_VERIFY_REPORT_KEY_LOG             "log"
#define SDT_VERIFY_REPORT_KEY_SOAK            "soak"
#define SDT_VERIFY_REPORT_KEY_RAN             "ran"
#define SDT_VERIFY_REPORT_KEY_BYTES_WRITTEN   "bytes_written"
#define SDT_VERIFY_REPORT_KEY_BYTES_CHECKED   "bytes_checked"
#define SDT_VERIFY_REPORT_KEY_MISMATCHES      "mismatches"
#define SDT_VERIFY_REPORT_KEY_FIRST_BAD       "first_bad_offset"
#define SDT_VERIFY_REPORT_KEY_FIGURES         "figures"
#define SDT_VERIFY_REPORT_KEY_NAME            "name"
#define SDT_VERIFY_REPORT_KEY_UNIT            "unit"
#define SDT_VERIFY_REPORT_KEY_BEFORE          "before"
#define SDT_VERIFY_REPORT_KEY_BEFORE_SPREAD   "before_spread"
#define SDT_VERIFY_REPORT_KEY_AFTER           "after"
#define SDT_VERIFY_REPORT_KEY_AFTER_SPREAD    "after_spread"

#define SDT_VERIFY_REPORT_KEY_WHAT            "what"
#define SDT_VERIFY_REPORT_KEY_ERROR           "error"
#define SDT_VERIFY_REPORT_KEY_PATH            "path"
#define SDT_VERIFY_REPORT_KEY_DIFF            "diff"
#define SDT_VERIFY_REPORT_KEY_BACKUP          "backup"
#define SDT_VERIFY_REPORT_KEY_KEPT            "kept"
#define SDT_VERIFY_REPORT_KEY_WARNINGS        "warnings"
#define SDT_VERIFY_REPORT_KEY_TRIAL_CANCELLED "trial_cancelled"

static void
sdt_verify_report_figure_free(gpointer data)
{
	SdtVerifyReportFigure *f = data;

	if (f == NULL)
		return;
	g_free(f->name);
	g_free(f->unit);
	g_free(f);
}

SdtVerifyReportEvidence *
sdt_verify_report_evidence_new(void)
{
	SdtVerifyReportEvidence *ev = g_new0(SdtVerifyReportEvidence, 1);

	ev->log = g_ptr_array_new_with_free_func(g_free);
	ev->figures = g_ptr_array_new_with_free_func(sdt_verify_report_figure_free);
	ev->soak_first_bad_offset = -1;
	return ev;
}

static void
sdt_verify_report_evidence_free(SdtVerifyReportEvidence *ev)
{
	if (ev == NULL)
		return;
	g_free(ev->boot_id_then);
	g_free(ev->boot_id);
	g_free(ev->cqe_expected);
	g_free(ev->cqe_observed);
	g_ptr_array_unref(ev->log);
	g_ptr_array_unref(ev->figures);
	g_free(ev);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtVerifyReportEvidence, sdt_verify_report_evidence_free)

SdtVerifyReportAction *
sdt_verify_report_action_new(const gchar *what)
{
	SdtVerifyReportAction *a = g_new0(SdtVerifyReportAction, 1);

	a->what = g_strdup(what);
	a->kept = g_ptr_array_new_with_free_func(g_free);
	a->warnings = g_ptr_array_new_with_free_func(g_free);
	return a;
}

static void
sdt_verify_report_action_free(SdtVerifyReportAction *action)
{
	if (action == NULL)
		return;
	g_free(action->what);
	g_free(action->error);
	g_free(action->path);
	g_free(action->diff);
	g_free(action->backup);
	g_ptr_array_unref(action->kept);
	g_ptr_array_unref(action->warnings);
	g_free(action);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtVerifyReportAction, sdt_verify_report_action_free)

void
sdt_verify_report_action_warn(SdtVerifyReportAction *action, const gchar *text)
{
	g_return_if_fail(action != NULL);

	action->members |= SDT_VERIFY_REPORT_ACTION_WARNINGS;
	g_ptr_array_add(action->warnings, g_strdup(text));
}

SdtVerifyReport *
sdt_verify_report_new(void)
{
	SdtVerifyReport *r = g_new0(SdtVerifyReport, 1);

	r->improved = g_ptr_array_new_with_free_func(g_free);
	r->worse = g_ptr_array_new_with_free_func(g_free);
	return r;
}

void
sdt_verify_report_free(SdtVerifyReport *report)
{
	if (report == NULL)
		return;
	g_free(report->id);
	g_free(report->original_id);
	g_free(report->decision);
	sdt_l10n_record_reason_free(report->reason);
	g_free(report->next_id);
	g_free(report->time);
	g_ptr_array_unref(report->improved);
	g_ptr_array_unref(report->worse);
	sdt_verify_report_evidence_free(report->evidence);
	g_free(report->decided_at);
	sdt_verify_report_action_free(report->action);
	g_free(report->boot_id);
	g_free(report->kind);
	g_free(report);
}

void
sdt_verify_report_set_action(SdtVerifyReport *report, SdtVerifyReportAction *action)
{
	g_return_if_fail(report != NULL);

	sdt_verify_report_action_free(report->action);
	report->action = action;
	report->members |= SDT_VERIFY_REPORT_ACTION;
}

SdtVerifyReport *
sdt_verify_report_copy(const SdtVerifyReport *report)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	/* every member, through the one place that knows them all */
	node = sdt_verify_report_to_json(report);
	return sdt_verify_report_from_json(json_node_get_object(node), NULL);
}

const gchar *
sdt_verify_report_reason(const SdtVerifyReport *report)
{
	return report != NULL ? sdt_l10n_record_reason_shown(report->reason) : "";
}

/* the reading direction: absent is left out, null is unknown, a wrong type an error */

/* sets @bit in *@members when @obj has @key (a null too) */
static void
sdt_verify_report_mark(JsonObject *obj, const gchar *key, guint bit, guint *members)
{
	if (json_object_has_member(obj, key))
		*members |= bit;
}

static gboolean
sdt_verify_report_read_figures(JsonObject *obj,
			       const gchar *where,
			       GPtrArray *figures,
			       GError **error)
{
	JsonArray *array = NULL;

	if (!sdt_json_strict_array(obj, where, SDT_VERIFY_REPORT_KEY_FIGURES, &array, error))
		return FALSE;
	for (guint i = 0; array != NULL && i < json_array_get_length(array); i++) {
		g_autofree gchar *at =
			sdt_json_strict_element(where, SDT_VERIFY_REPORT_KEY_FIGURES, i);
		JsonObject *o =
			sdt_json_strict_element_object(json_array_get_element(array, i), at, error);
		SdtVerifyReportFigure *f;
		if (o == NULL)
			return FALSE;
		f = g_new0(SdtVerifyReportFigure, 1);
		g_ptr_array_add(figures, f);
		if (!sdt_json_strict_string(o, at, SDT_VERIFY_REPORT_KEY_NAME, &f->name, error) ||
		    !sdt_json_strict_string(o, at, SDT_VERIFY_REPORT_KEY_UNIT, &f->unit, error) ||
		    !sdt_json_strict_number(o,
					    at,
					    SDT_VERIFY_REPORT_KEY_BEFORE,
					    &f->before,
					    error) ||
		    !sdt_json_strict_number(o,
					    at,
					    SDT_VERIFY_REPORT_KEY_BEFORE_SPREAD,
					    &f->before_spread,
					    error) ||
		    !sdt_json_strict_number(o, at, SDT_VERIFY_REPORT_KEY_AFTER, &f->after, error) ||
		    !sdt_json_strict_number(o,
					    at,
					    SDT_VERIFY_REPORT_KEY_AFTER_SPREAD,
					    &f->after_spread,
					    error))
			return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_verify_report_read_soak(JsonObject *obj,
			    const gchar *where,
			    SdtVerifyReportEvidence *ev,
			    GError **error)
{
	JsonObject *soak = NULL;
	g_autofree gchar *at = where != NULL ? g_strdup_printf("%s.soak", where) : g_strdup("soak");

	if (!sdt_json_strict_object(obj, where, SDT_VERIFY_REPORT_KEY_SOAK, &soak, error))
		return FALSE;
	if (soak == NULL)
		return TRUE;
	return sdt_json_strict_bool(soak,
				    at,
				    SDT_VERIFY_REPORT_KEY_RAN,
				    FALSE,
				    &ev->soak_ran,
				    error) &&
	       sdt_json_strict_int(soak,
				   at,
				   SDT_VERIFY_REPORT_KEY_BYTES_WRITTEN,
				   0,
				   &ev->soak_bytes_written,
				   error) &&
	       sdt_json_strict_int(soak,
				   at,
				   SDT_VERIFY_REPORT_KEY_BYTES_CHECKED,
				   0,
				   &ev->soak_bytes_checked,
				   error) &&
	       sdt_json_strict_int(soak,
				   at,
				   SDT_VERIFY_REPORT_KEY_MISMATCHES,
				   0,
				   &ev->soak_mismatches,
				   error) &&
	       sdt_json_strict_int(soak,
				   at,
				   SDT_VERIFY_REPORT_KEY_FIRST_BAD,
				   -1,
				   &ev->soak_first_bad_offset,
				   error);
}

static gboolean
sdt_verify_report_read_bus(JsonObject *obj,
			   const gchar *where,
			   SdtVerifyReportEvidence *ev,
			   GError **error)
{
	JsonObject *clock = NULL;
	JsonObject *cqe = NULL;
	g_autofree gchar *at_clock =
		where != NULL ? g_strdup_printf("%s.clock", where) : g_strdup("clock");
	g_autofree gchar *at_cqe =
		where != NULL ? g_strdup_printf("%s.cqe", where) : g_strdup("cqe");

	if (!sdt_json_strict_object(obj, where, SDT_VERIFY_REPORT_KEY_CLOCK, &clock, error) ||
	    !sdt_json_strict_int(clock,
				 at_clock,
				 SDT_VERIFY_REPORT_KEY_EXPECTED_HZ,
				 0,
				 &ev->clock_expected_hz,
				 error) ||
	    !sdt_json_strict_int(clock,
				 at_clock,
				 SDT_VERIFY_REPORT_KEY_OBSERVED_HZ,
				 0,
				 &ev->clock_observed_hz,
				 error) ||
	    !sdt_json_strict_object(obj, where, SDT_VERIFY_REPORT_KEY_CQE, &cqe, error))
		return FALSE;
	if (cqe == NULL)
		return TRUE;
	if (!sdt_json_strict_string(cqe,
				    at_cqe,
				    SDT_VERIFY_REPORT_KEY_EXPECTED,
				    &ev->cqe_expected,
				    error) ||
	    !sdt_json_strict_string(cqe,
				    at_cqe,
				    SDT_VERIFY_REPORT_KEY_OBSERVED,
				    &ev->cqe_observed,
				    error))
		return FALSE;
	if (ev->cqe_expected == NULL)
		return sdt_json_strict_missing(at_cqe, SDT_VERIFY_REPORT_KEY_EXPECTED, error);
	return TRUE;
}

static gboolean
sdt_verify_report_read_evidence(JsonObject *obj,
				const gchar *where,
				SdtVerifyReport *r,
				GError **error)
{
	JsonObject *evidence = NULL;
	g_autofree gchar *at = where != NULL ? g_strdup_printf("%s.evidence", where)
					     : g_strdup(SDT_VERIFY_REPORT_KEY_EVIDENCE);
	g_autoptr(SdtVerifyReportEvidence) ev = NULL;

	if (!sdt_json_strict_object(obj, where, SDT_VERIFY_REPORT_KEY_EVIDENCE, &evidence, error))
		return FALSE;
	if (evidence == NULL)
		return TRUE;
	ev = sdt_verify_report_evidence_new();
	if (!sdt_json_strict_string(evidence,
				    at,
				    SDT_VERIFY_REPORT_KEY_BOOT_ID_THEN,
				    &ev->boot_id_then,
				    error) ||
	    !sdt_json_strict_string(evidence,
				    at,
				    SDT_VERIFY_REPORT_KEY_BOOT_ID,
				    &ev->boot_id,
				    error) ||
	    !sdt_json_strict_bool(evidence,
				  at,
				  SDT_VERIFY_REPORT_KEY_TRYBOOT_ACTIVE,
				  FALSE,
				  &ev->tryboot_active,
				  error) ||
	    !sdt_json_strict_bool(evidence,
				  at,
				  SDT_VERIFY_REPORT_KEY_CONFIG_EDITED,
				  FALSE,
				  &ev->config_edited,
				  error) ||
	    !sdt_json_strict_int(evidence,
				 at,
				 SDT_VERIFY_REPORT_KEY_ATTEMPTS_BEFORE,
				 0,
				 &ev->attempts_before,
				 error) ||
	    !sdt_verify_report_read_bus(evidence, at, ev, error) ||
	    !sdt_json_strict_strings(evidence, at, SDT_VERIFY_REPORT_KEY_LOG, ev->log, error) ||
	    !sdt_verify_report_read_soak(evidence, at, ev, error) ||
	    !sdt_verify_report_read_figures(evidence, at, ev->figures, error))
		return FALSE;
	r->evidence = g_steal_pointer(&ev);
	return TRUE;
}

static gboolean
sdt_verify_report_read_action_members(JsonObject *o,
				      const gchar *at,
				      SdtVerifyReportAction *a,
				      GError **error)
{
	sdt_verify_report_mark(o,
			       SDT_VERIFY_REPORT_KEY_ERROR,
			       SDT_VERIFY_REPORT_ACTION_ERROR,
			       &a->members);
	sdt_verify_report_mark(o,
			       SDT_VERIFY_REPORT_KEY_PATH,
			       SDT_VERIFY_REPORT_ACTION_PATH,
			       &a->members);
	sdt_verify_report_mark(o,
			       SDT_VERIFY_REPORT_KEY_DIFF,
			       SDT_VERIFY_REPORT_ACTION_DIFF,
			       &a->members);
	sdt_verify_report_mark(o,
			       SDT_VERIFY_REPORT_KEY_BACKUP,
			       SDT_VERIFY_REPORT_ACTION_BACKUP,
			       &a->members);
	sdt_verify_report_mark(o,
			       SDT_VERIFY_REPORT_KEY_KEPT,
			       SDT_VERIFY_REPORT_ACTION_KEPT,
			       &a->members);
	sdt_verify_report_mark(o,
			       SDT_VERIFY_REPORT_KEY_WARNINGS,
			       SDT_VERIFY_REPORT_ACTION_WARNINGS,
			       &a->members);
	sdt_verify_report_mark(o,
			       SDT_VERIFY_REPORT_KEY_TRIAL_CANCELLED,
			       SDT_VERIFY_REPORT_ACTION_TRIAL_CANCELLED,
			       &a->members);
	return sdt_json_strict_string(o, at, SDT_VERIFY_REPORT_KEY_ERROR, &a->error, error) &&
	       sdt_json_strict_string(o, at, SDT_VERIFY_REPORT_KEY_PATH, &a->path, error) &&
	       sdt_json_strict_string(o, at, SDT_VERIFY_REPORT_KEY_DIFF, &a->diff, error) &&
	       sdt_json_strict_string(o, at, SDT_VERIFY_REPORT_KEY_BACKUP, &a->backup, error) &&
	       sdt_json_strict_strings(o, at, SDT_VERIFY_REPORT_KEY_KEPT, a->kept, error) &&
	       sdt_json_strict_strings(o, at, SDT_VERIFY_REPORT_KEY_WARNINGS, a->warnings, error) &&
	       sdt_json_strict_bool(o,
				    at,
				    SDT_VERIFY_REPORT_KEY_TRIAL_CANCELLED,
				    FALSE,
				    &a->trial_cancelled,
				    error);
}

static gboolean
sdt_verify_report_read_action(JsonObject *obj,
			      const gchar *where,
			      SdtVerifyReport *r,
			      GError **error)
{
	JsonObject *o = NULL;
	g_autofree gchar *at = where != NULL ? g_strdup_printf("%s.action", where)
					     : g_strdup(SDT_VERIFY_REPORT_KEY_ACTION);
	g_autoptr(SdtVerifyReportAction) a = NULL;

	if (!sdt_json_strict_object(obj, where, SDT_VERIFY_REPORT_KEY_ACTION, &o, error))
		return FALSE;
	if (o == NULL)
		return TRUE;
	a = sdt_verify_report_action_new(NULL);
	/* what was done of the decision (issue 33: a step-down that failed is not one done) */
	if (!sdt_json_strict_string(o, at, SDT_VERIFY_REPORT_KEY_WHAT, &a->what, error) ||
	    !sdt_verify_report_read_action_members(o, at, a, error))
		return FALSE;
	r->action = g_steal_pointer(&a);
	return TRUE;
}

static void
sdt_verify_report_read_members(JsonObject *obj, SdtVerifyReport *r)
{
	static const struct {
		const gchar *key;
		guint bit;
	} keys[] = {
		{SDT_VERIFY_REPORT_KEY_PENDING, SDT_VERIFY_REPORT_PENDING},
		{SDT_VERIFY_REPORT_KEY_ID, SDT_VERIFY_REPORT_ID},
		{SDT_VERIFY_REPORT_KEY_ORIGINAL_ID, SDT_VERIFY_REPORT_ORIGINAL_ID},
		{SDT_VERIFY_REPORT_KEY_STEP, SDT_VERIFY_REPORT_STEP},
		{SDT_VERIFY_REPORT_KEY_TRIAL, SDT_VERIFY_REPORT_TRIAL},
		{SDT_VERIFY_REPORT_KEY_DECISION, SDT_VERIFY_REPORT_DECISION},
		{SDT_VERIFY_REPORT_KEY_NEXT_ID, SDT_VERIFY_REPORT_NEXT_ID},
		{SDT_VERIFY_REPORT_KEY_TIME, SDT_VERIFY_REPORT_TIME},
		{SDT_VERIFY_REPORT_KEY_STOP, SDT_VERIFY_REPORT_STOP},
		{SDT_VERIFY_REPORT_KEY_FOREIGN_CHANGE, SDT_VERIFY_REPORT_FOREIGN_CHANGE},
		{SDT_VERIFY_REPORT_KEY_IMPROVED, SDT_VERIFY_REPORT_IMPROVED},
		{SDT_VERIFY_REPORT_KEY_WORSE, SDT_VERIFY_REPORT_WORSE},
		{SDT_VERIFY_REPORT_KEY_EVIDENCE, SDT_VERIFY_REPORT_EVIDENCE},
		{SDT_VERIFY_REPORT_KEY_DECIDED_AT, SDT_VERIFY_REPORT_DECIDED_AT},
		{SDT_VERIFY_REPORT_KEY_ACTION, SDT_VERIFY_REPORT_ACTION},
		{SDT_VERIFY_REPORT_KEY_BOOT_ID, SDT_VERIFY_REPORT_BOOT_ID},
		{SDT_VERIFY_REPORT_KEY_KIND, SDT_VERIFY_REPORT_KIND},
	};

	for (guint i = 0; i < G_N_ELEMENTS(keys); i++)
		sdt_verify_report_mark(obj, keys[i].key, keys[i].bit, &r->members);
}

SdtVerifyReport *
sdt_verify_report_from_json_at(JsonObject *obj, const gchar *where, GError **error)
{
	g_autoptr(SdtVerifyReport) r = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	r = sdt_verify_report_new();
	sdt_verify_report_read_members(obj, r);
	if (!sdt_json_strict_bool(obj,
				  where,
				  SDT_VERIFY_REPORT_KEY_PENDING,
				  FALSE,
				  &r->pending,
				  error) ||
	    !sdt_json_strict_string(obj, where, SDT_VERIFY_REPORT_KEY_ID, &r->id, error) ||
	    !sdt_json_strict_string(obj,
				    where,
				    SDT_VERIFY_REPORT_KEY_ORIGINAL_ID,
				    &r->original_id,
				    error) ||
	    !sdt_json_strict_int(obj, where, SDT_VERIFY_REPORT_KEY_STEP, 0, &r->step, error) ||
	    !sdt_json_strict_bool(obj,
				  where,
				  SDT_VERIFY_REPORT_KEY_TRIAL,
				  FALSE,
				  &r->trial,
				  error) ||
	    !sdt_json_strict_string(obj,
				    where,
				    SDT_VERIFY_REPORT_KEY_DECISION,
				    &r->decision,
				    error) ||
	    !sdt_l10n_record_reason_read(obj, where, &r->reason, error) ||
	    !sdt_json_strict_string(obj,
				    where,
				    SDT_VERIFY_REPORT_KEY_NEXT_ID,
				    &r->next_id,
				    error) ||
	    !sdt_json_strict_string(obj, where, SDT_VERIFY_REPORT_KEY_TIME, &r->time, error) ||
	    !sdt_json_strict_bool(obj, where, SDT_VERIFY_REPORT_KEY_STOP, FALSE, &r->stop, error) ||
	    !sdt_json_strict_bool(obj,
				  where,
				  SDT_VERIFY_REPORT_KEY_FOREIGN_CHANGE,
				  FALSE,
				  &r->foreign_change,
				  error) ||
	    !sdt_json_strict_strings(obj,
				     where,
				     SDT_VERIFY_REPORT_KEY_IMPROVED,
				     r->improved,
				     error) ||
	    !sdt_json_strict_strings(obj, where, SDT_VERIFY_REPORT_KEY_WORSE, r->worse, error) ||
	    !sdt_verify_report_read_evidence(obj, where, r, error) ||
	    !sdt_json_strict_string(obj,
				    where,
				    SDT_VERIFY_REPORT_KEY_DECIDED_AT,
				    &r->decided_at,
				    error) ||
	    !sdt_verify_report_read_action(obj, where, r, error) ||
	    !sdt_json_strict_string(obj,
				    where,
				    SDT_VERIFY_REPORT_KEY_BOOT_ID,
				    &r->boot_id,
				    error) ||
	    !sdt_json_strict_string(obj, where, SDT_VERIFY_REPORT_KEY_KIND, &r->kind, error))
		return NULL;
	return g_steal_pointer(&r);
}

SdtVerifyReport *
sdt_verify_report_from_json(JsonObject *obj, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	return sdt_verify_report_from_json_at(obj, NULL, error);
}

SdtVerifyReport *
sdt_verify_report_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_verify_report_from_json(json_node_get_object(root), error);
}

/* the writing direction: the members the report has, in one order */

static void
sdt_verify_report_put_figures(JsonBuilder *b, GPtrArray *figures)
{
	json_builder_set_member_name(b, SDT_VERIFY_REPORT_KEY_FIGURES);
	json_builder_begin_array(b);
	for (guint i = 0; i < figures->len; i++) {
		const SdtVerifyReportFigure *f = g_ptr_array_index(figures, i);
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_NAME, f->name);
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_UNIT, f->unit);
		sdt_json_number_or_null(b, SDT_VERIFY_REPORT_KEY_BEFORE, f->before);
		sdt_json_number_or_null(b, SDT_VERIFY_REPORT_KEY_BEFORE_SPREAD, f->before_spread);
		sdt_json_number_or_null(b, SDT_VERIFY_REPORT_KEY_AFTER, f->after);
		sdt_json_number_or_null(b, SDT_VERIFY_REPORT_KEY_AFTER_SPREAD, f->after_spread);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void
sdt_verify_report_put_soak(JsonBuilder *b, const SdtVerifyReportEvidence *ev)
{
	json_builder_set_member_name(b, SDT_VERIFY_REPORT_KEY_SOAK);
	json_builder_begin_object(b);
	sdt_json_put_bool(b, SDT_VERIFY_REPORT_KEY_RAN, ev->soak_ran);
	sdt_json_put_int(b, SDT_VERIFY_REPORT_KEY_BYTES_WRITTEN, ev->soak_bytes_written);
	sdt_json_put_int(b, SDT_VERIFY_REPORT_KEY_BYTES_CHECKED, ev->soak_bytes_checked);
	sdt_json_put_int(b, SDT_VERIFY_REPORT_KEY_MISMATCHES, ev->soak_mismatches);
	sdt_json_int_or_null(b,
			     SDT_VERIFY_REPORT_KEY_FIRST_BAD,
			     ev->soak_first_bad_offset >= 0,
			     ev->soak_first_bad_offset);
	json_builder_end_object(b);
}

static void
sdt_verify_report_put_evidence(JsonBuilder *b, const SdtVerifyReportEvidence *ev)
{
	json_builder_set_member_name(b, SDT_VERIFY_REPORT_KEY_EVIDENCE);
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_BOOT_ID_THEN, ev->boot_id_then);
	sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_BOOT_ID, ev->boot_id);
	sdt_json_put_bool(b, SDT_VERIFY_REPORT_KEY_TRYBOOT_ACTIVE, ev->tryboot_active);
	sdt_json_put_bool(b, SDT_VERIFY_REPORT_KEY_CONFIG_EDITED, ev->config_edited);
	sdt_json_put_int(b, SDT_VERIFY_REPORT_KEY_ATTEMPTS_BEFORE, ev->attempts_before);
	json_builder_set_member_name(b, SDT_VERIFY_REPORT_KEY_CLOCK);
	json_builder_begin_object(b);
	sdt_json_put_int(b, SDT_VERIFY_REPORT_KEY_EXPECTED_HZ, ev->clock_expected_hz);
	sdt_json_put_int(b, SDT_VERIFY_REPORT_KEY_OBSERVED_HZ, ev->clock_observed_hz);
	json_builder_end_object(b);
	if (ev->cqe_expected != NULL) {
		json_builder_set_member_name(b, SDT_VERIFY_REPORT_KEY_CQE);
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_EXPECTED, ev->cqe_expected);
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_OBSERVED, ev->cqe_observed);
		json_builder_end_object(b);
	}
	sdt_json_put_strings(b, SDT_VERIFY_REPORT_KEY_LOG, ev->log);
	sdt_verify_report_put_soak(b, ev);
	sdt_verify_report_put_figures(b, ev->figures);
	json_builder_end_object(b);
}

static void
sdt_verify_report_put_action(JsonBuilder *b, const SdtVerifyReportAction *a)
{
	json_builder_set_member_name(b, SDT_VERIFY_REPORT_KEY_ACTION);
	if (a == NULL) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_WHAT, a->what);
	if (a->members & SDT_VERIFY_REPORT_ACTION_ERROR)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_ERROR, a->error);
	if (a->members & SDT_VERIFY_REPORT_ACTION_PATH)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_PATH, a->path);
	if (a->members & SDT_VERIFY_REPORT_ACTION_DIFF)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_DIFF, a->diff);
	if (a->members & SDT_VERIFY_REPORT_ACTION_BACKUP)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_BACKUP, a->backup);
	if (a->members & SDT_VERIFY_REPORT_ACTION_KEPT)
		sdt_json_put_strings(b, SDT_VERIFY_REPORT_KEY_KEPT, a->kept);
	if (a->members & SDT_VERIFY_REPORT_ACTION_WARNINGS)
		sdt_json_put_strings(b, SDT_VERIFY_REPORT_KEY_WARNINGS, a->warnings);
	if (a->members & SDT_VERIFY_REPORT_ACTION_TRIAL_CANCELLED)
		sdt_json_put_bool(b, SDT_VERIFY_REPORT_KEY_TRIAL_CANCELLED, a->trial_cancelled);
	json_builder_end_object(b);
}

/* pending, the change and the decision */
static void
sdt_verify_report_put_decision(JsonBuilder *b, const SdtVerifyReport *r)
{
	if (r->members & SDT_VERIFY_REPORT_PENDING)
		sdt_json_put_bool(b, SDT_VERIFY_REPORT_KEY_PENDING, r->pending);
	if (r->members & SDT_VERIFY_REPORT_ID)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_ID, r->id);
	if (r->members & SDT_VERIFY_REPORT_ORIGINAL_ID)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_ORIGINAL_ID, r->original_id);
	if (r->members & SDT_VERIFY_REPORT_STEP)
		sdt_json_put_int(b, SDT_VERIFY_REPORT_KEY_STEP, r->step);
	if (r->members & SDT_VERIFY_REPORT_TRIAL)
		sdt_json_put_bool(b, SDT_VERIFY_REPORT_KEY_TRIAL, r->trial);
	if (r->members & SDT_VERIFY_REPORT_DECISION)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_DECISION, r->decision);
	sdt_l10n_record_reason_write(b, r->reason);
	if (r->members & SDT_VERIFY_REPORT_NEXT_ID)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_NEXT_ID, r->next_id);
	/* a history entry's time comes last, with its kind */
	if ((r->members & SDT_VERIFY_REPORT_TIME) && !(r->members & SDT_VERIFY_REPORT_KIND))
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_TIME, r->time);
	if (r->members & SDT_VERIFY_REPORT_STOP)
		sdt_json_put_bool(b, SDT_VERIFY_REPORT_KEY_STOP, r->stop);
	if (r->members & SDT_VERIFY_REPORT_FOREIGN_CHANGE)
		sdt_json_put_bool(b, SDT_VERIFY_REPORT_KEY_FOREIGN_CHANGE, r->foreign_change);
}

JsonNode *
sdt_verify_report_to_json(const SdtVerifyReport *report)
{
	g_autoptr(JsonBuilder) b = NULL;
	const SdtVerifyReport *r = report;

	g_return_val_if_fail(report != NULL, NULL);

	b = json_builder_new();
	json_builder_begin_object(b);
	sdt_verify_report_put_decision(b, r);
	if (r->members & SDT_VERIFY_REPORT_IMPROVED)
		sdt_json_put_strings(b, SDT_VERIFY_REPORT_KEY_IMPROVED, r->improved);
	if (r->members & SDT_VERIFY_REPORT_WORSE)
		sdt_json_put_strings(b, SDT_VERIFY_REPORT_KEY_WORSE, r->worse);
	if ((r->members & SDT_VERIFY_REPORT_EVIDENCE) && r->evidence != NULL)
		sdt_verify_report_put_evidence(b, r->evidence);
	if (r->members & SDT_VERIFY_REPORT_DECIDED_AT)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_DECIDED_AT, r->decided_at);
	if (r->members & SDT_VERIFY_REPORT_ACTION)
		sdt_verify_report_put_action(b, r->action);
	if (r->members & SDT_VERIFY_REPORT_BOOT_ID)
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_BOOT_ID, r->boot_id);
	if (r->members & SDT_VERIFY_REPORT_KIND) {
		sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_KIND, r->kind);
		if (r->members & SDT_VERIFY_REPORT_TIME)
			sdt_json_string_or_null(b, SDT_VERIFY_REPORT_KEY_TIME, r->time);
	}
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_verify_report_to_string(const SdtVerifyReport *report)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	node = sdt_verify_report_to_json(report);
	/* the kernel log and config.txt may hold any bytes: the text is UTF-8 */
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}
