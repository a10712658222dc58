/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-check-private.h"

#define SDT_CHECK_MAX_DIVISOR 1024

void
sdt_check_probe_batch_init(SdtCheckBatch *batch,
			   GArray *samples,
			   guint64 run_start,
			   guint64 run_len,
			   GArray *flush,
			   guint64 stride)
{
	guint n;

	memset(batch, 0, sizeof(*batch));
	batch->at = samples;
	batch->n_samples = samples->len;
	batch->run_start = run_start;
	batch->run_len = run_len;
	batch->stride = stride;
	for (guint64 off = 0; off < run_len; off += SDT_CHECK_BLOCK) {
		guint64 at = run_start + off;
		g_array_append_val(batch->at, at);
	}
	if (flush != NULL)
		g_array_append_vals(batch->at, flush->data, flush->len);
	n = MAX(batch->at->len, 1);
	batch->saved = g_aligned_alloc(n, SDT_CHECK_BLOCK, SDT_CHECK_BLOCK);
	batch->saved_ok = g_new0(guint8, n);
	batch->written = g_new0(guint8, n);
	batch->state = g_new0(guint8, MAX(batch->n_samples, 1));
	batch->other = g_new0(guint64, MAX(batch->n_samples, 1));
}

void
sdt_check_probe_batch_clear(SdtCheckBatch *batch)
{
	g_clear_pointer(&batch->at, g_array_unref);
	g_clear_pointer(&batch->saved, g_aligned_free);
	g_clear_pointer(&batch->saved_ok, g_free);
	g_clear_pointer(&batch->written, g_free);
	g_clear_pointer(&batch->state, g_free);
	g_clear_pointer(&batch->other, g_free);
}

static guint64
sdt_check_batch_at(SdtCheckBatch *batch, guint i)
{
	return g_array_index(batch->at, guint64, i);
}

/* ---- save and journal ---- */

/* reads every block; one that cannot be read is never written */
static gboolean
sdt_check_batch_save(SdtCheck *self, SdtCheckBatch *batch, GError **error)
{
	for (guint i = 0; i < batch->at->len; i++) {
		guint8 *slot = batch->saved + (gsize) i * SDT_CHECK_BLOCK;
		if (sdt_check_block_pread(self,
					  slot,
					  SDT_CHECK_BLOCK,
					  sdt_check_batch_at(batch, i)) == 0)
			batch->saved_ok[i] = 1;
		else if (i < batch->n_samples)
			batch->state[i] = SDT_CHECK_BLOCK_IO_ERROR;
		if (i % 256 == 0 && sdt_check_block_cancelled(self, error))
			return FALSE;
	}
	return TRUE;
}

/* the journal of the blocks that were saved; @rewrite: after the writes, only
 * a copy they damaged is written again */
static gboolean
sdt_check_batch_journal(SdtCheck *self, SdtCheckBatch *batch, gboolean rewrite, GError **error)
{
	SdtCheckJournal j = {
		.disk_node = self->disk_node,
		.rdev = self->disk_rdev,
		.claim = self->claim,
		.seed = self->seed,
	};
	gboolean ok;

	j.at = g_new(guint64, MAX(batch->at->len, 1));
	j.saved = g_aligned_alloc(MAX(batch->at->len, 1), SDT_CHECK_BLOCK, SDT_CHECK_BLOCK);
	for (guint i = 0; i < batch->at->len; i++) {
		if (!batch->saved_ok[i])
			continue;
		j.at[j.n] = sdt_check_batch_at(batch, i);
		memcpy(j.saved + (gsize) j.n * SDT_CHECK_BLOCK,
		       batch->saved + (gsize) i * SDT_CHECK_BLOCK,
		       SDT_CHECK_BLOCK);
		j.n++;
	}
	ok = rewrite ? sdt_check_journal_rewrite_damaged(self->config->journal_dirs, &j, error)
		     : sdt_check_journal_write(self->config->journal_dirs, &j, error);
	g_free(j.at);
	g_aligned_free(j.saved);
	return ok;
}

