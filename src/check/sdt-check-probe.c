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
#include "sdt-check-config-private.h"

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
	batch->origin = run_start;
	for (guint64 off = 0; off < run_len; off += SDT_CHECK_BLOCK) {
		guint64 at = run_start + off;
		g_array_append_val(batch->at, at);
	}
	batch->n_run = batch->at->len - batch->n_samples;
	if (flush != NULL) {
		/* in disk order: the flush is read and written back in stretches */
		g_array_append_vals(batch->at, flush->data, flush->len);
		qsort(&g_array_index(batch->at, guint64, batch->n_samples + batch->n_run),
		      flush->len,
		      sizeof(guint64),
		      (gint(*)(const void *, const void *)) sdt_check_config_cmp_u64);
	}
	/* only what goes out is saved (the flush writes back what it reads) */
	n = MAX(batch->n_samples + batch->n_run, 1);
	batch->saved = g_aligned_alloc(n, SDT_CHECK_BLOCK, SDT_CHECK_BLOCK);
	batch->saved_ok = g_new0(guint8, n);
	batch->written = g_new0(guint8, MAX(batch->at->len, 1));
	/* the run's blocks too: a caller may set check_run */
	batch->state = g_new0(guint8, MAX(batch->n_samples + batch->n_run, 1));
	batch->other = g_new0(guint64, MAX(batch->n_samples + batch->n_run, 1));
}

guint
sdt_check_probe_batch_n_checked(SdtCheckBatch *batch)
{
	return batch->n_samples + (batch->check_run ? batch->n_run : 0);
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
	g_clear_pointer(&batch->grow, g_array_unref);
}

static guint64
sdt_check_batch_at(SdtCheckBatch *batch, guint i)
{
	return g_array_index(batch->at, guint64, i);
}

/* ---- save and journal ---- */

static guint sdt_check_batch_n_out(SdtCheckBatch *batch);

/* reads every block that goes out; one that cannot be read is never written */
static gboolean
sdt_check_batch_save(SdtCheck *self, SdtCheckBatch *batch, GError **error)
{
	for (guint i = 0; i < sdt_check_batch_n_out(batch); i++) {
		guint8 *slot = batch->saved + (gsize) i * SDT_CHECK_BLOCK;
		if (sdt_check_block_pread(self,
					  slot,
					  SDT_CHECK_BLOCK,
					  sdt_check_batch_at(batch, i)) == 0)
			batch->saved_ok[i] = 1;
		else if (i < sdt_check_probe_batch_n_checked(batch))
			batch->state[i] = SDT_CHECK_BLOCK_IO_ERROR;
		if (i % 256 == 0 && sdt_check_block_cancelled(self, error))
			return FALSE;
	}
	return TRUE;
}

/* the blocks the record holds: the samples and the run (the flush writes back
 * what it read, so nothing of it is ever out) */
static guint
sdt_check_batch_n_out(SdtCheckBatch *batch)
{
	return batch->n_samples + batch->n_run;
}

/* the journal's copies, big enough for @batch: made before any batch (and again,
 * bigger, for a bigger one), never while the file system is frozen */
static gboolean
sdt_check_batch_places(SdtCheck *self, SdtCheckBatch *batch, GError **error)
{
	gsize need = sdt_check_journal_size(sdt_check_batch_n_out(batch), strlen(self->disk_node));
	SdtCheckJournalTarget target = {
		.disk_node = self->disk_node,
		.rdev = self->disk_rdev,
		.claim = self->claim,
		.seed = self->seed,
		.part_start = self->part_start,
		.fs_dev = self->fs_dev,
		.fd = self->wfd,
		.avoid_from = sdt_check_probe_top_start(self),
		.flags = self->whole_device ? SDT_CHECK_JOURNAL_WHOLE_DEVICE : 0,
	};

	if (self->journal != NULL && sdt_check_journal_places_capacity(self->journal) >= need)
		return TRUE;
	g_clear_pointer(&self->journal, sdt_check_journal_places_free);
	self->journal = sdt_check_journal_places_new(self->config->journal_dirs,
						     &target,
						     MAX(need, SDT_CHECK_JOURNAL_MIN),
						     error);
	return self->journal != NULL;
}

