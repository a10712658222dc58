/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The benchmark's random numbers and write data (sdt-bench-rng), alone in a test of their
 * own so that the 32-bit step runs them on i386 under qemu-user, where the engine's tests
 * cannot run (tools/test-32bit.sh): the fill has a path of its own where no vector unit
 * takes 64-bit lanes.
 */

#include "config.h"

#include <gio/gio.h>

#include "sdt-bench-rng.h"
#include "sdt-bench-rng-private.h"

#define MIB (1024 * 1024)

static void
test_bench_rng_fixed_seed(void)
{
	SdtBenchRng a;
	SdtBenchRng b;
	SdtBenchRng c;

	sdt_bench_rng_init(&a, 42);
	sdt_bench_rng_init(&b, 42);
	sdt_bench_rng_init(&c, 43);
	for (guint i = 0; i < 1000; i++) {
		guint64 va = sdt_bench_rng_next(&a);
		g_assert_cmpuint(va, ==, sdt_bench_rng_next(&b));
		g_assert_cmpuint(va, !=, sdt_bench_rng_next(&c));
	}
	for (guint i = 0; i < 10000; i++)
		g_assert_cmpuint(sdt_bench_rng_below(&a, 7), <, 7);
}

/* a * b as 128 bits by shift-and-add, one bit at a time: slow, but obviously right */
static guint64
test_mul_high_reference(guint64 a, guint64 b)
{
	guint64 hi = 0, lo = 0;
	guint64 add_hi = 0, add_lo = a;

	for (guint bit = 0; bit < 64; bit++) {
		if (b & (G_GUINT64_CONSTANT(1) << bit)) {
			guint64 sum = lo + add_lo;
			hi += add_hi + (sum < lo);
			lo = sum;
		}
		add_hi = (add_hi << 1) | (add_lo >> 63);
		add_lo <<= 1;
	}
	return hi;
}

/*
 * sdt_bench_rng_below() multiplies 64 by 64 bits: unsigned __int128 where the
 * compiler has it, the portable version on 32-bit targets (armhf, i386),
 * which have no 128-bit integer. Both must give the same offsets.
 */
static void
test_bench_rng_mul_high(void)
{
	static const guint64 edges[] = {
		0,
		1,
		2,
		G_MAXUINT32 - 1,
		G_MAXUINT32,
		G_GUINT64_CONSTANT(1) << 32,
		(G_GUINT64_CONSTANT(1) << 32) + 1,
		G_GUINT64_CONSTANT(1) << 63,
		(G_GUINT64_CONSTANT(1) << 63) - 1,
		G_MAXUINT64 - 1,
		G_MAXUINT64,
		G_GUINT64_CONSTANT(0x123456789abcdef0),
		G_GUINT64_CONSTANT(0xfedcba9876543210),
		G_GUINT64_CONSTANT(0xffffffff00000001),
		G_GUINT64_CONSTANT(0x00000001ffffffff),
	};
	SdtBenchRng rng;

	/* known answers */
	g_assert_cmphex(sdt_bench_rng_mul_high_portable(G_MAXUINT64, G_MAXUINT64),
			==,
			G_MAXUINT64 - 1);
	g_assert_cmphex(sdt_bench_rng_mul_high_portable(G_GUINT64_CONSTANT(1) << 32,
							G_GUINT64_CONSTANT(1) << 32),
			==,
			1);
	g_assert_cmphex(sdt_bench_rng_mul_high_portable(G_GUINT64_CONSTANT(0x123456789abcdef0),
							G_GUINT64_CONSTANT(0xfedcba9876543210)),
			==,
			G_GUINT64_CONSTANT(0x121fa00ad77d7422));

	/* every pair of edge values, then random pairs, against the reference
	 * and, on 64-bit targets, against unsigned __int128 */
	sdt_bench_rng_init(&rng, 2040);
	for (guint i = 0; i < G_N_ELEMENTS(edges) * G_N_ELEMENTS(edges) + 20000; i++) {
		guint64 a, b, hi;

		if (i < G_N_ELEMENTS(edges) * G_N_ELEMENTS(edges)) {
			a = edges[i / G_N_ELEMENTS(edges)];
			b = edges[i % G_N_ELEMENTS(edges)];
		} else {
			/* short operands too: the block counts of real cards */
			a = sdt_bench_rng_next(&rng) >> (i % 64);
			b = sdt_bench_rng_next(&rng) >> ((i / 64) % 64);
		}
		hi = sdt_bench_rng_mul_high_portable(a, b);
		if (hi != test_mul_high_reference(a, b) || hi != sdt_bench_rng_mul_high(a, b))
			g_error("high 64 bits of %#" G_GINT64_MODIFIER "x * %#" G_GINT64_MODIFIER
				"x: portable %#" G_GINT64_MODIFIER
				"x, reference %#" G_GINT64_MODIFIER
				"x, sdt_bench_rng_mul_high %#" G_GINT64_MODIFIER "x",
				a,
				b,
				hi,
				test_mul_high_reference(a, b),
				sdt_bench_rng_mul_high(a, b));
#ifdef __SIZEOF_INT128__
		g_assert_cmphex(hi, ==, (guint64) (((unsigned __int128) a * b) >> 64));
#endif
	}
#ifdef __SIZEOF_INT128__
	/* many more where the compiler can check it fast */
	for (guint i = 0; i < 1000000; i++) {
		guint64 a = sdt_bench_rng_next(&rng);
		guint64 b = sdt_bench_rng_next(&rng) >> (i % 64);
		g_assert_cmphex(sdt_bench_rng_mul_high_portable(a, b),
				==,
				(guint64) (((unsigned __int128) a * b) >> 64));
	}
#else
	g_test_message("no unsigned __int128 on this target: checked against the reference only");
#endif
}

