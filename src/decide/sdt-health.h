/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-card.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * `health --json`: how much has been written to the card and what the kernel
 * says about it, from files only (no vendor command such as CMD56 is ever
 * sent: those have made cards vanish).  Reads, all under the root prefix:
 *   <root>/sys/fs/ext4/<partition>/lifetime_write_kbytes
 *   <root>/sys/block/<disk>/stat            (sectors written since boot)
 *   <root>/proc/uptime, <root>/proc/self/mountinfo, <root>/dev/kmsg
 * plus the card's CSD (write-protect bits) and the history (trend).
 */
JsonNode *sdt_ops_health(SdtContext *ctx, GError **error);

/*
 * The trend of the benchmark history: sequential write MB/s and QD1 random
 * write latency of the latest three runs against the first three; an alert
 * when the latest are worse by more than the runs' own spread and 20%.
 * @entries: the history's entries (sdt_history_list()).
 */
JsonNode *sdt_health_trend(JsonArray *entries);

/*
 * Register plausibility of @card (sdt_card_plausible_judge()), with the latest
 * benchmark's sequential write rate from @history; JSON null without a CID.
 */
JsonNode *sdt_health_registers(SdtCard *card, JsonArray *history);

G_END_DECLS
