/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-client-bench.h"

G_BEGIN_DECLS

/*
 * The benchmark of one history entry (its members, or under "result"), or
 * %NULL when the entry holds no readable result (the reason is logged: the
 * history may hold entries of other versions or edited by hand).
 */
SdtClientBench *sdt_client_history_entry_bench(JsonObject *entry);

typedef enum {
	SDT_HISTORY_COMPARE_NONE,    /* no benchmark of the card yet */
	SDT_HISTORY_COMPARE_CHANGE,  /* the last run before SD Tuner's last change, the latest after
				      */
	SDT_HISTORY_COMPARE_WAITING, /* a change, and no run after it yet */
	SDT_HISTORY_COMPARE_PREVIOUS, /* the latest run against the one before it */
} SdtHistoryCompareKind;

typedef struct {
	SdtHistoryCompareKind kind;
	SdtClientBench *before; /* %NULL when there is none */
	SdtClientBench *after;  /* %NULL when there is none */
	guint stand_in_runs;    /* benchmarks of a stand-in, left out */
} SdtHistoryComparison;

/*
 * What the History page compares, from the history's entries (oldest first):
 * only benchmarks of the SD card, never of a stand-in directory.
 */
SdtHistoryComparison *sdt_history_comparison_new(JsonArray *entries);
void sdt_history_comparison_free(SdtHistoryComparison *comparison);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtHistoryComparison, sdt_history_comparison_free)

G_END_DECLS
