/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

/*
 * Inside the benchmark's I/O layer: the object shared by the backends
 * (sdt-bench-io-backend.c: psync, threads, io_uring), the object's life and
 * the run loop (sdt-bench-io.c) and the CPU measure (sdt-bench-io-cpu.c).
 * Private to the benchmark's family (src/bench; tests/check-shape.py fails any
 * other file that includes it); the public API is sdt-bench-io.h.
 */

#include <time.h>

#if HAVE_LIBURING
#include <liburing.h>
#endif

#include "sdt-bench-io-types.h"

G_BEGIN_DECLS

/*
 * How long the run loop blocks before it looks at the cancellable again, where
 * a cancellation cannot wake it (a cancellable without a file descriptor).
 * Otherwise it blocks until a request completes or the cancellable fires: on
 * a slow card, waiting costs nothing.
 */
#define SDT_BENCH_IO_WAIT_NS         (50 * G_GINT64_CONSTANT(1000000))
#define SDT_BENCH_IO_PROGRESS_NS     (100 * G_GINT64_CONSTANT(1000000))
#define SDT_BENCH_IO_SLICE_NS        (250 * G_GINT64_CONSTANT(1000000))
#define SDT_BENCH_IO_MIN_SLICES      3
#define SDT_BENCH_IO_DRAIN_NS        (100 * G_GINT64_CONSTANT(1000000))
#define SDT_BENCH_IO_BUFFER_ALIGN    4096
#define SDT_BENCH_IO_HUGE_ALIGN      (2u * 1024u * 1024u) /* a transparent huge page */
#define SDT_BENCH_IO_MAX_COMPLETIONS 64

typedef enum {
	SDT_BENCH_IO_SLOT_FREE,
	SDT_BENCH_IO_SLOT_READY, /* holds fresh data for the next write */
	SDT_BENCH_IO_SLOT_IN_FLIGHT,
} SdtBenchIoSlotState;

typedef enum {
	SDT_BENCH_IO_OP_READ,
	SDT_BENCH_IO_OP_WRITE,
	SDT_BENCH_IO_OP_FSYNC,
	SDT_BENCH_IO_OP_QUIT, /* tells a worker thread to exit */
} SdtBenchIoOp;

typedef struct {
	SdtBenchIoOp op;
	SdtBenchIoSlotState state;
	gpointer buf;
	guint64 offset;
	gint64 t_submit;
	gint64 t_done; /* set by the backend when it knows better than the reaper */
	gssize res;    /* bytes, or -errno */
} SdtBenchIoSlot;

struct _SdtBenchIo {
	SdtBenchIoBackend backend;
	guint depth;
	gint fd;
	gsize block_size;
	SdtBenchIoSlot *slots; /* see sdt_bench_io_new() */
	guint n_slots;
	gboolean buffers_mapped; /* the slots' buffers are mappings of their own */
	gboolean buffers_huge;   /* ... advised to transparent huge pages */
	SdtBenchIoSlot fsync_slot;
	SdtBenchIoSlot quit_slot;
	SdtBenchIoSlot wake_slot;       /* a cancellation's wake-up, never counted as I/O */
	GCancellable *wake_cancellable; /* io_uring: its fd is polled by the ring */
	gboolean wake_armed;
	guint in_flight;
	guint in_flight_max;
	guint64 completed;
	gboolean inject;
	guint64 inject_after;
	gint inject_errsv;
#if HAVE_LIBURING
	struct io_uring ring;
	gboolean ring_ok;
	gboolean fixed_buffers; /* the slots' buffers are registered with the ring */
#endif
	/* threads */
	GAsyncQueue *requests;
	GAsyncQueue *completions;
	GThread **workers;
	gint *worker_tids; /* written by each worker as it starts */
	guint n_workers;
	/* sync */
	SdtBenchIoSlot *sync_done;
};

static inline gint64
sdt_bench_io_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (gint64) ts.tv_sec * G_GINT64_CONSTANT(1000000000) + ts.tv_nsec;
}

/* @depth worker threads for the threads backend */
gboolean sdt_bench_io_backend_start_threads(SdtBenchIo *io, GError **error);
#if HAVE_LIBURING
/* a ring with room for every slot */
gboolean sdt_bench_io_backend_start_uring(SdtBenchIo *io, GError **error);
#endif
/* ends the worker threads and the ring; nothing may be in flight */
void sdt_bench_io_backend_stop(SdtBenchIo *io);
void sdt_bench_io_backend_submit(SdtBenchIo *io, SdtBenchIoSlot *slot);
/* io_uring: hands what was queued to the kernel; nothing for the other backends */
void sdt_bench_io_backend_flush(SdtBenchIo *io);
/* reaps up to @max completions, blocking up to @timeout_ns (-1: forever) for the first */
guint
sdt_bench_io_backend_reap(SdtBenchIo *io, gint64 timeout_ns, SdtBenchIoSlot **done, guint max);
/*
 * Lets a cancellation of @cancellable wake a blocked wait.  Returns the wait
 * timeout to use: -1 (block until a completion or the cancellation) where it
 * can, else SDT_BENCH_IO_WAIT_NS.  *@handler is a signal handler to disconnect.
 */
gint64 sdt_bench_io_backend_arm_wake(SdtBenchIo *io, GCancellable *cancellable, gulong *handler);

/* ---- sdt-bench-io-cpu.c ---- */

/*
 * CPU time, as the threads doing the I/O see it: the thread running the loop,
 * the backend's worker threads, and io_uring's io-wq workers, which the kernel
 * creates inside this process for requests it cannot issue without blocking
 * (an ext4 write into unwritten extents, for one) and names "iou-wrk-<tid of
 * the submitter>".  Each thread's own CPU clock (ns, user + system) is read at
 * the start and the end of the run.  A thread of the set that exits during
 * the run (an io-wq worker does after idling a while, or when the previous
 * test's ring is torn down) is gone at the end, but its time stays in the
 * process's clock: the part of the process's time no live thread accounts for
 * grows by the whole lifetime of every thread that exited during the run.
 * Less the clocks those threads had at the start, that is what they ran during
 * the run, and it is counted when one of ours exited.  Nothing else of the
 * process (a main loop, the helper's D-Bus thread, a progress display) is
 * counted: fio's per-job figure does not count its main process either.
 */
typedef struct {
	gint tid;
	guint64 ns;
} SdtBenchIoThreadTime;

typedef struct {
	GArray *io_threads;     /* of SdtBenchIoThreadTime */
	GArray *all_threads;    /* every live thread, of SdtBenchIoThreadTime */
	guint64 unaccounted_ns; /* process CPU not in any live thread's clock */
} SdtBenchIoCpuSnapshot;

/* the I/O threads of @io and their CPU clocks now */
void sdt_bench_io_cpu_snapshot(SdtBenchIo *io, SdtBenchIoCpuSnapshot *snap);
/* CPU time of the I/O threads between @start and @end; frees both */
guint64 sdt_bench_io_cpu_between(SdtBenchIoCpuSnapshot *start, SdtBenchIoCpuSnapshot *end);

const gchar *sdt_bench_io_backend_to_string(SdtBenchIoBackend backend);

/* @fd is duplicated; the copy lives as long as IO may be in flight */
SdtBenchIo *
sdt_bench_io_new(SdtBenchIoBackend backend, guint depth, gint fd, gsize block_size, GError **error);

SdtBenchIoBackend sdt_bench_io_get_backend(SdtBenchIo *io);
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

G_END_DECLS
