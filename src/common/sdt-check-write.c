/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <unistd.h>

#include "sdt-check-target.h"
#include "sdt-check-write.h"

/* ---- where to write ---- */

/*
 * The write guard: a block may be written at @at only if, for every guard size
 * C, the place a wrap at C would really put it (@at mod C) is inside the
 * reserved file too.
 */
static gboolean
sdt_check_eligible(SdtCheck *self, guint64 at)
{
	if (!sdt_check_in_reserved(self, at))
		return FALSE;
	for (guint i = 0; i < self->guard->len; i++) {
		guint64 size = g_array_index(self->guard, guint64, i);
		if (at >= size && !sdt_check_in_reserved(self, at % size))
			return FALSE;
	}
	return TRUE;
}

static guint64
sdt_check_rand64(SdtCheck *self, guint64 n)
{
	guint64 r = ((guint64) g_rand_int(self->rand) << 32) | g_rand_int(self->rand);
	return n == 0 ? 0 : r % n;
}

/* one eligible block in ranks [@lo, @hi), or G_MAXUINT64 */
static guint64
sdt_check_pick(SdtCheck *self, guint64 lo, guint64 hi)
{
	for (guint tries = 0; tries < 64 && hi > lo; tries++) {
		guint64 at = sdt_check_rank_to_offset(self, lo + sdt_check_rand64(self, hi - lo));
		if (sdt_check_eligible(self, at))
			return at;
	}
	return G_MAXUINT64;
}

static void
sdt_check_add_sample(SdtCheck *self, GArray *samples, guint64 at)
{
	if (at == G_MAXUINT64)
		return;
	g_array_append_val(samples, at);
	/* its aliases too, so a wrap at a guard size overwrites a block we check */
	for (guint i = 0; i < self->guard->len; i++) {
		guint64 size = g_array_index(self->guard, guint64, i);
		guint64 alias = at % size;
		if (at >= size && sdt_check_eligible(self, alias))
			g_array_append_val(samples, alias);
	}
}

/* @n samples spread evenly over ranks [@lo, @hi) */
static void
sdt_check_add_stratified(SdtCheck *self, GArray *samples, guint n, guint64 lo, guint64 hi)
{
	guint64 span = hi - lo;

	for (guint i = 0; i < n; i++)
		sdt_check_add_sample(
			self,
			samples,
			sdt_check_pick(self, lo + span * i / n, lo + span * (i + 1) / n));
}

/* sorted, at least a block apart */
static GArray *
sdt_check_unique_samples(GArray *samples)
{
	GArray *unique = g_array_new(FALSE, FALSE, sizeof(guint64));

	g_array_sort(samples, sdt_check_cmp_u64);
	for (guint i = 0; i < samples->len; i++) {
		guint64 at = g_array_index(samples, guint64, i);
		if (unique->len > 0 &&
		    at < g_array_index(unique, guint64, unique->len - 1) + SDT_CHECK_BLOCK)
			continue;
		g_array_append_val(unique, at);
	}
	return unique;
}

static GArray *
sdt_check_choose_samples(SdtCheck *self)
{
	g_autoptr(GArray) samples = g_array_new(FALSE, FALSE, sizeof(guint64));
	guint n = MAX(self->config->n_samples, 1);
	guint64 total = self->reserved_blocks;
	guint64 top_lo = sdt_check_offset_to_rank(self, self->claim / 10 * 9);

	/* stratified over the whole reserved space */
	sdt_check_add_stratified(self, samples, n, 0, total);
	/* as many again in the top 10% of the card's addresses */
	if (top_lo < total)
		sdt_check_add_stratified(self, samples, n, top_lo, total);
	/* and the highest eligible block */
	for (guint64 r = total; r > 0 && total - r < 4096; r--) {
		guint64 at = sdt_check_rank_to_offset(self, r - 1);
		if (sdt_check_eligible(self, at)) {
			sdt_check_add_sample(self, samples, at);
			break;
		}
	}
	return sdt_check_unique_samples(samples);
}

/* ---- write, sync, read back ---- */

