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
#include "sdt-ops-config.h"
#include "sdt-ops-private.h"
#include "sdt-ops.h"
#include "sdt-verify-pending.h"

/* `recommend`, `apply` and `revert`: the recommendation and SD Tuner's block in config.txt */

/* the recommendation for this board, card and config.txt */
static SdtRecommendResult *
sdt_ops_config_recommendation(SdtContext *ctx, GPtrArray *warnings, GError **error)
{
	g_autoptr(SdtInfo) info = sdt_info_collect(ctx, error);
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(GError) error_cfg = NULL;
	SdtRecommendFacts facts;
	SdtRecommendResult *result;

	if (info == NULL)
		return NULL;
	cfg = sdt_ops_facts_load_config(ctx, NULL, &error_cfg);
	if (cfg == NULL && warnings != NULL)
		g_ptr_array_add(warnings, g_strdup(error_cfg->message));
	sdt_ops_facts_recommend(&facts, info, cfg);
	result = sdt_recommend(&facts);
	return result;
}

JsonNode *
sdt_ops_config_recommend(SdtContext *ctx, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(SdtRecommendResult) result = sdt_ops_config_recommendation(ctx, warnings, error);
	JsonNode *node;
	JsonArray *notes;

	if (result == NULL)
		return NULL;
	node = sdt_recommend_result_to_json(result);
	/* without a readable config.txt nothing can be applied: say why first */
	notes = json_object_get_array_member(json_node_get_object(node), "notes");
	for (guint i = 0; i < warnings->len; i++)
		json_array_add_string_element(notes, g_ptr_array_index(warnings, i));
	return node;
}

/* a string member, or null */
static void
sdt_ops_config_set_string(JsonObject *obj, const gchar *name, const gchar *value)
{
	if (value != NULL)
		json_object_set_string_member(obj, name, value);
	else
		json_object_set_null_member(obj, name);
}

JsonObject *
sdt_ops_config_apply_reply(const SdtConfigApplyResult *result)
{
	JsonObject *obj;

	g_return_val_if_fail(result != NULL, NULL);
	obj = json_object_new();
	json_object_set_string_member(obj, "path", result->path);
	if (result->trial) {
		json_object_set_boolean_member(obj, "trial", TRUE);
		json_object_set_string_member(obj, "reboot_command", "sudo reboot '0 tryboot'");
	}
	json_object_set_string_member(obj, "id", result->id);
	json_object_set_string_member(obj, "diff", result->diff);
	sdt_ops_config_set_string(obj, "backup", result->backup);
	json_object_set_boolean_member(obj, "reboot_required", result->changed || result->trial);
	json_object_set_boolean_member(obj, "changed", result->changed);
	json_object_set_array_member(obj,
				     "disabled",
				     sdt_config_journal_array_from_strings(result->disabled));
	json_object_set_array_member(obj,
				     "warnings",
				     sdt_config_journal_array_from_strings(result->warnings));
	return obj;
}

/* how a trial was cancelled: the copies kept or put back */
static void
sdt_ops_config_set_tryboot(JsonObject *obj, const gchar *backup, const gchar *restored)
{
	if (backup != NULL)
		json_object_set_string_member(obj, "tryboot_backup", backup);
	if (restored != NULL)
		json_object_set_string_member(obj, "tryboot_restored", restored);
}

JsonObject *
sdt_ops_config_revert_reply(const SdtConfigApplyRevert *revert)
{
	JsonObject *obj;

	g_return_val_if_fail(revert != NULL, NULL);
	obj = json_object_new();
	sdt_ops_config_set_tryboot(obj, revert->tryboot_backup, revert->tryboot_restored);
	sdt_ops_config_set_string(obj, "id", revert->id);
	json_object_set_string_member(obj, "path", revert->path);
	json_object_set_string_member(obj, "diff", revert->diff);
	sdt_ops_config_set_string(obj, "backup", revert->backup);
	sdt_ops_config_set_string(obj, "backup_before_change", revert->backup_before_change);
	json_object_set_boolean_member(obj, "reboot_required", revert->reverted);
	json_object_set_boolean_member(obj, "trial_cancelled", revert->trial_cancelled);
	json_object_set_array_member(obj,
				     "restored",
				     sdt_config_journal_array_from_strings(revert->restored));
	json_object_set_array_member(obj,
				     "kept",
				     sdt_config_journal_array_from_strings(revert->kept));
	json_object_set_array_member(obj,
				     "warnings",
				     sdt_config_journal_array_from_strings(revert->warnings));
	return obj;
}

