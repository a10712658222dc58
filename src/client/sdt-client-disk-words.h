/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-info-report.h"

G_BEGIN_DECLS

/*
 * The words for what the info and health documents say about the disk itself
 * (sdt-info-report.h): where the system runs from, and an eMMC's own wear
 * report (PLATFORM.md §6.8), shown by `sdtunerctl info`, `sdtunerctl health`
 * and the app.  Translated; pure.
 */

/* what a system partition of card.system_device is: "an NVMe drive", "a USB drive",
 * "another SD card or eMMC"; NULL for NULL or a name it does not know */
const gchar *sdt_client_disk_words_system_device_kind(const gchar *device);

/* a life-time estimate (card.emmc.life_time_a.value): "10–20% of its rated life used
 * (0x02)", "past its rated life ...", "not reported by the chip (0x00)", "unknown value
 * 0x0C ..."; unknown (-1, or not a byte): "unknown (the chip's report cannot be read)" */
gchar *sdt_client_disk_words_life_time(gint64 value);
/* card.emmc.pre_eol.value: "normal (0x01)", "warning (0x02): ...", ... */
gchar *sdt_client_disk_words_pre_eol(gint64 value);
/* one sentence on the whole chip from its verdict (card.emmc.wear: "normal", "warning",
 * "urgent"; anything else is unknown) */
gchar *sdt_client_disk_words_emmc_summary(const gchar *wear);

G_END_DECLS
