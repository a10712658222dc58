/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-utf8.h"

gchar *
sdt_utf8_make_valid(const gchar *str, gssize len)
{
	if (str == NULL)
		return NULL;
	return g_utf8_make_valid(str, len);
}

static guint
sdt_utf8_sanitize_object(JsonNode *node)
{
	JsonObject *obj = json_node_get_object(node);
	g_autoptr(GList) members = json_object_get_members(obj);
	gboolean bad_name = FALSE;
	guint n = 0;

	for (GList *l = members; l != NULL; l = l->next)
		bad_name |= !g_utf8_validate(l->data, -1, NULL);
	/* a member name cannot be renamed in place: rebuild the object, in order */
	if (bad_name) {
		g_autoptr(JsonObject) fixed = json_object_new();
		for (GList *l = members; l != NULL; l = l->next) {
			const gchar *name = l->data;
			g_autofree gchar *valid = sdt_utf8_make_valid(name, -1);
			n += g_strcmp0(valid, name) != 0;
			json_object_set_member(fixed,
					       valid,
					       json_node_copy(json_object_get_member(obj, name)));
		}
		json_node_set_object(node, fixed);
		obj = fixed;
		g_list_free(g_steal_pointer(&members));
		members = json_object_get_members(obj);
	}
	for (GList *l = members; l != NULL; l = l->next)
		n += sdt_utf8_sanitize_json(json_object_get_member(obj, l->data));
	return n;
}

guint
sdt_utf8_sanitize_json(JsonNode *node)
{
	guint n = 0;

	if (node == NULL)
		return 0;
	switch (json_node_get_node_type(node)) {
	case JSON_NODE_OBJECT:
		return sdt_utf8_sanitize_object(node);
	case JSON_NODE_ARRAY: {
		JsonArray *array = json_node_get_array(node);
		for (guint i = 0; i < json_array_get_length(array); i++)
			n += sdt_utf8_sanitize_json(json_array_get_element(array, i));
		return n;
	}
	case JSON_NODE_VALUE:
		if (json_node_get_value_type(node) == G_TYPE_STRING) {
			const gchar *str = json_node_get_string(node);
			if (str != NULL && !g_utf8_validate(str, -1, NULL)) {
				g_autofree gchar *valid = sdt_utf8_make_valid(str, -1);
				json_node_set_string(node, valid);
				return 1;
			}
		}
		return 0;
	case JSON_NODE_NULL:
	default:
		return 0;
	}
}

void
sdt_utf8_sanitize_error(GError *error)
{
	gchar *valid;

	if (error == NULL || error->message == NULL || g_utf8_validate(error->message, -1, NULL))
		return;
	valid = sdt_utf8_make_valid(error->message, -1);
	g_free(error->message);
	error->message = valid;
}
