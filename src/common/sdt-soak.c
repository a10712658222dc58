/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT */

#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-soak.h"

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
	const guint32 *order; /* block indices of the queued half, shuffled */
	guint n_blocks;
	gint next; /* atomic */
	gint stop; /* atomic: an error or cancellation */
	GMutex lock;
	gint error_errno;
	guint64 error_offset;
	guint64 written; /* atomic via lock */
} SdtSoakQueue;

static gpointer
sdt_soak_queue_worker(gpointer data)
{
	SdtSoakQueue *q = data;
	guint8 *buf = NULL;

	if (posix_memalign((void **) &buf, SDT_SOAK_ALIGN, SDT_SOAK_QD_BLOCK) != 0)
		buf = NULL;
	for (;;) {
		gint idx;
		guint64 off;
		gssize done = 0;
		if (buf == NULL || g_atomic_int_get(&q->stop))
			break;
		idx = g_atomic_int_add(&q->next, 1);
		if (idx >= (gint) q->n_blocks)
			break;
		off = (guint64) q->order[idx] * SDT_SOAK_QD_BLOCK;
		sdt_soak_fill(buf, SDT_SOAK_QD_BLOCK, q->seed, q->round, off);
		while (done < SDT_SOAK_QD_BLOCK) {
			gssize n = pwrite(q->fd, buf + done, SDT_SOAK_QD_BLOCK - done, off + done);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				g_mutex_lock(&q->lock);
				if (q->error_errno == 0) {
					q->error_errno = n < 0 ? errno : EIO;
					q->error_offset = off + done;
				}
				g_mutex_unlock(&q->lock);
				g_atomic_int_set(&q->stop, 1);
				break;
			}
			done += n;
		}
		g_mutex_lock(&q->lock);
		q->written += (guint64) done;
		g_mutex_unlock(&q->lock);
	}
	if (buf == NULL) {
		g_mutex_lock(&q->lock);
		if (q->error_errno == 0)
			q->error_errno = ENOMEM;
		g_mutex_unlock(&q->lock);
		g_atomic_int_set(&q->stop, 1);
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

/* one round's writes: the first half at queue depth 32, shuffled, the second half in order */
static gboolean
sdt_soak_write(gint fd,
	       const SdtSoakConfig *config,
	       guint round,
	       guint8 *buf,
	       SdtSoakResult *result,
	       GCancellable *cancellable,
	       GError **error)
{
	guint64 half = (config->size / 2) / SDT_SOAK_SEQ_BLOCK * SDT_SOAK_SEQ_BLOCK;
	g_autofree guint32 *order = NULL;
	g_autoptr(GRand) rand = g_rand_new_with_seed((guint32) (config->seed ^ (round * 7919u)));
	GThread *threads[SDT_SOAK_QUEUE_DEPTH];
	SdtSoakQueue q = {0};

	q.fd = fd;
	q.seed = config->seed;
	q.round = round;
	q.n_blocks = (guint) (half / SDT_SOAK_QD_BLOCK);
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
	while (g_atomic_int_get(&q.next) < (gint) q.n_blocks && !g_atomic_int_get(&q.stop)) {
		if (g_cancellable_is_cancelled(cancellable))
			g_atomic_int_set(&q.stop, 1);
		g_usleep(10000);
	}
	for (guint i = 0; i < SDT_SOAK_QUEUE_DEPTH; i++)
		g_thread_join(threads[i]);
	g_mutex_clear(&q.lock);
	result->bytes_written += q.written;
	if (q.error_errno != 0)
		return sdt_soak_io_error(error, q.error_errno, FALSE, q.error_offset);
	if (sdt_soak_cancelled(cancellable, error))
		return FALSE;

	for (guint64 off = half; off < config->size; off += SDT_SOAK_SEQ_BLOCK) {
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

static gboolean
sdt_soak_read_check(gint fd,
		    const SdtSoakConfig *config,
		    guint round,
		    guint8 *buf,
		    guint8 *want,
		    SdtSoakResult *result,
		    SdtBenchProgressFunc progress,
		    gpointer user_data,
		    gdouble done_before,
		    GCancellable *cancellable,
		    GError **error)
{
	for (guint64 off = 0; off < config->size; off += SDT_SOAK_SEQ_BLOCK) {
		gsize done = 0;
		gint rc;
		if (sdt_soak_cancelled(cancellable, error))
			return FALSE;
		rc = sdt_file_pread_all(fd, buf, SDT_SOAK_SEQ_BLOCK, off, &done);
		if (rc != 0)
			return sdt_soak_io_error(error, rc, TRUE, off + done);
		sdt_soak_fill(want, SDT_SOAK_SEQ_BLOCK, config->seed, round, off);
		if (memcmp(buf, want, SDT_SOAK_SEQ_BLOCK) != 0) {
			for (gsize i = 0; i < SDT_SOAK_SEQ_BLOCK; i++) {
				if (buf[i] == want[i])
					continue;
				if (result->first_bad_offset < 0) {
					result->first_bad_offset = (gint64) (off + i);
					result->first_bad_round = round;
				}
				result->mismatches++;
			}
		}
		result->bytes_checked += SDT_SOAK_SEQ_BLOCK;
		if (progress != NULL && off % (16 * SDT_SOAK_SEQ_BLOCK) == 0)
			progress("soak",
				 MIN(1.0,
				     done_before + (gdouble) off / (gdouble) config->size * 0.5),
				 0.0,
				 user_data);
	}
	return TRUE;
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
	guint8 *want = NULL;
	gint64 start = g_get_monotonic_time();
	gboolean ok = TRUE;

	memset(result, 0, sizeof(*result));
	result->first_bad_offset = -1;
	g_return_val_if_fail(config->size >= 2 * SDT_SOAK_SEQ_BLOCK &&
				     config->size % SDT_SOAK_SEQ_BLOCK == 0,
			     FALSE);
	if (posix_memalign((void **) &buf, SDT_SOAK_ALIGN, SDT_SOAK_SEQ_BLOCK) != 0 ||
	    posix_memalign((void **) &want, SDT_SOAK_ALIGN, SDT_SOAK_SEQ_BLOCK) != 0) {
		free(buf);
		return sdt_soak_io_error(error, ENOMEM, FALSE, 0);
	}
	for (guint round = 0; ok; round++) {
		gdouble elapsed = (gdouble) (g_get_monotonic_time() - start) / G_USEC_PER_SEC;
		gdouble fraction = config->seconds > 0 ? MIN(0.99, elapsed / config->seconds) : 0;
		gint64 t0;
		gint64 t1;
		if (round > 0 && elapsed >= config->seconds)
			break;
		if (progress != NULL)
			progress("soak", fraction, 0.0, user_data);
		t0 = g_get_monotonic_time();
		ok = sdt_soak_write(fd, config, round, buf, result, cancellable, error);
		/* on the card, not in a cache: fsync, then drop whatever the page cache holds */
		if (ok && fsync(fd) != 0)
			ok = sdt_soak_io_error(error, errno, FALSE, 0);
		if (ok)
			(void) posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
		t1 = g_get_monotonic_time();
		result->write_seconds += (gdouble) (t1 - t0) / G_USEC_PER_SEC;
		if (ok)
			ok = sdt_soak_read_check(fd,
						 config,
						 round,
						 buf,
						 want,
						 result,
						 progress,
						 user_data,
						 fraction,
						 cancellable,
						 error);
		result->read_seconds += (gdouble) (g_get_monotonic_time() - t1) / G_USEC_PER_SEC;
		if (ok)
			result->rounds++;
	}
	result->seconds = (gdouble) (g_get_monotonic_time() - start) / G_USEC_PER_SEC;
	free(buf);
	free(want);
	return ok;
}
