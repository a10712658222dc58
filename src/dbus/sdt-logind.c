/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <gio/gunixfdlist.h>
#include <glib/gi18n.h>
#include <unistd.h>

#include "sdt-logind.h"
#include "sdt-logind-private.h"

/* shared by the caller's handle and a call in flight; the last one out frees it */
struct _SdtLogindInhibitor {
	gchar *what;
	gchar *who;
	gchar *why;
	gchar *mode;
	gint timeout_msec;
	SdtLogindAnswerFunc func;
	gpointer user_data;
	GCancellable *cancellable;
	gint fd;           /* logind's inhibitor; -1 until it answers, or none */
	gboolean released; /* the handle is gone: a late fd is closed at once */
};

SdtLogindAnswer
sdt_logind_answer_from_error(const GError *error)
{
	g_return_val_if_fail(error != NULL, SDT_LOGIND_ANSWER_FAILED);

	/* the bus's own answers: nobody owns the name (NO_AUTO_START), or it went */
	if (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
		return SDT_LOGIND_ANSWER_ABSENT;
	if (g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_TIMEOUT) ||
	    g_error_matches(error, G_DBUS_ERROR, G_DBUS_ERROR_TIMED_OUT))
		return SDT_LOGIND_ANSWER_FAILED;
	/* any other error reply is a no: polkit's, the limits', the arguments' */
	if (g_dbus_error_is_remote_error(error))
		return SDT_LOGIND_ANSWER_REFUSED;
	/* local: a timeout, a closed connection, a cancelled call */
	return SDT_LOGIND_ANSWER_FAILED;
}

const gchar *
sdt_logind_answer_to_string(SdtLogindAnswer answer)
{
	switch (answer) {
	case SDT_LOGIND_ANSWER_HELD:
		return "held";
	case SDT_LOGIND_ANSWER_REFUSED:
		return "refused";
	case SDT_LOGIND_ANSWER_ABSENT:
		return "absent";
	case SDT_LOGIND_ANSWER_NO_FD:
		return "no-fd";
	case SDT_LOGIND_ANSWER_FAILED:
		return "failed";
	default:
		return NULL;
	}
}

static void
sdt_logind_inhibitor_clear(SdtLogindInhibitor *self)
{
	if (self->fd >= 0)
		close(self->fd);
	g_free(self->what);
	g_free(self->who);
	g_free(self->why);
	g_free(self->mode);
	g_clear_object(&self->cancellable);
}

static void
sdt_logind_inhibitor_unref(SdtLogindInhibitor *self)
{
	g_rc_box_release_full(self, (GDestroyNotify) sdt_logind_inhibitor_clear);
}

static void
sdt_logind_inhibitor_answer(SdtLogindInhibitor *self, SdtLogindAnswer answer, const GError *error)
{
	if (!self->released && self->func != NULL)
		self->func(self, answer, error, self->user_data);
}

/* the descriptor logind sent: the reply's handle, an index into its fd list */
static gint
sdt_logind_inhibitor_take_fd(GVariant *reply, GUnixFDList *fds, GError **error)
{
	gint32 handle = -1;

	g_variant_get(reply, "(h)", &handle);
	if (fds == NULL || handle < 0 || handle >= g_unix_fd_list_get_length(fds)) {
		g_set_error(error,
			    G_IO_ERROR,
			    G_IO_ERROR_INVALID_DATA,
			    _("logind answered Inhibit with handle %d and %d file descriptors"),
			    (gint) handle,
			    fds != NULL ? g_unix_fd_list_get_length(fds) : 0);
		return -1;
	}
	/* a duplicate (close-on-exec); the list closes its own with the reply */
	return g_unix_fd_list_get(fds, handle, error);
}

