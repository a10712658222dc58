/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench-record.h"
#include <json-glib/json-glib.h>

#include "sdt-verify-pending-state.h"
#include "sdt-verify-report.h"

#include "sdt-config-writer.h"
#include "sdt-ops.h"
#include "sdt-verify.h"

G_BEGIN_DECLS

/*
 * The parts of `verify` (sdt-ops-verify.c: the decision and the action)
 * shared with sdt-ops-verify-record.c (the pending change, its "before"
 * figures and the status) and sdt-ops-verify-evidence.c (the soak test and
 * the benchmark).  Private to src/ops.
 */

/* the context's time, ISO 8601 */
gchar *sdt_ops_verify_record_now_iso(SdtContext *ctx);
/*
 * The figures of a benchmark result as the decision compares them
 * (SdtVerifyPendingStateFigure: test, median, spread, unit); NULL when it has none
 * with a known spread.
 */
GPtrArray *sdt_ops_verify_record_bench_figures(const SdtBenchRecord *bench);
/*
 * The figures of the last benchmark of the card in the history taken at or
 * before @until (ISO 8601; NULL: any) and, unless @config_sha256 is NULL,
 * measured under that config.txt; NULL when there is none.
 */
GPtrArray *sdt_ops_verify_record_last_card_bench(SdtContext *ctx,
						 const gchar *until,
						 const gchar *config_sha256);

/* what the decision rests on beyond this boot's facts */
typedef struct {
	GPtrArray *before;  /* figures from before the change (SdtVerifyPendingStateFigure) */
	GPtrArray *after;   /* figures measured now */
	gboolean have_soak; /* the soak test's result is in @soak */
	SdtVerifySoak soak;
	gchar *why;      /* why the benchmark or the soak test could not run, or NULL */
	GArray *figures; /* SdtVerifyFigure, pointing into @before and @after */
} SdtOpsVerifyEvidence;

void sdt_ops_verify_evidence_clear(SdtOpsVerifyEvidence *ev);

/*
 * Fills @ev and the evidence members of @facts: from the options' evidence
 * file, or by running the benchmark and the soak test when the decision rests
 * on them (sdt_verify_evidence_needed()).  FALSE with @error when the evidence
 * file is bad or @cancellable was cancelled (the try stays counted).
 */
gboolean sdt_ops_verify_evidence_get(SdtContext *ctx,
				     const SdtOpsVerifyOptions *options,
				     const SdtVerifyPendingState *p,
				     SdtVerifyFacts *facts,
				     SdtOpsVerifyEvidence *ev,
				     GCancellable *cancellable,
				     GError **error);

/* the evidence member of the result and the history */
SdtVerifyReportEvidence *sdt_ops_verify_evidence_report(const SdtVerifyFacts *facts);

/* the last "verify" entry of the history (sdt-ops-verify-record.c), or NULL: none, or
 * one the codec refuses */
SdtVerifyReport *sdt_ops_verify_record_last_entry(SdtContext *ctx);

/* the id of SD Tuner's block in config.txt (@trial: tryboot.txt), or NULL */
gchar *sdt_ops_verify_act_block_id(SdtConfigWriter *writer, gboolean trial);

/*
 * Carries out @decision on @out (sdt-ops-verify-act.c): keep, step down or
 * undo, each step done only if not done already, then the history entry
 * (once per decision) and the pending record.  On failure the decision and
 * the failure are recorded, and @error says what to do.
 */
gboolean sdt_ops_verify_act(SdtContext *ctx,
			    SdtConfigWriter *writer,
			    SdtVerifyPendingState *p,
			    SdtVerifyDecision decision,
			    const gchar *next_id,
			    const gchar *boot_now,
			    SdtVerifyReport *out,
			    GError **error);
/* appends @entry (with the members it has) to the history as "verify"; @entry gets the
 * history's envelope (this boot's id, "kind", "time") */
gboolean sdt_ops_verify_act_history_append(SdtContext *ctx, SdtVerifyReport *entry, GError **error);
/* an action without a pending record (a damaged one) failed: recorded as above */
/* @failure (taken) is why; @error gets the answer's error, with what to do */
void
sdt_ops_verify_act_failed(SdtContext *ctx, SdtVerifyReport *out, GError *failure, GError **error);

G_END_DECLS
