/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* syscall */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sdt-bench-io-private.h"
#include "sdt-bench-io.h"
#include "sdt-bench-stop.h"
#include "sdt-bench-stop-private.h"
#include "sdt-error.h"
#include "sdt-bench-rng-private.h"

const gchar *
sdt_bench_io_backend_to_string(SdtBenchIoBackend backend)
{
	switch (backend) {
	case SDT_BENCH_IO_BACKEND_SYNC:
		return "sync";
	case SDT_BENCH_IO_BACKEND_URING:
		return "io_uring";
	case SDT_BENCH_IO_BACKEND_THREADS:
		return "threads";
	default:
		return "auto";
	}
}

/* whether the kernel was told never to use transparent huge pages (a mode
 * madvise() does not report: the advice succeeds and does nothing) */
static gboolean
sdt_bench_io_thp_never(void)
{
	g_autofree gchar *mode = NULL;

	if (!g_file_get_contents("/sys/kernel/mm/transparent_hugepage/enabled", &mode, NULL, NULL))
		return FALSE; /* no THP at all: madvise() fails */
	return strstr(mode, "[never]") != NULL;
}

/*
 * A buffer of @size bytes for O_DIRECT.  A large block's (the sequential tests'
 * 4 MiB, the raw read's 2 MiB) is a mapping of its own, aligned to 2 MiB and
 * offered to transparent huge pages: one physically contiguous page becomes a
 * few DMA segments where 512 scattered 4 KiB pages were 512.  On the emulated
 * Pi 3 that took the kernel's CPU time per 2 MiB read from 1.7 to 0.6 ms and
 * the raw read from 300 to 633 MB/s (docs/BENCHMARK-ENGINE.md); fio's malloc()ed
 * buffers were huge by chance, in part.  Where the kernel has no THP (ARMv6,
 * 32-bit ARM without LPAE) the advice fails and the pages stay small, as
 * before.  Sets *@mapped when the buffer is to be given back with munmap(), and
 * *@huge when the kernel took the advice and may follow it (THP not "never").
 */
static gpointer
sdt_bench_io_buffer_new(gsize size, gboolean *mapped, gboolean *huge, gint *errsv)
{
	gpointer buf = NULL;
	gint rc;

	*mapped = FALSE;
	*huge = FALSE;
	if (size >= SDT_BENCH_IO_HUGE_ALIGN && size % SDT_BENCH_IO_HUGE_ALIGN == 0) {
		gsize span = size + SDT_BENCH_IO_HUGE_ALIGN;
		guint8 *map = mmap(NULL,
				   span,
				   PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS,
				   -1,
				   0);
		guintptr start;
		gsize head;

		if (map == MAP_FAILED) {
			*errsv = errno;
			return NULL;
		}
		start = ((guintptr) map + SDT_BENCH_IO_HUGE_ALIGN - 1) &
			~((guintptr) SDT_BENCH_IO_HUGE_ALIGN - 1);
		head = (gsize) (start - (guintptr) map);
		/* the mapping becomes exactly the aligned buffer: nothing else in it is touched */
		if (head > 0)
			munmap(map, head);
		if (span - head > size)
			munmap((guint8 *) start + size, span - head - size);
		*huge = madvise((gpointer) start, size, MADV_HUGEPAGE) == 0 &&
			!sdt_bench_io_thp_never();
		*mapped = TRUE;
		return (gpointer) start;
	}
	rc = posix_memalign(&buf, SDT_BENCH_IO_BUFFER_ALIGN, size);
	if (rc != 0) {
		*errsv = rc;
		return NULL;
	}
	return buf;
}

