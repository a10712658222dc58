/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-client-history.h"
#include "sdt-json-reader.h"

SdtClientBench *
sdt_client_history_entry_bench(JsonObject *entry)
{
	JsonObject *result = sdt_json_reader_get_object(entry, "result");
	g_autoptr(GError) error = NULL;
	SdtClientBench *bench;

	bench = sdt_client_bench_from_json(result != NULL ? result : entry, &error);
	if (bench == NULL)
		g_debug("history entry without a readable result: %s", error->message);
	return bench;
}

void
sdt_history_comparison_free(SdtHistoryComparison *comparison)
{
	if (comparison == NULL)
		return;
	sdt_client_bench_free(comparison->before);
	sdt_client_bench_free(comparison->after);
	g_free(comparison);
}

/* newest first: the latest runs, then SD Tuner's last change, then the run before it */
static void
sdt_history_comparison_collect(SdtHistoryComparison *c,
			       JsonArray *entries,
			       gboolean *changed,
			       SdtClientBench **previous)
{
	guint n = entries != NULL ? json_array_get_length(entries) : 0;

	for (gint i = (gint) n - 1; i >= 0; i--) {
		JsonNode *node = json_array_get_element(entries, (guint) i);
		JsonObject *entry =
			JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
		const gchar *kind = sdt_json_reader_get_string(entry, "kind");

		if (g_strcmp0(kind, "bench") == 0) {
			g_autoptr(SdtClientBench) s = sdt_client_history_entry_bench(entry);
			if (s == NULL)
				continue;
			if (s->stand_in)
				c->stand_in_runs++;
			else if (!*changed && c->after == NULL)
				c->after = g_steal_pointer(&s);
			else if (!*changed && *previous == NULL)
				*previous = g_steal_pointer(&s);
			else if (*changed && c->before == NULL)
				c->before = g_steal_pointer(&s);
		} else if (g_strcmp0(kind, "apply") == 0 || g_strcmp0(kind, "revert") == 0) {
			*changed = TRUE;
		}
	}
}

SdtHistoryComparison *
sdt_history_comparison_new(JsonArray *entries)
{
	SdtHistoryComparison *c = g_new0(SdtHistoryComparison, 1);
	g_autoptr(SdtClientBench) previous = NULL; /* the run before the latest, no change */
	gboolean changed = FALSE;

	sdt_history_comparison_collect(c, entries, &changed, &previous);
	if (c->after == NULL && c->before == NULL) {
		c->kind = SDT_HISTORY_COMPARE_NONE;
	} else if (changed && c->before != NULL && c->after != NULL) {
		c->kind = SDT_HISTORY_COMPARE_CHANGE;
	} else if (changed && c->after == NULL) {
		c->kind = SDT_HISTORY_COMPARE_WAITING;
	} else {
		c->kind = SDT_HISTORY_COMPARE_PREVIOUS;
		sdt_client_bench_free(c->before);
		c->before = g_steal_pointer(&previous);
	}
	return c;
}
