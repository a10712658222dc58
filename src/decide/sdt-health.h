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
