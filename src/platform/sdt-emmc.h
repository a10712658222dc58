/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-card-regs.h"

G_BEGIN_DECLS

/*
 * eMMC (CM4, CM5 and other boards with on-module flash): the wear the chip itself
 * reports through the Linux mmc core's sysfs attributes (PLATFORM.md §6.8):
 *
 *   life_time     "0x%02x 0x%02x"  DEVICE_LIFE_TIME_EST_TYP_A, _TYP_B (EXT_CSD[268], [269])
 *   pre_eol_info  "0x%02x"         PRE_EOL_INFO (EXT_CSD[267])
 *
 * Pure: parsing and words only, no file access.  A value that cannot be read is -1;
 * a value outside the JEDEC table (0x0C..0xFF) is kept as read and called unknown.
 */

#define SDT_EMMC_VALUE_UNKNOWN (-1)

/* the JEDEC life-time estimate: 0x01 = 0–10% used … 0x0A = 90–100%, 0x0B = exceeded */
#define SDT_EMMC_LIFE_TIME_EXCEEDED 0x0b

typedef enum {
	SDT_EMMC_PRE_EOL_NOT_DEFINED = 0x00,
	SDT_EMMC_PRE_EOL_NORMAL = 0x01,
	SDT_EMMC_PRE_EOL_WARNING = 0x02, /* 80% of the reserved blocks consumed */
	SDT_EMMC_PRE_EOL_URGENT = 0x03,
} SdtEmmcPreEol;

/* the overall verdict on the chip's wear, the worst of its three figures */
typedef enum {
	SDT_EMMC_WEAR_UNKNOWN, /* nothing readable or defined */
	SDT_EMMC_WEAR_NORMAL,  /* pre-EOL normal and under 80% of the life used */
	SDT_EMMC_WEAR_WARNING, /* pre-EOL warning, or 80–100% of the life used */
	SDT_EMMC_WEAR_URGENT,  /* pre-EOL urgent, or past its rated life */
} SdtEmmcWearLevel;

typedef struct {
	gint life_time_a; /* DEVICE_LIFE_TIME_EST_TYP_A (SLC-mode / type A memory), -1 unknown */
	gint life_time_b; /* DEVICE_LIFE_TIME_EST_TYP_B (MLC/TLC / type B memory), -1 unknown */
	gint pre_eol;     /* PRE_EOL_INFO, -1 unknown */
} SdtEmmcWear;

void sdt_emmc_wear_init(SdtEmmcWear *wear);

/* "0x02 0x03" (the kernel's format); anything else is SDT_ERROR_INVALID_DATA */
gboolean sdt_emmc_life_time_parse(const gchar *text, gint *type_a, gint *type_b, GError **error);
/* "0x01" */
gboolean sdt_emmc_pre_eol_parse(const gchar *text, gint *value, GError **error);

/* life time: the lower and upper bound of the share of the rated life used, in percent;
 * FALSE for 0x00, unknown values and -1.  0x0B (exceeded) gives 100 and -1 (no bound). */
gboolean sdt_emmc_life_time_range(gint value, gint *min_percent, gint *max_percent);

/* JSON words: "not-defined", "used" (0x01..0x0A), "exceeded", "unknown" */
const gchar *sdt_emmc_life_time_state_to_string(gint value);
/* JSON words: "not-defined", "normal", "warning", "urgent", "unknown" */
const gchar *sdt_emmc_pre_eol_to_string(gint value);

SdtEmmcWearLevel sdt_emmc_wear_level(const SdtEmmcWear *wear);
/* "unknown", "normal", "warning", "urgent" */
const gchar *sdt_emmc_wear_level_to_string(SdtEmmcWearLevel level);

/*
 * The eMMC CID (JEDEC JESD84: MID [127:120], CBX [113:112], OID [111:104], PNM [103:56]
 * six characters, PRV [55:48], PSN [47:16], MDT [15:8]: month [15:12], year [11:8] from
 * 1997, or from 2013 when @ext_csd_rev > 4 and the year would be before 2010, as the
 * kernel's mmc_decode_cid() does).  @ext_csd_rev < 0: unknown, taken as > 4 (every eMMC
 * made since 2010).  The OID is one byte: cid->oemid is left empty and @oemid gets it.
 */
gboolean
sdt_emmc_cid_parse(const gchar *hex, gint ext_csd_rev, SdtCid *cid, guint *oemid, GError **error);

/* the likely maker behind an eMMC manufacturer id (not the SD table), NULL if unknown */
const gchar *sdt_emmc_manufacturer_name(guint manfid);

G_END_DECLS
