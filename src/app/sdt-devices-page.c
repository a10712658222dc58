/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-app-inhibit.h"
#include "sdt-check-map.h"
#include "sdt-check-result.h"
#include "sdt-check-words.h"
#include "sdt-client-check-map.h"
#include "sdt-client-devices.h"
#include "sdt-client-job.h"
#include "sdt-client-device-monitor.h"
#include "sdt-error.h"
#include "sdt-devices-page.h"
#include "sdt-session.h"
#include "sdt-user-error.h"

/* udev sends a burst for one card (the disk, each partition, a change): ask once after it */
#define SDT_DEVICES_PAGE_SETTLE_MS 300

struct _SdtDevicesPage {
	GtkBox parent_instance;
	SdtSession *session;
	SdtManager *manager;
	GCancellable *cancellable;
	SdtClientDeviceMonitor *monitor;
	guint settle_id;
	GtkWidget *status_label; /* empty list, or the list could not be read */
	GtkWidget *list;
	GPtrArray *check_buttons; /* the rows' Check buttons (not owned) */
	/* the quick check of one card (issue 34): shown from its start on */
	GtkWidget *check_box;
	GtkWidget *check_title;
	GtkWidget *progress_bar;
	GtkWidget *stop_button;
	GtkWidget *result_label;
	GtkWidget *map;
	SdtClientJob *job; /* the check followed (sdt-client-job.h) */
	gboolean running;
	SdtAppInhibit *inhibit; /* while a check runs (sdt-app-inhibit.h) */
};

G_DEFINE_TYPE(SdtDevicesPage, sdt_devices_page, GTK_TYPE_BOX)

static GtkWidget *
sdt_devices_page_label(const gchar *text, gboolean bold)
{
	GtkWidget *label = gtk_label_new(text);

	gtk_label_set_xalign(GTK_LABEL(label), 0);
	gtk_label_set_line_wrap(GTK_LABEL(label), TRUE);
	gtk_label_set_selectable(GTK_LABEL(label), FALSE);
	if (bold) {
		PangoAttrList *attrs = pango_attr_list_new();
		pango_attr_list_insert(attrs, pango_attr_weight_new(PANGO_WEIGHT_BOLD));
		gtk_label_set_attributes(GTK_LABEL(label), attrs);
		pango_attr_list_unref(attrs);
	}
	return label;
}

static void sdt_devices_page_check_clicked(GtkButton *button, SdtDevicesPage *self);

static void
sdt_devices_page_update_buttons(SdtDevicesPage *self)
{
	for (guint i = 0; i < self->check_buttons->len; i++)
		gtk_widget_set_sensitive(g_ptr_array_index(self->check_buttons, i),
					 !self->running && self->manager != NULL);
}

/* one row: what the device is, whether it can be checked (or why not), what is on it; a
 * card that can be checked gets its Check button */
static GtkWidget *
sdt_devices_page_row(SdtDevicesPage *self, const SdtDeviceListEntry *d)
{
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
	g_autofree gchar *title = sdt_client_devices_title(d);
	g_autofree gchar *verdict = sdt_client_devices_verdict(d);
	g_autofree gchar *contents = sdt_client_devices_contents(d);
	GtkWidget *verdict_label = sdt_devices_page_label(verdict, FALSE);

	gtk_widget_set_margin_top(box, 6);
	gtk_widget_set_margin_bottom(box, 6);
	gtk_widget_set_margin_start(box, 6);
	gtk_widget_set_margin_end(box, 6);
	gtk_container_add(GTK_CONTAINER(box), sdt_devices_page_label(title, TRUE));
	gtk_widget_set_name(verdict_label, d->offered ? "offered" : "not-offered");
	gtk_container_add(GTK_CONTAINER(box), verdict_label);
	if (contents != NULL)
		gtk_container_add(GTK_CONTAINER(box), sdt_devices_page_label(contents, FALSE));
	if (d->offered && d->path != NULL) {
		GtkWidget *button = gtk_button_new_with_mnemonic(_("_Check"));
		/* Translators: the accessible name of a card's Check button: the device */
		g_autofree gchar *name = g_strdup_printf(_("Check %s"), d->path);

		atk_object_set_name(gtk_widget_get_accessible(button), name);
		gtk_widget_set_tooltip_text(button,
					    _("Checks whether the card holds what it claims, "
					      "putting every block it writes back"));
		gtk_widget_set_halign(button, GTK_ALIGN_START);
		g_object_set_data_full(G_OBJECT(button), "sdt-device", g_strdup(d->path), g_free);
		g_object_set_data_full(G_OBJECT(button),
				       "sdt-title",
				       g_steal_pointer(&title),
				       g_free);
		g_signal_connect(button,
				 "clicked",
				 G_CALLBACK(sdt_devices_page_check_clicked),
				 self);
		g_ptr_array_add(self->check_buttons, button);
		gtk_container_add(GTK_CONTAINER(box), button);
	}
	gtk_widget_show_all(box);
	return box;
}

