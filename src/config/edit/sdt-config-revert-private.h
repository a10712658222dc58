/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-revert.h"

G_BEGIN_DECLS

/*
 * What src/config/edit shares of sdt-config-revert only among its own files and its
 * tests (the public interface is sdt-config-revert.h).  Private to src/config/edit:
 * tests/check-shape.py fails any other file that includes it.
 */

/* the lines of @cfg without SD Tuner's block and with its disabled lines back */
GPtrArray *sdt_config_revert_lines(SdtConfigTxt *cfg,
				   const gchar *const *previous_block,
				   SdtConfigEdit *edit,
				   gboolean *changed);

G_END_DECLS
