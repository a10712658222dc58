/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-history-entry.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-history-entry codec that no other folder calls yet: the codec
 * has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-history-entry.h with its first caller outside src/wire (docs/ARCHITECTURE.md, "The
 * wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

/* as sdt_history_entry_parse_data(), from a parsed object or from text */
SdtHistoryEntry *sdt_history_entry_from_json(JsonObject *obj, GError **error);
SdtHistoryEntry *sdt_history_entry_parse(const gchar *text, GError **error);

G_END_DECLS
