/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-block.h"
#include "sdt-config-diagnose.h"
#include "sdt-config-revert.h"

G_BEGIN_DECLS

/*
 * The pure edit of config.txt: sdt_config_edit_apply() and
 * sdt_config_revert() are functions from a model to new bytes, with no
 * I/O (the app links them for its preview; the writer, sdt-config-writer.h,
 * puts their result on disk).  SD Tuner's block is appended at the end:
 *
 *   # --- SD Tuner begin: <id> (undo: sdtunerctl revert) ---
 *   [all]
 *   <filter of this board family>
 *   dtoverlay=
 *   <the lines>
 *   [all]
 *   # --- SD Tuner end ---
 *
 * `[all]` first clears any filter left active above (e.g. [tryboot]),
 * the empty `dtoverlay=` ends the scope of an earlier overlay so the lines
 * set base device-tree parameters, and the closing `[all]` leaves anything
 * added after the block with its old meaning.  A conflicting SD line that
 * reaches only boards the block's filter reaches is commented out with
 * SDT_CONFIG_DISABLED_MARK; one that reaches other boards too is left
 * alone (it is reported) so no other board's configuration changes.
 */

SdtConfigEdit *sdt_config_edit_apply(SdtConfigTxt *cfg,
				     const SdtConfigBlock *block,
				     const gchar *const *previous_block,
				     GError **error);
G_END_DECLS
