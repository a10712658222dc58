/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sdt-bench-latency.h"
#include "sdt-bench-stop.h"

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
	 * Adaptive length (sdt-bench-stop.h): stop submitting once the rate is
	 * known within ±@target_ci_percent at SDT_BENCH_STOP_CONFIDENCE (see
	 * @ci_percent in the stats), after @min_slices slices (0: 3) and
	 * @min_seconds; the limits above still apply.  0: run to the limits.
	 * A slice lasts @slice_seconds (0: 250 ms), or @slice_blocks blocks of
	 * a sequential test when that comes first (0: an eighth of its length).
	 */
	gdouble target_ci_percent;
	gdouble min_seconds;
	guint min_slices;
	gdouble slice_seconds;
	guint64 slice_blocks;
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
	 * slices (@slice_seconds or @slice_blocks of the job)
	 * from the first completion on, ending at completions: how many, and the half-width of the
	 * 95% confidence interval of the rate (the slope of completed bytes over time at their
	 * ends) relative to it, in percent (-1 with fewer than two slices)
	 */
	guint slices;
	gdouble ci_percent;
	/*
	 * that slope, in bytes per second, the last completion (and the end of
	 * the fsync) a point too; -1 with fewer than two points
	 */
	gdouble rate;
	SdtBenchStopReason stop; /* why it ended; NONE when it failed or was cancelled */
	SdtBenchLatency latency;
} SdtBenchIoStats;

typedef struct _SdtBenchIo SdtBenchIo;

G_END_DECLS
