/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sdt-bench-io-private.h"
#include "sdt-error.h"

static gssize
sdt_bench_io_do_sync(gint fd, SdtBenchIoSlot *slot, gsize len)
{
	gssize rc;

	switch (slot->op) {
	case SDT_BENCH_IO_OP_READ:
		rc = pread(fd, slot->buf, len, (off_t) slot->offset);
		break;
	case SDT_BENCH_IO_OP_WRITE:
		rc = pwrite(fd, slot->buf, len, (off_t) slot->offset);
		break;
	case SDT_BENCH_IO_OP_FSYNC:
		rc = fsync(fd);
		break;
	default:
		g_assert_not_reached();
	}
	return rc < 0 ? -errno : rc;
}

typedef struct {
	SdtBenchIo *io;
	guint index;
} SdtBenchIoWorkerStart;

static gpointer
sdt_bench_io_worker(gpointer data)
{
	SdtBenchIoWorkerStart *start = data;
	SdtBenchIo *io = start->io;

	g_atomic_int_set(&io->worker_tids[start->index], (gint) syscall(SYS_gettid));
	g_free(start);
	for (;;) {
		SdtBenchIoSlot *slot = g_async_queue_pop(io->requests);
		if (slot->op == SDT_BENCH_IO_OP_QUIT)
			return NULL;
		slot->res = sdt_bench_io_do_sync(io->fd, slot, io->block_size);
		slot->t_done = sdt_bench_io_now();
		g_async_queue_push(io->completions, slot);
	}
}

gboolean
sdt_bench_io_backend_start_threads(SdtBenchIo *io, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	io->requests = g_async_queue_new();
	io->completions = g_async_queue_new();
	io->workers = g_new0(GThread *, io->depth);
	io->worker_tids = g_new0(gint, io->depth);
	for (guint i = 0; i < io->depth; i++) {
		SdtBenchIoWorkerStart *start = g_new(SdtBenchIoWorkerStart, 1);
		start->io = io;
		start->index = i;
		io->workers[i] =
			g_thread_try_new("sdt-bench-io", sdt_bench_io_worker, start, error);
		if (io->workers[i] == NULL) {
			g_free(start);
			g_prefix_error(error, _("cannot start I/O worker thread: "));
			return FALSE;
		}
		io->n_workers++;
	}
	return TRUE;
}

#if HAVE_LIBURING
/*
 * The slots' buffers, registered with the ring once per test: the kernel then
 * pins their pages once instead of for every request (a 4 MiB block is 1024
 * pages), which halves the CPU time of a 4 MiB read on the RAM-speed device
 * (docs/BENCHMARK-ENGINE.md).  The card sees the same requests.  Where the
 * kernel refuses (RLIMIT_MEMLOCK without CAP_IPC_LOCK: the helper's unit sets
 * LimitMEMLOCK=16M), the requests name their buffers as before.  The file
 * itself is not registered: a ring's registered files are released only when
 * the kernel has torn the ring down, after the process may already want to
 * unmount the card.
 */
static void
sdt_bench_io_register_buffers(SdtBenchIo *io)
{
	g_autofree struct iovec *iov = g_new(struct iovec, io->n_slots);
	gint rc;

	for (guint i = 0; i < io->n_slots; i++) {
		iov[i].iov_base = io->slots[i].buf;
		iov[i].iov_len = io->block_size;
	}
	rc = io_uring_register_buffers(&io->ring, iov, io->n_slots);
	io->fixed_buffers = rc == 0;
	if (rc < 0)
		g_debug("I/O buffers not registered: %s", g_strerror(-rc));
}

gboolean
sdt_bench_io_backend_start_uring(SdtBenchIo *io, GError **error)
{
	gint rc;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	/* room for every slot plus the fsync and the cancellation's poll */
	rc = io_uring_queue_init(io->n_slots + 4, &io->ring, 0);
	if (rc < 0) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("io_uring is not available: %s"),
			    g_strerror(-rc));
		return FALSE;
	}
	io->ring_ok = TRUE;
	/*
	 * A large block's huge-page buffer is not registered: bookworm's 6.1 kernel
	 * registers it as 4 KiB pieces, each a segment of its own,
	 * and on the emulated Pi 3 the sequential read fell from 564 to 388 MB/s
	 * with it (fio with fixedbufs=1 the same: docs/BENCHMARK-ENGINE.md), while
	 * the pinned path merges the huge page into one segment.  Without THP (the
	 * Pi 2's armhf kernel) or with it set to "never" the buffers are small pages,
	 * and registered as before.
	 */
	if (!io->buffers_huge)
		sdt_bench_io_register_buffers(io);
	return TRUE;
}

