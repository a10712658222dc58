/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-block.h"

G_BEGIN_DECLS

/*
 * What src/config/edit shares of sdt-config-block only among its own files and its
 * tests (the public interface is sdt-config-block.h).  Private to src/config/edit:
 * tests/check-shape.py fails any other file that includes it.
 */

void sdt_config_block_line_free(SdtEditLine *line);
SdtEditLine *sdt_config_block_line_new(const gchar *text, const gchar *eol);
GBytes *sdt_config_block_lines_to_bytes(GPtrArray *lines);
SdtConfigEdit *sdt_config_block_edit_new(void);

G_END_DECLS
