/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-check.h"
#include "sdt-config-apply.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-kmsg.h"
#include "sdt-l10n-record.h"
#include "sdt-ops-private.h"
#include "sdt-ops-verify-private.h"
#include "sdt-state-lock.h"
#include "sdt-verify-pending.h"

/* `verify`: after a reboot, decide on the pending change and act (keep, step down, undo) */

gchar *
sdt_ops_verify_stage_describe(SdtOpsVerifyStage stage, gdouble fraction)
{
	guint percent = (guint) (CLAMP(fraction, 0.0, 1.0) * 100 + 0.5);

	switch (stage) {
	case SDT_OPS_VERIFY_STAGE_LOG:
		return g_strdup(_("Checking the kernel log and the SD bus since the restart…"));
	case SDT_OPS_VERIFY_STAGE_BENCHMARK:
		/* Translators: a percentage; %% is the percent sign */
		return g_strdup_printf(_("Benchmark: %u %% done"), percent);
	case SDT_OPS_VERIFY_STAGE_SOAK:
	default:
		/* Translators: a percentage; %% is the percent sign */
		return g_strdup_printf(_("Soak test: %u %% done"), percent);
	}
}

static void
sdt_ops_verify_progress(const SdtOpsVerifyOptions *options,
			SdtOpsVerifyStage stage,
			gdouble fraction)
{
	if (options->progress != NULL)
		options->progress(stage, fraction, options->progress_data);
}

/* nothing pending: nothing to decide */
static gchar *
sdt_ops_verify_nothing_pending(void)
{
	g_autoptr(SdtVerifyReport) out = sdt_verify_report_new();

	out->members = SDT_VERIFY_REPORT_PENDING | SDT_VERIFY_REPORT_DECISION;
	out->pending = FALSE;
	out->reason = sdt_l10n_record_reason_new("nothing-pending", NULL);
	return sdt_verify_report_to_string(out);
}

/* a new boot: count the try and make it durable before anything can hang */
static gboolean
sdt_ops_verify_count_try(SdtContext *ctx,
			 SdtVerifyPendingState *p,
			 const gchar *boot_now,
			 GError **error)
{
	guint n;

	if (boot_now == NULL ||
	    (p->boot_id != NULL && g_ascii_strcasecmp(p->boot_id, boot_now) == 0) ||
	    p->attempts >= SDT_VERIFY_MAX_TRIES)
		return TRUE;
	n = g_strv_length(p->tries);
	p->tries = g_renew(gchar *, p->tries, n + 2);
	p->tries[n] = g_strdup(boot_now);
	p->tries[n + 1] = NULL;
	p->attempts++;
	return sdt_verify_pending_save(ctx, p, error);
}

/* took effect: the clock or the queueing state this boot runs with */
static void
sdt_ops_verify_bus_facts(SdtContext *ctx, SdtConfigWriter *writer, SdtVerifyFacts *facts)
{
	g_autoptr(SdtInfo) info = sdt_info_collect(ctx, NULL);
	g_autoptr(SdtConfigTxt) cfg = sdt_config_writer_load(writer, NULL, NULL);
	SdtRecommendFacts rf;

	facts->observed_cqe = SDT_CQE_UNKNOWN;
	if (info != NULL) {
		sdt_ops_facts_recommend(&rf, info, cfg);
		facts->core_clock_hz = (guint64) sdt_recommend_core_clock_mhz(&rf) * SDT_MHZ;
		facts->observed_clock_hz =
			rf.actual_clock_hz > 0 ? rf.actual_clock_hz : rf.log_overclock_hz;
		facts->observed_cqe = info->bus.cqe;
	}
	if (facts->change.kind == SDT_VERIFY_CHANGE_OVERCLOCK)
		facts->expected_clock_hz =
			sdt_recommend_sdhost_clock_hz(facts->core_clock_hz,
						      facts->change.overclock_mhz);
	facts->expected_cqe = sdt_verify_change_expected_cqe(&facts->change);
}