static void
sdt_devices_page_clear(SdtDevicesPage *self)
{
	g_autoptr(GList) rows = gtk_container_get_children(GTK_CONTAINER(self->list));

	g_ptr_array_set_size(self->check_buttons, 0);
	for (GList *l = rows; l != NULL; l = l->next)
		gtk_widget_destroy(GTK_WIDGET(l->data));
}

static void
sdt_devices_page_done(gpointer page, const gchar *json, const GError *error)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(page);
	g_autoptr(GError) read_error = NULL;
	g_autoptr(SdtDeviceList) list = NULL;
	g_autofree gchar *repairs = NULL;

	sdt_devices_page_clear(self);
	if (json != NULL)
		list = sdt_device_list_parse(json, &read_error);
	/* what the helper put back on a card a killed check had left changed */
	if (list != NULL)
		repairs = sdt_client_devices_repair_words(list);
	if (list == NULL) {
		g_debug("no devices: %s",
			error != NULL        ? error->message
			: read_error != NULL ? read_error->message
					     : "no answer");
		gtk_label_set_text(GTK_LABEL(self->status_label),
				   _("The list of cards is not available."));
		return;
	}
	for (guint i = 0; i < list->devices->len; i++)
		gtk_container_add(GTK_CONTAINER(self->list),
				  sdt_devices_page_row(self, g_ptr_array_index(list->devices, i)));
	sdt_devices_page_update_buttons(self);
	gtk_widget_set_visible(self->list, list->devices->len > 0);
	if (repairs != NULL)
		gtk_label_set_text(GTK_LABEL(self->status_label), repairs);
	else
		gtk_label_set_text(
			GTK_LABEL(self->status_label),
			list->devices->len == 0 ? _("No card reader or other disk found.") : "");
	gtk_widget_set_visible(self->status_label, list->devices->len == 0 || repairs != NULL);
}

static void
sdt_devices_page_refresh(gpointer page)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(page);

	if (self->manager == NULL)
		return;
	gtk_widget_set_visible(self->status_label, TRUE);
	sdt_session_call_text(self->manager,
			      sdt_manager_call_get_devices,
			      sdt_manager_call_get_devices_finish,
			      self->cancellable,
			      sdt_devices_page_done,
			      self);
}

static gboolean
sdt_devices_page_settled_cb(gpointer user_data)
{
	SdtDevicesPage *self = user_data;

	self->settle_id = 0;
	sdt_devices_page_refresh(self);
	return G_SOURCE_REMOVE;
}

static void
sdt_devices_page_uevent_cb(const gchar *action, const gchar *name, gpointer user_data)
{
	SdtDevicesPage *self = user_data;

	g_debug("udev: %s %s", action, name);
	if (self->settle_id == 0)
		self->settle_id = g_timeout_add(SDT_DEVICES_PAGE_SETTLE_MS,
						sdt_devices_page_settled_cb,
						self);
}

static void
sdt_devices_page_set_running(SdtDevicesPage *self, gboolean running)
{
	self->running = running;
	gtk_widget_set_visible(self->stop_button, running);
	gtk_widget_set_visible(self->progress_bar, running);
	sdt_devices_page_update_buttons(self);
	if (running && self->inhibit == NULL) {
		GtkWidget *top = gtk_widget_get_toplevel(GTK_WIDGET(self));

		self->inhibit = sdt_app_inhibit_new(GTK_IS_WINDOW(top) ? GTK_WINDOW(top) : NULL,
						    _("A card is being checked"));
	} else if (!running) {
		g_clear_pointer(&self->inhibit, sdt_app_inhibit_free);
	}
}

static void
sdt_devices_page_end_job(SdtDevicesPage *self)
{
	g_clear_pointer(&self->job, sdt_client_job_free);
	sdt_devices_page_set_running(self, FALSE);
}

static void
sdt_devices_page_show_text(SdtDevicesPage *self, const gchar *text, const gchar *name)
{
	gtk_label_set_text(GTK_LABEL(self->result_label), text);
	gtk_widget_set_name(self->result_label, name);
}

