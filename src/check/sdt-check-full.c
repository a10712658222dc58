/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <inttypes.h>
#include <unistd.h>

#include "sdt-check-private.h"
#include "sdt-error.h"

static void
sdt_check_full_write_chunk(SdtCheck *self, guint64 at, gsize len)
{
	for (gsize k = 0; k < len; k += SDT_CHECK_BLOCK)
		sdt_check_block_fill(self->buf + k, self->seed, at + k);
	if (sdt_check_block_pwrite(self, self->buf, len, at) != 0) {
		sdt_check_block_set_bad(self, "io-error", at);
		self->n_bad++;
	} else {
		self->n_written += (guint) (len / SDT_CHECK_BLOCK);
	}
}

static void
sdt_check_full_verify_chunk(SdtCheck *self, guint64 at, gsize len)
{
	if (sdt_check_block_pread(self, self->buf, len, at) != 0) {
		sdt_check_block_set_bad(self, "io-error", at);
		self->n_bad++;
		return;
	}
	for (gsize k = 0; k < len; k += SDT_CHECK_BLOCK) {
		guint64 other = 0;
		SdtCheckBlockState st =
			sdt_check_block_classify(self, self->buf + k, at + k, &other);
		if (st == SDT_CHECK_BLOCK_OK) {
			self->verified_bytes += SDT_CHECK_BLOCK;
			sdt_check_block_mark(self, at + k, TRUE);
			continue;
		}
		self->n_bad++;
		if (st == SDT_CHECK_BLOCK_OVERWRITTEN && other > at + k)
			sdt_check_block_set_bad(self, "wrap", at + k);
		else if (st == SDT_CHECK_BLOCK_LOST)
			sdt_check_block_set_bad(self, "lost-writes", at + k);
		else
			sdt_check_block_set_bad(self, "corrupted", at + k);
	}
}

/* pass 0 writes every reserved block, pass 1 reads them back; the pass's rate */
static gboolean
sdt_check_full_pass(SdtCheck *self, gint pass, guint64 total, gdouble *rate, GError **error)
{
	gint64 t0 = g_get_monotonic_time();
	guint64 done = 0;
	gdouble secs;

	for (guint e = 0; e < self->extents->len; e++) {
		const SdtCheckExtent *ext = &g_array_index(self->extents, SdtCheckExtent, e);
		for (guint64 off = 0; off < ext->len; off += SDT_CHECK_FULL_IO) {
			guint64 at = ext->start + off;
			gsize len = (gsize) MIN((guint64) SDT_CHECK_FULL_IO, ext->len - off);
			/* never above what the probe showed is not an alias */
			if (at >= self->wrap_bound)
				break;
			len = (gsize) MIN((guint64) len, self->wrap_bound - at);
			secs = (gdouble) (g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
			if (pass == 0)
				sdt_check_full_write_chunk(self, at, len);
			else
				sdt_check_full_verify_chunk(self, at, len);
			done += len;
			if (self->progress != NULL)
				self->progress(pass == 0 ? "write" : "verify",
					       0.1 + 0.45 * pass +
						       0.45 * (gdouble) done / MAX(total, 1),
					       secs > 0 ? done / secs / 1e6 : 0.0,
					       self->user_data);
			if (sdt_check_block_cancelled(self, error))
				return FALSE;
		}
	}
	if (pass == 0 && fdatasync(self->wfd) != 0)
		return sdt_error_set_from_errno(error,
						errno,
						_("Flushing %s failed"),
						self->disk_node);
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
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	guint64 total;

	/* after the probe (sdt_check_write_phase()), which reserved the space and
	 * showed that no address up to self->wrap_bound is an alias */
	total = 0;
	for (guint e = 0; e < self->extents->len; e++) {
		const SdtCheckExtent *ext = &g_array_index(self->extents, SdtCheckExtent, e);
		if (ext->start < self->wrap_bound)
			total += MIN(ext->len, self->wrap_bound - ext->start);
	}
	if (!sdt_check_full_pass(self, 0, total, &self->write_mb_s, error) ||
	    !sdt_check_full_pass(self, 1, total, &self->read_mb_s, error))
		return FALSE;
	sdt_check_full_conclude(self, total);
	return TRUE;
}
