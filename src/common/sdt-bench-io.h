/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * The benchmark's I/O layer: one object per test, running reads or writes of
 * one block size against one file descriptor at a fixed queue depth.
 *
 * Backends:
 *  - sync: pread/pwrite in the calling thread (queue depth 1, the cheapest per IO);
 *  - io_uring (liburing): @depth requests in flight, refilled as each completes;
 *  - threads: the fallback where io_uring is unavailable; @depth worker threads
 *    take requests from a queue the run loop keeps at @depth.
 *
 * "In flight" means submitted and not yet reaped, for every backend; the
 * high-water mark is kept so a test can check that a QD32 run really had 32.
 */

typedef enum {
	SDT_BENCH_IO_BACKEND_AUTO, /* io_uring if the kernel allows it, else threads */
	SDT_BENCH_IO_BACKEND_SYNC,
	SDT_BENCH_IO_BACKEND_URING,
	SDT_BENCH_IO_BACKEND_THREADS,
} SdtBenchIoBackend;

typedef enum {
	SDT_BENCH_IO_READ,
	SDT_BENCH_IO_WRITE,
} SdtBenchIoDir;

const gchar *sdt_bench_io_backend_to_string(SdtBenchIoBackend backend);

/* xoshiro256+ seeded through splitmix64: fast, fresh incompressible data */
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
guint64 sdt_bench_mul_high(guint64 a, guint64 b);
guint64 sdt_bench_mul_high_portable(guint64 a, guint64 b);
/* @len must be a multiple of 8 and @buf 8-byte aligned */
void sdt_bench_rng_fill(SdtBenchRng *rng, gpointer buf, gsize len);

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

void sdt_bench_latency_reset(SdtBenchLatency *lat);
void sdt_bench_latency_add(SdtBenchLatency *lat, guint64 ns);
/* @p in [0, 100]; 0 for an empty histogram */
guint64 sdt_bench_latency_percentile(const SdtBenchLatency *lat, gdouble p);

/*
 * Called from the run loop when requests completed, at most every 100 ms, and
 * once at the end: @bytes_done completed by @seconds after the start (the time
 * of the last completion), so a rate computed from two calls is a rate of
 * completed bytes.
 */
typedef void (*SdtBenchIoProgressFunc)(guint64 bytes_done, gdouble seconds, gpointer user_data);

typedef struct {
	SdtBenchIoDir dir;
	gsize block_size;
	guint64 offset;      /* start of the region in the file or device */
	guint64 length;      /* bytes in the region, a multiple of @block_size */
	gboolean random;     /* random block-aligned offsets, else sequential from @offset */
	guint64 seed;        /* offsets (random) and data (writes) */
	guint64 max_bytes;   /* stop submitting after this much (0: @length if sequential) */
	gdouble max_seconds; /* stop submitting after this long (0: no limit) */
	gboolean fsync_end;  /* fsync once after the last write, counted in the time */
	/*
	 * Adaptive length: stop submitting once the rate is known within
	 * ±@target_ci_percent (see @ci_percent in the stats; at least 3 slices of
	 * 250 ms) and @min_seconds have passed; the limits above still apply.
	 * 0: run to the limits.
	 */
	gdouble target_ci_percent;
	gdouble min_seconds;
	SdtBenchIoProgressFunc progress;
	gpointer user_data;
	GCancellable *cancellable;
} SdtBenchIoJob;

typedef struct {
	guint64 ios;
	guint64 bytes;
	gdouble seconds; /* from the first submission to the last completion (and fsync) */
	/*
	 * the steady state: from the first completion on, without the first IO, so
	 * a card's wake-up or a throttle's start allowance does not skew a short
	 * sequential test (equal to the totals when fewer than two IOs completed)
	 */
	gdouble steady_seconds;
	guint64 steady_bytes;
	guint64 fsync_ns;
	/*
	 * CPU time (user + system) of the threads doing the I/O during the run:
	 * the calling thread, the backend's worker threads and io_uring's io-wq
	 * workers ("iou-wrk-*"), including any that exited during the run; not the
	 * rest of the process
	 */
	guint64 cpu_ns;
	/*
	 * slices of at least 250 ms (or an eighth of a sequential test's bytes)
	 * from the first completion on, ending at completions: how many, and the half-width of the
	 * 95% confidence interval of the rate (the slope of completed bytes over time at their
	 * ends) relative to it, in percent (-1 with fewer than two slices)
	 */
	guint slices;
	gdouble ci_percent;
	SdtBenchLatency latency;
} SdtBenchIoStats;

typedef struct _SdtBenchIo SdtBenchIo;

/* @fd is duplicated; the copy lives as long as IO may be in flight */
SdtBenchIo *
sdt_bench_io_new(SdtBenchIoBackend backend, guint depth, gint fd, gsize block_size, GError **error);
/*
 * Frees at once when nothing is in flight; otherwise (after a cancellation) a
 * short-lived thread reaps the outstanding requests and then frees, so the
 * caller never waits for a slow card to finish a 4 MiB write.
 */
void sdt_bench_io_free(SdtBenchIo *io);
SdtBenchIoBackend sdt_bench_io_get_backend(SdtBenchIo *io);
guint sdt_bench_io_get_depth(SdtBenchIo *io);
guint sdt_bench_io_get_in_flight(SdtBenchIo *io);
guint sdt_bench_io_get_in_flight_max(SdtBenchIo *io);

/*
 * Error injection: the completion of IO number @after_ios (counting from 0)
 * reports -@errsv instead of its real result, as a failing card would.
 */
void sdt_bench_io_inject_error(SdtBenchIo *io, guint64 after_ios, gint errsv);

/*
 * Runs @job.  Returns %FALSE with SDT_ERROR_IO (or the errno's code) on a
 * failed or short IO, SDT_ERROR_CANCELLED when @job->cancellable fires, with
 * @stats filled up to that point.  Waiting for a completion blocks until one
 * arrives or the cancellable fires (its fd wakes the wait: no polling); only
 * a cancellable without an fd is looked at every 50 ms.
 */
gboolean
sdt_bench_io_run(SdtBenchIo *io, const SdtBenchIoJob *job, SdtBenchIoStats *stats, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBenchIo, sdt_bench_io_free)

G_END_DECLS
