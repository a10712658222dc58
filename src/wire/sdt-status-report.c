/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-json-strict-private.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-status-report.h"
#include "sdt-status-report-private.h"
#include "sdt-l10n-record-private.h"
#include "sdt-verify-report-private.h"

#define SDT_STATUS_REPORT_KEY_PATH                 "path"
#define SDT_STATUS_REPORT_KEY_DAMAGED              "damaged"
#define SDT_STATUS_REPORT_KEY_ERROR                "error"
#define SDT_STATUS_REPORT_KEY_APPLIED              "applied"
#define SDT_STATUS_REPORT_KEY_ID                   "id"
#define SDT_STATUS_REPORT_KEY_LINES                "lines"
#define SDT_STATUS_REPORT_KEY_FILTER               "filter"
#define SDT_STATUS_REPORT_KEY_DISABLED             "disabled"
#define SDT_STATUS_REPORT_KEY_FOR_THIS_BOARD       "for_this_board"
#define SDT_STATUS_REPORT_KEY_VERIFIED             "verified"
#define SDT_STATUS_REPORT_KEY_FAILED               "failed"
#define SDT_STATUS_REPORT_KEY_REBOOT_PENDING       "reboot_pending"
#define SDT_STATUS_REPORT_KEY_VERIFICATION         "verification"
#define SDT_STATUS_REPORT_KEY_TRIAL                "trial"
#define SDT_STATUS_REPORT_KEY_TRIAL_ERROR          "trial_error"
#define SDT_STATUS_REPORT_KEY_TRYBOOT_ACTIVE       "tryboot_active"
#define SDT_STATUS_REPORT_KEY_APPLIED_AT           "applied_at"
#define SDT_STATUS_REPORT_KEY_BACKUP               "backup"
#define SDT_STATUS_REPORT_KEY_PENDING_VERIFICATION "pending_verification"
#define SDT_STATUS_REPORT_KEY_STATE_ERROR          "state_error"
#define SDT_STATUS_REPORT_KEY_PENDING_ERROR        "pending_verification_error"
#define SDT_STATUS_REPORT_KEY_LAST_VERIFICATION    "last_verification"
#define SDT_STATUS_REPORT_KEY_CHECK_JOURNAL        "check_journal_damaged"

#define SDT_STATUS_REPORT_KEY_REBOOT_COMMAND "reboot_command"
#define SDT_STATUS_REPORT_KEY_STALE          "stale"
#define SDT_STATUS_REPORT_KEY_NOTE           "note"
#define SDT_STATUS_REPORT_KEY_ORIGINAL_ID    "original_id"
#define SDT_STATUS_REPORT_KEY_STEP           "step"
#define SDT_STATUS_REPORT_KEY_ATTEMPTS       "attempts"
#define SDT_STATUS_REPORT_KEY_SINCE          "since"
#define SDT_STATUS_REPORT_KEY_DECISION       "decision"

SdtStatusReportTrial *
sdt_status_report_trial_new(void)
{
	return g_new0(SdtStatusReportTrial, 1);
}

static void
sdt_status_report_trial_free(SdtStatusReportTrial *t)
{
	if (t == NULL)
		return;
	g_free(t->id);
	g_free(t->path);
	g_free(t->reboot_command);
	g_free(t->note);
	g_free(t);
}

SdtStatusReportPending *
sdt_status_report_pending_new(void)
{
	return g_new0(SdtStatusReportPending, 1);
}

static void
sdt_status_report_pending_free(SdtStatusReportPending *p)
{
	if (p == NULL)
		return;
	g_free(p->id);
	g_free(p->original_id);
	g_free(p->since);
	g_free(p->decision);
	sdt_l10n_record_reason_free(p->reason);
	g_free(p->error);
	g_free(p);
}

SdtStatusReport *
sdt_status_report_new(void)
{
	SdtStatusReport *s = g_new0(SdtStatusReport, 1);

	s->lines = g_ptr_array_new_with_free_func(g_free);
	s->disabled = g_ptr_array_new_with_free_func(g_free);
	return s;
}

void
sdt_status_report_free(SdtStatusReport *s)
{
	if (s == NULL)
		return;
	g_free(s->path);
	g_free(s->error);
	g_free(s->id);
	g_ptr_array_unref(s->lines);
	g_free(s->filter);
	g_ptr_array_unref(s->disabled);
	g_free(s->verification);
	sdt_status_report_trial_free(s->trial);
	g_free(s->trial_error);
	g_free(s->applied_at);
	g_free(s->backup);
	sdt_status_report_pending_free(s->pending_verification);
	g_free(s->state_error);
	g_free(s->pending_verification_error);
	sdt_verify_report_free(s->last_verification);
	g_free(s->check_journal_damaged);
	g_free(s);
}

