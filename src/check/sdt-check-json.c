/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>

#include "sdt-check-private.h"

/* did the probe reach far enough to call the card genuine? */
static gboolean
sdt_check_reached_top(SdtCheck *self)
{
	guint64 top = (guint64) (self->claim * SDT_CHECK_TOP_SHARE);

	if (self->config->mode == SDT_CHECK_MODE_FULL && self->genuine_reason != NULL)
		return self->wrap_bound >= top;
	return self->wrap_bound >= top && self->good_top >= top;
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

/* @value when the card is fake, else null */
static void
sdt_check_add_fake_int(JsonBuilder *b, SdtCheck *self, const gchar *name, guint64 value)
{
	json_builder_set_member_name(b, name);
	if (self->failure != NULL)
		json_builder_add_int_value(b, (gint64) value);
	else
		json_builder_add_null_value(b);
}

static void
sdt_check_add_target(JsonBuilder *b, SdtCheck *self)
{
	json_builder_set_member_name(b, "target");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "path");
	json_builder_add_string_value(b, self->dir);
	json_builder_set_member_name(b, "device");
	json_builder_add_string_value(b, self->device);
	json_builder_set_member_name(b, "disk");
	json_builder_add_string_value(b, self->disk_node);
	json_builder_set_member_name(b, "filesystem");
	json_builder_add_string_value(b, self->filesystem);
	json_builder_set_member_name(b, "stand_in");
	json_builder_add_boolean_value(b, self->config->stand_in);
	json_builder_end_object(b);
}

static void
sdt_check_add_samples(JsonBuilder *b, SdtCheck *self)
{
	json_builder_set_member_name(b, "samples");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "read");
	json_builder_add_int_value(b, self->n_read);
	json_builder_set_member_name(b, "written");
	json_builder_add_int_value(b, self->n_written);
	json_builder_set_member_name(b, "bad");
	json_builder_add_int_value(b, self->n_bad);
	json_builder_set_member_name(b, "top_verified");
	json_builder_add_int_value(b, self->n_top_verified);
	json_builder_set_member_name(b, "restored");
	json_builder_add_int_value(b, self->n_restored);
	json_builder_set_member_name(b, "verified_up_to");
	json_builder_add_int_value(
		b,
		(gint64) (self->good_top > 0 ? self->good_top + SDT_CHECK_BLOCK : 0));
	json_builder_set_member_name(b, "no_wrap_up_to");
	json_builder_add_int_value(b, (gint64) self->wrap_bound);
	json_builder_end_object(b);
}

static void
sdt_check_add_notes(JsonBuilder *b, SdtCheck *self)
{
	json_builder_set_member_name(b, "notes");
	json_builder_begin_array(b);
	if (self->config->stand_in)
		json_builder_add_string_value(
			b,
			_("Stand-in: this checked the file system given with --dir, not the SD "
			  "card"));
	for (guint i = 0; i < self->notes->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(self->notes, i));
	json_builder_end_array(b);
}

JsonNode *
sdt_check_json_build(SdtCheck *self)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	const gchar *verdict = sdt_check_verdict(self);
	gboolean full = self->config->mode == SDT_CHECK_MODE_FULL;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "verdict");
	json_builder_add_string_value(b, verdict);
	json_builder_set_member_name(b, "mode");
	json_builder_add_string_value(b, full ? "full" : "quick");
	json_builder_set_member_name(b, "claimed_bytes");
	json_builder_add_int_value(b, (gint64) self->claim);
	sdt_check_add_fake_int(b, self, "estimated_capacity_bytes", self->estimate);
	sdt_check_add_fake_int(b, self, "capacity_at_least_bytes", self->at_least);
	sdt_check_add_fake_int(b, self, "capacity_at_most_bytes", self->at_most);
	sdt_check_add_fake_int(b, self, "first_bad_offset", self->first_bad);
	json_builder_set_member_name(b, "failure");
	if (self->failure != NULL)
		json_builder_add_string_value(b, self->failure);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "coverage");
	json_builder_add_double_value(b, sdt_check_coverage(self));
	json_builder_set_member_name(b, "reason");
	json_builder_add_string_value(b, self->reason);
	json_builder_set_member_name(b, "seconds");
	json_builder_add_double_value(b,
				      (gdouble) (g_get_monotonic_time() - self->started) /
					      G_USEC_PER_SEC);
	sdt_check_add_target(b, self);
	json_builder_set_member_name(b, "reserved_bytes");
	json_builder_add_int_value(b, (gint64) self->reserved);
	json_builder_set_member_name(b, "reserved_top_offset");
	json_builder_add_int_value(b, (gint64) self->reserved_top);
	if (full) {
		json_builder_set_member_name(b, "write_mb_s");
		json_builder_add_double_value(b, self->write_mb_s);
		json_builder_set_member_name(b, "read_mb_s");
		json_builder_add_double_value(b, self->read_mb_s);
	}
	sdt_check_add_samples(b, self);
	sdt_check_add_notes(b, self);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}
