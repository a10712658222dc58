/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench-rng.h"

G_BEGIN_DECLS

/*
 * What src/bench shares of sdt-bench-rng only among its own files and its tests (the
 * public interface is sdt-bench-rng.h).  Private to src/bench: tests/check-shape.py
 * fails any other file that includes it.
 */

void sdt_bench_rng_init(SdtBenchRng *rng, guint64 seed);
guint64 sdt_bench_rng_next(SdtBenchRng *rng);
/* a uniform integer in [0, n) */
guint64 sdt_bench_rng_below(SdtBenchRng *rng, guint64 n);
/* the high 64 bits of the 128-bit product @a * @b: with unsigned __int128
 * where the compiler has it (64-bit targets), else the portable way; the
 * portable one is also exported so tests can compare the two */
guint64 sdt_bench_rng_mul_high(guint64 a, guint64 b);
guint64 sdt_bench_rng_mul_high_portable(guint64 a, guint64 b);
/* @len must be a multiple of 8 and @buf 8-byte aligned */
void sdt_bench_rng_fill(SdtBenchRng *rng, gpointer buf, gsize len);

G_END_DECLS
