/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-card-badges.h"

static void
sdt_card_badge_free(SdtCardBadge *badge)
{
	if (badge == NULL)
		return;
	g_free(badge->label);
	g_free(badge->explanation);
	g_free(badge);
}

static void
sdt_card_badges_add(GPtrArray *badges, gchar *label, gchar *explanation)
{
	SdtCardBadge *badge = g_new0(SdtCardBadge, 1);
	badge->label = label;
	badge->explanation = explanation;
	g_ptr_array_add(badges, badge);
}

GPtrArray *
sdt_card_badges_new(gint64 speed_class,
		    gint64 uhs_grade,
		    gint64 video_class,
		    gint64 app_class,
		    gboolean has_cq)
{
	GPtrArray *badges = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_card_badge_free);

	if (speed_class > 0) {
		sdt_card_badges_add(
			badges,
			g_strdup_printf("C%" G_GINT64_FORMAT, speed_class),
			/* Translators: the SD speed class; %d is 2, 4, 6 or 10 MB/s */
			g_strdup_printf(_("Writes video at %d MB/s or more"), (gint) speed_class));
	}
	if (uhs_grade > 0) {
		gint mb_s = uhs_grade >= 3 ? 30 : 10;
		sdt_card_badges_add(
			badges,
			g_strdup_printf("U%" G_GINT64_FORMAT, uhs_grade),
			/* Translators: the UHS speed grade; %d is 10 or 30 MB/s */
			g_strdup_printf(_("Writes %d MB/s or more on a fast (UHS) bus"), mb_s));
	}
	if (video_class > 0) {
		sdt_card_badges_add(
			badges,
			g_strdup_printf("V%" G_GINT64_FORMAT, video_class),
			/* Translators: the video speed class; %d is 6 to 90 MB/s */
			g_strdup_printf(_("Records video at %d MB/s or more"), (gint) video_class));
	}
	if (app_class == 1) {
		sdt_card_badges_add(badges,
				    g_strdup("A1"),
				    g_strdup(_("Runs apps: 1500 small reads and 500 small "
					       "writes per second or more")));
	} else if (app_class >= 2) {
		sdt_card_badges_add(
			badges,
			g_strdup("A2"),
			has_cq ? g_strdup(_("Runs apps: 4000 small reads and 2000 small writes "
					    "per second, with command queueing on this board"))
			       : g_strdup(_("Built for command queueing, which this board does not "
					    "use: expect A1 speeds or less")));
	}
	return badges;
}
