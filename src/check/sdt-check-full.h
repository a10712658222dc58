/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-check-block.h"

G_BEGIN_DECLS

/*
 * The full check: the reserved file, every block of it written raw (4 MiB at
 * a time), synced, then read back and compared; the rates of both passes.
 * Sets the failure and the reason, or what was verified.
 */
gboolean sdt_check_full(SdtCheck *self, GError **error);

G_END_DECLS