/* the journal of the blocks that were saved, into every copy, before any write */
static gboolean
sdt_check_batch_journal(SdtCheck *self, SdtCheckBatch *batch, GError **error)
{
	SdtCheckJournal j = {
		.disk_node = self->disk_node,
		.rdev = self->disk_rdev,
		.claim = self->claim,
		.seed = self->seed,
		.flags = self->whole_device ? SDT_CHECK_JOURNAL_WHOLE_DEVICE : 0,
	};
	guint n_out = sdt_check_batch_n_out(batch);
	gboolean ok;

	j.at = g_new(guint64, MAX(n_out, 1));
	j.saved = g_aligned_alloc(MAX(n_out, 1), SDT_CHECK_BLOCK, SDT_CHECK_BLOCK);
	for (guint i = 0; i < n_out; i++) {
		if (!batch->saved_ok[i])
			continue;
		j.at[j.n] = sdt_check_batch_at(batch, i);
		memcpy(j.saved + (gsize) j.n * SDT_CHECK_BLOCK,
		       batch->saved + (gsize) i * SDT_CHECK_BLOCK,
		       SDT_CHECK_BLOCK);
		j.n++;
	}
	ok = sdt_check_journal_places_write(self->journal, &j, error);
	g_free(j.at);
	g_aligned_free(j.saved);
	return ok;
}

/* ---- write, read back ---- */

/* the flush: every stretch read and written back as it is now, so that a fake's
 * write cache forgets the samples while no flush write changes anything, whatever
 * address it wraps to (nothing of it is ever out, nor in the journal) */
