/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-state-lock.h"
#include "sdt-file.h"
#include "sdt-history-entry.h"
#include "sdt-history.h"

/* more than this many entries: the oldest are not listed (files are tiny) */
#define SDT_HISTORY_MAX_ENTRIES 1000

static gchar *
sdt_history_get_dir(SdtContext *ctx)
{
	g_autofree gchar *state = sdt_context_get_state_dir(ctx);
	return g_build_filename(state, "history", NULL);
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
sdt_history_append(SdtContext *ctx, SdtHistoryEntry *entry, gchar **name, GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autofree gchar *fn = NULL;
	g_autofree gchar *path = NULL;
	g_autofree gchar *text = NULL;
	g_autoptr(GDateTime) now = NULL;
	g_autofree gchar *iso = NULL;
	gint64 usec;
	gint lock_fd;
	gboolean ok;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(entry != NULL && sdt_history_entry_kind_valid(entry->kind), FALSE);

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
	sdt_history_entry_stamp(entry, iso);
	text = sdt_history_entry_to_string(entry);

	/* two entries in the same microsecond get distinct names */
	for (guint i = 0; i < 100; i++) {
		g_free(fn);
		g_free(path);
		fn = g_strdup_printf("%016" G_GINT64_FORMAT "-%s.json", usec + i, entry->kind);
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

GPtrArray *
sdt_history_entries(SdtContext *ctx, GPtrArray *warnings, GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(GDir) d = NULL;
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) entries =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_entry_free);
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
			return g_steal_pointer(&entries);
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
		SdtHistoryEntry *entry = NULL;
		gsize len = 0;

		/* a damaged entry is skipped, never fatal: the rest stays readable; a
		 * FIFO or a link planted in the folder is never opened for reading */
		if (sdt_file_read_bounded(path,
					  SDT_HISTORY_ENTRY_MAX_SIZE,
					  &text,
					  &len,
					  &error_entry))
			entry = sdt_history_entry_parse_data(text, len, &error_entry);
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
		g_ptr_array_add(entries, entry);
	}
	return g_steal_pointer(&entries);
}
