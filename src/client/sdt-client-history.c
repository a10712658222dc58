/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-client-history.h"

void
sdt_client_history_comparison_free(SdtHistoryComparison *comparison)
{
	g_free(comparison);
}

/* newest first: the latest runs, then SD Tuner's last change, then the run before it */
static void
sdt_history_comparison_collect(SdtHistoryComparison *c,
			       const SdtClientHistory *history,
			       gboolean *changed,
			       const SdtBenchRecord **previous)
{
	for (guint i = history->entries->len; i > 0; i--) {
		const SdtClientHistoryEntry *e = g_ptr_array_index(history->entries, i - 1);
		const SdtBenchRecord *s = e->bench;

		if (g_strcmp0(e->kind, "bench") == 0) {
			if (s == NULL)
				continue;
			if (s->stand_in)
				c->stand_in_runs++;
			else if (!*changed && c->after == NULL)
				c->after = s;
			else if (!*changed && *previous == NULL)
				*previous = s;
			else if (*changed && c->before == NULL)
				c->before = s;
		} else if (g_strcmp0(e->kind, "apply") == 0 || g_strcmp0(e->kind, "revert") == 0) {
			*changed = TRUE;
		}
	}
}

SdtHistoryComparison *
sdt_client_history_comparison_new(const SdtClientHistory *history)
{
	SdtHistoryComparison *c = g_new0(SdtHistoryComparison, 1);
	const SdtBenchRecord *previous = NULL; /* the run before the latest, no change */
	gboolean changed = FALSE;

	sdt_history_comparison_collect(c, history, &changed, &previous);
	if (c->after == NULL && c->before == NULL) {
		c->kind = SDT_HISTORY_COMPARE_NONE;
	} else if (changed && c->before != NULL && c->after != NULL) {
		c->kind = SDT_HISTORY_COMPARE_CHANGE;
	} else if (changed && c->after == NULL) {
		c->kind = SDT_HISTORY_COMPARE_WAITING;
	} else {
		c->kind = SDT_HISTORY_COMPARE_PREVIOUS;
		c->before = previous;
	}
	return c;
}
