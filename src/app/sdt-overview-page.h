/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * The board, the card with its class badges, the bus, the SD lines of
 * config.txt.  Construct-only property "session" (SdtSession): read again on
 * its "changed", report errors through it.
 */
#define SDT_TYPE_OVERVIEW_PAGE (sdt_overview_page_get_type())
G_DECLARE_FINAL_TYPE(SdtOverviewPage, sdt_overview_page, SDT, OVERVIEW_PAGE, GtkBox)

G_END_DECLS
