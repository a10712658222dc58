/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-dbus-generated.h"

G_BEGIN_DECLS

#define SDT_TYPE_OVERVIEW_PAGE (sdt_overview_page_get_type())
G_DECLARE_FINAL_TYPE(SdtOverviewPage, sdt_overview_page, SDT, OVERVIEW_PAGE, GtkBox)

/* the board, the card with its class badges, the bus, the SD lines of config.txt */
void sdt_overview_page_set_manager(SdtOverviewPage *self, SdtManager *manager);
void sdt_overview_page_set_simulated(SdtOverviewPage *self, gboolean simulated);
void sdt_overview_page_refresh(SdtOverviewPage *self);

G_END_DECLS
