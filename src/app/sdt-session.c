/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-client.h"
#include "sdt-session.h"

struct _SdtSession {
	GObject parent_instance;
	GCancellable *cancellable;
	GDBusConnection *connection;
	SdtManager *manager;
	gboolean simulated; /* the helper's Simulated, remembered while it is idle-stopped */
	gchar *board_model; /* board.model of the last GetInfo, for the simulated banner */
	gboolean connecting;
	gboolean bus_closed;
};

G_DEFINE_TYPE(SdtSession, sdt_session, G_TYPE_OBJECT)

enum { PROP_0, PROP_MANAGER, PROP_SIMULATED, PROP_BOARD_MODEL, N_PROPS };
static GParamSpec *sdt_session_props[N_PROPS];

enum {
	SIGNAL_CHANGED,
	SIGNAL_SERVICE_VANISHED,
	SIGNAL_ERROR,
	SIGNAL_NOTICE,
	SIGNAL_DISMISS,
	N_SIGNALS
};
static guint sdt_session_signals[N_SIGNALS];

SdtManager *
sdt_session_get_manager(SdtSession *self)
{
	g_return_val_if_fail(SDT_IS_SESSION(self), NULL);
	return self->manager;
}

gboolean
sdt_session_get_simulated(SdtSession *self)
{
	g_return_val_if_fail(SDT_IS_SESSION(self), FALSE);
	return self->simulated;
}

const gchar *
sdt_session_get_board_model(SdtSession *self)
{
	g_return_val_if_fail(SDT_IS_SESSION(self), NULL);
	return self->board_model;
}

void
sdt_session_set_board_model(SdtSession *self, const gchar *model)
{
	g_return_if_fail(SDT_IS_SESSION(self));
	g_free(self->board_model);
	self->board_model = g_strdup(model);
	g_object_notify_by_pspec(G_OBJECT(self), sdt_session_props[PROP_BOARD_MODEL]);
}

void
sdt_session_report_error(SdtSession *self, SdtUserAction action, const GError *error)
{
	g_return_if_fail(SDT_IS_SESSION(self));
	g_signal_emit(self, sdt_session_signals[SIGNAL_ERROR], 0, (gint) action, error);
}

void
sdt_session_report_notice(SdtSession *self, GtkMessageType type, const gchar *text)
{
	g_return_if_fail(SDT_IS_SESSION(self));
	g_signal_emit(self, sdt_session_signals[SIGNAL_NOTICE], 0, type, text);
}

void
sdt_session_dismiss(SdtSession *self)
{
	g_return_if_fail(SDT_IS_SESSION(self));
	g_signal_emit(self, sdt_session_signals[SIGNAL_DISMISS], 0);
}

typedef struct {
	SdtSessionFinishFunc finish;
	SdtSessionTextFunc done;
	gpointer page;
} SdtSessionTextCall;

static void
sdt_session_call_text_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autofree SdtSessionTextCall *call = user_data;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = NULL;

	/* cancelled: the page is going away, leave it alone */
	if (!call->finish(SDT_MANAGER(source), &text, res, &error) &&
	    g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	call->done(call->page, text, text != NULL ? NULL : error);
}

void
sdt_session_call_text(SdtManager *manager,
		      SdtSessionCallFunc call,
		      SdtSessionFinishFunc finish,
		      GCancellable *cancellable,
		      SdtSessionTextFunc done,
		      gpointer page)
{
	SdtSessionTextCall *data;

	g_return_if_fail(SDT_IS_MANAGER(manager));
	data = g_new0(SdtSessionTextCall, 1);
	data->finish = finish;
	data->done = done;
	data->page = page;
	call(manager, sdt_client_no_options(), cancellable, sdt_session_call_text_cb, data);
}

SdtClientJob *
sdt_session_start_job(SdtManager *manager,
		      const gchar *method,
		      const gchar *arg,
		      SdtClientJobProgressFunc progress,
		      SdtClientJobDoneFunc done,
		      gpointer page)
{
	return sdt_session_start_job_with_options(manager, method, arg, NULL, progress, done, page);
}