SdtBenchIo *
sdt_bench_io_new(SdtBenchIoBackend backend, guint depth, gint fd, gsize block_size, GError **error)
{
	SdtBenchIo *io;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(depth > 0 && depth <= 256, NULL);
	g_return_val_if_fail(block_size > 0 && block_size % 8 == 0, NULL);
	g_return_val_if_fail(backend != SDT_BENCH_IO_BACKEND_SYNC || depth == 1, NULL);

	io = g_new0(SdtBenchIo, 1);
	io->depth = depth;
	io->block_size = block_size;
	io->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (io->fd < 0) {
		sdt_error_set_from_errno(error, errno, _("cannot duplicate the file descriptor"));
		g_free(io);
		return NULL;
	}
	/*
	 * Queued tests get a spare slot, filled with fresh data while the others
	 * are in flight.  At queue depth 1 (the 4 MiB sequential blocks) there is
	 * none: the next block is filled after the last one completed, as fio
	 * does, which costs a card at 20 MB/s 0.5% of the time and saves the
	 * helper 4 MiB of memory.
	 */
	io->n_slots = depth > 1 ? depth + 1 : 1;
	io->slots = g_new0(SdtBenchIoSlot, io->n_slots);
	for (guint i = 0; i < io->n_slots; i++) {
		gboolean mapped = FALSE;
		gboolean huge = FALSE;
		gint errsv = 0;
		io->slots[i].buf = sdt_bench_io_buffer_new(block_size, &mapped, &huge, &errsv);
		if (io->slots[i].buf == NULL) {
			sdt_error_set_from_errno(error, errsv, _("cannot allocate I/O buffers"));
			sdt_bench_io_free(io);
			return NULL;
		}
		/* the same for every slot: one size */
		io->buffers_mapped = mapped;
		io->buffers_huge = huge;
		memset(io->slots[i].buf, 0, block_size);
	}
	io->fsync_slot.op = SDT_BENCH_IO_OP_FSYNC;
	io->quit_slot.op = SDT_BENCH_IO_OP_QUIT;
	io->wake_slot.op = SDT_BENCH_IO_OP_QUIT;

	if (backend == SDT_BENCH_IO_BACKEND_AUTO || backend == SDT_BENCH_IO_BACKEND_URING) {
#if HAVE_LIBURING
		g_autoptr(GError) error_local = NULL;
		if (sdt_bench_io_backend_start_uring(io, &error_local)) {
			io->backend = SDT_BENCH_IO_BACKEND_URING;
			return io;
		}
		if (backend == SDT_BENCH_IO_BACKEND_URING) {
			g_propagate_error(error, g_steal_pointer(&error_local));
			sdt_bench_io_free(io);
			return NULL;
		}
		g_debug("falling back to threads: %s", error_local->message);
#else
		if (backend == SDT_BENCH_IO_BACKEND_URING) {
			g_set_error_literal(error,
					    SDT_ERROR,
					    SDT_ERROR_NOT_SUPPORTED,
					    _("built without liburing"));
			sdt_bench_io_free(io);
			return NULL;
		}
#endif
		backend = SDT_BENCH_IO_BACKEND_THREADS;
	}
	io->backend = backend;
	if (backend == SDT_BENCH_IO_BACKEND_THREADS &&
	    !sdt_bench_io_backend_start_threads(io, error)) {
		sdt_bench_io_free(io);
		return NULL;
	}
	return io;
}

SdtBenchIoBackend
sdt_bench_io_get_backend(SdtBenchIo *io)
{
	return io->backend;
}

guint
sdt_bench_io_get_in_flight(SdtBenchIo *io)
{
	return io->in_flight;
}

guint
sdt_bench_io_get_in_flight_max(SdtBenchIo *io)
{
	return io->in_flight_max;
}

void
sdt_bench_io_inject_error(SdtBenchIo *io, guint64 after_ios, gint errsv)
{
	io->inject = TRUE;
	io->inject_after = after_ios;
	io->inject_errsv = errsv;
}

static void
sdt_bench_io_free_now(SdtBenchIo *io)
{
	sdt_bench_io_backend_stop(io);
	for (guint i = 0; io->slots != NULL && i < io->n_slots; i++) {
		if (io->slots[i].buf != NULL && io->buffers_mapped)
			munmap(io->slots[i].buf, io->block_size);
		else
			free(io->slots[i].buf);
	}
	g_free(io->slots);
	if (io->fd >= 0)
		close(io->fd);
	g_free(io);
}

static gpointer
sdt_bench_io_reaper(gpointer data)
{
	SdtBenchIo *io = data;
	SdtBenchIoSlot *done[SDT_BENCH_IO_MAX_COMPLETIONS];

	while (io->in_flight > 0)
		sdt_bench_io_backend_reap(io, -1, done, G_N_ELEMENTS(done));
	sdt_bench_io_free_now(io);
	return NULL;
}

