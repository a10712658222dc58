/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-ui-layout.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-ui-layout codec that no other folder calls yet: the codec
 * has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-ui-layout.h with its first caller outside src/wire (docs/ARCHITECTURE.md, "The
 * wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

/* strict: a member of the wrong type is SDT_ERROR_INVALID_DATA naming it
 * ("[0].labels[2].x"); absent or null numbers read 0, flags FALSE */
SdtUiLayout *sdt_ui_layout_from_json(JsonArray *windows, GError **error);
SdtUiLayout *sdt_ui_layout_parse(const gchar *text, GError **error);
JsonNode *sdt_ui_layout_to_json(const SdtUiLayout *layout);

G_END_DECLS
