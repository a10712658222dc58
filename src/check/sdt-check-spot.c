/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-check-private.h"

#define SDT_CHECK_SPOT_TRIES 8

static guint64
sdt_check_spot_rand(SdtCheck *self, guint64 n)
{
	guint64 r = ((guint64) g_rand_int(self->rand) << 32) | g_rand_int(self->rand);
	return n == 0 ? 0 : r % n;
}

/* a block of [@a, @b) the probe may take: not the journal's, not the run's */
static gboolean
sdt_check_spot_pick(SdtCheck *self,
		    guint64 a,
		    guint64 b,
		    guint64 skip_at,
		    guint64 skip_len,
		    guint64 *at)
{
	for (guint t = 0; t < SDT_CHECK_SPOT_TRIES; t++) {
		guint64 x =
			a + sdt_check_spot_rand(self, (b - a) / SDT_CHECK_BLOCK) * SDT_CHECK_BLOCK;
		if (x + SDT_CHECK_BLOCK > self->claim ||
		    (x + SDT_CHECK_BLOCK > skip_at && x < skip_at + skip_len) ||
		    sdt_check_journal_places_overlaps(self->journal, x, SDT_CHECK_BLOCK))
			continue;
		*at = x;
		return TRUE;
	}
	return FALSE;
}

void
sdt_check_spot_add(SdtCheck *self,
		   GArray *samples,
		   guint n,
		   guint64 lo,
		   guint64 hi,
		   guint64 skip_at,
		   guint64 skip_len)
{
	guint64 span;

	g_return_if_fail(self != NULL && samples != NULL);

	/* never below the checked partition: the partition table and the boot
	 * partition are not the check's to write */
	lo = MAX(lo, self->part_start);
	lo = (lo + SDT_CHECK_BLOCK - 1) / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
	hi = MIN(hi, self->claim) / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
	span = hi > lo ? hi - lo : 0;
	for (guint i = 0; i < n && span >= SDT_CHECK_BLOCK; i++) {
		guint64 a = (lo + span * i / n) / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
		guint64 b = (lo + span * (i + 1) / n) / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
		guint64 r0;
		guint64 r1;
		guint64 at = 0;
		if (b <= a)
			continue;
		/* a reserved block where the slice has one */
		r0 = sdt_check_target_offset_to_rank(self, a);
		r1 = sdt_check_target_offset_to_rank(self, b);
		if (r1 > r0) {
			at = sdt_check_target_rank_to_offset(
				self,
				r0 + sdt_check_spot_rand(self, r1 - r0));
			if (at + SDT_CHECK_BLOCK <= skip_at || at >= skip_at + skip_len) {
				g_array_append_val(samples, at);
				continue;
			}
		}
		if (sdt_check_spot_pick(self, a, b, skip_at, skip_len, &at)) {
			g_array_append_val(samples, at);
			self->n_spots++;
		}
	}
}
