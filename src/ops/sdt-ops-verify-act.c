/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-config-apply.h"
#include "sdt-config-journal.h"
#include "sdt-config-trial.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-l10n-record.h"
#include "sdt-ops-private.h"
#include "sdt-ops-verify-private.h"
#include "sdt-verify-pending.h"

/*
 * `verify`'s action: keep, step down or undo, carried out in steps that a kill
 * at any point leaves for the next run to finish (issue 23 item 4).  The
 * decision is recorded in pending.json ("decided") before the first step; a
 * run that finds it finishes that action and decides nothing again.  Each
 * step first looks whether it is done already:
 *   keep of a trial: the block into config.txt, then tryboot.txt away;
 *   step down: the next step's block into the file of the change;
 *   undo: the revert (nothing left to revert is done);
 * then the history entry (once per decision), then the pending record (the
 * next step's, or none).  An action that fails is recorded too (history and
 * pending.json), with what to do; the next boot tries it again.
 */

/* the members of an apply worth keeping as evidence of what was done */
static SdtVerifyReportAction *
sdt_ops_verify_action_applied(const gchar *what, const SdtConfigApplyResult *res)
{
	SdtVerifyReportAction *a = sdt_verify_report_action_new(what);

	if (res == NULL)
		return a;
	a->members |= SDT_VERIFY_REPORT_ACTION_PATH | SDT_VERIFY_REPORT_ACTION_DIFF |
		      SDT_VERIFY_REPORT_ACTION_BACKUP | SDT_VERIFY_REPORT_ACTION_WARNINGS;
	a->path = g_strdup(res->path);
	a->diff = g_strdup(res->diff);
	a->backup = g_strdup(res->backup);
	for (guint i = 0; i < res->warnings->len; i++)
		g_ptr_array_add(a->warnings, g_strdup(g_ptr_array_index(res->warnings, i)));
	return a;
}

/* the block SD Tuner writes for @id, as the pending state recorded it */
static SdtConfigApplyResult *
sdt_ops_verify_apply(SdtConfigWriter *writer,
		     const SdtVerifyPendingState *p,
		     const gchar *id,
		     gboolean trial,
		     GError **error)
{
	g_autofree gchar *line = sdt_verify_pending_setting_line(id);
	const gchar *lines[] = {line, NULL};
	SdtConfigBlock block = {NULL};

	block.id = g_intern_string(id);
	block.filter = p->filter;
	block.lines = lines;
	block.type_code = p->type_code;
	block.replaces = (SdtConfigSdKind) p->replaces;
	return sdt_config_apply(writer, &block, trial, error);
}

/* the id of SD Tuner's block in config.txt (@trial: tryboot.txt), or NULL */
gchar *
sdt_ops_verify_act_block_id(SdtConfigWriter *writer, gboolean trial)
{
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtConfigTrialState) t = NULL;

	if (trial) {
		t = sdt_config_trial_get(writer, NULL);
		return t != NULL ? g_steal_pointer(&t->id) : NULL;
	}
	cfg = sdt_config_writer_load(writer, NULL, NULL);
	return cfg != NULL ? sdt_config_sd_get_block_id(cfg) : NULL;
}

/*
 * Edits of tryboot.txt by hand during the trial (issue 23 item 8): the file
 * SD Tuner wrote is config.txt as the trial was built from it plus the block,
 * which is what config.txt is once the block is in; anything else is named
 * with its diff, and the copy the end of the trial keeps of it.
 */
static gchar *
sdt_ops_verify_tryboot_edits(SdtConfigWriter *writer)
{
	g_autoptr(SdtConfigJournalDocTrial) journal = NULL;
	g_autoptr(GBytes) tryboot = NULL;
	g_autoptr(GBytes) config = NULL;
	g_autofree gchar *hash = NULL;
	g_autofree gchar *display = sdt_config_trial_get_tryboot_display(writer);
	gboolean exists = FALSE;

	if (!sdt_config_journal_read_trial(writer, &journal, NULL) || journal == NULL)
		return NULL;
	tryboot = sdt_config_trial_read_tryboot(writer, &exists, NULL);
	if (tryboot == NULL)
		return NULL;
	hash = sdt_config_writer_hash(tryboot);
	if (g_strcmp0(hash, journal->tryboot_sha256) == 0)
		return NULL;
	if (sdt_config_writer_load(writer, &config, NULL) == NULL)
		return NULL;
	return sdt_config_diff_unified(display, config, tryboot);
}

