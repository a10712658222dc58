/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-status-report.h"
#include "sdt-verify-report.h"

G_BEGIN_DECLS

/*
 * Where the closed loop stands (ARCHITECTURE.md "The closed loop"), from the
 * helper's GetStatus answer: a change waiting for the restart, a change being
 * verified since the restart, and what the last verification decided.
 */
typedef enum {
	SDT_LOOP_IDLE,      /* nothing pending */
	SDT_LOOP_PENDING,   /* applied (or a trial prepared): a restart is needed */
	SDT_LOOP_VERIFYING, /* restarted with it: verification has not decided yet */
} SdtLoopPhase;

typedef struct {
	SdtLoopPhase phase;
	gchar *id;      /* the pending change, or NULL */
	gboolean trial; /* the pending change is a one-boot trial (tryboot.txt) */
	/* the last verification (status "last_verification"), NULLs if none */
	gchar *decision; /* "keep", "step-down", "undo" */
	gchar *decided_id;
	gchar *reason;  /* in the user's language (from its code, sdt-l10n-record.h) */
	gchar *time;    /* ISO 8601, when it was decided */
	gchar *failure; /* the decision could not be carried out: why, with what to do
			 * (in the user's language); NULL: it was done */
} SdtLoopState;

SdtLoopState *sdt_loop_state_new(const SdtStatusReport *status);
void sdt_loop_state_free(SdtLoopState *state);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtLoopState, sdt_loop_state_free)

/* a translated sentence for the pending or verifying phase, NULL when idle */
gchar *sdt_loop_state_phase_text(const SdtLoopState *state);

/* the last decision and its reason as translated sentences, NULL if none */
gchar *sdt_loop_state_outcome_text(const SdtLoopState *state);

/* a verification's @decision on @id with its @reason (already in the user's language,
 * sdt_verify_report_reason()), as translated sentences (also for the history's
 * "verify" entries); @failure (in the user's language, NULL: done): it could not be
 * carried out, said as such (issue 33); NULL for "wait" or unknown */
gchar *sdt_loop_state_decision_text(const gchar *decision,
				    const gchar *id,
				    const gchar *reason,
				    const gchar *failure);

/* the failure of @v's action in the user's language, or NULL when it was carried out */
const gchar *sdt_loop_state_failure(const SdtVerifyReport *v);

G_END_DECLS
