/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <libudev.h>

#include "sdt-client-device-monitor.h"
#include "sdt-error.h"

struct _SdtClientDeviceMonitor {
	struct udev *udev;
	struct udev_monitor *monitor;
	GSource *source;
	SdtClientDeviceMonitorFunc func;
	gpointer user_data;
};

static gboolean
sdt_client_device_monitor_ready_cb(gint fd, GIOCondition condition, gpointer user_data)
{
	SdtClientDeviceMonitor *self = user_data;
	struct udev_device *dev;

	/* the socket is non-blocking: read every event that is there */
	while ((dev = udev_monitor_receive_device(self->monitor)) != NULL) {
		const gchar *action = udev_device_get_action(dev);
		if (action != NULL)
			self->func(action, udev_device_get_sysname(dev), self->user_data);
		udev_device_unref(dev);
	}
	return G_SOURCE_CONTINUE;
}

SdtClientDeviceMonitor *
sdt_client_device_monitor_new(SdtClientDeviceMonitorFunc func, gpointer user_data, GError **error)
{
	SdtClientDeviceMonitor *self;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(func != NULL, NULL);

	self = g_new0(SdtClientDeviceMonitor, 1);
	self->func = func;
	self->user_data = user_data;
	self->udev = udev_new();
	if (self->udev != NULL)
		self->monitor = udev_monitor_new_from_netlink(self->udev, "udev");
	if (self->monitor == NULL ||
	    udev_monitor_filter_add_match_subsystem_devtype(self->monitor, "block", NULL) < 0 ||
	    udev_monitor_enable_receiving(self->monitor) < 0) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_FAILED,
				    _("Cannot listen to udev: cards put in are not seen"));
		sdt_client_device_monitor_free(self);
		return NULL;
	}
	self->source = g_unix_fd_source_new(udev_monitor_get_fd(self->monitor), G_IO_IN);
	g_source_set_callback(self->source,
			      G_SOURCE_FUNC(sdt_client_device_monitor_ready_cb),
			      self,
			      NULL);
	g_source_attach(self->source, g_main_context_get_thread_default());
	return self;
}

void
sdt_client_device_monitor_free(SdtClientDeviceMonitor *self)
{
	if (self == NULL)
		return;
	if (self->source != NULL) {
		g_source_destroy(self->source);
		g_source_unref(self->source);
	}
	if (self->monitor != NULL)
		udev_monitor_unref(self->monitor);
	if (self->udev != NULL)
		udev_unref(self->udev);
	g_free(self);
}
