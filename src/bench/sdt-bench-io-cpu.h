/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench-io-backend.h"

G_BEGIN_DECLS

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

G_END_DECLS
