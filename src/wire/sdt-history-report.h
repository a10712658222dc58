/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-bench-record.h"
#include "sdt-history-entry.h"
#include "sdt-verify-report.h"

G_BEGIN_DECLS

/*
 * The `history --json` document (History, DESIGN.md "History" and "Results over time"):
 * the entries under the state dir, each card's benchmark figures over time ("series"),
 * the card in the slot and the entries skipped as damaged ("warnings").  sdt_ops_history()
 * fills one in and writes it; the CLI and the app read it back.
 *
 * The history holds entries of other versions and files edited by hand: an entry is
 * kept as written (@node, written back as is) and read member by member, a member of
 * the wrong type staying unknown with @error saying which.  A series element or member
 * of the wrong type is left out or unknown the same way (the first such is logged).  The
 * document's own members ("entries", "series", "card_in_slot", "warnings") are strict.
 */

#define SDT_HISTORY_REPORT_KEY_ENTRIES      "entries"
#define SDT_HISTORY_REPORT_KEY_SERIES       "series"
#define SDT_HISTORY_REPORT_KEY_CARD_IN_SLOT "card_in_slot"
#define SDT_HISTORY_REPORT_KEY_WARNINGS     "warnings"

/* one before/after figure of a verification's evidence ("evidence.figures") */
typedef struct {
	gchar *name;           /* "seq-read", ...; NULL: not said */
	gchar *unit;           /* "MB/s" or "IOPS" */
	gdouble before;        /* NaN: unknown */
	gdouble before_spread; /* absolute, in @unit; NaN: unknown */
	gdouble after;
	gdouble after_spread;
} SdtHistoryReportFigure;

/* one of "entries" */
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
	GPtrArray *figures;            /* verify: of SdtHistoryReportFigure; never NULL */
	gchar *verdict;                /* check: "genuine", "fake", "undetermined"; NULL: unknown */
	gchar *reason;                 /* check: English */
	gchar *checked_device;  /* check of a card in a reader or slot: "sdb"; NULL: the card's */
	gint64 soak_mismatches; /* soak: bytes that read back wrong; -1: unknown */
	GError *error;          /* the first member that could not be read */
	JsonNode *node;         /* the entry as written */
} SdtHistoryReportEntry;

/* a card ("card_in_slot", "series[].card"): its CID in lower-case hex, name, serial */
typedef struct {
	gchar *id;
	gchar *name;   /* NULL: null */
	gchar *serial; /* "0x1e4c2983"; NULL: null */
} SdtHistoryReportCard;

/* one benchmark's figure of one test ("series[].tests[].points[]") */
typedef struct {
	gchar *time;    /* ISO 8601 */
	gdouble value;  /* in the test's unit; NaN: unknown (never drawn) */
	gdouble spread; /* absolute, in the unit; NaN: unknown */
	gchar *change;  /* the id of SD Tuner's change in force, NULL: none */
	gint64 usec;    /* @time as microseconds since the epoch, 0: unreadable (read only) */
} SdtHistoryReportPoint;

typedef struct {
	gchar *name;       /* "seq-write", ... */
	gchar *unit;       /* "MB/s" or "IOPS" */
	GPtrArray *points; /* of SdtHistoryReportPoint, oldest first; never NULL */
} SdtHistoryReportTest;

/* one of SD Tuner's changes, a marker on the time axis */
typedef struct {
	gchar *time;
	gchar *kind; /* "apply", "revert", "step-down", "undo" */
	gchar *id;   /* NULL: not said */
	gint64 usec;
} SdtHistoryReportChange;

/* a card's figures over time ("series[]") */
typedef struct {
	gchar *card_id; /* NULL: runs that did not record their card (older versions) */
	gchar *card_name;
	gchar *card_serial;
	gboolean in_slot;
	GPtrArray *tests;   /* of SdtHistoryReportTest; never NULL */
	GPtrArray *changes; /* of SdtHistoryReportChange; never NULL */
} SdtHistoryReportSeries;

typedef struct {
	GPtrArray *entries;                 /* of SdtHistoryReportEntry, oldest first */
	GPtrArray *series;                  /* of SdtHistoryReportSeries; never NULL */
	SdtHistoryReportCard *card_in_slot; /* NULL: none, or no CID */
	GPtrArray *warnings;                /* of gchar*, English; written when not empty */
} SdtHistoryReport;

/* an empty report: no entries, no series */
SdtHistoryReport *sdt_history_report_new(void);
void sdt_history_report_free(SdtHistoryReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtHistoryReport, sdt_history_report_free)

/* appends the history's @entry (its document referenced), read as the document's
 * entries are */
void sdt_history_report_add_history_entry(SdtHistoryReport *report, const SdtHistoryEntry *entry);

SdtHistoryReportCard *
sdt_history_report_card_new(const gchar *id, const gchar *name, const gchar *serial);
void sdt_history_report_card_free(SdtHistoryReportCard *card);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtHistoryReportCard, sdt_history_report_card_free)

/* empty ones, their arrays ready; a new point's value and spread are NaN */
SdtHistoryReportSeries *sdt_history_report_series_new(void);
SdtHistoryReportTest *sdt_history_report_test_new(const gchar *name, const gchar *unit);
SdtHistoryReportPoint *sdt_history_report_point_new(void);
SdtHistoryReportChange *
sdt_history_report_change_new(const gchar *time, const gchar *kind, const gchar *id);
void sdt_history_report_change_free(SdtHistoryReportChange *change);

/* "entries", "series", "card_in_slot" or "warnings" of the wrong type is
 * SDT_ERROR_INVALID_DATA naming it; absent or null is none */
SdtHistoryReport *sdt_history_report_from_json(JsonObject *obj, GError **error);
SdtHistoryReport *sdt_history_report_parse(const gchar *text, GError **error);
JsonNode *sdt_history_report_to_json(const SdtHistoryReport *report);
/* the text (pretty, as `sdtunerctl --json history` prints it) */
gchar *sdt_history_report_to_string(const SdtHistoryReport *report);

G_END_DECLS
