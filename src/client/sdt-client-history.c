/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-client-history.h"
#include "sdt-client-read.h"
#include "sdt-json-reader.h"

static void
sdt_client_history_entry_free(SdtClientHistoryEntry *e)
{
	g_free(e->kind);
	g_free(e->time);
	g_free(e->id);
	g_free(e->profile);
	g_free(e->target_path);
	sdt_client_verification_free(e->verification);
	g_clear_error(&e->error);
	g_free(e);
}

void
sdt_client_history_free(SdtClientHistory *history)
{
	if (history == NULL)
		return;
	g_ptr_array_unref(history->entries);
	g_ptr_array_unref(history->warnings);
	g_free(history);
}

/* a member that cannot be read stays unknown; the first such is kept in e->error */
static void
sdt_client_history_entry_note(SdtClientHistoryEntry *e, gboolean ok, GError *error)
{
	if (!ok && e->error == NULL)
		e->error = error;
	else if (!ok)
		g_error_free(error);
}

static void
sdt_client_history_entry_read_bench(JsonObject *obj, const gchar *at, SdtClientHistoryEntry *e)
{
	JsonObject *target = NULL;
	g_autofree gchar *at_target = g_strdup_printf("%s.target", at);
	GError *error = NULL;
	gboolean ok;

	ok = sdt_client_read_string(obj, at, "profile", &e->profile, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_client_read_object(obj, at, "target", &target, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_client_read_string(target, at_target, "path", &e->target_path, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_client_read_bool(target, at_target, "stand_in", FALSE, &e->stand_in, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
}

static SdtClientHistoryEntry *
sdt_client_history_entry_read(JsonNode *node, guint index)
{
	SdtClientHistoryEntry *e = g_new0(SdtClientHistoryEntry, 1);
	g_autofree gchar *at = sdt_client_read_element(NULL, "entries", index);
	JsonObject *obj = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
	GError *error = NULL;
	gboolean ok;

	ok = sdt_client_read_string(obj, at, "kind", &e->kind, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_client_read_string(obj, at, "time", &e->time, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_client_read_string(obj, at, "id", &e->id, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_client_read_bool(obj, at, "trial", FALSE, &e->trial, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	if (g_strcmp0(e->kind, "bench") == 0)
		sdt_client_history_entry_read_bench(obj, at, e);
	if (g_strcmp0(e->kind, "verify") == 0) {
		e->verification = sdt_client_verification_from_json(obj, at, &error);
		sdt_client_history_entry_note(e, e->verification != NULL, g_steal_pointer(&error));
		if (e->verification == NULL)
			e->verification = g_new0(SdtClientVerification, 1);
	}
	if (obj == NULL && e->error == NULL)
		sdt_client_read_missing(NULL, at, &e->error);
	return e;
}

SdtClientHistory *
sdt_client_history_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtClientHistory) history = g_new0(SdtClientHistory, 1);
	JsonArray *entries;

	history->entries =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_history_entry_free);
	history->warnings = g_ptr_array_new_with_free_func(g_free);
	if (!sdt_client_read_array(obj, NULL, "entries", &entries, error) ||
	    !sdt_client_read_strings(obj, NULL, "warnings", history->warnings, error))
		return NULL;
	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++)
		g_ptr_array_add(
			history->entries,
			sdt_client_history_entry_read(json_array_get_element(entries, i), i));
	return g_steal_pointer(&history);
}

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
