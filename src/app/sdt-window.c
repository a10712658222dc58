/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-benchmark-page.h"
#include "sdt-health-page.h"
#include "sdt-history-page.h"
#include "sdt-overview-page.h"
#include "sdt-client.h"
#include "sdt-recommend-page.h"
#include "sdt-window.h"

struct _SdtWindow {
	GtkApplicationWindow parent_instance;
	GtkWidget *stack;
	GtkWidget *info_bar;
	GtkWidget *info_label;
	GtkWidget *retry_button;
	GtkWidget *simulated_banner;
	GtkWidget *overview_page;
	GtkWidget *benchmark_page;
	GtkWidget *recommend_page;
	GtkWidget *history_page;
	GtkWidget *health_page;
	GCancellable *cancellable;
	GDBusConnection *connection;
	SdtManager *manager;
	gboolean simulated;
	gchar *board_model; /* board.model of the last GetInfo, for the simulated banner */
	gboolean connecting;
	gboolean bus_closed;
};

G_DEFINE_TYPE(SdtWindow, sdt_window, GTK_TYPE_APPLICATION_WINDOW)

SdtWindow *
sdt_window_from_widget(GtkWidget *widget)
{
	GtkWidget *toplevel = gtk_widget_get_toplevel(widget);
	return SDT_IS_WINDOW(toplevel) ? SDT_WINDOW(toplevel) : NULL;
}

void
sdt_window_show_notice(SdtWindow *self, GtkMessageType type, const gchar *text)
{
	g_return_if_fail(SDT_IS_WINDOW(self));
	gtk_info_bar_set_message_type(GTK_INFO_BAR(self->info_bar), type);
	/* Retry reads everything again: only useful after something failed */
	gtk_widget_set_visible(self->retry_button, type == GTK_MESSAGE_ERROR);
	gtk_label_set_text(GTK_LABEL(self->info_label), text);
	gtk_info_bar_set_revealed(GTK_INFO_BAR(self->info_bar), TRUE);
	/* screen readers announce the new text */
	atk_object_set_name(gtk_widget_get_accessible(self->info_bar), text);
	if (g_getenv("SDTUNER_DEBUG_MESSAGES") != NULL)
		g_printerr("sd-tuner: message: %s\n", text);
}

void
sdt_window_show_error(SdtWindow *self, SdtUserAction action, const GError *error)
{
	g_autofree gchar *text = sdt_user_error_describe(action, error);
	sdt_window_show_notice(self, GTK_MESSAGE_ERROR, text);
}

void
sdt_window_hide_message(SdtWindow *self)
{
	g_return_if_fail(SDT_IS_WINDOW(self));
	gtk_info_bar_set_revealed(GTK_INFO_BAR(self->info_bar), FALSE);
}

gboolean
sdt_window_get_simulated(SdtWindow *self)
{
	g_return_val_if_fail(SDT_IS_WINDOW(self), FALSE);
	return self->simulated;
}

static void
sdt_window_update_banner(SdtWindow *self)
{
	g_autofree gchar *text = NULL;

	/* Translators: %s is the simulated board's model, e.g. "Raspberry Pi 3 Model B Rev 1.2" */
	text = g_strdup_printf(
		_("Simulated %s: this computer is not a Raspberry Pi. Its boot files "
		  "and card are stand-ins, and nothing on this computer is changed."),
		self->board_model != NULL ? self->board_model : _("Raspberry Pi"));
	gtk_label_set_text(GTK_LABEL(self->simulated_banner), text);
	gtk_widget_set_visible(self->simulated_banner, self->simulated);
}

void
sdt_window_set_board_model(SdtWindow *self, const gchar *model)
{
	g_return_if_fail(SDT_IS_WINDOW(self));
	g_free(self->board_model);
	self->board_model = g_strdup(model);
	sdt_window_update_banner(self);
}

const gchar *
sdt_window_get_board_model(SdtWindow *self)
{
	g_return_val_if_fail(SDT_IS_WINDOW(self), NULL);
	return self->board_model;
}

static void
sdt_window_update_simulated(SdtWindow *self)
{
	g_autofree gchar *owner = NULL;

	if (self->manager == NULL)
		return;
	/* with no owner the cached properties are gone: keep what we knew */
	owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(self->manager));
	if (owner == NULL)
		return;
	self->simulated = sdt_manager_get_simulated(self->manager);
	sdt_window_update_banner(self);
	sdt_overview_page_set_simulated(SDT_OVERVIEW_PAGE(self->overview_page), self->simulated);
}

