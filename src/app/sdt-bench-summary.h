/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* the SD Association's application performance targets (DESIGN.md) */
#define SDT_A1_READ_IOPS  1500.0
#define SDT_A1_WRITE_IOPS 500.0
#define SDT_A2_READ_IOPS  4000.0
#define SDT_A2_WRITE_IOPS 2000.0
#define SDT_A_SEQ_MB_S    10.0

typedef enum {
	SDT_TARGET_NONE, /* this test has no A1/A2 target */
	SDT_TARGET_FAIL,
	SDT_TARGET_PASS,
} SdtTarget;

typedef struct {
	gchar *name; /* "seq-write", "rand-4k-read-qd32", ... */
	gdouble mb_s;
	gdouble iops;
	gdouble seconds;
	gboolean valid;      /* finite, non-negative figures and a duration > 0 */
	gdouble ceiling_pct; /* mb_s as % of the bus ceiling, or -1 if unknown */
	gdouble spread_pct;  /* the test's "ci_percent": its spread in %, or -1 if unknown */
	SdtTarget a1;
	SdtTarget a2;
} SdtBenchRow;

typedef struct {
	GPtrArray *rows; /* of SdtBenchRow */
	gdouble ceiling_mb_s;
	gchar *device;
	gchar *profile;
	GPtrArray *notes;    /* of gchar*: the engine's remarks on this run */
	GPtrArray *notes_en; /* of gchar*: the same as the engine wrote them (English) */
	guint invalid_rows;
	SdtTarget a1; /* whole-card verdict; NONE for a stand-in */
	SdtTarget a2;
	/* the test file was not on the SD card (target.stand_in): no A1/A2 marks,
	 * no verdict on the card, no place in before/after comparisons */
	gboolean stand_in;
	gchar *path;        /* the test file's directory */
	gdouble spread_pct; /* "verdict.spread_percent" (else "spread_percent"), -1 if unknown */
} SdtBenchSummary;

void sdt_bench_summary_free(SdtBenchSummary *summary);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBenchSummary, sdt_bench_summary_free)

/*
 * Reads the `bench --json` document.  Rows with a zero or negative duration,
 * or figures that are not finite numbers, are kept but marked invalid and
 * counted in @invalid_rows, so the window can say so instead of showing an
 * absurd rate.  Text that is not that document is SDT_ERROR_INVALID_DATA.
 */
SdtBenchSummary *sdt_bench_summary_parse(const gchar *json, GError **error);

/* the same for one entry of the history (an object with the bench members) */
SdtBenchSummary *sdt_bench_summary_from_object(JsonObject *obj, GError **error);

/* the summary of one history entry (its members, or under "result"), %NULL if none */
SdtBenchSummary *sdt_bench_summary_from_history_entry(JsonObject *entry);

typedef enum {
	SDT_HISTORY_COMPARE_NONE,    /* no benchmark of the card yet */
	SDT_HISTORY_COMPARE_CHANGE,  /* the last run before SD Tuner's last change, the latest after
				      */
	SDT_HISTORY_COMPARE_WAITING, /* a change, and no run after it yet */
	SDT_HISTORY_COMPARE_PREVIOUS, /* the latest run against the one before it */
} SdtHistoryCompareKind;

typedef struct {
	SdtHistoryCompareKind kind;
	SdtBenchSummary *before; /* %NULL when there is none */
	SdtBenchSummary *after;  /* %NULL when there is none */
	guint stand_in_runs;     /* benchmarks of a stand-in, left out */
} SdtHistoryComparison;

/*
 * What the History page compares, from the history's entries (oldest first):
 * only benchmarks of the SD card, never of a stand-in directory.
 */
SdtHistoryComparison *sdt_history_comparison_new(JsonArray *entries);
void sdt_history_comparison_free(SdtHistoryComparison *comparison);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtHistoryComparison, sdt_history_comparison_free)

/* a human name for a test, e.g. "Random 4K read (queue depth 32)" */
const gchar *sdt_bench_test_title(const gchar *name);

G_END_DECLS