/* keep: a trial's block into config.txt, then tryboot.txt goes */
static SdtVerifyReportAction *
sdt_ops_verify_keep(SdtConfigWriter *writer, const SdtVerifyPendingState *p, GError **error)
{
	g_autoptr(SdtConfigApplyResult) res = NULL;
	g_autoptr(SdtConfigApplyTrialEnd) end = NULL;
	g_autofree gchar *in_config = NULL;
	g_autofree gchar *edits = NULL;
	g_autofree gchar *tryboot = sdt_config_trial_get_tryboot_display(writer);
	SdtVerifyReportAction *action;

	if (!p->trial)
		return sdt_verify_report_action_new("kept");
	in_config = sdt_ops_verify_act_block_id(writer, FALSE);
	if (g_strcmp0(in_config, p->id) != 0) {
		res = sdt_ops_verify_apply(writer, p, p->id, FALSE, error);
		if (res == NULL)
			return NULL;
	}
	edits = sdt_ops_verify_tryboot_edits(writer);
	end = sdt_config_apply_end_trial(writer, error);
	if (end == NULL)
		return NULL;
	action = sdt_ops_verify_action_applied("kept", res);
	action->members |= SDT_VERIFY_REPORT_ACTION_TRIAL_CANCELLED;
	action->trial_cancelled = end->trial_cancelled;
	if (edits != NULL && *edits != '\0') {
		g_autofree gchar *warning = g_strdup_printf(
			/* Translators: a file path, a backup path, then a diff */
			_("%s was edited by hand during the trial; those edits are not "
			  "in config.txt. SD Tuner kept a copy in %s; what differed:\n%s"),
			tryboot,
			end->tryboot_backup != NULL ? end->tryboot_backup : "?",
			edits);
		sdt_verify_report_action_warn(action, warning);
	}
	return action;
}

/* step down: the next divisor step is written, unless it is already there */
static SdtVerifyReportAction *
sdt_ops_verify_step_down(SdtConfigWriter *writer,
			 const SdtVerifyPendingState *p,
			 const gchar *next_id,
			 GError **error)
{
	g_autoptr(SdtConfigApplyResult) res = NULL;
	g_autofree gchar *there = sdt_ops_verify_act_block_id(writer, p->trial);

	if (g_strcmp0(there, next_id) != 0) {
		res = sdt_ops_verify_apply(writer, p, next_id, p->trial, error);
		if (res == NULL)
			return NULL;
	}
	return sdt_ops_verify_action_applied("stepped-down", res);
}

/* the pending record of the next step, after a step down to @next_id */
static gboolean
sdt_ops_verify_save_next(SdtContext *ctx,
			 SdtConfigWriter *writer,
			 SdtVerifyPendingState *p,
			 const gchar *next_id,
			 const SdtVerifyReport *why,
			 const gchar *boot_now,
			 GError **error)
{
	/* the reason as stored: English, its code and arguments */
	sdt_verify_pending_state_add_step(p, p->id, "step-down", why->reason);
	g_free(p->id);
	p->id = g_strdup(next_id);
	p->step++;
	g_free(p->boot_id);
	p->boot_id = g_strdup(boot_now);
	p->attempts = 0;
	g_strfreev(p->tries);
	p->tries = g_new0(gchar *, 1);
	g_free(p->config_sha256);
	p->config_sha256 = sdt_config_writer_hash_config(writer);
	g_free(p->time);
	p->time = sdt_ops_verify_record_now_iso(ctx);
	g_clear_pointer(&p->decided, sdt_verify_pending_state_decided_free);
	return sdt_verify_pending_save(ctx, p, error);
}