/*
 * The random offsets of a benchmark are the same on 32-bit and 64-bit builds.
 * The expected values come from an independent model of splitmix64 +
 * xoshiro256+ with Python's exact integers: (next * n) >> 64.
 */
static void
test_bench_rng_below_same_everywhere(void)
{
	/* 4 KiB blocks of a 64 GB card, then a 7-block file */
	static const guint64 want_card[] = {
		1339931,
		4850178,
		977652,
		4788458,
		671,
		4735395,
		1368900,
		3547402,
	};
	static const guint64 want_small[] = {6, 3, 1, 5};
	SdtBenchRng rng;
	guint64 nblocks = G_GUINT64_CONSTANT(64000000000) / 4096;

	sdt_bench_rng_init(&rng, 42);
	for (guint i = 0; i < G_N_ELEMENTS(want_card); i++)
		g_assert_cmpuint(sdt_bench_rng_below(&rng, nblocks), ==, want_card[i]);
	for (guint i = 0; i < G_N_ELEMENTS(want_small); i++)
		g_assert_cmpuint(sdt_bench_rng_below(&rng, 7), ==, want_small[i]);
}

static void
test_bench_rng_fresh_incompressible(void)
{
	SdtBenchRng rng;
	gsize len = 1 * MIB;
	g_autofree guint64 *block1 = g_malloc(4096);
	g_autofree guint64 *block2 = g_malloc(4096);
	g_autofree guint8 *data = g_malloc(len);
	g_autofree guint8 *out = g_malloc(len * 2);
	g_autoptr(GZlibCompressor) zlib = g_zlib_compressor_new(G_ZLIB_COMPRESSOR_FORMAT_RAW, 9);
	g_autoptr(GError) error = NULL;
	gsize read = 0;
	gsize written = 0;

	/* two consecutive blocks differ everywhere: no repeated pattern */
	sdt_bench_rng_init(&rng, 1);
	sdt_bench_rng_fill(&rng, block1, 4096);
	sdt_bench_rng_fill(&rng, block2, 4096);
	for (guint i = 0; i < 4096 / 8; i++)
		g_assert_cmpuint(block1[i], !=, block2[i]);

	/* and deflate at its best cannot shrink the data */
	sdt_bench_rng_fill(&rng, data, len);
	g_assert_cmpint(g_converter_convert(G_CONVERTER(zlib),
					    data,
					    len,
					    out,
					    len * 2,
					    G_CONVERTER_INPUT_AT_END,
					    &read,
					    &written,
					    &error),
			==,
			G_CONVERTER_FINISHED);
	g_assert_no_error(error);
	g_assert_cmpuint(read, ==, len);
	g_assert_cmpuint(written, >=, len);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/bench/rng/fixed-seed", test_bench_rng_fixed_seed);
	g_test_add_func("/sdtuner/bench/rng/mul-high", test_bench_rng_mul_high);
	g_test_add_func("/sdtuner/bench/rng/below-same-everywhere",
			test_bench_rng_below_same_everywhere);
	g_test_add_func("/sdtuner/bench/rng/fresh-incompressible",
			test_bench_rng_fresh_incompressible);
	return g_test_run();
}