JsonObject *
sdt_ops_config_end_trial_reply(const SdtConfigApplyTrialEnd *end)
{
	JsonObject *obj;

	g_return_val_if_fail(end != NULL, NULL);
	obj = json_object_new();
	sdt_ops_config_set_tryboot(obj, end->tryboot_backup, end->tryboot_restored);
	json_object_set_boolean_member(obj, "trial_cancelled", end->trial_cancelled);
	json_object_set_array_member(obj,
				     "warnings",
				     sdt_config_journal_array_from_strings(end->warnings));
	return obj;
}

static JsonNode *
sdt_ops_config_node(JsonObject *obj)
{
	JsonNode *node = json_node_new(JSON_NODE_OBJECT);
	json_node_take_object(node, obj);
	return node;
}

static void
sdt_ops_config_history(SdtContext *ctx, const gchar *kind, JsonObject *result)
{
	g_autoptr(JsonObject) entry = json_object_new();
	g_autoptr(GError) error = NULL;
	const gchar *members[] = {"id", "path", "backup", "trial", "changed", "trial_cancelled"};

	for (guint i = 0; i < G_N_ELEMENTS(members); i++) {
		JsonNode *m = json_object_get_member(result, members[i]);
		if (m != NULL)
			json_object_set_member(entry, members[i], json_node_copy(m));
	}
	/* a revert: whether config.txt changed (a trial's cancel alone leaves it) */
	if (g_strcmp0(kind, "revert") == 0 && json_object_has_member(result, "diff"))
		json_object_set_boolean_member(
			entry,
			"changed",
			g_strcmp0(json_object_get_string_member(result, "diff"), "") != 0);
	sdt_ops_facts_history_mark_boot(ctx, entry);
	/* the change is made (a revert: the way back, never refused for its record);
	 * a history entry that cannot be written is said in the answer (issue 33) */
	if (!sdt_history_append(ctx, kind, entry, &error)) {
		JsonNode *n = json_object_get_member(result, "warnings");
		g_warning("%s", error->message);
		if (n == NULL || !JSON_NODE_HOLDS_ARRAY(n)) {
			json_object_set_array_member(result, "warnings", json_array_new());
			n = json_object_get_member(result, "warnings");
		}
		g_autofree gchar *lost = sdt_ops_facts_history_lost_warning(error->message);
		json_array_add_string_element(json_node_get_array(n), lost);
	}
}

/*
 * config.txt to apply to, read once under the lock (its bytes in @old): the
 * recommendation and the edit are made on it.  Refused when SD Tuner's block
 * in it is damaged.
 */
static SdtConfigTxt *
sdt_ops_apply_load(SdtContext *ctx, SdtConfigWriter **writer, GBytes **old, GError **error)
{
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autofree gchar *damage = NULL;

	*writer = sdt_config_writer_new(ctx, error);
	if (*writer == NULL)
		return NULL;
	cfg = sdt_config_writer_read(*writer, old, error);
	if (cfg == NULL)
		return NULL;
	/* a damaged block: the one diagnosis status and revert give too */
	damage = sdt_config_diagnose_block(cfg, sdt_config_writer_get_display_path(*writer));
	if (damage != NULL) {
		g_set_error_literal(error, SDT_ERROR, SDT_ERROR_INVALID_DATA, damage);
		return NULL;
	}
	return g_steal_pointer(&cfg);
}

/* the same change again: nothing to write; a reboot is still needed until it works */
static JsonNode *
sdt_ops_apply_unchanged(SdtConfigWriter *writer,
			const gchar *id,
			const SdtRecommendFacts *facts,
			const SdtInfo *info)
{
	g_autoptr(JsonObject) res = json_object_new();
	SdtVerifyStatusFacts sf;
	SdtVerifyStatus status;

	sdt_ops_facts_status(&sf, id, facts, info);
	sdt_verify_status_decide(&sf, &status);
	g_free(status.explanation);
	json_object_set_string_member(res, "id", id);
	json_object_set_string_member(res, "path", sdt_config_writer_get_display_path(writer));
	json_object_set_string_member(res, "diff", "");
	json_object_set_null_member(res, "backup");
	json_object_set_boolean_member(res, "reboot_required", !status.verified && !status.failed);
	json_object_set_boolean_member(res, "changed", FALSE);
	return sdt_ops_config_node(g_steal_pointer(&res));
}

/* the recommendation @id for these facts, if it may be applied this way */
static const SdtRecommendation *
sdt_ops_apply_find(SdtRecommendResult *result, const gchar *id, gboolean trial, GError **error)
{
	const SdtRecommendation *rec = sdt_recommend_result_find(result, id);

	if (rec == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("“%s” is not a recommendation for this board and card: run "
			      "“sdtunerctl recommend” to see what applies"),
			    id);
		return NULL;
	}
	if (rec->trial_only && !trial) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("“%s” is applied only as a one-boot trial, verified by a soak test "
			      "after the reboot: run “sdtunerctl apply %s --trial”"),
			    id,
			    id);
		return NULL;
	}
	return rec;
}