/* undo: SD Tuner's lines go (nothing else); nothing left to revert is done */
static SdtVerifyReportAction *
sdt_ops_verify_undo(SdtConfigWriter *writer, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(SdtConfigApplyRevert) done = sdt_config_apply_revert(writer, &local);
	SdtVerifyReportAction *a;

	if (done == NULL && !g_error_matches(local, SDT_ERROR, SDT_ERROR_NOT_FOUND)) {
		g_propagate_error(error, g_steal_pointer(&local));
		return NULL;
	}
	if (done == NULL)
		return sdt_verify_report_action_new("nothing-to-revert");
	a = sdt_verify_report_action_new("reverted");
	a->members |= SDT_VERIFY_REPORT_ACTION_PATH | SDT_VERIFY_REPORT_ACTION_DIFF |
		      SDT_VERIFY_REPORT_ACTION_BACKUP | SDT_VERIFY_REPORT_ACTION_KEPT |
		      SDT_VERIFY_REPORT_ACTION_WARNINGS | SDT_VERIFY_REPORT_ACTION_TRIAL_CANCELLED;
	a->path = g_strdup(done->path);
	a->diff = g_strdup(done->diff);
	a->backup = g_strdup(done->backup);
	for (guint i = 0; i < done->kept->len; i++)
		g_ptr_array_add(a->kept, g_strdup(g_ptr_array_index(done->kept, i)));
	for (guint i = 0; i < done->warnings->len; i++)
		g_ptr_array_add(a->warnings, g_strdup(g_ptr_array_index(done->warnings, i)));
	a->trial_cancelled = done->trial_cancelled;
	return a;
}

/* the history already has this entry (a run killed after writing it) */
static gboolean
sdt_ops_verify_recorded(SdtContext *ctx, const SdtVerifyReport *out)
{
	g_autoptr(SdtVerifyReport) last = sdt_ops_verify_record_last_entry(ctx);
	const SdtVerifyReportAction *a = out->action;
	const SdtVerifyReportAction *la = last != NULL ? last->action : NULL;
	const gchar *what = a != NULL && a->what != NULL ? a->what : "";

	if (last == NULL || la == NULL ||
	    g_strcmp0(last->decided_at, out->decided_at != NULL ? out->decided_at : "") != 0)
		return FALSE;
	/* the same failure again is not news; an action done once is done */
	if (g_strcmp0(what, "failed") == 0)
		return g_strcmp0(la->error, a->error != NULL ? a->error : "") == 0;
	return g_strcmp0(la->what != NULL ? la->what : "", "failed") != 0;
}

gboolean
sdt_ops_verify_act_history_append(SdtContext *ctx, SdtVerifyReport *entry, GError **error)
{
	g_autoptr(SdtHistoryEntry) history = NULL;
	g_autofree gchar *boot_id = NULL;
	gboolean ok;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	/* the boot it was decided in, when known */
	boot_id = sdt_context_get_boot_id(ctx, NULL);
	if (boot_id != NULL) {
		g_free(entry->boot_id);
		entry->boot_id = g_steal_pointer(&boot_id);
		entry->members |= SDT_VERIFY_REPORT_BOOT_ID;
	}
	history = sdt_history_entry_new_verify(entry);
	ok = sdt_history_append(ctx, history, NULL, error);
	/* the envelope the history gave it (kind, time), saved or not */
	if (history->time != NULL) {
		g_free(entry->kind);
		g_free(entry->time);
		entry->kind = g_strdup(history->kind);
		entry->time = g_strdup(history->time);
		entry->members |= SDT_VERIFY_REPORT_KIND | SDT_VERIFY_REPORT_TIME;
	}
	return ok;
}

/* the result without "pending" goes into the history as "verify", once */
static void
sdt_ops_verify_history(SdtContext *ctx, SdtVerifyReport *out)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(SdtVerifyReport) entry = NULL;

	if (sdt_ops_verify_recorded(ctx, out))
		return;
	entry = sdt_verify_report_copy(out);
	entry->members &= ~(guint) SDT_VERIFY_REPORT_PENDING;
	/* never refused for it (the way back): said in the answer (issue 33) */
	if (!sdt_ops_verify_act_history_append(ctx, entry, &local)) {
		g_warning("%s", local->message);
		if (out->action != NULL) {
			g_autofree gchar *lost = sdt_ops_facts_history_lost_warning(local->message);
			sdt_verify_report_action_warn(out->action, lost);
		}
	}
}

