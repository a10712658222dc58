/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SDT_TYPE_HEALTH_PAGE (sdt_health_page_get_type())
G_DECLARE_FINAL_TYPE(SdtHealthPage, sdt_health_page, SDT, HEALTH_PAGE, GtkBox)

/*
 * Is the card genuine (register plausibility from GetHealth, and the quick or
 * full check as a StartCheck job with progress and Stop), and how worn is it
 * (GetHealth's figures)?  Construct-only property "session" (SdtSession).
 */

G_END_DECLS
