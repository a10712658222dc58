/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-writer.h"

G_BEGIN_DECLS

/*
 * The journals under the state dir, for the writer's files (the public
 * readers are in sdt-config-writer.h): what the last apply wrote, and the
 * pending trial.
 */

#define SDT_CONFIG_JOURNAL "config-journal.json"
#define SDT_TRIAL_JOURNAL  "trial-journal.json"

/*
 * The trial journal, with the contract of sdt_config_journal_read(), as a JSON
 * object (its codec: SdtConfigJournalDocTrial of sdt-config-journal-doc.h; the
 * writer's files read that type with sdt_config_journal_read_trial_doc())
 */
gboolean sdt_config_journal_read_trial(SdtConfigWriter *self, JsonObject **journal, GError **error);
/* a JSON array of the strings (the ops put the edit's lines into their replies;
 * built by sdt_config_journal_doc_strings_to_array()) */
JsonArray *sdt_config_journal_array_from_strings(GPtrArray *strings);

G_END_DECLS
