/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <string.h>

#include "sdt-check-private.h"

#define SDT_CHECK_MAX_ANCHORS (SDT_CHECK_N_ANCHORS * 2)

/* the blocks a wrap would show again: the first of the disk and of the file system */
typedef struct {
	guint8 *blocks; /* SDT_CHECK_MAX_ANCHORS blocks, aligned for O_DIRECT */
	guint64 at[SDT_CHECK_MAX_ANCHORS];
	guint n;
} SdtCheckAnchors;

/* the first blocks of the disk and of the file system, when they say something */
static void
sdt_check_read_anchors(SdtCheck *self, SdtCheckAnchors *anchors)
{
	for (guint i = 0; i < SDT_CHECK_MAX_ANCHORS; i++) {
		guint64 at = (i < SDT_CHECK_N_ANCHORS ? 0 : self->part_start) +
			     (guint64) (i % SDT_CHECK_N_ANCHORS) * SDT_CHECK_BLOCK;
		guint8 *slot = anchors->blocks + (gsize) anchors->n * SDT_CHECK_BLOCK;
		gboolean dup = FALSE;
		for (guint j = 0; j < anchors->n; j++)
			dup = dup || anchors->at[j] == at;
		if (dup || sdt_check_block_pread(self, slot, SDT_CHECK_BLOCK, at) != 0 ||
		    sdt_check_block_is_uniform(slot, SDT_CHECK_BLOCK))
			continue;
		anchors->at[anchors->n++] = at;
	}
	if (anchors->n == 0)
		g_ptr_array_add(self->notes,
				g_strdup(_("The first blocks of the card are empty, so the "
					   "read-only phase could not look for an address wrap")));
}

/* do all the anchors that can be read at anchor + @size show again there? */
static gboolean
sdt_check_wraps_at(SdtCheck *self, const SdtCheckAnchors *anchors, guint64 size, guint64 *bad)
{
	guint tried = 0;
	guint match = 0;

	for (guint i = 0; i < anchors->n; i++) {
		guint64 at = anchors->at[i] + size;
		if (at + SDT_CHECK_BLOCK > self->claim)
			continue;
		if (sdt_check_block_pread(self, self->buf, SDT_CHECK_BLOCK, at) != 0) {
			*bad = MIN(*bad, at);
			continue;
		}
		tried++;
		sdt_check_block_mark(self, at, FALSE);
		if (memcmp(self->buf,
			   anchors->blocks + (gsize) i * SDT_CHECK_BLOCK,
			   SDT_CHECK_BLOCK) == 0)
			match++;
	}
	return tried > 0 && match == tried;
}

/* a wrap at C shows the anchors again at anchor + C; FALSE when cancelled */
static gboolean
sdt_check_look_for_wrap(SdtCheck *self,
			const SdtCheckAnchors *anchors,
			guint64 *bad,
			GError **error)
{
	for (guint c = 0; c < self->candidates->len && anchors->n > 0; c++) {
		guint64 size = g_array_index(self->candidates, guint64, c);
		if (sdt_check_wraps_at(self, anchors, size, bad)) {
			sdt_check_block_set_bad(self, "wrap", size);
			self->estimate = size;
			self->at_least = size;
			self->at_most = size;
			self->reason = g_strdup_printf(
				_("The card's first blocks appear again at %" PRIu64
				  " MiB: its addresses wrap around there, so it holds about "
				  "%" PRIu64 " MiB, not %" PRIu64 " MiB"),
				size / SDT_CHECK_MIB,
				size / SDT_CHECK_MIB,
				self->claim / SDT_CHECK_MIB);
			return TRUE;
		}
		if (sdt_check_block_cancelled(self, error))
			return FALSE;
	}
	return TRUE;
}

/* I/O errors in the upper half, and at the very end */
static void
sdt_check_probe_top(SdtCheck *self, guint64 *good, guint64 *bad)
{
	guint64 top_step = self->claim / 2 / SDT_CHECK_N_TOP / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;

	for (guint i = 0; i <= SDT_CHECK_N_TOP; i++) {
		guint64 at = i == SDT_CHECK_N_TOP
				     ? self->claim - SDT_CHECK_BLOCK
				     : self->claim / 2 / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK +
					       (guint64) i * top_step;
		if (at >= *bad)
			break;
		if (sdt_check_block_pread(self, self->buf, SDT_CHECK_BLOCK, at) == 0) {
			*good = MAX(*good, at);
			sdt_check_block_mark(self, at, FALSE);
		} else {
			*bad = at;
		}
	}
}

/* the lowest failing block in (@good, @bad], by reads only */
static guint64
sdt_check_bisect_reads(SdtCheck *self, guint64 good, guint64 bad)
{
	while (bad - good > SDT_CHECK_BLOCK) {
		guint64 mid = good + (bad - good) / 2 / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
		if (mid <= good)
			mid = good + SDT_CHECK_BLOCK;
		if (sdt_check_block_pread(self, self->buf, SDT_CHECK_BLOCK, mid) == 0)
			good = mid;
		else
			bad = mid;
	}
	return bad;
}

/* a read error at @bad, confirmed once (a single transient error does not make
 * a card fake), is where the card ends */
static void
sdt_check_confirm_read_error(SdtCheck *self, guint64 good, guint64 bad)
{
	guint64 first;

	if (sdt_check_block_pread(self, self->buf, SDT_CHECK_BLOCK, bad) == 0)
		return;
	first = sdt_check_bisect_reads(self, good < bad ? good : 0, bad);
	sdt_check_block_set_bad(self, "io-error", first);
	self->estimate = first;
	self->at_least = first;
	self->at_most = first;
	self->reason = g_strdup_printf(_("Reads fail from %" PRIu64
					 " MiB on: the card holds about %" PRIu64
					 " MiB, not %" PRIu64 " MiB"),
				       first / SDT_CHECK_MIB,
				       first / SDT_CHECK_MIB,
				       self->claim / SDT_CHECK_MIB);
}

gboolean
sdt_check_read_phase(SdtCheck *self, GError **error)
{
	SdtCheckAnchors anchors = {0};
	guint64 good = 0;
	guint64 bad = G_MAXUINT64;
	gboolean ok;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	anchors.blocks = g_aligned_alloc(SDT_CHECK_MAX_ANCHORS, SDT_CHECK_BLOCK, SDT_CHECK_BLOCK);
	sdt_check_block_report(self, "read", 0.0);
	sdt_check_read_anchors(self, &anchors);
	ok = sdt_check_look_for_wrap(self, &anchors, &bad, error);
	g_aligned_free(anchors.blocks);
	if (!ok)
		return FALSE;
	sdt_check_block_report(self, "read", 0.5);
	if (self->failure == NULL)
		sdt_check_probe_top(self, &good, &bad);
	if (self->failure == NULL && bad != G_MAXUINT64)
		sdt_check_confirm_read_error(self, good, bad);
	sdt_check_block_report(self, "read", 1.0);
	return TRUE;
}
