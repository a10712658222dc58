/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-json-strict-private.h"
#include "sdt-error.h"

static gchar *
sdt_json_strict_path(const gchar *where, const gchar *member)
{
	if (where == NULL || where[0] == '\0')
		return g_strdup(member);
	return g_strdup_printf("%s.%s", where, member);
}

static gboolean
sdt_json_strict_wrong_type(const gchar *where, const gchar *member, GError **error)
{
	g_autofree gchar *path = sdt_json_strict_path(where, member);

	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    /* Translators: %s is a member of a JSON document, e.g. tests[2].mb_s */
		    _("The SD Tuner service sent “%s” with a value of the wrong type"),
		    path);
	return FALSE;
}

gboolean
sdt_json_strict_missing(const gchar *where, const gchar *member, GError **error)
{
	g_autofree gchar *path = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	path = sdt_json_strict_path(where, member);
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    /* Translators: %s is a member of a JSON document, e.g. tests[2].name */
		    _("The SD Tuner service sent a document without “%s”"),
		    path);
	return FALSE;
}

gchar *
sdt_json_strict_element(const gchar *where, const gchar *member, guint index)
{
	g_autofree gchar *path = sdt_json_strict_path(where, member);
	return g_strdup_printf("%s[%u]", path, index);
}

JsonObject *
sdt_json_strict_element_object(JsonNode *node, const gchar *at, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	if (JSON_NODE_HOLDS_OBJECT(node))
		return json_node_get_object(node);
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    /* Translators: %s names an element of a JSON document, e.g. tests[2] */
		    _("The SD Tuner service sent “%s” with a value of the wrong type"),
		    at);
	return NULL;
}

/* the member, NULL when absent or null */
static JsonNode *
sdt_json_strict_node(JsonObject *obj, const gchar *member)
{
	JsonNode *node = obj != NULL ? json_object_get_member(obj, member) : NULL;
	return node != NULL && !JSON_NODE_HOLDS_NULL(node) ? node : NULL;
}

static gboolean
sdt_json_strict_is_value(JsonNode *node, GType type)
{
	return JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == type;
}

gboolean
sdt_json_strict_number(JsonObject *obj,
		       const gchar *where,
		       const gchar *member,
		       gdouble *value,
		       GError **error)
{
	JsonNode *node;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	node = sdt_json_strict_node(obj, member);
	*value = NAN;
	if (node == NULL)
		return TRUE;
	if (sdt_json_strict_is_value(node, G_TYPE_INT64))
		*value = (gdouble) json_node_get_int(node);
	else if (sdt_json_strict_is_value(node, G_TYPE_DOUBLE))
		*value = json_node_get_double(node);
	else
		return sdt_json_strict_wrong_type(where, member, error);
	return TRUE;
}

gboolean
sdt_json_strict_int(JsonObject *obj,
		    const gchar *where,
		    const gchar *member,
		    gint64 fallback,
		    gint64 *value,
		    GError **error)
{
	JsonNode *node;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	node = sdt_json_strict_node(obj, member);
	*value = fallback;
	if (node == NULL)
		return TRUE;
	if (!sdt_json_strict_is_value(node, G_TYPE_INT64))
		return sdt_json_strict_wrong_type(where, member, error);
	*value = json_node_get_int(node);
	return TRUE;
}

gboolean
sdt_json_strict_bool(JsonObject *obj,
		     const gchar *where,
		     const gchar *member,
		     gboolean fallback,
		     gboolean *value,
		     GError **error)
{
	JsonNode *node;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	node = sdt_json_strict_node(obj, member);
	*value = fallback;
	if (node == NULL)
		return TRUE;
	if (!sdt_json_strict_is_value(node, G_TYPE_BOOLEAN))
		return sdt_json_strict_wrong_type(where, member, error);
	*value = json_node_get_boolean(node);
	return TRUE;
}

gboolean
sdt_json_strict_string(JsonObject *obj,
		       const gchar *where,
		       const gchar *member,
		       gchar **value,
		       GError **error)
{
	JsonNode *node;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	node = sdt_json_strict_node(obj, member);
	*value = NULL;
	if (node == NULL)
		return TRUE;
	if (!sdt_json_strict_is_value(node, G_TYPE_STRING))
		return sdt_json_strict_wrong_type(where, member, error);
	*value = g_strdup(json_node_get_string(node));
	return TRUE;
}

gboolean
sdt_json_strict_object(JsonObject *obj,
		       const gchar *where,
		       const gchar *member,
		       JsonObject **value,
		       GError **error)
{
	JsonNode *node;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	node = sdt_json_strict_node(obj, member);
	*value = NULL;
	if (node == NULL)
		return TRUE;
	if (!JSON_NODE_HOLDS_OBJECT(node))
		return sdt_json_strict_wrong_type(where, member, error);
	*value = json_node_get_object(node);
	return TRUE;
}

gboolean
sdt_json_strict_array(JsonObject *obj,
		      const gchar *where,
		      const gchar *member,
		      JsonArray **value,
		      GError **error)
{
	JsonNode *node;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	node = sdt_json_strict_node(obj, member);
	*value = NULL;
	if (node == NULL)
		return TRUE;
	if (!JSON_NODE_HOLDS_ARRAY(node))
		return sdt_json_strict_wrong_type(where, member, error);
	*value = json_node_get_array(node);
	return TRUE;
}

gboolean
sdt_json_strict_strings(JsonObject *obj,
			const gchar *where,
			const gchar *member,
			GPtrArray *out,
			GError **error)
{
	JsonArray *array;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	if (!sdt_json_strict_array(obj, where, member, &array, error))
		return FALSE;
	for (guint i = 0; array != NULL && i < json_array_get_length(array); i++) {
		JsonNode *node = json_array_get_element(array, i);
		if (!sdt_json_strict_is_value(node, G_TYPE_STRING)) {
			g_autofree gchar *element = g_strdup_printf("%s[%u]", member, i);
			return sdt_json_strict_wrong_type(where, element, error);
		}
		g_ptr_array_add(out, g_strdup(json_node_get_string(node)));
	}
	return TRUE;
}
