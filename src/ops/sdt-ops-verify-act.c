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
#include "sdt-ops-config.h"
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

/* the block SD Tuner writes for @id, as the pending state recorded it */
static JsonObject *
sdt_ops_verify_apply(SdtConfigWriter *writer,
		     const SdtVerifyPending *p,
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
	{
		g_autoptr(SdtConfigApplyResult) done =
			sdt_config_apply(writer, &block, trial, error);
		return done != NULL ? sdt_ops_config_apply_reply(done) : NULL;
	}
}

/* the members of a writer result worth keeping as evidence of what was done */
static JsonObject *
sdt_ops_verify_action(const gchar *what, JsonObject *res)
{
	JsonObject *a = json_object_new();
	const gchar *members[] = {"path", "diff", "backup", "kept", "warnings", "trial_cancelled"};

	json_object_set_string_member(a, "what", what);
	for (guint i = 0; res != NULL && i < G_N_ELEMENTS(members); i++) {
		JsonNode *m = json_object_get_member(res, members[i]);
		if (m != NULL)
			json_object_set_member(a, members[i], json_node_copy(m));
	}
	return a;
}

/* the id of SD Tuner's block in config.txt (@trial: tryboot.txt), or NULL */
gchar *
sdt_ops_verify_act_block_id(SdtConfigWriter *writer, gboolean trial)
{
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(JsonObject) t = NULL;

	if (trial) {
		t = sdt_config_trial_get(writer, NULL);
		return t != NULL ? g_strdup(json_object_get_string_member(t, "id")) : NULL;
	}
	cfg = sdt_config_writer_load(writer, NULL, NULL);
	return cfg != NULL ? sdt_config_sd_get_block_id(cfg) : NULL;
}

/* adds @text to the "warnings" array of @obj */
static void
sdt_ops_verify_warn(JsonObject *obj, gchar *text)
{
	JsonNode *n = json_object_get_member(obj, "warnings");

	if (n == NULL || !JSON_NODE_HOLDS_ARRAY(n)) {
		json_object_set_array_member(obj, "warnings", json_array_new());
		n = json_object_get_member(obj, "warnings");
	}
	json_array_add_string_element(json_node_get_array(n), text);
	g_free(text);
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
	g_autoptr(JsonObject) journal = NULL;
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
	if (g_strcmp0(hash, json_object_get_string_member(journal, "tryboot_sha256")) == 0)
		return NULL;
	if (sdt_config_writer_load(writer, &config, NULL) == NULL)
		return NULL;
	return sdt_config_diff_unified(display, config, tryboot);
}

/* keep: a trial's block into config.txt, then tryboot.txt goes */
static JsonObject *
sdt_ops_verify_keep(SdtConfigWriter *writer, const SdtVerifyPending *p, GError **error)
{
	g_autoptr(JsonObject) res = NULL;
	g_autoptr(SdtConfigApplyTrialEnd) end_result = NULL;
	g_autoptr(JsonObject) end = NULL;
	g_autofree gchar *in_config = NULL;
	g_autofree gchar *edits = NULL;
	g_autofree gchar *tryboot = sdt_config_trial_get_tryboot_display(writer);
	JsonObject *action;

	if (!p->trial)
		return sdt_ops_verify_action("kept", NULL);
	in_config = sdt_ops_verify_act_block_id(writer, FALSE);
	if (g_strcmp0(in_config, p->id) != 0) {
		res = sdt_ops_verify_apply(writer, p, p->id, FALSE, error);
		if (res == NULL)
			return NULL;
	}
	edits = sdt_ops_verify_tryboot_edits(writer);
	end_result = sdt_config_apply_end_trial(writer, error);
	if (end_result == NULL)
		return NULL;
	end = sdt_ops_config_end_trial_reply(end_result);
	action = sdt_ops_verify_action("kept", res);
	json_object_set_boolean_member(action,
				       "trial_cancelled",
				       json_object_get_boolean_member(end, "trial_cancelled"));
	if (edits != NULL && *edits != '\0')
		sdt_ops_verify_warn(
			action,
			g_strdup_printf(
				/* Translators: a file path, a backup path, then a diff */
				_("%s was edited by hand during the trial; those edits are not "
				  "in config.txt. SD Tuner kept a copy in %s; what differed:\n%s"),
				tryboot,
				json_object_get_string_member_with_default(end,
									   "tryboot_backup",
									   "?"),
				edits));
	return action;
}

/* step down: the next divisor step is written, unless it is already there */
static JsonObject *
sdt_ops_verify_step_down(SdtConfigWriter *writer,
			 const SdtVerifyPending *p,
			 const gchar *next_id,
			 GError **error)
{
	g_autoptr(JsonObject) res = NULL;
	g_autofree gchar *there = sdt_ops_verify_act_block_id(writer, p->trial);

	if (g_strcmp0(there, next_id) != 0) {
		res = sdt_ops_verify_apply(writer, p, next_id, p->trial, error);
		if (res == NULL)
			return NULL;
	}
	return sdt_ops_verify_action("stepped-down", res);
}

