/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-bench-rng.h"

static guint64
sdt_bench_splitmix64(guint64 *x)
{
	guint64 z = (*x += G_GUINT64_CONSTANT(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void
sdt_bench_rng_init(SdtBenchRng *rng, guint64 seed)
{
	for (guint i = 0; i < 4; i++)
		rng->s[i] = sdt_bench_splitmix64(&seed);
}

static inline guint64
sdt_bench_rotl(guint64 x, gint k)
{
	return (x << k) | (x >> (64 - k));
}

guint64
sdt_bench_rng_next(SdtBenchRng *rng)
{
	guint64 *s = rng->s;
	guint64 result = s[0] + s[3];
	guint64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = sdt_bench_rotl(s[3], 45);
	return result;
}

guint64
sdt_bench_rng_mul_high_portable(guint64 a, guint64 b)
{
	/* schoolbook on 32-bit halves: every partial product fits in 64 bits */
	guint64 a_lo = a & G_MAXUINT32, a_hi = a >> 32;
	guint64 b_lo = b & G_MAXUINT32, b_hi = b >> 32;
	guint64 lo_lo = a_lo * b_lo;
	guint64 hi_lo = a_hi * b_lo;
	guint64 lo_hi = a_lo * b_hi;
	guint64 hi_hi = a_hi * b_hi;
	/* the middle column: at most (2^32 - 1)^2 + 2 * (2^32 - 1) = 2^64 - 1, no overflow */
	guint64 cross = (lo_lo >> 32) + (hi_lo & G_MAXUINT32) + lo_hi;

	return hi_hi + (hi_lo >> 32) + (cross >> 32);
}

guint64
sdt_bench_rng_mul_high(guint64 a, guint64 b)
{
#ifdef __SIZEOF_INT128__
	return (guint64) (((unsigned __int128) a * b) >> 64);
#else
	/* 32-bit targets (armhf, i386) have no 128-bit integer */
	return sdt_bench_rng_mul_high_portable(a, b);
#endif
}

guint64
sdt_bench_rng_below(SdtBenchRng *rng, guint64 n)
{
	/* Lemire's multiply-shift: no division, bias below 2^-64 * n */
	return sdt_bench_rng_mul_high(sdt_bench_rng_next(rng), n);
}

/* two xoshiro256+ generators in one 128-bit vector (the compiler's vector extension) */
typedef guint64 SdtBenchRngV2 __attribute__((vector_size(16)));

typedef struct {
	SdtBenchRngV2 s0, s1, s2, s3;
} SdtBenchRngPair;

static inline SdtBenchRngV2
sdt_bench_rng_pair_next(SdtBenchRngPair *g)
{
	SdtBenchRngV2 r = g->s0 + g->s3;
	SdtBenchRngV2 t = g->s1 << 17;
	g->s2 ^= g->s0;
	g->s3 ^= g->s1;
	g->s1 ^= g->s2;
	g->s0 ^= g->s3;
	g->s2 ^= t;
	g->s3 = (g->s3 << 45) | (g->s3 >> 19);
	return r;
}

static void
sdt_bench_rng_pair_init(SdtBenchRngPair *g, guint64 *seed)
{
	for (guint k = 0; k < 2; k++) {
		g->s0[k] = sdt_bench_splitmix64(seed);
		g->s1[k] = sdt_bench_splitmix64(seed);
		g->s2[k] = sdt_bench_splitmix64(seed);
		g->s3[k] = sdt_bench_splitmix64(seed);
	}
}

void
sdt_bench_rng_fill(SdtBenchRng *rng, gpointer buf, gsize len)
{
	guint8 *p = buf;
	gsize n = len / 8;
	gsize i = 0;

	/*
	 * A write's data is generated per request (fio's refill_buffers), so this
	 * is per-I/O cost: four generators, two per 128-bit vector register (SSE2,
	 * NEON; plain 64-bit arithmetic where there is none), seeded from this one
	 * for every call.  About 4 instructions per 8 bytes on x86-64, where the
	 * single generator took 13 and fio's fill 8.
	 */
	if (n >= 16) {
		SdtBenchRngPair a;
		SdtBenchRngPair b;
		guint64 seed = sdt_bench_rng_next(rng);

		sdt_bench_rng_pair_init(&a, &seed);
		sdt_bench_rng_pair_init(&b, &seed);
		for (; i + 4 <= n; i += 4) {
			SdtBenchRngV2 ra = sdt_bench_rng_pair_next(&a);
			SdtBenchRngV2 rb = sdt_bench_rng_pair_next(&b);
			memcpy(p + i * 8, &ra, sizeof(ra));
			memcpy(p + i * 8 + 16, &rb, sizeof(rb));
		}
	}
	for (; i < n; i++) {
		guint64 v = sdt_bench_rng_next(rng);
		memcpy(p + i * 8, &v, sizeof(v));
	}
}
