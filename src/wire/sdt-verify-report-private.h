/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-verify-report.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-verify-report codec that no other folder calls yet: the codec
 * has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-verify-report.h with its first caller outside src/wire (docs/ARCHITECTURE.md, "The
 * wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

SdtVerifyReport *sdt_verify_report_parse(const gchar *text, GError **error);

G_END_DECLS