static gboolean
sdt_check_flush_blocks_in_order(SdtCheck *self, const guint64 *at, guint len, GError **error)
{
	for (guint i = 0; i < len;) {
		guint64 a = at[i];
		guint n = 1;
		while (i + n < len && n < SDT_CHECK_FULL_IO / SDT_CHECK_BLOCK &&
		       at[i + n] == a + (guint64) n * SDT_CHECK_BLOCK)
			n++;
		/* not counted as written: nothing of the run's is in them */
		if (sdt_check_block_pread(self, self->buf, (gsize) n * SDT_CHECK_BLOCK, a) == 0)
			sdt_check_block_pwrite(self, self->buf, (gsize) n * SDT_CHECK_BLOCK, a);
		i += n;
		if (sdt_check_block_cancelled(self, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_check_batch_flush(SdtCheck *self, SdtCheckBatch *batch, GError **error)
{
	guint n_out = sdt_check_batch_n_out(batch);

	return sdt_check_flush_blocks_in_order(self,
					       &g_array_index(batch->at, guint64, n_out),
					       batch->at->len - n_out,
					       error);
}

/* what was written on the card before anything is read back (a failure is noted) */
static void
sdt_check_batch_sync(SdtCheck *self)
{
	if (fdatasync(self->wfd) != 0)
		g_ptr_array_add(self->notes,
				g_strdup_printf(_("Flushing %s failed: %s"),
						self->disk_node,
						g_strerror(errno)));
}

/* the samples and the run get the run's own blocks, then the flush */
static gboolean
sdt_check_batch_write(SdtCheck *self, SdtCheckBatch *batch, GError **error)
{
	for (guint i = 0; i < sdt_check_batch_n_out(batch); i++) {
		guint64 at = sdt_check_batch_at(batch, i);
		if (!batch->saved_ok[i])
			continue;
		sdt_check_block_fill(self->buf, self->seed, at);
		batch->written[i] = 1;
		if (sdt_check_block_pwrite(self, self->buf, SDT_CHECK_BLOCK, at) != 0) {
			if (i < sdt_check_probe_batch_n_checked(batch))
				batch->state[i] = SDT_CHECK_BLOCK_IO_ERROR;
		} else {
			self->n_written++;
		}
		if (i % 256 == 0 && sdt_check_block_cancelled(self, error))
			return FALSE;
	}
	if (!sdt_check_batch_flush(self, batch, error))
		return FALSE;
	sdt_check_batch_sync(self);
	return TRUE;
}

/* after the writes: a copy of the journal one of them hit is written again */
static gboolean
sdt_check_batch_recheck(SdtCheck *self, GError **error)
{
	self->journal_hits += sdt_check_journal_places_recheck(self->journal, error);
	return error == NULL || *error == NULL;
}

/* the checked blocks not found bad yet read back (again, while the cache is sized): did
 * one of them read back wrong? */
static gboolean
sdt_check_batch_verify(SdtCheck *self, SdtCheckBatch *batch)
{
	gboolean changed = FALSE;

	for (guint i = 0; i < sdt_check_probe_batch_n_checked(batch); i++) {
		guint64 at = sdt_check_batch_at(batch, i);
		if (batch->state[i] != SDT_CHECK_BLOCK_OK)
			continue;
		if (sdt_check_block_pread(self, self->buf, SDT_CHECK_BLOCK, at) != 0)
			batch->state[i] = SDT_CHECK_BLOCK_IO_ERROR;
		else
			batch->state[i] =
				sdt_check_block_classify(self, self->buf, at, &batch->other[i]);
		changed |= batch->state[i] != SDT_CHECK_BLOCK_OK;
	}
	return changed;
}

/* ---- the write cache ---- */

static gboolean
sdt_check_batch_all_ok(SdtCheckBatch *batch)
{
	for (guint i = 0; i < sdt_check_probe_batch_n_checked(batch); i++)
		if (batch->state[i] != SDT_CHECK_BLOCK_OK)
			return FALSE;
	return sdt_check_probe_batch_n_checked(batch) > 0;
}

/* see SDT_CHECK_CACHE_SECONDS */
static gboolean
sdt_check_batch_grow(SdtCheck *self, SdtCheckBatch *batch, gdouble fraction, GError **error)
{
	guint n_out = sdt_check_batch_n_out(batch);
	guint64 flushed = (guint64) (batch->at->len - n_out) * SDT_CHECK_BLOCK;
	gint64 t0 = g_get_monotonic_time();
	guint64 moved = 0; /* bytes read and written by the steps */
	guint used = 0;

	self->cache_probed = TRUE;
	self->cache_flushed = flushed;
	if (!sdt_check_batch_all_ok(batch))
		return TRUE; /* the first flush was enough: no cache to size */
	while (used < batch->grow->len) {
		guint n = (guint) MIN(MAX(flushed / SDT_CHECK_BLOCK, 1), batch->grow->len - used);
		gdouble secs = (gdouble) (g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
		g_autoptr(GArray) step = g_array_new(FALSE, FALSE, sizeof(guint64));
		/* the next step at the rate so far: within the budget, or not begun */
		if (moved > 0 &&
		    secs + secs * (2.0 * n * SDT_CHECK_BLOCK) / moved > SDT_CHECK_CACHE_SECONDS)
			break;
		g_array_append_vals(step, &g_array_index(batch->grow, guint64, used), n);
		g_array_sort(step, sdt_check_config_cmp_u64);
		sdt_check_block_report(self, "probe", fraction);
		if (!sdt_check_flush_blocks_in_order(self,
						     &g_array_index(step, guint64, 0),
						     n,
						     error))
			return FALSE;
		sdt_check_batch_sync(self);
		used += n;
		moved += 2 * (guint64) n * SDT_CHECK_BLOCK;
		if (sdt_check_batch_verify(self, batch)) {
			self->cache_at_least = flushed;
			self->cache_at_most = flushed + (guint64) n * SDT_CHECK_BLOCK;
			self->cache_flushed = self->cache_at_most;
			return TRUE;
		}
		flushed += (guint64) n * SDT_CHECK_BLOCK;
		self->cache_flushed = flushed;
	}
	return TRUE;
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

	for (guint i = 0; i < sdt_check_probe_batch_n_checked(batch); i++)
		if (batch->state[i] == SDT_CHECK_BLOCK_OVERWRITTEN)
			sdt_check_note_alias(self,
					     sdt_check_batch_at(batch, i),
					     batch->other[i],
					     &d,
					     &from);
	for (guint64 x = batch->origin; s > 0 && x >= s;) {
		x -= s;
		sdt_check_stride_read(self, x, &d, &from);
		if (++n % 256 == 0 && sdt_check_block_cancelled(self, error))
			return 0;
	}
	for (guint64 x = batch->origin + s; s > 0 && x + SDT_CHECK_BLOCK <= self->claim; x += s) {
		sdt_check_stride_read(self, x, &d, &from);
		if (++n % 256 == 0 && sdt_check_block_cancelled(self, error))
			return 0;
	}
	return d == 0 ? 0 : sdt_check_wrap_size(self, d, from);
}

/* ---- put back ---- */

/* is the block at @at (read now) still the run's own block for it?  If not, the
 * system wrote it meanwhile (or the write went nowhere): it is left alone */
static gboolean
sdt_check_batch_still_ours(SdtCheck *self, guint64 at)
{
	guint64 other = 0;

	if (sdt_check_block_pread(self, self->buf, SDT_CHECK_BLOCK, at) != 0)
		return FALSE;
	return sdt_check_block_classify(self, self->buf, at, &other) == SDT_CHECK_BLOCK_OK;
}

/* last first, so that on a wrap the first saved content of a place is what stays;
 * only over the run's own block for that address */
static void
sdt_check_batch_restore(SdtCheck *self, SdtCheckBatch *batch, gdouble fraction)
{
	g_autoptr(GError) error = NULL;
	guint failed = 0;

	sdt_check_block_report(self, "restore", fraction);
	for (guint i = batch->at->len; i-- > 0;) {
		guint64 at = sdt_check_batch_at(batch, i);
		if (!batch->written[i])
			continue;
		if (!sdt_check_batch_still_ours(self, at)) {
			self->n_left++;
			continue;
		}
		if (sdt_check_block_pwrite(self,
					   batch->saved + (gsize) i * SDT_CHECK_BLOCK,
					   SDT_CHECK_BLOCK,
					   at) != 0)
			failed++;
		else
			self->n_restored++;
	}
	if (fdatasync(self->wfd) != 0)
		failed++;
	if (failed == 0 && sdt_check_journal_places_close(self->journal, &error))
		return;
	if (error != NULL)
		failed++;
	/* the journal stays: the next start tries again */
	g_ptr_array_add(self->notes,
			g_strdup_printf(ngettext("%u block could not be put back yet; SD Tuner "
						 "tries again at its next start",
						 "%u blocks could not be put back yet; SD Tuner "
						 "tries again at its next start",
						 failed),
					failed));
	self->journal_kept = TRUE;
}

/* save, journal, write, read back, search, put back: with the checked file system
 * frozen where the kernel lets it (nothing of the system's is written meanwhile) */
static gboolean
sdt_check_batch_cycle(SdtCheck *self,
		      SdtCheckBatch *batch,
		      gboolean search_wrap,
		      gdouble from,
		      gdouble to,
		      GError **error)
{
	gboolean ok;
	guint64 wrap = 0;

	if (!sdt_check_batch_places(self, batch, error))
		return FALSE;
	sdt_check_target_freeze(self);
	if (!sdt_check_batch_save(self, batch, error) ||
	    !sdt_check_batch_journal(self, batch, error)) {
		sdt_check_target_thaw(self);
		return FALSE;
	}
	ok = sdt_check_batch_write(self, batch, error) && sdt_check_batch_recheck(self, error);
	sdt_check_block_report(self, "probe", from + (to - from) / 3);
	if (self->config->while_out != NULL)
		self->config->while_out(self->config->while_out_data);
	if (ok) {
		sdt_check_batch_verify(self, batch);
		if (batch->grow != NULL)
			ok = sdt_check_batch_grow(self, batch, from + (to - from) / 2, error);
	}
	if (ok) {
		if (search_wrap)
			wrap = sdt_check_batch_search(self, batch, error);
		ok = !sdt_check_block_cancelled(self, error);
	}
	sdt_check_batch_restore(self, batch, from + (to - from) * 2 / 3);
	sdt_check_target_thaw(self);
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

/* the real sizes the journal's copies are kept safe from: those a check can tell
 * (its wrap search divides distances by up to 1024) on a card it can check */
static void
sdt_check_batch_sizes(SdtCheck *self, guint64 *lo, guint64 *hi)
{
	*lo = MAX(64 * SDT_CHECK_MIB, self->claim / SDT_CHECK_MAX_DIVISOR);
	*hi = self->claim;
}

/*
 * Can no write of @batch (its samples and run: the flush changes nothing) damage
 * every copy of the journal on the card under one real size in the range the
 * check tells?  FALSE with the smallest such size in @witness.  The journal's
 * copies must exist (sdt_check_batch_places()).  A planner of batches may ask
 * first (make it public then: check-shape wants a caller outside).
 */
static gboolean
sdt_check_probe_batch_safe(SdtCheck *self, SdtCheckBatch *batch, guint64 *witness)
{
	guint64 lo;
	guint64 hi;

	sdt_check_batch_sizes(self, &lo, &hi);
	/* the flush changes nothing (it writes back what it reads): only what goes out */
	return sdt_check_journal_places_safe(self->journal,
					     &g_array_index(batch->at, guint64, 0),
					     sdt_check_batch_n_out(batch),
					     sdt_check_batch_n_out(batch),
					     lo,
					     hi,
					     witness);
}

/* @batch's samples [@from, @to) with its run's blocks [@run_from, @run_to) (bytes
 * into the run), and its flush */
static void
sdt_check_batch_part(SdtCheckBatch *part,
		     SdtCheckBatch *batch,
		     guint from,
		     guint to,
		     guint64 run_from,
		     guint64 run_to)
{
	gboolean run = run_to > run_from;

	GArray *samples = g_array_new(FALSE, FALSE, sizeof(guint64));
	g_autoptr(GArray) flush = g_array_new(FALSE, FALSE, sizeof(guint64));
	guint n_out = sdt_check_batch_n_out(batch);

	g_array_append_vals(samples, &g_array_index(batch->at, guint64, from), to - from);
	g_array_append_vals(flush,
			    &g_array_index(batch->at, guint64, n_out),
			    batch->at->len - n_out);
	sdt_check_probe_batch_init(part,
				   samples,
				   run ? batch->run_start + run_from : 0,
				   run ? run_to - run_from : 0,
				   flush,
				   run ? batch->stride : 0);
	part->check_run = run && batch->check_run;
	/* the search's reads where the whole run's are: under a wrap at R the read at
	 * the multiple of the stride below R sees run block R mod stride, which is
	 * in one of the parts */
	if (run)
		part->origin = batch->origin;
}

static gboolean sdt_check_batch_split_run(SdtCheck *self,
					  SdtCheckBatch *batch,
					  gboolean search_wrap,
					  gdouble from,
					  gdouble to,
					  GError **error);

/* the batch in two (the run with the first half), their findings its own */
static gboolean
sdt_check_batch_halves(SdtCheck *self,
		       SdtCheckBatch *batch,
		       gboolean search_wrap,
		       gdouble from,
		       gdouble to,
		       GError **error)
{
	guint half = batch->n_samples / 2;
	gboolean ok = TRUE;

	self->n_splits++;
	for (guint p = 0; p < 2 && ok; p++) {
		SdtCheckBatch part;
		guint a = p == 0 ? 0 : half;
		guint b = p == 0 ? half : batch->n_samples;
		sdt_check_batch_part(&part, batch, a, b, 0, p == 0 ? batch->run_len : 0);
		/* the cache is sized once, with the first half's blocks */
		if (p == 0 && batch->grow != NULL)
			part.grow = g_array_ref(batch->grow);
		ok = sdt_check_batch_split_run(self,
					       &part,
					       search_wrap && p == 0,
					       from + (to - from) * p / 2,
					       from + (to - from) * (p + 1) / 2,
					       error);
		memcpy(batch->state + a, part.state, b - a);
		memcpy(batch->other + a, part.other, (b - a) * sizeof(guint64));
		if (part.check_run) {
			memcpy(batch->state + batch->n_samples,
			       part.state + part.n_samples,
			       part.n_run);
			memcpy(batch->other + batch->n_samples,
			       part.other + part.n_samples,
			       part.n_run * sizeof(guint64));
		}
		sdt_check_probe_batch_clear(&part);
	}
	return ok;
}

/* the run in two (the samples with its first half), each half with the search */
static gboolean
sdt_check_batch_run_halves(SdtCheck *self,
			   SdtCheckBatch *batch,
			   gboolean search_wrap,
			   gdouble from,
			   gdouble to,
			   GError **error)
{
	guint64 half = batch->n_run / 2 * SDT_CHECK_BLOCK;
	gboolean ok = TRUE;

	self->n_splits++;
	for (guint p = 0; p < 2 && ok; p++) {
		SdtCheckBatch part;
		guint n = p == 0 ? batch->n_samples : 0;
		sdt_check_batch_part(&part,
				     batch,
				     0,
				     n,
				     p == 0 ? 0 : half,
				     p == 0 ? half : batch->run_len);
		ok = sdt_check_batch_split_run(self,
					       &part,
					       search_wrap,
					       from + (to - from) * p / 2,
					       from + (to - from) * (p + 1) / 2,
					       error);
		memcpy(batch->state, part.state, n);
		memcpy(batch->other, part.other, n * sizeof(guint64));
		sdt_check_probe_batch_clear(&part);
	}
	return ok;
}

static gboolean
sdt_check_batch_split_run(SdtCheck *self,
			  SdtCheckBatch *batch,
			  gboolean search_wrap,
			  gdouble from,
			  gdouble to,
			  GError **error)
{
	guint64 witness = 0;

	if (!sdt_check_batch_places(self, batch, error))
		return FALSE;
	if (!sdt_check_probe_batch_safe(self, batch, &witness)) {
		if (batch->n_samples >= 2)
			return sdt_check_batch_halves(self, batch, search_wrap, from, to, error);
		/* one sample (or none) and a long run: the run itself in two */
		if (batch->n_run >= 2)
			return sdt_check_batch_run_halves(self,
							  batch,
							  search_wrap,
							  from,
							  to,
							  error);
		/* a batch that cannot be split further: said in the result */
		self->journal_unsafe = MAX(self->journal_unsafe, witness);
	}
	return sdt_check_batch_cycle(self, batch, search_wrap, from, to, error);
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

	sdt_check_block_report(self, "probe", from);
	return sdt_check_batch_split_run(self, batch, search_wrap, from, to, error);
}

/* ---- the top run's place (sdt-check-write runs it; the journal keeps off it) ---- */

/* the top run's stride */
guint64
sdt_check_probe_top_stride(const SdtCheck *self)
{
	return MAX(self->claim / SDT_CHECK_TOP_READS, (guint64) SDT_CHECK_STRIDE_MIN) /
	       SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
}

guint64
sdt_check_probe_top_start(const SdtCheck *self)
{
	guint64 end = self->claim / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
	guint64 s = sdt_check_probe_top_stride(self);

	return end < 2 * s ? 0 : (end - s) / s * s;
}
