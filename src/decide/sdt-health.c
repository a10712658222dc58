/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-card-plausible.h"
#include "sdt-health.h"

/* median of up to three values */
static gdouble
sdt_health_median(const gdouble *v, guint n)
{
	gdouble a[3];
	memcpy(a, v, n * sizeof(gdouble));
	for (guint i = 0; i < n; i++)
		for (guint j = i + 1; j < n; j++)
			if (a[j] < a[i]) {
				gdouble t = a[i];
				a[i] = a[j];
				a[j] = t;
			}
	return a[n / 2];
}

static gdouble
sdt_health_spread(const gdouble *v, guint n)
{
	gdouble lo = v[0];
	gdouble hi = v[0];
	for (guint i = 1; i < n; i++) {
		lo = MIN(lo, v[i]);
		hi = MAX(hi, v[i]);
	}
	return hi - lo;
}

/* one metric's trend: @worse_if_higher for latencies */
static void
sdt_health_trend_metric(JsonBuilder *b,
			const gchar *name,
			GArray *values,
			gboolean worse_if_higher,
			GPtrArray *alerts)
{
	const gdouble *v = (const gdouble *) values->data;
	guint n = values->len;
	guint k;
	gdouble first;
	gdouble last;
	gdouble spread;
	gdouble change;
	gboolean alert = FALSE;

	json_builder_set_member_name(b, name);
	if (n < 4) {
		json_builder_add_null_value(b);
		return;
	}
	k = MIN(3u, n / 2);
	first = sdt_health_median(v, k);
	last = sdt_health_median(v + n - k, k);
	spread = MAX(sdt_health_spread(v, k), sdt_health_spread(v + n - k, k));
	change = first != 0 ? (last - first) / first : 0;
	if (worse_if_higher)
		alert = last - first > spread && change > 0.2;
	else
		alert = first - last > spread && change < -0.2;
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "first");
	json_builder_add_double_value(b, first);
	json_builder_set_member_name(b, "latest");
	json_builder_add_double_value(b, last);
	json_builder_set_member_name(b, "change");
	json_builder_add_double_value(b, change);
	json_builder_set_member_name(b, "spread");
	json_builder_add_double_value(b, spread);
	json_builder_set_member_name(b, "alert");
	json_builder_add_boolean_value(b, alert);
	json_builder_end_object(b);
	if (alert)
		g_ptr_array_add(alerts, g_strdup(name));
}

/*
 * The tests of a history entry that benchmarked the SD card itself, or %NULL:
 * not a benchmark, damaged, or a stand-in folder's run (which says nothing
 * about the card, DESIGN.md).
 */
static JsonArray *
sdt_health_card_bench_tests(JsonNode *node)
{
	JsonObject *e = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
	JsonNode *target;
	JsonNode *tests;

	if (e == NULL ||
	    g_strcmp0(json_object_get_string_member_with_default(e, "kind", ""), "bench") != 0)
		return NULL;
	target = json_object_get_member(e, "target");
	if (target != NULL && JSON_NODE_HOLDS_OBJECT(target) &&
	    json_object_get_boolean_member_with_default(json_node_get_object(target),
							"stand_in",
							FALSE))
		return NULL;
	tests = json_object_get_member(e, "tests");
	return tests != NULL && JSON_NODE_HOLDS_ARRAY(tests) ? json_node_get_array(tests) : NULL;
}

JsonNode *
sdt_health_trend(JsonArray *entries)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(GArray) seq = g_array_new(FALSE, FALSE, sizeof(gdouble));
	g_autoptr(GArray) lat = g_array_new(FALSE, FALSE, sizeof(gdouble));
	g_autoptr(GPtrArray) alerts = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++) {
		JsonArray *tests = sdt_health_card_bench_tests(json_array_get_element(entries, i));
		if (tests == NULL)
			continue;
		for (guint t = 0; t < json_array_get_length(tests); t++) {
			JsonNode *tn = json_array_get_element(tests, t);
			JsonObject *to =
				JSON_NODE_HOLDS_OBJECT(tn) ? json_node_get_object(tn) : NULL;
			const gchar *name;
			if (to == NULL)
				continue;
			name = json_object_get_string_member_with_default(to, "name", "");
			if (g_strcmp0(name, "seq-write") == 0) {
				gdouble v =
					json_object_get_double_member_with_default(to, "mb_s", -1);
				if (v > 0)
					g_array_append_val(seq, v);
			} else if (g_strcmp0(name, "rand-4k-write-qd1") == 0 &&
				   json_object_has_member(to, "latency_us") &&
				   JSON_NODE_HOLDS_OBJECT(
					   json_object_get_member(to, "latency_us"))) {
				JsonObject *l = json_object_get_object_member(to, "latency_us");
				gdouble v =
					json_object_get_double_member_with_default(l, "mean", -1);
				if (v > 0)
					g_array_append_val(lat, v);
			}
		}
	}
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "runs");
	json_builder_add_int_value(b, seq->len);
	sdt_health_trend_metric(b, "seq_write_mb_s", seq, FALSE, alerts);
	sdt_health_trend_metric(b, "qd1_write_latency_us", lat, TRUE, alerts);
	json_builder_set_member_name(b, "alerts");
	json_builder_begin_array(b);
	for (guint i = 0; i < alerts->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(alerts, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* the latest benchmark's sequential write rate, -1 if none */
static gdouble
sdt_health_last_seq_write(JsonArray *entries)
{
	gdouble rate = -1;
	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++) {
		JsonArray *tests = sdt_health_card_bench_tests(json_array_get_element(entries, i));
		if (tests == NULL)
			continue;
		for (guint t = 0; t < json_array_get_length(tests); t++) {
			JsonNode *tn = json_array_get_element(tests, t);
			JsonObject *to =
				JSON_NODE_HOLDS_OBJECT(tn) ? json_node_get_object(tn) : NULL;
			if (to != NULL &&
			    g_strcmp0(json_object_get_string_member_with_default(to, "name", ""),
				      "seq-write") == 0)
				rate = json_object_get_double_member_with_default(to, "mb_s", -1);
		}
	}
	return rate;
}

JsonNode *
sdt_health_registers(SdtCard *card, JsonArray *history)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();

	/* the plausibility rules are the SD Association's: an eMMC's CID is laid out differently
	 * and its maker ids are JEDEC's */
	if (card == NULL || !card->present || !card->cid_valid || card->kind == SDT_CARD_KIND_EMMC)
		return json_node_new(JSON_NODE_NULL);
	return sdt_card_plausible_judge(&card->cid,
					card->csd_valid ? &card->csd : NULL,
					card->scr_valid ? &card->scr : NULL,
					card->ssr_valid ? &card->ssr : NULL,
					sdt_health_last_seq_write(history),
					now);
}