void
sdt_window_refresh(SdtWindow *self)
{
	g_return_if_fail(SDT_IS_WINDOW(self));
	if (self->manager == NULL)
		return;
	sdt_overview_page_refresh(SDT_OVERVIEW_PAGE(self->overview_page));
	sdt_recommend_page_refresh(SDT_RECOMMEND_PAGE(self->recommend_page));
	sdt_history_page_refresh(SDT_HISTORY_PAGE(self->history_page));
	sdt_health_page_refresh(SDT_HEALTH_PAGE(self->health_page));
}

static void
sdt_window_set_manager(SdtWindow *self, SdtManager *manager)
{
	g_set_object(&self->manager, manager);
	sdt_overview_page_set_manager(SDT_OVERVIEW_PAGE(self->overview_page), manager);
	sdt_benchmark_page_set_manager(SDT_BENCHMARK_PAGE(self->benchmark_page), manager);
	sdt_recommend_page_set_manager(SDT_RECOMMEND_PAGE(self->recommend_page), manager);
	sdt_history_page_set_manager(SDT_HISTORY_PAGE(self->history_page), manager);
	sdt_health_page_set_manager(SDT_HEALTH_PAGE(self->health_page), manager);
}

static void
sdt_window_name_owner_cb(GObject *proxy, GParamSpec *pspec, SdtWindow *self)
{
	g_autofree gchar *owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(proxy));

	/* the helper exits when idle: that only matters while a job runs */
	if (owner == NULL) {
		sdt_benchmark_page_service_vanished(SDT_BENCHMARK_PAGE(self->benchmark_page));
		sdt_health_page_service_vanished(SDT_HEALTH_PAGE(self->health_page));
		return;
	}
	sdt_window_update_simulated(self);
}

static void
sdt_window_connection_closed_cb(GDBusConnection *connection,
				gboolean remote_peer_vanished,
				GError *error,
				SdtWindow *self)
{
	g_autoptr(GError) error_local = NULL;

	self->bus_closed = TRUE;
	sdt_benchmark_page_service_vanished(SDT_BENCHMARK_PAGE(self->benchmark_page));
	sdt_health_page_service_vanished(SDT_HEALTH_PAGE(self->health_page));
	sdt_window_set_manager(self, NULL);
	/* whatever the stream said, for the user this means the bus went away */
	error_local = g_error_new(G_IO_ERROR,
				  G_IO_ERROR_CLOSED,
				  _("The connection to the system bus was closed: %s"),
				  error != NULL ? error->message : _("the bus went away"));
	sdt_window_show_error(self, SDT_USER_ACTION_CONNECT, error_local);
}

static void
sdt_window_manager_ready_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtWindow *self;
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtManager) manager = sdt_manager_proxy_new_finish(res, &error);

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = SDT_WINDOW(user_data);
	self->connecting = FALSE;
	if (manager == NULL) {
		sdt_window_show_error(self, SDT_USER_ACTION_CONNECT, error);
		return;
	}
	g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(manager), SDT_CALL_TIMEOUT_MS);
	g_signal_connect_object(manager,
				"notify::g-name-owner",
				G_CALLBACK(sdt_window_name_owner_cb),
				self,
				0);
	sdt_window_set_manager(self, manager);
	sdt_window_update_simulated(self);
	sdt_window_refresh(self);
}

static void
sdt_window_connection_ready_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtWindow *self;
	g_autoptr(GError) error = NULL;
	g_autoptr(GDBusConnection) connection =
		g_dbus_connection_new_for_address_finish(res, &error);

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = SDT_WINDOW(user_data);
	if (connection == NULL) {
		self->connecting = FALSE;
		sdt_window_show_error(self, SDT_USER_ACTION_CONNECT, error);
		return;
	}
	if (self->connection != NULL)
		g_signal_handlers_disconnect_by_data(self->connection, self);
	g_set_object(&self->connection, connection);
	self->bus_closed = FALSE;
	g_signal_connect_object(connection,
				"closed",
				G_CALLBACK(sdt_window_connection_closed_cb),
				self,
				0);
	sdt_manager_proxy_new(connection,
			      G_DBUS_PROXY_FLAGS_NONE,
			      SDT_BUS_NAME,
			      SDT_MANAGER_PATH,
			      self->cancellable,
			      sdt_window_manager_ready_cb,
			      self);
}

/*
 * A connection of our own rather than the shared g_bus_get() one: that one
 * exits the process when the bus goes away, and stays closed afterwards.
 */
static void
sdt_window_connect(SdtWindow *self)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *address = NULL;

	if (self->connecting)
		return;
	address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SYSTEM, NULL, &error);
	if (address == NULL) {
		sdt_window_show_error(self, SDT_USER_ACTION_CONNECT, error);
		return;
	}
	self->connecting = TRUE;
	g_dbus_connection_new_for_address(address,
					  G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
						  G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
					  NULL,
					  self->cancellable,
					  sdt_window_connection_ready_cb,
					  self);
}

