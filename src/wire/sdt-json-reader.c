/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-error.h"
#include "sdt-json-reader.h"

JsonNode *
sdt_json_reader_parse(const gchar *json, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error_local = NULL;
	JsonNode *root;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (!json_parser_load_from_data(parser, json, -1, &error_local)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("The SD Tuner service sent a reply that is not valid JSON: %s"),
			    error_local->message);
		return NULL;
	}
	root = json_parser_get_root(parser);
	if (root == NULL || !JSON_NODE_HOLDS_OBJECT(root)) {
		g_set_error_literal(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			_("The SD Tuner service sent a reply that is not a JSON object"));
		return NULL;
	}
	return json_node_copy(root);
}

static JsonNode *
sdt_json_reader_get_value(JsonObject *obj, const gchar *member, GType type)
{
	JsonNode *node;

	if (obj == NULL)
		return NULL;
	node = json_object_get_member(obj, member);
	if (node == NULL || !JSON_NODE_HOLDS_VALUE(node))
		return NULL;
	if (type == G_TYPE_DOUBLE) {
		GType t = json_node_get_value_type(node);
		return t == G_TYPE_DOUBLE || t == G_TYPE_INT64 ? node : NULL;
	}
	return json_node_get_value_type(node) == type ? node : NULL;
}

const gchar *
sdt_json_reader_get_string(JsonObject *obj, const gchar *member)
{
	JsonNode *node = sdt_json_reader_get_value(obj, member, G_TYPE_STRING);
	return node != NULL ? json_node_get_string(node) : NULL;
}

gdouble
sdt_json_reader_get_number(JsonObject *obj, const gchar *member)
{
	JsonNode *node = sdt_json_reader_get_value(obj, member, G_TYPE_DOUBLE);
	if (node == NULL)
		return NAN;
	if (json_node_get_value_type(node) == G_TYPE_INT64)
		return (gdouble) json_node_get_int(node);
	return json_node_get_double(node);
}

gboolean
sdt_json_reader_get_bool(JsonObject *obj, const gchar *member, gboolean fallback)
{
	JsonNode *node = sdt_json_reader_get_value(obj, member, G_TYPE_BOOLEAN);
	return node != NULL ? json_node_get_boolean(node) : fallback;
}

JsonObject *
sdt_json_reader_get_object(JsonObject *obj, const gchar *member)
{
	JsonNode *node = obj != NULL ? json_object_get_member(obj, member) : NULL;
	return node != NULL && JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
}

JsonArray *
sdt_json_reader_get_array(JsonObject *obj, const gchar *member)
{
	JsonNode *node = obj != NULL ? json_object_get_member(obj, member) : NULL;
	return node != NULL && JSON_NODE_HOLDS_ARRAY(node) ? json_node_get_array(node) : NULL;
}
