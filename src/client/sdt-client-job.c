/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-client-job.h"
#include "sdt-client.h"
#include "sdt-dbus-generated.h"
#include "sdt-error.h"

/*
 * The follower is reference counted (GRcBox): each pending call and the
 * signal subscription hold a reference; sdt_client_job_free() cancels them
 * and drops the caller's.  @following is FALSE once the job ended or the
 * caller let go: nothing is delivered after that.
 */
struct _SdtClientJob {
	GDBusConnection *connection;
	GCancellable *cancellable;
	gchar *helper; /* the helper's unique name: only its signals count */
	gchar *method;
	gchar *arg;
	GVariant *options;
	gint timeout_ms;
	SdtClientJobProgressFunc progress;
	SdtClientJobDoneFunc done;
	gpointer user_data;
	gboolean following;
	gboolean cancel_wanted;
	gboolean cancel_sent;
	gboolean vanished;
	gchar *path;
	GHashTable *early; /* job path -> (sss) Completed before the method's reply */
	SdtJob *job;
	guint subscription;
	guint watch;
};

static void
sdt_client_job_clear(SdtClientJob *self)
{
	g_clear_object(&self->connection);
	g_clear_object(&self->cancellable);
	g_free(self->helper);
	g_free(self->method);
	g_free(self->arg);
	g_clear_pointer(&self->options, g_variant_unref);
	g_free(self->path);
	g_clear_pointer(&self->early, g_hash_table_unref);
	if (self->job != NULL)
		g_signal_handlers_disconnect_by_data(self->job, self);
	g_clear_object(&self->job);
}

static SdtClientJob *
sdt_client_job_ref(SdtClientJob *self)
{
	return g_rc_box_acquire(self);
}

static void
sdt_client_job_unref(SdtClientJob *self)
{
	g_rc_box_release_full(self, (GDestroyNotify) sdt_client_job_clear);
}

/* the end: unsubscribe, and tell the caller once */
static void
sdt_client_job_finish(SdtClientJob *self, const gchar *result, const GError *error)
{
	if (!self->following)
		return;
	self->following = FALSE;
	if (self->watch != 0)
		g_bus_unwatch_name(self->watch);
	self->watch = 0;
	if (self->subscription != 0)
		g_dbus_connection_signal_unsubscribe(self->connection, self->subscription);
	self->subscription = 0;
	g_cancellable_cancel(self->cancellable);
	/* the caller may free the follower in its callback */
	sdt_client_job_ref(self);
	self->done(result, error, self->user_data);
	sdt_client_job_unref(self);
}

static void
sdt_client_job_dispatch(SdtClientJob *self, GVariant *params)
{
	const gchar *result;
	const gchar *error_name;
	const gchar *error_message;

	g_variant_get(params, "(&s&s&s)", &result, &error_name, &error_message);
	if (error_name[0] != '\0') {
		g_autoptr(GError) error =
			g_dbus_error_new_for_dbus_error(error_name, error_message);
		sdt_client_job_finish(self, NULL, error);
		return;
	}
	sdt_client_job_finish(self, result, NULL);
}

static void
sdt_client_job_completed_cb(GDBusConnection *connection,
			    const gchar *sender,
			    const gchar *path,
			    const gchar *iface,
			    const gchar *signal,
			    GVariant *params,
			    gpointer user_data)
{
	SdtClientJob *self = user_data;

	/* the subscription is on the helper's unique name already; a unicast
	 * signal reaches us whatever the match rules say */
	if (!self->following || g_strcmp0(sender, self->helper) != 0 || path == NULL ||
	    !g_variant_is_of_type(params, G_VARIANT_TYPE("(sss)")))
		return;
	if (self->path == NULL) {
		/* it ended before the method's reply arrived */
		g_hash_table_insert(self->early, g_strdup(path), g_variant_ref(params));
		return;
	}
	if (g_strcmp0(path, self->path) == 0)
		sdt_client_job_dispatch(self, params);
}

static void
sdt_client_job_vanished_cb(GDBusConnection *connection, const gchar *name, gpointer user_data)
{
	SdtClientJob *self = user_data;
	g_autoptr(GError) error = NULL;

	if (!self->following)
		return;
	self->vanished = TRUE;
	error = g_error_new_literal(G_DBUS_ERROR,
				    G_DBUS_ERROR_NO_REPLY,
				    _("sd-tuner-helper stopped while its job ran; nothing was left "
				      "on the card"));
	sdt_client_job_finish(self, NULL, error);
}

