/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "sdt-check-private.h"
#include "sdt-error.h"
#include "sdt-file.h"

/* has a whole card stopped answering (pulled out, its reader gone)?  Its size and its
 * first block, which a fake's failing region never holds */
static gboolean
sdt_check_full_card_gone(SdtCheck *self)
{
	guint64 size = 0;

	if (!self->whole_device)
		return FALSE;
	if (ioctl(self->rfd, BLKGETSIZE64, &size) != 0 || size == 0)
		return TRUE;
	return sdt_file_pread_all(self->rfd, self->expect, SDT_CHECK_BLOCK, 0, NULL) != 0;
}

static gboolean
sdt_check_full_gone_error(SdtCheck *self, GError **error)
{
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_IO,
		    _("%s stopped answering during the full check (was it pulled out?); it "
		      "holds part of the test pattern and none of its former data"),
		    self->disk_node);
	return FALSE;
}

static gboolean
sdt_check_full_write_chunk(SdtCheck *self, guint64 at, gsize len, GError **error)
{
	for (gsize k = 0; k < len; k += SDT_CHECK_BLOCK)
		sdt_check_block_fill(self->buf + k, self->seed, at + k);
	if (sdt_check_block_pwrite(self, self->buf, len, at) != 0) {
		if (sdt_check_full_card_gone(self))
			return sdt_check_full_gone_error(self, error);
		sdt_check_block_set_bad(self, "io-error", at);
		self->n_bad++;
	} else {
		self->n_written += (guint) (len / SDT_CHECK_BLOCK);
	}
	return TRUE;
}

/* one 4 MiB chunk read back: every block judged, one entry of the map for the chunk
 * (its first failure, or "ok") */
static gboolean
sdt_check_full_verify_chunk(SdtCheck *self, guint64 at, gsize len, GError **error)
{
	const gchar *failure = NULL;
	guint64 failure_at = 0;

	if (sdt_check_block_pread(self, self->buf, len, at) != 0) {
		if (sdt_check_full_card_gone(self))
			return sdt_check_full_gone_error(self, error);
		sdt_check_block_set_bad(self, "io-error", at);
		self->n_bad++;
		return TRUE;
	}
	self->n_read += (guint) (len / SDT_CHECK_BLOCK) - 1;
	for (gsize k = 0; k < len; k += SDT_CHECK_BLOCK) {
		guint64 other = 0;
		const gchar *bad;
		SdtCheckBlockState st =
			sdt_check_block_classify(self, self->buf + k, at + k, &other);
		if (st == SDT_CHECK_BLOCK_OK) {
			self->verified_bytes += SDT_CHECK_BLOCK;
			sdt_check_block_mark(self, at + k, FALSE);
			self->good_top = MAX(self->good_top, at + k);
			if (at + k >= self->claim / 10 * 9)
				self->n_top_verified++;
			if (at + k < self->first_bad)
				self->last_good = at + k;
			continue;
		}
		self->n_bad++;
		if (st == SDT_CHECK_BLOCK_OVERWRITTEN && other > at + k) {
			bad = "wrap";
			self->wrap_seen = MIN(self->wrap_seen, other - (at + k));
		} else if (st == SDT_CHECK_BLOCK_LOST) {
			bad = "lost-writes";
		} else {
			bad = "corrupted";
		}
		if (failure == NULL) {
			failure = bad;
			failure_at = at + k;
		}
	}
	if (failure != NULL) {
		sdt_check_block_set_bad(self, failure, failure_at);
	} else {
		SdtCheckProbed p = {at, "ok"};
		g_array_append_val(self->probed, p);
	}
	return TRUE;
}

/* pass 0 writes every reserved block, pass 1 reads them back; the pass's rate.  The
 * progress runs from @from over two passes of @span each */
