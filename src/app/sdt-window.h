/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-dbus-generated.h"
#include "sdt-user-error.h"

G_BEGIN_DECLS

#define SDT_TYPE_WINDOW (sdt_window_get_type())
G_DECLARE_FINAL_TYPE(SdtWindow, sdt_window, SDT, WINDOW, GtkApplicationWindow)

SdtWindow *sdt_window_new(GtkApplication *app);

/* the info bar at the top: an error with what to do, or a plain notice */
void sdt_window_show_error(SdtWindow *self, SdtUserAction action, const GError *error);
void sdt_window_show_notice(SdtWindow *self, GtkMessageType type, const gchar *text);
void sdt_window_hide_message(SdtWindow *self);

/* the board's model from GetInfo: the simulated banner names it */
void sdt_window_set_board_model(SdtWindow *self, const gchar *model);
const gchar *sdt_window_get_board_model(SdtWindow *self);

/* the helper's Simulated property, remembered while it is idle-stopped */
gboolean sdt_window_get_simulated(SdtWindow *self);

/* read the helper's state again on every page (after apply, revert, a benchmark) */
void sdt_window_refresh(SdtWindow *self);

/* the window that holds @widget, or NULL while it is not in one */
SdtWindow *sdt_window_from_widget(GtkWidget *widget);

G_END_DECLS