/* the check's document: the verdict in the Health page's words, and the map */
static void
sdt_devices_page_show_result(SdtDevicesPage *self, const gchar *result)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtCheckResult) check = sdt_check_result_parse(result, &error);
	g_autoptr(SdtClientCheckMap) map = NULL;
	g_autofree gchar *words = NULL;

	if (check == NULL) {
		sdt_devices_page_show_text(self, error->message, "error");
		return;
	}
	map = sdt_client_check_map_new(check);
	words = sdt_check_words_result(check);
	sdt_devices_page_show_text(self,
				   words,
				   check->verdict != NULL ? check->verdict : "undetermined");
	sdt_check_map_set_map(SDT_CHECK_MAP(self->map), map);
	gtk_widget_set_visible(self->map, map->runs->len > 0);
}

static void sdt_devices_page_service_vanished(gpointer page);

static void
sdt_devices_page_done_cb(const gchar *result, const GError *error, gpointer user_data)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(user_data);

	if (self->job != NULL && sdt_client_job_helper_vanished(self->job)) {
		sdt_devices_page_service_vanished(self);
		return;
	}
	if (error != NULL && g_error_matches(error, SDT_ERROR, SDT_ERROR_CANCELLED)) {
		/* not the Health page's words: no space was reserved on a whole card */
		sdt_devices_page_show_text(self,
					   _("The check was stopped before it could tell "
					     "whether the card holds what it claims."),
					   "cancelled");
	} else if (error != NULL) {
		g_autoptr(GError) copy = g_error_copy(error);
		g_autofree gchar *msg = NULL;

		g_dbus_error_strip_remote_error(copy);
		msg = sdt_user_error_describe(SDT_USER_ACTION_CHECK, copy);
		sdt_devices_page_show_text(self, msg, "error");
	} else {
		sdt_devices_page_show_result(self, result);
	}
	sdt_devices_page_end_job(self);
	sdt_devices_page_refresh(self);
}

static void
sdt_devices_page_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer user_data)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(user_data);

	if (!self->running || phase == NULL || phase[0] == '\0')
		return;
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress_bar), fraction);
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar),
				  sdt_check_result_phase_label(phase));
}

/* the quick check of the button's card through the helper (its own polkit action) */
static void
sdt_devices_page_check_clicked(GtkButton *button, SdtDevicesPage *self)
{
	const gchar *device = g_object_get_data(G_OBJECT(button), "sdt-device");
	const gchar *title = g_object_get_data(G_OBJECT(button), "sdt-title");
	GVariantBuilder options;

	if (self->manager == NULL || self->running || device == NULL)
		return;
	g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
	g_variant_builder_add(&options, "{sv}", "device", g_variant_new_bytestring(device));
	gtk_label_set_text(GTK_LABEL(self->check_title), title);
	sdt_check_map_set_map(SDT_CHECK_MAP(self->map), NULL);
	gtk_widget_set_visible(self->map, FALSE);
	gtk_widget_set_visible(self->check_box, TRUE);
	sdt_devices_page_set_running(self, TRUE);
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress_bar), 0.0);
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar),
				  sdt_check_result_phase_label("prepare"));
	sdt_devices_page_show_text(self,
				   _("Checking… Every block the check writes on the card is "
				     "saved first and put back."),
				   "running");
	self->job = sdt_session_start_job_with_options(self->manager,
						       "StartCheck",
						       "quick",
						       g_variant_builder_end(&options),
						       sdt_devices_page_progress_cb,
						       sdt_devices_page_done_cb,
						       self);
}

static void
sdt_devices_page_stop_clicked(GtkButton *button, SdtDevicesPage *self)
{
	/* now, or once StartCheck has answered; Completed ends the check */
	if (self->job != NULL)
		sdt_client_job_cancel(self->job);
}

static void
sdt_devices_page_service_vanished(gpointer page)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(page);

	if (!self->running)
		return;
	sdt_devices_page_show_text(self,
				   _("The SD Tuner service stopped during the check; the blocks "
				     "it had written are put back the next time it sees the card."),
				   "error");
	sdt_devices_page_end_job(self);
}

static void
sdt_devices_page_set_manager(gpointer page, SdtManager *manager)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(page);

	sdt_devices_page_end_job(self);
	g_set_object(&self->manager, manager);
	sdt_devices_page_update_buttons(self);
}

static const SdtSessionCallbacks sdt_devices_page_session_callbacks = {
	.set_manager = sdt_devices_page_set_manager,
	.refresh = sdt_devices_page_refresh,
	.service_vanished = sdt_devices_page_service_vanished,
};

static void
sdt_devices_page_dispose(GObject *object)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(object);

	g_clear_handle_id(&self->settle_id, g_source_remove);
	g_clear_pointer(&self->monitor, sdt_client_device_monitor_free);
	g_clear_pointer(&self->job, sdt_client_job_free);
	g_clear_pointer(&self->inhibit, sdt_app_inhibit_free);
	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	sdt_session_detach(&self->session, self);
	G_OBJECT_CLASS(sdt_devices_page_parent_class)->dispose(object);
}