/* the pending record of the next step, after a step down to @next_id */
static gboolean
sdt_ops_verify_save_next(SdtContext *ctx,
			 SdtConfigWriter *writer,
			 SdtVerifyPending *p,
			 const gchar *next_id,
			 JsonObject *why,
			 const gchar *boot_now,
			 GError **error)
{
	JsonObject *step = json_object_new();

	json_object_set_string_member(step, "id", p->id);
	json_object_set_string_member(step, "decision", "step-down");
	/* the reason as stored: English, its code and arguments */
	sdt_l10n_record_reason_copy(step, why);
	json_array_add_object_element(p->steps, step);
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
	g_clear_pointer(&p->decided, json_object_unref);
	return sdt_verify_pending_save(ctx, p, error);
}

/* undo: SD Tuner's lines go (nothing else); nothing left to revert is done */
static JsonObject *
sdt_ops_verify_undo(SdtConfigWriter *writer, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(SdtConfigApplyRevert) done = sdt_config_apply_revert(writer, &local);
	g_autoptr(JsonObject) res = done != NULL ? sdt_ops_config_revert_reply(done) : NULL;

	if (res == NULL && !g_error_matches(local, SDT_ERROR, SDT_ERROR_NOT_FOUND)) {
		g_propagate_error(error, g_steal_pointer(&local));
		return NULL;
	}
	return sdt_ops_verify_action(res != NULL ? "reverted" : "nothing-to-revert", res);
}

/* the history already has this entry (a run killed after writing it) */
static gboolean
sdt_ops_verify_recorded(SdtContext *ctx, JsonObject *out)
{
	g_autoptr(JsonArray) history = sdt_history_list(ctx, NULL);
	JsonObject *last = sdt_ops_verify_record_last_entry(history);
	JsonObject *a = sdt_ops_verify_record_obj(out, "action");
	JsonObject *la = last != NULL ? sdt_ops_verify_record_obj(last, "action") : NULL;
	const gchar *what =
		a != NULL ? json_object_get_string_member_with_default(a, "what", "") : "";

	if (last == NULL || la == NULL ||
	    g_strcmp0(json_object_get_string_member_with_default(last, "decided_at", NULL),
		      json_object_get_string_member_with_default(out, "decided_at", "")) != 0)
		return FALSE;
	/* the same failure again is not news; an action done once is done */
	if (g_strcmp0(what, "failed") == 0)
		return g_strcmp0(json_object_get_string_member_with_default(la, "error", NULL),
				 json_object_get_string_member_with_default(a, "error", "")) == 0;
	return g_strcmp0(json_object_get_string_member_with_default(la, "what", ""), "failed") != 0;
}

/* the result without "pending" goes into the history as "verify", once */
static void
sdt_ops_verify_history(SdtContext *ctx, JsonObject *out)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(JsonObject) entry = json_object_new();
	g_autoptr(GList) names = json_object_get_members(out);

	if (sdt_ops_verify_recorded(ctx, out))
		return;
	for (GList *l = names; l != NULL; l = l->next) {
		if (g_strcmp0(l->data, "pending") != 0)
			json_object_set_member(
				entry,
				l->data,
				json_node_copy(json_object_get_member(out, l->data)));
	}
	sdt_ops_facts_history_mark_boot(ctx, entry);
	/* never refused for it (the way back): said in the answer (issue 33) */
	if (!sdt_history_append(ctx, "verify", entry, &local)) {
		JsonObject *a = sdt_ops_verify_record_obj(out, "action");
		g_warning("%s", local->message);
		if (a != NULL)
			sdt_ops_verify_warn(a, sdt_ops_facts_history_lost_warning(local->message));
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
sdt_ops_verify_failed(SdtContext *ctx, SdtVerifyPending *p, JsonObject *out, GError **error)
{
	g_autoptr(GError) local = g_steal_pointer(error);
	g_autoptr(GError) save = NULL;
	const gchar *decision = json_object_get_string_member_with_default(out, "decision", "");
	/* Translators: an error, then what the user can do */
	g_autofree gchar *failure =
		g_strdup_printf(_("%s. %s"), local->message, sdt_ops_verify_way_out(decision));
	JsonObject *a = json_object_new();

	json_object_set_string_member(a, "what", "failed");
	json_object_set_string_member(a, "error", failure);
	json_object_set_object_member(out, "action", a);
	if (p != NULL && p->decided != NULL) {
		json_object_set_string_member(p->decided, "error", failure);
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
		    json_object_get_string_member_with_default(out, "reason", ""),
		    failure);
}

gboolean
sdt_ops_verify_act(SdtContext *ctx,
		   SdtConfigWriter *writer,
		   SdtVerifyPending *p,
		   SdtVerifyDecision decision,
		   const gchar *next_id,
		   const gchar *boot_now,
		   JsonObject *out,
		   GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	JsonObject *action;
	gboolean done;

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
	json_object_set_object_member(out, "action", action);
	sdt_ops_verify_history(ctx, out);
	if (decision == SDT_VERIFY_STEP_DOWN)
		done = sdt_ops_verify_save_next(ctx, writer, p, next_id, out, boot_now, error);
	else
		done = sdt_verify_pending_remove(ctx, error);
	return done;
}

void
sdt_ops_verify_act_failed(SdtContext *ctx, JsonObject *out, GError *failure, GError **error)
{
	g_return_if_fail(error == NULL || *error == NULL);
	GError *local = failure;

	g_return_if_fail(failure != NULL);
	/* it used to assert that the failure it is given was not set: a
	 * GLib-CRITICAL instead of the answer (issue 33) */
	sdt_ops_verify_failed(ctx, NULL, out, &local);
	g_propagate_error(error, local);
}
