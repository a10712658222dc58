/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * libFuzzer target for the history reader and SD Tuner's JSON writer.  The
 * input is the content of one history entry file.  Properties checked on every
 * input: sdt_history_list() never fails on it and returns it only when it is a
 * JSON object (anything else is skipped); and every entry it returns, written
 * by sdt_json_to_string() (pretty and compact, with its number rewriting),
 * parses back to an equal document (a number too large for a double, read as
 * infinity, comes back as null).  Build and run with tools/fuzz-history.sh.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "sdt-history.h"
#include "sdt-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static SdtContext *fuzz_ctx;
static gchar *fuzz_entry;

static void
fuzz_setup(void)
{
	g_autofree gchar *root = g_dir_make_tmp("sdt-fuzz-history-XXXXXX", NULL);
	g_autofree gchar *dir = NULL;

	if (root == NULL)
		abort();
	dir = g_build_filename(root, "var", "lib", "sd-tuner", "history", NULL);
	if (g_mkdir_with_parents(dir, 0700) != 0)
		abort();
	fuzz_ctx = sdt_context_new(root, NULL);
	if (fuzz_ctx == NULL)
		abort();
	fuzz_entry = g_build_filename(dir, "1764579600000000-bench.json", NULL);
}

/* equal, but an infinite double (json-glib reads 1e999 so) is written as null */
static gboolean
fuzz_equal(JsonNode *a, JsonNode *b)
{
	if (JSON_NODE_HOLDS_VALUE(a) && json_node_get_value_type(a) == G_TYPE_DOUBLE &&
	    !isfinite(json_node_get_double(a)))
		return JSON_NODE_HOLDS_NULL(b);
	if (JSON_NODE_TYPE(a) != JSON_NODE_TYPE(b))
		return FALSE;
	if (JSON_NODE_HOLDS_OBJECT(a)) {
		JsonObject *oa = json_node_get_object(a);
		JsonObject *ob = json_node_get_object(b);
		g_autoptr(GList) members = json_object_get_members(oa);
		if (json_object_get_size(oa) != json_object_get_size(ob))
			return FALSE;
		for (GList *l = members; l != NULL; l = l->next) {
			JsonNode *mb = json_object_get_member(ob, l->data);
			if (mb == NULL || !fuzz_equal(json_object_get_member(oa, l->data), mb))
				return FALSE;
		}
		return TRUE;
	}
	if (JSON_NODE_HOLDS_ARRAY(a)) {
		JsonArray *aa = json_node_get_array(a);
		JsonArray *ab = json_node_get_array(b);
		if (json_array_get_length(aa) != json_array_get_length(ab))
			return FALSE;
		for (guint i = 0; i < json_array_get_length(aa); i++) {
			if (!fuzz_equal(json_array_get_element(aa, i),
					json_array_get_element(ab, i)))
				return FALSE;
		}
		return TRUE;
	}
	return json_node_equal(a, b);
}

static void
fuzz_check_round_trip(JsonNode *node, gboolean pretty)
{
	g_autofree gchar *text = sdt_json_to_string(node, pretty);
	g_autoptr(JsonNode) back = json_from_string(text, NULL);

	if (back == NULL || !fuzz_equal(node, back))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(JsonArray) list = NULL;
	g_autoptr(GError) error = NULL;

	if (size > 300 * 1024)
		return 0;
	if (fuzz_ctx == NULL)
		fuzz_setup();
	if (!g_file_set_contents(fuzz_entry, (const gchar *) data, (gssize) size, NULL))
		abort();
	list = sdt_history_list(fuzz_ctx, &error);
	if (list == NULL || json_array_get_length(list) > 1)
		abort();
	for (guint i = 0; i < json_array_get_length(list); i++) {
		JsonNode *node = json_array_get_element(list, i);
		if (!JSON_NODE_HOLDS_OBJECT(node))
			abort();
		fuzz_check_round_trip(node, TRUE);
		fuzz_check_round_trip(node, FALSE);
	}
	return 0;
}