/* @slot's request in @sqe, with its registered buffer where there is one */
static void
sdt_bench_io_prep_uring(SdtBenchIo *io, struct io_uring_sqe *sqe, SdtBenchIoSlot *slot)
{
	gint index = (gint) (slot - io->slots);
	gsize len = io->block_size;

	if (slot->op == SDT_BENCH_IO_OP_READ && io->fixed_buffers)
		io_uring_prep_read_fixed(sqe, io->fd, slot->buf, len, slot->offset, index);
	else if (slot->op == SDT_BENCH_IO_OP_READ)
		io_uring_prep_read(sqe, io->fd, slot->buf, len, slot->offset);
	else if (slot->op == SDT_BENCH_IO_OP_WRITE && io->fixed_buffers)
		io_uring_prep_write_fixed(sqe, io->fd, slot->buf, len, slot->offset, index);
	else if (slot->op == SDT_BENCH_IO_OP_WRITE)
		io_uring_prep_write(sqe, io->fd, slot->buf, len, slot->offset);
	else
		io_uring_prep_fsync(sqe, io->fd, 0);
}
#endif

void
sdt_bench_io_backend_submit(SdtBenchIo *io, SdtBenchIoSlot *slot)
{
	slot->state = SDT_BENCH_IO_SLOT_IN_FLIGHT;
	slot->t_done = 0;
	io->in_flight++;
	if (io->in_flight > io->in_flight_max)
		io->in_flight_max = io->in_flight;

	switch (io->backend) {
	case SDT_BENCH_IO_BACKEND_SYNC:
		slot->t_submit = sdt_bench_io_now();
		slot->res = sdt_bench_io_do_sync(io->fd, slot, io->block_size);
		slot->t_done = sdt_bench_io_now();
		io->sync_done = slot;
		break;
	case SDT_BENCH_IO_BACKEND_THREADS:
		slot->t_submit = sdt_bench_io_now();
		g_async_queue_push(io->requests, slot);
		break;
#if HAVE_LIBURING
	case SDT_BENCH_IO_BACKEND_URING: {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&io->ring);
		g_assert(sqe != NULL); /* the ring has room for every slot */
		sdt_bench_io_prep_uring(io, sqe, slot);
		io_uring_sqe_set_data(sqe, slot);
		slot->t_submit = sdt_bench_io_now();
		break;
	}
#endif
	default:
		g_assert_not_reached();
	}
}

void
sdt_bench_io_backend_flush(SdtBenchIo *io)
{
#if HAVE_LIBURING
	if (io->backend == SDT_BENCH_IO_BACKEND_URING) {
		gint rc;
		do {
			rc = io_uring_submit(&io->ring);
		} while (rc == -EINTR || rc == -EAGAIN);
		g_assert(rc >= 0);
	}
#endif
}

/* the threads backend: what the workers queued, waiting up to @timeout_ns for the first */
static guint
sdt_bench_io_reap_threads(SdtBenchIo *io, gint64 timeout_ns, SdtBenchIoSlot **done, guint max)
{
	SdtBenchIoSlot *slot;
	guint n = 0;

	if (timeout_ns < 0)
		slot = g_async_queue_pop(io->completions);
	else
		slot = g_async_queue_timeout_pop(io->completions, (guint64) timeout_ns / 1000);
	while (slot != NULL) {
		if (slot != &io->wake_slot)
			done[n++] = slot;
		if (n == max)
			break;
		slot = g_async_queue_try_pop(io->completions);
	}
	return n;
}

#if HAVE_LIBURING
/* io_uring: waits for the first completion (or up to @timeout_ns); < 0: none */
static gint
sdt_bench_io_uring_wait(SdtBenchIo *io, gint64 timeout_ns)
{
	struct io_uring_cqe *cqe = NULL;
	gint rc = 0;

	if (timeout_ns < 0) {
		/* what the loop queued goes in with the wait: one system call */
		if (io_uring_sq_ready(&io->ring) > 0) {
			do {
				rc = io_uring_submit_and_wait(&io->ring, 1);
			} while (rc == -EINTR || rc == -EAGAIN);
			g_assert(rc >= 0);
		}
		return io_uring_wait_cqe(&io->ring, &cqe);
	}
	sdt_bench_io_backend_flush(io);
	struct __kernel_timespec ts = {
		.tv_sec = timeout_ns / G_GINT64_CONSTANT(1000000000),
		.tv_nsec = timeout_ns % G_GINT64_CONSTANT(1000000000),
	};
	return io_uring_wait_cqe_timeout(&io->ring, &cqe, &ts);
}

