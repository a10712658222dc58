/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-bench-record.h"
#include "sdt-card.h"
#include "sdt-history.h"
#include "sdt-mounts.h"
#include "sdt-ops-private.h"
#include "sdt-ops.h"

/*
 * `history`: the entries under the state dir (sdt-history.c), with the damaged ones
 * named, and each card's benchmark figures over time ("series", DESIGN.md "Results over
 * time"): per card and per test the runs' figures with their spread and the change in
 * force, and SD Tuner's changes as markers.
 */

/* the card of an SdtCard: {id, name, serial}, or NULL when it has no readable CID */
static JsonObject *
sdt_ops_history_card_object(const SdtCard *card)
{
	g_autofree gchar *id = NULL;
	JsonObject *o;

	if (card == NULL || !card->present || card->cid_hex == NULL)
		return NULL;
	id = g_ascii_strdown(g_strstrip(g_strdup(card->cid_hex)), -1);
	if (id[0] == '\0')
		return NULL;
	o = json_object_new();
	json_object_set_string_member(o, "id", id);
	if (card->cid_valid && card->cid.name[0] != '\0')
		json_object_set_string_member(o, "name", card->cid.name);
	else
		json_object_set_null_member(o, "name");
	if (card->cid_valid) {
		g_autofree gchar *serial = g_strdup_printf("0x%08x", card->cid.serial);
		json_object_set_string_member(o, "serial", serial);
	} else {
		json_object_set_null_member(o, "serial");
	}
	return o;
}

JsonObject *
sdt_ops_history_card(SdtContext *ctx)
{
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) mounts = sdt_mounts_load(ctx, NULL);
	g_autoptr(SdtCard) card = sdt_card_detect(mounts, warnings);

	return sdt_ops_history_card_object(card);
}

/* the card a bench entry recorded ("card.id"), NULL for an older entry or an odd one */
static const gchar *
sdt_ops_history_entry_card(JsonObject *e)
{
	JsonNode *card = json_object_get_member(e, "card");
	JsonNode *id;

	if (card == NULL || !JSON_NODE_HOLDS_OBJECT(card))
		return NULL;
	id = json_object_get_member(json_node_get_object(card), "id");
	if (id == NULL || !JSON_NODE_HOLDS_VALUE(id) ||
	    json_node_get_value_type(id) != G_TYPE_STRING)
		return NULL;
	return json_node_get_string(id);
}