SdtClientJob *
sdt_session_start_job_with_options(SdtManager *manager,
				   const gchar *method,
				   const gchar *arg,
				   GVariant *options,
				   SdtClientJobProgressFunc progress,
				   SdtClientJobDoneFunc done,
				   gpointer page)
{
	g_autofree gchar *helper = NULL;

	g_return_val_if_fail(SDT_IS_MANAGER(manager), NULL);
	/* the helper that answers the manager proxy runs the job; NULL: activate it */
	helper = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(manager));
	return sdt_client_job_start(g_dbus_proxy_get_connection(G_DBUS_PROXY(manager)),
				    helper,
				    method,
				    arg,
				    options,
				    SDT_CALL_TIMEOUT_MS,
				    progress,
				    done,
				    page);
}

void
sdt_session_refresh(SdtSession *self)
{
	g_return_if_fail(SDT_IS_SESSION(self));
	if (self->manager == NULL)
		return;
	g_signal_emit(self, sdt_session_signals[SIGNAL_CHANGED], 0);
}

static void
sdt_session_set_manager(SdtSession *self, SdtManager *manager)
{
	if (g_set_object(&self->manager, manager))
		g_object_notify_by_pspec(G_OBJECT(self), sdt_session_props[PROP_MANAGER]);
}

static void
sdt_session_update_simulated(SdtSession *self)
{
	g_autofree gchar *owner = NULL;

	if (self->manager == NULL)
		return;
	/* with no owner the cached properties are gone: keep what we knew */
	owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(self->manager));
	if (owner == NULL)
		return;
	self->simulated = sdt_manager_get_simulated(self->manager);
	g_object_notify_by_pspec(G_OBJECT(self), sdt_session_props[PROP_SIMULATED]);
}

static void
sdt_session_name_owner_cb(GObject *proxy, GParamSpec *pspec, SdtSession *self)
{
	g_autofree gchar *owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(proxy));

	/* the helper exits when idle: that only matters while a job runs */
	if (owner == NULL) {
		g_signal_emit(self, sdt_session_signals[SIGNAL_SERVICE_VANISHED], 0);
		return;
	}
	sdt_session_update_simulated(self);
}

static void
sdt_session_connection_closed_cb(GDBusConnection *connection,
				 gboolean remote_peer_vanished,
				 GError *error,
				 SdtSession *self)
{
	g_autoptr(GError) error_local = NULL;

	self->bus_closed = TRUE;
	g_signal_emit(self, sdt_session_signals[SIGNAL_SERVICE_VANISHED], 0);
	sdt_session_set_manager(self, NULL);
	/* whatever the stream said, for the user this means the bus went away */
	error_local = g_error_new(G_IO_ERROR,
				  G_IO_ERROR_CLOSED,
				  _("The connection to the system bus was closed: %s"),
				  error != NULL ? error->message : _("the bus went away"));
	sdt_session_report_error(self, SDT_USER_ACTION_CONNECT, error_local);
}

static void
sdt_session_manager_ready_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtSession *self;
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtManager) manager = sdt_manager_proxy_new_finish(res, &error);

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = SDT_SESSION(user_data);
	self->connecting = FALSE;
	if (manager == NULL) {
		sdt_session_report_error(self, SDT_USER_ACTION_CONNECT, error);
		return;
	}
	g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(manager), SDT_CALL_TIMEOUT_MS);
	g_signal_connect_object(manager,
				"notify::g-name-owner",
				G_CALLBACK(sdt_session_name_owner_cb),
				self,
				0);
	sdt_session_set_manager(self, manager);
	sdt_session_update_simulated(self);
	sdt_session_refresh(self);
}

/* a new connection replaces the closed one; then the Manager proxy on it */
static void
sdt_session_connection_ready_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtSession *self;
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) connection =
		g_dbus_connection_new_for_address_finish(res, &error);

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = SDT_SESSION(user_data);
	if (connection == NULL) {
		self->connecting = FALSE;
		sdt_session_report_error(self, SDT_USER_ACTION_CONNECT, error);
		return;
	}
	if (self->connection != NULL)
		g_signal_handlers_disconnect_by_data(self->connection, self);
	g_set_object(&self->connection, connection);
	self->bus_closed = FALSE;
	g_signal_connect_object(connection,
				"closed",
				G_CALLBACK(sdt_session_connection_closed_cb),
				self,
				0);
	sdt_manager_proxy_new(connection,
			      G_DBUS_PROXY_FLAGS_NONE,
			      SDT_BUS_NAME,
			      SDT_MANAGER_PATH,
			      self->cancellable,
			      sdt_session_manager_ready_cb,
			      self);
}

