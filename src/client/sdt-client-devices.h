/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* one device of `devices --json` (DESIGN.md, issue 34); strings are NULL when null */
typedef struct {
	gchar *device; /* "sda" */
	gchar *path;   /* "/dev/sda" */
	gchar *vendor;
	gchar *model;
	gchar *serial;
	gchar *bus;
	gint64 size_bytes; /* 0: no medium */
	gboolean offered;
	gchar *reason_code;          /* NULL when offered, or "stand-in" (offered: a loop device
				      * on a simulated board) */
	gchar *reason;               /* English, NULL when offered as a card */
	GPtrArray *mount_points;     /* of gchar* */
	gchar *partition_table;      /* "dos", "gpt", NULL */
	GPtrArray *filesystem_types; /* of gchar*: "vfat", ... one per file system found */
	gchar *signatures_from;      /* "blkid", "udev"; NULL: what is on it is unknown */
} SdtClientDevice;

/* the devices of the document, in its order (an array of SdtClientDevice); NULL and
 * SDT_ERROR_INVALID_DATA naming the member when one has the wrong type */
GPtrArray *sdt_client_devices_from_json(JsonObject *obj, GError **error);

/* translated, one line each, or NULL when there is nothing to say: what the helper put
 * back when it saw a card a killed check had left changed ("repaired"), and why a
 * journal still waits ("repair_waiting", English from the helper); NULL with
 * SDT_ERROR_INVALID_DATA naming the member when one has the wrong type */
gchar *sdt_client_devices_repair_words(JsonObject *obj, GError **error);

/* translated: what the device is, for a person: "Generic STORAGE DEVICE (sda), 31.9 GB" */
gchar *sdt_client_devices_title(const SdtClientDevice *device);
/* translated: "can be checked" (a stand-in on a simulated board says so), or why not */
gchar *sdt_client_devices_verdict(const SdtClientDevice *device);
/* translated: what is on it: "MBR partition table; vfat, ext4", "no partition table or
 * file system found", NULL when there is no medium */
gchar *sdt_client_devices_contents(const SdtClientDevice *device);

G_END_DECLS