static const gchar *
sdt_ops_history_str(JsonObject *o, const gchar *name)
{
	JsonNode *n = o != NULL ? json_object_get_member(o, name) : NULL;

	if (n == NULL || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
		return NULL;
	return json_node_get_string(n);
}

/* the change a config entry made: a marker (NULL: none) and the id in force after it */
static JsonObject *
sdt_ops_history_change(JsonObject *e, const gchar *kind, gchar **in_force)
{
	JsonNode *action = json_object_get_member(e, "action");
	const gchar *what = NULL;
	const gchar *marker = NULL;
	const gchar *id = sdt_ops_history_str(e, "id");
	JsonObject *m;

	if (action != NULL && JSON_NODE_HOLDS_OBJECT(action))
		what = sdt_ops_history_str(json_node_get_object(action), "what");
	if (g_strcmp0(kind, "apply") == 0) {
		marker = "apply";
		g_free(*in_force);
		*in_force = g_strdup(id);
	} else if (g_strcmp0(kind, "revert") == 0 || g_strcmp0(what, "reverted") == 0) {
		marker = g_strcmp0(kind, "revert") == 0 ? "revert" : "undo";
		g_clear_pointer(in_force, g_free);
	} else if (g_strcmp0(what, "stepped-down") == 0) {
		marker = "step-down";
		id = sdt_ops_history_str(e, "next_id");
		g_free(*in_force);
		*in_force = g_strdup(id);
	}
	if (marker == NULL)
		return NULL;
	m = json_object_new();
	json_object_set_string_member(m, "time", sdt_ops_history_str(e, "time"));
	json_object_set_string_member(m, "kind", marker);
	if (id != NULL)
		json_object_set_string_member(m, "id", id);
	else
		json_object_set_null_member(m, "id");
	return m;
}

/* one series: a card's runs, test by test ("tests": [{name, unit, points}]) */
typedef struct {
	gchar *card_id; /* NULL: runs that did not record their card */
	JsonObject *card;
	GPtrArray *names;   /* of gchar*, in the order first met */
	GHashTable *points; /* name -> JsonArray of points */
} SdtOpsSeries;

static void
sdt_ops_series_free(SdtOpsSeries *s)
{
	g_free(s->card_id);
	if (s->card != NULL)
		json_object_unref(s->card);
	g_ptr_array_unref(s->names);
	g_hash_table_unref(s->points);
	g_free(s);
}

static SdtOpsSeries *
sdt_ops_series_get(GPtrArray *all, const gchar *card_id, JsonObject *e)
{
	SdtOpsSeries *s;
	JsonNode *card = json_object_get_member(e, "card");

	for (guint i = 0; i < all->len; i++) {
		s = g_ptr_array_index(all, i);
		if (g_strcmp0(s->card_id, card_id) == 0)
			return s;
	}
	s = g_new0(SdtOpsSeries, 1);
	s->card_id = g_strdup(card_id);
	if (card_id != NULL && card != NULL && JSON_NODE_HOLDS_OBJECT(card))
		s->card = json_object_ref(json_node_get_object(card));
	s->names = g_ptr_array_new_with_free_func(g_free);
	s->points = g_hash_table_new_full(g_str_hash,
					  g_str_equal,
					  g_free,
					  (GDestroyNotify) json_array_unref);
	g_ptr_array_add(all, s);
	return s;
}

/* a test's figure: MB/s for the sequential tests, IOPS for the random ones */
static gboolean
sdt_ops_series_iops(const gchar *name)
{
	return !g_str_has_prefix(name, "seq-");
}

/* a benchmark of the card (never a stand-in's): one point per valid test */
static void
sdt_ops_series_add_bench(SdtOpsSeries *s, JsonObject *e, const gchar *in_force)
{
	g_autoptr(SdtBenchRecord) r = sdt_bench_record_from_json(e, NULL);

	for (guint i = 0; r != NULL && i < r->tests->len; i++) {
		SdtBenchRecordTest *t = g_ptr_array_index(r->tests, i);
		gdouble value = sdt_ops_series_iops(t->name) ? t->iops : t->mb_s;
		JsonArray *points;
		JsonObject *p;

		if (t->name == NULL || !t->valid || !isfinite(value))
			continue;
		points = g_hash_table_lookup(s->points, t->name);
		if (points == NULL) {
			points = json_array_new();
			g_hash_table_insert(s->points, g_strdup(t->name), points);
			g_ptr_array_add(s->names, g_strdup(t->name));
		}
		p = json_object_new();
		json_object_set_string_member(p, "time", sdt_ops_history_str(e, "time"));
		json_object_set_double_member(p, "value", value);
		if (isfinite(t->ci_percent) && t->ci_percent >= 0)
			json_object_set_double_member(p,
						      "spread",
						      round(value * t->ci_percent * 10) / 1000);
		else
			json_object_set_null_member(p, "spread");
		if (in_force != NULL)
			json_object_set_string_member(p, "change", in_force);
		else
			json_object_set_null_member(p, "change");
		json_array_add_object_element(points, p);
	}
}

static JsonObject *
sdt_ops_series_to_json(SdtOpsSeries *s, const gchar *slot_id, JsonArray *changes)
{
	JsonObject *o = json_object_new();
	JsonArray *tests = json_array_new();

	if (s->card != NULL)
		json_object_set_object_member(o, "card", json_object_ref(s->card));
	else
		json_object_set_null_member(o, "card");
	json_object_set_boolean_member(o,
				       "in_slot",
				       s->card_id != NULL && g_strcmp0(s->card_id, slot_id) == 0);
	for (guint i = 0; i < s->names->len; i++) {
		const gchar *name = g_ptr_array_index(s->names, i);
		JsonObject *t = json_object_new();

		json_object_set_string_member(t, "name", name);
		json_object_set_string_member(t,
					      "unit",
					      sdt_ops_series_iops(name) ? "IOPS" : "MB/s");
		json_object_set_array_member(t,
					     "points",
					     json_array_ref(g_hash_table_lookup(s->points, name)));
		json_array_add_object_element(tests, t);
	}
	json_object_set_array_member(o, "tests", tests);
	json_object_set_array_member(o, "changes", json_array_ref(changes));
	return o;
}

JsonArray *
sdt_ops_history_series(JsonArray *entries, const gchar *slot_id)
{
	g_autoptr(GPtrArray) all =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_ops_series_free);
	g_autoptr(JsonArray) changes = json_array_new();
	g_autofree gchar *in_force = NULL;
	JsonArray *out = json_array_new();

	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++) {
		JsonObject *e = json_array_get_object_element(entries, i);
		const gchar *kind = sdt_ops_history_str(e, "kind");
		JsonObject *marker;
		const gchar *card_id;

		if (g_strcmp0(kind, "bench") != 0) {
			marker = sdt_ops_history_change(e, kind, &in_force);
			if (marker != NULL)
				json_array_add_object_element(changes, marker);
			continue;
		}
		if (json_object_has_member(e, "target") &&
		    JSON_NODE_HOLDS_OBJECT(json_object_get_member(e, "target")) &&
		    json_object_get_boolean_member_with_default(
			    json_object_get_object_member(e, "target"),
			    "stand_in",
			    FALSE))
			continue;
		card_id = sdt_ops_history_entry_card(e);
		sdt_ops_series_add_bench(sdt_ops_series_get(all, card_id, e), e, in_force);
	}
	for (guint i = 0; i < all->len; i++)
		json_array_add_object_element(
			out,
			sdt_ops_series_to_json(g_ptr_array_index(all, i), slot_id, changes));
	return out;
}