const gchar *
sdt_status_report_pending_reason(const SdtStatusReport *report)
{
	if (report == NULL || report->pending_verification == NULL)
		return "";
	return sdt_l10n_record_reason_shown(report->pending_verification->reason);
}

/* the reading direction: absent or null is unknown, a wrong type an error */

static void
sdt_status_report_mark(JsonObject *obj, const gchar *key, guint bit, guint *members)
{
	if (json_object_has_member(obj, key))
		*members |= bit;
}

static gboolean
sdt_status_report_read_trial(JsonObject *obj, SdtStatusReport *s, GError **error)
{
	JsonObject *o = NULL;
	const gchar *at = SDT_STATUS_REPORT_KEY_TRIAL;
	SdtStatusReportTrial *t;

	if (!sdt_json_strict_object(obj, NULL, at, &o, error))
		return FALSE;
	if (o == NULL)
		return TRUE;
	t = s->trial = sdt_status_report_trial_new();
	return sdt_json_strict_string(o, at, SDT_STATUS_REPORT_KEY_ID, &t->id, error) &&
	       sdt_json_strict_string(o, at, SDT_STATUS_REPORT_KEY_PATH, &t->path, error) &&
	       sdt_json_strict_string(o,
				      at,
				      SDT_STATUS_REPORT_KEY_REBOOT_COMMAND,
				      &t->reboot_command,
				      error) &&
	       sdt_json_strict_bool(o, at, SDT_STATUS_REPORT_KEY_STALE, FALSE, &t->stale, error) &&
	       sdt_json_strict_string(o, at, SDT_STATUS_REPORT_KEY_NOTE, &t->note, error);
}

static gboolean
sdt_status_report_read_pending(JsonObject *obj, SdtStatusReport *s, GError **error)
{
	JsonObject *o = NULL;
	const gchar *at = SDT_STATUS_REPORT_KEY_PENDING_VERIFICATION;
	SdtStatusReportPending *p;

	if (!sdt_json_strict_object(obj, NULL, at, &o, error))
		return FALSE;
	if (o == NULL)
		return TRUE;
	p = s->pending_verification = sdt_status_report_pending_new();
	return sdt_json_strict_string(o, at, SDT_STATUS_REPORT_KEY_ID, &p->id, error) &&
	       sdt_json_strict_string(o,
				      at,
				      SDT_STATUS_REPORT_KEY_ORIGINAL_ID,
				      &p->original_id,
				      error) &&
	       sdt_json_strict_int(o, at, SDT_STATUS_REPORT_KEY_STEP, 0, &p->step, error) &&
	       sdt_json_strict_bool(o, at, SDT_STATUS_REPORT_KEY_TRIAL, FALSE, &p->trial, error) &&
	       sdt_json_strict_int(o, at, SDT_STATUS_REPORT_KEY_ATTEMPTS, 0, &p->attempts, error) &&
	       sdt_json_strict_string(o, at, SDT_STATUS_REPORT_KEY_SINCE, &p->since, error) &&
	       sdt_json_strict_string(o, at, SDT_STATUS_REPORT_KEY_DECISION, &p->decision, error) &&
	       sdt_l10n_record_reason_read(o, at, &p->reason, error) &&
	       sdt_json_strict_string(o, at, SDT_STATUS_REPORT_KEY_ERROR, &p->error, error);
}

static gboolean
sdt_status_report_read_verifications(JsonObject *obj, SdtStatusReport *s, GError **error)
{
	JsonObject *last = NULL;

	if (!sdt_status_report_read_pending(obj, s, error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_STATE_ERROR,
				    &s->state_error,
				    error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_PENDING_ERROR,
				    &s->pending_verification_error,
				    error) ||
	    !sdt_json_strict_object(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_LAST_VERIFICATION,
				    &last,
				    error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_CHECK_JOURNAL,
				    &s->check_journal_damaged,
				    error))
		return FALSE;
	if (last != NULL) {
		s->last_verification =
			sdt_verify_report_from_json_at(last,
						       SDT_STATUS_REPORT_KEY_LAST_VERIFICATION,
						       error);
		if (s->last_verification == NULL)
			return FALSE;
	}
	return TRUE;
}

