/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-context.h"
#include "sdt-history-entry.h"

G_BEGIN_DECLS

/*
 * The history under <state dir>/history/: one JSON file per entry, named
 * <microseconds since the epoch>-<kind>.json and written atomically, so a
 * killed writer never leaves half an entry and readers need no lock.
 * @entry (sdt-history-entry.h: sdt_history_entry_new_bench(), ...) is stamped
 * with its "kind" and the time (ISO 8601 UTC) and written; @name (may be NULL)
 * gets its file's name, for sdt_history_remove_entry().
 */
gboolean sdt_history_append(SdtContext *ctx, SdtHistoryEntry *entry, gchar **name, GError **error);
/* the entry of file @name goes (an apply that failed after writing it); gone is fine */
gboolean sdt_history_remove_entry(SdtContext *ctx, const gchar *name, GError **error);

/*
 * Removes the temporary files of history writes that were killed before their
 * rename (kill -9, power loss): "<entry>.json.XXXXXX".  Called when the helper
 * starts; every append does it too.  Returns how many were removed.
 */
guint sdt_history_remove_stale(SdtContext *ctx, GError **error);

/*
 * All entries (of SdtHistoryEntry*, sdt-history-entry.h), oldest first; an empty or
 * missing history is an empty array.  Each entry skipped as damaged adds a sentence to
 * @warnings (may be NULL).
 */
GPtrArray *sdt_history_entries(SdtContext *ctx, GPtrArray *warnings, GError **error);

G_END_DECLS
