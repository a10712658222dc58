/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-device-list.h"

G_BEGIN_DECLS

/* translated, one line each, or NULL when there is nothing to say: what the helper put
 * back when it saw a card a killed check had left changed ("repaired"), and why a
 * journal still waits ("repair_waiting", English from the helper) */
gchar *sdt_client_devices_repair_words(const SdtDeviceList *list);

/* translated: what the device is, for a person: "Generic STORAGE DEVICE (sda), 31.9 GB" */
gchar *sdt_client_devices_title(const SdtDeviceListEntry *device);
/* translated: "can be checked" (a stand-in on a simulated board says so), or why not */
gchar *sdt_client_devices_verdict(const SdtDeviceListEntry *device);
/* translated: what is on it: "MBR partition table; vfat, ext4", "no partition table or
 * file system found", NULL when there is no medium */
gchar *sdt_client_devices_contents(const SdtDeviceListEntry *device);

G_END_DECLS
