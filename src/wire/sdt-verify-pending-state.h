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
 * The pending state, <state>/pending.json (version 1), the record of a change waiting
 * for its verification (DESIGN.md "Closed loop"), and its one C type:
 * {version, id, original_id, step, trial, boot_id, attempts, tries: [boot ids], time,
 *  config_sha256, before: {name: {median, spread, unit}}, steps: [decisions], filter,
 *  type_code, replaces, decided?}
 * decided (optional): the decision taken and not yet carried out to the end,
 * {decision, reason, next_id, time, error, result}: a run that finds it finishes that
 * action and decides nothing again (issue 23 items 2 and 4).
 *
 * The file is SD Tuner's own and decides what is done to config.txt: every member but
 * "decided" is required, and one that is absent, of the wrong type or out of its range
 * makes the whole record damaged, its error naming the member (a damaged record is
 * undone by verify).
 */

/* one benchmark figure of "before": the median and its spread */
typedef struct {
	gchar *name; /* the test, e.g. "seq-write" */
	gdouble median;
	gdouble spread;
	gchar *unit; /* "MB/s" or "IOPS" */
} SdtVerifyPendingStateFigure;

/* a decision taken at an earlier step ("steps") */
typedef struct {
	gchar *id;
	gchar *decision;
	SdtL10nRecordReason *reason;
} SdtVerifyPendingStateStep;

/* the decision being carried out ("decided") */
typedef struct {
	gchar *decision;
	SdtL10nRecordReason *reason;
	gchar *next_id; /* NULL: null */
	gchar *time;
	gchar *error;            /* its action failed: why, with what to do; NULL: null */
	SdtVerifyReport *result; /* the verification's result, as recorded */
} SdtVerifyPendingStateDecided;

typedef struct {
	gchar *id;
	gchar *original_id;
	guint step;
	gboolean trial;
	gchar *boot_id; /* may be NULL */
	guint attempts;
	gchar **tries; /* boot ids of the attempts */
	gchar *time;
	gchar *config_sha256; /* config.txt (trial: tryboot.txt) as SD Tuner left it, or NULL */
	GPtrArray *before;    /* SdtVerifyPendingStateFigure; NULL: none (null) */
	GPtrArray *steps;     /* SdtVerifyPendingStateStep: decisions taken so far */
	gchar *filter;        /* the block's filter line, e.g. "[board-type=0x08]" */
	gint type_code;       /* the board the block is written for */
	guint replaces;       /* SdtConfigSdKind the block replaces */
	SdtVerifyPendingStateDecided *decided; /* the decision being carried out, or NULL */
} SdtVerifyPendingState;

/* @max_steps: the highest "step" a record may have */
#define SDT_VERIFY_PENDING_STATE_MAX_STEP 2

/* an empty record: no tries, no steps, no "before" */
SdtVerifyPendingState *sdt_verify_pending_state_new(void);
void sdt_verify_pending_state_free(SdtVerifyPendingState *state);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtVerifyPendingState, sdt_verify_pending_state_free)

/* an empty list of figures for "before", and one figure added to it */
GPtrArray *sdt_verify_pending_state_figures_new(void);
void sdt_verify_pending_state_figures_add(GPtrArray *figures,
					  const gchar *name,
					  gdouble median,
					  gdouble spread,
					  const gchar *unit);
/* the figure @name of @figures, or NULL */
const SdtVerifyPendingStateFigure *sdt_verify_pending_state_figures_find(GPtrArray *figures,
									 const gchar *name);

/* a step (@reason copied) added to @state's steps */
void sdt_verify_pending_state_add_step(SdtVerifyPendingState *state,
				       const gchar *id,
				       const gchar *decision,
				       const SdtL10nRecordReason *reason);

/* the decision being carried out: set (taken; NULL: none) */
SdtVerifyPendingStateDecided *sdt_verify_pending_state_decided_new(void);
void sdt_verify_pending_state_decided_free(SdtVerifyPendingStateDecided *decided);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtVerifyPendingStateDecided, sdt_verify_pending_state_decided_free)

/*
 * Reads pending.json's text: NULL with SDT_ERROR_INVALID_DATA when it is not JSON ("the
 * pending change is not valid JSON: …") or a member is missing, of the wrong type or out
 * of range ("the pending change is damaged: member “…” is missing or of the wrong type").
 */
SdtVerifyPendingState *sdt_verify_pending_state_parse(const gchar *text, gsize len, GError **error);
/* the error of a record whose @member is damaged, as sdt_verify_pending_state_parse()
 * gives it (for what only the reader can judge: an id SD Tuner would not write) */
gboolean sdt_verify_pending_state_damaged(const gchar *member, GError **error);
JsonNode *sdt_verify_pending_state_to_json(const SdtVerifyPendingState *state);
/* the file's text (pretty) */
gchar *sdt_verify_pending_state_to_string(const SdtVerifyPendingState *state);

/*
 * The evidence file of `verify --evidence FILE` (tests; --root only, DESIGN.md "verify"):
 * {"soak": {bytes_written, bytes_checked, mismatches, first_bad_offset}, "before": {NAME:
 * {median, spread, unit}}, "after": {…}}; each part absent or null when not given.
 */
typedef struct {
	GPtrArray *before;          /* SdtVerifyPendingStateFigure; NULL: not given */
	GPtrArray *after;           /* the same */
	gboolean has_soak;          /* "soak" was given */
	gdouble soak_bytes_written; /* NaN: unknown (absent or null) */
	gdouble soak_bytes_checked;
	gdouble soak_mismatches;
	gdouble soak_first_bad_offset;
} SdtVerifyPendingStateEvidence;

void sdt_verify_pending_state_evidence_free(SdtVerifyPendingStateEvidence *evidence);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtVerifyPendingStateEvidence, sdt_verify_pending_state_evidence_free)
/*
 * Reads the evidence file's text, strictly: NULL with SDT_ERROR_INVALID_DATA when it is
 * not a JSON object ("it is not valid JSON (…)") or a member is of another type than the
 * above, naming it ("before.seq-write.median"); unknown members are ignored
 */
SdtVerifyPendingStateEvidence *
sdt_verify_pending_state_evidence_parse(const gchar *text, gsize len, GError **error);

G_END_DECLS
