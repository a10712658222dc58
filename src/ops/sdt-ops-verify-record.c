/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-history.h"
#include "sdt-ops-private.h"
#include "sdt-ops-verify-private.h"
#include "sdt-state-lock.h"
#include "sdt-verify-pending.h"

/* the pending change of `verify`: recorded by apply with its "before" figures, shown by status */

gchar *
sdt_ops_verify_record_now_iso(SdtContext *ctx)
{
	g_autoptr(GDateTime) now = sdt_context_get_now(ctx);
	return g_date_time_format_iso8601(now);
}

/*
 * IOPS for the random tests and MB/s for the others; the spread is the test's
 * 95% confidence half-width (ci_percent of the figure).  A test without a
 * known spread is left out.
 */
GPtrArray *
sdt_ops_verify_record_bench_figures(const SdtBenchRecord *bench)
{
	g_autoptr(GPtrArray) figures = sdt_verify_pending_state_figures_new();

	for (guint i = 0; i < bench->tests->len; i++) {
		const SdtBenchRecordTest *t = g_ptr_array_index(bench->tests, i);
		gboolean iops = g_str_has_prefix(t->name, "rand-");
		gdouble value = iops ? t->iops : t->mb_s;

		if (!(value >= 0) || !(t->ci_percent >= 0))
			continue;
		sdt_verify_pending_state_figures_add(figures,
						     t->name,
						     value,
						     value * t->ci_percent / 100.0,
						     iops ? "IOPS" : "MB/s");
	}
	return figures->len > 0 ? g_steal_pointer(&figures) : NULL;
}

/* a history entry of a benchmark of the SD card itself */
static SdtBenchRecord *
sdt_ops_verify_entry_card_bench(const SdtHistoryEntry *e)
{
	g_autoptr(SdtBenchRecord) record = NULL;

	if (g_strcmp0(e->kind, SDT_HISTORY_ENTRY_KIND_BENCH) != 0)
		return NULL;
	record = sdt_history_entry_get_bench(e, NULL);
	if (record == NULL || record->target_stand_in)
		return NULL;
	return g_steal_pointer(&record);
}

/* entry @e of the history was taken at or before @until_dt (NULL: any time) */
static gboolean
sdt_ops_verify_taken_by(const SdtHistoryEntry *e, GDateTime *until_dt)
{
	g_autoptr(GDateTime) t = NULL;

	if (until_dt == NULL)
		return TRUE;
	t = g_date_time_new_from_iso8601(e->time, NULL);
	return t != NULL && g_date_time_compare(t, until_dt) <= 0;
}

/* sdt_ops_verify_record_last_card_bench() in @history, as read (oldest first; NULL: none) */
static GPtrArray *
sdt_ops_verify_record_last_card_bench_in(GPtrArray *history,
					 const gchar *until,
					 const gchar *config_sha256)
{
	g_autoptr(GDateTime) until_dt =
		until != NULL ? g_date_time_new_from_iso8601(until, NULL) : NULL;

	if (until != NULL && until_dt == NULL)
		return NULL;
	for (guint i = history != NULL ? history->len : 0; i > 0; i--) {
		const SdtHistoryEntry *e = g_ptr_array_index(history, i - 1);
		g_autoptr(SdtBenchRecord) record = NULL;
		GPtrArray *figures;

		if (!sdt_ops_verify_taken_by(e, until_dt))
			continue;
		record = sdt_ops_verify_entry_card_bench(e);
		if (record == NULL)
			continue;
		/* measured under another config.txt (or an unknown one): not this one's figures */
		if (config_sha256 != NULL &&
		    g_strcmp0(sdt_history_entry_get_config_sha256(e), config_sha256) != 0)
			continue;
		figures = sdt_ops_verify_record_bench_figures(record);
		if (figures != NULL)
			return figures;
	}
	return NULL;
}

GPtrArray *
sdt_ops_verify_record_last_card_bench(SdtContext *ctx,
				      const gchar *until,
				      const gchar *config_sha256)
{
	g_autoptr(GPtrArray) history = sdt_history_entries(ctx, NULL, NULL);

	return sdt_ops_verify_record_last_card_bench_in(history, until, config_sha256);
}

/*
 * The figures to compare with after the restart: those of the last benchmark
 * of the card measured under the config.txt in effect before the change
 * (@config_sha256).  Without them a warning says what the verification will do.
 */
