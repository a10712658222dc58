/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-card-regs.h"
#include "sdt-health-report.h"

G_BEGIN_DECLS

/*
 * The register judge of sdt-health.c: no other folder calls it, so it has no public
 * header.  Private to src/decide and its tests: tests/check-shape.py fails any other
 * file that includes it.
 */

/*
 * Register plausibility, instant and without I/O: a card whose registers break
 * one of these rules is "suspicious" (never "fake": registers alone prove
 * nothing).  Rule ids:
 *   manfid-zero         manufacturer id 0x00
 *   unknown-manufacturer  an id not in the table (PLATFORM.md §8)
 *   unknown-oem-pair    a known manufacturer with an OEM id it is not known to use
 *   capacity-limit      a CSD capacity outside its card type (SDSC <= 4 GiB with a
 *                       v1 CSD, SDHC/SDXC above 2 GB and up to 2 TiB with a v2 CSD)
 *   capacity-unusual    less than 85% of the marketing size it would be sold as
 *   date-future         a manufacturing date after @now
 *   date-before-spec    a date before the card's SD spec version (SCR), SDHC
 *                       (2006) or SDXC (2009) existed
 *   speed-contradicted  a sequential write rate below half what the SSR's speed,
 *                       UHS or video class promises
 * Any of @csd, @scr, @ssr may be %NULL (unknown); @seq_write_mb_s NaN (or < 0): not measured.
 * Returns the verdict ("plausible", "suspicious") and the findings, as health's and check's
 * "registers" carry them.
 */
SdtHealthReportRegisters *sdt_card_plausible_judge(const SdtCid *cid,
						   const SdtCsd *csd,
						   const SdtScr *scr,
						   const SdtSsr *ssr,
						   gdouble seq_write_mb_s,
						   GDateTime *now);

G_END_DECLS
