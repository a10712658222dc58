/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-l10n.h"
#include "sdt-loop-state.h"

void
sdt_loop_state_free(SdtLoopState *state)
{
	if (state == NULL)
		return;
	g_free(state->id);
	g_free(state->decision);
	g_free(state->decided_id);
	g_free(state->reason);
	g_free(state->time);
	g_free(state->failure);
	g_free(state);
}

/*
 * A trial waits for the restart until this boot used tryboot.txt; a change in
 * config.txt waits while status still says a reboot is pending.
 */
static SdtLoopPhase
sdt_loop_state_phase(const SdtStatusReport *status)
{
	if (status->pending_verification == NULL)
		return SDT_LOOP_IDLE;
	if (status->pending_verification->trial)
		return status->tryboot_active ? SDT_LOOP_VERIFYING : SDT_LOOP_PENDING;
	return status->reboot_pending ? SDT_LOOP_PENDING : SDT_LOOP_VERIFYING;
}

SdtLoopState *
sdt_loop_state_new(const SdtStatusReport *status)
{
	SdtLoopState *state = g_new0(SdtLoopState, 1);
	const SdtStatusReportPending *pending = status->pending_verification;
	const SdtVerifyReport *last = status->last_verification;

	state->phase = sdt_loop_state_phase(status);
	if (pending != NULL) {
		state->id = g_strdup(pending->id != NULL ? pending->id : "?");
		state->trial = pending->trial;
	}
	if (last != NULL && last->decision != NULL) {
		state->decision = g_strdup(last->decision);
		state->decided_id = g_strdup(last->id);
		state->reason = g_strdup(sdt_verify_report_reason(last));
		state->time = g_strdup(last->time);
		state->failure = g_strdup(sdt_loop_state_failure(last));
	}
	return state;
}

gchar *
sdt_loop_state_phase_text(const SdtLoopState *state)
{
	const gchar *id = state->id != NULL ? state->id : "?";

	if (state->phase == SDT_LOOP_PENDING && state->trial)
		/* Translators: %s is a recommendation id, e.g. sd-overclock-100 */
		return g_strdup_printf(_("The trial of %s is ready. Press Reboot Now: the next "
					 "start uses it once, and SD Tuner then checks it by "
					 "itself. If the Pi does not come up, switch it off and on "
					 "to start with the old settings."),
				       id);
	if (state->phase == SDT_LOOP_PENDING)
		/* Translators: %s is a recommendation id, e.g. sd-overclock-100 */
		return g_strdup_printf(_("%s is in config.txt. Press Reboot Now: SD Tuner then "
					 "checks it by itself and keeps it only if the card still "
					 "stores data correctly and got faster."),
				       id);
	if (state->phase == SDT_LOOP_VERIFYING)
		/* Translators: %s is a recommendation id, e.g. sd-overclock-100 */
		return g_strdup_printf(_("SD Tuner is checking %s since this start: that it took "
					 "effect, that the kernel reports no card errors, that "
					 "data reads back intact and that the card got faster. "
					 "This takes a few minutes."),
				       id);
	return NULL;
}

const gchar *
sdt_loop_state_failure(const SdtVerifyReport *v)
{
	if (v == NULL || v->action == NULL || g_strcmp0(v->action->what, "failed") != 0)
		return NULL;
	return v->action->error != NULL ? sdt_l10n_tr(v->action->error) : "";
}

gchar *
sdt_loop_state_decision_text(const gchar *decision,
			     const gchar *id,
			     const gchar *reason_shown,
			     const gchar *failure)
{
	const gchar *reason = reason_shown != NULL ? reason_shown : "";

	if (id == NULL)
		id = "?";
	/* a decision that could not be carried out is never told as done (issue 33) */
	if (failure != NULL && g_strcmp0(decision, "step-down") == 0)
		/* Translators: a recommendation id, then why the step-down failed with
		 * what to do (sentences) */
		return g_strdup_printf(_("SD Tuner could not step %s down after checking it (the "
					 "kernel log showed card errors at its clock): the setting "
					 "is still in place. %s"),
				       id,
				       failure);
	if (failure != NULL && g_strcmp0(decision, "undo") == 0)
		/* Translators: a recommendation id, why the undo failed with what to do,
		 * then the reason for undoing (sentences) */
		return g_strdup_printf(_("SD Tuner could not undo %s after checking it: the "
					 "setting is still in place. %s Why it was to be undone: "
					 "%s"),
				       id,
				       failure,
				       reason);
	if (failure != NULL && g_strcmp0(decision, "keep") == 0)
		/* Translators: a recommendation id, why keeping it failed with what to
		 * do, then the reason for keeping it (sentences) */
		return g_strdup_printf(_("SD Tuner decided to keep %s after checking it, but "
					 "could not: %s Why it was to be kept: %s"),
				       id,
				       failure,
				       reason);
	if (g_strcmp0(decision, "keep") == 0)
		/* Translators: a recommendation id, then the reason (a sentence) */
		return g_strdup_printf(_("SD Tuner kept %s after checking it. %s"), id, reason);
	if (g_strcmp0(decision, "step-down") == 0)
		/* Translators: a recommendation id, then the reason (a sentence) */
		return g_strdup_printf(_("SD Tuner stepped %s down after checking it. %s"),
				       id,
				       reason);
	if (g_strcmp0(decision, "undo") == 0)
		/* Translators: a recommendation id, then the reason (a sentence) */
		return g_strdup_printf(_("SD Tuner undid %s after checking it. %s"), id, reason);
	return NULL;
}

gchar *
sdt_loop_state_outcome_text(const SdtLoopState *state)
{
	return sdt_loop_state_decision_text(state->decision,
					    state->decided_id,
					    state->reason,
					    state->failure);
}
