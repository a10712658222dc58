/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-health-report.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-health-report codec that no other folder calls yet: the codec
 * has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-health-report.h with its first caller outside src/wire (docs/ARCHITECTURE.md, "The
 * wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

SdtHealthReport *sdt_health_report_from_json(JsonObject *obj, GError **error);
JsonNode *sdt_health_report_to_json(const SdtHealthReport *report);
/* the member "registers" of @obj (health, or check's reply; @where its path, NULL at the
 * top): *@registers NULL when null or absent */
gboolean sdt_health_report_read_registers(JsonObject *obj,
					  const gchar *where,
					  SdtHealthReportRegisters **registers,
					  GError **error);
/* "registers" as a node: null for NULL (health, and the check result's) */
JsonNode *sdt_health_report_registers_to_json(const SdtHealthReportRegisters *registers);

G_END_DECLS
