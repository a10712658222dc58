/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-emmc.h"

G_BEGIN_DECLS

/*
 * What src/platform shares of sdt-emmc only among its own files and its tests (the
 * public interface is sdt-emmc.h).  Private to src/platform: tests/check-shape.py
 * fails any other file that includes it.
 */

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
