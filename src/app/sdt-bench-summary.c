/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-l10n.h"
#include "sdt-bench-summary.h"
#include "sdt-error.h"
#include "sdt-json-reader.h"

static void
sdt_bench_row_free(SdtBenchRow *row)
{
	g_free(row->name);
	g_free(row);
}

void
sdt_bench_summary_free(SdtBenchSummary *summary)
{
	if (summary == NULL)
		return;
	g_ptr_array_unref(summary->rows);
	g_ptr_array_unref(summary->notes);
	g_ptr_array_unref(summary->notes_en);
	g_free(summary->device);
	g_free(summary->profile);
	g_free(summary->path);
	g_free(summary);
}

const gchar *
sdt_bench_test_title(const gchar *name)
{
	struct {
		const gchar *name;
		const gchar *title;
	} titles[] = {
		{"seq-write", N_("Sequential write")},
		{"seq-read", N_("Sequential read")},
		{"rand-4k-write-qd1", N_("Random 4K write, one at a time")},
		{"rand-4k-read-qd1", N_("Random 4K read, one at a time")},
		{"rand-4k-write-qd32", N_("Random 4K write, 32 queued")},
		{"rand-4k-read-qd32", N_("Random 4K read, 32 queued")},
		{"raw-read", N_("Raw device read")},
	};
	for (guint i = 0; i < G_N_ELEMENTS(titles); i++) {
		if (g_strcmp0(name, titles[i].name) == 0)
			return _(titles[i].title);
	}
	return name;
}

static SdtTarget
sdt_bench_target(gdouble value, gdouble target)
{
	if (!isfinite(value))
		return SDT_TARGET_NONE;
	return value >= target ? SDT_TARGET_PASS : SDT_TARGET_FAIL;
}

static void
sdt_bench_row_set_targets(SdtBenchRow *row)
{
	row->a1 = SDT_TARGET_NONE;
	row->a2 = SDT_TARGET_NONE;
	if (!row->valid)
		return;
	if (g_strcmp0(row->name, "seq-write") == 0) {
		row->a1 = sdt_bench_target(row->mb_s, SDT_A_SEQ_MB_S);
		row->a2 = row->a1;
	} else if (g_str_has_prefix(row->name, "rand-4k-read-")) {
		row->a1 = sdt_bench_target(row->iops, SDT_A1_READ_IOPS);
		row->a2 = sdt_bench_target(row->iops, SDT_A2_READ_IOPS);
	} else if (g_str_has_prefix(row->name, "rand-4k-write-")) {
		row->a1 = sdt_bench_target(row->iops, SDT_A1_WRITE_IOPS);
		row->a2 = sdt_bench_target(row->iops, SDT_A2_WRITE_IOPS);
	}
}

/* the verdict member may be a boolean, or an object with a "pass" boolean */
static SdtTarget
sdt_bench_summary_get_verdict(JsonObject *verdict, const gchar *member)
{
	JsonNode *node;

	if (verdict == NULL)
		return SDT_TARGET_NONE;
	node = json_object_get_member(verdict, member);
	if (node == NULL)
		return SDT_TARGET_NONE;
	if (JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == G_TYPE_BOOLEAN)
		return json_node_get_boolean(node) ? SDT_TARGET_PASS : SDT_TARGET_FAIL;
	if (JSON_NODE_HOLDS_OBJECT(node)) {
		JsonObject *obj = json_node_get_object(node);
		JsonNode *pass = json_object_get_member(obj, "pass");
		if (pass != NULL && JSON_NODE_HOLDS_VALUE(pass) &&
		    json_node_get_value_type(pass) == G_TYPE_BOOLEAN)
			return json_node_get_boolean(pass) ? SDT_TARGET_PASS : SDT_TARGET_FAIL;
	}
	return SDT_TARGET_NONE;
}

/* a percentage such as a spread, or -1 when it is missing or not a number >= 0 */
static gdouble
sdt_bench_percent(JsonObject *obj, const gchar *member)
{
	gdouble v = sdt_json_reader_get_number(obj, member);
	return isfinite(v) && v >= 0 ? v : -1;
}

/* the engine's notes: translated, and as it wrote them */
static void
sdt_bench_summary_read_notes(SdtBenchSummary *summary, JsonArray *notes)
{
	for (guint i = 0; notes != NULL && i < json_array_get_length(notes); i++) {
		JsonNode *node = json_array_get_element(notes, i);
		if (JSON_NODE_HOLDS_VALUE(node) &&
		    json_node_get_value_type(node) == G_TYPE_STRING) {
			g_ptr_array_add(summary->notes,
					sdt_l10n_translate(json_node_get_string(node)));
			g_ptr_array_add(summary->notes_en, g_strdup(json_node_get_string(node)));
		}
	}
}

