/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * libFuzzer target for the history reader and SD Tuner's JSON writer.  The
 * input is the content of one history entry file.  Properties checked on every
 * input:
 * - no crash and no GLib or json-glib critical or warning (they are made fatal);
 * - sdt_history_entry_parse_data() refuses the entry with an SDT_ERROR_INVALID_DATA
 *   message, or returns an object whose strings are valid UTF-8 and whose
 *   members the CLI's history listing reads can be read without a critical;
 * - sdt_history_entries(), with the input as the only file of the history folder,
 *   never fails and returns exactly what sdt_history_entry_parse_data() accepted
 *   (a damaged entry is skipped);
 * - an accepted entry written by sdt_json_to_string() (pretty and compact, with
 *   its number rewriting) reads back through sdt_history_entry_parse_data() as an
 *   equal document (a number too large for a double, read as infinity, comes
 *   back as null).
 * Build and run with `tools/fuzz.sh history` (meson -Dfuzzing=true, clang).
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static SdtContext *fuzz_ctx;
static gchar *fuzz_entry;

/* a critical or warning is a finding: abort() (a breakpoint trap leaves no artifact) */
static void
fuzz_log_handler(const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data)
{
	g_log_default_handler(domain, level, message, data);
	if (level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
		abort();
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	g_log_set_default_handler(fuzz_log_handler, NULL);
	return 0;
}

/* the entry of @len bytes at @data as a JSON object, or NULL (and @error) */
static JsonNode *
fuzz_parse_entry(const gchar *data, gsize len, GError **error)
{
	g_autoptr(SdtHistoryEntry) entry = sdt_history_entry_parse_data(data, len, error);

	return entry != NULL ? sdt_history_entry_to_json(entry) : NULL;
}

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

static void
fuzz_check_strings(JsonNode *node)
{
	switch (json_node_get_node_type(node)) {
	case JSON_NODE_OBJECT: {
		JsonObject *obj = json_node_get_object(node);
		g_autoptr(GList) members = json_object_get_members(obj);
		for (GList *l = members; l != NULL; l = l->next) {
			if (!g_utf8_validate(l->data, -1, NULL))
				abort();
			fuzz_check_strings(json_object_get_member(obj, l->data));
		}
		break;
	}
	case JSON_NODE_ARRAY: {
		JsonArray *array = json_node_get_array(node);
		for (guint i = 0; i < json_array_get_length(array); i++)
			fuzz_check_strings(json_array_get_element(array, i));
		break;
	}
	case JSON_NODE_VALUE:
		if (json_node_get_value_type(node) == G_TYPE_STRING &&
		    !g_utf8_validate(json_node_get_string(node), -1, NULL))
			abort();
		break;
	case JSON_NODE_NULL:
	default:
		break;
	}
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

/* written by SD Tuner's writer and read again by the history reader: the same entry */
static void
fuzz_check_round_trip(JsonNode *entry, gboolean pretty)
{
	g_autofree gchar *text = sdt_json_to_string(entry, pretty);
	g_autoptr(JsonNode) back = fuzz_parse_entry(text, strlen(text), NULL);

	if (back == NULL || !fuzz_equal(entry, back))
		abort();
}

/* one entry as sdt_history_entry_parse_data() returns it */
static void
fuzz_check_entry(JsonNode *entry, const GError *error)
{
	JsonObject *obj;

	if (entry == NULL) {
		if (!g_error_matches(error, SDT_ERROR, SDT_ERROR_INVALID_DATA) ||
		    error->message[0] == '\0' || !g_utf8_validate(error->message, -1, NULL))
			abort();
		return;
	}
	if (error != NULL || !JSON_NODE_HOLDS_OBJECT(entry))
		abort();
	fuzz_check_strings(entry);
	obj = json_node_get_object(entry);
	/* what `sdtunerctl history` reads (src/cli/sdtunerctl-config.c) */
	if (json_object_get_string_member_with_default(obj, "kind", NULL) == NULL ||
	    json_object_get_string_member_with_default(obj, "time", NULL) == NULL)
		abort();
	(void) json_object_get_string_member_with_default(obj, "profile", "?");
	(void) json_object_get_boolean_member_with_default(obj, "trial", FALSE);
	if (json_object_has_member(obj, "id") && !json_object_get_null_member(obj, "id"))
		(void) json_object_get_string_member(obj, "id");
	fuzz_check_round_trip(entry, TRUE);
	fuzz_check_round_trip(entry, FALSE);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) error_list = NULL;
	g_autoptr(JsonNode) entry = NULL;
	g_autoptr(GPtrArray) list = NULL;

	if (size > 300 * 1024)
		return 0;
	if (fuzz_ctx == NULL)
		fuzz_setup();

	/* the entry parser on the raw bytes */
	entry = fuzz_parse_entry((const gchar *) data, size, &error);
	fuzz_check_entry(entry, error);

	/* the same bytes as a file of the history folder */
	if (!g_file_set_contents(fuzz_entry, (const gchar *) data, (gssize) size, NULL))
		abort();
	list = sdt_history_entries(fuzz_ctx, NULL, &error_list);
	if (list == NULL || list->len != (entry != NULL ? 1u : 0u))
		abort();
	if (entry != NULL) {
		g_autoptr(JsonNode) listed = sdt_history_entry_to_json(g_ptr_array_index(list, 0));
		if (!json_node_equal(listed, entry))
			abort();
	}
	return 0;
}
