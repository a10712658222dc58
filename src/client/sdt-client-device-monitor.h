/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* udev's block device events (a card put in or taken out of a reader, a reader plugged
 * in), in the thread-default main context of the caller of sdt_client_device_monitor_new() */
typedef struct _SdtClientDeviceMonitor SdtClientDeviceMonitor;

/* @action: "add", "remove", "change"; @name: the kernel name ("sda", "sda1") */
typedef void (*SdtClientDeviceMonitorFunc)(const gchar *action,
					   const gchar *name,
					   gpointer user_data);

/* listens to udev (after its rules ran: the properties are set); NULL when udev cannot
 * be reached */
SdtClientDeviceMonitor *
sdt_client_device_monitor_new(SdtClientDeviceMonitorFunc func, gpointer user_data, GError **error);
void sdt_client_device_monitor_free(SdtClientDeviceMonitor *monitor);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientDeviceMonitor, sdt_client_device_monitor_free)

G_END_DECLS
