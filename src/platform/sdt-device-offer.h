/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* why a block device is not offered for a check or a benchmark (issue 34), most
 * important first: the first that applies is the one given */
typedef enum {
	SDT_DEVICE_OFFER_OK,            /* offered */
	SDT_DEVICE_OFFER_SYSTEM_DISK,   /* /, /boot/firmware or /boot live on it */
	SDT_DEVICE_OFFER_NOT_REMOVABLE, /* a fixed disk (eMMC, a USB SSD, a loop device) */
	SDT_DEVICE_OFFER_NO_MEDIUM,     /* a reader with no card in it */
	SDT_DEVICE_OFFER_MOUNTED,       /* it or one of its partitions is mounted */
	SDT_DEVICE_OFFER_IN_USE,        /* held by the device mapper or RAID (sysfs holders) */
	SDT_DEVICE_OFFER_READ_ONLY,     /* the card's write-protect switch, or a read-only disk */
	SDT_DEVICE_OFFER_STAND_IN,      /* offered: a loop device standing in for a card on a
					 * simulated board (sdt_device_offer_decide_stand_in) */
} SdtDeviceOffer;

/* what the decision is taken on, as sdt-devices reads them from udev and the mount table */
typedef struct {
	gboolean system_disk; /* a mount of the system is on the disk, a partition or a device
			       * the disk holds up (dm-crypt, LVM) */
	gboolean removable;   /* sysfs "removable" is 1 (a card reader, a USB stick) */
	gboolean sd_card;     /* an SD card in an mmc slot (type SD or SDcombo) */
	gboolean medium;      /* the size is not 0 */
	gboolean mounted;     /* the disk or a partition of it is in the mount table */
	gboolean held;        /* the disk or a partition of it has holders */
	gboolean read_only;   /* sysfs "ro" is 1 */
	gboolean loop;        /* a loop device (with a backing file) */
} SdtDeviceOfferFacts;

/*
 * On a simulated board only (a root prefix: the tests, tools/run.sh), where the only block
 * devices a test can make are loop devices: a loop device that nothing but being fixed
 * keeps from a check is SDT_DEVICE_OFFER_STAND_IN; any other device, or a loop device that
 * is mounted, held, read-only or empty, is decided as sdt_device_offer_decide() does. Never
 * on a real system: a fixed disk there is not a card.
 */
SdtDeviceOffer sdt_device_offer_decide_stand_in(const SdtDeviceOfferFacts *facts);

/* OK or STAND_IN: the device may be checked */
gboolean sdt_device_offer_is_offered(SdtDeviceOffer offer);

/* the JSON reason_code: NULL for OK, "system-disk", "not-removable", "no-medium", "mounted",
 * "in-use", "read-only", "stand-in" (offered) */
const gchar *sdt_device_offer_to_code(SdtDeviceOffer offer);

/* the English reason (the JSON reason, translated where it is shown): NULL for OK; for
 * STAND_IN what it is */
const gchar *sdt_device_offer_to_reason(SdtDeviceOffer offer);

G_END_DECLS
