/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SDT_TYPE_APPLICATION (sdt_application_get_type())
G_DECLARE_FINAL_TYPE(SdtApplication, sdt_application, SDT, APPLICATION, GtkApplication)

/* the single-instance application org.example.SdTuner */
SdtApplication *sdt_application_new(void);

G_END_DECLS