static void
sdt_window_retry(SdtWindow *self)
{
	sdt_window_hide_message(self);
	if (self->manager == NULL || self->bus_closed) {
		sdt_window_connect(self);
		return;
	}
	sdt_window_refresh(self);
}

static void
sdt_window_refresh_clicked_cb(SdtWindow *self)
{
	sdt_window_retry(self);
}

static void
sdt_window_info_bar_response_cb(SdtWindow *self, gint response)
{
	if (response == 1) {
		sdt_window_retry(self);
		return;
	}
	sdt_window_hide_message(self);
}

static void
sdt_window_refresh_activated(GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
	sdt_window_retry(SDT_WINDOW(user_data));
}

static void
sdt_window_show_page_activated(GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
	SdtWindow *self = SDT_WINDOW(user_data);
	gtk_stack_set_visible_child_name(GTK_STACK(self->stack),
					 g_variant_get_string(parameter, NULL));
}

static const GActionEntry sdt_window_actions[] = {
	{"refresh", sdt_window_refresh_activated, NULL, NULL, NULL, {0}},
	{"show-page", sdt_window_show_page_activated, "s", NULL, NULL, {0}},
};

/* bench/app-startup.sh: the time of the first frame and the memory used by then */
static void
sdt_window_after_paint_cb(GdkFrameClock *clock, SdtWindow *self)
{
	g_autofree gchar *status = NULL;
	const gchar *hwm;

	g_signal_handlers_disconnect_by_func(clock, sdt_window_after_paint_cb, self);
	if (g_file_get_contents("/proc/self/status", &status, NULL, NULL) &&
	    (hwm = strstr(status, "VmHWM:")) != NULL) {
		g_print("sd-tuner: first-frame realtime-us=%" G_GINT64_FORMAT " %.*s\n",
			g_get_real_time(),
			(gint) strcspn(hwm, "\n"),
			hwm);
	} else {
		g_print("sd-tuner: first-frame realtime-us=%" G_GINT64_FORMAT "\n",
			g_get_real_time());
	}
}

static void
sdt_window_realize(GtkWidget *widget)
{
	SdtWindow *self = SDT_WINDOW(widget);

	GTK_WIDGET_CLASS(sdt_window_parent_class)->realize(widget);
	if (g_getenv("SDTUNER_REPORT_FIRST_FRAME") != NULL) {
		g_signal_connect(gtk_widget_get_frame_clock(widget),
				 "after-paint",
				 G_CALLBACK(sdt_window_after_paint_cb),
				 self);
	}
}

static void
sdt_window_dispose(GObject *object)
{
	SdtWindow *self = SDT_WINDOW(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	if (self->connection != NULL)
		g_signal_handlers_disconnect_by_data(self->connection, self);
	g_clear_object(&self->connection);
	g_clear_pointer(&self->board_model, g_free);
	G_OBJECT_CLASS(sdt_window_parent_class)->dispose(object);
}

static void
sdt_window_init(SdtWindow *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	self->cancellable = g_cancellable_new();
	g_action_map_add_action_entries(G_ACTION_MAP(self),
					sdt_window_actions,
					G_N_ELEMENTS(sdt_window_actions),
					self);
	sdt_window_connect(self);
}

static void
sdt_window_class_init(SdtWindowClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = sdt_window_dispose;
	widget_class->realize = sdt_window_realize;

	g_type_ensure(SDT_TYPE_OVERVIEW_PAGE);
	g_type_ensure(SDT_TYPE_BENCHMARK_PAGE);
	g_type_ensure(SDT_TYPE_RECOMMEND_PAGE);
	g_type_ensure(SDT_TYPE_HISTORY_PAGE);
	g_type_ensure(SDT_TYPE_HEALTH_PAGE);

	gtk_widget_class_set_template_from_resource(widget_class,
						    "/org/example/SdTuner/sdt-window.ui");
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, stack);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, info_bar);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, info_label);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, retry_button);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, simulated_banner);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, overview_page);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, benchmark_page);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, recommend_page);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, history_page);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, health_page);
	gtk_widget_class_bind_template_callback(widget_class, sdt_window_refresh_clicked_cb);
	gtk_widget_class_bind_template_callback(widget_class, sdt_window_info_bar_response_cb);
}

SdtWindow *
sdt_window_new(GtkApplication *app)
{
	return g_object_new(SDT_TYPE_WINDOW, "application", app, NULL);
}
