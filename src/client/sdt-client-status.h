/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* one verification after a reboot (status's last_verification, a history entry) */
typedef struct {
	gchar *id;
	gchar *decision;        /* "keep", "step-down", "undo", or another word of the helper */
	gchar *reason;          /* English */
	gchar *reason_code;     /* NULL: an entry of an older version */
	JsonArray *reason_args; /* NULL when not given */
	gchar *time;            /* ISO 8601 */
	gchar *action;          /* what was done: "kept", "stepped-down", "reverted",
				 * "failed", ...; NULL: not said (an older entry) */
	gchar *failure;         /* "failed": why, with what to do (English); else NULL */
} SdtClientVerification;

/* the `status --json` document (DESIGN.md); strings are NULL when null */
typedef struct {
	gchar *path;
	gboolean damaged;
	gchar *error; /* English; the block could not be read */
	gboolean applied;
	gchar *id;
	gchar *filter;
	GPtrArray *lines;    /* of gchar* */
	GPtrArray *disabled; /* of gchar* */
	gboolean verified;
	gboolean failed;
	gboolean reboot_pending;
	gchar *verification; /* English */
	gboolean has_trial;
	gchar *trial_id;
	gchar *trial_path;
	gchar *trial_reboot_command;
	gboolean tryboot_active;
	gchar *pending_verification_id;      /* NULL: nothing pending */
	gboolean pending_verification_trial; /* the pending change is a one-boot trial */
	/* a decision taken and not carried out to the end: it, why, and what failed */
	gchar *pending_verification_decision;
	gchar *pending_verification_reason;
	gchar *pending_verification_reason_code;
	JsonArray *pending_verification_reason_args;
	gchar *pending_verification_failure;
	gchar *pending_verification_damage; /* pending.json cannot be read: why */
	gchar *state_error; /* the state folder is refused (another user's): why, English */
	SdtClientVerification *last_verification;
	gchar *check_journal_damaged; /* a check journal kept damaged: its path */
} SdtClientStatus;

void sdt_client_status_verification_free(SdtClientVerification *v);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientVerification, sdt_client_status_verification_free)
/* a verification object (its members; absent ones are NULL) */
SdtClientVerification *
sdt_client_status_verification_from_json(JsonObject *obj, const gchar *where, GError **error);
/* the verification's reason in the user's language (from its code when it has one) */
const gchar *sdt_client_status_verification_reason(const SdtClientVerification *v);
/* status's pending decision's reason, likewise ("" when none) */
const gchar *sdt_client_status_pending_reason(const SdtClientStatus *s);

void sdt_client_status_free(SdtClientStatus *status);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientStatus, sdt_client_status_free)
/* a member of the wrong type is SDT_ERROR_INVALID_DATA naming it */
SdtClientStatus *sdt_client_status_from_json(JsonObject *obj, GError **error);

G_END_DECLS