JsonNode *
sdt_ops_history(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(JsonArray) entries = NULL;
	g_autoptr(JsonObject) obj = NULL;
	JsonObject *slot;
	JsonArray *series;
	JsonNode *node;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	entries = sdt_history_list_full(ctx, warnings, error);
	if (entries == NULL)
		return NULL;
	slot = sdt_ops_history_card(ctx);
	series = sdt_ops_history_series(entries,
					slot != NULL ? json_object_get_string_member(slot, "id")
						     : NULL);
	obj = json_object_new();
	json_object_set_array_member(obj, "entries", g_steal_pointer(&entries));
	/* each card's figures over time; the card in the slot (null: none, or no CID) */
	json_object_set_array_member(obj, "series", series);
	if (slot != NULL)
		json_object_set_object_member(obj, "card_in_slot", slot);
	else
		json_object_set_null_member(obj, "card_in_slot");
	/* entries skipped as damaged, so that a missing entry is explained */
	if (warnings->len > 0) {
		JsonArray *w = json_array_new();
		for (guint i = 0; i < warnings->len; i++)
			json_array_add_string_element(w, g_ptr_array_index(warnings, i));
		json_object_set_array_member(obj, "warnings", w);
	}
	node = json_node_new(JSON_NODE_OBJECT);
	json_node_take_object(node, g_steal_pointer(&obj));
	return node;
}

GPtrArray *
sdt_ops_history_benches(JsonArray *history)
{
	GPtrArray *benches = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_bench_record_free);

	for (guint i = 0; history != NULL && i < json_array_get_length(history); i++) {
		JsonNode *node = json_array_get_element(history, i);
		JsonObject *e = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
		SdtBenchRecord *record;

		if (e == NULL ||
		    g_strcmp0(json_object_get_string_member_with_default(e, "kind", ""), "bench") !=
			    0)
			continue;
		record = sdt_bench_record_from_json(e, NULL);
		if (record != NULL)
			g_ptr_array_add(benches, record);
	}
	return benches;
}