/* what the user can do when the action of decision @decision failed */
static const gchar *
sdt_ops_verify_way_out(const gchar *decision)
{
	if (g_strcmp0(decision, "undo") == 0)
		return _("Run “sdtunerctl revert” (it says what stands in its way), or "
			 "remove SD Tuner's block from config.txt by hand; SD Tuner tries "
			 "again at the next restart.");
	return _("Run “sdtunerctl status” to see where it stands, and "
		 "“sdtunerctl revert” to take the change back; SD Tuner tries "
		 "again at the next restart.");
}

/*
 * The action failed: the decision stays recorded (pending.json and the
 * history say "undo needed" and why it could not be done), @error says what
 * to do (issue 23 item 2).
 */
static void
sdt_ops_verify_failed(SdtContext *ctx,
		      SdtVerifyPendingState *p,
		      SdtVerifyReport *out,
		      GError **error)
{
	g_autoptr(GError) local = g_steal_pointer(error);
	g_autoptr(GError) save = NULL;
	const gchar *decision = out->decision != NULL ? out->decision : "";
	/* Translators: an error, then what the user can do */
	g_autofree gchar *failure =
		g_strdup_printf(_("%s. %s"), local->message, sdt_ops_verify_way_out(decision));
	SdtVerifyReportAction *a = sdt_verify_report_action_new("failed");

	a->members |= SDT_VERIFY_REPORT_ACTION_ERROR;
	a->error = g_strdup(failure);
	sdt_verify_report_set_action(out, a);
	if (p != NULL && p->decided != NULL) {
		g_free(p->decided->error);
		p->decided->error = g_strdup(failure);
		/* the result as recorded, with what became of it */
		sdt_verify_report_free(p->decided->result);
		p->decided->result = sdt_verify_report_copy(out);
		if (!sdt_verify_pending_save(ctx, p, &save))
			g_warning("%s", save->message);
	}
	sdt_ops_verify_history(ctx, out);
	g_set_error(error,
		    SDT_ERROR,
		    local->code,
		    /* Translators: the decision ("undo", "keep", "step-down"), its
		     * reason, then the error with what the user can do */
		    _("SD Tuner decided “%s” (%s), but could not carry it out: %s"),
		    decision,
		    out->reason != NULL && out->reason->text != NULL ? out->reason->text : "",
		    failure);
}

gboolean
sdt_ops_verify_act(SdtContext *ctx,
		   SdtConfigWriter *writer,
		   SdtVerifyPendingState *p,
		   SdtVerifyDecision decision,
		   const gchar *next_id,
		   const gchar *boot_now,
		   SdtVerifyReport *out,
		   GError **error)
{
	SdtVerifyReportAction *action;
	gboolean done;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	if (decision == SDT_VERIFY_KEEP)
		action = sdt_ops_verify_keep(writer, p, error);
	else if (decision == SDT_VERIFY_STEP_DOWN)
		action = sdt_ops_verify_step_down(writer, p, next_id, error);
	else
		action = sdt_ops_verify_undo(writer, error);
	if (action == NULL) {
		sdt_ops_verify_failed(ctx, p, out, error);
		return FALSE;
	}
	sdt_verify_report_set_action(out, action);
	sdt_ops_verify_history(ctx, out);
	if (decision == SDT_VERIFY_STEP_DOWN)
		done = sdt_ops_verify_save_next(ctx, writer, p, next_id, out, boot_now, error);
	else
		done = sdt_verify_pending_remove(ctx, error);
	return done;
}

void
sdt_ops_verify_act_failed(SdtContext *ctx, SdtVerifyReport *out, GError *failure, GError **error)
{
	GError *local = failure;

	g_return_if_fail(error == NULL || *error == NULL);
	g_return_if_fail(failure != NULL);

	/* it used to assert that the failure it is given was not set: a
	 * GLib-CRITICAL instead of the answer (issue 33) */
	sdt_ops_verify_failed(ctx, NULL, out, &local);
	g_propagate_error(error, local);
}