/*
 * A connection of our own rather than the shared g_bus_get() one: that one
 * exits the process when the bus goes away, and stays closed afterwards.
 */
static void
sdt_session_connect(SdtSession *self)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *address = NULL;

	if (self->connecting)
		return;
	address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
	if (address == NULL) {
		sdt_session_report_error(self, SDT_USER_ACTION_CONNECT, error);
		return;
	}
	self->connecting = TRUE;
	g_dbus_connection_new_for_address(address,
					  G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
						  G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
					  NULL,
					  self->cancellable,
					  sdt_session_connection_ready_cb,
					  self);
}

void
sdt_session_reload(SdtSession *self)
{
	g_return_if_fail(SDT_IS_SESSION(self));
	if (self->manager == NULL || self->bus_closed) {
		sdt_session_connect(self);
		return;
	}
	sdt_session_refresh(self);
}

static void
sdt_session_get_property(GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
	SdtSession *self = SDT_SESSION(object);

	switch (prop_id) {
	case PROP_MANAGER:
		g_value_set_object(value, self->manager);
		break;
	case PROP_SIMULATED:
		g_value_set_boolean(value, self->simulated);
		break;
	case PROP_BOARD_MODEL:
		g_value_set_string(value, self->board_model);
		break;
	default:
		G_OBJECT_WARN_INVALID_PROPERTY_ID(object, prop_id, pspec);
	}
}