/* the facts of this boot: the pending change, the bus, the kernel log, config.txt */
static void
sdt_ops_verify_boot_facts(SdtContext *ctx,
			  SdtConfigWriter *writer,
			  const SdtVerifyPendingState *p,
			  const gchar *boot_now,
			  SdtVerifyLog *log,
			  SdtVerifyFacts *facts,
			  gchar **block_id)
{
	g_autofree gchar *hash_now = NULL;
	g_autofree gchar *kmsg = NULL;
	gsize kmsg_len = 0;

	facts->id = p->id;
	sdt_verify_change_parse(p->id, &facts->change);
	facts->step = p->step;
	facts->trial = p->trial;
	facts->boot_id_then = p->boot_id;
	facts->boot_id_now = boot_now;
	facts->soak.first_bad_offset = -1;
	sdt_ops_verify_bus_facts(ctx, writer, facts);
	kmsg = sdt_kmsg_read(ctx, &kmsg_len, NULL);
	if (kmsg != NULL)
		sdt_verify_log_scan(log, kmsg, kmsg_len);
	facts->tryboot_active = sdt_ops_facts_tryboot_active(ctx);
	facts->block_id = *block_id = sdt_ops_verify_act_block_id(writer, p->trial);
	hash_now = sdt_config_writer_hash_config(writer);
	facts->config_edited = p->config_sha256 != NULL && hash_now != NULL &&
			       g_strcmp0(p->config_sha256, hash_now) != 0;
}

/* the decision and its evidence, as the result and the history show them */
static SdtVerifyReport *
sdt_ops_verify_result(const SdtVerifyPendingState *p,
		      const SdtVerifyFacts *facts,
		      const SdtVerifyResult *r)
{
	SdtVerifyReport *out = sdt_verify_report_new();

	out->members = SDT_VERIFY_REPORT_PENDING | SDT_VERIFY_REPORT_ID |
		       SDT_VERIFY_REPORT_ORIGINAL_ID | SDT_VERIFY_REPORT_STEP |
		       SDT_VERIFY_REPORT_TRIAL | SDT_VERIFY_REPORT_DECISION |
		       SDT_VERIFY_REPORT_NEXT_ID | SDT_VERIFY_REPORT_STOP |
		       SDT_VERIFY_REPORT_FOREIGN_CHANGE | SDT_VERIFY_REPORT_IMPROVED |
		       SDT_VERIFY_REPORT_WORSE | SDT_VERIFY_REPORT_EVIDENCE;
	out->pending = TRUE;
	out->id = g_strdup(p->id);
	out->original_id = g_strdup(p->original_id);
	out->step = p->step;
	out->trial = p->trial;
	out->decision = g_strdup(sdt_verify_decision_to_string(r->decision));
	out->reason = sdt_l10n_record_reason_copy(r->reason);
	out->next_id = g_strdup(r->next_id);
	out->stop = r->stop;
	out->foreign_change = r->foreign_change;
	for (guint i = 0; i < r->improved->len; i++)
		g_ptr_array_add(out->improved, g_strdup(g_ptr_array_index(r->improved, i)));
	for (guint i = 0; i < r->worse->len; i++)
		g_ptr_array_add(out->worse, g_strdup(g_ptr_array_index(r->worse, i)));
	out->evidence = sdt_ops_verify_evidence_report(facts);
	return out;
}

/*
 * Gathers the facts and the evidence, and decides; NULL with @error if it
 * cannot.  @attempts: the verifications begun before this one and never finished.
 */