void
sdt_bench_io_free(SdtBenchIo *io)
{
	if (io == NULL)
		return;
	if (io->in_flight == 0) {
		sdt_bench_io_free_now(io);
		return;
	}
	/* the buffers and the fd must outlive the requests still in the kernel */
	g_thread_unref(g_thread_new("sdt-bench-reap", sdt_bench_io_reaper, io));
}

static SdtBenchIoSlot *
sdt_bench_io_take_slot(SdtBenchIo *io, SdtBenchIoSlotState state)
{
	for (guint i = 0; i < io->n_slots; i++) {
		if (io->slots[i].state == state)
			return &io->slots[i];
	}
	return NULL;
}

/* a failed or short read or write, in one whole sentence for each */
static gboolean
sdt_bench_io_result_error(SdtBenchIo *io, SdtBenchIoSlot *slot, GError **error)
{
	gboolean read = slot->op == SDT_BENCH_IO_OP_READ;
	uint64_t size = (uint64_t) io->block_size;
	uint64_t offset = (uint64_t) slot->offset;

	if (slot->res < 0) {
		/* Translators: a block size in bytes, then a byte offset on the card */
		return sdt_error_set_from_errno(
			error,
			(gint) -slot->res,
			read ? _("read of %" PRIu64 " bytes at offset %" PRIu64 " failed")
			     : _("write of %" PRIu64 " bytes at offset %" PRIu64 " failed"),
			size,
			offset);
	}
	/* Translators: bytes done, the block size in bytes, then a byte offset */
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_IO,
		    read ? _("short read: %" PRId64 " of %" PRIu64 " bytes at offset %" PRIu64)
			 : _("short write: %" PRId64 " of %" PRIu64 " bytes at offset %" PRIu64),
		    (int64_t) slot->res,
		    size,
		    offset);
	return FALSE;
}

static gboolean
sdt_bench_io_check_result(SdtBenchIo *io, SdtBenchIoSlot *slot, GError **error)
{
	if (slot->op == SDT_BENCH_IO_OP_FSYNC) {
		if (slot->res < 0)
			return sdt_error_set_from_errno(error,
							(gint) -slot->res,
							_("fsync failed"));
		return TRUE;
	}
	if (io->inject && io->completed == io->inject_after)
		slot->res = -io->inject_errsv;
	io->completed++;
	if (slot->res < 0 || (gsize) slot->res != io->block_size)
		return sdt_bench_io_result_error(io, slot, error);
	return TRUE;
}

static gboolean
sdt_bench_io_check_cancelled(const SdtBenchIoJob *job, GError **error)
{
	if (job->cancellable != NULL && g_cancellable_is_cancelled(job->cancellable)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_CANCELLED,
				    _("benchmark cancelled"));
		return TRUE;
	}
	return FALSE;
}

static gboolean
sdt_bench_io_fsync(SdtBenchIo *io,
		   const SdtBenchIoJob *job,
		   gint64 wait_ns,
		   SdtBenchIoStats *stats,
		   GError **error)
{
	SdtBenchIoSlot *done[1];
	gint64 t0 = sdt_bench_io_now();

	sdt_bench_io_backend_submit(io, &io->fsync_slot);
	sdt_bench_io_backend_flush(io);
	while (io->in_flight > 0) {
		if (sdt_bench_io_backend_reap(io, wait_ns, done, 1) == 1)
			break;
		if (sdt_bench_io_check_cancelled(job, error))
			return FALSE;
	}
	stats->fsync_ns = (guint64) (sdt_bench_io_now() - t0);
	io->fsync_slot.state = SDT_BENCH_IO_SLOT_FREE;
	return sdt_bench_io_check_result(io, &io->fsync_slot, error);
}

/*
 * After a cancellation: give the requests in flight up to @budget_ns to
 * finish, so that usually nothing is left for the reaper thread and the test
 * file is closed when the caller returns; a slow card's 4 MiB write is left
 * to the reaper.
 */
static void
sdt_bench_io_drain(SdtBenchIo *io, gint64 budget_ns)
{
	SdtBenchIoSlot *done[SDT_BENCH_IO_MAX_COMPLETIONS];
	gint64 deadline = sdt_bench_io_now() + budget_ns;

	while (io->in_flight > 0) {
		gint64 left = deadline - sdt_bench_io_now();
		guint n;
		if (left <= 0)
			break;
		n = sdt_bench_io_backend_reap(io, left, done, G_N_ELEMENTS(done));
		for (guint i = 0; i < n; i++)
			done[i]->state = SDT_BENCH_IO_SLOT_FREE;
	}
}

