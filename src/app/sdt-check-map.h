/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-client-check-map.h"

G_BEGIN_DECLS

#define SDT_TYPE_CHECK_MAP (sdt_check_map_get_type())
G_DECLARE_FINAL_TYPE(SdtCheckMap, sdt_check_map, SDT, CHECK_MAP, GtkDrawingArea)

/*
 * The map of a whole card a check wrote (issue 34), as a picture: a bar as wide as the
 * card claims to be, from its start on the left, one cell per run of the map scaled along
 * it, a colour per state, and a legend under it.  Its accessible name is "Map of the
 * card", its description the map in words (sdt_client_check_map_describe()).  Drawn only
 * when GTK asks (no timer).
 */
GtkWidget *sdt_check_map_new(void);

/* shows @map (copied); NULL or an empty map clears it */
void sdt_check_map_set_map(SdtCheckMap *self, const SdtClientCheckMap *map);

G_END_DECLS
