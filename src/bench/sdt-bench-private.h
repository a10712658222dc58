/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench.h"

G_BEGIN_DECLS

/*
 * What src/bench shares of sdt-bench only among its own files and its tests (the
 * public interface is sdt-bench.h).  Private to src/bench: tests/check-shape.py fails
 * any other file that includes it.
 */

SdtBenchTestResult *sdt_bench_result_get_test(SdtBenchResult *result, const gchar *name);

/* pure: the A1/A2 verdict of these figures */
void sdt_bench_verdict_compute(SdtBenchVerdict *verdict,
			       gdouble seq_write_mb_s,
			       gdouble read_iops,
			       gdouble write_iops);

G_END_DECLS