/* the state of one run of the loop */
typedef struct {
	SdtBenchIo *io;
	const SdtBenchIoJob *job;
	SdtBenchIoStats *stats;
	SdtBenchRng rng_offset;
	SdtBenchRng rng_data;
	SdtBenchStop slices;
	GError *error_io; /* the first failed I/O; the loop then only reaps */
	SdtBenchIoOp op;
	gboolean is_write;
	guint64 nblocks;
	guint64 limit; /* bytes to submit; G_MAXUINT64: no limit */
	guint64 submitted;
	guint64 next_offset;
	guint64 progress_bytes;
	gboolean stop; /* submit nothing more */
	gint64 t0;
	gint64 t_first;
	gint64 t_last; /* the last completion */
	gint64 deadline;
	gint64 min_end;
	gint64 last_progress;
	gint64 wait_ns;
} SdtBenchIoLoop;

static void
sdt_bench_io_loop_init(SdtBenchIoLoop *loop,
		       SdtBenchIo *io,
		       const SdtBenchIoJob *job,
		       SdtBenchIoStats *stats)
{
	memset(loop, 0, sizeof(*loop));
	loop->io = io;
	loop->job = job;
	loop->stats = stats;
	loop->is_write = job->dir == SDT_BENCH_IO_WRITE;
	loop->op = loop->is_write ? SDT_BENCH_IO_OP_WRITE : SDT_BENCH_IO_OP_READ;
	loop->nblocks = job->length / job->block_size;
	loop->next_offset = job->offset;
	loop->deadline = G_MAXINT64;
	loop->limit = job->max_bytes;
	if (!job->random && (loop->limit == 0 || loop->limit > loop->nblocks * job->block_size))
		loop->limit = loop->nblocks * job->block_size;
	if (loop->limit == 0)
		loop->limit = G_MAXUINT64;
	sdt_bench_rng_init(&loop->rng_offset, job->seed);
	sdt_bench_rng_init(&loop->rng_data, job->seed ^ G_GUINT64_CONSTANT(0x5344547544415441));
	for (guint i = 0; i < io->n_slots; i++)
		io->slots[i].state = SDT_BENCH_IO_SLOT_FREE;
	/*
	 * slices of the job's length (SDT_BENCH_IO_SLICE_NS by default); a
	 * sequential test's slice also ends with its job's slice_blocks blocks
	 * (default: an eighth of its length), so a test over in less than 2 s
	 * still gets slices
	 */
	sdt_bench_stop_init(&loop->slices,
			    job->slice_seconds > 0 ? (gint64) (job->slice_seconds * 1e9)
						   : SDT_BENCH_IO_SLICE_NS,
			    0);
	if (loop->limit != G_MAXUINT64) {
		loop->slices.slice_bytes =
			job->slice_blocks > 0 ? job->slice_blocks * job->block_size
					      : MAX(loop->limit / 8, (guint64) job->block_size);
	}
}

/* the clock starts: the time limits count from here */
static void
sdt_bench_io_loop_start(SdtBenchIoLoop *loop)
{
	const SdtBenchIoJob *job = loop->job;

	loop->t0 = loop->last_progress = sdt_bench_io_now();
	if (job->max_seconds > 0)
		loop->deadline = loop->t0 + (gint64) (job->max_seconds * 1e9);
	loop->min_end = loop->t0 + (gint64) (job->min_seconds * 1e9);
}

