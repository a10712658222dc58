/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-config-answer.h"
#include "sdt-config-apply.h"
#include "sdt-config-trial.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-ops-config.h"
#include "sdt-ops-private.h"
#include "sdt-ops.h"
#include "sdt-recommend-report.h"
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

/* the decision's recommendation as the wire's (sdt-recommend-report.h) */
static SdtRecommendReportItem *
sdt_ops_config_report_item(const SdtRecommendation *rec)
{
	SdtRecommendReportItem *item = sdt_recommend_report_item_new();

	item->id = g_strdup(rec->id);
	item->title = g_strdup(rec->title);
	for (guint i = 0; i < rec->lines->len; i++)
		g_ptr_array_add(item->lines, g_strdup(g_ptr_array_index(rec->lines, i)));
	item->filter = g_strdup(rec->filter);
	item->reason = g_strdup(rec->reason);
	item->expected_effect = g_strdup(rec->expected_effect);
	item->risk = g_strdup(rec->risk);
	item->trial_only = rec->trial_only;
	item->expected_clock_hz = (gint64) rec->expected_clock_hz;
	return item;
}

static SdtRecommendReport *
sdt_ops_config_report(const SdtRecommendResult *result)
{
	SdtRecommendReport *report = sdt_recommend_report_new();

	for (guint i = 0; i < result->recommendations->len; i++)
		g_ptr_array_add(
			report->recommendations,
			sdt_ops_config_report_item(g_ptr_array_index(result->recommendations, i)));
	for (guint i = 0; i < result->notes->len; i++)
		g_ptr_array_add(report->notes, g_strdup(g_ptr_array_index(result->notes, i)));
	report->not_tuned = g_strdup(result->not_tuned);
	if (result->core_clock_mhz > 0) {
		report->core_clock_hz = (gint64) result->core_clock_mhz * 1000000;
		report->core_clock_source = g_strdup(
			sdt_recommend_core_clock_source_to_string(result->core_clock_source));
		report->core_clock_detail = g_strdup(result->core_clock_detail);
	}
	return report;
}

gchar *
sdt_ops_config_recommend(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(SdtRecommendResult) result = NULL;
	g_autoptr(SdtRecommendReport) report = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	result = sdt_ops_config_recommendation(ctx, warnings, error);
	if (result == NULL)
		return NULL;
	report = sdt_ops_config_report(result);
	/* without a readable config.txt nothing can be applied: say why (after the notes) */
	for (guint i = 0; i < warnings->len; i++)
		g_ptr_array_add(report->notes, g_strdup(g_ptr_array_index(warnings, i)));
	return sdt_recommend_report_to_string(report);
}

/* a copy of @strings (NULL: none) */
static GPtrArray *
sdt_ops_config_strings(GPtrArray *strings)
{
	GPtrArray *copy = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; strings != NULL && i < strings->len; i++)
		g_ptr_array_add(copy, g_strdup(g_ptr_array_index(strings, i)));
	return copy;
}

SdtConfigAnswerApply *
sdt_ops_config_apply_answer(const SdtConfigApplyResult *result)
{
	SdtConfigAnswerApply *a = NULL;

	g_return_val_if_fail(result != NULL, NULL);

	a = sdt_config_answer_apply_new();
	a->path = g_strdup(result->path);
	a->trial = result->trial;
	if (result->trial)
		a->reboot_command = g_strdup("sudo reboot '0 tryboot'");
	a->id = g_strdup(result->id);
	a->diff = g_strdup(result->diff);
	a->backup = g_strdup(result->backup);
	a->reboot_required = result->changed || result->trial;
	a->changed = result->changed;
	a->disabled = sdt_ops_config_strings(result->disabled);
	a->warnings = sdt_ops_config_strings(result->warnings);
	return a;
}

