/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-soak-report.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-soak-report codec that no other folder calls yet: the codec
 * has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-soak-report.h with its first caller outside src/wire (docs/ARCHITECTURE.md, "The
 * wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

/* strict: "soak" is required; a member of the wrong type is SDT_ERROR_INVALID_DATA
 * naming it ("soak.rounds") */
SdtSoakReport *sdt_soak_report_from_json(JsonObject *obj, GError **error);

JsonNode *sdt_soak_report_to_json(const SdtSoakReport *report);

G_END_DECLS
