/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* syscall */

#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sdt-bench-io-private.h"

static guint64
sdt_bench_io_clock_ns(clockid_t clock)
{
	struct timespec ts;
	if (clock_gettime(clock, &ts) != 0)
		return G_MAXUINT64;
	return (guint64) ts.tv_sec * G_GUINT64_CONSTANT(1000000000) + (guint64) ts.tv_nsec;
}

/* the CPU clock of thread @tid of this process (the kernel's MAKE_THREAD_CPUCLOCK) */
static clockid_t
sdt_bench_io_thread_clock(gint tid)
{
	return (clockid_t) ((~(guint32) tid << 3) | 4 /* per thread */ | 2 /* sched */);
}

static gboolean
sdt_bench_io_is_io_thread(SdtBenchIo *io, gint tid, gint self_tid, gint task_fd)
{
	gchar comm[32];
	gchar want[32];
	gssize n;

	if (tid == self_tid)
		return TRUE;
	for (guint i = 0; i < io->n_workers; i++) {
		if (g_atomic_int_get(&io->worker_tids[i]) == tid)
			return TRUE;
	}
	if (io->backend != SDT_BENCH_IO_BACKEND_URING)
		return FALSE;
	n = pread(task_fd, comm, sizeof(comm) - 1, 0);
	if (n <= 0)
		return FALSE;
	comm[n] = '\0';
	g_strchomp(comm);
	g_snprintf(want, sizeof(want), "iou-wrk-%d", self_tid);
	return strcmp(comm, want) == 0;
}

void
sdt_bench_io_cpu_snapshot(SdtBenchIo *io, SdtBenchIoCpuSnapshot *snap)
{
	gint self_tid = (gint) syscall(SYS_gettid);
	guint64 process_ns = sdt_bench_io_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	guint64 live_ns = 0;
	DIR *dir = opendir("/proc/self/task");
	struct dirent *ent;

	snap->io_threads = g_array_new(FALSE, FALSE, sizeof(SdtBenchIoThreadTime));
	snap->all_threads = g_array_new(FALSE, FALSE, sizeof(SdtBenchIoThreadTime));
	snap->unaccounted_ns = 0;
	if (dir == NULL) {
		/* no /proc: this thread alone */
		SdtBenchIoThreadTime t = {self_tid, sdt_bench_io_clock_ns(CLOCK_THREAD_CPUTIME_ID)};
		g_array_append_val(snap->io_threads, t);
		return;
	}
	while ((ent = readdir(dir)) != NULL) {
		gchar path[64];
		SdtBenchIoThreadTime t;
		gint fd;

		if (ent->d_name[0] < '0' || ent->d_name[0] > '9')
			continue;
		t.tid = atoi(ent->d_name);
		t.ns = sdt_bench_io_clock_ns(sdt_bench_io_thread_clock(t.tid));
		if (t.ns == G_MAXUINT64)
			continue; /* exited meanwhile */
		live_ns += t.ns;
		g_array_append_val(snap->all_threads, t);
		g_snprintf(path, sizeof(path), "/proc/self/task/%d/comm", t.tid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (sdt_bench_io_is_io_thread(io, t.tid, self_tid, fd))
			g_array_append_val(snap->io_threads, t);
		if (fd >= 0)
			close(fd);
	}
	closedir(dir);
	snap->unaccounted_ns = process_ns > live_ns ? process_ns - live_ns : 0;
}

/* @tid's entry in @threads, or NULL */
static SdtBenchIoThreadTime *
sdt_bench_io_find_thread(GArray *threads, gint tid)
{
	for (guint i = 0; i < threads->len; i++) {
		if (g_array_index(threads, SdtBenchIoThreadTime, i).tid == tid)
			return &g_array_index(threads, SdtBenchIoThreadTime, i);
	}
	return NULL;
}

/*
 * What threads that exited between @start and @end ran in between: the growth
 * of the process time no live thread accounts for is their whole lifetime,
 * less what they had run by @start (also carries the few microseconds other
 * threads run while the snapshots are read)
 */
static guint64
sdt_bench_io_cpu_of_exited(SdtBenchIoCpuSnapshot *start, SdtBenchIoCpuSnapshot *end)
{
	guint64 before = start->unaccounted_ns;

	for (guint i = 0; i < start->all_threads->len; i++) {
		SdtBenchIoThreadTime t = g_array_index(start->all_threads, SdtBenchIoThreadTime, i);
		if (sdt_bench_io_find_thread(end->all_threads, t.tid) == NULL)
			before += t.ns;
	}
	return end->unaccounted_ns > before ? end->unaccounted_ns - before : 0;
}

guint64
sdt_bench_io_cpu_between(SdtBenchIoCpuSnapshot *start, SdtBenchIoCpuSnapshot *end)
{
	guint64 total = 0;
	gboolean exited = FALSE;

	for (guint j = 0; j < start->io_threads->len; j++) {
		gint tid = g_array_index(start->io_threads, SdtBenchIoThreadTime, j).tid;
		exited |= sdt_bench_io_find_thread(end->io_threads, tid) == NULL;
	}
	for (guint i = 0; i < end->io_threads->len; i++) {
		SdtBenchIoThreadTime *e = &g_array_index(end->io_threads, SdtBenchIoThreadTime, i);
		SdtBenchIoThreadTime *s = sdt_bench_io_find_thread(start->io_threads, e->tid);
		guint64 before = s != NULL ? s->ns : 0;
		if (e->ns > before)
			total += e->ns - before;
	}
	/* only when one of ours exited: otherwise it is other threads' time */
	if (exited)
		total += sdt_bench_io_cpu_of_exited(start, end);
	g_array_unref(start->io_threads);
	g_array_unref(end->io_threads);
	g_array_unref(start->all_threads);
	g_array_unref(end->all_threads);
	return total;
}
