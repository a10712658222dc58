/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-block.h"

G_BEGIN_DECLS

/*
 * Revert is line-precise: a line between the markers goes only when it is
 * byte-identical to a line SD Tuner wrote.  @previous_block is the journal's
 * copy of those lines; without it (NULL) only the lines SD Tuner writes for
 * the block's id (sdt_config_block_template()) count as its own, and any other line is kept because
 * its author is unknown.  Kept lines stay under the block's `[all]`/filter/`dtoverlay=` lines, so
 * their meaning is unchanged.
 */
SdtConfigEdit *
sdt_config_revert(SdtConfigTxt *cfg, const gchar *const *previous_block, GError **error);

G_END_DECLS