/* the pending record and the history entry an apply saves before it puts its file in place */
typedef struct {
	SdtContext *ctx;
	SdtVerifyPendingState *pending; /* NULL: a change that is not verified */
	GBytes *previous;               /* pending.json before (NULL: none) */
	gchar *target_sha256;           /* set once both are saved */
	gchar *history_name;            /* the history entry's file, once saved */
} SdtOpsApplyCommit;

/* the history entry of an apply, as sdt_ops_config_history() makes it from the answer */
static JsonObject *
sdt_ops_apply_history_entry(SdtContext *ctx,
			    SdtConfigWriter *writer,
			    const gchar *id,
			    gboolean trial,
			    const gchar *config_sha256,
			    const gchar *target_sha256)
{
	JsonObject *entry = json_object_new();
	g_autofree gchar *tryboot = trial ? sdt_config_trial_get_tryboot_display(writer) : NULL;

	json_object_set_string_member(entry, "id", id);
	json_object_set_string_member(entry,
				      "path",
				      trial ? tryboot : sdt_config_writer_get_display_path(writer));
	sdt_ops_config_set_string(entry, "backup", sdt_config_writer_get_commit_backup(writer));
	if (trial)
		json_object_set_boolean_member(entry, "trial", TRUE);
	/* a trial leaves config.txt; it differs from tryboot.txt unless already in it */
	json_object_set_boolean_member(entry,
				       "changed",
				       !trial || g_strcmp0(config_sha256, target_sha256) != 0);
	sdt_ops_facts_history_mark_boot(ctx, entry);
	return entry;
}

/* the pending record back as it was before this apply */
static void
sdt_ops_apply_restore_pending(SdtOpsApplyCommit *c)
{
	g_autoptr(GError) local = NULL;

	if (c->pending != NULL && !sdt_verify_pending_restore_raw(c->ctx, c->previous, &local))
		g_warning("%s", local->message);
}

static gboolean
sdt_ops_apply_commit(SdtConfigWriter *writer,
		     const gchar *id,
		     gboolean trial,
		     const gchar *config_sha256,
		     const gchar *target_sha256,
		     gpointer data,
		     GError **error)
{
	SdtOpsApplyCommit *c = data;
	g_autoptr(JsonObject) entry = NULL;

	if (c->pending != NULL) {
		g_free(c->pending->config_sha256);
		c->pending->config_sha256 = g_strdup(config_sha256);
	}
	/* the safety net is part of the change: without it nothing is written */
	if (c->pending != NULL && !sdt_verify_pending_save(c->ctx, c->pending, error)) {
		g_prefix_error(error,
			       _("SD Tuner changed nothing: the record that lets the change be "
				 "verified (and undone) after the restart could not be saved: "));
		return FALSE;
	}
	/* and so is its history entry (issue 33: with 4 KiB free it was lost with a
	 * warning on stderr, and the change done): status, the History page and
	 * the verification's outcome rest on it (docs/ARCHITECTURE.md) */
	entry = sdt_ops_apply_history_entry(c->ctx,
					    writer,
					    id,
					    trial,
					    config_sha256,
					    target_sha256);
	if (!sdt_history_append_named(c->ctx, "apply", entry, &c->history_name, error)) {
		g_prefix_error(error,
			       _("SD Tuner changed nothing: the history entry that records the "
				 "change could not be saved: "));
		sdt_ops_apply_restore_pending(c);
		return FALSE;
	}
	c->target_sha256 = g_strdup(target_sha256);
	return TRUE;
}

/*
 * An apply that failed after its pending record was saved: the previous record
 * comes back, unless the file was put in place after all (a journal that could
 * not be saved and a file that could not be taken back).
 */
static void
sdt_ops_apply_restore(SdtConfigWriter *writer, SdtOpsApplyCommit *c, gboolean trial)
{
	g_autoptr(GError) local = NULL;
	g_autofree gchar *now = NULL;

	if (c->target_sha256 == NULL)
		return;
	if (trial) {
		gboolean exists = FALSE;
		g_autoptr(GBytes) bytes = sdt_config_trial_read_tryboot(writer, &exists, NULL);
		now = bytes != NULL ? sdt_config_writer_hash(bytes) : NULL;
	} else {
		now = sdt_config_writer_hash_config(writer);
	}
	if (g_strcmp0(now, c->target_sha256) == 0)
		return;
	sdt_ops_apply_restore_pending(c);
	/* nor is it in the history */
	if (c->history_name != NULL && !sdt_history_remove_entry(c->ctx, c->history_name, &local))
		g_warning("%s", local->message);
}

