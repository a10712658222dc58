/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "sdt-check-private.h"
#include "sdt-check-config-private.h"

#define SDT_CHECK_READS_MAX 65536 /* the wrap search's reads */
#define SDT_CHECK_REFINE    32    /* samples per narrowing round */
#define SDT_CHECK_ROUNDS    5
#define SDT_CHECK_CACHE_MAX (256 * SDT_CHECK_MIB) /* the most the cache round flushes */
#define SDT_CHECK_CACHE_N   8                     /* its blocks at the card's top */

static guint64
sdt_check_align(guint64 v)
{
	return v / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
}

static guint64
sdt_check_rand64(SdtCheck *self, guint64 n)
{
	guint64 r = ((guint64) g_rand_int(self->rand) << 32) | g_rand_int(self->rand);
	return n == 0 ? 0 : r % n;
}

/* ---- where ---- */

/* the run: the highest stretch of @len bytes inside one extent, starting at a
 * multiple of @stride (so that the wrap search reaches every size up to its end),
 * with at least @stride of the extent left above it for the highest samples */
static gboolean
sdt_check_place_run(SdtCheck *self, guint64 len, guint64 stride, guint64 *start)
{
	for (guint i = self->extents->len; i-- > 0;) {
		const SdtCheckExtent *e = &g_array_index(self->extents, SdtCheckExtent, i);
		guint64 a;
		if (e->len < len + stride)
			continue;
		a = (e->start + e->len - len - stride) / stride * stride;
		if (a >= e->start) {
			*start = a;
			return TRUE;
		}
	}
	return FALSE;
}

/* the stride (0: none) whose run reaches highest: the run is one stride long, a
 * shorter one reaches higher where the free space at the top is scattered */
static guint64
sdt_check_choose_run(SdtCheck *self, guint64 stride, guint64 *run_start)
{
	guint64 target = (guint64) (self->claim * SDT_CHECK_TOP_SHARE);
	guint64 best = 0;

	for (guint64 s = stride;
	     s >= SDT_CHECK_STRIDE_MIN && self->claim / s <= SDT_CHECK_READS_MAX;
	     s = sdt_check_align(s / 2)) {
		guint64 a = 0;
		if (sdt_check_place_run(self, s, s, &a) &&
		    (best == 0 || a + s > *run_start + best)) {
			best = s;
			*run_start = a;
		}
		if (best > 0 && *run_start + best >= target)
			break;
	}
	return best;
}

/* @n samples, one in each of @n equal slices of ranks [@lo, @hi), not in the run */
static void
sdt_check_add_stratified(SdtCheck *self,
			 GArray *samples,
			 guint n,
			 guint64 lo,
			 guint64 hi,
			 guint64 run_start,
			 guint64 run_len)
{
	guint64 span = hi > lo ? hi - lo : 0;

	for (guint i = 0; i < n && span > 0; i++) {
		guint64 a = lo + span * i / n;
		guint64 b = lo + span * (i + 1) / n;
		guint64 at;
		if (b <= a)
			continue;
		at = sdt_check_target_rank_to_offset(self, a + sdt_check_rand64(self, b - a));
		if (at >= run_start && at < run_start + run_len)
			continue;
		g_array_append_val(samples, at);
	}
}

/* sorted, at least a block apart */
static GArray *
sdt_check_unique_samples(GArray *samples)
{
	GArray *unique = g_array_new(FALSE, FALSE, sizeof(guint64));

	g_array_sort(samples, sdt_check_config_cmp_u64);
	for (guint i = 0; i < samples->len; i++) {
		guint64 at = g_array_index(samples, guint64, i);
		if (unique->len > 0 &&
		    at < g_array_index(unique, guint64, unique->len - 1) + SDT_CHECK_BLOCK)
			continue;
		g_array_append_val(unique, at);
	}
	return unique;
}

/* stratified over the reserved space, and its highest blocks outside the run */
static GArray *
sdt_check_first_samples(SdtCheck *self, guint64 run_start, guint64 run_len)
{
	g_autoptr(GArray) samples = g_array_new(FALSE, FALSE, sizeof(guint64));
	guint64 total = self->reserved_blocks;
	guint64 top =
		sdt_check_target_offset_to_rank(self,
						(guint64) (self->claim * SDT_CHECK_TOP_SHARE));

	sdt_check_add_stratified(self,
				 samples,
				 MAX(self->config->n_samples, 1),
				 0,
				 total,
				 run_start,
				 run_len);
	sdt_check_add_stratified(self, samples, 8, MIN(top, total - 1), total, run_start, run_len);
	for (guint64 r = total; r > 0 && total - r < 4096; r--) {
		guint64 at = sdt_check_target_rank_to_offset(self, r - 1);
		if (at < run_start || at >= run_start + run_len) {
			g_array_append_val(samples, at);
			break;
		}
	}
	return sdt_check_unique_samples(samples);
}

