/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * Private to src/wire (and its tests): only the codecs read members, so only they share
 * these (docs/ARCHITECTURE.md, "The wire layer").
 *
 * Strict member access for the typed readers (sdt-bench-record.h, ...).  A
 * member that is absent or null is "unknown": NaN, NULL or @fallback, and the
 * call succeeds.  A member of another type is SDT_ERROR_INVALID_DATA naming it
 * as @where.@member (e.g. "tests[2].mb_s"), never a Json-CRITICAL.  @where may
 * be NULL or "" for the document's top level.
 */
gboolean sdt_json_strict_number(JsonObject *obj,
				const gchar *where,
				const gchar *member,
				gdouble *value,
				GError **error);
gboolean sdt_json_strict_int(JsonObject *obj,
			     const gchar *where,
			     const gchar *member,
			     gint64 fallback,
			     gint64 *value,
			     GError **error);
gboolean sdt_json_strict_bool(JsonObject *obj,
			      const gchar *where,
			      const gchar *member,
			      gboolean fallback,
			      gboolean *value,
			      GError **error);
/* *@value is a copy, or NULL */
gboolean sdt_json_strict_string(JsonObject *obj,
				const gchar *where,
				const gchar *member,
				gchar **value,
				GError **error);
gboolean sdt_json_strict_object(JsonObject *obj,
				const gchar *where,
				const gchar *member,
				JsonObject **value,
				GError **error);
gboolean sdt_json_strict_array(JsonObject *obj,
			       const gchar *where,
			       const gchar *member,
			       JsonArray **value,
			       GError **error);
/* an array of strings (absent or null: none), each appended to @out as a copy */
gboolean sdt_json_strict_strings(JsonObject *obj,
				 const gchar *where,
				 const gchar *member,
				 GPtrArray *out,
				 GError **error);

/* SDT_ERROR_INVALID_DATA: @where.@member is required and absent (or null) */
gboolean sdt_json_strict_missing(const gchar *where, const gchar *member, GError **error);

/* "where[index]", for the elements of an array */
gchar *sdt_json_strict_element(const gchar *where, const gchar *member, guint index);
/* the element @node, named @at, as an object, or NULL and SDT_ERROR_INVALID_DATA */
JsonObject *sdt_json_strict_element_object(JsonNode *node, const gchar *at, GError **error);

G_END_DECLS
