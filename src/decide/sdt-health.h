/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench-record.h"
#include "sdt-card.h"
#include "sdt-health-report.h"

G_BEGIN_DECLS

/*
 * The trend of the benchmark history: sequential write MB/s and QD1 random
 * write latency of the latest three runs against the first three; an alert
 * when the latest are worse by more than the runs' own spread and 20%.
 * @benches: the history's benchmark records (SdtBenchRecord), oldest first; a stand-in
 * folder's run is left out (it says nothing about the card).
 */
SdtHealthReportTrend *sdt_health_trend(GPtrArray *benches);

/*
 * Register plausibility of @card (sdt_card_plausible_judge()), with the latest
 * benchmark's sequential write rate from @benches (as sdt_health_trend()); NULL without a
 * CID, and for eMMC.
 */
SdtHealthReportRegisters *sdt_health_registers(SdtCard *card, GPtrArray *benches);

G_END_DECLS
