/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT, O_TMPFILE, statx, fallocate */

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if HAVE_LIBURING
#include <liburing.h>
#endif

#include "sdt-bench-io.h"
#include "sdt-error.h"

/*
 * How long the run loop blocks before it looks at the cancellable again, where
 * a cancellation cannot wake it (a cancellable without a file descriptor).
 * Otherwise it blocks until a request completes or the cancellable fires: on
 * a slow card, waiting costs nothing.
 */
#define SDT_BENCH_IO_WAIT_NS         (50 * G_GINT64_CONSTANT(1000000))
#define SDT_BENCH_IO_PROGRESS_NS     (100 * G_GINT64_CONSTANT(1000000))
#define SDT_BENCH_IO_SLICE_NS        (250 * G_GINT64_CONSTANT(1000000))
#define SDT_BENCH_IO_DRAIN_NS        (100 * G_GINT64_CONSTANT(1000000))
#define SDT_BENCH_IO_BUFFER_ALIGN    4096
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

/* random numbers */

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
sdt_bench_mul_high_portable(guint64 a, guint64 b)
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
sdt_bench_mul_high(guint64 a, guint64 b)
{
#ifdef __SIZEOF_INT128__
	return (guint64) (((unsigned __int128) a * b) >> 64);
#else
	/* 32-bit targets (armhf, i386) have no 128-bit integer */
	return sdt_bench_mul_high_portable(a, b);
#endif
}

guint64
sdt_bench_rng_below(SdtBenchRng *rng, guint64 n)
{
	/* Lemire's multiply-shift: no division, bias below 2^-64 * n */
	return sdt_bench_mul_high(sdt_bench_rng_next(rng), n);
}

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

void
sdt_bench_rng_fill(SdtBenchRng *rng, gpointer buf, gsize len)
{
	guint8 *p = buf;
	gsize n = len / 8;
	gsize i = 0;

	/*
	 * A write's data is generated per request (fio's refill_buffers), so this
	 * is per-I/O cost: four generators, two per 128-bit vector register (SSE2,
	 * NEON; plain 64-bit arithmetic where there is none), seeded from this one
	 * for every call.  About 4 instructions per 8 bytes on x86-64, where the
	 * single generator took 13 and fio's fill 8.
	 */
	if (n >= 16) {
		SdtBenchRngPair a;
		SdtBenchRngPair b;
		guint64 seed = sdt_bench_rng_next(rng);

		sdt_bench_rng_pair_init(&a, &seed);
		sdt_bench_rng_pair_init(&b, &seed);
		for (; i + 4 <= n; i += 4) {
			SdtBenchRngV2 ra = sdt_bench_rng_pair_next(&a);
			SdtBenchRngV2 rb = sdt_bench_rng_pair_next(&b);
			memcpy(p + i * 8, &ra, sizeof(ra));
			memcpy(p + i * 8 + 16, &rb, sizeof(rb));
		}
	}
	for (; i < n; i++) {
		guint64 v = sdt_bench_rng_next(rng);
		memcpy(p + i * 8, &v, sizeof(v));
	}
}

/* latency histogram */

void
sdt_bench_latency_reset(SdtBenchLatency *lat)
{
	memset(lat, 0, sizeof(*lat));
}

static guint
sdt_bench_latency_bucket(guint64 ns)
{
	guint msb;
	guint idx;

	if (ns < SDT_BENCH_LATENCY_SUB)
		return (guint) ns;
	msb = 63 - (guint) __builtin_clzll(ns);
	/* msb >= 5: 32 sub-buckets between 2^msb and 2^(msb+1) */
	idx = (msb - 4) * SDT_BENCH_LATENCY_SUB + (guint) ((ns >> (msb - 5)) & 31);
	return MIN(idx, SDT_BENCH_LATENCY_BUCKETS - 1);
}

/* the middle of a bucket */
static guint64
sdt_bench_latency_bucket_value(guint idx)
{
	guint msb;
	guint64 lo;
	guint64 width;

	if (idx < SDT_BENCH_LATENCY_SUB)
		return idx;
	msb = idx / SDT_BENCH_LATENCY_SUB + 4;
	width = G_GUINT64_CONSTANT(1) << (msb - 5);
	lo = (G_GUINT64_CONSTANT(1) << msb) + (idx % SDT_BENCH_LATENCY_SUB) * width;
	return lo + width / 2;
}

