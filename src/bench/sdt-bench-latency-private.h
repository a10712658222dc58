/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench-latency.h"

G_BEGIN_DECLS

/*
 * What src/bench shares of sdt-bench-latency only among its own files and its tests
 * (the public interface is sdt-bench-latency.h).  Private to src/bench:
 * tests/check-shape.py fails any other file that includes it.
 */

void sdt_bench_latency_reset(SdtBenchLatency *lat);

/* @p in [0, 100]; 0 for an empty histogram */
guint64 sdt_bench_latency_percentile(const SdtBenchLatency *lat, gdouble p);

G_END_DECLS
