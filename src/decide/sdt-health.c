/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sdt-bench-record.h"
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
 * The record of a history entry that benchmarked the SD card itself, or %NULL:
 * not a benchmark, damaged (a member of the wrong type: the whole entry is left
 * out), or a stand-in folder's run (which says nothing about the card,
 * DESIGN.md).
 */
static SdtBenchRecord *
sdt_health_card_bench(JsonNode *node)
{
	JsonObject *e = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
	g_autoptr(SdtBenchRecord) record = NULL;

	if (e == NULL ||
	    g_strcmp0(json_object_get_string_member_with_default(e, "kind", ""), "bench") != 0)
		return NULL;
	record = sdt_bench_record_from_json(e, NULL);
	if (record == NULL || record->target_stand_in)
		return NULL;
	return g_steal_pointer(&record);
}

/* a figure that was measured: known and above zero */
static void
sdt_health_add_figure(GArray *values, gdouble v)
{
	if (v > 0)
		g_array_append_val(values, v);
}

JsonNode *
sdt_health_trend(JsonArray *entries)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(GArray) seq = g_array_new(FALSE, FALSE, sizeof(gdouble));
	g_autoptr(GArray) lat = g_array_new(FALSE, FALSE, sizeof(gdouble));
	g_autoptr(GPtrArray) alerts = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++) {
		g_autoptr(SdtBenchRecord) r =
			sdt_health_card_bench(json_array_get_element(entries, i));
		for (guint t = 0; r != NULL && t < r->tests->len; t++) {
			SdtBenchRecordTest *test = g_ptr_array_index(r->tests, t);
			if (g_strcmp0(test->name, "seq-write") == 0)
				sdt_health_add_figure(seq, test->mb_s);
			else if (g_strcmp0(test->name, "rand-4k-write-qd1") == 0 &&
				 test->has_latency)
				sdt_health_add_figure(lat, test->latency.mean);
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

/* the latest benchmark's sequential write rate, NaN if none */
static gdouble
sdt_health_last_seq_write(JsonArray *entries)
{
	gdouble rate = NAN;
	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++) {
		g_autoptr(SdtBenchRecord) r =
			sdt_health_card_bench(json_array_get_element(entries, i));
		SdtBenchRecordTest *t = sdt_bench_record_get_test(r, "seq-write");
		if (t != NULL)
			rate = t->mb_s;
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
