/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* log-linear latency histogram in nanoseconds, 32 steps per power of two (about 3%) */
#define SDT_BENCH_LATENCY_SUB     32
#define SDT_BENCH_LATENCY_BUCKETS (SDT_BENCH_LATENCY_SUB * 60)

typedef struct {
	guint64 count;
	guint64 sum_ns;
	guint64 min_ns;
	guint64 max_ns;
	guint64 buckets[SDT_BENCH_LATENCY_BUCKETS];
} SdtBenchLatency;

void sdt_bench_latency_add(SdtBenchLatency *lat, guint64 ns);

G_END_DECLS
