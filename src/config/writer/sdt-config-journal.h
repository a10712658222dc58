/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-journal-doc.h"
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
 * Reads the trial journal (its codec: SdtConfigJournalDocTrial of
 * sdt-config-journal-doc.h): TRUE with *@journal NULL when there is none,
 * FALSE with @error when it cannot be read or does not match the schema.
 */
gboolean sdt_config_journal_read_trial(SdtConfigWriter *self,
				       SdtConfigJournalDocTrial **journal,
				       GError **error);

G_END_DECLS
