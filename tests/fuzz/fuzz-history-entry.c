/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * libFuzzer target for the history reader (sdt_history_parse_entry(), what
 * sdt_history_list() does with each file of /var/lib/sd-tuner/history).
 * Properties checked on every input: no crash and no GLib or json-glib
 * critical or warning (they are made fatal); an entry is refused with an
 * SDT_ERROR_INVALID_DATA message, or it is an object whose known members have
 * the types SD Tuner writes, whose strings are valid UTF-8, and that reads
 * back equal from its own serialisation; and every member the CLI's history
 * listing reads can be read without a critical.
 * Build and run with tools/fuzz-history-entry.sh (meson -Dfuzzing=true, clang).
 */

#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "sdt-error.h"
#include "sdt-history.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) entry = sdt_history_parse_entry((const gchar *) data, size, &error);
	g_autoptr(JsonNode) again = NULL;
	g_autoptr(GError) error_again = NULL;
	g_autofree gchar *text = NULL;
	JsonObject *obj;

	if (entry == NULL) {
		if (!g_error_matches(error, SDT_ERROR, SDT_ERROR_INVALID_DATA) ||
		    error->message[0] == '\0' || !g_utf8_validate(error->message, -1, NULL))
			abort();
		return 0;
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
	/* written back and read again: the same entry */
	text = json_to_string(entry, FALSE);
	again = sdt_history_parse_entry(text, strlen(text), &error_again);
	if (again == NULL || !json_node_equal(entry, again))
		abort();
	return 0;
}