static void
sdt_ops_apply_add_warnings(JsonObject *res, GPtrArray *warnings)
{
	JsonNode *n = json_object_get_member(res, "warnings");
	if (n == NULL || !JSON_NODE_HOLDS_ARRAY(n)) {
		json_object_set_array_member(res, "warnings", json_array_new());
		n = json_object_get_member(res, "warnings");
	}
	for (guint i = 0; i < warnings->len; i++)
		json_array_add_string_element(json_node_get_array(n),
					      g_ptr_array_index(warnings, i));
}

/* the block of @rec, pointing into it */
static void
sdt_ops_apply_block(SdtConfigBlock *block, const SdtRecommendation *rec, const gchar **lines)
{
	for (guint i = 0; i < rec->lines->len; i++)
		lines[i] = g_ptr_array_index(rec->lines, i);
	block->id = rec->id;
	block->filter = rec->filter;
	block->lines = lines;
	block->type_code = rec->type_code;
	block->replaces = rec->replaces;
}

/*
 * Writes the block of @rec (into tryboot.txt for a @trial) with its pending
 * record, on config.txt as read (@cfg, @old)
 */
static JsonObject *
sdt_ops_apply_write(SdtContext *ctx,
		    SdtConfigWriter *writer,
		    SdtConfigTxt *cfg,
		    GBytes *old,
		    const SdtRecommendation *rec,
		    gboolean trial,
		    GError **error)
{
	g_autofree const gchar **lines = g_new0(const gchar *, rec->lines->len + 1);
	/* the config.txt the "before" figures must have been measured under */
	g_autofree gchar *running = sdt_ops_facts_running_sha256_of(ctx, old);
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(SdtVerifyPendingState) pending = NULL;
	g_autoptr(GBytes) previous = sdt_verify_pending_read_raw(ctx);
	SdtOpsApplyCommit c = {ctx, NULL, previous, NULL, NULL};
	SdtConfigBlock block = {NULL};
	g_autoptr(SdtConfigApplyResult) done = NULL;
	JsonObject *res;

	sdt_ops_apply_block(&block, rec, lines);
	/* verified after the next boot (sdt_ops_verify()) */
	pending = sdt_ops_verify_record_pending_new(ctx,
						    rec->id,
						    trial,
						    block.type_code,
						    block.filter,
						    block.replaces,
						    running,
						    warnings);
	c.pending = pending;
	sdt_config_writer_set_commit(writer, sdt_ops_apply_commit, &c);
	done = sdt_config_apply_write(writer, cfg, old, &block, trial, error);
	sdt_config_writer_set_commit(writer, NULL, NULL);
	if (done == NULL)
		sdt_ops_apply_restore(writer, &c, trial);
	g_free(c.target_sha256);
	g_free(c.history_name);
	if (done == NULL)
		return NULL;
	res = sdt_ops_config_apply_reply(done);
	/* its history entry was saved with the pending record, before the file */
	if (done->changed || trial)
		sdt_ops_apply_add_warnings(res, warnings);
	return res;
}

JsonNode *
sdt_ops_config_apply(SdtContext *ctx, const gchar *id, gboolean trial, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtInfo) info = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtRecommendResult) result = NULL;
	g_autofree gchar *current = NULL;
	const SdtRecommendation *rec;
	SdtRecommendFacts facts;
	JsonObject *res;

	g_return_val_if_fail(id != NULL, NULL);
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	/* one read of config.txt under the lock: the facts, the recommendation and
	 * the edit are all made on it, and the write refuses if it changed since */
	cfg = sdt_ops_apply_load(ctx, &writer, &old, error);
	if (cfg == NULL)
		return NULL;
	info = sdt_info_collect(ctx, error);
	if (info == NULL)
		return NULL;
	sdt_ops_facts_recommend(&facts, info, cfg);
	current = sdt_ops_facts_block_id_here(cfg, info);
	if (!trial && g_strcmp0(current, id) == 0)
		return sdt_ops_apply_unchanged(writer, id, &facts, info);

	result = sdt_recommend(&facts);
	rec = sdt_ops_apply_find(result, id, trial, error);
	if (rec == NULL)
		return NULL;
	res = sdt_ops_apply_write(ctx, writer, cfg, old, rec, trial, error);
	return res != NULL ? sdt_ops_config_node(res) : NULL;
}

JsonNode *
sdt_ops_config_revert(SdtContext *ctx, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(ctx, error);
	g_autoptr(SdtConfigApplyRevert) done = NULL;
	g_autoptr(JsonObject) res = NULL;

	if (writer == NULL)
		return NULL;
	done = sdt_config_apply_revert(writer, error);
	if (done == NULL)
		return NULL;
	res = sdt_ops_config_revert_reply(done);
	sdt_ops_config_history(ctx, "revert", res);
	/* nothing of SD Tuner's left to verify */
	{
		g_autoptr(GError) local = NULL;
		if (!sdt_verify_pending_remove(ctx, &local))
			g_warning("%s", local->message);
	}
	return sdt_ops_config_node(g_steal_pointer(&res));
}
