/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT */

#include "config.h"

#include <inttypes.h>
#include <math.h>

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-soak.h"
#include "sdt-soak-private.h"

#define SDT_SOAK_ALIGN  4096
#define SDT_SOAK_GOLDEN G_GUINT64_CONSTANT(0x9e3779b97f4a7c15)

/* splitmix64's output function: word i of a round is mix(key + i * golden) */
static inline guint64
sdt_soak_mix(guint64 z)
{
	z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static inline guint64
sdt_soak_key(guint64 seed, guint round)
{
	return sdt_soak_mix(seed + SDT_SOAK_GOLDEN * (G_GUINT64_CONSTANT(1) + round));
}

void
sdt_soak_fill(guint8 *buf, gsize len, guint64 seed, guint round, guint64 offset)
{
	guint64 key = sdt_soak_key(seed, round);
	guint64 i = offset / 8;

	for (gsize pos = 0; pos + 8 <= len; pos += 8, i++) {
		guint64 w = GUINT64_TO_LE(sdt_soak_mix(key + i * SDT_SOAK_GOLDEN));
		memcpy(buf + pos, &w, 8);
	}
}

guint8
sdt_soak_expected_byte(guint64 seed, guint round, guint64 offset)
{
	guint8 word[8];
	sdt_soak_fill(word, 8, seed, round, offset - offset % 8);
	return word[offset % 8];
}

typedef struct {
	gint fd;
	guint64 seed;
	guint round;
	guint64 base;         /* offset of block 0 */
	const guint32 *order; /* block indices of the queued part, shuffled */
	guint n_blocks;
	GCancellable *cancellable;
	gint next; /* atomic */
	gint stop; /* atomic: an error or cancellation */
	GMutex lock;
	gint error_errno;
	guint64 error_offset;
	guint64 written; /* under lock */
} SdtSoakQueue;

static void
sdt_soak_queue_fail(SdtSoakQueue *q, gint errsv, guint64 offset)
{
	g_mutex_lock(&q->lock);
	if (q->error_errno == 0) {
		q->error_errno = errsv;
		q->error_offset = offset;
	}
	g_mutex_unlock(&q->lock);
	g_atomic_int_set(&q->stop, 1);
}

static gpointer
sdt_soak_queue_worker(gpointer data)
{
	SdtSoakQueue *q = data;
	guint8 *buf = NULL;

	if (posix_memalign((void **) &buf, SDT_SOAK_ALIGN, SDT_SOAK_QD_BLOCK) != 0) {
		sdt_soak_queue_fail(q, ENOMEM, 0);
		return NULL;
	}
	for (;;) {
		gint idx;
		guint64 off;
		gsize done = 0;
		gint rc;
		if (g_atomic_int_get(&q->stop))
			break;
		if (g_cancellable_is_cancelled(q->cancellable)) {
			g_atomic_int_set(&q->stop, 1);
			break;
		}
		idx = g_atomic_int_add(&q->next, 1);
		if (idx >= (gint) q->n_blocks)
			break;
		off = q->base + (guint64) q->order[idx] * SDT_SOAK_QD_BLOCK;
		sdt_soak_fill(buf, SDT_SOAK_QD_BLOCK, q->seed, q->round, off);
		rc = sdt_file_pwrite_all(q->fd, buf, SDT_SOAK_QD_BLOCK, off, &done);
		g_mutex_lock(&q->lock);
		q->written += (guint64) done;
		g_mutex_unlock(&q->lock);
		if (rc != 0) {
			sdt_soak_queue_fail(q, rc, off + done);
			break;
		}
	}
	free(buf);
	return NULL;
}

static gboolean
sdt_soak_io_error(GError **error, gint errsv, gboolean reading, guint64 offset)
{
	if (reading)
		/* Translators: an offset in bytes, then the system's message */
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_IO,
			    _("The soak test's read at byte offset %" PRIu64 " failed: %s"),
			    (uint64_t) offset,
			    g_strerror(errsv));
	else
		/* Translators: an offset in bytes, then the system's message */
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_IO,
			    _("The soak test's write at byte offset %" PRIu64 " failed: %s"),
			    (uint64_t) offset,
			    g_strerror(errsv));
	return FALSE;
}

static gboolean
sdt_soak_cancelled(GCancellable *cancellable, GError **error)
{
	if (!g_cancellable_is_cancelled(cancellable))
		return FALSE;
	g_set_error_literal(error,
			    SDT_ERROR,
			    SDT_ERROR_CANCELLED,
			    _("The soak test was cancelled"));
	return TRUE;
}

/*
 * The run is a pipeline of chunks: while one chunk is written (and fsynced,
 * and dropped from the cache), the chunk written before it is read back and
 * checked in another thread, so the card reads and writes at once.  Every
 * chunk is written, then checked, in file order, round after round.
 */
