/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-history.h"
#include "sdt-json.h"
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

/*
 * g_file_set_contents() writes "<name>.XXXXXX" next to the entry and renames it;
 * a writer killed in between (kill -9, power cut) leaves that file behind.
 * Only names of exactly that shape are temporary files of ours.
 */
static gboolean
sdt_history_is_temp_name(const gchar *name)
{
	const gchar *suffix = g_strrstr(name, ".json.");

	if (!g_ascii_isdigit(name[0]) || suffix == NULL || strlen(suffix) != strlen(".json.") + 6)
		return FALSE;
	for (const gchar *p = suffix + strlen(".json."); *p != '\0'; p++) {
		if (!g_ascii_isalnum(*p))
			return FALSE;
	}
	return TRUE;
}

/* writers hold this while they write, so no live temporary file is removed */
static gint
sdt_history_lock(const gchar *dir, GError **error)
{
	g_autofree gchar *path = g_build_filename(dir, ".lock", NULL);
	gint fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0) {
		sdt_error_set_from_errno(error, errno, "cannot open %s", path);
		return -1;
	}
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			sdt_error_set_from_errno(error, errno, "cannot lock %s", path);
			close(fd);
			return -1;
		}
	}
	return fd;
}

/* with the lock held: no other writer is between its temporary file and the rename */
static guint
sdt_history_remove_temp_locked(const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const gchar *name;
	guint removed = 0;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree gchar *path = NULL;
		if (!sdt_history_is_temp_name(name))
			continue;
		path = g_build_filename(dir, name, NULL);
		if (g_unlink(path) == 0)
			removed++;
		else
			g_warning("cannot remove %s: %s", path, g_strerror(errno));
	}
	return removed;
}

guint
sdt_history_remove_stale(SdtContext *ctx, GError **error)
{
	g_autofree gchar *dir = sdt_history_get_dir(ctx);
	guint removed;
	gint fd;

	if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
		return 0;
	fd = sdt_history_lock(dir, error);
	if (fd < 0)
		return 0;
	removed = sdt_history_remove_temp_locked(dir);
	close(fd);
	return removed;
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
	gint lock_fd;
	gboolean ok;

	g_return_val_if_fail(sdt_history_kind_valid(kind), FALSE);

	if (g_mkdir_with_parents(dir, 0755) != 0)
		return sdt_error_set_from_errno(error, errno, "cannot create %s", dir);
	lock_fd = sdt_history_lock(dir, error);
	if (lock_fd < 0)
		return FALSE;
	sdt_history_remove_temp_locked(dir);
	json_object_set_string_member(entry, "kind", kind);
	json_object_set_string_member(entry, "time", iso);
	json_node_set_object(node, entry);
	text = sdt_json_to_string(node, TRUE);

	/* two entries in the same microsecond get distinct names */
	for (guint i = 0; i < 100; i++) {
		g_free(fn);
		g_free(path);
		fn = g_strdup_printf("%016" G_GINT64_FORMAT "-%s.json", usec + i, kind);
		path = g_build_filename(dir, fn, NULL);
		if (!g_file_test(path, G_FILE_TEST_EXISTS))
			break;
	}
	ok = g_file_set_contents_full(path,
				      text,
				      -1,
				      G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
				      0644,
				      error);
	close(lock_fd);
	if (!ok)
		g_prefix_error(error, "cannot save history entry: ");
	return ok;
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

		/* a damaged entry is skipped, never fatal: the rest stays readable; a FIFO,
		 * a link or an oversized file planted here is not even opened for long */
		if (!sdt_file_read_bounded(path, SDT_HISTORY_MAX_SIZE, &text, &len, NULL))
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