/* writes @samples; a failed write's state becomes SDT_CHECK_BLOCK_IO_ERROR */
static gboolean
sdt_check_write_samples(SdtCheck *self,
			GArray *samples,
			GArray *states,
			gdouble from,
			gdouble span,
			GError **error)
{
	guint n = samples->len;

	for (guint i = 0; i < n; i++) {
		guint64 at = g_array_index(samples, guint64, i);
		sdt_check_fill(self->buf, self->seed, at);
		if (sdt_check_pwrite(self, self->buf, SDT_CHECK_BLOCK, at) != 0)
			g_array_index(states, guint8, i) = SDT_CHECK_BLOCK_IO_ERROR;
		else
			self->n_written++;
		if (i % 16 == 0) {
			sdt_check_report(self, "write", from + span / 2 * i / n);
			if (sdt_check_cancelled(self, error))
				return FALSE;
		}
	}
	if (fdatasync(self->wfd) != 0)
		g_ptr_array_add(self->notes,
				g_strdup_printf(_("Flushing %s failed: %s"),
						self->disk_node,
						g_strerror(errno)));
	return TRUE;
}

/* what the block read back at @at says, in the findings */
static void
sdt_check_record(SdtCheck *self, guint64 at, SdtCheckBlockState state, guint64 other)
{
	if (state == SDT_CHECK_BLOCK_OK) {
		sdt_check_mark(self, at, TRUE);
		if (self->failure == NULL || at < self->first_bad)
			self->last_good = MAX(self->last_good, at);
		return;
	}
	self->n_bad++;
	switch (state) {
	case SDT_CHECK_BLOCK_OVERWRITTEN:
		/* the block written at @other landed here: addresses wrap at other - at */
		if (other > at) {
			guint64 size = other - at;
			if (self->estimate == 0 || size < self->estimate)
				self->estimate = size;
			sdt_check_set_bad(self, "wrap", self->estimate);
			self->first_bad = self->estimate;
		} else {
			sdt_check_set_bad(self, "corrupted", at);
		}
		break;
	case SDT_CHECK_BLOCK_LOST:
		sdt_check_set_bad(self, "lost-writes", at);
		break;
	case SDT_CHECK_BLOCK_IO_ERROR:
		sdt_check_set_bad(self, "io-error", at);
		break;
	case SDT_CHECK_BLOCK_CORRUPT:
	default:
		sdt_check_set_bad(self, "corrupted", at);
		break;
	}
}

/* reads back the blocks whose write succeeded and records every sample */
static gboolean
sdt_check_verify_samples(SdtCheck *self,
			 GArray *samples,
			 GArray *states,
			 gdouble from,
			 gdouble span,
			 GError **error)
{
	guint n = samples->len;

	for (guint i = 0; i < n; i++) {
		guint64 at = g_array_index(samples, guint64, i);
		guint64 other = 0;
		SdtCheckBlockState state = g_array_index(states, guint8, i);

		if (state == SDT_CHECK_BLOCK_OK) {
			if (sdt_check_pread(self, self->buf, SDT_CHECK_BLOCK, at) != 0)
				state = SDT_CHECK_BLOCK_IO_ERROR;
			else
				state = sdt_check_classify(self, self->buf, at, &other);
		}
		sdt_check_record(self, at, state, other);
		if (i % 16 == 0) {
			sdt_check_report(self, "verify", from + span / 2 + span / 2 * i / n);
			if (sdt_check_cancelled(self, error))
				return FALSE;
		}
	}
	return TRUE;
}

/* writes, syncs and reads back @samples (ascending); records what it finds */
static gboolean
sdt_check_write_verify(SdtCheck *self, GArray *samples, gdouble from, gdouble to, GError **error)
{
	g_autoptr(GArray) states = g_array_sized_new(FALSE, TRUE, sizeof(guint8), samples->len);

	g_array_set_size(states, samples->len);
	return sdt_check_write_samples(self, samples, states, from, to - from, error) &&
	       sdt_check_verify_samples(self, samples, states, from, to - from, error);
}

/* ---- the boundary ---- */

