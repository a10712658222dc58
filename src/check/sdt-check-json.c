/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "sdt-check-private.h"
#include "sdt-check-result.h"

/* did the probe reach far enough to call the card genuine? */
static gboolean
sdt_check_reached_top(SdtCheck *self)
{
	guint64 end = self->claim / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;

	/* no tolerance: the top run reached the card's last block and the wrap
	 * search excluded every size below the claim (sdt-check-write) */
	return self->top_done && self->wrap_bound >= end && self->good_top + SDT_CHECK_BLOCK >= end;
}

/* what stopped a "genuine", in words a user can act on */
static gchar *
sdt_check_short_reason(SdtCheck *self)
{
	guint64 reached = MIN(self->good_top + SDT_CHECK_BLOCK, self->wrap_bound);

	return g_strdup_printf(
		_("The check could only test the card up to %" PRIu64 " of %" PRIu64
		  " MiB, because the free space on it ends there. Up to there the card is "
		  "sound. To test the rest, make room: copy large files you can spare to "
		  "another disk and delete them from the card (about %" PRIu64
		  " MiB more), then check again"),
		reached / SDT_CHECK_MIB,
		self->claim / SDT_CHECK_MIB,
		(self->claim - MIN(self->claim, reached)) / SDT_CHECK_MIB + 1);
}

/* "fake", "genuine" or "undetermined"; gives the verdict a reason when it has none */
static const gchar *
sdt_check_verdict(SdtCheck *self)
{
	if (self->failure != NULL)
		return "fake";
	if (self->reason == NULL && sdt_check_reached_top(self)) {
		if (self->genuine_reason != NULL)
			self->reason = g_steal_pointer(&self->genuine_reason);
		else
			self->reason = g_strdup_printf(
				_("Every tested block up to %" PRIu64
				  " MiB kept what was written, and the card's addresses do not "
				  "wrap around"),
				(self->good_top + SDT_CHECK_BLOCK) / SDT_CHECK_MIB);
		return "genuine";
	}
	if (self->reason == NULL)
		self->reason = sdt_check_short_reason(self);
	return "undetermined";
}

/* the share of the card's address space the check saw */
static gdouble
sdt_check_coverage(SdtCheck *self)
{
	guint covered = 0;

	if (self->config->mode == SDT_CHECK_MODE_FULL && self->claim > 0)
		return (gdouble) self->verified_bytes / self->claim;
	for (guint i = 0; i < SDT_CHECK_STRATA; i++)
		covered += self->strata[i] ? 1 : 0;
	return (gdouble) covered / SDT_CHECK_STRATA;
}

/* @value when the card is fake, else unknown */
static gdouble
sdt_check_fake_bytes(SdtCheck *self, guint64 value)
{
	return self->failure != NULL ? (gdouble) value : NAN;
}

static void
sdt_check_fill_target(SdtCheckResultTarget *t, SdtCheck *self)
{
	t->path = g_strdup(self->dir);
	t->device = g_strdup(self->device);
	t->disk = g_strdup(self->disk_node);
	t->filesystem = g_strdup(self->filesystem);
	t->stand_in = self->config->stand_in;
	t->whole_device = self->whole_device;
}

static void
sdt_check_fill_samples(SdtCheckResultSamples *s, SdtCheck *self)
{
	s->read = self->n_read;
	s->written = self->n_written;
	s->bad = self->n_bad;
	s->top_verified = self->n_top_verified;
	s->restored = self->n_restored;
	s->verified_up_to = (gint64) (self->good_top > 0 ? self->good_top + SDT_CHECK_BLOCK : 0);
	s->no_wrap_up_to = (gint64) self->wrap_bound;
}

static void
sdt_check_fill_notes(GPtrArray *notes, SdtCheck *self)
{
	if (self->config->stand_in)
		g_ptr_array_add(notes,
				g_strdup(_("Stand-in: this checked the file system given with "
					   "--dir, not the SD card")));
	for (guint i = 0; i < self->notes->len; i++)
		g_ptr_array_add(notes, g_strdup(g_ptr_array_index(self->notes, i)));
}

static SdtCheckResult *
sdt_check_json_result(SdtCheck *self)
{
	SdtCheckResult *r = sdt_check_result_new();
	const gchar *verdict = sdt_check_verdict(self);
	gboolean full = self->config->mode == SDT_CHECK_MODE_FULL;

	r->verdict = g_strdup(verdict);
	r->mode = g_strdup(full ? "full" : "quick");
	r->claimed_bytes = (gint64) self->claim;
	r->estimated_capacity_bytes = sdt_check_fake_bytes(self, self->estimate);
	r->capacity_at_least_bytes = sdt_check_fake_bytes(self, self->at_least);
	r->capacity_at_most_bytes = sdt_check_fake_bytes(self, self->at_most);
	r->first_bad_offset = sdt_check_fake_bytes(self, self->first_bad);
	r->failure = g_strdup(self->failure);
	r->coverage = sdt_check_coverage(self);
	r->reason = g_strdup(self->reason);
	r->seconds = (gdouble) (g_get_monotonic_time() - self->started) / G_USEC_PER_SEC;
	sdt_check_fill_target(&r->target, self);
	r->reserved_bytes = (gint64) self->reserved;
	r->reserved_top_offset = (gint64) self->reserved_top;
	if (full) {
		r->write_mb_s = self->write_mb_s;
		r->read_mb_s = self->read_mb_s;
	}
	sdt_check_fill_samples(&r->samples, self);
	if (self->cache_probed) {
		r->cache_flushed_bytes = (gint64) self->cache_flushed;
		if (self->cache_at_most > 0) {
			r->cache_at_least_bytes = (gdouble) self->cache_at_least;
			r->cache_at_most_bytes = (gdouble) self->cache_at_most;
		}
	}
	sdt_check_fill_notes(r->notes, self);
	if (self->whole_device) {
		g_ptr_array_unref(r->map);
		r->map = sdt_check_device_map(self);
	}
	return r;
}

SdtCheckResult *
sdt_check_json_build(SdtCheck *self)
{
	g_return_val_if_fail(self != NULL, NULL);

	return sdt_check_json_result(self);
}
