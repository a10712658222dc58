/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-card-regs.h"
#include "sdt-context.h"

G_BEGIN_DECLS

typedef struct {
	gboolean present;
	gchar *device;           /* "mmcblk0" */
	gchar *devnode;          /* "/dev/mmcblk0" */
	gchar *mmc_name;         /* "mmc0:4567" */
	gchar *type;             /* sysfs type: "SD" */
	gchar *host;             /* "mmc0" */
	gchar *host_device;      /* "3f202000.mmc" */
	gchar *host_driver;      /* "sdhost-bcm2835", NULL if unbound */
	gboolean mounts_known;   /* the mount table was read: holds_system means something */
	gboolean holds_system;   /* / or /boot/firmware is on this card */
	gchar *system_device;    /* the device / is on when it is not the card, e.g. "sda2" */
	GPtrArray *mount_points; /* where the card's partitions are mounted, in mountinfo order */
	gint64 size_bytes;       /* block device size, -1 if unknown */

	/* raw sysfs attributes, NULL when absent */
	gchar *cid_hex;
	gchar *csd_hex;
	gchar *scr_hex;
	gchar *ssr_hex;
	gchar *ext_perf_hex;
	gchar *ext_power_hex;
	gchar *sysfs_name; /* fallback for the name when the CID is unreadable */

	/* decoded from the raw strings by sdt_card_detect() */
	gboolean cid_valid;
	SdtCid cid;
	gboolean csd_valid;
	SdtCsd csd;
	gboolean scr_valid;
	SdtScr scr;
	gboolean ssr_valid;
	SdtSsr ssr;
	gint ext_perf;         /* -1 if absent or unreadable */
	gint ext_power;        /* -1 if absent or unreadable */
	gint64 capacity_bytes; /* from the CSD, else the block size; -1 if unknown */
} SdtCard;

void sdt_card_free(SdtCard *card);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtCard, sdt_card_free)

/*
 * Finds the SD card through libudev: the block device mounted at / (or
 * /boot/firmware, /boot) → its mmc parent → the mmc host and its platform
 * device.  If the system is elsewhere, the first SD card present is shown.
 * @mounts is the parsed mountinfo (may be %NULL).  Never fails: no card is a
 * result (present = FALSE) with a warning.
 */
SdtCard *sdt_card_detect(GPtrArray *mounts, GPtrArray *warnings);

G_END_DECLS