/* ---- what the samples say ---- */

static void
sdt_check_record(SdtCheck *self, guint64 at, SdtCheckBlockState state)
{
	if (state == SDT_CHECK_BLOCK_OK) {
		sdt_check_block_mark(self, at, TRUE);
		return;
	}
	self->n_bad++;
	if (state == SDT_CHECK_BLOCK_LOST)
		sdt_check_block_set_bad(self, "lost-writes", at);
	else if (state == SDT_CHECK_BLOCK_IO_ERROR)
		sdt_check_block_set_bad(self, "io-error", at);
	else
		sdt_check_block_set_bad(self, "corrupted", at);
}

/* the findings of a batch; the highest good sample below the lowest bad one */
static void
sdt_check_take_batch(SdtCheck *self, SdtCheckBatch *batch)
{
	guint n = sdt_check_probe_batch_n_checked(batch);

	for (guint i = 0; i < n; i++)
		sdt_check_record(self, g_array_index(batch->at, guint64, i), batch->state[i]);
	for (guint i = 0; i < n; i++) {
		guint64 at = g_array_index(batch->at, guint64, i);
		if (batch->state[i] == SDT_CHECK_BLOCK_OK && at < self->first_bad)
			self->last_good = MAX(self->last_good, at);
	}
}

/* the blocks that flush a fake's write cache: the reserved ones just below the run */
/* a batch that found a wrap is not taken (its blocks above the real size are aliases), but
 * those below it that read back right held their data: the map of a whole card says so */
static void
sdt_check_note_below_wrap(SdtCheck *self, SdtCheckBatch *batch)
{
	guint n = sdt_check_probe_batch_n_checked(batch);

	for (guint i = 0; i < n; i++) {
		SdtCheckProbed p = {g_array_index(batch->at, guint64, i), "ok"};
		if (batch->state[i] == SDT_CHECK_BLOCK_OK && p.at < self->estimate)
			g_array_append_val(self->probed, p);
	}
}

static GArray *
sdt_check_flush_blocks(SdtCheck *self, guint64 run_start, guint64 run_len)
{
	GArray *flush = g_array_new(FALSE, FALSE, sizeof(guint64));
	guint64 want = (self->flush_bytes - MIN(run_len, self->flush_bytes)) / SDT_CHECK_BLOCK;
	guint64 rank = sdt_check_target_offset_to_rank(self, run_start);

	for (guint64 r = rank; r > 0 && flush->len < want; r--) {
		guint64 at = sdt_check_target_rank_to_offset(self, r - 1);
		g_array_append_val(flush, at);
	}
	for (guint64 r = sdt_check_target_offset_to_rank(self, run_start + run_len);
	     r < self->reserved_blocks && flush->len < want;
	     r++) {
		guint64 at = sdt_check_target_rank_to_offset(self, r);
		g_array_append_val(flush, at);
	}
	return flush;
}

/* one probe round: @samples (taken), the run, and the cache flush */
static gboolean
sdt_check_round(SdtCheck *self,
		GArray *samples,
		guint64 run_start,
		guint64 run_len,
		guint64 stride,
		gdouble from,
		gdouble to,
		GError **error)
{
	SdtCheckBatch batch;
	g_autoptr(GArray) flush = sdt_check_flush_blocks(self, run_start, run_len);
	gboolean ok;

	sdt_check_probe_batch_init(&batch, samples, run_start, run_len, flush, stride);
	ok = sdt_check_probe_batch_run(self, &batch, stride > 0, from, to, error);
	if (ok && g_strcmp0(self->failure, "wrap") != 0)
		sdt_check_take_batch(self, &batch);
	else if (ok)
		sdt_check_note_below_wrap(self, &batch);
	sdt_check_probe_batch_clear(&batch);
	return ok;
}

/*
 * The cache round, before the first: a fake whose controller answers reads from a
 * RAM cache of the last writes passes any read-back that comes before the cache is
 * full.  A few blocks at the card's top (past the real size of any fake) go through
 * the probe with a growing flush after them (sdt_check_probe_batch_run(), grow) until
 * one no longer reads back, or as much as SDT_CHECK_CACHE_MAX, an eighth of the card
 * or SDT_CHECK_CACHE_SECONDS allow: twice what evicted it is every later round's flush.
 * What such a block read back as counts as any sample's finding.
 */
