/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
	gchar *label;       /* "C10", "U1", "V30", "A2" */
	gchar *explanation; /* one plain-language line */
} SdtCardBadge;

/*
 * The class marks printed on a card, from the SD Status register values in
 * `info --json` (card.speed_class, uhs_grade, video_class, app_class), in the
 * order they appear on a label.  A class of 0 (none, or unknown) gives no
 * badge.  @has_cq is whether this host runs the card with command queueing;
 * it changes what an A2 mark is worth.  The array frees its badges.
 */
GPtrArray *sdt_card_badges_new(gint64 speed_class,
			       gint64 uhs_grade,
			       gint64 video_class,
			       gint64 app_class,
			       gboolean has_cq);

G_END_DECLS