static GPtrArray *
sdt_ops_verify_before(GPtrArray *history,
		      const SdtVerifyChange *change,
		      const gchar *config_sha256,
		      GPtrArray *warnings)
{
	g_autoptr(GPtrArray) any = NULL;
	GPtrArray *before =
		config_sha256 != NULL
			? sdt_ops_verify_record_last_card_bench_in(history, NULL, config_sha256)
			: NULL;

	/* a safety change is kept without being faster: it needs no "before" */
	if (before != NULL || sdt_verify_change_is_safety(change))
		return before;
	any = sdt_ops_verify_record_last_card_bench_in(history, NULL, NULL);
	if (any == NULL)
		g_ptr_array_add(
			warnings,
			g_strdup(_("There is no benchmark of the SD card from before this change, "
				   "so the verification after the restart cannot show that it "
				   "helped and will undo it: revert, run “sdtunerctl bench”, "
				   "then apply again.")));
	else
		g_ptr_array_add(
			warnings,
			g_strdup(_("The last benchmark of the SD card was measured under another "
				   "config.txt than the one in effect before this change, so the "
				   "verification after the restart cannot show that it helped "
				   "and will undo it: revert, restart, run “sdtunerctl bench”, "
				   "then apply again.")));
	return NULL;
}

SdtVerifyPendingState *
sdt_ops_verify_record_pending_new(SdtContext *ctx,
				  const gchar *id,
				  gboolean trial,
				  gint type_code,
				  const gchar *filter,
				  guint replaces,
				  const gchar *config_sha256,
				  const SdtOpsApplyReads *reads,
				  GPtrArray *warnings)
{
	g_autoptr(SdtVerifyPendingState) p = NULL;
	SdtVerifyChange change;

	if (!sdt_verify_change_parse(id, &change))
		return NULL;
	p = sdt_verify_pending_state_new();
	p->id = g_strdup(id);
	p->original_id = g_strdup(id);
	p->trial = trial;
	p->boot_id = g_strdup(reads->boot_id);
	p->time = sdt_ops_verify_record_now_iso(ctx);
	/* the figures to compare with after the restart; they stay through step downs */
	p->before = sdt_ops_verify_before(reads->history, &change, config_sha256, warnings);
	p->filter = g_strdup(filter);
	p->type_code = type_code;
	p->replaces = replaces;
	return g_steal_pointer(&p);
}

/* "pending_verification": the change waiting for its verification, or null */
static void
sdt_ops_verify_status_pending(SdtContext *ctx, SdtStatusReport *status)
{
	g_autoptr(SdtVerifyPendingState) p = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *state = sdt_context_get_state_dir(ctx);
	SdtStatusReportPending *o;

	/* a state folder SD Tuner refuses is no damaged record: verify changes
	 * nothing while it is so (issue 33), and status says that instead */
	if (!sdt_state_lock_check_dir(state, &error)) {
		status->state_error = g_strdup(error->message);
		status->members |= SDT_STATUS_REPORT_STATE_ERROR;
		return;
	}
	if (!sdt_verify_pending_load(ctx, &p, &error) || p == NULL) {
		if (error != NULL) {
			status->pending_verification_error = g_strdup(error->message);
			status->members |= SDT_STATUS_REPORT_PENDING_ERROR;
		}
		return;
	}
	o = status->pending_verification = sdt_status_report_pending_new();
	o->id = g_strdup(p->id);
	o->original_id = g_strdup(p->original_id);
	o->step = p->step;
	o->trial = p->trial;
	o->attempts = p->attempts;
	o->since = g_strdup(p->time);
	/* a decision taken and not carried out to the end (issue 23 item 2) */
	if (p->decided != NULL) {
		o->decision = g_strdup(p->decided->decision);
		o->reason = sdt_l10n_record_reason_copy(p->decided->reason);
		o->error = g_strdup(p->decided->error);
	}
}

/* the last "verify" entry of the history, or NULL */
SdtVerifyReport *
sdt_ops_verify_record_last_entry(SdtContext *ctx)
{
	g_autoptr(GPtrArray) history = sdt_history_entries(ctx, NULL, NULL);

	for (guint i = history != NULL ? history->len : 0; i > 0; i--) {
		const SdtHistoryEntry *e = g_ptr_array_index(history, i - 1);
		if (g_strcmp0(e->kind, SDT_HISTORY_ENTRY_KIND_VERIFY) == 0)
			return sdt_history_entry_get_verify(e, NULL);
	}
	return NULL;
}

void
sdt_ops_verify_record_add_status(SdtContext *ctx, SdtStatusReport *status)
{
	sdt_ops_verify_status_pending(ctx, status);
	status->last_verification = sdt_ops_verify_record_last_entry(ctx);
	/* what status shows of it */
	if (status->last_verification != NULL)
		status->last_verification->members &= SDT_VERIFY_REPORT_LAST_MEMBERS;
}