static void
sdt_status_report_read_members(JsonObject *obj, SdtStatusReport *s)
{
	JsonNode *verified = json_object_get_member(obj, SDT_STATUS_REPORT_KEY_VERIFIED);

	sdt_status_report_mark(obj,
			       SDT_STATUS_REPORT_KEY_LINES,
			       SDT_STATUS_REPORT_BLOCK,
			       &s->members);
	sdt_status_report_mark(obj,
			       SDT_STATUS_REPORT_KEY_FOR_THIS_BOARD,
			       SDT_STATUS_REPORT_FOR_THIS_BOARD,
			       &s->members);
	sdt_status_report_mark(obj,
			       SDT_STATUS_REPORT_KEY_TRIAL_ERROR,
			       SDT_STATUS_REPORT_TRIAL_ERROR,
			       &s->members);
	sdt_status_report_mark(obj,
			       SDT_STATUS_REPORT_KEY_APPLIED_AT,
			       SDT_STATUS_REPORT_APPLIED_AT,
			       &s->members);
	sdt_status_report_mark(obj,
			       SDT_STATUS_REPORT_KEY_STATE_ERROR,
			       SDT_STATUS_REPORT_STATE_ERROR,
			       &s->members);
	sdt_status_report_mark(obj,
			       SDT_STATUS_REPORT_KEY_PENDING_ERROR,
			       SDT_STATUS_REPORT_PENDING_ERROR,
			       &s->members);
	s->verified_known = verified != NULL && !JSON_NODE_HOLDS_NULL(verified);
}

static gboolean
sdt_status_report_read_block(JsonObject *obj, SdtStatusReport *s, GError **error)
{
	return sdt_json_strict_string(obj, NULL, SDT_STATUS_REPORT_KEY_PATH, &s->path, error) &&
	       sdt_json_strict_bool(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_DAMAGED,
				    FALSE,
				    &s->damaged,
				    error) &&
	       sdt_json_strict_string(obj, NULL, SDT_STATUS_REPORT_KEY_ERROR, &s->error, error) &&
	       sdt_json_strict_bool(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_APPLIED,
				    FALSE,
				    &s->applied,
				    error) &&
	       sdt_json_strict_string(obj, NULL, SDT_STATUS_REPORT_KEY_ID, &s->id, error) &&
	       sdt_json_strict_strings(obj, NULL, SDT_STATUS_REPORT_KEY_LINES, s->lines, error) &&
	       sdt_json_strict_string(obj, NULL, SDT_STATUS_REPORT_KEY_FILTER, &s->filter, error) &&
	       sdt_json_strict_strings(obj,
				       NULL,
				       SDT_STATUS_REPORT_KEY_DISABLED,
				       s->disabled,
				       error) &&
	       sdt_json_strict_bool(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_FOR_THIS_BOARD,
				    FALSE,
				    &s->for_this_board,
				    error) &&
	       sdt_json_strict_bool(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_VERIFIED,
				    FALSE,
				    &s->verified,
				    error) &&
	       sdt_json_strict_bool(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_FAILED,
				    FALSE,
				    &s->failed,
				    error) &&
	       sdt_json_strict_bool(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_REBOOT_PENDING,
				    FALSE,
				    &s->reboot_pending,
				    error) &&
	       sdt_json_strict_string(obj,
				      NULL,
				      SDT_STATUS_REPORT_KEY_VERIFICATION,
				      &s->verification,
				      error);
}

SdtStatusReport *
sdt_status_report_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtStatusReport) s = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	s = sdt_status_report_new();
	sdt_status_report_read_members(obj, s);
	if (!sdt_status_report_read_block(obj, s, error) ||
	    !sdt_status_report_read_trial(obj, s, error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_TRIAL_ERROR,
				    &s->trial_error,
				    error) ||
	    !sdt_json_strict_bool(obj,
				  NULL,
				  SDT_STATUS_REPORT_KEY_TRYBOOT_ACTIVE,
				  FALSE,
				  &s->tryboot_active,
				  error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    SDT_STATUS_REPORT_KEY_APPLIED_AT,
				    &s->applied_at,
				    error) ||
	    !sdt_json_strict_string(obj, NULL, SDT_STATUS_REPORT_KEY_BACKUP, &s->backup, error) ||
	    !sdt_status_report_read_verifications(obj, s, error))
		return NULL;
	return g_steal_pointer(&s);
}

SdtStatusReport *
sdt_status_report_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_status_report_from_json(json_node_get_object(root), error);
}

/* the writing direction: in the order status has always written */

