/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-info-report.h"

G_BEGIN_DECLS

/*
 * What the codecs of src/wire share of sdt-info-report among themselves (and their tests),
 * beside the public sdt-info-report.h.  Private to src/wire: tests/check-shape.py fails any
 * other file that includes it.
 */

/* the document from its parsed object (the public reader is sdt_info_report_parse()) */
SdtInfoReport *sdt_info_report_from_json(JsonObject *obj, GError **error);

/* the member "emmc" of a card object (info, health): a null node for NULL */
JsonNode *sdt_info_report_emmc_to_json(const SdtInfoReportEmmc *emmc);
/* reads @card's member "emmc" (@where: the card's path, "card"): *@emmc NULL when null or
 * absent; a member of the wrong type is SDT_ERROR_INVALID_DATA naming it */
gboolean sdt_info_report_read_emmc(JsonObject *card,
				   const gchar *where,
				   SdtInfoReportEmmc **emmc,
				   GError **error);

JsonNode *sdt_info_report_to_json(const SdtInfoReport *report);

G_END_DECLS
