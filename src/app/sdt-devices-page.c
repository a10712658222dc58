/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-client-devices.h"
#include "sdt-device-monitor.h"
#include "sdt-devices-page.h"
#include "sdt-session.h"

/* udev sends a burst for one card (the disk, each partition, a change): ask once after it */
#define SDT_DEVICES_PAGE_SETTLE_MS 300

struct _SdtDevicesPage {
	GtkBox parent_instance;
	SdtSession *session;
	SdtManager *manager;
	GCancellable *cancellable;
	SdtDeviceMonitor *monitor;
	guint settle_id;
	GtkWidget *status_label; /* empty list, or the list could not be read */
	GtkWidget *list;
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

/* one row: what the device is, whether it can be checked (or why not), what is on it */
static GtkWidget *
sdt_devices_page_row(const SdtClientDevice *d)
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
	gtk_widget_show_all(box);
	return box;
}

static void
sdt_devices_page_clear(SdtDevicesPage *self)
{
	g_autoptr(GList) rows = gtk_container_get_children(GTK_CONTAINER(self->list));

	for (GList *l = rows; l != NULL; l = l->next)
		gtk_widget_destroy(GTK_WIDGET(l->data));
}

static void
sdt_devices_page_done(gpointer page, JsonNode *root, const GError *error)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(page);
	g_autoptr(GError) read_error = NULL;
	g_autoptr(GPtrArray) devices = NULL;

	sdt_devices_page_clear(self);
	if (root != NULL && JSON_NODE_HOLDS_OBJECT(root))
		devices = sdt_client_devices_from_json(json_node_get_object(root), &read_error);
	if (devices == NULL) {
		g_debug("no devices: %s",
			error != NULL        ? error->message
			: read_error != NULL ? read_error->message
					     : "not an object");
		gtk_label_set_text(GTK_LABEL(self->status_label),
				   _("The list of cards is not available."));
		return;
	}
	for (guint i = 0; i < devices->len; i++)
		gtk_container_add(GTK_CONTAINER(self->list),
				  sdt_devices_page_row(g_ptr_array_index(devices, i)));
	gtk_widget_set_visible(self->list, devices->len > 0);
	gtk_label_set_text(GTK_LABEL(self->status_label),
			   devices->len == 0 ? _("No card reader or other disk found.") : "");
	gtk_widget_set_visible(self->status_label, devices->len == 0);
}

static void
sdt_devices_page_refresh(gpointer page)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(page);

	if (self->manager == NULL)
		return;
	gtk_widget_set_visible(self->status_label, TRUE);
	sdt_session_call_json(self->manager,
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
sdt_devices_page_set_manager(gpointer page, SdtManager *manager)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(page);
	g_set_object(&self->manager, manager);
}

static const SdtSessionCallbacks sdt_devices_page_session_callbacks = {
	.set_manager = sdt_devices_page_set_manager,
	.refresh = sdt_devices_page_refresh,
};

static void
sdt_devices_page_dispose(GObject *object)
{
	SdtDevicesPage *self = SDT_DEVICES_PAGE(object);

	g_clear_handle_id(&self->settle_id, g_source_remove);
	g_clear_pointer(&self->monitor, sdt_device_monitor_free);
	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	sdt_session_detach(&self->session, self);
	G_OBJECT_CLASS(sdt_devices_page_parent_class)->dispose(object);
}

static void
sdt_devices_page_init(SdtDevicesPage *self)
{
	g_autoptr(GError) error = NULL;
	GtkWidget *scrolled = gtk_scrolled_window_new(NULL, NULL);
	GtkWidget *content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);

	self->cancellable = g_cancellable_new();
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
	self->list = gtk_list_box_new();
	gtk_list_box_set_selection_mode(GTK_LIST_BOX(self->list), GTK_SELECTION_NONE);
	gtk_container_add(GTK_CONTAINER(content), self->list);
	gtk_container_add(GTK_CONTAINER(scrolled), content);
	gtk_container_add(GTK_CONTAINER(self), scrolled);
	gtk_widget_show_all(scrolled);
	gtk_widget_set_visible(self->list, FALSE);

	self->monitor = sdt_device_monitor_new(sdt_devices_page_uevent_cb, self, &error);
	if (self->monitor == NULL)
		g_warning("%s", error->message);
}

static void
sdt_devices_page_class_init(SdtDevicesPageClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);

	object_class->dispose = sdt_devices_page_dispose;
	sdt_session_install_page_property(object_class,
					  G_STRUCT_OFFSET(SdtDevicesPage, session),
					  &sdt_devices_page_session_callbacks);
}
