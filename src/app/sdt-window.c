/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-benchmark-page.h"
#include "sdt-devices-page.h"
#include "sdt-file.h"
#include "sdt-health-page.h"
#include "sdt-history-page.h"
#include "sdt-outcome-bar.h"
#include "sdt-overview-page.h"
#include "sdt-recommend-page.h"
#include "sdt-session.h"
#include "sdt-window.h"

struct _SdtWindow {
	GtkApplicationWindow parent_instance;
	SdtSession *session; /* built by the template, before the pages that share it */
	GtkWidget *stack;
	GtkWidget *info_bar;
	GtkWidget *outcome_bar; /* a verification's outcome not seen yet (sdt-outcome-bar.c) */
	GtkWidget *info_label;
	GtkWidget *retry_button;
	GtkWidget *simulated_banner;
};

G_DEFINE_TYPE(SdtWindow, sdt_window, GTK_TYPE_APPLICATION_WINDOW)

/* the info bar at the top: an error with what to do, or a plain notice */
static void
sdt_window_show_notice(SdtWindow *self, GtkMessageType type, const gchar *text)
{
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

static void
sdt_window_session_error_cb(SdtSession *session, gint action, const GError *error, SdtWindow *self)
{
	g_autofree gchar *text = sdt_user_error_describe((SdtUserAction) action, error);
	sdt_window_show_notice(self, GTK_MESSAGE_ERROR, text);
}

static void
sdt_window_session_notice_cb(SdtSession *session,
			     GtkMessageType type,
			     const gchar *text,
			     SdtWindow *self)
{
	sdt_window_show_notice(self, type, text);
}

static void
sdt_window_hide_message(SdtWindow *self)
{
	gtk_info_bar_set_revealed(GTK_INFO_BAR(self->info_bar), FALSE);
}

/* the banner says that the board is simulated, and names its model */
static void
sdt_window_update_banner(SdtWindow *self)
{
	const gchar *model = sdt_session_get_board_model(self->session);
	g_autofree gchar *text = NULL;

	/* Translators: %s is the simulated board's model, e.g. "Raspberry Pi 3 Model B Rev 1.2" */
	text = g_strdup_printf(
		_("Simulated %s: this computer is not a Raspberry Pi. Its boot files "
		  "and card are stand-ins, and nothing on this computer is changed."),
		model != NULL ? model : _("Raspberry Pi"));
	gtk_label_set_text(GTK_LABEL(self->simulated_banner), text);
	gtk_widget_set_visible(self->simulated_banner, sdt_session_get_simulated(self->session));
}

static void
sdt_window_retry(SdtWindow *self)
{
	sdt_window_hide_message(self);
	sdt_session_reload(self->session);
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
	if (sdt_file_read_kernel(NULL, "/proc/self/status", 64 * 1024, &status, NULL, NULL) &&
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

	/* the pages may keep the session a little longer: stop listening now */
	if (self->session != NULL)
		g_signal_handlers_disconnect_by_data(self->session, self);
	G_OBJECT_CLASS(sdt_window_parent_class)->dispose(object);
}

/* a new manager (the app's start, the helper coming back): the outcome bar reads the status */
static void
sdt_window_manager_changed(SdtWindow *self)
{
	sdt_outcome_bar_set_manager(SDT_OUTCOME_BAR(self->outcome_bar),
				    sdt_session_get_manager(self->session));
}

/* the window shows what the session reports: errors, notices, the banner */
static void
sdt_window_listen_to_session(SdtWindow *self)
{
	g_signal_connect_object(self->session,
				"notify::manager",
				G_CALLBACK(sdt_window_manager_changed),
				self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(self->session,
				"error",
				G_CALLBACK(sdt_window_session_error_cb),
				self,
				0);
	g_signal_connect_object(self->session,
				"notice",
				G_CALLBACK(sdt_window_session_notice_cb),
				self,
				0);
	g_signal_connect_object(self->session,
				"dismiss",
				G_CALLBACK(sdt_window_hide_message),
				self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(self->session,
				"notify::simulated",
				G_CALLBACK(sdt_window_update_banner),
				self,
				G_CONNECT_SWAPPED);
	g_signal_connect_object(self->session,
				"notify::board-model",
				G_CALLBACK(sdt_window_update_banner),
				self,
				G_CONNECT_SWAPPED);
}

static void
sdt_window_init(SdtWindow *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	g_action_map_add_action_entries(G_ACTION_MAP(self),
					sdt_window_actions,
					G_N_ELEMENTS(sdt_window_actions),
					self);
	sdt_window_listen_to_session(self);
	sdt_session_reload(self->session);
}

static void
sdt_window_class_init(SdtWindowClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = sdt_window_dispose;
	widget_class->realize = sdt_window_realize;

	g_type_ensure(SDT_TYPE_SESSION);
	g_type_ensure(SDT_TYPE_OVERVIEW_PAGE);
	g_type_ensure(SDT_TYPE_BENCHMARK_PAGE);
	g_type_ensure(SDT_TYPE_RECOMMEND_PAGE);
	g_type_ensure(SDT_TYPE_HISTORY_PAGE);
	g_type_ensure(SDT_TYPE_HEALTH_PAGE);
	g_type_ensure(SDT_TYPE_DEVICES_PAGE);
	g_type_ensure(SDT_TYPE_OUTCOME_BAR);

	gtk_widget_class_set_template_from_resource(widget_class,
						    "/org/example/SdTuner/sdt-window.ui");
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, session);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, stack);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, info_bar);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, outcome_bar);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, info_label);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, retry_button);
	gtk_widget_class_bind_template_child(widget_class, SdtWindow, simulated_banner);
	gtk_widget_class_bind_template_callback(widget_class, sdt_window_refresh_clicked_cb);
	gtk_widget_class_bind_template_callback(widget_class, sdt_window_info_bar_response_cb);
}

SdtWindow *
sdt_window_new(GtkApplication *app)
{
	return g_object_new(SDT_TYPE_WINDOW, "application", app, NULL);
}
