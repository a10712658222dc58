/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * The header bar, the info bar, the simulated-board banner and the pages.
 * The window owns the SdtSession the pages share and shows what it reports;
 * no page calls the window.
 */
#define SDT_TYPE_WINDOW (sdt_window_get_type())
G_DECLARE_FINAL_TYPE(SdtWindow, sdt_window, SDT, WINDOW, GtkApplicationWindow)

SdtWindow *sdt_window_new(GtkApplication *app);

G_END_DECLS