/* keeps @depth requests in flight until the limit */
static void
sdt_bench_io_loop_fill_queue(SdtBenchIoLoop *loop)
{
	SdtBenchIo *io = loop->io;
	const SdtBenchIoJob *job = loop->job;

	while (!loop->stop && io->in_flight < io->depth) {
		SdtBenchIoSlot *slot = sdt_bench_io_take_slot(io, SDT_BENCH_IO_SLOT_READY);
		if (slot == NULL) {
			slot = sdt_bench_io_take_slot(io, SDT_BENCH_IO_SLOT_FREE);
			if (loop->is_write)
				sdt_bench_rng_fill(&loop->rng_data, slot->buf, io->block_size);
		}
		slot->op = loop->op;
		if (job->random) {
			slot->offset = job->offset +
				       sdt_bench_rng_below(&loop->rng_offset, loop->nblocks) *
					       job->block_size;
		} else {
			slot->offset = loop->next_offset;
			loop->next_offset += job->block_size;
		}
		sdt_bench_io_backend_submit(io, slot);
		loop->submitted += job->block_size;
		if (loop->submitted >= loop->limit) {
			loop->stop = TRUE;
			if (loop->stats->stop == SDT_BENCH_STOP_NONE)
				loop->stats->stop = SDT_BENCH_STOP_LENGTH;
		}
	}
}

/*
 * Fresh data for the next write in the spare slot, while the other requests
 * are in flight.  What the loop queued goes in with the wait that follows, one
 * system call: a queued test has depth - 1 requests at the card meanwhile, so
 * submitting before the fill (a second system call) gained the card nothing.
 */
static void
sdt_bench_io_loop_prepare_write(SdtBenchIoLoop *loop)
{
	SdtBenchIo *io = loop->io;
	SdtBenchIoSlot *slot;

	if (!loop->is_write || loop->stop || io->backend == SDT_BENCH_IO_BACKEND_SYNC)
		return;
	slot = sdt_bench_io_take_slot(io, SDT_BENCH_IO_SLOT_FREE);
	if (slot != NULL) {
		sdt_bench_rng_fill(&loop->rng_data, slot->buf, io->block_size);
		slot->state = SDT_BENCH_IO_SLOT_READY;
	}
}

/* counts @n completions; the first failure stops the submissions */
static void
sdt_bench_io_loop_complete(SdtBenchIoLoop *loop, SdtBenchIoSlot **done, guint n)
{
	SdtBenchIoStats *stats = loop->stats;

	for (guint i = 0; i < n; i++) {
		SdtBenchIoSlot *slot = done[i];
		slot->state = SDT_BENCH_IO_SLOT_FREE;
		sdt_bench_latency_add(&stats->latency, (guint64) (slot->t_done - slot->t_submit));
		if (loop->error_io != NULL)
			continue;
		if (!sdt_bench_io_check_result(loop->io, slot, &loop->error_io)) {
			loop->stop = TRUE;
			continue;
		}
		stats->ios++;
		stats->bytes += loop->io->block_size;
		if (stats->ios == 1)
			loop->t_first = slot->t_done;
	}
}

/* a point of the rate's line at @now, if a slice ended there */
static gboolean
sdt_bench_io_loop_point(SdtBenchIoLoop *loop, gint64 now)
{
	loop->t_last = now;
	return sdt_bench_stop_add(&loop->slices, now, loop->stats->bytes);
}

/* after completions up to @now: the time limit, the rate's spread, the live rate */
static void
sdt_bench_io_loop_account(SdtBenchIoLoop *loop, gint64 now)
{
	const SdtBenchIoJob *job = loop->job;
	SdtBenchIoStats *stats = loop->stats;

	stats->seconds = (gdouble) (now - loop->t0) / 1e9;
	if (now >= loop->deadline && !loop->stop) {
		loop->stop = TRUE;
		stats->stop = SDT_BENCH_STOP_CAP;
	}
	if (loop->error_io == NULL && sdt_bench_io_loop_point(loop, now) && !loop->stop &&
	    now >= loop->min_end &&
	    sdt_bench_stop_settled(&loop->slices,
				   job->target_ci_percent,
				   job->min_slices > 0 ? job->min_slices
						       : SDT_BENCH_IO_MIN_SLICES)) {
		/* known within ±target: enough for the verdict */
		loop->stop = TRUE;
		stats->stop = SDT_BENCH_STOP_SETTLED;
	}
	/* only when something completed: a live rate of what completed */
	if (job->progress != NULL && stats->bytes > loop->progress_bytes &&
	    (loop->progress_bytes == 0 || now - loop->last_progress >= SDT_BENCH_IO_PROGRESS_NS)) {
		loop->last_progress = now;
		loop->progress_bytes = stats->bytes;
		job->progress(stats->bytes, stats->seconds, job->user_data);
	}
}

