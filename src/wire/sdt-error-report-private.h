/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-error-report.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-error-report codec that no other folder calls yet: the codec
 * has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-error-report.h with its first caller outside src/wire (docs/ARCHITECTURE.md, "The
 * wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

/* strict: "error" is required, its members of the wrong type are SDT_ERROR_INVALID_DATA
 * naming them ("error.code"); absent or null they read NULL and 0 */
SdtErrorReport *sdt_error_report_from_json(JsonObject *obj, GError **error);
SdtErrorReport *sdt_error_report_parse(const gchar *text, GError **error);
JsonNode *sdt_error_report_to_json(const SdtErrorReport *report);

G_END_DECLS