/* the check of one card: which, its progress and Stop, then the verdict and the map */
static void
sdt_devices_page_init_check(SdtDevicesPage *self, GtkWidget *content)
{
	GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);

	self->check_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
	self->check_title = sdt_devices_page_label("", TRUE);
	gtk_container_add(GTK_CONTAINER(self->check_box), self->check_title);
	self->progress_bar = gtk_progress_bar_new();
	gtk_progress_bar_set_show_text(GTK_PROGRESS_BAR(self->progress_bar), TRUE);
	gtk_widget_set_hexpand(self->progress_bar, TRUE);
	gtk_widget_set_valign(self->progress_bar, GTK_ALIGN_CENTER);
	atk_object_set_name(gtk_widget_get_accessible(self->progress_bar),
			    _("Progress of the card check"));
	gtk_container_add(GTK_CONTAINER(row), self->progress_bar);
	/* "_Stop", not "_Cancel": Alt+C is the Check buttons' */
	self->stop_button = gtk_button_new_with_mnemonic(_("_Stop"));
	g_signal_connect(self->stop_button,
			 "clicked",
			 G_CALLBACK(sdt_devices_page_stop_clicked),
			 self);
	gtk_container_add(GTK_CONTAINER(row), self->stop_button);
	gtk_container_add(GTK_CONTAINER(self->check_box), row);
	self->result_label = sdt_devices_page_label("", FALSE);
	gtk_label_set_selectable(GTK_LABEL(self->result_label), TRUE);
	gtk_container_add(GTK_CONTAINER(self->check_box), self->result_label);
	self->map = sdt_check_map_new();
	gtk_container_add(GTK_CONTAINER(self->check_box), self->map);
	gtk_container_add(GTK_CONTAINER(content), self->check_box);
}

static void
sdt_devices_page_init(SdtDevicesPage *self)
{
	g_autoptr(GError) error = NULL;
	GtkWidget *scrolled = gtk_scrolled_window_new(NULL, NULL);
	GtkWidget *content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);

	self->cancellable = g_cancellable_new();
	self->check_buttons = g_ptr_array_new();
	gtk_orientable_set_orientation(GTK_ORIENTABLE(self), GTK_ORIENTATION_VERTICAL);
	gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scrolled),
				       GTK_POLICY_NEVER,
				       GTK_POLICY_AUTOMATIC);
	gtk_widget_set_vexpand(scrolled, TRUE);
	g_object_set(content, "margin", 18, NULL);
	gtk_container_add(GTK_CONTAINER(content),
			  sdt_devices_page_label(_("Cards in readers and other slots"), TRUE));
	gtk_container_add(GTK_CONTAINER(content),
			  sdt_devices_page_label(_("Put a card into a USB reader or another slot "
						   "and it shows here. Only a card that is not "
						   "the system disk and not mounted can be "
						   "checked."),
						 FALSE));
	self->status_label = sdt_devices_page_label(_("Looking for cards…"), FALSE);
	gtk_container_add(GTK_CONTAINER(content), self->status_label);
	sdt_devices_page_init_check(self, content);
	self->list = gtk_list_box_new();
	gtk_list_box_set_selection_mode(GTK_LIST_BOX(self->list), GTK_SELECTION_NONE);
	gtk_container_add(GTK_CONTAINER(content), self->list);
	gtk_container_add(GTK_CONTAINER(scrolled), content);
	gtk_container_add(GTK_CONTAINER(self), scrolled);
	gtk_widget_show_all(scrolled);
	gtk_widget_set_visible(self->list, FALSE);
	gtk_widget_set_visible(self->check_box, FALSE);
	sdt_devices_page_set_running(self, FALSE);

	self->monitor = sdt_client_device_monitor_new(sdt_devices_page_uevent_cb, self, &error);
	if (self->monitor == NULL)
		g_warning("%s", error->message);
}

static void
sdt_devices_page_finalize(GObject *object)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(object);

	g_ptr_array_unref(self->check_buttons);
	G_OBJECT_CLASS(sdt_devices_page_parent_class)->finalize(object);
}

static void
sdt_devices_page_class_init(SdtDevicesPageClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->dispose = sdt_devices_page_dispose;
	object_class->finalize = sdt_devices_page_finalize;
	sdt_session_install_page_property(object_class,
					  G_STRUCT_OFFSET(SdtDevicesPage, session),
					  &sdt_devices_page_session_callbacks);
}