void
sdt_bench_latency_add(SdtBenchLatency *lat, guint64 ns)
{
	if (lat->count == 0 || ns < lat->min_ns)
		lat->min_ns = ns;
	if (ns > lat->max_ns)
		lat->max_ns = ns;
	lat->count++;
	lat->sum_ns += ns;
	lat->buckets[sdt_bench_latency_bucket(ns)]++;
}

guint64
sdt_bench_latency_percentile(const SdtBenchLatency *lat, gdouble p)
{
	guint64 rank;
	guint64 seen = 0;

	if (lat->count == 0)
		return 0;
	if (p >= 100.0)
		return lat->max_ns;
	/* the smallest value with at least p% of the samples at or below it */
	rank = (guint64) (p / 100.0 * (gdouble) lat->count + 0.999999);
	rank = CLAMP(rank, 1, lat->count);
	for (guint i = 0; i < SDT_BENCH_LATENCY_BUCKETS; i++) {
		seen += lat->buckets[i];
		if (seen >= rank)
			return CLAMP(sdt_bench_latency_bucket_value(i), lat->min_ns, lat->max_ns);
	}
	return lat->max_ns;
}

/* backends */

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

static gboolean
sdt_bench_io_start_threads(SdtBenchIo *io, GError **error)
{
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
			g_prefix_error(error, "cannot start I/O worker thread: ");
			return FALSE;
		}
		io->n_workers++;
	}
	return TRUE;
}

#if HAVE_LIBURING
static gboolean
sdt_bench_io_start_uring(SdtBenchIo *io, GError **error)
{
	/* room for every slot plus the fsync and the cancellation's poll */
	gint rc = io_uring_queue_init(io->n_slots + 4, &io->ring, 0);
	if (rc < 0) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    "io_uring is not available: %s",
			    g_strerror(-rc));
		return FALSE;
	}
	io->ring_ok = TRUE;
	return TRUE;
}
#endif

SdtBenchIo *
sdt_bench_io_new(SdtBenchIoBackend backend, guint depth, gint fd, gsize block_size, GError **error)
{
	SdtBenchIo *io;

	g_return_val_if_fail(depth > 0 && depth <= 256, NULL);
	g_return_val_if_fail(block_size > 0 && block_size % 8 == 0, NULL);
	g_return_val_if_fail(backend != SDT_BENCH_IO_BACKEND_SYNC || depth == 1, NULL);

	io = g_new0(SdtBenchIo, 1);
	io->depth = depth;
	io->block_size = block_size;
	io->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (io->fd < 0) {
		sdt_error_set_from_errno(error, errno, "cannot duplicate the file descriptor");
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
		gint rc = posix_memalign(&io->slots[i].buf, SDT_BENCH_IO_BUFFER_ALIGN, block_size);
		if (rc != 0) {
			sdt_error_set_from_errno(error, rc, "cannot allocate I/O buffers");
			sdt_bench_io_free(io);
			return NULL;
		}
		memset(io->slots[i].buf, 0, block_size);
	}
	io->fsync_slot.op = SDT_BENCH_IO_OP_FSYNC;
	io->quit_slot.op = SDT_BENCH_IO_OP_QUIT;
	io->wake_slot.op = SDT_BENCH_IO_OP_QUIT;

	if (backend == SDT_BENCH_IO_BACKEND_AUTO || backend == SDT_BENCH_IO_BACKEND_URING) {
#if HAVE_LIBURING
		g_autoptr(GError) error_local = NULL;
		if (sdt_bench_io_start_uring(io, &error_local)) {
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
					    "built without liburing");
			sdt_bench_io_free(io);
			return NULL;
		}
#endif
		backend = SDT_BENCH_IO_BACKEND_THREADS;
	}
	io->backend = backend;
	if (backend == SDT_BENCH_IO_BACKEND_THREADS && !sdt_bench_io_start_threads(io, error)) {
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
sdt_bench_io_get_depth(SdtBenchIo *io)
{
	return io->depth;
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
sdt_bench_io_submit(SdtBenchIo *io, SdtBenchIoSlot *slot)
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
		if (slot->op == SDT_BENCH_IO_OP_READ)
			io_uring_prep_read(sqe, io->fd, slot->buf, io->block_size, slot->offset);
		else if (slot->op == SDT_BENCH_IO_OP_WRITE)
			io_uring_prep_write(sqe, io->fd, slot->buf, io->block_size, slot->offset);
		else
			io_uring_prep_fsync(sqe, io->fd, 0);
		io_uring_sqe_set_data(sqe, slot);
		slot->t_submit = sdt_bench_io_now();
		break;
	}
#endif
	default:
		g_assert_not_reached();
	}
}

