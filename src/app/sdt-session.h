/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-dbus-generated.h"
#include "sdt-user-error.h"

G_BEGIN_DECLS

/*
 * What the pages share, so that no page needs the window: the app's own
 * system-bus connection, the Manager proxy, the helper's Simulated flag and
 * the board's model.  The window owns the session (its template builds it
 * before the pages, which get it as their construct-only "session" property)
 * and listens to it.
 *
 * Properties: "manager" (NULL while not connected), "simulated",
 * "board-model"; each notifies when it is set.
 * Signals:
 *   changed           the helper's state may have changed: read it again
 *   service-vanished  the helper or the bus went away: a running job failed
 *   error             (SdtUserAction action, GError *error) something failed
 *   notice            (GtkMessageType type, gchar *text) tell the user
 *   dismiss           the last error or notice is no longer true
 */
#define SDT_TYPE_SESSION (sdt_session_get_type())
G_DECLARE_FINAL_TYPE(SdtSession, sdt_session, SDT, SESSION, GObject)

/* the pages' "session" property: construct-only, so a page has it from the start */
GParamSpec *sdt_session_param_spec(void);

SdtManager *sdt_session_get_manager(SdtSession *self);
gboolean sdt_session_get_simulated(SdtSession *self);
const gchar *sdt_session_get_board_model(SdtSession *self);
void sdt_session_set_board_model(SdtSession *self, const gchar *model);

/* emit "changed" when connected: every page reads the helper's state again */
void sdt_session_refresh(SdtSession *self);
/* connect when there is no connection (or it closed), else refresh */
void sdt_session_reload(SdtSession *self);

void sdt_session_report_error(SdtSession *self, SdtUserAction action, const GError *error);
void sdt_session_report_notice(SdtSession *self, GtkMessageType type, const gchar *text);
void sdt_session_dismiss(SdtSession *self);

G_END_DECLS