static SdtVerifyResult *
sdt_ops_verify_decide(SdtContext *ctx,
		      const SdtOpsVerifyOptions *options,
		      SdtConfigWriter *writer,
		      SdtVerifyPendingState *p,
		      const gchar *boot_now,
		      guint attempts,
		      SdtVerifyReport **out,
		      GCancellable *cancellable,
		      GError **error)
{
	SdtVerifyLog log;
	SdtVerifyFacts facts = {0};
	SdtOpsVerifyEvidence ev = {0};
	SdtVerifyResult *r = NULL;
	g_autofree gchar *block_id = NULL;

	sdt_verify_log_init(&log);
	facts.log = &log;
	facts.attempts = attempts;
	sdt_ops_verify_progress(options, SDT_OPS_VERIFY_STAGE_LOG, 0);
	sdt_ops_verify_boot_facts(ctx, writer, p, boot_now, &log, &facts, &block_id);
	/* the results of the soak test and the benchmark, when the decision rests on
	 * them: a failure to get them here is an interrupted try, counted before */
	if (sdt_ops_verify_evidence_get(ctx, options, p, &facts, &ev, cancellable, error)) {
		r = sdt_verify_decide(&facts);
		*out = sdt_ops_verify_result(p, &facts, r);
	}
	sdt_ops_verify_evidence_clear(&ev);
	sdt_verify_log_clear(&log);
	return r;
}

/*
 * Records the decision in the pending state before anything is done (the
 * next run finishes it, issue 23 item 4); a state folder that cannot take it
 * only loses that.
 */
static void
sdt_ops_verify_record_decision(SdtContext *ctx,
			       SdtVerifyPendingState *p,
			       const SdtVerifyResult *r,
			       SdtVerifyReport *out)
{
	g_autoptr(GError) local = NULL;
	g_autofree gchar *now = sdt_ops_verify_record_now_iso(ctx);
	SdtVerifyPendingStateDecided *d = sdt_verify_pending_state_decided_new();

	out->decided_at = g_strdup(now);
	out->members |= SDT_VERIFY_REPORT_DECIDED_AT;
	d->decision = g_strdup(sdt_verify_decision_to_string(r->decision));
	d->reason = sdt_l10n_record_reason_copy(r->reason);
	d->next_id = g_strdup(r->next_id);
	d->time = g_strdup(now);
	d->result = sdt_verify_report_copy(out);
	sdt_verify_pending_state_decided_free(p->decided);
	p->decided = d;
	if (!sdt_verify_pending_save(ctx, p, &local))
		g_warning("%s", local->message);
}

/* a decision recorded by an earlier run that did not finish it */
static SdtVerifyDecision
sdt_ops_verify_recorded_decision(const SdtVerifyPendingState *p,
				 SdtVerifyReport **out,
				 gchar **next_id)
{
	const gchar *d = p->decided->decision;

	*out = sdt_verify_report_copy(p->decided->result);
	*next_id = g_strdup(p->decided->next_id);
	if (g_strcmp0(d, "keep") == 0)
		return SDT_VERIFY_KEEP;
	/* a step down needs the step to go to; without one the way is down */
	if (g_strcmp0(d, "step-down") == 0 && *next_id != NULL)
		return SDT_VERIFY_STEP_DOWN;
	return SDT_VERIFY_UNDO;
}

/*
 * pending.json is damaged: nothing in it can be trusted, so SD Tuner's change
 * is undone (issue 23 item 2), the decision recorded; the damaged file goes
 * once the undo is done.
 */