static void
sdt_bench_io_flush(SdtBenchIo *io)
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

/* reaps up to @max completions, blocking up to @timeout_ns (-1: forever) for the first */
static guint
sdt_bench_io_reap(SdtBenchIo *io, gint64 timeout_ns, SdtBenchIoSlot **done, guint max)
{
	guint n = 0;

	switch (io->backend) {
	case SDT_BENCH_IO_BACKEND_SYNC:
		if (io->sync_done != NULL) {
			done[n++] = io->sync_done;
			io->sync_done = NULL;
		}
		break;
	case SDT_BENCH_IO_BACKEND_THREADS: {
		SdtBenchIoSlot *slot;
		if (timeout_ns < 0)
			slot = g_async_queue_pop(io->completions);
		else
			slot = g_async_queue_timeout_pop(io->completions,
							 (guint64) timeout_ns / 1000);
		while (slot != NULL) {
			if (slot != &io->wake_slot)
				done[n++] = slot;
			if (n == max)
				break;
			slot = g_async_queue_try_pop(io->completions);
		}
		break;
	}
#if HAVE_LIBURING
	case SDT_BENCH_IO_BACKEND_URING: {
		struct io_uring_cqe *cqe = NULL;
		unsigned head;
		guint seen = 0;
		gint rc;
		gint64 now;

		if (timeout_ns < 0) {
			/* what the loop queued goes in with the wait: one system call */
			rc = 0;
			if (io_uring_sq_ready(&io->ring) > 0) {
				do {
					rc = io_uring_submit_and_wait(&io->ring, 1);
				} while (rc == -EINTR || rc == -EAGAIN);
				g_assert(rc >= 0);
			}
			rc = io_uring_wait_cqe(&io->ring, &cqe);
		} else {
			sdt_bench_io_flush(io);
			struct __kernel_timespec ts = {
				.tv_sec = timeout_ns / G_GINT64_CONSTANT(1000000000),
				.tv_nsec = timeout_ns % G_GINT64_CONSTANT(1000000000),
			};
			rc = io_uring_wait_cqe_timeout(&io->ring, &cqe, &ts);
		}
		if (rc < 0)
			break;
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
		break;
	}
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

static void
sdt_bench_io_free_now(SdtBenchIo *io)
{
#if HAVE_LIBURING
	if (io->ring_ok)
		io_uring_queue_exit(&io->ring);
#endif
	if (io->wake_cancellable != NULL) {
		/* the ring, gone now, held the poll on its fd */
		g_cancellable_release_fd(io->wake_cancellable);
		g_object_unref(io->wake_cancellable);
	}
	for (guint i = 0; i < io->n_workers; i++)
		g_async_queue_push(io->requests, &io->quit_slot);
	for (guint i = 0; i < io->n_workers; i++)
		g_thread_join(io->workers[i]);
	g_free(io->workers);
	g_free(io->worker_tids);
	g_clear_pointer(&io->requests, g_async_queue_unref);
	g_clear_pointer(&io->completions, g_async_queue_unref);
	for (guint i = 0; io->slots != NULL && i < io->n_slots; i++)
		free(io->slots[i].buf);
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
		sdt_bench_io_reap(io, -1, done, G_N_ELEMENTS(done));
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

static gboolean
sdt_bench_io_check_result(SdtBenchIo *io, SdtBenchIoSlot *slot, GError **error)
{
	const gchar *what = slot->op == SDT_BENCH_IO_OP_READ ? "read" : "write";

	if (slot->op == SDT_BENCH_IO_OP_FSYNC) {
		if (slot->res < 0)
			return sdt_error_set_from_errno(error, (gint) -slot->res, "fsync failed");
		return TRUE;
	}
	if (io->inject && io->completed == io->inject_after)
		slot->res = -io->inject_errsv;
	io->completed++;
	if (slot->res < 0) {
		return sdt_error_set_from_errno(error,
						(gint) -slot->res,
						"%s of %" G_GSIZE_FORMAT
						" bytes at offset %" G_GUINT64_FORMAT " failed",
						what,
						io->block_size,
						slot->offset);
	}
	if ((gsize) slot->res != io->block_size) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_IO,
			    "short %s: %" G_GSSIZE_FORMAT " of %" G_GSIZE_FORMAT
			    " bytes at offset %" G_GUINT64_FORMAT,
			    what,
			    slot->res,
			    io->block_size,
			    slot->offset);
		return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_bench_io_check_cancelled(const SdtBenchIoJob *job, GError **error)
{
	if (job->cancellable != NULL && g_cancellable_is_cancelled(job->cancellable)) {
		g_set_error_literal(error, SDT_ERROR, SDT_ERROR_CANCELLED, "benchmark cancelled");
		return TRUE;
	}
	return FALSE;
}

static void
sdt_bench_io_wake_cb(GCancellable *cancellable, gpointer user_data)
{
	SdtBenchIo *io = user_data;
	g_async_queue_push(io->completions, &io->wake_slot);
}

/*
 * Lets a cancellation of @cancellable wake a blocked wait.  Returns the wait
 * timeout to use: -1 (block until a completion or the cancellation) where it
 * can, else SDT_BENCH_IO_WAIT_NS.  *@handler is a signal handler to disconnect.
 */
static gint64
sdt_bench_io_arm_wake(SdtBenchIo *io, GCancellable *cancellable, gulong *handler)
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
		sdt_bench_io_flush(io);
		return -1;
	}
#endif
	default:
		return SDT_BENCH_IO_WAIT_NS;
	}
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

	sdt_bench_io_submit(io, &io->fsync_slot);
	sdt_bench_io_flush(io);
	while (io->in_flight > 0) {
		if (sdt_bench_io_reap(io, wait_ns, done, 1) == 1)
			break;
		if (sdt_bench_io_check_cancelled(job, error))
			return FALSE;
	}
	stats->fsync_ns = (guint64) (sdt_bench_io_now() - t0);
	io->fsync_slot.state = SDT_BENCH_IO_SLOT_FREE;
	return sdt_bench_io_check_result(io, &io->fsync_slot, error);
}

