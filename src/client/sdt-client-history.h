/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-client-bench.h"
#include "sdt-client-status.h"

G_BEGIN_DECLS

/*
 * One entry of `history --json` (DESIGN.md).  The history holds entries of
 * other versions and files edited by hand, so an entry is read member by
 * member: a member of the wrong type stays unknown (NULL, FALSE) and @error
 * says which, while the other entries and members are read.
 */
typedef struct {
	gchar *kind; /* "bench", "apply", "revert", "verify", or another word; NULL: unknown */
	gchar *time; /* ISO 8601 */
	gchar *id;
	gboolean trial;
	gchar *profile;                      /* bench */
	gchar *target_path;                  /* bench: the test file's directory */
	gboolean stand_in;                   /* bench: not the SD card */
	SdtClientVerification *verification; /* verify: never NULL for those */
	GError *error;                       /* the first member that could not be read */
} SdtClientHistoryEntry;

typedef struct {
	GPtrArray *entries;  /* of SdtClientHistoryEntry, oldest first */
	GPtrArray *warnings; /* of gchar*, English */
} SdtClientHistory;

void sdt_client_history_free(SdtClientHistory *history);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientHistory, sdt_client_history_free)

/* "entries" and "warnings" of the wrong type are SDT_ERROR_INVALID_DATA */
SdtClientHistory *sdt_client_history_from_json(JsonObject *obj, GError **error);

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
