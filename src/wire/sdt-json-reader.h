/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * Lenient member access for the helper's JSON documents: a missing member,
 * a null or a value of another type gives the "unknown" answer (NULL, NaN,
 * @fallback) instead of a critical warning, so a field the helper could not
 * determine is shown as unknown.
 */
JsonNode *sdt_json_reader_parse(const gchar *json, GError **error);
const gchar *sdt_json_reader_get_string(JsonObject *obj, const gchar *member);
gdouble sdt_json_reader_get_number(JsonObject *obj, const gchar *member);
gboolean sdt_json_reader_get_bool(JsonObject *obj, const gchar *member, gboolean fallback);
JsonObject *sdt_json_reader_get_object(JsonObject *obj, const gchar *member);
JsonArray *sdt_json_reader_get_array(JsonObject *obj, const gchar *member);

G_END_DECLS
