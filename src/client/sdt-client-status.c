/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-json-strict.h"
#include "sdt-l10n-record.h"
#include "sdt-client-status.h"

void
sdt_client_status_verification_free(SdtClientVerification *v)
{
	if (v == NULL)
		return;
	g_free(v->id);
	g_free(v->decision);
	g_free(v->reason);
	g_free(v->reason_code);
	g_clear_pointer(&v->reason_args, json_array_unref);
	g_free(v->time);
	g_free(v->action);
	g_free(v->failure);
	g_free(v);
}

SdtClientVerification *
sdt_client_status_verification_from_json(JsonObject *obj, const gchar *where, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtClientVerification) v = g_new0(SdtClientVerification, 1);
	g_autofree gchar *at = where != NULL && *where != '\0' ? g_strdup_printf("%s.action", where)
							       : g_strdup("action");
	JsonObject *action = NULL;

	if (!sdt_json_strict_string(obj, where, "id", &v->id, error) ||
	    !sdt_json_strict_string(obj, where, "decision", &v->decision, error) ||
	    !sdt_json_strict_string(obj, where, "reason", &v->reason, error) ||
	    !sdt_json_strict_reason_code(obj, where, &v->reason_code, &v->reason_args, error) ||
	    !sdt_json_strict_string(obj, where, "time", &v->time, error) ||
	    !sdt_json_strict_object(obj, where, "action", &action, error))
		return NULL;
	/* what was done of the decision (issue 33: a step-down that failed is not one done) */
	if (action != NULL && (!sdt_json_strict_string(action, at, "what", &v->action, error) ||
			       !sdt_json_strict_string(action, at, "error", &v->failure, error)))
		return NULL;
	return g_steal_pointer(&v);
}

const gchar *
sdt_client_status_verification_reason(const SdtClientVerification *v)
{
	if (v == NULL || v->reason == NULL)
		return "";
	return sdt_l10n_record_reason_tr(v->reason_code, v->reason_args, v->reason);
}

const gchar *
sdt_client_status_pending_reason(const SdtClientStatus *s)
{
	if (s == NULL || s->pending_verification_reason == NULL)
		return "";
	return sdt_l10n_record_reason_tr(s->pending_verification_reason_code,
					 s->pending_verification_reason_args,
					 s->pending_verification_reason);
}

void
sdt_client_status_free(SdtClientStatus *status)
{
	if (status == NULL)
		return;
	g_free(status->path);
	g_free(status->error);
	g_free(status->id);
	g_free(status->filter);
	g_ptr_array_unref(status->lines);
	g_ptr_array_unref(status->disabled);
	g_free(status->verification);
	g_free(status->trial_id);
	g_free(status->trial_path);
	g_free(status->trial_reboot_command);
	g_free(status->pending_verification_id);
	g_free(status->pending_verification_decision);
	g_free(status->pending_verification_reason);
	g_free(status->pending_verification_reason_code);
	g_clear_pointer(&status->pending_verification_reason_args, json_array_unref);
	g_free(status->pending_verification_failure);
	g_free(status->pending_verification_damage);
	g_free(status->state_error);
	sdt_client_status_verification_free(status->last_verification);
	g_free(status->check_journal_damaged);
	g_free(status);
}

static gboolean
sdt_client_status_read_trial(JsonObject *obj, SdtClientStatus *s, GError **error)
{
	JsonObject *trial;

	if (!sdt_json_strict_object(obj, NULL, "trial", &trial, error))
		return FALSE;
	s->has_trial = trial != NULL;
	return sdt_json_strict_string(trial, "trial", "id", &s->trial_id, error) &&
	       sdt_json_strict_string(trial, "trial", "path", &s->trial_path, error) &&
	       sdt_json_strict_string(trial,
				      "trial",
				      "reboot_command",
				      &s->trial_reboot_command,
				      error);
}

static gboolean
sdt_client_status_read_verifications(JsonObject *obj, SdtClientStatus *s, GError **error)
{
	JsonObject *pending;
	JsonObject *last;

	if (!sdt_json_strict_object(obj, NULL, "pending_verification", &pending, error) ||
	    !sdt_json_strict_object(obj, NULL, "last_verification", &last, error))
		return FALSE;
	if (pending != NULL) {
		if (!sdt_json_strict_string(pending,
					    "pending_verification",
					    "id",
					    &s->pending_verification_id,
					    error))
			return FALSE;
		if (s->pending_verification_id == NULL)
			s->pending_verification_id = g_strdup("?");
		if (!sdt_json_strict_bool(pending,
					  "pending_verification",
					  "trial",
					  FALSE,
					  &s->pending_verification_trial,
					  error) ||
		    !sdt_json_strict_string(pending,
					    "pending_verification",
					    "decision",
					    &s->pending_verification_decision,
					    error) ||
		    !sdt_json_strict_string(pending,
					    "pending_verification",
					    "reason",
					    &s->pending_verification_reason,
					    error) ||
		    !sdt_json_strict_reason_code(pending,
						 "pending_verification",
						 &s->pending_verification_reason_code,
						 &s->pending_verification_reason_args,
						 error) ||
		    !sdt_json_strict_string(pending,
					    "pending_verification",
					    "error",
					    &s->pending_verification_failure,
					    error))
			return FALSE;
	}
	if (!sdt_json_strict_string(obj,
				    NULL,
				    "pending_verification_error",
				    &s->pending_verification_damage,
				    error) ||
	    !sdt_json_strict_string(obj, NULL, "state_error", &s->state_error, error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    "check_journal_damaged",
				    &s->check_journal_damaged,
				    error))
		return FALSE;
	if (last != NULL) {
		s->last_verification =
			sdt_client_status_verification_from_json(last, "last_verification", error);
		if (s->last_verification == NULL)
			return FALSE;
	}
	return TRUE;
}

SdtClientStatus *
sdt_client_status_from_json(JsonObject *obj, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtClientStatus) s = g_new0(SdtClientStatus, 1);

	s->lines = g_ptr_array_new_with_free_func(g_free);
	s->disabled = g_ptr_array_new_with_free_func(g_free);
	if (!sdt_json_strict_string(obj, NULL, "path", &s->path, error) ||
	    !sdt_json_strict_bool(obj, NULL, "damaged", FALSE, &s->damaged, error) ||
	    !sdt_json_strict_string(obj, NULL, "error", &s->error, error) ||
	    !sdt_json_strict_bool(obj, NULL, "applied", FALSE, &s->applied, error) ||
	    !sdt_json_strict_string(obj, NULL, "id", &s->id, error) ||
	    !sdt_json_strict_string(obj, NULL, "filter", &s->filter, error) ||
	    !sdt_json_strict_strings(obj, NULL, "lines", s->lines, error) ||
	    !sdt_json_strict_strings(obj, NULL, "disabled", s->disabled, error) ||
	    !sdt_json_strict_bool(obj, NULL, "verified", FALSE, &s->verified, error) ||
	    !sdt_json_strict_bool(obj, NULL, "failed", FALSE, &s->failed, error) ||
	    !sdt_json_strict_bool(obj, NULL, "reboot_pending", FALSE, &s->reboot_pending, error) ||
	    !sdt_json_strict_string(obj, NULL, "verification", &s->verification, error) ||
	    !sdt_client_status_read_trial(obj, s, error) ||
	    !sdt_json_strict_bool(obj, NULL, "tryboot_active", FALSE, &s->tryboot_active, error) ||
	    !sdt_client_status_read_verifications(obj, s, error))
		return NULL;
	return g_steal_pointer(&s);
}