/* ---- write, read back ---- */

static gboolean
sdt_check_batch_write(SdtCheck *self, SdtCheckBatch *batch, GError **error)
{
	for (guint i = 0; i < batch->at->len; i++) {
		guint64 at = sdt_check_batch_at(batch, i);
		if (!batch->saved_ok[i])
			continue;
		sdt_check_block_fill(self->buf, self->seed, at);
		batch->written[i] = 1;
		if (sdt_check_block_pwrite(self, self->buf, SDT_CHECK_BLOCK, at) != 0) {
			if (i < batch->n_samples)
				batch->state[i] = SDT_CHECK_BLOCK_IO_ERROR;
		} else {
			self->n_written++;
		}
		if (i % 256 == 0 && sdt_check_block_cancelled(self, error))
			return FALSE;
	}
	if (fdatasync(self->wfd) != 0)
		g_ptr_array_add(self->notes,
				g_strdup_printf(_("Flushing %s failed: %s"),
						self->disk_node,
						g_strerror(errno)));
	return TRUE;
}

static void
sdt_check_batch_verify(SdtCheck *self, SdtCheckBatch *batch)
{
	for (guint i = 0; i < batch->n_samples; i++) {
		guint64 at = sdt_check_batch_at(batch, i);
		if (batch->state[i] != SDT_CHECK_BLOCK_OK)
			continue;
		if (sdt_check_block_pread(self, self->buf, SDT_CHECK_BLOCK, at) != 0)
			batch->state[i] = SDT_CHECK_BLOCK_IO_ERROR;
		else
			batch->state[i] =
				sdt_check_block_classify(self, self->buf, at, &batch->other[i]);
	}
}

/* ---- the wrap ---- */

/* do @y and @o read the same block of ours (one place on the card)? */
static gboolean
sdt_check_same_place(SdtCheck *self, guint64 y, guint64 o)
{
	guint8 *a = self->buf;
	guint8 *b = self->buf + SDT_CHECK_BLOCK;
	guint64 other = 0;

	if (sdt_check_block_pread(self, a, SDT_CHECK_BLOCK, y) != 0 ||
	    sdt_check_block_pread(self, b, SDT_CHECK_BLOCK, o) != 0 ||
	    memcmp(a, b, SDT_CHECK_BLOCK) != 0)
		return FALSE;
	return sdt_check_block_classify(self, b, o, &other) != SDT_CHECK_BLOCK_CORRUPT;
}

/* @o and @o - @d (or + @d) are one place: the smallest size d / k that is one too */
static guint64
sdt_check_wrap_size(SdtCheck *self, guint64 d, guint64 o)
{
	guint64 best = d;

	for (guint64 k = MIN(d / SDT_CHECK_BLOCK, SDT_CHECK_MAX_DIVISOR); k >= 2; k--) {
		guint64 r = d / k;
		guint64 y;
		if (d % k != 0 || r % SDT_CHECK_BLOCK != 0)
			continue;
		y = o >= r ? o - r : o + r;
		if (y + SDT_CHECK_BLOCK <= self->claim && sdt_check_same_place(self, y, o)) {
			best = r;
			break;
		}
	}
	return best;
}

/* a block of ours read at @x that belongs at @o: the smallest distance so far */
static void
sdt_check_note_alias(SdtCheck *self, guint64 x, guint64 o, guint64 *d, guint64 *from)
{
	guint64 dist = o > x ? o - x : x - o;

	if (dist > 0 && (*d == 0 || dist < *d)) {
		*d = dist;
		*from = o;
	}
}

/* one read of the wrap search */
static void
sdt_check_stride_read(SdtCheck *self, guint64 x, guint64 *d, guint64 *from)
{
	guint64 other = 0;

	if (sdt_check_block_pread(self, self->buf, SDT_CHECK_BLOCK, x) != 0)
		return;
	if (sdt_check_block_classify(self, self->buf, x, &other) == SDT_CHECK_BLOCK_OVERWRITTEN)
		sdt_check_note_alias(self, x, other, d, from);
}