static gchar *
sdt_ops_verify_damaged(SdtContext *ctx,
		       SdtConfigWriter *writer,
		       const GError *damage,
		       GError **error)
{
	g_autoptr(SdtVerifyReport) out = sdt_verify_report_new();
	g_autoptr(GError) local = NULL;
	g_autoptr(SdtConfigApplyRevert) res = NULL;
	GPtrArray *args = sdt_l10n_record_reason_args_new();

	out->members = SDT_VERIFY_REPORT_PENDING | SDT_VERIFY_REPORT_DECISION |
		       SDT_VERIFY_REPORT_STOP | SDT_VERIFY_REPORT_DECIDED_AT;
	out->pending = TRUE;
	out->decision = g_strdup("undo");
	sdt_l10n_record_reason_args_add(args, damage->message);
	out->reason = sdt_l10n_record_reason_new("record-damaged", args);
	out->stop = TRUE;
	out->decided_at = sdt_ops_verify_record_now_iso(ctx);
	res = sdt_config_apply_revert(writer, &local);
	if (res == NULL && !g_error_matches(local, SDT_ERROR, SDT_ERROR_NOT_FOUND)) {
		sdt_ops_verify_act_failed(ctx, out, g_steal_pointer(&local), error);
		return NULL;
	}
	sdt_verify_report_set_action(
		out,
		sdt_verify_report_action_new(res != NULL ? "reverted" : "nothing-to-revert"));
	/* the record as it stands, "pending" with it */
	if (!sdt_ops_verify_act_history_append(ctx, out, &local))
		g_warning("%s", local->message);
	if (!sdt_verify_pending_remove(ctx, error))
		return NULL;
	return sdt_verify_report_to_string(out);
}

/* the verify unit runs at every boot: after a power cut during a check's probe,
 * the blocks it had out go back here first (docs/ARCHITECTURE.md) */
static void
sdt_ops_verify_repair_check(SdtContext *ctx)
{
	g_auto(GStrv) dirs = sdt_check_journal_dirs(ctx);
	g_autoptr(GError) error = NULL;

	if (sdt_check_repair((const gchar *const *) dirs, &error) < 0)
		g_warning("%s", error->message);
}

gchar *
sdt_ops_verify(SdtContext *ctx,
	       const SdtOpsVerifyOptions *options,
	       GCancellable *cancellable,
	       GError **error)
{
	g_autoptr(SdtVerifyPendingState) p = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autoptr(SdtVerifyReport) out = NULL;
	g_autoptr(GError) damage = NULL;
	g_autofree gchar *boot_now = NULL;
	g_autofree gchar *next_id = NULL;
	SdtVerifyDecision decision;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	sdt_ops_verify_repair_check(ctx);
	/* a state folder another user could write is not a damaged record to undo
	 * from: nothing is decided nor changed (issue 33) */
	{
		g_autofree gchar *state = sdt_context_get_state_dir(ctx);
		if (!sdt_state_lock_check_dir(state, error))
			return NULL;
	}
	/* FALSE: damaged (@damage says how), and handled below */
	if (sdt_verify_pending_load(ctx, &p, &damage) && p == NULL)
		return sdt_ops_verify_nothing_pending();
	writer = sdt_config_writer_new(ctx, error);
	if (writer == NULL)
		return NULL;
	/* nobody is there to delete a damaged journal: the markers decide */
	sdt_config_writer_set_journal_fallback(writer, TRUE);
	if (damage != NULL)
		return sdt_ops_verify_damaged(ctx, writer, damage, error);
	boot_now = sdt_context_get_boot_id(ctx, NULL);
	if (p->decided != NULL) {
		decision = sdt_ops_verify_recorded_decision(p, &out, &next_id);
	} else {
		guint attempts = p->attempts;
		if (!sdt_ops_verify_count_try(ctx, p, boot_now, error))
			return NULL;
		r = sdt_ops_verify_decide(ctx,
					  options,
					  writer,
					  p,
					  boot_now,
					  attempts,
					  &out,
					  cancellable,
					  error);
		if (r == NULL)
			return NULL;
		decision = r->decision;
		next_id = g_strdup(r->next_id);
		if (decision == SDT_VERIFY_WAIT)
			sdt_verify_report_set_action(out, NULL);
		else
			sdt_ops_verify_record_decision(ctx, p, r, out);
	}
	if (out == NULL) {
		sdt_verify_pending_state_damaged("decided", error);
		return NULL;
	}
	if (decision != SDT_VERIFY_WAIT &&
	    !sdt_ops_verify_act(ctx, writer, p, decision, next_id, boot_now, out, error))
		return NULL;
	return sdt_verify_report_to_string(out);
}
