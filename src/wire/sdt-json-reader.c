/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

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