static guint
sdt_bench_io_reap_uring(SdtBenchIo *io, gint64 timeout_ns, SdtBenchIoSlot **done, guint max)
{
	struct io_uring_cqe *cqe;
	unsigned head;
	guint seen = 0;
	guint n = 0;
	gint64 now;

	if (sdt_bench_io_uring_wait(io, timeout_ns) < 0)
		return 0;
	now = sdt_bench_io_now();
	io_uring_for_each_cqe(&io->ring, head, cqe)
	{
		SdtBenchIoSlot *slot;
		if (n == max)
			break;
		slot = io_uring_cqe_get_data(cqe);
		seen++;
		if (slot == &io->wake_slot) {
			io->wake_armed = FALSE;
			continue;
		}
		slot->res = cqe->res;
		slot->t_done = now;
		done[n++] = slot;
	}
	io_uring_cq_advance(&io->ring, seen);
	return n;
}
#endif

guint
sdt_bench_io_backend_reap(SdtBenchIo *io, gint64 timeout_ns, SdtBenchIoSlot **done, guint max)
{
	guint n = 0;

	switch (io->backend) {
	case SDT_BENCH_IO_BACKEND_SYNC:
		if (io->sync_done != NULL) {
			done[n++] = io->sync_done;
			io->sync_done = NULL;
		}
		break;
	case SDT_BENCH_IO_BACKEND_THREADS:
		n = sdt_bench_io_reap_threads(io, timeout_ns, done, max);
		break;
#if HAVE_LIBURING
	case SDT_BENCH_IO_BACKEND_URING:
		n = sdt_bench_io_reap_uring(io, timeout_ns, done, max);
		break;
#endif
	default:
		g_assert_not_reached();
	}
	for (guint i = 0; i < n; i++) {
		g_assert(io->in_flight > 0);
		io->in_flight--;
		if (done[i]->t_done == 0)
			done[i]->t_done = sdt_bench_io_now();
	}
	return n;
}

void
sdt_bench_io_backend_stop(SdtBenchIo *io)
{
#if HAVE_LIBURING
	if (io->ring_ok)
		io_uring_queue_exit(&io->ring);
	io->ring_ok = FALSE;
#endif
	if (io->wake_cancellable != NULL) {
		/* the ring, gone now, held the poll on its fd */
		g_cancellable_release_fd(io->wake_cancellable);
		g_clear_object(&io->wake_cancellable);
	}
	for (guint i = 0; i < io->n_workers; i++)
		g_async_queue_push(io->requests, &io->quit_slot);
	for (guint i = 0; i < io->n_workers; i++)
		g_thread_join(io->workers[i]);
	io->n_workers = 0;
	g_clear_pointer(&io->workers, g_free);
	g_clear_pointer(&io->worker_tids, g_free);
	g_clear_pointer(&io->requests, g_async_queue_unref);
	g_clear_pointer(&io->completions, g_async_queue_unref);
}

static void
sdt_bench_io_wake_cb(GCancellable *cancellable, gpointer user_data)
{
	SdtBenchIo *io = user_data;
	g_async_queue_push(io->completions, &io->wake_slot);
}

gint64
sdt_bench_io_backend_arm_wake(SdtBenchIo *io, GCancellable *cancellable, gulong *handler)
{
	*handler = 0;
	if (cancellable == NULL)
		return -1;
	switch (io->backend) {
	case SDT_BENCH_IO_BACKEND_SYNC:
		return -1; /* never waits but in the one request it makes */
	case SDT_BENCH_IO_BACKEND_THREADS:
		/* the handler queues a wake-up where the loop waits for completions */
		*handler = g_cancellable_connect(cancellable,
						 G_CALLBACK(sdt_bench_io_wake_cb),
						 io,
						 NULL);
		return -1;
#if HAVE_LIBURING
	case SDT_BENCH_IO_BACKEND_URING: {
		struct io_uring_sqe *sqe;
		gint fd;

		if (io->wake_armed && io->wake_cancellable == cancellable)
			return -1;
		if (io->wake_cancellable != NULL)
			return SDT_BENCH_IO_WAIT_NS; /* armed for another cancellable */
		fd = g_cancellable_get_fd(cancellable);
		if (fd < 0)
			return SDT_BENCH_IO_WAIT_NS;
		/* the cancellable's fd becomes readable when it fires: a completion */
		io->wake_cancellable = g_object_ref(cancellable);
		sqe = io_uring_get_sqe(&io->ring);
		g_assert(sqe != NULL);
		io_uring_prep_poll_add(sqe, fd, POLLIN);
		io_uring_sqe_set_data(sqe, &io->wake_slot);
		io->wake_armed = TRUE;
		sdt_bench_io_backend_flush(io);
		return -1;
	}
#endif
	default:
		return SDT_BENCH_IO_WAIT_NS;
	}
}
