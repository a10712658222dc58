/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-card-regs.h"

G_BEGIN_DECLS

/*
 * What the Raspberry Pi kernel knows about an SD card's command queueing:
 * its mmc_sd_fixups table (drivers/mmc/core/quirks.h, docs/ARCHITECTURE.md
 * "Pi 5 sd_cqe=2" cites the version) matched by manufacturer id, OEM id,
 * product name, date and revision as mmc_fixup_device() does.
 *
 * - ALLOW: MMC_QUIRK_WORKING_SD_CQ: queueing is on with the default sd_cqe=1.
 * - DENY: MMC_QUIRK_BROKEN_SD_CACHE or BROKEN_SD_POWEROFF_NOTIFY: queueing needs
 *   both, so these cards are the "known-bad" that even sd_cqe=2 leaves off;
 *   SD Tuner never offers sd_cqe=2 for them.
 */
typedef enum {
	SDT_CQE_LIST_NONE,
	SDT_CQE_LIST_ALLOW,
	SDT_CQE_LIST_DENY,
} SdtCqeList;

/*
 * The list the card is on; @why (optional) is the kernel's reason (English,
 * from the table's comment, marked with N_(): translate it with _() where it
 * is shown) for a match, NULL otherwise.
 */
SdtCqeList sdt_cqe_quirks_lookup(const SdtCid *cid, const gchar **why);

G_END_DECLS
