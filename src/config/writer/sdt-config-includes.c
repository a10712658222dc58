/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* reads the files config.txt includes, within the include budget (file I/O: not in the app) */

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sdt-config-txt.h"
#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-config-includes.h"

/* a name the firmware resolves in the boot folder: no way out of it */
static gboolean
sdt_config_include_name_ok(const gchar *name)
{
	return name[0] != '\0' && name[0] != '/' && strstr(name, "..") == NULL;
}

/* the files read so far, breadth first, and what they cost */
typedef struct {
	SdtConfigTxt *self;
	const gchar *dir;
	GPtrArray *queue; /* of SdtConfigTxt, each file once */
	GArray *depths;   /* the include depth of each file of the queue */
	GHashTable *seen; /* names already met */
	guint64 total_bytes;
	guint n_files;
} SdtConfigIncludes;

static gboolean
sdt_config_includes_too_many(GError **error)
{
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    ngettext("config.txt and its included files name more "
			     "than %u different file to include; SD Tuner "
			     "reads at most that many: remove include lines "
			     "by hand",
			     "config.txt and its included files name more "
			     "than %u different files to include; SD Tuner "
			     "reads at most that many: remove include lines "
			     "by hand",
			     SDT_CONFIG_TXT_MAX_INCLUDE_FILES),
		    (guint) SDT_CONFIG_TXT_MAX_INCLUDE_FILES);
	return FALSE;
}

static gboolean
sdt_config_includes_too_large(const gchar *name, guint64 size, GError **error)
{
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    _("the files included from config.txt add up to more "
		      "than %u KiB (%s is %" PRIu64 " bytes); "
		      "SD Tuner reads at most that much: remove include "
		      "lines or shrink those files by hand"),
		    (guint) (SDT_CONFIG_TXT_MAX_INCLUDE_BYTES / 1024),
		    name,
		    size);
	return FALSE;
}

/*
 * Reads the include @name of a file at @depth and queues it.  TRUE also when
 * it is skipped: a name that leaves the boot folder, one already read, or a
 * missing file (as the firmware skips it).
 */
static gboolean
sdt_config_includes_read(SdtConfigIncludes *inc, const gchar *name, guint depth, GError **error)
{
	g_autofree gchar *path = NULL;
	g_autofree gchar *data = NULL;
	g_autoptr(GError) error_local = NULL;
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	GStatBuf st;
	gsize len = 0;
	guint next = depth + 1;

	if (!sdt_config_include_name_ok(name) ||
	    g_strcmp0(name, sdt_config_txt_get_name(inc->self)) == 0 ||
	    g_hash_table_contains(inc->seen, name))
		return TRUE;
	g_hash_table_add(inc->seen, g_strdup(name));
	path = g_build_filename(inc->dir, name, NULL);
	/* a missing include is skipped, as the firmware does */
	if (g_lstat(path, &st) != 0)
		return TRUE;
	if (++inc->n_files > SDT_CONFIG_TXT_MAX_INCLUDE_FILES)
		return sdt_config_includes_too_many(error);
	if (S_ISREG(st.st_mode) &&
	    inc->total_bytes + (guint64) st.st_size > SDT_CONFIG_TXT_MAX_INCLUDE_BYTES)
		return sdt_config_includes_too_large(name, (guint64) st.st_size, error);
	if (!sdt_file_read_bounded(path,
				   SDT_CONFIG_TXT_MAX_INCLUDE_BYTES - inc->total_bytes,
				   &data,
				   &len,
				   &error_local)) {
		if (g_error_matches(error_local, SDT_ERROR, SDT_ERROR_NOT_FOUND))
			return TRUE;
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: a file name, then the reason */
			    _("config.txt includes %s, which cannot be read (%s): "
			      "make it a plain file or remove the include line"),
			    name,
			    error_local->message);
		return FALSE;
	}
	inc->total_bytes += len;
	bytes = g_bytes_new_take(g_steal_pointer(&data), len);
	cfg = sdt_config_txt_new_from_bytes(bytes, name);
	sdt_config_txt_set_include(inc->self, name, cfg);
	g_ptr_array_add(inc->queue, g_object_ref(cfg));
	g_array_append_val(inc->depths, next);
	return TRUE;
}

/**
 * sdt_config_includes_load:
 * @dir: the folder config.txt is in; include names are relative to it
 *
 * Reads the files the `include` lines name (and those their include lines
 * name, as deep as the walk follows them), each file once, with
 * sdt_file_read_bounded(), and attaches them to @self.  A missing include is
 * skipped, as the firmware skips it.  The work is bounded: at most
 * %SDT_CONFIG_TXT_MAX_INCLUDE_FILES files and
 * %SDT_CONFIG_TXT_MAX_INCLUDE_BYTES bytes are read, and the walk over them
 * must stay within sdt_config_entries_check_include_budget(); past any of these
 * it fails with %SDT_ERROR_INVALID_DATA and a message that says what to do.
 */
gboolean
sdt_config_includes_load(SdtConfigTxt *self, const gchar *dir, GError **error)
{
	g_autoptr(GPtrArray) queue = g_ptr_array_new_with_free_func(g_object_unref);
	g_autoptr(GArray) depths = g_array_new(FALSE, FALSE, sizeof(guint));
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	SdtConfigIncludes inc = {self, dir, queue, depths, seen, 0, 0};
	guint depth = 0;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), FALSE);
	g_return_val_if_fail(dir != NULL, FALSE);

	g_ptr_array_add(queue, g_object_ref(self));
	g_array_append_val(depths, depth);
	/* breadth first: each file is read once, however often it is named */
	for (guint q = 0; q < queue->len; q++) {
		g_autoptr(GPtrArray) names = NULL;

		depth = g_array_index(depths, guint, q);
		/* the walk does not follow include lines of a file this deep */
		if (depth + 1 >= SDT_CONFIG_TXT_MAX_INCLUDE_DEPTH)
			continue;
		names = sdt_config_txt_get_include_names(g_ptr_array_index(queue, q));
		for (guint i = 0; i < names->len; i++) {
			if (!sdt_config_includes_read(&inc,
						      g_ptr_array_index(names, i),
						      depth,
						      error))
				return FALSE;
		}
	}
	return sdt_config_entries_check_include_budget(self, error);
}
