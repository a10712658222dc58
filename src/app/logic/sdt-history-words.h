/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-client-history.h"

G_BEGIN_DECLS

/* a test's figure (MB/s or IOPS) of @summary and its spread in the same unit (-1:
 * unknown); -1 when @summary has no valid result for @name */
gdouble sdt_history_words_figure(const SdtBenchRecord *summary,
				 const gchar *name,
				 gboolean iops,
				 gdouble *spread);

/* one line of the History page for @entry, in the user's language */
gchar *sdt_history_words_entry_text(const SdtClientHistoryEntry *entry);

G_END_DECLS
