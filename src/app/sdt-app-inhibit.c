/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <gio/gunixfdlist.h>
#include <unistd.h>

#include "sdt-app-inhibit.h"

/* one inhibitor, shared by the handle and a logind call in flight */
typedef struct {
	const gchar *what; /* "sleep" or "shutdown" */
	gchar *why;
	const gchar *mode; /* "block", then "delay" if logind refuses that */
	GCancellable *cancellable;
	gint fd;         /* logind's inhibitor; -1 until it answers */
	gboolean closed; /* the handle was freed: a late fd is closed at once */
} SdtAppInhibitLogind;

/* one per kind: logind 252 checks a "shutdown:sleep" request against polkit's
 * inhibit-handle-lid-switch action (its last case), not the two it names */
static const gchar *const sdt_app_inhibit_whats[] = {"sleep", "shutdown"};

struct _SdtAppInhibit {
	GtkApplication *app;
	guint cookie;
	SdtAppInhibitLogind *logind[G_N_ELEMENTS(sdt_app_inhibit_whats)];
};

static void
sdt_app_inhibit_logind_clear(SdtAppInhibitLogind *logind)
{
	if (logind->fd >= 0)
		close(logind->fd);
	g_free(logind->why);
	g_clear_object(&logind->cancellable);
}

static void
sdt_app_inhibit_logind_unref(SdtAppInhibitLogind *logind)
{
	g_rc_box_release_full(logind, (GDestroyNotify) sdt_app_inhibit_logind_clear);
}

static void sdt_app_inhibit_logind_call(SdtAppInhibitLogind *logind, GDBusConnection *bus);

static void
sdt_app_inhibit_logind_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtAppInhibitLogind *logind = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GUnixFDList) fds = NULL;
	g_autoptr(GVariant) reply =
		g_dbus_connection_call_with_unix_fd_list_finish(G_DBUS_CONNECTION(source),
								&fds,
								res,
								&error);
	gint32 index = -1;

	if (reply != NULL && fds != NULL) {
		g_variant_get(reply, "(h)", &index);
		logind->fd = g_unix_fd_list_get(fds, index, &error);
	}
	if (logind->fd >= 0) {
		g_debug("logind inhibitor held (%s, %s, fd %d)",
			logind->what,
			logind->mode,
			logind->fd);
		if (logind->closed) {
			close(logind->fd);
			logind->fd = -1;
		}
	} else if (!logind->closed && g_strcmp0(logind->mode, "block") == 0 &&
		   g_dbus_error_is_remote_error(error)) {
		/* logind answered no (AccessDenied, InteractiveAuthorizationRequired): outside
		 * a local session polkit gives only the delay kind */
		g_debug("logind refused to block %s (%s); taking a delay inhibitor",
			logind->what,
			error->message);
		logind->mode = "delay";
		sdt_app_inhibit_logind_call(logind, G_DBUS_CONNECTION(source));
	} else if (error != NULL) {
		g_debug("no logind inhibitor for %s: %s", logind->what, error->message);
	}
	sdt_app_inhibit_logind_unref(logind);
}

static void
sdt_app_inhibit_logind_call(SdtAppInhibitLogind *logind, GDBusConnection *bus)
{
	g_dbus_connection_call_with_unix_fd_list(bus,
						 "org.freedesktop.login1",
						 "/org/freedesktop/login1",
						 "org.freedesktop.login1.Manager",
						 "Inhibit",
						 g_variant_new("(ssss)",
							       logind->what,
							       g_get_application_name(),
							       logind->why,
							       logind->mode),
						 G_VARIANT_TYPE("(h)"),
						 G_DBUS_CALL_FLAGS_NO_AUTO_START,
						 -1,
						 NULL,
						 logind->cancellable,
						 sdt_app_inhibit_logind_cb,
						 g_rc_box_acquire(logind));
}

static void
sdt_app_inhibit_bus_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtAppInhibitLogind *logind = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) bus = g_bus_get_finish(res, &error);

	if (bus == NULL)
		g_debug("no logind inhibitor: %s", error->message);
	else if (!logind->closed)
		sdt_app_inhibit_logind_call(logind, bus);
	sdt_app_inhibit_logind_unref(logind);
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
	for (gsize i = 0; i < G_N_ELEMENTS(self->logind); i++) {
		SdtAppInhibitLogind *logind = g_rc_box_new0(SdtAppInhibitLogind);

		logind->what = sdt_app_inhibit_whats[i];
		logind->fd = -1;
		logind->why = g_strdup(why);
		logind->mode = "block";
		logind->cancellable = g_cancellable_new();
		g_bus_get(G_BUS_TYPE_SYSTEM,
			  logind->cancellable,
			  sdt_app_inhibit_bus_cb,
			  g_rc_box_acquire(logind));
		self->logind[i] = logind;
	}
	return self;
}

static void
sdt_app_inhibit_logind_release(SdtAppInhibitLogind *logind)
{
	/* a call in flight closes the fd it gets; one held is closed now */
	logind->closed = TRUE;
	g_cancellable_cancel(logind->cancellable);
	if (logind->fd >= 0) {
		g_debug("logind inhibitor released (%s, fd %d)", logind->what, logind->fd);
		close(logind->fd);
		logind->fd = -1;
	}
	sdt_app_inhibit_logind_unref(logind);
}

void
sdt_app_inhibit_free(SdtAppInhibit *self)
{
	if (self == NULL)
		return;
	if (self->app != NULL && self->cookie != 0)
		gtk_application_uninhibit(self->app, self->cookie);
	g_clear_object(&self->app);
	for (gsize i = 0; i < G_N_ELEMENTS(self->logind); i++)
		sdt_app_inhibit_logind_release(self->logind[i]);
	g_free(self);
}
