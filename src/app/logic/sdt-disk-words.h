/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-info-report.h"

G_BEGIN_DECLS

/*
 * What the Overview and Health pages say about the disk itself (issue 27): eMMC and its own
 * wear report, or a card that is not the system disk.  Pure, without GTK:
 * tests/app/test-app-logic.c.
 */

/* "The system runs from nvme0n1p2 (an NVMe drive), not from this card: ...", or NULL when
 * the card holds the system or nobody knows */
gchar *sdt_disk_words_system(SdtInfoReportFlag holds_system, const gchar *system_device);

/* the summary, then one line each for type A, type B and the reserved blocks */
gchar *sdt_disk_words_emmc_wear(const SdtInfoReportEmmc *emmc);

G_END_DECLS
