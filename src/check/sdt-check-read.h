/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-check-block.h"

G_BEGIN_DECLS

/*
 * Phase 1, reads only: the card's first blocks seen again at anchor + C (an
 * address wrap at a candidate size C), and read errors in the upper half.
 * Sets the failure, the estimate and the reason when it finds one.
 */
gboolean sdt_check_read_phase(SdtCheck *self, GError **error);

G_END_DECLS
