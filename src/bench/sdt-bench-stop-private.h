/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench-stop.h"

G_BEGIN_DECLS

/*
 * What src/bench shares of sdt-bench-stop only among its own files and its tests (the
 * public interface is sdt-bench-stop.h).  Private to src/bench: tests/check-shape.py
 * fails any other file that includes it.
 */

void sdt_bench_stop_init(SdtBenchStop *stop, gint64 slice_ns, guint64 slice_bytes);
/* a completion at @t_ns with @bytes completed so far; TRUE when it made a point */
gboolean sdt_bench_stop_add(SdtBenchStop *stop, gint64 t_ns, guint64 bytes);
/* the test's last completion (or the end of its fsync): always a point, if later than the last */
void sdt_bench_stop_add_last(SdtBenchStop *stop, gint64 t_ns, guint64 bytes);
/* the rate, the slope of the points' line, in bytes per second; -1: unknown (< 1 slice) */
gdouble sdt_bench_stop_rate(const SdtBenchStop *stop);
/* slices so far (points - 1) */
guint sdt_bench_stop_slices(const SdtBenchStop *stop);
/* the interval's half-width relative to the rate, in percent; -1: unknown (< 2 slices) */
gdouble sdt_bench_stop_ci(const SdtBenchStop *stop);
/* at least @min_slices and the interval within ±@target_percent */
gboolean sdt_bench_stop_settled(const SdtBenchStop *stop, gdouble target_percent, guint min_slices);
/* "length", "time-limit", "settled"; NULL for NONE */
const gchar *sdt_bench_stop_reason_to_string(SdtBenchStopReason reason);

G_END_DECLS
