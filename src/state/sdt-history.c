/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-state-lock.h"
#include "sdt-file.h"
#include "sdt-history.h"
#include "sdt-json.h"

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
		sdt_error_set_from_errno(error, errno, _("cannot open %s"), path);
		return -1;
	}
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			sdt_error_set_from_errno(error, errno, _("cannot lock %s"), path);
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
	g_autofree gchar *dir = NULL;
	guint removed;
	gint fd;

	g_return_val_if_fail(error == NULL || *error == NULL, 0);

	dir = sdt_history_get_dir(ctx);
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
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	return sdt_history_append_named(ctx, kind, entry, NULL, error);
}

gboolean
sdt_history_remove_entry(SdtContext *ctx, const gchar *name, GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autofree gchar *path = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(name != NULL && strchr(name, '/') == NULL, FALSE);

	dir = sdt_history_get_dir(ctx);
	path = g_build_filename(dir, name, NULL);
	if (g_unlink(path) != 0 && errno != ENOENT)
		return sdt_error_set_from_errno(error, errno, _("cannot remove %s"), path);
	return TRUE;
}

gboolean
sdt_history_append_named(SdtContext *ctx,
			 const gchar *kind,
			 JsonObject *entry,
			 gchar **name,
			 GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autofree gchar *fn = NULL;
	g_autofree gchar *path = NULL;
	g_autofree gchar *text = NULL;
	g_autoptr(GDateTime) now = NULL;
	g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
	g_autofree gchar *iso = NULL;
	gint64 usec;
	gint lock_fd;
	gboolean ok;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(sdt_history_kind_valid(kind), FALSE);

	dir = sdt_history_get_dir(ctx);
	now = sdt_context_get_now(ctx);
	iso = g_date_time_format_iso8601(now);
	usec = g_date_time_to_unix(now) * G_USEC_PER_SEC + g_date_time_get_microsecond(now);
	if (!sdt_state_lock_make_dir(dir, error))
		return FALSE;
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
	sdt_file_kill_point();
	/* a full or read-only state file system as such over the bus (NoSpace, ReadOnly) */
	if (!ok && error != NULL && g_error_matches(*error, G_FILE_ERROR, G_FILE_ERROR_NOSPC)) {
		(*error)->domain = SDT_ERROR;
		(*error)->code = SDT_ERROR_NO_SPACE;
	} else if (!ok && error != NULL &&
		   g_error_matches(*error, G_FILE_ERROR, G_FILE_ERROR_ROFS)) {
		(*error)->domain = SDT_ERROR;
		(*error)->code = SDT_ERROR_READ_ONLY;
	}
	if (!ok)
		g_prefix_error(error, _("cannot save history entry: "));
	else if (name != NULL)
		*name = g_steal_pointer(&fn);
	return ok;
}

static gint
sdt_history_name_cmp(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(const gchar **) a, *(const gchar **) b);
}

typedef enum {
	SDT_HISTORY_STRING,
	SDT_HISTORY_STRING_OR_NULL,
	SDT_HISTORY_BOOLEAN,
	SDT_HISTORY_OBJECT,
	SDT_HISTORY_OBJECT_OR_NULL,
	SDT_HISTORY_ARRAY,
} SdtHistoryType;

/* the members SD Tuner writes (sdt-ops-config.c, sdt-ops-bench.c, sdt-bench.c) and their types */
static const struct {
	const gchar *name;
	SdtHistoryType type;
} sdt_history_members[] = {
	{"kind", SDT_HISTORY_STRING},
	{"time", SDT_HISTORY_STRING},
	{"id", SDT_HISTORY_STRING_OR_NULL},
	{"path", SDT_HISTORY_STRING},
	{"backup", SDT_HISTORY_STRING_OR_NULL},
	{"trial", SDT_HISTORY_BOOLEAN},
	{"changed", SDT_HISTORY_BOOLEAN},
	{"profile", SDT_HISTORY_STRING},
	{"target", SDT_HISTORY_OBJECT},
	{"tests", SDT_HISTORY_ARRAY},
	{"verdict", SDT_HISTORY_OBJECT},
	{"config_sha256", SDT_HISTORY_STRING_OR_NULL},
	{"boot_id", SDT_HISTORY_STRING_OR_NULL},
	{"card", SDT_HISTORY_OBJECT_OR_NULL},
	{"identity", SDT_HISTORY_OBJECT_OR_NULL}, /* a device check's card (issue 34) */
};

static gboolean
sdt_history_type_ok(JsonNode *node, SdtHistoryType type)
{
	switch (type) {
	case SDT_HISTORY_STRING_OR_NULL:
		if (JSON_NODE_HOLDS_NULL(node))
			return TRUE;
		/* fall through */
	case SDT_HISTORY_STRING:
		return JSON_NODE_HOLDS_VALUE(node) &&
		       json_node_get_value_type(node) == G_TYPE_STRING;
	case SDT_HISTORY_BOOLEAN:
		return JSON_NODE_HOLDS_VALUE(node) &&
		       json_node_get_value_type(node) == G_TYPE_BOOLEAN;
	case SDT_HISTORY_OBJECT_OR_NULL:
		if (JSON_NODE_HOLDS_NULL(node))
			return TRUE;
		/* fall through */
	case SDT_HISTORY_OBJECT:
		return JSON_NODE_HOLDS_OBJECT(node);
	case SDT_HISTORY_ARRAY:
		return JSON_NODE_HOLDS_ARRAY(node);
	default:
		return FALSE;
	}
}

