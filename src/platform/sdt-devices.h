/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-device-offer.h"

G_BEGIN_DECLS

/* a file system (or other signature: swap, LUKS) on a device or one of its partitions */
typedef struct {
	gchar *device; /* "sda1", or the disk's own name for a file system without partitions */
	gchar *type;   /* "vfat", "ext4", "exfat", "swap", ... */
	gchar *label;  /* NULL when it has none */
} SdtDeviceFs;

/* one whole-disk block device that might be a card (issue 34) */
typedef struct {
	gchar *name;    /* "sda", "mmcblk1" */
	gchar *devnode; /* "/dev/sda" */
	gchar *syspath;
	guint major;
	guint minor;
	gchar *vendor;      /* as udev reports it (ID_VENDOR_ENC decoded), NULL when unknown */
	gchar *model;       /* ID_MODEL_ENC, the SCSI model, the mmc card's name */
	gchar *serial;      /* ID_SERIAL_SHORT, the mmc card's serial */
	gchar *bus;         /* ID_BUS or the parent's subsystem: "usb", "mmc", "ata", ... */
	gchar *card_type;   /* an mmc device's sysfs type ("SD", "MMC"), else NULL */
	guint64 size_bytes; /* 0: no medium */
	SdtDeviceOfferFacts facts;
	SdtDeviceOffer offer;
	GPtrArray *mount_points;      /* where it and its partitions are mounted */
	gchar *partition_table;       /* "dos", "gpt", NULL when none was found */
	GPtrArray *filesystems;       /* SdtDeviceFs */
	const gchar *signatures_from; /* "blkid" (read the device), "udev" (its database: the
				       * device could not be opened), NULL (no medium, or
				       * neither could tell: partition_table and filesystems
				       * are then unknown) */
	/* the USB link of the reader it sits behind (sysfs "speed" of the usb_device: 12,
	 * 480, 5000, 10000 Mbit/s); 0 when not behind USB or unknown */
	gdouble usb_speed_mbit_s;
} SdtDevice;

/*
 * The whole-disk block devices udev knows (not RAM disks, unbound loop devices, optical
 * drives or an eMMC's boot and RPMB areas), by name, each with its facts and the decision
 * of sdt_device_offer_decide(). @mounts is the mount table (sdt_mounts_load()): the system
 * disk is the one holding /, /boot/firmware or /boot, through partitions and device-mapper
 * layers. Returns an array of SdtDevice, or NULL when udev cannot be reached.
 */
GPtrArray *sdt_devices_list(GPtrArray *mounts, GError **error);

/*
 * The device of @devices that @name is: a kernel name ("sda"), a device node, a symbolic
 * link to one (/dev/disk/by-id/...) or a partition of it ("sda1", "/dev/sda1"). NULL with
 * SDT_ERROR_NOT_FOUND when it is none of them.
 */
SdtDevice *sdt_devices_lookup(GPtrArray *devices, const gchar *name, GError **error);

G_END_DECLS
