/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The text of a helper's answer as a JSON object, for the codecs' _parse(): text that is
 * not JSON, or not an object, is SDT_ERROR_INVALID_DATA.
 */
JsonNode *sdt_json_reader_parse(const gchar *json, GError **error);

G_END_DECLS
