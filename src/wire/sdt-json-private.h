/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-json.h"

G_BEGIN_DECLS

/*
 * What the codecs of src/wire share of sdt-json among themselves (and their tests),
 * beside the public sdt-json.h.  Private to src/wire: tests/check-shape.py fails any
 * other file that includes it.
 */

/* a JsonBuilder member whose value is null when unknown (not @known, or NULL) */
void sdt_json_int_or_null(JsonBuilder *b, const gchar *name, gboolean known, gint64 value);
void sdt_json_string_or_null(JsonBuilder *b, const gchar *name, const gchar *value);
void sdt_json_bool_or_null(JsonBuilder *b, const gchar *name, gboolean known, gboolean value);
/* NaN (the wire's one unknown, docs/ARCHITECTURE.md "The wire layer") as null */
void sdt_json_number_or_null(JsonBuilder *b, const gchar *name, gdouble value);
/* a member that is always known: its name and value, a JSON array of @strings */
void sdt_json_put_int(JsonBuilder *b, const gchar *name, gint64 value);
void sdt_json_put_bool(JsonBuilder *b, const gchar *name, gboolean value);
void sdt_json_put_strings(JsonBuilder *b, const gchar *name, GPtrArray *strings);

/* where json-glib's parser found @parse_error, for the codecs' messages */
gchar *sdt_json_parse_problem(const GError *parse_error);
/* text to a JSON object, for the codecs' readers (sdt-json.c) */
JsonObject *sdt_json_parse_object(const gchar *text, gsize len, GError **error);

G_END_DECLS
