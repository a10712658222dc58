/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-bench-rng.h"
#include "sdt-bench-rng-private.h"

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

/*
 * Where no vector unit takes 64-bit lanes (armhf as Debian and Raspberry Pi OS build it,
 * ARMv6/ARMv7 without NEON; i386's i686 baseline without SSE2), the pair below is done
 * in 32-bit pieces with its state spilled to memory: 50 instructions per 8 bytes on
 * ARMv6, and on the emulated Pi 2 250 ms per 4 MiB against fio's 55
 * (docs/BENCHMARK-ENGINE.md "On emulated real kernels").  There, two xorshift32
 * generators, interleaved: three shifted XORs a word, one instruction each on ARM, 12
 * instructions per 8 bytes with the stores (xoshiro128+ took 20).  The data needs only
 * to be incompressible and not to repeat within a request, as fio's own fill (a
 * multiplicative sequence), and each call is seeded afresh from the main generator.
 */
#if GLIB_SIZEOF_VOID_P == 8 || defined(__SSE2__) || defined(__ARM_NEON)
#define SDT_BENCH_RNG_VECTOR 1

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

#else
#define SDT_BENCH_RNG_VECTOR 0

static inline guint32
sdt_bench_rng32_next(guint32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* a xorshift32 state: never 0 (it would stay 0) */
static guint32
sdt_bench_rng32_seed(guint64 *seed)
{
	guint32 x = (guint32) sdt_bench_splitmix64(seed);

	return x != 0 ? x : 0x9e3779b9u;
}
#endif

/* whole 16-byte steps of @n words (8 bytes each) from @p on; the count of words done */
static gsize
sdt_bench_rng_fill_fast(SdtBenchRng *rng, guint8 *p, gsize n)
{
	gsize i = 0;
	guint64 seed = sdt_bench_rng_next(rng);
#if SDT_BENCH_RNG_VECTOR
	SdtBenchRngPair a;
	SdtBenchRngPair b;

	sdt_bench_rng_pair_init(&a, &seed);
	sdt_bench_rng_pair_init(&b, &seed);
	for (; i + 4 <= n; i += 4) {
		SdtBenchRngV2 ra = sdt_bench_rng_pair_next(&a);
		SdtBenchRngV2 rb = sdt_bench_rng_pair_next(&b);
		memcpy(p + i * 8, &ra, sizeof(ra));
		memcpy(p + i * 8 + 16, &rb, sizeof(rb));
	}
#else
	guint32 a = sdt_bench_rng32_seed(&seed);
	guint32 b = sdt_bench_rng32_seed(&seed);

	for (; i + 2 <= n; i += 2) {
		guint32 w[4];
		w[0] = sdt_bench_rng32_next(&a);
		w[1] = sdt_bench_rng32_next(&b);
		w[2] = sdt_bench_rng32_next(&a);
		w[3] = sdt_bench_rng32_next(&b);
		memcpy(p + i * 8, w, sizeof(w));
	}
#endif
	return i;
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
	 * NEON), seeded from this one for every call.  About 4 instructions per 8 bytes on x86-64,
	 * where the single generator took 13 and fio's fill 8.  Without a vector unit, two
	 * xorshift32 generators (sdt_bench_rng_fill_fast()).
	 */
	if (n >= 16)
		i = sdt_bench_rng_fill_fast(rng, p, n);
	for (; i < n; i++) {
		guint64 v = sdt_bench_rng_next(rng);
		memcpy(p + i * 8, &v, sizeof(v));
	}
}
