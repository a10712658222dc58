/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-client-history.h"
#include "sdt-json-strict.h"
#include "sdt-client-series-private.h"

static void
sdt_client_figure_free(SdtClientFigure *f)
{
	g_free(f->name);
	g_free(f->unit);
	g_free(f);
}

static void
sdt_client_history_entry_free(SdtClientHistoryEntry *e)
{
	g_free(e->kind);
	g_free(e->time);
	g_free(e->id);
	g_free(e->profile);
	g_free(e->target_path);
	g_free(e->verdict);
	g_free(e->reason);
	g_free(e->checked_device);
	sdt_bench_record_free(e->bench);
	sdt_verify_report_free(e->verification);
	g_ptr_array_unref(e->figures);
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
	g_ptr_array_unref(history->series);
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

	ok = sdt_json_strict_string(obj, at, "profile", &e->profile, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_object(obj, at, "target", &target, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_string(target, at_target, "path", &e->target_path, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_bool(target, at_target, "stand_in", FALSE, &e->stand_in, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
}

/*
 * The benchmark of a bench entry (its members, or under "result"); an entry
 * without a readable one keeps none, and only the log says why: the history
 * may hold entries of other versions or edited by hand.
 */
static void
sdt_client_history_entry_read_result(JsonObject *obj, const gchar *at, SdtClientHistoryEntry *e)
{
	JsonObject *result = NULL;
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_object(obj, at, "result", &result, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	e->bench = sdt_bench_record_from_json(result != NULL ? result : obj, &error);
	if (e->bench == NULL) {
		g_debug("%s without a readable result: %s", at, error->message);
		g_error_free(error);
	}
}

/* one of "evidence.figures"; a member of the wrong type stays unknown */
static SdtClientFigure *
sdt_client_history_figure_read(JsonObject *o, const gchar *at, SdtClientHistoryEntry *e)
{
	SdtClientFigure *f = g_new0(SdtClientFigure, 1);
	const gchar *numbers[] = {"before", "before_spread", "after", "after_spread"};
	gdouble *values[] = {&f->before, &f->before_spread, &f->after, &f->after_spread};
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_string(o, at, "name", &f->name, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_string(o, at, "unit", &f->unit, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	for (guint i = 0; i < G_N_ELEMENTS(numbers); i++) {
		ok = sdt_json_strict_number(o, at, numbers[i], values[i], &error);
		sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	}
	return f;
}

/* the before/after figures of a verify entry's evidence */
static void
sdt_client_history_entry_read_figures(JsonObject *obj, const gchar *at, SdtClientHistoryEntry *e)
{
	g_autofree gchar *at_evidence = g_strdup_printf("%s.evidence", at);
	JsonObject *evidence = NULL;
	JsonArray *figures = NULL;
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_object(obj, at, "evidence", &evidence, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_array(evidence, at_evidence, "figures", &figures, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	for (guint i = 0; figures != NULL && i < json_array_get_length(figures); i++) {
		g_autofree gchar *at_figure = sdt_json_strict_element(at_evidence, "figures", i);
		JsonObject *o = sdt_json_strict_element_object(json_array_get_element(figures, i),
							       at_figure,
							       &error);

		ok = o != NULL;
		sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
		if (ok)
			g_ptr_array_add(e->figures,
					sdt_client_history_figure_read(o, at_figure, e));
	}
}

/* a soak test's result: how many bytes read back wrong */
static void
sdt_client_history_entry_read_soak(JsonObject *obj, const gchar *at, SdtClientHistoryEntry *e)
{
	g_autofree gchar *at_soak = g_strdup_printf("%s.soak", at);
	JsonObject *soak = NULL;
	GError *error = NULL;
	gboolean ok;

	ok = sdt_json_strict_object(obj, at, "soak", &soak, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_int(soak, at_soak, "mismatches", -1, &e->soak_mismatches, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
}

/* a device check's "identity" (issue 34): the device it was checked as */
static void
sdt_client_history_entry_read_identity(JsonObject *obj, const gchar *at, SdtClientHistoryEntry *e)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *where = g_strconcat(at != NULL ? at : "", ".identity", NULL);
	JsonObject *identity = NULL;
	gboolean ok = sdt_json_strict_object(obj, at, "identity", &identity, &error);

	if (ok && identity != NULL)
		ok = sdt_json_strict_string(identity, where, "device", &e->checked_device, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
}

static SdtClientHistoryEntry *
sdt_client_history_entry_read(JsonNode *node, guint index)
{
	SdtClientHistoryEntry *e = g_new0(SdtClientHistoryEntry, 1);
	g_autofree gchar *at = sdt_json_strict_element(NULL, "entries", index);
	JsonObject *obj = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
	GError *error = NULL;
	gboolean ok;

	e->figures = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_figure_free);

	ok = sdt_json_strict_string(obj, at, "kind", &e->kind, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_string(obj, at, "time", &e->time, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_string(obj, at, "id", &e->id, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_bool(obj, at, "trial", FALSE, &e->trial, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_bool(obj, at, "trial_cancelled", FALSE, &e->trial_cancelled, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	ok = sdt_json_strict_bool(obj, at, "changed", TRUE, &e->changed, &error);
	sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
	if (g_strcmp0(e->kind, "bench") == 0) {
		sdt_client_history_entry_read_bench(obj, at, e);
		sdt_client_history_entry_read_result(obj, at, e);
	}
	if (g_strcmp0(e->kind, "check") == 0) {
		ok = sdt_json_strict_string(obj, at, "verdict", &e->verdict, &error);
		sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
		ok = sdt_json_strict_string(obj, at, "reason", &e->reason, &error);
		sdt_client_history_entry_note(e, ok, g_steal_pointer(&error));
		sdt_client_history_entry_read_identity(obj, at, e);
	}
	e->soak_mismatches = -1;
	if (g_strcmp0(e->kind, "soak") == 0)
		sdt_client_history_entry_read_soak(obj, at, e);
	if (g_strcmp0(e->kind, "verify") == 0) {
		e->verification = sdt_verify_report_from_json_at(obj, at, &error);
		sdt_client_history_entry_note(e, e->verification != NULL, g_steal_pointer(&error));
		if (e->verification == NULL)
			e->verification = sdt_verify_report_new();
		sdt_client_history_entry_read_figures(obj, at, e);
	}
	if (obj == NULL && e->error == NULL)
		sdt_json_strict_missing(NULL, at, &e->error);
	return e;
}

SdtClientHistory *
sdt_client_history_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtClientHistory) history = g_new0(SdtClientHistory, 1);
	g_autoptr(GError) error_series = NULL;
	JsonArray *entries;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	history->entries =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_history_entry_free);
	history->warnings = g_ptr_array_new_with_free_func(g_free);
	history->series = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_series_free);
	if (!sdt_json_strict_array(obj, NULL, "entries", &entries, error) ||
	    !sdt_json_strict_strings(obj, NULL, "warnings", history->warnings, error))
		return NULL;
	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++)
		g_ptr_array_add(
			history->entries,
			sdt_client_history_entry_read(json_array_get_element(entries, i), i));
	/* a series that cannot be read is left out, never the whole history */
	if (!sdt_client_series_read(obj, history->series, &error_series))
		g_debug("history series: %s", error_series->message);
	return g_steal_pointer(&history);
}

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