typedef struct {
	guint round;
	guint64 off;
	guint64 len;
} SdtSoakChunk;

/* a chunk's size: about an eighth of the file, from 1 MiB to 16 MiB */
#define SDT_SOAK_CHUNK_MAX (16 * SDT_SOAK_SEQ_BLOCK)

static guint64
sdt_soak_chunk_size(guint64 size)
{
	guint64 chunk = size / 8 / SDT_SOAK_SEQ_BLOCK * SDT_SOAK_SEQ_BLOCK;
	return CLAMP(chunk, SDT_SOAK_SEQ_BLOCK, SDT_SOAK_CHUNK_MAX);
}

/* [@off, @off + @len) of the first half: 64 KiB blocks at queue depth 32, shuffled */
static gboolean
sdt_soak_write_queued(gint fd,
		      const SdtSoakConfig *config,
		      guint round,
		      guint64 off,
		      guint64 len,
		      SdtSoakResult *result,
		      GCancellable *cancellable,
		      GError **error)
{
	g_autofree guint32 *order = NULL;
	g_autoptr(GRand) rand = g_rand_new_with_seed(
		(guint32) (config->seed ^ (round * 7919u) ^ (off / SDT_SOAK_SEQ_BLOCK * 104729u)));
	GThread *threads[SDT_SOAK_QUEUE_DEPTH];
	SdtSoakQueue q = {0};

	q.fd = fd;
	q.seed = config->seed;
	q.round = round;
	q.base = off;
	q.cancellable = cancellable;
	q.n_blocks = (guint) (len / SDT_SOAK_QD_BLOCK);
	order = g_new(guint32, q.n_blocks > 0 ? q.n_blocks : 1);
	for (guint i = 0; i < q.n_blocks; i++)
		order[i] = i;
	for (guint i = q.n_blocks; i > 1; i--) {
		guint j = (guint) g_rand_int_range(rand, 0, (gint32) i);
		guint32 t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	q.order = order;
	g_mutex_init(&q.lock);
	for (guint i = 0; i < SDT_SOAK_QUEUE_DEPTH; i++)
		threads[i] = g_thread_new("sdt-soak", sdt_soak_queue_worker, &q);
	for (guint i = 0; i < SDT_SOAK_QUEUE_DEPTH; i++)
		g_thread_join(threads[i]);
	g_mutex_clear(&q.lock);
	result->bytes_written += q.written;
	if (q.error_errno != 0)
		return sdt_soak_io_error(error, q.error_errno, FALSE, q.error_offset);
	return !sdt_soak_cancelled(cancellable, error);
}

/* [@off, @off + @len) of the second half: 1 MiB blocks in order */
static gboolean
sdt_soak_write_sequential(gint fd,
			  const SdtSoakConfig *config,
			  guint round,
			  guint64 off,
			  guint64 len,
			  guint8 *buf,
			  SdtSoakResult *result,
			  GCancellable *cancellable,
			  GError **error)
{
	for (guint64 end = off + len; off < end; off += SDT_SOAK_SEQ_BLOCK) {
		gsize done = 0;
		gint rc;
		if (sdt_soak_cancelled(cancellable, error))
			return FALSE;
		sdt_soak_fill(buf, SDT_SOAK_SEQ_BLOCK, config->seed, round, off);
		rc = sdt_file_pwrite_all(fd, buf, SDT_SOAK_SEQ_BLOCK, off, &done);
		if (rc != 0)
			return sdt_soak_io_error(error, rc, FALSE, off + done);
		result->bytes_written += done;
	}
	return TRUE;
}

/*
 * A chunk's writes (the part in the first half of the file at queue depth 32
 * in a shuffled order, the rest sequentially), then on the card, not in a
 * cache: fdatasync, and drop whatever the page cache holds of it.
 */
static gboolean
sdt_soak_write_chunk(gint fd,
		     const SdtSoakConfig *config,
		     const SdtSoakChunk *chunk,
		     guint8 *buf,
		     SdtSoakResult *result,
		     GCancellable *cancellable,
		     GError **error)
{
	guint64 half = (config->size / 2) / SDT_SOAK_SEQ_BLOCK * SDT_SOAK_SEQ_BLOCK;
	guint64 end = chunk->off + chunk->len;
	guint64 queued_end = CLAMP(half, chunk->off, end);

	if (queued_end > chunk->off && !sdt_soak_write_queued(fd,
							      config,
							      chunk->round,
							      chunk->off,
							      queued_end - chunk->off,
							      result,
							      cancellable,
							      error))
		return FALSE;
	if (end > queued_end && !sdt_soak_write_sequential(fd,
							   config,
							   chunk->round,
							   queued_end,
							   end - queued_end,
							   buf,
							   result,
							   cancellable,
							   error))
		return FALSE;
	if (fdatasync(fd) != 0)
		return sdt_soak_io_error(error, errno, FALSE, chunk->off);
	(void) posix_fadvise(fd, (off_t) chunk->off, (off_t) chunk->len, POSIX_FADV_DONTNEED);
	return TRUE;
}

/* counts the bytes of @got that differ from @want; the first names the offset */
static void
sdt_soak_compare(const guint8 *got,
		 const guint8 *want,
		 gsize len,
		 guint round,
		 guint64 off,
		 SdtSoakResult *result)
{
	if (memcmp(got, want, len) == 0)
		return;
	for (gsize i = 0; i < len; i++) {
		if (got[i] == want[i])
			continue;
		if (result->first_bad_offset < 0) {
			result->first_bad_offset = (gint64) (off + i);
			result->first_bad_round = round;
		}
		result->mismatches++;
	}
}

/* reads a chunk back with O_DIRECT and compares every byte with its seeded data */
static gboolean
sdt_soak_check_chunk(gint fd,
		     const SdtSoakConfig *config,
		     const SdtSoakChunk *chunk,
		     guint8 *buf,
		     guint8 *want,
		     SdtSoakResult *result,
		     GCancellable *cancellable,
		     GError **error)
{
	for (guint64 off = chunk->off; off < chunk->off + chunk->len; off += SDT_SOAK_SEQ_BLOCK) {
		gsize done = 0;
		gint rc;
		if (sdt_soak_cancelled(cancellable, error))
			return FALSE;
		rc = sdt_file_pread_all(fd, buf, SDT_SOAK_SEQ_BLOCK, off, &done);
		if (rc != 0)
			return sdt_soak_io_error(error, rc, TRUE, off + done);
		sdt_soak_fill(want, SDT_SOAK_SEQ_BLOCK, config->seed, chunk->round, off);
		sdt_soak_compare(buf, want, SDT_SOAK_SEQ_BLOCK, chunk->round, off, result);
		result->bytes_checked += SDT_SOAK_SEQ_BLOCK;
	}
	return TRUE;
}

/* the checking side of the pipeline, one chunk per run of its thread */
typedef struct {
	gint fd;
	const SdtSoakConfig *config;
	SdtSoakChunk chunk;
	guint8 *buf;
	guint8 *want;
	GCancellable *cancellable;
	SdtSoakResult result; /* this chunk's */
	GError *error;
	gint64 usec;
} SdtSoakChecker;

static gpointer
sdt_soak_checker_thread(gpointer data)
{
	SdtSoakChecker *c = data;
	gint64 t0 = g_get_monotonic_time();

	memset(&c->result, 0, sizeof(c->result));
	c->result.first_bad_offset = -1;
	sdt_soak_check_chunk(c->fd,
			     c->config,
			     &c->chunk,
			     c->buf,
			     c->want,
			     &c->result,
			     c->cancellable,
			     &c->error);
	c->usec = g_get_monotonic_time() - t0;
	return NULL;
}

/* a checked chunk's figures into the run's; chunks are checked in order */
static void
sdt_soak_merge(SdtSoakResult *result, const SdtSoakChecker *c)
{
	result->bytes_checked += c->result.bytes_checked;
	result->mismatches += c->result.mismatches;
	if (result->first_bad_offset < 0 && c->result.first_bad_offset >= 0) {
		result->first_bad_offset = c->result.first_bad_offset;
		result->first_bad_round = c->result.first_bad_round;
	}
	result->read_seconds += (gdouble) c->usec / G_USEC_PER_SEC;
}

/* the chunk after @prev, or FALSE when the run is over (at a round's end, after the time) */
static gboolean
sdt_soak_next_chunk(const SdtSoakConfig *config,
		    const SdtSoakChunk *prev,
		    gint64 start,
		    SdtSoakChunk *next)
{
	guint64 chunk = sdt_soak_chunk_size(config->size);

	if (prev == NULL) {
		next->round = 0;
		next->off = 0;
	} else if (prev->off + prev->len < config->size) {
		next->round = prev->round;
		next->off = prev->off + prev->len;
	} else {
		gdouble elapsed = (gdouble) (g_get_monotonic_time() - start) / G_USEC_PER_SEC;
		if (elapsed >= config->seconds)
			return FALSE;
		next->round = prev->round + 1;
		next->off = 0;
	}
	next->len = MIN(chunk, config->size - next->off);
	return TRUE;
}

/* the fraction done, and the rate: bytes written and checked so far per second, in 10^6 B/s */
static void
sdt_soak_report(const SdtSoakConfig *config,
		const SdtSoakChunk *chunk,
		const SdtSoakResult *result,
		gint64 start,
		SdtBenchProgressFunc progress,
		gpointer user_data)
{
	gdouble elapsed = (gdouble) (g_get_monotonic_time() - start) / G_USEC_PER_SEC;
	gdouble fraction = config->seconds > 0 ? elapsed / config->seconds
					       : (gdouble) chunk->off / (gdouble) config->size;
	gdouble moved = (gdouble) (result->bytes_written + result->bytes_checked);

	if (progress != NULL)
		progress("soak",
			 MIN(0.99, fraction),
			 elapsed > 0 ? moved / elapsed / 1e6 : 0.0,
			 user_data);
}

/* one step of the pipeline: @write (if any) written while @check (if any) is checked */
static gboolean
sdt_soak_step(gint fd,
	      const SdtSoakConfig *config,
	      const SdtSoakChunk *write,
	      SdtSoakChecker *check,
	      guint8 *buf,
	      SdtSoakResult *result,
	      GCancellable *cancellable,
	      GError **error)
{
	GThread *thread = NULL;
	gboolean ok = TRUE;
	gint64 t0 = g_get_monotonic_time();

	if (check != NULL)
		thread = g_thread_new("sdt-soak-check", sdt_soak_checker_thread, check);
	if (write != NULL) {
		ok = sdt_soak_write_chunk(fd, config, write, buf, result, cancellable, error);
		result->write_seconds += (gdouble) (g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
	}
	if (thread == NULL)
		return ok;
	g_thread_join(thread);
	sdt_soak_merge(result, check);
	if (check->error != NULL) {
		if (ok)
			g_propagate_error(error, g_steal_pointer(&check->error));
		g_clear_error(&check->error);
		return FALSE;
	}
	if (ok && check->chunk.off + check->chunk.len == config->size)
		result->rounds++;
	return ok;
}

gboolean
sdt_soak_check_args(guint64 size, gdouble seconds, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	if (size >= SDT_SOAK_MIN_SIZE && size <= SDT_SOAK_MAX_SIZE &&
	    size % SDT_SOAK_SEQ_BLOCK == 0 && isfinite(seconds) && seconds >= 0 &&
	    seconds <= 24 * 3600)
		return TRUE;
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_ARGUMENT,
		    _("The soak test's size must be a whole number of MiB from %u to %u, "
		      "and its time at most a day"),
		    (guint) (SDT_SOAK_MIN_SIZE >> 20),
		    (guint) (SDT_SOAK_MAX_SIZE >> 20));
	return FALSE;
}

gboolean
sdt_soak_run(gint fd,
	     const SdtSoakConfig *config,
	     SdtSoakResult *result,
	     SdtBenchProgressFunc progress,
	     gpointer user_data,
	     GCancellable *cancellable,
	     GError **error)
{
	guint8 *buf = NULL;
	SdtSoakChecker check = {.fd = fd, .config = config, .cancellable = cancellable};
	SdtSoakChunk written = {0};
	SdtSoakChunk next = {0};
	gboolean have_written = FALSE;
	gboolean have_next;
	gint64 start;
	gboolean ok = TRUE;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	start = g_get_monotonic_time();
	memset(result, 0, sizeof(*result));
	result->first_bad_offset = -1;
	g_return_val_if_fail(config->size >= 2 * SDT_SOAK_SEQ_BLOCK &&
				     config->size % SDT_SOAK_SEQ_BLOCK == 0,
			     FALSE);
	if (posix_memalign((void **) &buf, SDT_SOAK_ALIGN, SDT_SOAK_SEQ_BLOCK) != 0 ||
	    posix_memalign((void **) &check.buf, SDT_SOAK_ALIGN, SDT_SOAK_SEQ_BLOCK) != 0 ||
	    posix_memalign((void **) &check.want, SDT_SOAK_ALIGN, SDT_SOAK_SEQ_BLOCK) != 0) {
		free(buf);
		free(check.buf);
		return sdt_soak_io_error(error, ENOMEM, FALSE, 0);
	}
	/* the first step only writes, the last only checks */
	have_next = sdt_soak_next_chunk(config, NULL, start, &next);
	while (ok) {
		if (have_next)
			sdt_soak_report(config, &next, result, start, progress, user_data);
		check.chunk = written;
		ok = sdt_soak_step(fd,
				   config,
				   have_next ? &next : NULL,
				   have_written ? &check : NULL,
				   buf,
				   result,
				   cancellable,
				   error);
		if (!have_next)
			break;
		written = next;
		have_written = TRUE;
		have_next = sdt_soak_next_chunk(config, &written, start, &next);
	}
	result->seconds = (gdouble) (g_get_monotonic_time() - start) / G_USEC_PER_SEC;
	free(buf);
	free(check.buf);
	free(check.want);
	return ok;
}