SdtConfigAnswerRevert *
sdt_ops_config_revert_answer(const SdtConfigApplyRevert *revert)
{
	SdtConfigAnswerRevert *r = NULL;

	g_return_val_if_fail(revert != NULL, NULL);

	r = sdt_config_answer_revert_new();
	r->tryboot_backup = g_strdup(revert->tryboot_backup);
	r->tryboot_restored = g_strdup(revert->tryboot_restored);
	r->id = g_strdup(revert->id);
	r->path = g_strdup(revert->path);
	r->diff = g_strdup(revert->diff);
	r->backup = g_strdup(revert->backup);
	r->backup_before_change = g_strdup(revert->backup_before_change);
	r->reboot_required = revert->reverted;
	r->trial_cancelled = revert->trial_cancelled;
	g_ptr_array_extend_and_steal(r->restored, sdt_ops_config_strings(revert->restored));
	g_ptr_array_extend_and_steal(r->kept, sdt_ops_config_strings(revert->kept));
	g_ptr_array_extend_and_steal(r->warnings, sdt_ops_config_strings(revert->warnings));
	return r;
}

/* the history entry of a revert (id, path, backup, trial_cancelled, changed, boot_id) */
static void
sdt_ops_config_history(SdtContext *ctx, SdtConfigAnswerRevert *answer)
{
	g_autofree gchar *boot_id = sdt_context_get_boot_id(ctx, NULL);
	g_autoptr(SdtHistoryEntry) history = sdt_history_entry_new_revert(answer, boot_id);
	g_autoptr(GError) error = NULL;

	/* the change is made (the way back, never refused for its record); a
	 * history entry that cannot be written is said in the answer (issue 33) */
	if (!sdt_history_append(ctx, history, NULL, &error)) {
		g_warning("%s", error->message);
		g_ptr_array_add(answer->warnings,
				sdt_ops_facts_history_lost_warning(error->message));
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
static gchar *
sdt_ops_apply_unchanged(SdtConfigWriter *writer,
			const gchar *id,
			const SdtRecommendFacts *facts,
			const SdtInfo *info)
{
	g_autoptr(SdtConfigAnswerApply) res = sdt_config_answer_apply_new();
	SdtVerifyStatusFacts sf;
	SdtVerifyStatus status;

	sdt_ops_facts_status(&sf, id, facts, info);
	sdt_verify_status_decide(&sf, &status);
	g_free(status.explanation);
	/* no lists: the answer of a block found in place */
	res->id = g_strdup(id);
	res->path = g_strdup(sdt_config_writer_get_display_path(writer));
	res->diff = g_strdup("");
	res->reboot_required = !status.verified && !status.failed;
	res->changed = FALSE;
	return sdt_config_answer_apply_to_string(res);
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
	const SdtOpsApplyReads *reads;  /* the boot id and the history, read once */
	SdtVerifyPendingState *pending; /* NULL: a change that is not verified */
	GBytes *previous;               /* pending.json before (NULL: none) */
	gchar *target_sha256;           /* set once both are saved */
	gchar *history_name;            /* the history entry's file, once saved */
} SdtOpsApplyCommit;

/* the history entry of an apply, as sdt_ops_config_history() makes it from the answer */
static SdtHistoryEntry *
sdt_ops_apply_history_entry(const gchar *boot_id,
			    SdtConfigWriter *writer,
			    const gchar *id,
			    gboolean trial,
			    const gchar *config_sha256,
			    const gchar *target_sha256)
{
	g_autoptr(SdtConfigAnswerApply) a = sdt_config_answer_apply_new();

	a->id = g_strdup(id);
	a->path = trial ? sdt_config_trial_get_tryboot_display(writer)
			: g_strdup(sdt_config_writer_get_display_path(writer));
	a->backup = g_strdup(sdt_config_writer_get_commit_backup(writer));
	a->trial = trial;
	/* a trial leaves config.txt; it differs from tryboot.txt unless already in it */
	a->changed = !trial || g_strcmp0(config_sha256, target_sha256) != 0;
	return sdt_history_entry_new_apply(a, boot_id);
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
	g_autoptr(SdtHistoryEntry) history = NULL;

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
	history = sdt_ops_apply_history_entry(c->reads->boot_id,
					      writer,
					      id,
					      trial,
					      config_sha256,
					      target_sha256);
	if (!sdt_history_append(c->ctx, history, &c->history_name, error)) {
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
 * record, on config.txt as read (@cfg, @old).  The boot id and the history
 * are read here once (issue 36): the running config.txt, the pending record,
 * the history entry and the writer's journal all take them from @reads.
 */
static SdtConfigAnswerApply *
sdt_ops_apply_write(SdtContext *ctx,
		    SdtConfigWriter *writer,
		    SdtConfigTxt *cfg,
		    GBytes *old,
		    const SdtRecommendation *rec,
		    gboolean trial,
		    GError **error)
{
	g_autofree const gchar **lines = g_new0(const gchar *, rec->lines->len + 1);
	g_autofree gchar *boot_id = sdt_context_get_boot_id(ctx, NULL);
	g_autoptr(GPtrArray) history = sdt_history_entries(ctx, NULL, NULL);
	const SdtOpsApplyReads reads = {boot_id, history};
	/* the config.txt the "before" figures must have been measured under */
	g_autofree gchar *running = sdt_ops_facts_running_sha256_of(ctx, old, &reads);
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(SdtVerifyPendingState) pending = NULL;
	g_autoptr(GBytes) previous = sdt_verify_pending_read_raw(ctx);
	SdtOpsApplyCommit c = {ctx, &reads, NULL, previous, NULL, NULL};
	SdtConfigBlock block = {NULL};
	g_autoptr(SdtConfigApplyResult) done = NULL;
	SdtConfigAnswerApply *res;

	sdt_ops_apply_block(&block, rec, lines);
	/* verified after the next boot (sdt_ops_verify()) */
	pending = sdt_ops_verify_record_pending_new(ctx,
						    rec->id,
						    trial,
						    block.type_code,
						    block.filter,
						    block.replaces,
						    running,
						    &reads,
						    warnings);
	c.pending = pending;
	sdt_config_writer_set_boot_id(writer, boot_id);
	sdt_config_writer_set_commit(writer, sdt_ops_apply_commit, &c);
	done = sdt_config_apply_write(writer, cfg, old, &block, trial, error);
	sdt_config_writer_set_commit(writer, NULL, NULL);
	if (done == NULL)
		sdt_ops_apply_restore(writer, &c, trial);
	g_free(c.target_sha256);
	g_free(c.history_name);
	if (done == NULL)
		return NULL;
	res = sdt_ops_config_apply_answer(done);
	/* its history entry was saved with the pending record, before the file */
	if (done->changed || trial)
		g_ptr_array_extend_and_steal(res->warnings, g_steal_pointer(&warnings));
	return res;
}

gchar *
sdt_ops_config_apply(SdtContext *ctx, const gchar *id, gboolean trial, GError **error)
{
	g_autoptr(SdtInfo) info = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtRecommendResult) result = NULL;
	g_autofree gchar *current = NULL;
	g_autoptr(SdtConfigAnswerApply) res = NULL;
	const SdtRecommendation *rec;
	SdtRecommendFacts facts;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(id != NULL, NULL);

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
	return res != NULL ? sdt_config_answer_apply_to_string(res) : NULL;
}

gchar *
sdt_ops_config_revert(SdtContext *ctx, GError **error)
{
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigApplyRevert) done = NULL;
	g_autoptr(SdtConfigAnswerRevert) res = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	writer = sdt_config_writer_new(ctx, error);
	if (writer == NULL)
		return NULL;
	done = sdt_config_apply_revert(writer, error);
	if (done == NULL)
		return NULL;
	res = sdt_ops_config_revert_answer(done);
	sdt_ops_config_history(ctx, res);
	/* nothing of SD Tuner's left to verify */
	{
		g_autoptr(GError) local = NULL;
		if (!sdt_verify_pending_remove(ctx, &local))
			g_warning("%s", local->message);
	}
	return sdt_config_answer_revert_to_string(res);
}
