/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-txt.h"

G_BEGIN_DECLS

/*
 * The one diagnosis of a damaged block (a marker missing or repeated, a line
 * switched off by SD Tuner without its block), shared by status, apply,
 * revert and the app: one translated message that says what is wrong, which
 * SD settings of the block are still in effect and the one way out.  NULL
 * when the block is whole or absent.  @display_path names the file.
 */
gchar *sdt_config_diagnose_block(SdtConfigTxt *cfg, const gchar *display_path);

G_END_DECLS
