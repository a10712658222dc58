/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <errno.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sdt-check-private.h"
#include "sdt-error.h"
#include "sdt-file.h"

void
sdt_check_block_init(SdtCheck *self,
		     const gchar *dir,
		     const SdtCheckConfig *config,
		     SdtBenchProgressFunc progress,
		     gpointer user_data,
		     GCancellable *cancellable)
{
	memset(self, 0, sizeof(*self));
	self->config = config;
	self->progress = progress;
	self->user_data = user_data;
	self->cancellable = cancellable;
	self->rfd = -1;
	self->wfd = -1;
	self->file_fd = -1;
	self->freeze_fd = -1;
	self->watch_fd = -1;
	self->watch_pid = -1;
	self->first_bad = G_MAXUINT64;
	self->wrap_seen = G_MAXUINT64;
	self->flush_bytes = SDT_CHECK_FLUSH;
	self->started = g_get_monotonic_time();
	self->dir = g_strdup(dir);
	self->notes = g_ptr_array_new_with_free_func(g_free);
	self->probed = g_array_new(FALSE, FALSE, sizeof(SdtCheckProbed));
	/* O_DIRECT needs aligned buffers */
	self->buf = g_aligned_alloc(1, SDT_CHECK_FULL_IO + SDT_CHECK_BLOCK, SDT_CHECK_BLOCK);
	self->expect = self->buf + SDT_CHECK_FULL_IO;
	self->seed = config->seed != 0 ? config->seed
				       : ((guint64) g_random_int() << 32 | g_random_int()) | 1;
	self->rand = g_rand_new_with_seed((guint32) (self->seed ^ (self->seed >> 32)));
}

void
sdt_check_block_clear(SdtCheck *self)
{
	/* never left frozen (sdt-check-target froze it); the watchdog ends with its pipe */
	if (self->frozen && ioctl(self->freeze_fd, FITHAW, 0) != 0)
		g_warning("cannot thaw the file system at %s: %s", self->dir, g_strerror(errno));
	if (self->watch_fd >= 0) {
		close(self->watch_fd);
		waitpid(self->watch_pid, NULL, 0);
	}
	if (self->freeze_fd >= 0)
		close(self->freeze_fd);
	/* the journal's copies go, unless blocks are still out */
	if (self->journal_kept)
		sdt_check_journal_places_keep(self->journal);
	else
		sdt_check_journal_places_free(self->journal);
	self->journal = NULL;
	if (self->file_fd >= 0)
		close(self->file_fd);
	if (self->rfd >= 0)
		close(self->rfd);
	if (self->wfd >= 0)
		close(self->wfd);
	g_clear_pointer(&self->buf, g_aligned_free);
	g_free(self->dir);
	g_free(self->device);
	g_free(self->disk_node);
	g_free(self->filesystem);
	g_clear_pointer(&self->candidates, g_array_unref);
	g_clear_pointer(&self->extents, g_array_unref);
	g_clear_pointer(&self->rand, g_rand_free);
	g_clear_pointer(&self->notes, g_ptr_array_unref);
	g_clear_pointer(&self->probed, g_array_unref);
	g_free(self->reason);
	g_free(self->genuine_reason);
}

/* ---- blocks ---- */

