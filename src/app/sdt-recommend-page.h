/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SDT_TYPE_RECOMMEND_PAGE (sdt_recommend_page_get_type())
G_DECLARE_FINAL_TYPE(SdtRecommendPage, sdt_recommend_page, SDT, RECOMMEND_PAGE, GtkBox)

/* the explanation, the exact lines, Apply, Reboot now and Revert */

G_END_DECLS