static gboolean
sdt_check_full_pass(SdtCheck *self,
		    gint pass,
		    guint64 total,
		    gdouble from,
		    gdouble span,
		    gdouble *rate,
		    GError **error)
{
	gint64 t0 = g_get_monotonic_time();
	guint64 done = 0;
	gdouble secs;
	const gchar *phase = pass == 0 ? (self->whole_device ? "write-card" : "write")
				       : (self->whole_device ? "verify-card" : "verify");

	for (guint e = 0; e < self->extents->len; e++) {
		const SdtCheckExtent *ext = &g_array_index(self->extents, SdtCheckExtent, e);
		for (guint64 off = 0; off < ext->len; off += SDT_CHECK_FULL_IO) {
			guint64 at = ext->start + off;
			gsize len = (gsize) MIN((guint64) SDT_CHECK_FULL_IO, ext->len - off);
			gboolean ok;
			/* never above what the probe showed is not an alias */
			if (at >= self->wrap_bound)
				break;
			len = (gsize) MIN((guint64) len, self->wrap_bound - at);
			if (pass == 0)
				ok = sdt_check_full_write_chunk(self, at, len, error);
			else
				ok = sdt_check_full_verify_chunk(self, at, len, error);
			if (!ok)
				return FALSE;
			done += len;
			secs = (gdouble) (g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
			if (self->progress != NULL)
				self->progress(phase,
					       from + span * pass +
						       span * (gdouble) done / MAX(total, 1),
					       secs > 0 ? done / secs / 1e6 : 0.0,
					       self->user_data);
			if (sdt_check_block_cancelled(self, error))
				return FALSE;
		}
	}
	if (pass == 0 && fdatasync(self->wfd) != 0) {
		if (sdt_check_full_card_gone(self))
			return sdt_check_full_gone_error(self, error);
		return sdt_error_set_from_errno(error,
						errno,
						_("Flushing %s failed"),
						self->disk_node);
	}
	/* the write pass's rate includes the final flush */
	secs = (gdouble) (g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
	*rate = secs > 0 ? total / secs / 1e6 : 0.0;
	return TRUE;
}

/* the reason: what failed, or how far the verified space reaches */
static void
sdt_check_full_conclude(SdtCheck *self, guint64 total)
{
	if (self->failure != NULL) {
		self->estimate = self->first_bad;
		self->reason =
			g_strdup_printf(_("%u of %" PRIu64 " written blocks did not read back "
					  "as written, the first at %" PRIu64 " MiB"),
					self->n_bad,
					self->reserved_blocks,
					self->first_bad / SDT_CHECK_MIB);
	} else if (self->wrap_bound < self->claim / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK) {
		self->reason = g_strdup_printf(
			_("All %" PRIu64
			  " MiB of free space kept what was written, but it ends at %" PRIu64
			  " of %" PRIu64 " MiB; free some space and check again"),
			total / SDT_CHECK_MIB,
			self->wrap_bound / SDT_CHECK_MIB,
			self->claim / SDT_CHECK_MIB);
	} else {
		self->genuine_reason = g_strdup_printf(
			_("All %" PRIu64 " MiB of free space kept what was written"),
			total / SDT_CHECK_MIB);
	}
}

gboolean
sdt_check_full(SdtCheck *self, GError **error)
{
	guint64 total;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	/* after the probe (sdt_check_write_phase()), which reserved the space and
	 * showed that no address up to self->wrap_bound is an alias */
	total = 0;
	for (guint e = 0; e < self->extents->len; e++) {
		const SdtCheckExtent *ext = &g_array_index(self->extents, SdtCheckExtent, e);
		if (ext->start < self->wrap_bound)
			total += MIN(ext->len, self->wrap_bound - ext->start);
	}
	if (!sdt_check_full_pass(self, 0, total, 0.1, 0.45, &self->write_mb_s, error) ||
	    !sdt_check_full_pass(self, 1, total, 0.1, 0.45, &self->read_mb_s, error))
		return FALSE;
	sdt_check_full_conclude(self, total);
	return TRUE;
}

/* ---- a whole card given up ---- */

/* the verdict from every block: a wrap's real size is the least distance a block
 * showed up lower at (the alias written last holds each of its places); a drop or an
 * error, the verified blocks below the first bad one */
static void
sdt_check_full_device_conclude(SdtCheck *self, guint64 end)
{
	if (self->wrap_seen != G_MAXUINT64) {
		guint64 real = self->wrap_seen / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
		self->failure = "wrap";
		self->estimate = self->at_least = self->at_most = self->first_bad = real;
		/* below the real size is the card's own memory: each place holds what was
		 * written to it last, the block of an address a multiple of it higher */
		for (guint i = 0; i < self->probed->len; i++) {
			SdtCheckProbed *p = &g_array_index(self->probed, SdtCheckProbed, i);
			if (p->at < real && g_strcmp0(p->state, "wrap") == 0)
				p->state = "ok";
		}
	} else if (self->failure != NULL) {
		self->at_least = self->last_good + SDT_CHECK_BLOCK <= self->first_bad &&
						 self->verified_bytes > 0
					 ? self->last_good + SDT_CHECK_BLOCK
					 : 0;
		self->at_most = self->first_bad;
		self->estimate = self->at_least;
	} else {
		/* every address kept its own block: nothing wraps, nothing dropped */
		self->top_done = TRUE;
		self->genuine_reason = g_strdup_printf(_("Every block of the card's %" PRIu64
							 " MiB was written and read back right"),
						       end / SDT_CHECK_MIB);
	}
	if (self->failure != NULL)
		self->reason = sdt_check_write_reason(self, self->failure);
	g_ptr_array_add(self->notes,
			g_strdup(_("The full check wrote over every block: the card now holds no "
				   "data. Make a new partition table on it, or write an image to "
				   "it, before you use it")));
}

gboolean
sdt_check_full_device(SdtCheck *self, GError **error)
{
	guint64 end;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL && self->whole_device, FALSE);

	end = self->claim / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
	/* the caller named the device twice; never without it (sdt_ops_check_device) */
	if (!self->config->destroy_data) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("The full check of %s overwrites everything on it; it needs a "
			      "confirmation that names the device"),
			    self->disk_node);
		return FALSE;
	}
	/* the whole card is the one extent, and every address may be written: what an
	 * alias hits is given up too, so no journal and no bound */
	if (!sdt_check_device_reserve(self, error))
		return FALSE;
	self->wrap_bound = end;
	if (!sdt_check_full_pass(self, 0, end, 0.0, 0.5, &self->write_mb_s, error) ||
	    !sdt_check_full_pass(self, 1, end, 0.0, 0.5, &self->read_mb_s, error))
		return FALSE;
	sdt_check_full_device_conclude(self, end);
	return TRUE;
}