static gboolean
sdt_check_cache_round(SdtCheck *self, GError **error)
{
	guint64 end = sdt_check_align(self->claim);
	guint64 a = sdt_check_probe_top_start(self);
	guint64 room = MIN(SDT_CHECK_CACHE_MAX, self->claim / 8);
	g_autoptr(GArray) spread = NULL;
	g_autoptr(GArray) flush = NULL;
	SdtCheckBatch batch;
	guint64 rank;
	gboolean ok;

	if (a == 0 || self->flush_bytes >= room)
		return TRUE;
	spread = g_array_new(FALSE, FALSE, sizeof(guint64));
	for (guint i = 0; i < SDT_CHECK_CACHE_N; i++) {
		guint64 at = i + 1 < SDT_CHECK_CACHE_N
				     ? sdt_check_align(a + (end - a) / SDT_CHECK_CACHE_N * i)
				     : end - SDT_CHECK_BLOCK;
		if (self->journal == NULL ||
		    !sdt_check_journal_places_overlaps(self->journal, at, SDT_CHECK_BLOCK))
			g_array_append_val(spread, at);
	}
	if (spread->len == 0)
		return TRUE;
	flush = sdt_check_flush_blocks(self, a, 0);
	sdt_check_probe_batch_init(&batch, sdt_check_unique_samples(spread), 0, 0, flush, 0);
	/* the growth: the reserved blocks below the first flush, downwards */
	batch.grow = g_array_new(FALSE, FALSE, sizeof(guint64));
	rank = sdt_check_target_offset_to_rank(self, a);
	rank -= MIN(rank, flush->len);
	for (; rank > 0 && (guint64) (flush->len + batch.grow->len) * SDT_CHECK_BLOCK < room;
	     rank--) {
		guint64 at = sdt_check_target_rank_to_offset(self, rank - 1);
		g_array_append_val(batch.grow, at);
	}
	ok = sdt_check_probe_batch_run(self, &batch, FALSE, 0.1, 0.2, error);
	if (ok)
		sdt_check_take_batch(self, &batch);
	sdt_check_probe_batch_clear(&batch);
	/* twice: a later flush may write blocks the cache holds already (a cache keyed
	 * by address takes those in place), and only the others push the samples out */
	if (self->cache_at_most > 0)
		self->flush_bytes = 2 * self->cache_at_most + SDT_CHECK_MIB;
	g_debug("check: the cache round flushed %" G_GUINT64_FORMAT " MiB, a cache %s",
		self->cache_flushed / SDT_CHECK_MIB,
		self->cache_at_most > 0 ? "found" : "not seen");
	return ok;
}

/* narrows (last good, first bad] with more rounds: reserved blocks where the
 * bracket has them, else spots in occupied space (sdt-check-spot) */
static gboolean
sdt_check_narrow(SdtCheck *self, guint64 run_start, guint64 run_len, GError **error)
{
	for (guint round = 0; round < SDT_CHECK_ROUNDS; round++) {
		guint64 width = self->first_bad - self->last_good;
		g_autoptr(GArray) samples = NULL;
		if (width <= self->claim / 512)
			break;
		samples = g_array_new(FALSE, FALSE, sizeof(guint64));
		sdt_check_spot_add(self,
				   samples,
				   SDT_CHECK_REFINE,
				   self->last_good + SDT_CHECK_BLOCK,
				   self->first_bad,
				   run_start,
				   run_len);
		if (samples->len == 0)
			break;
		if (!sdt_check_round(self,
				     sdt_check_unique_samples(samples),
				     run_start,
				     run_len,
				     0,
				     0.7 + 0.06 * round,
				     0.76 + 0.06 * round,
				     error))
			return FALSE;
		if (self->first_bad - self->last_good >= width)
			break; /* no sample could go anywhere new */
	}
	return TRUE;
}

/*
 * The top run: the card's last blocks [A, end), wherever they lie (reserved, the
 * user's files, the file system's metadata, outside the partition), through the
 * probe like any of its blocks, every one of them read back, and a wrap search at
 * the stride S below: A is a multiple of S and the run at least S long, so for a
 * wrap at any R in (S, end) the read at the multiple of S in [A - R, end - R)
 * (0 when R > A) sees a block of the run at a distance of exactly R; a smaller R
 * shows one run block over another.  A drop, error or cache fake of any R < end
 * has the run's top block bad.  So "genuine" needs no tolerance below the claim.
 */
static gboolean
sdt_check_top_round(SdtCheck *self, GError **error)
{
	guint64 end = sdt_check_align(self->claim);
	guint64 s = sdt_check_probe_top_stride(self);
	guint64 a = sdt_check_probe_top_start(self);
	g_autoptr(GArray) flush = NULL;
	SdtCheckBatch batch;
	gboolean ok;

	if (a == 0)
		return TRUE;
	/* never over a copy of the journal itself: the top stays untested, so the
	 * verdict cannot be "genuine" (undetermined, with how far the check got) */
	if (sdt_check_journal_places_overlaps(self->journal, a, end - a)) {
		g_debug("check: the journal lies in the card's top blocks; no top run");
		return TRUE;
	}
	/* a whole flush after the run: its own blocks are the ones read back */
	flush = sdt_check_flush_blocks(self, a, 0);
	sdt_check_probe_batch_init(&batch,
				   g_array_new(FALSE, FALSE, sizeof(guint64)),
				   a,
				   end - a,
				   flush,
				   s);
	batch.check_run = TRUE;
	ok = sdt_check_probe_batch_run(self, &batch, TRUE, 0.6, 0.7, error);
	if (ok) {
		self->top_done = TRUE;
		if (g_strcmp0(self->failure, "wrap") != 0)
			sdt_check_take_batch(self, &batch);
		else
			sdt_check_note_below_wrap(self, &batch);
		if (self->failure == NULL)
			self->wrap_bound = end;
	}
	sdt_check_probe_batch_clear(&batch);
	return ok;
}

