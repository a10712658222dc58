/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-ops-verify-private.h"
#include "sdt-soak-report.h"
#include "sdt-soak.h"

/* the evidence of `verify`: the soak test and the benchmark, run now or read from a file */

#define SDT_OPS_VERIFY_EVIDENCE_MAX (1024 * 1024)

/* the evidence file of tests (sdt_verify_pending_state_evidence_parse()), its path named */
static SdtVerifyPendingStateEvidence *
sdt_ops_verify_read_evidence(const gchar *path, GError **error)
{
	g_autofree gchar *data = NULL;
	SdtVerifyPendingStateEvidence *evidence;
	gsize len = 0;

	if (!sdt_file_read_bounded(path, SDT_OPS_VERIFY_EVIDENCE_MAX, &data, &len, error))
		return NULL;
	evidence = sdt_verify_pending_state_evidence_parse(data, len, error);
	if (evidence == NULL)
		g_prefix_error(error, _("cannot read %s: "), path);
	return evidence;
}

/* the soak test's figures, as the decision reads them (NaN: unknown) */
static void
sdt_ops_verify_soak(SdtOpsVerifyEvidence *ev, gdouble w, gdouble c, gdouble m, gdouble off)
{
	SdtVerifySoak *soak = &ev->soak;

	ev->have_soak = TRUE;
	memset(soak, 0, sizeof(*soak));
	soak->first_bad_offset = -1;
	if (!(w >= 0) || !(c >= 0) || !(m >= 0))
		return;
	soak->ran = TRUE;
	soak->bytes_written = (guint64) w;
	soak->bytes_checked = (guint64) c;
	soak->mismatches = (guint64) m;
	soak->first_bad_offset = off >= 0 ? (gint64) off : -1;
}

/* before/after figures present in both, in the order of @after */
static GArray *
sdt_ops_verify_figures(GPtrArray *before, GPtrArray *after)
{
	GArray *figures = g_array_new(FALSE, TRUE, sizeof(SdtVerifyFigure));

	for (guint i = 0; after != NULL && i < after->len; i++) {
		const SdtVerifyPendingStateFigure *a = g_ptr_array_index(after, i);
		const SdtVerifyPendingStateFigure *b =
			sdt_verify_pending_state_figures_find(before, a->name);
		SdtVerifyFigure f = {0};
		if (b == NULL)
			continue;
		f.name = a->name;
		f.unit = a->unit != NULL ? a->unit : "";
		f.before = b->median;
		f.before_spread = b->spread;
		f.after = a->median;
		f.after_spread = a->spread;
		g_array_append_val(figures, f);
	}
	return figures;
}

SdtVerifyReportEvidence *
sdt_ops_verify_evidence_report(const SdtVerifyFacts *facts)
{
	SdtVerifyReportEvidence *ev = sdt_verify_report_evidence_new();

	ev->boot_id_then = g_strdup(facts->boot_id_then);
	ev->boot_id = g_strdup(facts->boot_id_now);
	ev->tryboot_active = facts->tryboot_active;
	ev->config_edited = facts->config_edited;
	ev->attempts_before = facts->attempts;
	ev->clock_expected_hz = (gint64) facts->expected_clock_hz;
	ev->clock_observed_hz = (gint64) facts->observed_clock_hz;
	if (facts->expected_cqe != SDT_CQE_UNKNOWN) {
		ev->cqe_expected = g_strdup(sdt_info_cqe_state_to_string(facts->expected_cqe));
		ev->cqe_observed = g_strdup(sdt_info_cqe_state_to_string(facts->observed_cqe));
	}
	for (guint i = 0; facts->log != NULL && i < facts->log->lines->len; i++)
		g_ptr_array_add(ev->log, g_strdup(g_ptr_array_index(facts->log->lines, i)));
	ev->soak_ran = facts->soak.ran;
	ev->soak_bytes_written = (gint64) facts->soak.bytes_written;
	ev->soak_bytes_checked = (gint64) facts->soak.bytes_checked;
	ev->soak_mismatches = (gint64) facts->soak.mismatches;
	ev->soak_first_bad_offset =
		facts->soak.first_bad_offset >= 0 ? facts->soak.first_bad_offset : -1;
	for (guint i = 0; i < facts->n_figures; i++) {
		const SdtVerifyFigure *f = &facts->figures[i];
		SdtVerifyReportFigure *o = g_new0(SdtVerifyReportFigure, 1);
		o->name = g_strdup(f->name);
		o->unit = g_strdup(f->unit);
		o->before = f->before;
		o->before_spread = f->before_spread;
		o->after = f->after;
		o->after_spread = f->after_spread;
		g_ptr_array_add(ev->figures, o);
	}
	return ev;
}

