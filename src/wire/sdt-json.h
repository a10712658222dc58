/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * json_to_string() for every JSON document that leaves SD Tuner (the CLI's
 * output, the helper's replies, the history): json-glib writes a double with
 * 17 significant digits, so 3.3 comes out as 3.2999999999999998.  Here every
 * floating-point number is written in its shortest form that reads back as
 * the same double (3.3), still with a decimal point (25.0), so readers see the
 * same values and types as before.  An infinite or NaN double (json-glib reads
 * 1e999 as infinity) is written as null: the text is always valid JSON.
 */
gchar *sdt_json_to_string(JsonNode *node, gboolean pretty);

/* the shortest decimal text that reads back as @value, with a '.' or an exponent */
gchar *sdt_json_format_double(gdouble value);

/* replaces, in place, every string value and member name of @node that is not
 * valid UTF-8 (sdt-utf8.h); returns how many were replaced */
guint sdt_json_sanitize_utf8(JsonNode *node);

/*
 * The text of a helper's answer as a JSON object, for the codecs' _parse(): text that is
 * not JSON, or not an object, is SDT_ERROR_INVALID_DATA.
 */
JsonNode *sdt_json_reader_parse(const gchar *json, GError **error);

G_END_DECLS