/* SD Tuner's block in config.txt */
static void
sdt_status_report_put_block(JsonBuilder *b, const SdtStatusReport *s)
{
	sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_PATH, s->path);
	if (!(s->members & SDT_STATUS_REPORT_BLOCK)) {
		/* config.txt could not be read */
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_ERROR, s->error);
		sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_DAMAGED, s->damaged);
		sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_APPLIED, s->applied);
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_ID, s->id);
		sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_REBOOT_PENDING, s->reboot_pending);
		sdt_json_bool_or_null(b,
				      SDT_STATUS_REPORT_KEY_VERIFIED,
				      s->verified_known,
				      s->verified);
		return;
	}
	sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_DAMAGED, s->damaged);
	sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_ERROR, s->error);
	sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_APPLIED, s->applied);
	sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_ID, s->id);
	sdt_json_put_strings(b, SDT_STATUS_REPORT_KEY_LINES, s->lines);
	sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_FILTER, s->filter);
	sdt_json_put_strings(b, SDT_STATUS_REPORT_KEY_DISABLED, s->disabled);
	if (s->members & SDT_STATUS_REPORT_FOR_THIS_BOARD)
		sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_FOR_THIS_BOARD, s->for_this_board);
	sdt_json_bool_or_null(b, SDT_STATUS_REPORT_KEY_VERIFIED, s->verified_known, s->verified);
	sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_FAILED, s->failed);
	sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_REBOOT_PENDING, s->reboot_pending);
	sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_VERIFICATION, s->verification);
}

static void
sdt_status_report_put_trial(JsonBuilder *b, const SdtStatusReport *s)
{
	const SdtStatusReportTrial *t = s->trial;
	gboolean trial_error = (s->members & SDT_STATUS_REPORT_TRIAL_ERROR) != 0;

	/* the error of a trial that could not be read comes before its null */
	if (t == NULL && trial_error)
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_TRIAL_ERROR, s->trial_error);
	json_builder_set_member_name(b, SDT_STATUS_REPORT_KEY_TRIAL);
	if (t == NULL) {
		json_builder_add_null_value(b);
	} else {
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_ID, t->id);
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_PATH, t->path);
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_REBOOT_COMMAND, t->reboot_command);
		sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_STALE, t->stale);
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_NOTE, t->note);
		json_builder_end_object(b);
		if (trial_error)
			sdt_json_string_or_null(b,
						SDT_STATUS_REPORT_KEY_TRIAL_ERROR,
						s->trial_error);
	}
	sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_TRYBOOT_ACTIVE, s->tryboot_active);
	if (s->members & SDT_STATUS_REPORT_APPLIED_AT) {
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_APPLIED_AT, s->applied_at);
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_BACKUP, s->backup);
	}
}

static void
sdt_status_report_put_pending(JsonBuilder *b, const SdtStatusReportPending *p)
{
	json_builder_set_member_name(b, SDT_STATUS_REPORT_KEY_PENDING_VERIFICATION);
	if (p == NULL) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_ID, p->id);
	sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_ORIGINAL_ID, p->original_id);
	json_builder_set_member_name(b, SDT_STATUS_REPORT_KEY_STEP);
	json_builder_add_int_value(b, p->step);
	sdt_json_put_bool(b, SDT_STATUS_REPORT_KEY_TRIAL, p->trial);
	json_builder_set_member_name(b, SDT_STATUS_REPORT_KEY_ATTEMPTS);
	json_builder_add_int_value(b, p->attempts);
	sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_SINCE, p->since);
	/* a decision taken and not carried out to the end (issue 23 item 2) */
	if (p->decision != NULL) {
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_DECISION, p->decision);
		sdt_l10n_record_reason_write(b, p->reason);
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_ERROR, p->error);
	}
	json_builder_end_object(b);
}

static void
sdt_status_report_put_verifications(JsonBuilder *b, const SdtStatusReport *s)
{
	sdt_status_report_put_pending(b, s->pending_verification);
	if (s->members & SDT_STATUS_REPORT_STATE_ERROR)
		sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_STATE_ERROR, s->state_error);
	if (s->members & SDT_STATUS_REPORT_PENDING_ERROR)
		sdt_json_string_or_null(b,
					SDT_STATUS_REPORT_KEY_PENDING_ERROR,
					s->pending_verification_error);
	json_builder_set_member_name(b, SDT_STATUS_REPORT_KEY_LAST_VERIFICATION);
	if (s->last_verification != NULL)
		json_builder_add_value(b, sdt_verify_report_to_json(s->last_verification));
	else
		json_builder_add_null_value(b);
	sdt_json_string_or_null(b, SDT_STATUS_REPORT_KEY_CHECK_JOURNAL, s->check_journal_damaged);
}

JsonNode *
sdt_status_report_to_json(const SdtStatusReport *report)
{
	g_autoptr(JsonBuilder) b = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	b = json_builder_new();
	json_builder_begin_object(b);
	sdt_status_report_put_block(b, report);
	sdt_status_report_put_trial(b, report);
	sdt_status_report_put_verifications(b, report);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_status_report_to_string(const SdtStatusReport *report)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	node = sdt_status_report_to_json(report);
	/* config.txt may hold any bytes: the text is UTF-8 */
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}
