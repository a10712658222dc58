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

G_END_DECLS
