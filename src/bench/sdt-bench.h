/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-bench-io.h"
#include "sdt-bench-record.h"
#include "sdt-bench-target.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * Benchmark progress.  @phase is a test name from DESIGN.md ("seq-write", ...)
 * or "prepare"; @fraction is the whole run's progress in [0, 1]; @rate_mb_s is
 * the current rate in 10^6 bytes per second.  Called from the thread that runs
 * sdt_ops_bench(), at most about 10 times a second.
 */
typedef void (*SdtBenchProgressFunc)(const gchar *phase,
				     gdouble fraction,
				     gdouble rate_mb_s,
				     gpointer user_data);

/* the A1/A2 targets (SDT_BENCH_A1_READ_IOPS, ...) are in sdt-bench-record.h */

/*
 * What one run does.  The profiles fill this in; tests use tiny sizes.  Tests
 * run in this order: seq-write, rand-4k-write-qd32, rand-4k-read-qd32 (the
 * verdict is known here), seq-read, rand-4k-write-qd1, rand-4k-read-qd1,
 * raw-read.
 */
typedef struct {
	const gchar *profile;
	guint64 file_size;        /* bytes; a multiple of @seq_block_size */
	gsize seq_block_size;     /* 4 MiB */
	gsize rand_block_size;    /* 4 KiB */
	guint queue_depth;        /* 32 */
	gdouble rand_seconds;     /* each QD32 test */
	gdouble rand_qd1_seconds; /* each QD1 test */
	gsize raw_block_size;     /* 2 MiB, as hdparm */
	gdouble raw_seconds;      /* 0: no raw-device test */
	guint64 raw_max_bytes;
	/*
	 * adaptive (quick): a test ends once its figure is known within
	 * ±@target_ci_percent at SDT_BENCH_STOP_CONFIDENCE (sdt-bench-stop.h),
	 * after @min_slices slices of @slice_seconds (a sequential test's slice
	 * also ends after @seq_slice_blocks blocks; 0: an eighth of its length)
	 * and @min_seconds (@seq_min_seconds for the sequential tests of the
	 * file); 0: fixed lengths
	 */
	gdouble target_ci_percent;
	gdouble min_seconds;
	gdouble seq_min_seconds;
	gdouble after_min_seconds; /* the tests after the verdict */
	gdouble slice_seconds;
	guint min_slices;
	guint64 seq_slice_blocks;
	gdouble settle_seconds; /* the pause before each test but the first */
	/* the rest is for tests */
	SdtBenchIoBackend backend; /* for the queue-depth tests; AUTO: io_uring, else threads */
	SdtBenchTargetFlags target_flags;
	const gchar *inject_test; /* inject an error into this test ... */
	guint64 inject_after;     /* ... at the completion of this IO ... */
	gint inject_errno;        /* ... with this errno */
} SdtBenchConfig;

/* quick, standard, full; SDT_ERROR_INVALID_ARGUMENT for anything else */
gboolean sdt_bench_config_for_profile(const gchar *profile, SdtBenchConfig *config, GError **error);

typedef struct {
	gchar *name;
	gsize block_size;
	guint queue_depth;
	gboolean random;
	const gchar *io_engine; /* "sync", "io_uring", "threads" */
	guint in_flight_max;
	gdouble seconds; /* the whole test */
	guint64 ios;
	guint64 bytes;
	/* random tests: over the whole test; sequential: the steady state after the first block */
	gdouble mb_s;
	gdouble iops;
	gdouble fsync_seconds;
	guint slices;            /* the stopping rule's slices (SdtBenchIoStats) */
	gdouble ci_percent;      /* their 95% CI half-width, % of the mean; NaN: unknown */
	SdtBenchStopReason stop; /* why it ended */
	gdouble cpu_seconds; /* CPU time of the threads doing the I/O (SdtBenchIoStats.cpu_ns) */
	SdtBenchLatency latency;
} SdtBenchTestResult;

typedef struct {
	gboolean known; /* FALSE: the write tests it rests on were skipped (a whole card) */
	gboolean a1;
	gboolean a2;
	gdouble seq_write_mb_s;
	gdouble read_iops;
	gdouble write_iops;
	gdouble seconds;        /* from the start until the verdict was known */
	gdouble spread_percent; /* the widest CI of its three figures; NaN: unknown */
} SdtBenchVerdict;

typedef struct {
	gchar *profile;
	gdouble target_ci_percent; /* the stopping rule's (SdtBenchConfig); 0: fixed lengths */
	GPtrArray *tests;          /* of SdtBenchTestResult */
	SdtBenchVerdict verdict;
	gdouble seconds;
	gdouble spread_percent; /* the widest CI of all figures; NaN: one is unknown */
	GPtrArray *notes;       /* of gchar*: what was skipped and why */
} SdtBenchResult;

void sdt_bench_result_free(SdtBenchResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBenchResult, sdt_bench_result_free)

/*
 * Runs the tests of @config on @target, calling @progress at most ~10 times a
 * second.  Cancelling @cancellable stops it within 200 ms (SDT_ERROR_CANCELLED).
 */
SdtBenchResult *sdt_bench_run(SdtBenchTarget *target,
			      const SdtBenchConfig *config,
			      SdtBenchProgressFunc progress,
			      gpointer user_data,
			      GCancellable *cancellable,
			      GError **error);

/*
 * The record of this run (sdt-bench-record.h), its figures rounded as the
 * document carries them; @ceiling_mb_s <= 0 or NaN means unknown
 */
SdtBenchRecord *
sdt_bench_result_to_record(SdtBenchResult *result, SdtBenchTarget *target, gdouble ceiling_mb_s);

G_END_DECLS
