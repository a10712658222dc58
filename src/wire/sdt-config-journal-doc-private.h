/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-journal-doc.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-config-journal-doc codec that no other folder calls yet: one
 * moves to sdt-config-journal-doc.h with its first caller outside src/wire
 * (docs/ARCHITECTURE.md, "The wire layer").
 * Private to src/wire: tests/check-shape.py fails any other file that includes it.
 */

/* @obj as the journal, as strict as the _parse() functions */
SdtConfigJournalDoc *sdt_config_journal_doc_from_json(JsonObject *obj, GError **error);

SdtConfigJournalDocTrial *sdt_config_journal_doc_trial_from_json(JsonObject *obj, GError **error);
JsonNode *sdt_config_journal_doc_to_json(const SdtConfigJournalDoc *doc);
JsonNode *sdt_config_journal_doc_trial_to_json(const SdtConfigJournalDocTrial *doc);

G_END_DECLS