static void
sdt_client_job_properties_cb(GDBusProxy *proxy,
			     GVariant *changed,
			     const gchar *const *invalidated,
			     gpointer user_data)
{
	SdtClientJob *self = user_data;
	const gchar *phase = sdt_job_get_phase(self->job);

	if (!self->following || self->progress == NULL || phase == NULL || phase[0] == '\0')
		return;
	self->progress(phase,
		       sdt_job_get_progress(self->job),
		       sdt_job_get_rate(self->job),
		       self->user_data);
}

static void
sdt_client_job_cancel_done_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GError) error = NULL;

	/* Completed says how it ended; a failed Cancel only means it had ended */
	if (!sdt_job_call_cancel_finish(SDT_JOB(source), res, &error))
		g_debug("Cancel: %s", error->message);
}

static void
sdt_client_job_send_cancel(SdtClientJob *self)
{
	if (self->job == NULL || !self->following || self->cancel_sent)
		return;
	self->cancel_sent = TRUE;
	/* not self->cancellable: the Cancel must go out even as the follower ends */
	sdt_job_call_cancel(self->job, NULL, sdt_client_job_cancel_done_cb, NULL);
}

static void
sdt_client_job_proxy_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtClientJob *self = user_data;
	g_autoptr(GError) error = NULL;
	SdtJob *job = sdt_job_proxy_new_finish(res, &error);

	if (job == NULL) {
		/* progress is lost, but Completed still arrives through the subscription */
		if (self->following)
			g_debug("no proxy for the job: %s", error->message);
	} else if (!self->following) {
		g_object_unref(job);
	} else {
		self->job = job;
		g_signal_connect(job,
				 "g-properties-changed",
				 G_CALLBACK(sdt_client_job_properties_cb),
				 self);
		/* the job exists: where it stands (its phase may still be empty) */
		if (self->progress != NULL)
			self->progress(sdt_job_get_phase(job) != NULL ? sdt_job_get_phase(job) : "",
				       sdt_job_get_progress(job),
				       sdt_job_get_rate(job),
				       self->user_data);
		if (self->cancel_wanted)
			sdt_client_job_send_cancel(self);
	}
	sdt_client_job_unref(self);
}

static void
sdt_client_job_started_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtClientJob *self = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	GVariant *early;

	reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &error);
	if (reply == NULL) {
		sdt_client_job_finish(self, NULL, error);
	} else if (self->following) {
		g_variant_get(reply, "(o)", &self->path);
		early = g_hash_table_lookup(self->early, self->path);
		if (early != NULL) {
			g_autoptr(GVariant) params = g_variant_ref(early);
			sdt_client_job_dispatch(self, params);
		} else {
			/* the job's properties, from the same helper only */
			sdt_job_proxy_new(self->connection,
					  G_DBUS_PROXY_FLAGS_NONE,
					  self->helper,
					  self->path,
					  self->cancellable,
					  sdt_client_job_proxy_cb,
					  sdt_client_job_ref(self));
		}
		g_hash_table_remove_all(self->early);
	}
	sdt_client_job_unref(self);
}

/* subscribed before the job exists, then the method on the helper's unique name */
static void
sdt_client_job_call(SdtClientJob *self)
{
	self->subscription =
		g_dbus_connection_signal_subscribe(self->connection,
						   self->helper,
						   SDT_JOB_IFACE,
						   "Completed",
						   NULL,
						   NULL,
						   G_DBUS_SIGNAL_FLAGS_NONE,
						   sdt_client_job_completed_cb,
						   sdt_client_job_ref(self),
						   (GDestroyNotify) sdt_client_job_unref);
	/* gone before the job is even started: the call below fails too */
	self->watch = g_bus_watch_name_on_connection(self->connection,
						     self->helper,
						     G_BUS_NAME_WATCHER_FLAGS_NONE,
						     NULL,
						     sdt_client_job_vanished_cb,
						     sdt_client_job_ref(self),
						     (GDestroyNotify) sdt_client_job_unref);
	g_dbus_connection_call(self->connection,
			       self->helper,
			       SDT_MANAGER_PATH,
			       SDT_MANAGER_IFACE,
			       self->method,
			       self->arg != NULL
				       ? g_variant_new("(s@a{sv})", self->arg, self->options)
				       : g_variant_new("(@a{sv})", self->options),
			       G_VARIANT_TYPE("(o)"),
			       G_DBUS_CALL_FLAGS_NO_AUTO_START,
			       self->timeout_ms,
			       self->cancellable,
			       sdt_client_job_started_cb,
			       sdt_client_job_ref(self));
}

