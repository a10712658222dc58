/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-l10n-record.h"

G_BEGIN_DECLS

/*
 * The verification's result: the `verify --json` document (DESIGN.md "Closed loop"),
 * the same object in the history (kind "verify", without "pending"), in pending.json's
 * "decided.result" and, its members id, decision, reason, next_id, time, evidence and
 * action, as status's "last_verification".  sdt_ops_verify() fills one in and writes it;
 * the CLI, the client and status read it back.
 *
 * Which members a document has depends on where it stands (nothing pending, a damaged
 * record, a wait, a decision carried out or not yet): @members says which ones it has,
 * each written exactly when its flag is set, in one order, so a document read back
 * writes the same bytes.  A string member whose flag is set and whose value is NULL is
 * null.  The reason is written when it is there (sdt-l10n-record.h).
 */

typedef enum {
	SDT_VERIFY_REPORT_PENDING = 1 << 0,
	SDT_VERIFY_REPORT_ID = 1 << 1,
	SDT_VERIFY_REPORT_ORIGINAL_ID = 1 << 2,
	SDT_VERIFY_REPORT_STEP = 1 << 3,
	SDT_VERIFY_REPORT_TRIAL = 1 << 4,
	SDT_VERIFY_REPORT_DECISION = 1 << 5,
	SDT_VERIFY_REPORT_NEXT_ID = 1 << 6,
	SDT_VERIFY_REPORT_TIME = 1 << 7,
	SDT_VERIFY_REPORT_STOP = 1 << 8,
	SDT_VERIFY_REPORT_FOREIGN_CHANGE = 1 << 9,
	SDT_VERIFY_REPORT_IMPROVED = 1 << 10,
	SDT_VERIFY_REPORT_WORSE = 1 << 11,
	SDT_VERIFY_REPORT_EVIDENCE = 1 << 12,
	SDT_VERIFY_REPORT_DECIDED_AT = 1 << 13,
	SDT_VERIFY_REPORT_ACTION = 1 << 14,
	/* the history's envelope: this boot's id, "kind" ("verify"), then "time" last */
	SDT_VERIFY_REPORT_BOOT_ID = 1 << 15,
	SDT_VERIFY_REPORT_KIND = 1 << 16,
} SdtVerifyReportMembers;

/* the members status's "last_verification" keeps of the last verify entry */
#define SDT_VERIFY_REPORT_LAST_MEMBERS                                                   \
	(SDT_VERIFY_REPORT_ID | SDT_VERIFY_REPORT_DECISION | SDT_VERIFY_REPORT_NEXT_ID | \
	 SDT_VERIFY_REPORT_TIME | SDT_VERIFY_REPORT_EVIDENCE | SDT_VERIFY_REPORT_ACTION)

/* one benchmark figure, before and after (NaN: unknown, null on the wire) */
typedef struct {
	gchar *name;
	gchar *unit;
	gdouble before;
	gdouble before_spread;
	gdouble after;
	gdouble after_spread;
} SdtVerifyReportFigure;

/* what the decision rested on */
typedef struct {
	gchar *boot_id_then;
	gchar *boot_id; /* NULL: null */
	gboolean tryboot_active;
	gboolean config_edited;
	gint64 attempts_before;
	gint64 clock_expected_hz;
	gint64 clock_observed_hz;
	gchar *cqe_expected; /* "cqe" is written when this is not NULL */
	gchar *cqe_observed;
	GPtrArray *log; /* of gchar*: the kernel log's lines */
	gboolean soak_ran;
	gint64 soak_bytes_written;
	gint64 soak_bytes_checked;
	gint64 soak_mismatches;
	gint64 soak_first_bad_offset; /* -1: null (clean) */
	GPtrArray *figures;           /* of SdtVerifyReportFigure */
} SdtVerifyReportEvidence;

typedef enum {
	SDT_VERIFY_REPORT_ACTION_ERROR = 1 << 0,
	SDT_VERIFY_REPORT_ACTION_PATH = 1 << 1,
	SDT_VERIFY_REPORT_ACTION_DIFF = 1 << 2,
	SDT_VERIFY_REPORT_ACTION_BACKUP = 1 << 3,
	SDT_VERIFY_REPORT_ACTION_KEPT = 1 << 4,
	SDT_VERIFY_REPORT_ACTION_WARNINGS = 1 << 5,
	SDT_VERIFY_REPORT_ACTION_TRIAL_CANCELLED = 1 << 6,
} SdtVerifyReportActionMembers;

/* what was done of the decision; @members as the report's (the writer's result it copies
 * has some of them) */
typedef struct {
	gchar *what;   /* "kept", "stepped-down", "reverted", "nothing-to-revert", "failed" */
	guint members; /* SdtVerifyReportActionMembers */
	gchar *error;  /* "failed": why, with what to do (English) */
	gchar *path;
	gchar *diff;
	gchar *backup;       /* NULL: null */
	GPtrArray *kept;     /* of gchar* */
	GPtrArray *warnings; /* of gchar* */
	gboolean trial_cancelled;
} SdtVerifyReportAction;

typedef struct {
	guint members; /* SdtVerifyReportMembers */
	gboolean pending;
	gchar *id;
	gchar *original_id;
	gint64 step;
	gboolean trial;
	gchar *decision; /* "wait", "keep", "step-down", "undo"; NULL: null */
	SdtL10nRecordReason *reason;
	gchar *next_id; /* NULL: null */
	gchar *time;    /* a history entry's, ISO 8601: after next_id, or last with "kind" */
	gboolean stop;
	gboolean foreign_change;
	GPtrArray *improved; /* of gchar* */
	GPtrArray *worse;    /* of gchar* */
	SdtVerifyReportEvidence *evidence;
	gchar *decided_at;
	SdtVerifyReportAction *action; /* NULL: null */
	gchar *boot_id;                /* the history entry's boot */
	gchar *kind;                   /* the history entry's kind, "verify" */
} SdtVerifyReport;

/* an empty report: no members */
SdtVerifyReport *sdt_verify_report_new(void);
void sdt_verify_report_free(SdtVerifyReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtVerifyReport, sdt_verify_report_free)
SdtVerifyReport *sdt_verify_report_copy(const SdtVerifyReport *report);

/* an empty evidence (no lines, no figures; first bad offset -1) */
SdtVerifyReportEvidence *sdt_verify_report_evidence_new(void);
/* an action @what with no other member */
SdtVerifyReportAction *sdt_verify_report_action_new(const gchar *what);
/* sets the action (taken; NULL: null) */
void sdt_verify_report_set_action(SdtVerifyReport *report, SdtVerifyReportAction *action);
/* adds @text to the action's warnings (the member added if it had none) */
void sdt_verify_report_action_warn(SdtVerifyReportAction *action, const gchar *text);

/* the reason in the reader's language ("" when none) */
const gchar *sdt_verify_report_reason(const SdtVerifyReport *report);

/* the text (pretty, as `sdtunerctl --json` prints it) */
gchar *sdt_verify_report_to_string(const SdtVerifyReport *report);
SdtVerifyReport *sdt_verify_report_parse(const gchar *text, GError **error);

G_END_DECLS