/* a check's verdict is a word ("genuine", "fake", "undetermined", sdt-check.c), a
 * benchmark's an object; "kind", checked first, is a string by then */
static SdtHistoryType
sdt_history_member_type(JsonObject *obj, guint i)
{
	if (g_strcmp0(sdt_history_members[i].name, "verdict") == 0 &&
	    g_strcmp0(json_object_get_string_member(obj, "kind"), "check") == 0)
		return SDT_HISTORY_STRING;
	return sdt_history_members[i].type;
}

/* the members an entry must have, and every member of the right type */
static gboolean
sdt_history_check_members(JsonObject *obj, GError **error)
{
	for (guint i = 0; i < G_N_ELEMENTS(sdt_history_members); i++) {
		const gchar *name = sdt_history_members[i].name;
		JsonNode *member = json_object_get_member(obj, name);
		gboolean required = i < 2; /* kind and time */

		if (member == NULL && !required)
			continue;
		if (member == NULL) {
			/* Translators: why a history entry is damaged, in parentheses;
			 * %s is a JSON member's name */
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("no \"%s\" member"),
				    name);
			return FALSE;
		}
		if (!sdt_history_type_ok(member, sdt_history_member_type(obj, i))) {
			/* Translators: why a history entry is damaged, in parentheses;
			 * %s is a JSON member's name */
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("\"%s\" has the wrong type"),
				    name);
			return FALSE;
		}
	}
	return TRUE;
}

JsonNode *
sdt_history_parse_entry(const gchar *data, gsize len, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error_local = NULL;
	JsonNode *root;
	JsonObject *obj;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (len > SDT_HISTORY_MAX_SIZE) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: why a history entry is damaged, in parentheses */
			    _("%" PRIu64 " bytes, more than a history entry can be"),
			    (uint64_t) len);
		return NULL;
	}
	if (len > 0 && memchr(data, '\0', len) != NULL) {
		/* Translators: why a history entry is damaged, in parentheses */
		g_set_error_literal(error, SDT_ERROR, SDT_ERROR_INVALID_DATA, _("a NUL byte"));
		return NULL;
	}
	if (!json_parser_load_from_data(parser, data, (gssize) len, &error_local)) {
		g_autofree gchar *where = sdt_json_parse_problem(error_local);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: why a history entry is damaged, in parentheses;
			     * then where its text stops being JSON */
			    _("not JSON: %s"),
			    where);
		return NULL;
	}
	root = json_parser_get_root(parser);
	if (root == NULL || !JSON_NODE_HOLDS_OBJECT(root)) {
		/* Translators: why a history entry is damaged, in parentheses */
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("not a JSON object"));
		return NULL;
	}
	obj = json_node_get_object(root);
	if (!sdt_history_check_members(obj, error))
		return NULL;
	if (!sdt_history_kind_valid(json_object_get_string_member(obj, "kind"))) {
		g_set_error_literal(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			/* Translators: why a history entry is damaged, in parentheses */
			_("an unknown \"kind\""));
		return NULL;
	}
	root = json_node_copy(root);
	/* a "\ud800" escape decodes to bytes that are not UTF-8: replace them visibly */
	sdt_json_sanitize_utf8(root);
	return root;
}

JsonArray *
sdt_history_list(SdtContext *ctx, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	return sdt_history_list_full(ctx, NULL, error);
}

JsonArray *
sdt_history_list_full(SdtContext *ctx, GPtrArray *warnings, GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(GDir) d = NULL;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(JsonArray) array = json_array_new();
	g_autoptr(GError) error_local = NULL;
	const gchar *name;
	guint start;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	dir = sdt_history_get_dir(ctx);
	/* entries another user could have written are not SD Tuner's (issue 33) */
	if (!sdt_state_lock_check_dir(dir, error))
		return NULL;
	d = g_dir_open(dir, 0, &error_local);
	if (d == NULL) {
		if (g_error_matches(error_local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			return g_steal_pointer(&array);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_IO,
			    _("cannot read history %s: %s"),
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
		const gchar *fn = g_ptr_array_index(names, i);
		g_autofree gchar *path = g_build_filename(dir, fn, NULL);
		g_autofree gchar *text = NULL;
		g_autoptr(GError) error_entry = NULL;
		JsonNode *entry = NULL;
		gsize len = 0;

		/* a damaged entry is skipped, never fatal: the rest stays readable; a
		 * FIFO or a link planted in the folder is never opened for reading */
		if (sdt_file_read_bounded(path, SDT_HISTORY_MAX_SIZE, &text, &len, &error_entry))
			entry = sdt_history_parse_entry(text, len, &error_entry);
		if (entry == NULL) {
			if (warnings != NULL)
				g_ptr_array_add(warnings,
						/* Translators: a file name, then the reason */
						g_strdup_printf(_("History entry %s is damaged "
								  "(%s); it is skipped"),
								fn,
								error_entry->message));
			continue;
		}
		json_array_add_element(array, entry);
	}
	return g_steal_pointer(&array);
}