static void
sdt_logind_inhibitor_call_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtLogindInhibitor *self = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GUnixFDList) fds = NULL;
	g_autoptr(GVariant) reply =
		g_dbus_connection_call_with_unix_fd_list_finish(G_DBUS_CONNECTION(source),
								&fds,
								res,
								&error);

	if (reply == NULL) {
		sdt_logind_inhibitor_answer(self, sdt_logind_answer_from_error(error), error);
	} else {
		self->fd = sdt_logind_inhibitor_take_fd(reply, fds, &error);
		if (self->fd >= 0 && self->released) {
			close(self->fd);
			self->fd = -1;
		} else if (self->fd >= 0) {
			sdt_logind_inhibitor_answer(self, SDT_LOGIND_ANSWER_HELD, NULL);
		} else {
			sdt_logind_inhibitor_answer(self, SDT_LOGIND_ANSWER_NO_FD, error);
		}
	}
	sdt_logind_inhibitor_unref(self);
}

static void
sdt_logind_inhibitor_call(SdtLogindInhibitor *self, GDBusConnection *bus)
{
	g_dbus_connection_call_with_unix_fd_list(
		bus,
		"org.freedesktop.login1",
		"/org/freedesktop/login1",
		"org.freedesktop.login1.Manager",
		"Inhibit",
		g_variant_new("(ssss)", self->what, self->who, self->why, self->mode),
		G_VARIANT_TYPE("(h)"),
		G_DBUS_CALL_FLAGS_NO_AUTO_START,
		self->timeout_msec,
		NULL,
		self->cancellable,
		sdt_logind_inhibitor_call_cb,
		g_rc_box_acquire(self));
}

static void
sdt_logind_inhibitor_bus_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtLogindInhibitor *self = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) bus = g_bus_get_finish(res, &error);

	if (bus == NULL)
		sdt_logind_inhibitor_answer(self, SDT_LOGIND_ANSWER_ABSENT, error);
	else if (!self->released)
		sdt_logind_inhibitor_call(self, bus);
	sdt_logind_inhibitor_unref(self);
}

SdtLogindInhibitor *
sdt_logind_inhibitor_new(GDBusConnection *bus,
			 const SdtLogindRequest *request,
			 SdtLogindAnswerFunc func,
			 gpointer user_data)
{
	SdtLogindInhibitor *self;

	g_return_val_if_fail(bus == NULL || G_IS_DBUS_CONNECTION(bus), NULL);
	g_return_val_if_fail(request != NULL, NULL);
	g_return_val_if_fail(request->what != NULL && request->who != NULL, NULL);
	g_return_val_if_fail(request->why != NULL && request->mode != NULL, NULL);

	self = g_rc_box_new0(SdtLogindInhibitor);
	self->what = g_strdup(request->what);
	self->who = g_strdup(request->who);
	self->why = g_strdup(request->why);
	self->mode = g_strdup(request->mode);
	self->timeout_msec = request->timeout_msec;
	self->func = func;
	self->user_data = user_data;
	self->cancellable = g_cancellable_new();
	self->fd = -1;
	if (bus != NULL)
		sdt_logind_inhibitor_call(self, bus);
	else
		g_bus_get(G_BUS_TYPE_SYSTEM,
			  self->cancellable,
			  sdt_logind_inhibitor_bus_cb,
			  g_rc_box_acquire(self));
	return self;
}

gint
sdt_logind_inhibitor_get_fd(SdtLogindInhibitor *self)
{
	g_return_val_if_fail(self != NULL, -1);
	return self->fd;
}

const gchar *
sdt_logind_inhibitor_get_what(SdtLogindInhibitor *self)
{
	g_return_val_if_fail(self != NULL, NULL);
	return self->what;
}

const gchar *
sdt_logind_inhibitor_get_mode(SdtLogindInhibitor *self)
{
	g_return_val_if_fail(self != NULL, NULL);
	return self->mode;
}

const gchar *
sdt_logind_inhibitor_get_why(SdtLogindInhibitor *self)
{
	g_return_val_if_fail(self != NULL, NULL);
	return self->why;
}

void
sdt_logind_inhibitor_release(SdtLogindInhibitor *self)
{
	if (self == NULL)
		return;
	self->released = TRUE;
	g_cancellable_cancel(self->cancellable);
	if (self->fd >= 0) {
		close(self->fd);
		self->fd = -1;
	}
	sdt_logind_inhibitor_unref(self);
}
