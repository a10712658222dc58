/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench-record.h"
#include "sdt-client-series.h"
#include "sdt-verify-report.h"

G_BEGIN_DECLS

/* one before/after figure of a verification's evidence ("evidence.figures") */
typedef struct {
	gchar *name;           /* "seq-read", ...; NULL: not said */
	gchar *unit;           /* "MB/s" or "IOPS" */
	gdouble before;        /* NaN: unknown */
	gdouble before_spread; /* absolute, in @unit; NaN: unknown */
	gdouble after;
	gdouble after_spread;
} SdtClientFigure;

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
	gboolean trial_cancelled;      /* revert: it cancelled a trial (tryboot.txt) */
	gboolean changed;              /* apply, revert: config.txt changed (TRUE when not said) */
	gchar *profile;                /* bench */
	gchar *target_path;            /* bench: the test file's directory */
	gboolean stand_in;             /* bench: not the SD card */
	SdtBenchRecord *bench;         /* bench: its result, NULL when none is readable */
	SdtVerifyReport *verification; /* verify: never NULL for those */
	GPtrArray *figures;            /* verify: of SdtClientFigure, the evidence's; never NULL */
	gchar *verdict;                /* check: "genuine", "fake", "undetermined"; NULL: unknown */
	gchar *reason;                 /* check: English */
	gchar *checked_device;  /* check of a card in a reader or slot: "sdb"; NULL: the card's */
	gint64 soak_mismatches; /* soak: bytes that read back wrong; -1: unknown */
	GError *error;          /* the first member that could not be read */
} SdtClientHistoryEntry;

typedef struct {
	GPtrArray *entries;  /* of SdtClientHistoryEntry, oldest first */
	GPtrArray *warnings; /* of gchar*, English */
	GPtrArray *series;   /* of SdtClientSeries: each card's figures over time; never NULL */
} SdtClientHistory;

void sdt_client_history_free(SdtClientHistory *history);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientHistory, sdt_client_history_free)

/* "entries" and "warnings" of the wrong type are SDT_ERROR_INVALID_DATA */
SdtClientHistory *sdt_client_history_from_json(JsonObject *obj, GError **error);

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