/*
 * CPU time, as the threads doing the I/O see it: the thread running the loop,
 * the backend's worker threads, and io_uring's io-wq workers, which the kernel
 * creates inside this process for requests it cannot issue without blocking
 * (an ext4 write into unwritten extents, for one) and names "iou-wrk-<tid of
 * the submitter>".  Each thread's own CPU clock (ns, user + system) is read at
 * the start and the end of the run.  A thread of the set that exits during
 * the run (an io-wq worker does after idling a while) is gone at the end, but
 * its time stays in the process's clock: the part of the process's time no
 * live thread accounts for grows by what exited threads ran during the run,
 * and that growth is counted when one of ours exited.  Nothing else of the process (a main loop,
 * the helper's D-Bus thread, a progress display) is counted: fio's per-job figure does not count
 * its main process either.
 */
typedef struct {
	gint tid;
	guint64 ns;
} SdtBenchIoThreadTime;

typedef struct {
	GArray *io_threads;     /* of SdtBenchIoThreadTime */
	guint64 unaccounted_ns; /* process CPU not in any live thread's clock */
} SdtBenchIoCpuSnapshot;

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

static void
sdt_bench_io_cpu_snapshot(SdtBenchIo *io, SdtBenchIoCpuSnapshot *snap)
{
	gint self_tid = (gint) syscall(SYS_gettid);
	guint64 process_ns = sdt_bench_io_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	guint64 live_ns = 0;
	DIR *dir = opendir("/proc/self/task");
	struct dirent *ent;

	snap->io_threads = g_array_new(FALSE, FALSE, sizeof(SdtBenchIoThreadTime));
	snap->unaccounted_ns = 0;
	if (dir == NULL) {
		/* no /proc: this thread alone */
		SdtBenchIoThreadTime t = {self_tid, sdt_bench_io_clock_ns(CLOCK_THREAD_CPUTIME_ID)};
		g_array_append_val(snap->io_threads, t);
		return;
	}
	while ((ent = readdir(dir)) != NULL) {
		gchar path[64];
		gint tid;
		guint64 ns;
		gint fd;

		if (ent->d_name[0] < '0' || ent->d_name[0] > '9')
			continue;
		tid = atoi(ent->d_name);
		ns = sdt_bench_io_clock_ns(sdt_bench_io_thread_clock(tid));
		if (ns == G_MAXUINT64)
			continue; /* exited meanwhile */
		live_ns += ns;
		g_snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (sdt_bench_io_is_io_thread(io, tid, self_tid, fd)) {
			SdtBenchIoThreadTime t = {tid, ns};
			g_array_append_val(snap->io_threads, t);
		}
		if (fd >= 0)
			close(fd);
	}
	closedir(dir);
	snap->unaccounted_ns = process_ns > live_ns ? process_ns - live_ns : 0;
}

