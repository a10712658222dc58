/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The devices document: `sdtunerctl devices --json`, the helper's GetDevices,
 * the Cards page (DESIGN.md, issue 34).  Strings are NULL when null on the
 * wire; a number that is unknown is NaN; the flags read FALSE when absent.
 */

/* a file system found on the device */
typedef struct {
	gchar *device; /* "sda1" */
	gchar *type;   /* "vfat" */
	gchar *label;
} SdtDeviceListFs;

typedef struct {
	gchar *device; /* "sda" */
	gchar *path;   /* "/dev/sda" */
	gchar *vendor;
	gchar *model;
	gchar *serial;
	gchar *bus;
	gchar *card_type;
	gdouble usb_speed_mbit_s; /* the reader's USB link (issue 34); NaN: not behind USB */
	gint64 size_bytes;        /* 0: no medium */
	gboolean offered;
	gchar *reason_code; /* NULL when offered, or "stand-in" (offered: a loop device on a
			     * simulated board) */
	gchar *reason;      /* English, NULL when offered as a card */
	gboolean system_disk;
	gboolean removable;
	gboolean sd_card;
	gboolean medium;
	gboolean mounted;
	gboolean in_use;
	gboolean read_only;
	GPtrArray *mount_points; /* of gchar* */
	gchar *partition_table;  /* "dos", "gpt", NULL */
	GPtrArray *filesystems;  /* of SdtDeviceListFs */
	gchar *signatures_from;  /* "blkid", "udev"; NULL: what is on it is unknown */
} SdtDeviceListEntry;

/* what `devices` put back on a card a killed check had left changed */
typedef struct {
	gchar *device;
	gint64 blocks; /* 4 KiB blocks */
} SdtDeviceListRepair;

typedef struct {
	GPtrArray *repaired;   /* of SdtDeviceListRepair */
	gchar *repair_waiting; /* English: why a journal still waits for its card, or NULL */
	GPtrArray *devices;    /* of SdtDeviceListEntry, in the document's order */
} SdtDeviceList;

SdtDeviceList *sdt_device_list_new(void);
void sdt_device_list_free(SdtDeviceList *list);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtDeviceList, sdt_device_list_free)

/* an entry with its arrays empty and its USB speed unknown, appended to @list */
SdtDeviceListEntry *sdt_device_list_add(SdtDeviceList *list);
/* a file system appended to @entry (copies) */
void sdt_device_list_add_fs(SdtDeviceListEntry *entry,
			    const gchar *device,
			    const gchar *type,
			    const gchar *label);
/* a repair appended to @list */
void sdt_device_list_add_repair(SdtDeviceList *list, const gchar *device, gint64 blocks);

/* strict: a member of the wrong type is SDT_ERROR_INVALID_DATA naming it
 * ("devices[1].size_bytes"); "devices" and each device's "device" are required */
SdtDeviceList *sdt_device_list_parse(const gchar *text, GError **error);
/* the document as `devices --json` prints it (valid UTF-8 whatever sysfs holds) */
gchar *sdt_device_list_to_string(const SdtDeviceList *list);

G_END_DECLS
