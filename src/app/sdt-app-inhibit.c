/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-app-inhibit.h"
#include "sdt-logind.h"

/* one per kind: logind 252 checks a "shutdown:sleep" request against polkit's
 * inhibit-handle-lid-switch action (its last case), not the two it names */
static const gchar *const sdt_app_inhibit_whats[] = {"sleep", "shutdown"};

/* the app's policy: "block", then "delay" if logind refuses that; the call, the fd
 * and what logind's answer means are sdt-logind.c's */
struct _SdtAppInhibit {
	GtkApplication *app;
	guint cookie;
	gchar *why;
	SdtLogindInhibitor *logind[G_N_ELEMENTS(sdt_app_inhibit_whats)];
};

static void sdt_app_inhibit_ask(SdtAppInhibit *self, gsize i, const gchar *mode);

static void
sdt_app_inhibit_answer_cb(SdtLogindInhibitor *logind,
			  SdtLogindAnswer answer,
			  const GError *error,
			  gpointer user_data)
{
	SdtAppInhibit *self = user_data;
	const gchar *what = sdt_logind_inhibitor_get_what(logind);
	const gchar *mode = sdt_logind_inhibitor_get_mode(logind);
	gsize i = 0;

	while (i < G_N_ELEMENTS(self->logind) - 1 && self->logind[i] != logind)
		i++;

	if (answer == SDT_LOGIND_ANSWER_HELD) {
		g_debug("logind inhibitor held (%s, %s, fd %d)",
			what,
			mode,
			sdt_logind_inhibitor_get_fd(logind));
	} else if (answer == SDT_LOGIND_ANSWER_REFUSED && g_strcmp0(mode, "block") == 0) {
		/* logind answered no (AccessDenied, InteractiveAuthorizationRequired): outside
		 * a local session polkit gives only the delay kind */
		g_debug("logind refused to block %s (%s); taking a delay inhibitor",
			what,
			error->message);
		g_clear_pointer(&self->logind[i], sdt_logind_inhibitor_release);
		sdt_app_inhibit_ask(self, i, "delay");
	} else {
		g_debug("no logind inhibitor for %s: %s", what, error->message);
	}
}

/* on the system bus, connected asynchronously: the app's own connection is to the
 * helper and may be another bus (sdt-client.c) */
static void
sdt_app_inhibit_ask(SdtAppInhibit *self, gsize i, const gchar *mode)
{
	SdtLogindRequest request = {
		sdt_app_inhibit_whats[i],
		g_get_application_name(),
		self->why,
		mode,
		-1,
	};

	self->logind[i] = sdt_logind_inhibitor_new(NULL, &request, sdt_app_inhibit_answer_cb, self);
}

SdtAppInhibit *
sdt_app_inhibit_new(GtkWindow *window, const gchar *why)
{
	SdtAppInhibit *self = g_new0(SdtAppInhibit, 1);
	GtkApplication *app = window != NULL ? gtk_window_get_application(window) : NULL;

	/* a session manager (GNOME's, Xfce's, or a portal) where there is one; 0 if none */
	if (app != NULL) {
		self->app = g_object_ref(app);
		self->cookie = gtk_application_inhibit(app,
						       window,
						       GTK_APPLICATION_INHIBIT_SUSPEND |
							       GTK_APPLICATION_INHIBIT_LOGOUT,
						       why);
		g_debug("session inhibit cookie %u", self->cookie);
	}
	/* logind, which every Raspberry Pi OS has, desktop or Lite */
	self->why = g_strdup(why);
	for (gsize i = 0; i < G_N_ELEMENTS(self->logind); i++)
		sdt_app_inhibit_ask(self, i, "block");
	return self;
}

void
sdt_app_inhibit_free(SdtAppInhibit *self)
{
	if (self == NULL)
		return;
	if (self->app != NULL && self->cookie != 0)
		gtk_application_uninhibit(self->app, self->cookie);
	g_clear_object(&self->app);
	/* a call in flight closes the fd it gets; one held is closed now */
	for (gsize i = 0; i < G_N_ELEMENTS(self->logind); i++) {
		if (self->logind[i] != NULL && sdt_logind_inhibitor_get_fd(self->logind[i]) >= 0)
			g_debug("logind inhibitor released (%s, fd %d)",
				sdt_app_inhibit_whats[i],
				sdt_logind_inhibitor_get_fd(self->logind[i]));
		g_clear_pointer(&self->logind[i], sdt_logind_inhibitor_release);
	}
	g_free(self->why);
	g_free(self);
}