/* CPU time of the I/O threads between @start and @end; frees both */
static guint64
sdt_bench_io_cpu_between(SdtBenchIoCpuSnapshot *start, SdtBenchIoCpuSnapshot *end)
{
	guint64 total = 0;
	gboolean exited = FALSE;

	for (guint j = 0; j < start->io_threads->len; j++) {
		gint tid = g_array_index(start->io_threads, SdtBenchIoThreadTime, j).tid;
		gboolean alive = FALSE;
		for (guint i = 0; i < end->io_threads->len && !alive; i++)
			alive = g_array_index(end->io_threads, SdtBenchIoThreadTime, i).tid == tid;
		exited |= !alive;
	}
	for (guint i = 0; i < end->io_threads->len; i++) {
		SdtBenchIoThreadTime *e = &g_array_index(end->io_threads, SdtBenchIoThreadTime, i);
		guint64 before = 0;
		for (guint j = 0; j < start->io_threads->len; j++) {
			SdtBenchIoThreadTime *s =
				&g_array_index(start->io_threads, SdtBenchIoThreadTime, j);
			if (s->tid == e->tid) {
				before = s->ns;
				break;
			}
		}
		if (e->ns > before)
			total += e->ns - before;
	}
	/*
	 * what threads that exited during the run used, only when one of ours did
	 * (the difference also carries the few microseconds other threads run
	 * while the snapshots are read)
	 */
	if (exited && end->unaccounted_ns > start->unaccounted_ns)
		total += end->unaccounted_ns - start->unaccounted_ns;
	g_array_unref(start->io_threads);
	g_array_unref(end->io_threads);
	return total;
}

/* Student's t, two-sided 95%, by degrees of freedom */
static gdouble
sdt_bench_io_t95(guint df)
{
	static const gdouble t[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447,
				    2.365, 2.306,  2.262, 2.228, 2.201, 2.179, 2.160,
				    2.145, 2.131,  2.120, 2.110, 2.101, 2.093, 2.086};
	if (df < G_N_ELEMENTS(t))
		return t[df];
	return df < 30 ? 2.06 : df < 60 ? 2.02 : 1.98;
}

/*
 * How well the rate is known: completed bytes against time, sampled at the
 * first completion and then at the completion ending each slice of at least
 * SDT_BENCH_IO_SLICE_NS; the rate is the slope of the least-squares line
 * through these points, and its 95% confidence interval comes from the
 * points' scatter around the line.  (The mean of the slices' own rates would
 * do on a device with independent slices; a throttle or a card's controller
 * making up for a slow slice with a fast one makes the slices' rates scatter
 * far more than the rate over the whole run does.)
 */
typedef struct {
	gint64 t0;                     /* the first completion; 0: none yet */
	gint64 t;                      /* the last point */
	guint64 b;                     /* bytes at the last point */
	guint64 slice_bytes;           /* a slice also ends after this many bytes (0: never) */
	guint n;                       /* points */
	gdouble st, sb, stt, stb, sbb; /* sums of t, b (s, MiB), t², t·b, b² */
} SdtBenchIoSlices;

