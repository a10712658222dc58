/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-recommend-report.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-recommend-report codec that no other folder calls yet: the codec
 * has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-recommend-report.h with its first caller outside src/wire (docs/ARCHITECTURE.md, "The
 * wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

SdtRecommendReport *sdt_recommend_report_from_json(JsonObject *obj, GError **error);
JsonNode *sdt_recommend_report_to_json(const SdtRecommendReport *report);

G_END_DECLS
