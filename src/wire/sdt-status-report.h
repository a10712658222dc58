/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-l10n-record.h"
#include "sdt-verify-report.h"

G_BEGIN_DECLS

/*
 * The `status --json` document (GetStatus, DESIGN.md "Closed loop"): SD Tuner's block
 * in config.txt, a trial boot file, the change waiting for its verification and the
 * last verification.  sdt_ops_status() fills one in and writes it; the CLI and the app
 * read it back.  Strings are NULL when null; the optional members are written when
 * @members says so, in the order status has always written them.
 */

typedef enum {
	/* config.txt was read: lines, filter, disabled, failed and verification are there
	 * (else error comes before damaged and verified after reboot_pending) */
	SDT_STATUS_REPORT_BLOCK = 1 << 0,
	SDT_STATUS_REPORT_FOR_THIS_BOARD = 1 << 1,
	SDT_STATUS_REPORT_TRIAL_ERROR = 1 << 2,
	SDT_STATUS_REPORT_APPLIED_AT = 1 << 3, /* and "backup" */
	SDT_STATUS_REPORT_STATE_ERROR = 1 << 4,
	SDT_STATUS_REPORT_PENDING_ERROR = 1 << 5, /* "pending_verification_error" */
} SdtStatusReportMembers;

/* a trial boot file of SD Tuner's ("trial") */
typedef struct {
	gchar *id;
	gchar *path;
	gchar *reboot_command;
	gboolean stale;
	gchar *note; /* NULL: null */
} SdtStatusReportTrial;

/* the change waiting for its verification ("pending_verification") */
typedef struct {
	gchar *id;
	gchar *original_id;
	gint64 step;
	gboolean trial;
	gint64 attempts;
	gchar *since;
	/* a decision taken and not carried out to the end: written when @decision is set */
	gchar *decision;
	SdtL10nRecordReason *reason;
	gchar *error; /* its action failed: why, with what to do (English); NULL: null */
} SdtStatusReportPending;

typedef struct {
	guint members; /* SdtStatusReportMembers */
	gchar *path;   /* config.txt as seen on the Pi */
	gboolean damaged;
	gchar *error; /* English; the block could not be read or reverted */
	gboolean applied;
	gchar *id;
	GPtrArray *lines; /* of gchar* */
	gchar *filter;
	GPtrArray *disabled; /* of gchar* */
	gboolean for_this_board;
	gboolean verified_known; /* FALSE: "verified" is null (no block) */
	gboolean verified;
	gboolean failed;
	gboolean reboot_pending;
	gchar *verification;         /* English */
	SdtStatusReportTrial *trial; /* NULL: null */
	gchar *trial_error;
	gboolean tryboot_active;
	gchar *applied_at;
	gchar *backup;
	SdtStatusReportPending *pending_verification; /* NULL: null */
	gchar *state_error; /* the state folder is refused (another user's): why, English */
	gchar *pending_verification_error;  /* pending.json cannot be read: why */
	SdtVerifyReport *last_verification; /* NULL: null */
	gchar *check_journal_damaged;       /* a check journal kept damaged: its path */
} SdtStatusReport;

/* an empty report: no lines, nothing pending */
SdtStatusReport *sdt_status_report_new(void);
void sdt_status_report_free(SdtStatusReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtStatusReport, sdt_status_report_free)

SdtStatusReportTrial *sdt_status_report_trial_new(void);
SdtStatusReportPending *sdt_status_report_pending_new(void);

/* the pending decision's reason in the user's language ("" when none) */
const gchar *sdt_status_report_pending_reason(const SdtStatusReport *report);

/* a member of the wrong type is SDT_ERROR_INVALID_DATA naming it */
SdtStatusReport *sdt_status_report_from_json(JsonObject *obj, GError **error);
SdtStatusReport *sdt_status_report_parse(const gchar *text, GError **error);
/* the text (pretty, as `sdtunerctl --json status` prints it) */
gchar *sdt_status_report_to_string(const SdtStatusReport *report);

G_END_DECLS
