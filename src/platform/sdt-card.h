/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-card-regs.h"
#include "sdt-context.h"
#include "sdt-emmc.h"

G_BEGIN_DECLS

/* what the mmc device is (sysfs "type"): an SD card, or eMMC soldered to the board */
typedef enum {
	SDT_CARD_KIND_SD,   /* "SD", "SDcombo" */
	SDT_CARD_KIND_EMMC, /* "MMC": eMMC (CM4, CM5 and other boards with on-module flash) */
} SdtCardKind;

/* "sd" | "emmc", the JSON card.kind */
const gchar *sdt_card_kind_to_string(SdtCardKind kind);

typedef struct {
	gboolean present;
	gchar *device;           /* "mmcblk0" */
	gchar *devnode;          /* "/dev/mmcblk0" */
	gchar *mmc_name;         /* "mmc0:4567" */
	gchar *type;             /* sysfs type: "SD", "MMC" */
	SdtCardKind kind;        /* from type: SD card or eMMC */
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
	/* eMMC only (PLATFORM.md §6.8) */
	gchar *life_time_text;   /* "0x02 0x03" */
	gchar *pre_eol_text;     /* "0x01" */
	gchar *ext_csd_rev_text; /* sysfs "rev": EXT_CSD_REV, "0x8" */

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
	/* eMMC: decoded by sdt_card_detect(); every member -1 for an SD card */
	SdtEmmcWear emmc;      /* life_time A/B and pre_eol_info, -1 when unreadable */
	guint emmc_oemid;      /* the eMMC CID's one-byte OID (cid.oemid stays empty) */
	gint emmc_ext_csd_rev; /* EXT_CSD_REV, -1 unknown */
} SdtCard;

void sdt_card_free(SdtCard *card);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtCard, sdt_card_free)

/*
 * Finds the SD card or eMMC through libudev: the block device mounted at / (or
 * /boot/firmware, /boot) → its mmc parent → the mmc host and its platform
 * device.  If the system is elsewhere (NVMe, USB), the first SD card present
 * is shown (else the first eMMC), with holds_system FALSE.
 * @mounts is the parsed mountinfo (may be %NULL).  Never fails: no card is a
 * result (present = FALSE) with a warning.
 */
SdtCard *sdt_card_detect(GPtrArray *mounts, GPtrArray *warnings);

G_END_DECLS