static void
sdt_client_job_owner_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtClientJob *self = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) owner = NULL;

	owner = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &error);
	if (owner == NULL) {
		sdt_client_job_finish(self, NULL, error);
	} else if (self->following) {
		g_variant_get(owner, "(s)", &self->helper);
		sdt_client_job_call(self);
	}
	sdt_client_job_unref(self);
}

static void
sdt_client_job_bus_call(SdtClientJob *self,
			const gchar *method,
			GVariant *args,
			const gchar *reply_type,
			GAsyncReadyCallback callback)
{
	g_dbus_connection_call(self->connection,
			       "org.freedesktop.DBus",
			       "/org/freedesktop/DBus",
			       "org.freedesktop.DBus",
			       method,
			       args,
			       G_VARIANT_TYPE(reply_type),
			       G_DBUS_CALL_FLAGS_NONE,
			       -1,
			       self->cancellable,
			       callback,
			       sdt_client_job_ref(self));
}

/* activated (it may not run yet), then its unique name asked for */
static void
sdt_client_job_activated_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtClientJob *self = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) started = NULL;

	started = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &error);
	if (started == NULL)
		sdt_client_job_finish(self, NULL, error);
	else if (self->following)
		sdt_client_job_bus_call(self,
					"GetNameOwner",
					g_variant_new("(s)", SDT_BUS_NAME),
					"(s)",
					sdt_client_job_owner_cb);
	sdt_client_job_unref(self);
}

SdtClientJob *
sdt_client_job_start(GDBusConnection *connection,
		     const gchar *helper,
		     const gchar *method,
		     const gchar *arg,
		     GVariant *options,
		     gint timeout_ms,
		     SdtClientJobProgressFunc progress,
		     SdtClientJobDoneFunc done,
		     gpointer user_data)
{
	SdtClientJob *self;

	g_return_val_if_fail(G_IS_DBUS_CONNECTION(connection), NULL);
	g_return_val_if_fail(done != NULL, NULL);
	self = g_rc_box_new0(SdtClientJob);
	self->connection = g_object_ref(connection);
	self->cancellable = g_cancellable_new();
	self->method = g_strdup(method);
	self->arg = g_strdup(arg);
	self->options = g_variant_ref_sink(options != NULL ? options : sdt_client_no_options());
	self->timeout_ms = timeout_ms;
	self->progress = progress;
	self->done = done;
	self->user_data = user_data;
	self->following = TRUE;
	self->early = g_hash_table_new_full(g_str_hash,
					    g_str_equal,
					    g_free,
					    (GDestroyNotify) g_variant_unref);
	if (helper != NULL && g_dbus_is_unique_name(helper)) {
		self->helper = g_strdup(helper);
		sdt_client_job_call(self);
	} else {
		sdt_client_job_bus_call(self,
					"StartServiceByName",
					g_variant_new("(su)", SDT_BUS_NAME, 0),
					"(u)",
					sdt_client_job_activated_cb);
	}
	return self;
}

void
sdt_client_job_cancel(SdtClientJob *self)
{
	g_return_if_fail(self != NULL);
	self->cancel_wanted = TRUE;
	sdt_client_job_send_cancel(self);
}

gboolean
sdt_client_job_helper_vanished(SdtClientJob *self)
{
	g_return_val_if_fail(self != NULL, FALSE);
	return self->vanished;
}

void
sdt_client_job_free(SdtClientJob *self)
{
	if (self == NULL)
		return;
	/* no callback from here on */
	self->following = FALSE;
	if (self->watch != 0)
		g_bus_unwatch_name(self->watch);
	self->watch = 0;
	if (self->subscription != 0)
		g_dbus_connection_signal_unsubscribe(self->connection, self->subscription);
	self->subscription = 0;
	g_cancellable_cancel(self->cancellable);
	if (self->job != NULL)
		g_signal_handlers_disconnect_by_data(self->job, self);
	sdt_client_job_unref(self);
}
