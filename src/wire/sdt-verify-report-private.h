/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-verify-report.h"

G_BEGIN_DECLS

/*
 * What the codecs of src/wire share of sdt-verify-report among themselves (the history
 * report's verify entries, status's last_verification) and their tests.  Private to
 * src/wire: tests/check-shape.py fails any other file that includes it.
 */

/*
 * Reads a verify document, a history entry of kind "verify" or a last_verification
 * (@where: where it stands in its document, e.g. "last_verification", or NULL).  A
 * member of the wrong type is SDT_ERROR_INVALID_DATA naming it.
 */
SdtVerifyReport *
sdt_verify_report_from_json_at(JsonObject *obj, const gchar *where, GError **error);
/* the document (a history entry's payload: sdt_history_entry_new_verify()) */
JsonNode *sdt_verify_report_to_json(const SdtVerifyReport *report);

SdtVerifyReport *sdt_verify_report_from_json(JsonObject *obj, GError **error);

G_END_DECLS
