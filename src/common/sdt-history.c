/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-ops.h"

/* more than this many entries: the oldest are not listed (files are tiny) */
#define SDT_HISTORY_MAX_ENTRIES 1000
#define SDT_HISTORY_MAX_SIZE    (256 * 1024)

static gchar *
sdt_history_get_dir(SdtContext *ctx)
{
	g_autofree gchar *state = sdt_context_get_state_dir(ctx);
	return g_build_filename(state, "history", NULL);
}

static gboolean
sdt_history_kind_valid(const gchar *kind)
{
	if (kind == NULL || kind[0] == '\0')
		return FALSE;
	for (const gchar *p = kind; *p != '\0'; p++) {
		if (!g_ascii_islower(*p) && *p != '-')
			return FALSE;
	}
	return TRUE;
}

gboolean
sdt_history_append(SdtContext *ctx, const gchar *kind, JsonObject *entry, GError **error)
{
	g_autofree gchar *dir = sdt_history_get_dir(ctx);
	g_autofree gchar *fn = NULL;
	g_autofree gchar *path = NULL;
	g_autofree gchar *text = NULL;
	g_autoptr(GDateTime) now = sdt_context_get_now(ctx);
	g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
	g_autofree gchar *iso = g_date_time_format_iso8601(now);
	gint64 usec = g_date_time_to_unix(now) * G_USEC_PER_SEC + g_date_time_get_microsecond(now);

	g_return_val_if_fail(sdt_history_kind_valid(kind), FALSE);

	if (g_mkdir_with_parents(dir, 0755) != 0)
		return sdt_error_set_from_errno(error, errno, "cannot create %s", dir);
	json_object_set_string_member(entry, "kind", kind);
	json_object_set_string_member(entry, "time", iso);
	json_node_set_object(node, entry);
	text = json_to_string(node, TRUE);

	/* two entries in the same microsecond get distinct names */
	for (guint i = 0; i < 100; i++) {
		g_free(fn);
		g_free(path);
		fn = g_strdup_printf("%016" G_GINT64_FORMAT "-%s.json", usec + i, kind);
		path = g_build_filename(dir, fn, NULL);
		if (!g_file_test(path, G_FILE_TEST_EXISTS))
			break;
	}
	if (!g_file_set_contents_full(path,
				      text,
				      -1,
				      G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
				      0644,
				      error)) {
		g_prefix_error(error, "cannot save history entry: ");
		return FALSE;
	}
	return TRUE;
}

static gint
sdt_history_name_cmp(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(const gchar **) a, *(const gchar **) b);
}

JsonArray *
sdt_history_list(SdtContext *ctx, GError **error)
{
	g_autofree gchar *dir = sdt_history_get_dir(ctx);
	g_autoptr(GDir) d = NULL;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(JsonArray) array = json_array_new();
	g_autoptr(GError) error_local = NULL;
	const gchar *name;
	guint start;

	d = g_dir_open(dir, 0, &error_local);
	if (d == NULL) {
		if (g_error_matches(error_local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return g_steal_pointer(&array);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_IO,
			    "cannot read history %s: %s",
			    dir,
			    error_local->message);
		return NULL;
	}
	while ((name = g_dir_read_name(d)) != NULL) {
		/* skips temporary files of an interrupted g_file_set_contents() */
		if (g_str_has_suffix(name, ".json") && g_ascii_isdigit(name[0]))
			g_ptr_array_add(names, g_strdup(name));
	}
	g_ptr_array_sort(names, sdt_history_name_cmp);
	start = names->len > SDT_HISTORY_MAX_ENTRIES ? names->len - SDT_HISTORY_MAX_ENTRIES : 0;
	for (guint i = start; i < names->len; i++) {
		g_autofree gchar *path = g_build_filename(dir, g_ptr_array_index(names, i), NULL);
		g_autofree gchar *text = NULL;
		gsize len = 0;
		g_autoptr(JsonParser) parser = json_parser_new();
		JsonNode *root;

		/* a damaged entry is skipped, never fatal: the rest stays readable */
		if (!g_file_get_contents(path, &text, &len, NULL) || len > SDT_HISTORY_MAX_SIZE)
			continue;
		if (!json_parser_load_from_data(parser, text, (gssize) len, NULL))
			continue;
		root = json_parser_get_root(parser);
		if (root == NULL || !JSON_NODE_HOLDS_OBJECT(root))
			continue;
		json_array_add_element(array, json_node_copy(root));
	}
	return g_steal_pointer(&array);
}

JsonNode *
sdt_ops_history(SdtContext *ctx, GError **error)
{
	g_autoptr(JsonArray) entries = sdt_history_list(ctx, error);
	g_autoptr(JsonObject) obj = NULL;
	JsonNode *node;

	if (entries == NULL)
		return NULL;
	obj = json_object_new();
	json_object_set_array_member(obj, "entries", g_steal_pointer(&entries));
	node = json_node_new(JSON_NODE_OBJECT);
	json_node_take_object(node, g_steal_pointer(&obj));
	return node;
}