static void
sdt_session_dispose(GObject *object)
{
	SdtSession *self = SDT_SESSION(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	if (self->connection != NULL)
		g_signal_handlers_disconnect_by_data(self->connection, self);
	g_clear_object(&self->connection);
	g_clear_pointer(&self->board_model, g_free);
	G_OBJECT_CLASS(sdt_session_parent_class)->dispose(object);
}

static void
sdt_session_init(SdtSession *self)
{
	self->cancellable = g_cancellable_new();
}

static void
sdt_session_class_init_properties(GObjectClass *object_class)
{
	sdt_session_props[PROP_MANAGER] =
		g_param_spec_object("manager",
				    "Manager",
				    "The helper's Manager proxy, NULL while not connected",
				    SDT_TYPE_MANAGER,
				    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
	sdt_session_props[PROP_SIMULATED] =
		g_param_spec_boolean("simulated",
				     "Simulated",
				     "The helper runs on a simulated board",
				     FALSE,
				     G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
	sdt_session_props[PROP_BOARD_MODEL] =
		g_param_spec_string("board-model",
				    "Board model",
				    "The board's model from the last GetInfo",
				    NULL,
				    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
	g_object_class_install_properties(object_class, N_PROPS, sdt_session_props);
}

/* a signal with no arguments (@n_params 0, then @first and @second are ignored) or two */
static guint
sdt_session_signal_new(GType type, const gchar *name, guint n_params, GType first, GType second)
{
	return g_signal_new(name,
			    type,
			    G_SIGNAL_RUN_LAST,
			    0,
			    NULL,
			    NULL,
			    NULL,
			    G_TYPE_NONE,
			    n_params,
			    first,
			    second);
}

static void
sdt_session_class_init_signals(GType type)
{
	sdt_session_signals[SIGNAL_CHANGED] =
		sdt_session_signal_new(type, "changed", 0, G_TYPE_NONE, G_TYPE_NONE);
	sdt_session_signals[SIGNAL_SERVICE_VANISHED] =
		sdt_session_signal_new(type, "service-vanished", 0, G_TYPE_NONE, G_TYPE_NONE);
	sdt_session_signals[SIGNAL_ERROR] =
		sdt_session_signal_new(type,
				       "error",
				       2,
				       G_TYPE_INT,
				       G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
	sdt_session_signals[SIGNAL_NOTICE] =
		sdt_session_signal_new(type,
				       "notice",
				       2,
				       GTK_TYPE_MESSAGE_TYPE,
				       G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE);
	sdt_session_signals[SIGNAL_DISMISS] =
		sdt_session_signal_new(type, "dismiss", 0, G_TYPE_NONE, G_TYPE_NONE);
}

static void
sdt_session_class_init(SdtSessionClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->get_property = sdt_session_get_property;
	object_class->dispose = sdt_session_dispose;
	sdt_session_class_init_properties(object_class);
	sdt_session_class_init_signals(G_TYPE_FROM_CLASS(klass));
}

/* the pages' side: one "session" property and one set of connections for all */

enum { SDT_SESSION_PAGE_PROP_SESSION = 1 };

typedef struct {
	gsize session_offset;
	const SdtSessionCallbacks *callbacks;
} SdtSessionPageClass;

static GQuark
sdt_session_page_quark(void)
{
	return g_quark_from_static_string("sdt-session-page");
}

static const SdtSessionCallbacks *
sdt_session_page_callbacks(GObject *page)
{
	return g_object_get_qdata(page, sdt_session_page_quark());
}

static void
sdt_session_page_manager_cb(SdtSession *self, GParamSpec *pspec, GObject *page)
{
	sdt_session_page_callbacks(page)->set_manager(page, self->manager);
}

static void
sdt_session_page_simulated_cb(SdtSession *self, GParamSpec *pspec, GObject *page)
{
	sdt_session_page_callbacks(page)->set_simulated(page, self->simulated);
}

static void
sdt_session_page_changed_cb(SdtSession *self, GObject *page)
{
	sdt_session_page_callbacks(page)->refresh(page);
}

static void
sdt_session_page_vanished_cb(SdtSession *self, GObject *page)
{
	sdt_session_page_callbacks(page)->service_vanished(page);
}

static void
sdt_session_page_listen(SdtSession *self,
			GObject *page,
			gboolean wanted,
			const gchar *signal,
			GCallback callback)
{
	if (wanted)
		g_signal_connect_object(self, signal, callback, page, 0);
}

static void
sdt_session_attach(SdtSession *self, GObject *page, const SdtSessionCallbacks *callbacks)
{
	g_object_set_qdata(page, sdt_session_page_quark(), (gpointer) callbacks);
	sdt_session_page_listen(self,
				page,
				callbacks->set_manager != NULL,
				"notify::manager",
				G_CALLBACK(sdt_session_page_manager_cb));
	sdt_session_page_listen(self,
				page,
				callbacks->set_simulated != NULL,
				"notify::simulated",
				G_CALLBACK(sdt_session_page_simulated_cb));
	sdt_session_page_listen(self,
				page,
				callbacks->refresh != NULL,
				"changed",
				G_CALLBACK(sdt_session_page_changed_cb));
	sdt_session_page_listen(self,
				page,
				callbacks->service_vanished != NULL,
				"service-vanished",
				G_CALLBACK(sdt_session_page_vanished_cb));
}

static void
sdt_session_page_set_property(GObject *page, guint prop_id, const GValue *value, GParamSpec *pspec)
{
	const SdtSessionPageClass *info =
		g_type_get_qdata(pspec->owner_type, sdt_session_page_quark());
	SdtSession **session;

	if (prop_id != SDT_SESSION_PAGE_PROP_SESSION || info == NULL) {
		G_OBJECT_WARN_INVALID_PROPERTY_ID(page, prop_id, pspec);
		return;
	}
	session = G_STRUCT_MEMBER_P(page, info->session_offset);
	*session = g_value_dup_object(value);
	if (*session != NULL)
		sdt_session_attach(*session, page, info->callbacks);
}

void
sdt_session_install_page_property(GObjectClass *klass,
				  gsize session_offset,
				  const SdtSessionCallbacks *callbacks)
{
	SdtSessionPageClass *info;

	g_return_if_fail(G_IS_OBJECT_CLASS(klass));
	g_return_if_fail(callbacks != NULL);
	/* kept for as long as the class, i.e. the process */
	info = g_new0(SdtSessionPageClass, 1);
	info->session_offset = session_offset;
	info->callbacks = callbacks;
	g_type_set_qdata(G_OBJECT_CLASS_TYPE(klass), sdt_session_page_quark(), info);
	klass->set_property = sdt_session_page_set_property;
	g_object_class_install_property(
		klass,
		SDT_SESSION_PAGE_PROP_SESSION,
		g_param_spec_object("session",
				    "Session",
				    "What the pages share: the bus, the helper, the board",
				    SDT_TYPE_SESSION,
				    G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY |
					    G_PARAM_STATIC_STRINGS));
}

void
sdt_session_detach(SdtSession **session, gpointer page)
{
	g_return_if_fail(session != NULL);
	if (*session != NULL)
		g_signal_handlers_disconnect_by_data(*session, page);
	g_clear_object(session);
}
