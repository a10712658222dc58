/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-logind.h"

G_BEGIN_DECLS

/*
 * What src/dbus shares of sdt-logind only among its own files and its tests (the
 * public interface is sdt-logind.h).  Private to src/dbus: tests/check-shape.py fails
 * any other file that includes it.
 */

SdtLogindAnswer sdt_logind_answer_from_error(const GError *error);
const gchar *sdt_logind_answer_to_string(SdtLogindAnswer answer);

G_END_DECLS
