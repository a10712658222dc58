/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <gio/gunixfdlist.h>
#include <glib/gi18n.h>
#include <unistd.h>

#include "sdt-inhibit.h"

/* shared by the job and the pending call; the last one out frees it */
struct _SdtInhibit {
	gint fd;
	gboolean released;
	gchar *why;
};

static void
sdt_inhibit_clear(SdtInhibit *self)
{
	if (self->fd >= 0) {
		close(self->fd);
		g_debug("logind inhibitor released: %s", self->why);
	}
	g_free(self->why);
}

static void
sdt_inhibit_done_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtInhibit *self = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GUnixFDList) fds = NULL;
	g_autoptr(GVariant) reply =
		g_dbus_connection_call_with_unix_fd_list_finish(G_DBUS_CONNECTION(source),
								&fds,
								res,
								&error);
	gint32 handle = -1;

	if (reply == NULL) {
		g_message("no logind inhibitor: a shutdown or suspend is not held off while "
			  "this runs (%s); the job goes on",
			  error->message);
	} else {
		g_variant_get(reply, "(h)", &handle);
		if (fds != NULL && handle >= 0 && handle < g_unix_fd_list_get_length(fds))
			self->fd = g_unix_fd_list_get(fds, handle, &error);
		if (self->fd < 0)
			g_message("logind sent no inhibitor: a shutdown or suspend is not "
				  "held off while this runs");
		else if (!self->released)
			g_message("logind inhibitor held (shutdown:sleep, block): %s", self->why);
	}
	g_rc_box_release_full(self, (GDestroyNotify) sdt_inhibit_clear);
}

SdtInhibit *
sdt_inhibit_take(GDBusConnection *bus, const gchar *why)
{
	SdtInhibit *self = g_rc_box_new0(SdtInhibit);

	self->fd = -1;
	self->why = g_strdup(why);
	if (bus == NULL)
		return self;
	g_dbus_connection_call_with_unix_fd_list(
		bus,
		"org.freedesktop.login1",
		"/org/freedesktop/login1",
		"org.freedesktop.login1.Manager",
		"Inhibit",
		g_variant_new("(ssss)", "shutdown:sleep", "SD Tuner", why, "block"),
		G_VARIANT_TYPE("(h)"),
		G_DBUS_CALL_FLAGS_NO_AUTO_START,
		10 * 1000,
		NULL,
		NULL,
		sdt_inhibit_done_cb,
		g_rc_box_acquire(self));
	return self;
}

void
sdt_inhibit_release(SdtInhibit *self)
{
	if (self == NULL)
		return;
	self->released = TRUE;
	if (self->fd >= 0) {
		close(self->fd);
		self->fd = -1;
		g_message("logind inhibitor released: %s", self->why);
	}
	g_rc_box_release_full(self, (GDestroyNotify) sdt_inhibit_clear);
}
