/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-error.h"
#include "sdt-mounts.h"
#include "sdt-mounts-private.h"

/* mountinfo is small; anything bigger than this is not one */
#define SDT_MOUNTS_MAX_SIZE (8 * 1024 * 1024)

void
sdt_mounts_entry_free(SdtMount *mount)
{
	if (mount == NULL)
		return;
	g_free(mount->root);
	g_free(mount->mount_point);
	g_free(mount->options);
	g_free(mount->fs_type);
	g_free(mount->source);
	g_free(mount->super_options);
	g_free(mount);
}

/* the kernel writes space, tab, newline and backslash as \040 \011 \012 \134 */
static gchar *
sdt_mounts_unescape(const gchar *str)
{
	GString *out = g_string_sized_new(strlen(str));

	for (const gchar *p = str; *p != '\0'; p++) {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
		    p[3] >= '0' && p[3] <= '7') {
			g_string_append_c(
				out,
				(gchar) (((p[1] - '0') << 6) | ((p[2] - '0') << 3) | (p[3] - '0')));
			p += 3;
		} else {
			g_string_append_c(out, *p);
		}
	}
	return g_string_free(out, FALSE);
}

static gboolean
sdt_mounts_parse_uint(const gchar *str, guint *value)
{
	gchar *end = NULL;
	guint64 v;

	if (!g_ascii_isdigit(str[0]))
		return FALSE;
	v = g_ascii_strtoull(str, &end, 10);
	if (*end != '\0' || v > G_MAXUINT)
		return FALSE;
	*value = (guint) v;
	return TRUE;
}

static gboolean
sdt_mounts_has_option(const gchar *options, const gchar *option)
{
	g_auto(GStrv) list = g_strsplit(options, ",", -1);
	return g_strv_contains((const gchar *const *) list, option);
}

static SdtMount *
sdt_mounts_parse_line(const gchar *line)
{
	g_auto(GStrv) fields = g_strsplit(line, " ", -1);
	g_autoptr(SdtMount) mount = g_new0(SdtMount, 1);
	guint n = g_strv_length(fields);
	guint sep = 0;
	const gchar *colon;
	g_autofree gchar *major = NULL;

	/* id parent major:minor root mount-point options [optional...] - type source super */
	if (n < 10)
		return NULL;
	for (guint i = 6; i < n; i++) {
		if (g_strcmp0(fields[i], "-") == 0) {
			sep = i;
			break;
		}
	}
	if (sep == 0 || sep + 3 >= n)
		return NULL;
	if (!sdt_mounts_parse_uint(fields[0], &mount->id) ||
	    !sdt_mounts_parse_uint(fields[1], &mount->parent_id))
		return NULL;
	colon = strchr(fields[2], ':');
	if (colon == NULL)
		return NULL;
	major = g_strndup(fields[2], colon - fields[2]);
	if (!sdt_mounts_parse_uint(major, &mount->major) ||
	    !sdt_mounts_parse_uint(colon + 1, &mount->minor))
		return NULL;
	if (fields[3][0] != '/' || fields[4][0] != '/')
		return NULL;
	mount->root = sdt_mounts_unescape(fields[3]);
	mount->mount_point = sdt_mounts_unescape(fields[4]);
	mount->options = g_strdup(fields[5]);
	mount->fs_type = sdt_mounts_unescape(fields[sep + 1]);
	mount->source = sdt_mounts_unescape(fields[sep + 2]);
	mount->super_options = g_strdup(fields[sep + 3]);
	mount->fs_read_only = sdt_mounts_has_option(mount->super_options, "ro");
	mount->read_only = sdt_mounts_has_option(mount->options, "ro") || mount->fs_read_only;
	return g_steal_pointer(&mount);
}

