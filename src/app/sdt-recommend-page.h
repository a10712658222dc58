/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-dbus-generated.h"

G_BEGIN_DECLS

#define SDT_TYPE_RECOMMEND_PAGE (sdt_recommend_page_get_type())
G_DECLARE_FINAL_TYPE(SdtRecommendPage, sdt_recommend_page, SDT, RECOMMEND_PAGE, GtkBox)

/* the explanation, the exact lines, Apply, Reboot now and Revert */
void sdt_recommend_page_set_manager(SdtRecommendPage *self, SdtManager *manager);
void sdt_recommend_page_refresh(SdtRecommendPage *self);

G_END_DECLS