static void
sdt_bench_io_slices_add(SdtBenchIoSlices *sl, gint64 t, guint64 bytes)
{
	gdouble x;
	gdouble y;

	if (sl->n == 0) {
		sl->t0 = t;
	} else if (t - sl->t < SDT_BENCH_IO_SLICE_NS &&
		   (sl->slice_bytes == 0 || bytes - sl->b < sl->slice_bytes)) {
		return;
	}
	sl->t = t;
	sl->b = bytes;
	x = (gdouble) (t - sl->t0) / 1e9;
	y = (gdouble) bytes / (1024.0 * 1024.0);
	sl->n++;
	sl->st += x;
	sl->sb += y;
	sl->stt += x * x;
	sl->stb += x * y;
	sl->sbb += y * y;
}

/* the 95% confidence interval's half-width relative to the rate, in percent; -1: unknown */
static gdouble
sdt_bench_io_slices_ci(const SdtBenchIoSlices *sl)
{
	gdouble n = sl->n;
	gdouble sxx;
	gdouble sxy;
	gdouble syy;
	gdouble slope;
	gdouble sse;

	if (sl->n < 3)
		return -1;
	sxx = sl->stt - sl->st * sl->st / n;
	sxy = sl->stb - sl->st * sl->sb / n;
	syy = sl->sbb - sl->sb * sl->sb / n;
	if (sxx <= 0 || sxy <= 0)
		return -1;
	slope = sxy / sxx;
	sse = MAX(syy - slope * sxy, 0.0);
	return sdt_bench_io_t95(sl->n - 2) * sqrt(sse / (n - 2) / sxx) / slope * 100;
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
		n = sdt_bench_io_reap(io, left, done, G_N_ELEMENTS(done));
		for (guint i = 0; i < n; i++)
			done[i]->state = SDT_BENCH_IO_SLOT_FREE;
	}
}

