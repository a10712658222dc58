/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-history.h"
#include "sdt-ops.h"

/* `history`: the entries under the state dir (sdt-history.c), with the damaged ones named */

JsonNode *
sdt_ops_history(SdtContext *ctx, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(JsonArray) entries = sdt_history_list_full(ctx, warnings, error);
	g_autoptr(JsonObject) obj = NULL;
	JsonNode *node;

	if (entries == NULL)
		return NULL;
	obj = json_object_new();
	json_object_set_array_member(obj, "entries", g_steal_pointer(&entries));
	/* entries skipped as damaged, so that a missing entry is explained */
	if (warnings->len > 0) {
		JsonArray *w = json_array_new();
		for (guint i = 0; i < warnings->len; i++)
			json_array_add_string_element(w, g_ptr_array_index(warnings, i));
		json_object_set_array_member(obj, "warnings", w);
	}
	node = json_node_new(JSON_NODE_OBJECT);
	json_node_take_object(node, g_steal_pointer(&obj));
	return node;
}
