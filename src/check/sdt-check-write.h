/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-check-block.h"

G_BEGIN_DECLS

/*
 * Phase 2 of the quick check: the reserved file, sampled blocks written raw
 * into it only where the write guard allows (every alias under a candidate
 * size of at least half the claim lies in the reserved file too), synced and
 * read back; a failure's boundary narrowed by more such writes.  Sets the
 * failure, the estimate and the reason when it finds one.
 */
gboolean sdt_check_write_phase(SdtCheck *self, GError **error);

G_END_DECLS
