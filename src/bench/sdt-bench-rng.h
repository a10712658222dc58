/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The benchmark's random numbers: the offsets of the random tests and the
 * data of every write.  xoshiro256+ seeded through splitmix64: fast, fresh
 * incompressible data.
 */
typedef struct {
	guint64 s[4];
} SdtBenchRng;

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
