/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SDT_TYPE_HISTORY_PAGE (sdt_history_page_get_type())
G_DECLARE_FINAL_TYPE(SdtHistoryPage, sdt_history_page, SDT, HISTORY_PAGE, GtkBox)

/* before/after chart of the benchmarks around the last change, and the log */

G_END_DECLS