/* ---- the verdict's words ---- */

gchar *
sdt_check_write_reason(SdtCheck *self, const gchar *failure)
{
	if (g_strcmp0(failure, "wrap") == 0)
		return g_strdup_printf(
			_("A block written at one address showed up %" PRIu64
			  " MiB lower: the card's addresses wrap around, so it holds "
			  "%" PRIu64 " MiB, not %" PRIu64 " MiB"),
			self->estimate / SDT_CHECK_MIB,
			self->estimate / SDT_CHECK_MIB,
			self->claim / SDT_CHECK_MIB);
	if (g_strcmp0(failure, "lost-writes") == 0)
		return g_strdup_printf(_("Blocks written from about %" PRIu64
					 " MiB on read back as zeros: the card holds about %" PRIu64
					 " MiB, not %" PRIu64 " MiB"),
				       self->first_bad / SDT_CHECK_MIB,
				       self->estimate / SDT_CHECK_MIB,
				       self->claim / SDT_CHECK_MIB);
	if (g_strcmp0(failure, "io-error") == 0)
		return g_strdup_printf(_("Writes or reads fail from about %" PRIu64
					 " MiB on: the card holds about %" PRIu64
					 " MiB, not %" PRIu64 " MiB"),
				       self->first_bad / SDT_CHECK_MIB,
				       self->estimate / SDT_CHECK_MIB,
				       self->claim / SDT_CHECK_MIB);
	return g_strdup_printf(_("Blocks written from about %" PRIu64
				 " MiB on read back changed: the card does not keep what is "
				 "written there"),
			       self->first_bad / SDT_CHECK_MIB);
}

/* the range: the real capacity lies in (last good, first bad] */
static void
sdt_check_conclude(SdtCheck *self)
{
	if (self->failure == NULL || g_strcmp0(self->failure, "wrap") == 0)
		return;
	/* a block that read back right above the first bad one (a cache larger than the
	 * cache round could flush answered for it): the lower bound is not known */
	if (self->last_good >= self->first_bad)
		self->last_good = 0;
	self->at_least = self->last_good > 0 ? self->last_good + SDT_CHECK_BLOCK : 0;
	self->at_most = self->first_bad;
	self->estimate = sdt_check_align(self->at_least + (self->at_most - self->at_least) / 2);
}

gboolean
sdt_check_write_phase(SdtCheck *self, GError **error)
{
	guint64 stride;
	guint64 run_start = 0;
	guint64 run_len = 0;
	g_autoptr(GArray) first = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	stride = sdt_check_align(MAX(self->claim / 2048, (guint64) SDT_CHECK_STRIDE_MIN));
	if (self->whole_device ? !sdt_check_device_reserve(self, error)
			       : (!sdt_check_target_reserve(self, error) ||
				  !sdt_check_target_open_write(self, error)))
		return FALSE;
	stride = sdt_check_choose_run(self, stride, &run_start);
	if (stride > 0) {
		run_len = stride;
		self->wrap_bound =
			MAX(run_start + run_len,
			    self->claim - MIN(self->claim, run_start + stride + SDT_CHECK_BLOCK));
	}
	first = sdt_check_first_samples(self, run_start, run_len);
	if (first->len == 0) {
		self->reason = g_strdup(_("The free space is too small or too scattered to "
					  "test; free some space and check again"));
		return TRUE;
	}
	if (!sdt_check_cache_round(self, error))
		return FALSE;
	if (!sdt_check_round(self,
			     g_steal_pointer(&first),
			     run_start,
			     run_len,
			     stride,
			     0.2,
			     0.6,
			     error))
		return FALSE;
	if (self->failure == NULL && !sdt_check_top_round(self, error))
		return FALSE;
	if (self->failure != NULL && g_strcmp0(self->failure, "wrap") != 0 &&
	    !sdt_check_narrow(self, run_start, run_len, error))
		return FALSE;
	sdt_check_conclude(self);
	if (self->failure != NULL)
		self->reason = sdt_check_write_reason(self, self->failure);
	return TRUE;
}