/* reads at the stride below and above the run; the wrap's size, or 0 */
static guint64
sdt_check_batch_search(SdtCheck *self, SdtCheckBatch *batch, GError **error)
{
	guint64 d = 0;
	guint64 from = 0;
	guint64 s = batch->stride;
	guint n = 0;

	for (guint i = 0; i < batch->n_samples; i++)
		if (batch->state[i] == SDT_CHECK_BLOCK_OVERWRITTEN)
			sdt_check_note_alias(self,
					     sdt_check_batch_at(batch, i),
					     batch->other[i],
					     &d,
					     &from);
	for (guint64 x = batch->run_start; s > 0 && x >= s;) {
		x -= s;
		sdt_check_stride_read(self, x, &d, &from);
		if (++n % 256 == 0 && sdt_check_block_cancelled(self, error))
			return 0;
	}
	for (guint64 x = batch->run_start + s; s > 0 && x + SDT_CHECK_BLOCK <= self->claim;
	     x += s) {
		sdt_check_stride_read(self, x, &d, &from);
		if (++n % 256 == 0 && sdt_check_block_cancelled(self, error))
			return 0;
	}
	return d == 0 ? 0 : sdt_check_wrap_size(self, d, from);
}

/* ---- put back ---- */

/* last first, so that on a wrap the first saved content of a place is what stays */
static void
sdt_check_batch_restore(SdtCheck *self, SdtCheckBatch *batch, gdouble fraction)
{
	guint failed = 0;

	sdt_check_block_report(self, "restore", fraction);
	for (guint i = batch->at->len; i-- > 0;) {
		if (!batch->written[i])
			continue;
		if (sdt_check_block_pwrite(self,
					   batch->saved + (gsize) i * SDT_CHECK_BLOCK,
					   SDT_CHECK_BLOCK,
					   sdt_check_batch_at(batch, i)) != 0)
			failed++;
		else
			self->n_restored++;
	}
	if (fdatasync(self->wfd) != 0)
		failed++;
	if (failed == 0) {
		sdt_check_journal_remove(self->config->journal_dirs);
		return;
	}
	/* the journal stays: the next start tries again */
	g_ptr_array_add(self->notes,
			g_strdup_printf(ngettext("%u block could not be put back yet; SD Tuner "
						 "tries again at its next start",
						 "%u blocks could not be put back yet; SD Tuner "
						 "tries again at its next start",
						 failed),
					failed));
}

gboolean
sdt_check_probe_batch_run(SdtCheck *self,
			  SdtCheckBatch *batch,
			  gboolean search_wrap,
			  gdouble from,
			  gdouble to,
			  GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	gboolean ok;
	guint64 wrap = 0;

	sdt_check_block_report(self, "probe", from);
	if (!sdt_check_batch_save(self, batch, error) ||
	    !sdt_check_batch_journal(self, batch, FALSE, error))
		return FALSE;
	ok = sdt_check_batch_write(self, batch, error) &&
	     sdt_check_batch_journal(self, batch, TRUE, error);
	sdt_check_block_report(self, "probe", from + (to - from) / 3);
	if (ok) {
		sdt_check_batch_verify(self, batch);
		if (search_wrap)
			wrap = sdt_check_batch_search(self, batch, error);
		ok = !sdt_check_block_cancelled(self, error);
	}
	sdt_check_batch_restore(self, batch, from + (to - from) * 2 / 3);
	sdt_check_block_report(self, "probe", to);
	if (wrap > 0) {
		sdt_check_block_set_bad(self, "wrap", wrap);
		self->first_bad = wrap;
		self->estimate = wrap;
		self->at_least = wrap;
		self->at_most = wrap;
	}
	return ok;
}
