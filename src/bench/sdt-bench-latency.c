/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-bench-latency.h"
#include "sdt-bench-latency-private.h"

void
sdt_bench_latency_reset(SdtBenchLatency *lat)
{
	memset(lat, 0, sizeof(*lat));
}

static guint
sdt_bench_latency_bucket(guint64 ns)
{
	guint msb;
	guint idx;

	if (ns < SDT_BENCH_LATENCY_SUB)
		return (guint) ns;
	msb = 63 - (guint) __builtin_clzll(ns);
	/* msb >= 5: 32 sub-buckets between 2^msb and 2^(msb+1) */
	idx = (msb - 4) * SDT_BENCH_LATENCY_SUB + (guint) ((ns >> (msb - 5)) & 31);
	return MIN(idx, SDT_BENCH_LATENCY_BUCKETS - 1);
}

/* the middle of a bucket */
static guint64
sdt_bench_latency_bucket_value(guint idx)
{
	guint msb;
	guint64 lo;
	guint64 width;

	if (idx < SDT_BENCH_LATENCY_SUB)
		return idx;
	msb = idx / SDT_BENCH_LATENCY_SUB + 4;
	width = G_GUINT64_CONSTANT(1) << (msb - 5);
	lo = (G_GUINT64_CONSTANT(1) << msb) + (idx % SDT_BENCH_LATENCY_SUB) * width;
	return lo + width / 2;
}

void
sdt_bench_latency_add(SdtBenchLatency *lat, guint64 ns)
{
	if (lat->count == 0 || ns < lat->min_ns)
		lat->min_ns = ns;
	if (ns > lat->max_ns)
		lat->max_ns = ns;
	lat->count++;
	lat->sum_ns += ns;
	lat->buckets[sdt_bench_latency_bucket(ns)]++;
}

guint64
sdt_bench_latency_percentile(const SdtBenchLatency *lat, gdouble p)
{
	guint64 rank;
	guint64 seen = 0;

	if (lat->count == 0)
		return 0;
	if (p >= 100.0)
		return lat->max_ns;
	/* the smallest value with at least p% of the samples at or below it */
	rank = (guint64) (p / 100.0 * (gdouble) lat->count + 0.999999);
	rank = CLAMP(rank, 1, lat->count);
	for (guint i = 0; i < SDT_BENCH_LATENCY_BUCKETS; i++) {
		seen += lat->buckets[i];
		if (seen >= rank)
			return CLAMP(sdt_bench_latency_bucket_value(i), lat->min_ns, lat->max_ns);
	}
	return lat->max_ns;
}
