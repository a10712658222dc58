/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/*
 * What the app holds while a benchmark or a card check runs: a logind inhibitor
 * (org.freedesktop.login1.Manager.Inhibit: "sleep" and "shutdown", mode block, else delay;
 * docs/ARCHITECTURE.md) and, where a session manager answers, gtk_application_inhibit().
 * sdt_app_inhibit_free() releases both: it closes logind's file descriptor (which also closes
 * when the app exits or crashes) and uninhibits. Never prompts for a password, never
 * fails the job: without logind or without permission it only says so in the debug log.
 */
typedef struct _SdtAppInhibit SdtAppInhibit;

SdtAppInhibit *sdt_app_inhibit_new(GtkWindow *window, const gchar *why);
void sdt_app_inhibit_free(SdtAppInhibit *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtAppInhibit, sdt_app_inhibit_free)

G_END_DECLS