/* of a few eligible blocks in ranks [@lo, @hi), the one nearest rank @mid;
 * G_MAXUINT64 if there is none */
static guint64
sdt_check_pick_near(SdtCheck *self, guint64 lo, guint64 hi, guint64 mid)
{
	guint64 at = G_MAXUINT64;
	guint64 best = 0;

	for (guint tries = 0; tries < 64; tries++) {
		guint64 pick = sdt_check_pick(self, lo, hi);
		guint64 rank;
		if (pick == G_MAXUINT64)
			break;
		rank = sdt_check_offset_to_rank(self, pick);
		if (at == G_MAXUINT64 || (rank > mid ? rank - mid : mid - rank) <
						 (best > mid ? best - mid : mid - best)) {
			at = pick;
			best = rank;
		}
	}
	return at;
}

/* narrows the boundary between the last good and the first bad block by writes */
static gboolean
sdt_check_refine(SdtCheck *self, GError **error)
{
	guint64 good = self->last_good;
	guint64 bad = self->first_bad;
	guint64 precision = MAX(self->claim / 512, (guint64) SDT_CHECK_BLOCK);

	for (guint step = 0; step < 24 && bad > good && bad - good > precision; step++) {
		guint64 lo = sdt_check_offset_to_rank(self, good + SDT_CHECK_BLOCK);
		guint64 hi = sdt_check_offset_to_rank(self, bad);
		guint64 at;
		g_autoptr(GArray) one = g_array_new(FALSE, FALSE, sizeof(guint64));
		guint bad_before = self->n_bad;

		if (hi <= lo)
			break;
		at = sdt_check_pick_near(self, lo, hi, lo + (hi - lo) / 2);
		if (at == G_MAXUINT64 || at <= good || at >= bad)
			break;
		g_array_append_val(one, at);
		self->failure = NULL;
		if (!sdt_check_write_verify(self, one, 0.9, 0.95, error))
			return FALSE;
		if (self->n_bad > bad_before)
			bad = at;
		else
			good = at;
		self->first_bad = bad;
		self->failure = NULL;
	}
	self->first_bad = bad;
	self->last_good = good;
	return TRUE;
}

/* ---- the phase ---- */

/* the candidate sizes a write's alias must respect: those of at least half the claim */
static void
sdt_check_guard_init(SdtCheck *self)
{
	self->guard = g_array_new(FALSE, FALSE, sizeof(guint64));
	for (guint i = 0; i < self->candidates->len; i++) {
		guint64 size = g_array_index(self->candidates, guint64, i);
		if (size >= self->claim / 2)
			g_array_append_val(self->guard, size);
	}
}

/* the reason for the verdict, in the failure's own words */
static gchar *
sdt_check_write_reason(SdtCheck *self, const gchar *failure)
{
	if (g_strcmp0(failure, "wrap") == 0)
		return g_strdup_printf(
			_("A block written at one address overwrote one written %" PRIu64
			  " MiB lower: the card's addresses wrap around, so it holds "
			  "about %" PRIu64 " MiB, not %" PRIu64 " MiB"),
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

gboolean
sdt_check_write_phase(SdtCheck *self, GError **error)
{
	g_autoptr(GArray) samples = NULL;
	const gchar *failure;

	sdt_check_guard_init(self);
	if (!sdt_check_reserve(self, error))
		return FALSE;
	samples = sdt_check_choose_samples(self);
	if (samples->len == 0) {
		self->reason = g_strdup(_("No part of the free space is safe to write to: "
					  "too little free space, or it is too fragmented"));
		return TRUE;
	}
	if (!sdt_check_open_write(self, error) ||
	    !sdt_check_write_verify(self, samples, 0.1, 0.9, error))
		return FALSE;
	failure = self->failure;
	if (failure != NULL && g_strcmp0(failure, "wrap") != 0) {
		if (!sdt_check_refine(self, error))
			return FALSE;
		self->failure = failure;
		self->estimate = self->first_bad;
	}
	if (failure != NULL)
		self->reason = sdt_check_write_reason(self, failure);
	return TRUE;
}