/* the time bound of the gathering: a thread that cancels it at the deadline */
typedef struct {
	GMutex lock;
	GCond cond;
	gboolean done;
	gboolean timed_out;
	gint64 deadline; /* monotonic µs */
	GCancellable *cancellable;
} SdtOpsVerifyWatchdog;

static gpointer
sdt_ops_verify_watchdog_thread(gpointer data)
{
	SdtOpsVerifyWatchdog *w = data;

	g_mutex_lock(&w->lock);
	while (!w->done) {
		if (!g_cond_wait_until(&w->cond, &w->lock, w->deadline) && !w->done) {
			w->timed_out = TRUE;
			g_cancellable_cancel(w->cancellable);
			break;
		}
	}
	g_mutex_unlock(&w->lock);
	return NULL;
}

static void
sdt_ops_verify_forward_cancel(GCancellable *outer, gpointer inner)
{
	g_cancellable_cancel(inner);
}

/* starts the time bound: @gather is cancelled at the deadline or with @cancellable */
static GThread *
sdt_ops_verify_watchdog_start(SdtOpsVerifyWatchdog *w,
			      gdouble max_seconds,
			      GCancellable *gather,
			      GCancellable *cancellable,
			      gulong *handler)
{
	g_mutex_init(&w->lock);
	g_cond_init(&w->cond);
	w->deadline = g_get_monotonic_time() + (gint64) (max_seconds * G_USEC_PER_SEC);
	w->cancellable = gather;
	*handler = 0;
	if (cancellable != NULL)
		*handler = g_cancellable_connect(cancellable,
						 G_CALLBACK(sdt_ops_verify_forward_cancel),
						 gather,
						 NULL);
	return g_thread_new("sdt-verify-bound", sdt_ops_verify_watchdog_thread, w);
}

static void
sdt_ops_verify_watchdog_stop(SdtOpsVerifyWatchdog *w,
			     GThread *thread,
			     GCancellable *cancellable,
			     gulong handler)
{
	g_mutex_lock(&w->lock);
	w->done = TRUE;
	g_cond_signal(&w->cond);
	g_mutex_unlock(&w->lock);
	g_thread_join(thread);
	if (cancellable != NULL)
		g_cancellable_disconnect(cancellable, handler);
	g_mutex_clear(&w->lock);
	g_cond_clear(&w->cond);
}

/* the verification's progress callback, as the engine's for one of its stages */
typedef struct {
	const SdtOpsVerifyOptions *options;
	SdtOpsVerifyStage stage;
} SdtOpsVerifyProgress;

static void
sdt_ops_verify_engine_progress(const gchar *phase,
			       gdouble fraction,
			       gdouble rate_mb_s,
			       gpointer user_data)
{
	SdtOpsVerifyProgress *p = user_data;
	p->options->progress(p->stage, fraction, p->options->progress_data);
}

/* the benchmark (standard profile), then the soak test, on the card */
static GError *
sdt_ops_verify_run_tests(SdtContext *ctx,
			 const SdtOpsVerifyOptions *options,
			 SdtOpsVerifyEvidence *ev,
			 GCancellable *gather)
{
	GError *local = NULL;
	g_autoptr(SdtBenchRecord) record = NULL;
	g_autoptr(SdtSoakReport) report = NULL;
	SdtBenchConfig config;
	SdtOpsVerifyProgress bp = {options, SDT_OPS_VERIFY_STAGE_BENCHMARK};
	SdtOpsVerifyProgress sp = {options, SDT_OPS_VERIFY_STAGE_SOAK};
	SdtBenchProgressFunc progress =
		options->progress != NULL ? sdt_ops_verify_engine_progress : NULL;
	gdouble soak_seconds =
		options->soak_seconds >= 0 ? options->soak_seconds : SDT_SOAK_DEFAULT_SECONDS;

	if (!sdt_bench_config_for_profile("standard", &config, &local))
		return local;
	record = sdt_ops_bench_run(ctx, &config, NULL, progress, &bp, gather, &local);
	if (record == NULL)
		return local;
	/* a simulated board's stand-in says nothing about the card */
	ev->after = !record->target_stand_in ? sdt_ops_verify_record_bench_figures(record) : NULL;
	report = sdt_ops_bench_soak(ctx,
				    NULL,
				    SDT_SOAK_DEFAULT_SIZE,
				    soak_seconds,
				    progress,
				    &sp,
				    gather,
				    &local);
	if (report == NULL)
		return local;
	sdt_ops_verify_soak(ev,
			    (gdouble) report->bytes_written,
			    (gdouble) report->bytes_checked,
			    (gdouble) report->mismatches,
			    (gdouble) report->first_bad_offset);
	return NULL;
}

