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

G_END_DECLS
