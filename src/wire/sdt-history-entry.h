/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-bench-record.h"
#include "sdt-check-result.h"
#include "sdt-config-answer.h"
#include "sdt-soak-report.h"
#include "sdt-verify-report.h"

G_BEGIN_DECLS

/*
 * One entry of the history (<state dir>/history/, DESIGN.md "History"): an envelope
 * ("kind", "time") around the document of what happened, which is its kind's own
 * document: a bench entry is a bench record (sdt-bench-record.h), a check entry a check
 * result (sdt-check-result.h), a soak entry a soak report, an apply, revert or verify
 * entry the config writer's and the verification's members.  The entry keeps that
 * document as it was written (@doc, its members in their order), so an entry reads back
 * and is listed byte for byte, whichever SD Tuner version wrote it; the kind's codec
 * reads the payload (sdt_history_entry_get_bench()).
 */
typedef struct {
	gchar *kind;     /* lower-case letters and '-': "apply", "bench", "check", ... */
	gchar *time;     /* ISO 8601 UTC, as written; NULL: not yet stamped (appended) */
	JsonObject *doc; /* the whole entry, "kind" and "time" included */
} SdtHistoryEntry;

/* the most an entry's file can hold (files are tiny) */
#define SDT_HISTORY_ENTRY_MAX_SIZE (256 * 1024)

/* whether @kind can name an entry (and its file): lower-case letters and '-' */
gboolean sdt_history_entry_kind_valid(const gchar *kind);

/*
 * A new entry of @kind at @time around @doc (referenced): @doc gets the "kind" and
 * "time" members (the caller's object changes, as the history always did).  @time NULL:
 * not yet stamped; sdt_history_append() stamps it.
 */
SdtHistoryEntry *sdt_history_entry_new(const gchar *kind, const gchar *time, JsonObject *doc);
/*
 * The entries SD Tuner appends, each its kind's document as the codec writes it, not yet
 * stamped: a benchmark of the card (with its own members, "config_sha256" and "card",
 * null when unknown), a check (with what ops added: "registers", "identity"), a soak test.
 */
SdtHistoryEntry *sdt_history_entry_new_bench(const SdtBenchRecord *record);
SdtHistoryEntry *sdt_history_entry_new_check(const SdtCheckResult *result);
SdtHistoryEntry *sdt_history_entry_new_soak(const SdtSoakReport *report);
/*
 * SD Tuner's changes, each with the boot it was made in (@boot_id; NULL: unknown, not
 * written): an apply ("id", "path", "backup", "trial" when TRUE, "changed" of @answer's),
 * a revert ("id", "path", "backup", "trial_cancelled", and "changed" when @answer has a
 * diff: whether config.txt changed), a verification's outcome (@report as it writes it;
 * its boot_id is the report's).
 */
SdtHistoryEntry *sdt_history_entry_new_apply(const SdtConfigAnswerApply *answer,
					     const gchar *boot_id);
SdtHistoryEntry *sdt_history_entry_new_revert(const SdtConfigAnswerRevert *answer,
					      const gchar *boot_id);
SdtHistoryEntry *sdt_history_entry_new_verify(const SdtVerifyReport *report);
/* gives @entry its "kind" and "time" members (after the document's), @time ISO 8601 UTC */
void sdt_history_entry_stamp(SdtHistoryEntry *entry, const gchar *time);
void sdt_history_entry_free(SdtHistoryEntry *entry);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtHistoryEntry, sdt_history_entry_free)

/*
 * An entry from the bytes of its file, strict: "kind" and "time" are required strings,
 * "kind" a valid kind; every member SD Tuner writes has the type it writes it with (a
 * check's "verdict" a word, a bench's an object), or is SDT_ERROR_INVALID_DATA naming it;
 * other members are kept, unread.  Too large, a NUL byte or not JSON is
 * SDT_ERROR_INVALID_DATA too; a string that is not UTF-8 is replaced visibly.
 */
SdtHistoryEntry *sdt_history_entry_parse_data(const gchar *data, gsize len, GError **error);
JsonNode *sdt_history_entry_to_json(const SdtHistoryEntry *entry);
/* the text of the entry's file */
gchar *sdt_history_entry_to_string(const SdtHistoryEntry *entry);
/* the entries (of SdtHistoryEntry*) as the "entries" array of `history --json` */
JsonArray *sdt_history_entry_list_to_json(GPtrArray *entries);

/*
 * Reading an entry: its kind's document through the kind's codec, or the members the
 * readers of the history use, typed.  A member of another type than SD Tuner writes
 * it with reads as not said (NULL, -1, FALSE), as those readers always took it.
 */

/* the kinds SD Tuner writes (SdtHistoryEntry.kind) */
#define SDT_HISTORY_ENTRY_KIND_APPLY  "apply"
#define SDT_HISTORY_ENTRY_KIND_REVERT "revert"
#define SDT_HISTORY_ENTRY_KIND_VERIFY "verify"
#define SDT_HISTORY_ENTRY_KIND_BENCH  "bench"
#define SDT_HISTORY_ENTRY_KIND_CHECK  "check"
#define SDT_HISTORY_ENTRY_KIND_SOAK   "soak"

/* a bench entry's payload, read by the bench record's codec; NULL (and @error) for a
 * bad record */
SdtBenchRecord *sdt_history_entry_get_bench(const SdtHistoryEntry *entry, GError **error);
/* a check entry's payload, read by the check result's codec; NULL (and @error) for a
 * bad result */
SdtCheckResult *sdt_history_entry_get_check(const SdtHistoryEntry *entry, GError **error);
/* a verify entry's payload, read by the verification's codec; NULL (and @error) */
SdtVerifyReport *sdt_history_entry_get_verify(const SdtHistoryEntry *entry, GError **error);

/* "boot_id": the boot a config change was made in; NULL: not said */
const gchar *sdt_history_entry_get_boot_id(const SdtHistoryEntry *entry);
/* "config_sha256": the config.txt a benchmark ran under; NULL: not said or unknown */
const gchar *sdt_history_entry_get_config_sha256(const SdtHistoryEntry *entry);

/* the change an apply, revert or verify entry records; the strings are the entry's,
 * NULL: not said */
typedef struct {
	const gchar *id;       /* "id": the change applied, reverted or verified */
	const gchar *what;     /* a verify's "action.what": "reverted", "stepped-down", ... */
	const gchar *next_id;  /* a verify's "next_id": the step it stepped down to */
	const gchar *decision; /* a verify's "decision": "keep", "step-down", "undo", ... */
} SdtHistoryEntryChange;

void sdt_history_entry_get_change(const SdtHistoryEntry *entry, SdtHistoryEntryChange *change);

/* the card a bench entry measured ("card", "target.stand_in"); the strings are the
 * entry's, NULL: not recorded */
typedef struct {
	const gchar *id; /* its CID in lower-case hex */
	const gchar *name;
	const gchar *serial;
	gboolean stand_in; /* a stand-in directory, not the card */
} SdtHistoryEntryCard;

void sdt_history_entry_get_card(const SdtHistoryEntry *entry, SdtHistoryEntryCard *card);

/* whether the entry has an "identity" member (null included): a device check's */
gboolean sdt_history_entry_has_identity(const SdtHistoryEntry *entry);

G_END_DECLS