static guint64
sdt_check_mix(guint64 x)
{
	/* splitmix64 */
	x += G_GUINT64_CONSTANT(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

void
sdt_check_block_fill(guint8 *block, guint64 seed, guint64 offset)
{
	guint64 words[SDT_CHECK_BLOCK / 8];
	guint64 state = seed ^ (offset * G_GUINT64_CONSTANT(0x2545f4914f6cdd1d));

	words[0] = GUINT64_TO_LE(SDT_CHECK_MAGIC);
	words[1] = GUINT64_TO_LE(seed);
	words[2] = GUINT64_TO_LE(offset);
	for (guint i = 3; i < G_N_ELEMENTS(words); i++)
		words[i] = sdt_check_mix(state + i);
	memcpy(block, words, SDT_CHECK_BLOCK);
}

gboolean
sdt_check_block_is_uniform(const guint8 *block, gsize len)
{
	for (gsize i = 1; i < len; i++)
		if (block[i] != block[0])
			return FALSE;
	return TRUE;
}

SdtCheckBlockState
sdt_check_block_classify(SdtCheck *self, const guint8 *block, guint64 offset, guint64 *other)
{
	guint64 words[3];

	sdt_check_block_fill(self->expect, self->seed, offset);
	if (memcmp(block, self->expect, SDT_CHECK_BLOCK) == 0)
		return SDT_CHECK_BLOCK_OK;
	if (block[0] == 0 && sdt_check_block_is_uniform(block, SDT_CHECK_BLOCK))
		return SDT_CHECK_BLOCK_LOST;
	memcpy(words, block, sizeof(words));
	if (GUINT64_FROM_LE(words[0]) == SDT_CHECK_MAGIC &&
	    GUINT64_FROM_LE(words[1]) == self->seed) {
		*other = GUINT64_FROM_LE(words[2]);
		sdt_check_block_fill(self->expect, self->seed, *other);
		if (*other != offset && memcmp(block, self->expect, SDT_CHECK_BLOCK) == 0)
			return SDT_CHECK_BLOCK_OVERWRITTEN;
	}
	return SDT_CHECK_BLOCK_CORRUPT;
}

/* ---- raw I/O, progress ---- */

gboolean
sdt_check_block_cancelled(SdtCheck *self, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	if (!g_cancellable_is_cancelled(self->cancellable))
		return FALSE;
	if (self->whole_device && self->config->mode == SDT_CHECK_MODE_FULL)
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_CANCELLED,
			    _("The check was stopped; %s holds part of the test pattern and "
			      "none of its former data"),
			    self->disk_node);
	else if (self->whole_device)
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_CANCELLED,
			    _("The check was stopped; every block it wrote to %s was put back"),
			    self->disk_node);
	else
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_CANCELLED,
				    _("The check was stopped; the reserved file was removed"));
	return TRUE;
}

gint
sdt_check_block_pread(SdtCheck *self, guint8 *buf, gsize len, guint64 offset)
{
	gint rc = sdt_file_pread_all(self->rfd, buf, len, offset, NULL);

	if (rc == 0)
		self->n_read++;
	return rc;
}

gint
sdt_check_block_pwrite(SdtCheck *self, const guint8 *buf, gsize len, guint64 offset)
{
	return sdt_file_pwrite_all(self->wfd, buf, len, offset, NULL);
}

void
sdt_check_block_report(SdtCheck *self, const gchar *phase, gdouble fraction)
{
	/* not while the file system is frozen: a caller printing it to a file there
	 * would wait for the thaw, and we are the ones to thaw */
	if (self->progress != NULL && !self->frozen)
		self->progress(phase, CLAMP(fraction, 0.0, 1.0), 0.0, self->user_data);
}

/* ---- findings ---- */

void
sdt_check_block_mark(SdtCheck *self, guint64 offset, gboolean written)
{
	guint i = (guint) (offset / ((self->claim + SDT_CHECK_STRATA - 1) / SDT_CHECK_STRATA));
	if (i < SDT_CHECK_STRATA)
		self->strata[i] = TRUE;
	if (written && offset >= self->claim / 10 * 9)
		self->n_top_verified++;
	if (written) {
		SdtCheckProbed p = {offset, "ok"};
		self->good_top = MAX(self->good_top, offset);
		g_array_append_val(self->probed, p);
	}
}

void
sdt_check_block_set_bad(SdtCheck *self, const gchar *failure, guint64 offset)
{
	SdtCheckProbed p = {offset, failure};

	g_array_append_val(self->probed, p);
	if (self->failure == NULL || offset < self->first_bad) {
		self->failure = failure;
		self->first_bad = offset;
	}
}