GPtrArray *
sdt_mounts_parse(const gchar *text, guint *n_bad)
{
	g_autoptr(GPtrArray) mounts =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_mounts_entry_free);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	guint bad = 0;

	for (guint i = 0; lines[i] != NULL; i++) {
		SdtMount *mount;
		g_strchomp(lines[i]);
		if (lines[i][0] == '\0')
			continue;
		mount = sdt_mounts_parse_line(lines[i]);
		if (mount == NULL) {
			bad++;
			continue;
		}
		g_ptr_array_add(mounts, mount);
	}
	if (n_bad != NULL)
		*n_bad = bad;
	return g_steal_pointer(&mounts);
}

GPtrArray *
sdt_mounts_load(SdtContext *ctx, GError **error)
{
	g_autofree gchar *text = NULL;
	gsize len = 0;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (!sdt_context_read_kernel_file(ctx,
					  "/proc/self/mountinfo",
					  SDT_MOUNTS_MAX_SIZE,
					  &text,
					  &len,
					  error)) {
		g_prefix_error(error, _("cannot read the mount table: "));
		return NULL;
	}
	if (memchr(text, '\0', len) != NULL) {
		g_autofree gchar *path = sdt_context_build_path(ctx, "/proc/self/mountinfo");
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("%s is not a mount table"),
			    path);
		return NULL;
	}
	return sdt_mounts_parse(text, NULL);
}

SdtMount *
sdt_mounts_find_mount_point(GPtrArray *mounts, const gchar *mount_point)
{
	for (guint i = mounts->len; i > 0; i--) {
		SdtMount *mount = g_ptr_array_index(mounts, i - 1);
		if (g_strcmp0(mount->mount_point, mount_point) == 0)
			return mount;
	}
	return NULL;
}

/*
 * Is @mount a mount of its file system as such, the one visible at its mount
 * point?  Not when a later mount covers the same point, nor when it is a bind
 * mount of a folder inside a file system that is also mounted whole (root "/"):
 * a service's sandbox (ProtectSystem=, ReadWritePaths=, PrivateTmp=,
 * StateDirectory=) adds such mounts of the card's partitions to the helper's
 * mount table, which are not where the card is mounted on the system.
 */
gboolean
sdt_mounts_is_own_mount(GPtrArray *mounts, SdtMount *mount)
{
	gboolean whole = FALSE;

	if (sdt_mounts_find_mount_point(mounts, mount->mount_point) != mount)
		return FALSE;
	if (g_strcmp0(mount->root, "/") == 0)
		return TRUE;
	for (guint i = 0; i < mounts->len && !whole; i++) {
		SdtMount *other = g_ptr_array_index(mounts, i);
		whole = other->major == mount->major && other->minor == mount->minor &&
			g_strcmp0(other->root, "/") == 0;
	}
	return !whole;
}

static gboolean
sdt_mounts_path_is_under(const gchar *path, const gchar *dir)
{
	gsize len = strlen(dir);
	if (g_strcmp0(dir, "/") == 0)
		return path[0] == '/';
	return strncmp(path, dir, len) == 0 && (path[len] == '\0' || path[len] == '/');
}

SdtMount *
sdt_mounts_find_for_path(GPtrArray *mounts, const gchar *path)
{
	SdtMount *best = NULL;
	gsize best_len = 0;

	for (guint i = 0; i < mounts->len; i++) {
		SdtMount *mount = g_ptr_array_index(mounts, i);
		gsize len = strlen(mount->mount_point);
		/* >= : a later mount over the same point hides the earlier one */
		if (sdt_mounts_path_is_under(path, mount->mount_point) &&
		    (best == NULL || len >= best_len)) {
			best = mount;
			best_len = len;
		}
	}
	return best;
}

GPtrArray *
sdt_mounts_find_device(GPtrArray *mounts, guint major, guint minor)
{
	GPtrArray *found = g_ptr_array_new();

	for (guint i = 0; i < mounts->len; i++) {
		SdtMount *mount = g_ptr_array_index(mounts, i);
		if (mount->major == major && mount->minor == minor)
			g_ptr_array_add(found, mount);
	}
	return found;
}
