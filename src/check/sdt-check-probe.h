/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-check-block.h"

G_BEGIN_DECLS

/*
 * The safe probe: one batch of blocks inside the reserved file is saved
 * (read), journaled (sdt-check-journal, durably, before any write), written
 * with self-identifying blocks (the samples first, then a contiguous run one
 * stride long, then enough blocks to flush a fake's write cache), synced, read
 * back, and put back (last
 * first) before the journal goes.  On a wrap fake a write at X lands on X mod R,
 * whatever R is; its old content is what the save read there, so putting it
 * back repairs the alias.  With @search_wrap the batch also reads the card at a
 * stride below and above the run while it is out: a wrap at any size up to
 * self->wrap_bound shows one of the run's blocks at another address, which
 * gives R exactly (sdt_check_probe_batch_run() sets the failure "wrap").
 */

typedef struct {
	GArray *at; /* guint64: the samples, the run's blocks, the flush */
	guint n_samples;
	guint64 run_start; /* 0 and run_len 0: no run */
	guint64 run_len;
	guint64 stride;   /* the wrap search's reads */
	guint8 *saved;    /* at->len blocks, aligned */
	guint8 *saved_ok; /* per block: read, so it may be written */
	guint8 *written;  /* per block: a write was attempted */
	guint8 *state;    /* per sample: SdtCheckBlockState */
	guint64 *other;   /* per sample: the offset an overwritten one carries */
} SdtCheckBatch;

/* @samples (taken, ascending), the run [@run_start, +@run_len) and the blocks of
 * @flush (written last: a fake's write cache forgets the samples) */
void sdt_check_probe_batch_init(SdtCheckBatch *batch,
				GArray *samples,
				guint64 run_start,
				guint64 run_len,
				GArray *flush,
				guint64 stride);
void sdt_check_probe_batch_clear(SdtCheckBatch *batch);

/* the whole cycle; the blocks are put back whatever happens (also on Stop) */
gboolean sdt_check_probe_batch_run(SdtCheck *self,
				   SdtCheckBatch *batch,
				   gboolean search_wrap,
				   gdouble from,
				   gdouble to,
				   GError **error);

G_END_DECLS
