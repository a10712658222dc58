/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-check-result.h"

G_BEGIN_DECLS

/*
 * What the app says about a check's result, the same on the Health page (the running
 * card) and the Cards page (a card in a reader, issue 34).  Pure, without GTK:
 * tests/app/test-app-logic.c.
 */

/* translated, one line each: the verdict; for a fake card what it really holds and past
 * where files are lost; the reason; how much of the card was checked and how long */
gchar *sdt_check_words_result(const SdtCheckResult *result);

/* translated, or NULL without @time or @verdict: the card checked before in a reader or
 * another slot (health "checked_before"): @match "cid" is this card, else maybe it */
gchar *sdt_check_words_checked_before(const gchar *match, const gchar *time, const gchar *verdict);

G_END_DECLS