/* the last completion is in: the fsync, the totals and the steady state */
static gboolean
sdt_bench_io_loop_finish(SdtBenchIoLoop *loop, GError **error)
{
	const SdtBenchIoJob *job = loop->job;
	SdtBenchIoStats *stats = loop->stats;
	gint64 t_end;

	if (loop->error_io != NULL) {
		g_propagate_error(error, g_steal_pointer(&loop->error_io));
		return FALSE;
	}
	/*
	 * the rate's line runs to the last completion; the fsync is in the
	 * test's seconds and fsync_seconds, not in the sustained rate
	 */
	if (loop->t_last > 0)
		sdt_bench_stop_add_last(&loop->slices, loop->t_last, stats->bytes);
	if (job->fsync_end && !sdt_bench_io_fsync(loop->io, job, loop->wait_ns, stats, error))
		return FALSE;
	t_end = sdt_bench_io_now();
	stats->seconds = (gdouble) (t_end - loop->t0) / 1e9;
	stats->steady_seconds = stats->seconds;
	stats->steady_bytes = stats->bytes;
	if (stats->ios >= 2 && t_end > loop->t_first) {
		stats->steady_seconds = (gdouble) (t_end - loop->t_first) / 1e9;
		stats->steady_bytes = stats->bytes - loop->io->block_size;
	}
	if (job->progress != NULL)
		job->progress(stats->bytes, stats->seconds, job->user_data);
	return TRUE;
}

static gboolean
sdt_bench_io_run_loop(SdtBenchIo *io,
		      const SdtBenchIoJob *job,
		      SdtBenchIoStats *stats,
		      GError **error)
{
	SdtBenchIoSlot *done[SDT_BENCH_IO_MAX_COMPLETIONS];
	SdtBenchIoLoop loop;
	gulong wake_handler;
	gboolean ok = FALSE;

	sdt_bench_io_loop_init(&loop, io, job, stats);
	if (sdt_bench_io_check_cancelled(job, error))
		return FALSE;
	loop.wait_ns = sdt_bench_io_backend_arm_wake(io, job->cancellable, &wake_handler);
	sdt_bench_io_loop_start(&loop);
	for (;;) {
		guint n;

		sdt_bench_io_loop_fill_queue(&loop);
		sdt_bench_io_loop_prepare_write(&loop);
		if (io->in_flight == 0)
			break;
		n = sdt_bench_io_backend_reap(io, loop.wait_ns, done, G_N_ELEMENTS(done));
		sdt_bench_io_loop_complete(&loop, done, n);
		if (sdt_bench_io_check_cancelled(job, error)) {
			sdt_bench_io_drain(io, SDT_BENCH_IO_DRAIN_NS);
			goto out;
		}
		if (n > 0) /* else woken without a completion */
			sdt_bench_io_loop_account(&loop, done[n - 1]->t_done);
	}
	ok = sdt_bench_io_loop_finish(&loop, error);
out:
	g_clear_error(&loop.error_io);
	stats->rate = sdt_bench_stop_rate(&loop.slices);
	stats->slices = sdt_bench_stop_slices(&loop.slices);
	stats->ci_percent = sdt_bench_stop_ci(&loop.slices);
	if (!ok)
		stats->stop = SDT_BENCH_STOP_NONE;
	if (wake_handler != 0)
		g_cancellable_disconnect(job->cancellable, wake_handler);
	return ok;
}

gboolean
sdt_bench_io_run(SdtBenchIo *io, const SdtBenchIoJob *job, SdtBenchIoStats *stats, GError **error)
{
	SdtBenchIoCpuSnapshot cpu_start;
	SdtBenchIoCpuSnapshot cpu_end;
	gboolean ok;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(job->block_size == io->block_size, FALSE);
	g_return_val_if_fail(job->length >= job->block_size, FALSE);
	g_return_val_if_fail(io->in_flight == 0, FALSE);

	memset(stats, 0, sizeof(*stats));
	sdt_bench_io_cpu_snapshot(io, &cpu_start);
	ok = sdt_bench_io_run_loop(io, job, stats, error);
	sdt_bench_io_cpu_snapshot(io, &cpu_end);
	stats->cpu_ns = sdt_bench_io_cpu_between(&cpu_start, &cpu_end);
	return ok;
}