SdtBenchSummary *
sdt_bench_summary_from_object(JsonObject *obj, GError **error)
{
	g_autoptr(SdtBenchSummary) summary = g_new0(SdtBenchSummary, 1);
	JsonArray *tests;
	JsonObject *target;
	JsonNode *verdict;

	summary->rows = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_bench_row_free);
	summary->notes = g_ptr_array_new_with_free_func(g_free);
	summary->notes_en = g_ptr_array_new_with_free_func(g_free);
	tests = sdt_json_reader_get_array(obj, "tests");
	if (tests == NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("The benchmark result has no list of tests"));
		return NULL;
	}
	summary->ceiling_mb_s = sdt_json_reader_get_number(obj, "ceiling_mb_s");
	if (!isfinite(summary->ceiling_mb_s) || summary->ceiling_mb_s <= 0)
		summary->ceiling_mb_s = -1;
	summary->profile = g_strdup(sdt_json_reader_get_string(obj, "profile"));
	summary->spread_pct =
		sdt_bench_percent(sdt_json_reader_get_object(obj, "verdict"), "spread_percent");
	if (summary->spread_pct < 0)
		summary->spread_pct = sdt_bench_percent(obj, "spread_percent");
	target = sdt_json_reader_get_object(obj, "target");
	summary->device = g_strdup(sdt_json_reader_get_string(target, "device"));
	summary->path = g_strdup(sdt_json_reader_get_string(target, "path"));
	summary->stand_in = sdt_json_reader_get_bool(target, "stand_in", FALSE) ||
			    sdt_json_reader_get_bool(sdt_json_reader_get_object(obj, "verdict"),
						     "stand_in",
						     FALSE);

	for (guint i = 0; i < json_array_get_length(tests); i++) {
		JsonNode *node = json_array_get_element(tests, i);
		JsonObject *test;
		SdtBenchRow *row;

		if (!JSON_NODE_HOLDS_OBJECT(node))
			continue;
		test = json_node_get_object(node);
		row = g_new0(SdtBenchRow, 1);
		row->name = g_strdup(sdt_json_reader_get_string(test, "name"));
		if (row->name == NULL)
			row->name = g_strdup("?");
		row->mb_s = sdt_json_reader_get_number(test, "mb_s");
		row->iops = sdt_json_reader_get_number(test, "iops");
		row->seconds = sdt_json_reader_get_number(test, "seconds");
		row->spread_pct = sdt_bench_percent(test, "ci_percent");
		row->valid = isfinite(row->mb_s) && row->mb_s >= 0 && isfinite(row->iops) &&
			     row->iops >= 0 && isfinite(row->seconds) && row->seconds > 0;
		if (!row->valid)
			summary->invalid_rows++;
		row->ceiling_pct = row->valid && summary->ceiling_mb_s > 0
					   ? 100.0 * row->mb_s / summary->ceiling_mb_s
					   : -1;
		/* a stand-in's figures are not the card's: no A1/A2 marks */
		if (!summary->stand_in)
			sdt_bench_row_set_targets(row);
		g_ptr_array_add(summary->rows, row);
	}

	sdt_bench_summary_read_notes(summary, sdt_json_reader_get_array(obj, "notes"));

	verdict = json_object_get_member(obj, "verdict");
	if (verdict != NULL && JSON_NODE_HOLDS_OBJECT(verdict) && summary->invalid_rows == 0 &&
	    !summary->stand_in) {
		summary->a1 = sdt_bench_summary_get_verdict(json_node_get_object(verdict), "a1");
		summary->a2 = sdt_bench_summary_get_verdict(json_node_get_object(verdict), "a2");
	}
	return g_steal_pointer(&summary);
}

SdtBenchSummary *
sdt_bench_summary_parse(const gchar *json, GError **error)
{
	g_autoptr(JsonNode) root = sdt_json_reader_parse(json, error);
	if (root == NULL)
		return NULL;
	return sdt_bench_summary_from_object(json_node_get_object(root), error);
}

SdtBenchSummary *
sdt_bench_summary_from_history_entry(JsonObject *entry)
{
	JsonObject *result = sdt_json_reader_get_object(entry, "result");
	g_autoptr(GError) error = NULL;
	SdtBenchSummary *summary;

	summary = sdt_bench_summary_from_object(result != NULL ? result : entry, &error);
	if (summary == NULL)
		g_debug("history entry without results: %s", error->message);
	return summary;
}

void
sdt_history_comparison_free(SdtHistoryComparison *comparison)
{
	if (comparison == NULL)
		return;
	sdt_bench_summary_free(comparison->before);
	sdt_bench_summary_free(comparison->after);
	g_free(comparison);
}

SdtHistoryComparison *
sdt_history_comparison_new(JsonArray *entries)
{
	g_autoptr(SdtHistoryComparison) c = g_new0(SdtHistoryComparison, 1);
	g_autoptr(SdtBenchSummary) previous = NULL; /* the run before the latest, no change */
	gboolean changed = FALSE;
	guint n = entries != NULL ? json_array_get_length(entries) : 0;

	/* newest first: the latest runs, then SD Tuner's last change, then the run before it */
	for (gint i = (gint) n - 1; i >= 0; i--) {
		JsonNode *node = json_array_get_element(entries, (guint) i);
		JsonObject *entry =
			JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
		const gchar *kind = sdt_json_reader_get_string(entry, "kind");

		if (g_strcmp0(kind, "bench") == 0) {
			g_autoptr(SdtBenchSummary) s = sdt_bench_summary_from_history_entry(entry);
			if (s == NULL)
				continue;
			if (s->stand_in)
				c->stand_in_runs++;
			else if (!changed && c->after == NULL)
				c->after = g_steal_pointer(&s);
			else if (!changed && previous == NULL)
				previous = g_steal_pointer(&s);
			else if (changed && c->before == NULL)
				c->before = g_steal_pointer(&s);
		} else if (g_strcmp0(kind, "apply") == 0 || g_strcmp0(kind, "revert") == 0) {
			changed = TRUE;
		}
	}
	if (c->after == NULL && c->before == NULL) {
		c->kind = SDT_HISTORY_COMPARE_NONE;
	} else if (changed && c->before != NULL && c->after != NULL) {
		c->kind = SDT_HISTORY_COMPARE_CHANGE;
	} else if (changed && c->after == NULL) {
		c->kind = SDT_HISTORY_COMPARE_WAITING;
	} else {
		c->kind = SDT_HISTORY_COMPARE_PREVIOUS;
		sdt_bench_summary_free(c->before);
		c->before = g_steal_pointer(&previous);
	}
	return g_steal_pointer(&c);
}