/*
 * Runs the benchmark and the soak test on the card for the decision, within
 * the time bound.  Returns FALSE only when @cancellable was cancelled (the
 * try stays counted as interrupted); any other failure, the time bound
 * included, is the decision's "could not run" (ev->why).
 */
static gboolean
sdt_ops_verify_gather(SdtContext *ctx,
		      const SdtOpsVerifyOptions *options,
		      SdtOpsVerifyEvidence *ev,
		      GCancellable *cancellable,
		      GError **error)
{
	g_autoptr(GCancellable) gather = g_cancellable_new();
	g_autoptr(GError) local = NULL;
	SdtOpsVerifyWatchdog w = {0};
	GThread *thread;
	gulong handler = 0;
	gdouble max_seconds =
		options->max_seconds > 0 ? options->max_seconds : SDT_OPS_VERIFY_MAX_SECONDS;

	thread = sdt_ops_verify_watchdog_start(&w, max_seconds, gather, cancellable, &handler);
	local = sdt_ops_verify_run_tests(ctx, options, ev, gather);
	sdt_ops_verify_watchdog_stop(&w, thread, cancellable, handler);

	if (local == NULL)
		return TRUE;
	if (g_cancellable_is_cancelled(cancellable)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_CANCELLED,
				    _("Verification was stopped before it decided; it counts as an "
				      "interrupted try."));
		return FALSE;
	}
	if (w.timed_out)
		ev->why = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
						      "The benchmark and the soak test took longer "
						      "than %u minute",
						      "The benchmark and the soak test took longer "
						      "than %u minutes",
						      (guint) ceil(max_seconds / 60)),
					  (guint) ceil(max_seconds / 60));
	else
		ev->why = g_strdup(local->message);
	return TRUE;
}

/* the "before", "after" and "soak" of the evidence file, over what the history says */
static gboolean
sdt_ops_verify_read_evidence_file(const gchar *path, SdtOpsVerifyEvidence *ev, GError **error)
{
	g_autoptr(SdtVerifyPendingStateEvidence) evidence =
		sdt_ops_verify_read_evidence(path, error);

	if (evidence == NULL)
		return FALSE;
	if (evidence->before != NULL) {
		g_clear_pointer(&ev->before, g_ptr_array_unref);
		ev->before = g_ptr_array_ref(evidence->before);
	}
	if (evidence->after != NULL)
		ev->after = g_ptr_array_ref(evidence->after);
	if (evidence->has_soak)
		sdt_ops_verify_soak(ev,
				    evidence->soak_bytes_written,
				    evidence->soak_bytes_checked,
				    evidence->soak_mismatches,
				    evidence->soak_first_bad_offset);
	return TRUE;
}

void
sdt_ops_verify_evidence_clear(SdtOpsVerifyEvidence *ev)
{
	g_clear_pointer(&ev->before, g_ptr_array_unref);
	g_clear_pointer(&ev->after, g_ptr_array_unref);
	g_clear_pointer(&ev->why, g_free);
	g_clear_pointer(&ev->figures, g_array_unref);
}

gboolean
sdt_ops_verify_evidence_get(SdtContext *ctx,
			    const SdtOpsVerifyOptions *options,
			    const SdtVerifyPendingState *p,
			    SdtVerifyFacts *facts,
			    SdtOpsVerifyEvidence *ev,
			    GCancellable *cancellable,
			    GError **error)
{
	gboolean safety;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	safety = sdt_verify_change_is_safety(&facts->change);
	ev->before = p->before != NULL ? g_ptr_array_ref(p->before) : NULL;
	if (ev->before == NULL)
		/* a change recorded before the figures were kept with it */
		ev->before = sdt_ops_verify_record_last_card_bench(ctx, p->time, NULL);
	if (options->evidence_path != NULL && facts->attempts < SDT_VERIFY_MAX_TRIES) {
		if (!sdt_ops_verify_read_evidence_file(options->evidence_path, ev, error))
			return FALSE;
	} else if (options->evidence_path == NULL && sdt_verify_evidence_needed(facts)) {
		/* nothing to compare with: the benchmark is worth running only for a
		 * safety change, which is decided on the soak test alone */
		if (ev->before == NULL && !safety)
			facts->no_before = TRUE;
		else if (!sdt_ops_verify_gather(ctx, options, ev, cancellable, error))
			return FALSE;
		facts->no_before = ev->before == NULL;
		facts->evidence_error = ev->why;
	}
	if (ev->have_soak)
		facts->soak = ev->soak;
	ev->figures = sdt_ops_verify_figures(ev->before, ev->after);
	facts->figures = (const SdtVerifyFigure *) (gpointer) ev->figures->data;
	facts->n_figures = ev->figures->len;
	return TRUE;
}
