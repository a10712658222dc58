/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench-record.h"
#include "sdt-client-series.h"
#include "sdt-history-report.h"

G_BEGIN_DECLS

/* the `history --json` document, read by its codec (sdt-history-report.h:
 * sdt_history_report_parse()); the client's names for its types */
typedef SdtHistoryReportFigure SdtClientFigure;
typedef SdtHistoryReportEntry SdtClientHistoryEntry;
typedef SdtHistoryReport SdtClientHistory;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientHistory, sdt_history_report_free)

typedef enum {
	SDT_HISTORY_COMPARE_NONE,    /* no benchmark of the card yet */
	SDT_HISTORY_COMPARE_CHANGE,  /* the last run before SD Tuner's last change, the latest after
				      */
	SDT_HISTORY_COMPARE_WAITING, /* a change, and no run after it yet */
	SDT_HISTORY_COMPARE_PREVIOUS, /* the latest run against the one before it */
} SdtHistoryCompareKind;

/* the benchmarks are the history's: the comparison lives no longer than it */
typedef struct {
	SdtHistoryCompareKind kind;
	const SdtBenchRecord *before; /* %NULL when there is none */
	const SdtBenchRecord *after;  /* %NULL when there is none */
	guint stand_in_runs;          /* benchmarks of a stand-in, left out */
} SdtHistoryComparison;

/*
 * What the History page compares, from the history's entries (oldest first):
 * only benchmarks of the SD card, never of a stand-in directory.
 */
SdtHistoryComparison *sdt_client_history_comparison_new(const SdtClientHistory *history);
void sdt_client_history_comparison_free(SdtHistoryComparison *comparison);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtHistoryComparison, sdt_client_history_comparison_free)

G_END_DECLS