static gboolean
sdt_bench_io_run_loop(SdtBenchIo *io,
		      const SdtBenchIoJob *job,
		      SdtBenchIoStats *stats,
		      GError **error)
{
	SdtBenchIoSlot *done[SDT_BENCH_IO_MAX_COMPLETIONS];
	SdtBenchRng rng_offset;
	SdtBenchRng rng_data;
	SdtBenchIoSlices slices = {0};
	g_autoptr(GError) error_io = NULL;
	gboolean is_write = job->dir == SDT_BENCH_IO_WRITE;
	SdtBenchIoOp op = is_write ? SDT_BENCH_IO_OP_WRITE : SDT_BENCH_IO_OP_READ;
	guint64 nblocks;
	guint64 limit;
	guint64 submitted = 0;
	guint64 next_offset = job->offset;
	guint64 progress_bytes = 0;
	gboolean stop = FALSE;
	gint64 t0;
	gint64 t_first = 0;
	gint64 t_end;
	gint64 deadline = G_MAXINT64;
	gint64 min_end = 0;
	gint64 last_progress;
	gint64 wait_ns;
	gulong wake_handler;
	gboolean ok = FALSE;

	nblocks = job->length / job->block_size;
	limit = job->max_bytes;
	if (!job->random && (limit == 0 || limit > nblocks * job->block_size))
		limit = nblocks * job->block_size;
	if (limit == 0)
		limit = G_MAXUINT64;
	sdt_bench_rng_init(&rng_offset, job->seed);
	sdt_bench_rng_init(&rng_data, job->seed ^ G_GUINT64_CONSTANT(0x5344547544415441));
	for (guint i = 0; i < io->n_slots; i++)
		io->slots[i].state = SDT_BENCH_IO_SLOT_FREE;
	/* a sequential test over in less than 2 s still gets 8 slices */
	if (limit != G_MAXUINT64)
		slices.slice_bytes = MAX(limit / 8, (guint64) job->block_size);

	if (sdt_bench_io_check_cancelled(job, error))
		return FALSE;
	wait_ns = sdt_bench_io_arm_wake(io, job->cancellable, &wake_handler);
	t0 = last_progress = sdt_bench_io_now();
	if (job->max_seconds > 0)
		deadline = t0 + (gint64) (job->max_seconds * 1e9);
	min_end = t0 + (gint64) (job->min_seconds * 1e9);

	for (;;) {
		guint n;
		gint64 now;

		while (!stop && io->in_flight < io->depth) {
			SdtBenchIoSlot *slot = sdt_bench_io_take_slot(io, SDT_BENCH_IO_SLOT_READY);
			if (slot == NULL) {
				slot = sdt_bench_io_take_slot(io, SDT_BENCH_IO_SLOT_FREE);
				if (is_write)
					sdt_bench_rng_fill(&rng_data, slot->buf, io->block_size);
			}
			slot->op = op;
			if (job->random) {
				slot->offset =
					job->offset +
					sdt_bench_rng_below(&rng_offset, nblocks) * job->block_size;
			} else {
				slot->offset = next_offset;
				next_offset += job->block_size;
			}
			sdt_bench_io_submit(io, slot);
			submitted += job->block_size;
			if (submitted >= limit)
				stop = TRUE;
		}
		/* fresh data for the next write while the card works on this one */
		if (is_write && !stop && io->backend != SDT_BENCH_IO_BACKEND_SYNC) {
			SdtBenchIoSlot *slot = sdt_bench_io_take_slot(io, SDT_BENCH_IO_SLOT_FREE);
			sdt_bench_io_flush(io);
			if (slot != NULL) {
				sdt_bench_rng_fill(&rng_data, slot->buf, io->block_size);
				slot->state = SDT_BENCH_IO_SLOT_READY;
			}
		}
		if (io->in_flight == 0)
			break;

		n = sdt_bench_io_reap(io, wait_ns, done, G_N_ELEMENTS(done));
		for (guint i = 0; i < n; i++) {
			SdtBenchIoSlot *slot = done[i];
			slot->state = SDT_BENCH_IO_SLOT_FREE;
			sdt_bench_latency_add(&stats->latency,
					      (guint64) (slot->t_done - slot->t_submit));
			if (error_io != NULL)
				continue;
			if (!sdt_bench_io_check_result(io, slot, &error_io)) {
				stop = TRUE;
				continue;
			}
			stats->ios++;
			stats->bytes += io->block_size;
			if (stats->ios == 1)
				t_first = slot->t_done;
		}
		if (sdt_bench_io_check_cancelled(job, error)) {
			sdt_bench_io_drain(io, SDT_BENCH_IO_DRAIN_NS);
			goto out;
		}
		if (n == 0)
			continue; /* woken without a completion */
		now = done[n - 1]->t_done;
		stats->seconds = (gdouble) (now - t0) / 1e9;
		if (now >= deadline)
			stop = TRUE;
		if (error_io == NULL) {
			sdt_bench_io_slices_add(&slices, now, stats->bytes);
			/* known within ±target: enough for the verdict */
			if (job->target_ci_percent > 0 && now >= min_end && slices.n >= 4) {
				gdouble ci = sdt_bench_io_slices_ci(&slices);
				if (ci >= 0 && ci <= job->target_ci_percent)
					stop = TRUE;
			}
		}
		/* only when something completed: a live rate of what completed */
		if (job->progress != NULL && stats->bytes > progress_bytes &&
		    (progress_bytes == 0 || now - last_progress >= SDT_BENCH_IO_PROGRESS_NS)) {
			last_progress = now;
			progress_bytes = stats->bytes;
			job->progress(stats->bytes, stats->seconds, job->user_data);
		}
	}
	if (error_io != NULL) {
		g_propagate_error(error, g_steal_pointer(&error_io));
		goto out;
	}
	if (job->fsync_end && !sdt_bench_io_fsync(io, job, wait_ns, stats, error))
		goto out;
	t_end = sdt_bench_io_now();
	stats->seconds = (gdouble) (t_end - t0) / 1e9;
	stats->steady_seconds = stats->seconds;
	stats->steady_bytes = stats->bytes;
	if (stats->ios >= 2 && t_end > t_first) {
		stats->steady_seconds = (gdouble) (t_end - t_first) / 1e9;
		stats->steady_bytes = stats->bytes - io->block_size;
	}
	if (job->progress != NULL)
		job->progress(stats->bytes, stats->seconds, job->user_data);
	ok = TRUE;
out:
	stats->slices = slices.n > 0 ? slices.n - 1 : 0;
	stats->ci_percent = sdt_bench_io_slices_ci(&slices);
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
