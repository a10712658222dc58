/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sdt-bench-record.h"
#include "sdt-card-plausible-private.h"
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

/* one metric's trend: @worse_if_higher for latencies; NULL with fewer than 4 runs */
static SdtHealthReportMetric *
sdt_health_trend_metric(const gchar *name,
			GArray *values,
			gboolean worse_if_higher,
			GPtrArray *alerts)
{
	const gdouble *v = (const gdouble *) values->data;
	guint n = values->len;
	guint k;
	SdtHealthReportMetric *m;

	if (n < 4)
		return NULL;
	m = g_new0(SdtHealthReportMetric, 1);
	k = MIN(3u, n / 2);
	m->first = sdt_health_median(v, k);
	m->latest = sdt_health_median(v + n - k, k);
	m->spread = MAX(sdt_health_spread(v, k), sdt_health_spread(v + n - k, k));
	m->change = m->first != 0 ? (m->latest - m->first) / m->first : 0;
	if (worse_if_higher)
		m->alert = m->latest - m->first > m->spread && m->change > 0.2;
	else
		m->alert = m->first - m->latest > m->spread && m->change < -0.2;
	if (m->alert)
		g_ptr_array_add(alerts, g_strdup(name));
	return m;
}

/* a run that benchmarked the SD card itself: not a stand-in folder's run (which says
 * nothing about the card, DESIGN.md) */
static gboolean
sdt_health_of_card(const SdtBenchRecord *record)
{
	return record != NULL && !record->target_stand_in;
}

/* a figure that was measured: known and above zero */
static void
sdt_health_add_figure(GArray *values, gdouble v)
{
	if (v > 0)
		g_array_append_val(values, v);
}

SdtHealthReportTrend *
sdt_health_trend(GPtrArray *benches)
{
	SdtHealthReportTrend *trend = sdt_health_report_trend_new();
	g_autoptr(GArray) seq = g_array_new(FALSE, FALSE, sizeof(gdouble));
	g_autoptr(GArray) lat = g_array_new(FALSE, FALSE, sizeof(gdouble));

	for (guint i = 0; benches != NULL && i < benches->len; i++) {
		const SdtBenchRecord *r = g_ptr_array_index(benches, i);
		for (guint t = 0; sdt_health_of_card(r) && t < r->tests->len; t++) {
			SdtBenchRecordTest *test = g_ptr_array_index(r->tests, t);
			if (g_strcmp0(test->name, "seq-write") == 0)
				sdt_health_add_figure(seq, test->mb_s);
			else if (g_strcmp0(test->name, "rand-4k-write-qd1") == 0 &&
				 test->has_latency)
				sdt_health_add_figure(lat, test->latency.mean);
		}
	}
	trend->runs = seq->len;
	trend->seq_write_mb_s =
		sdt_health_trend_metric("seq_write_mb_s", seq, FALSE, trend->alerts);
	trend->qd1_write_latency_us =
		sdt_health_trend_metric("qd1_write_latency_us", lat, TRUE, trend->alerts);
	return trend;
}

/* the latest benchmark's sequential write rate, NaN if none */
static gdouble
sdt_health_last_seq_write(GPtrArray *benches)
{
	gdouble rate = NAN;
	for (guint i = 0; benches != NULL && i < benches->len; i++) {
		SdtBenchRecord *r = g_ptr_array_index(benches, i);
		SdtBenchRecordTest *t =
			sdt_health_of_card(r) ? sdt_bench_record_get_test(r, "seq-write") : NULL;
		if (t != NULL)
			rate = t->mb_s;
	}
	return rate;
}

SdtHealthReportRegisters *
sdt_health_registers(SdtCard *card, GPtrArray *benches)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();

	/* the plausibility rules are the SD Association's: an eMMC's CID is laid out differently
	 * and its maker ids are JEDEC's */
	if (card == NULL || !card->present || !card->cid_valid || card->kind == SDT_CARD_KIND_EMMC)
		return NULL;
	return sdt_card_plausible_judge(&card->cid,
					card->csd_valid ? &card->csd : NULL,
					card->scr_valid ? &card->scr : NULL,
					card->ssr_valid ? &card->ssr : NULL,
					sdt_health_last_seq_write(benches),
					now);
}
