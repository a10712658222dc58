/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-prom.h"
#include "sdt-prom-private.h"
#include "sdt-utf8.h"

/* the Prometheus text exposition format:
 * https://prometheus.io/docs/instrumenting/exposition_formats/ */

typedef struct {
	gchar *name;
	SdtPromType type;
	gchar *help;
	GString *samples; /* "name{labels} value\n" lines */
} SdtPromFamily;

struct _SdtProm {
	GPtrArray *families; /* SdtPromFamily, in the order of their first sample */
	GHashTable *by_name; /* name → SdtPromFamily, owned by @families */
};

static void
sdt_prom_family_free(SdtPromFamily *family)
{
	g_free(family->name);
	g_free(family->help);
	g_string_free(family->samples, TRUE);
	g_free(family);
}

SdtProm *
sdt_prom_new(void)
{
	SdtProm *prom = g_new0(SdtProm, 1);

	prom->families = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_prom_family_free);
	prom->by_name = g_hash_table_new(g_str_hash, g_str_equal);
	return prom;
}

void
sdt_prom_free(SdtProm *prom)
{
	if (prom == NULL)
		return;
	g_hash_table_unref(prom->by_name);
	g_ptr_array_unref(prom->families);
	g_free(prom);
}

/* [a-zA-Z_:][a-zA-Z0-9_:]*, and label names [a-zA-Z_][a-zA-Z0-9_]* (no "__" prefix) */
static gboolean
sdt_prom_valid_name(const gchar *name, gboolean label)
{
	if (name == NULL || name[0] == '\0' || g_ascii_isdigit(name[0]))
		return FALSE;
	if (label && g_str_has_prefix(name, "__"))
		return FALSE;
	for (const gchar *p = name; *p != '\0'; p++) {
		if (!g_ascii_isalnum(*p) && *p != '_' && (label || *p != ':'))
			return FALSE;
	}
	return TRUE;
}

gchar *
sdt_prom_escape_label_value(const gchar *value)
{
	g_autofree gchar *valid = sdt_utf8_make_valid(value != NULL ? value : "", -1);
	GString *out = g_string_sized_new(strlen(valid) + 2);

	for (const gchar *p = valid; *p != '\0'; p++) {
		if (*p == '\\')
			g_string_append(out, "\\\\");
		else if (*p == '"')
			g_string_append(out, "\\\"");
		else if (*p == '\n')
			g_string_append(out, "\\n");
		else
			g_string_append_c(out, *p);
	}
	return g_string_free(out, FALSE);
}

/* HELP text escapes: backslash and line feed */
static void
sdt_prom_append_help(GString *out, const gchar *help)
{
	for (const gchar *p = help; *p != '\0'; p++) {
		if (*p == '\\')
			g_string_append(out, "\\\\");
		else if (*p == '\n')
			g_string_append(out, "\\n");
		else
			g_string_append_c(out, *p);
	}
}

static SdtPromFamily *
sdt_prom_family(SdtProm *prom, const gchar *name, SdtPromType type, const gchar *help)
{
	SdtPromFamily *family = g_hash_table_lookup(prom->by_name, name);

	if (family != NULL) {
		g_return_val_if_fail(family->type == type, NULL);
		return family;
	}
	family = g_new0(SdtPromFamily, 1);
	family->name = g_strdup(name);
	family->type = type;
	family->help = g_strdup(help);
	family->samples = g_string_new(NULL);
	g_ptr_array_add(prom->families, family);
	g_hash_table_insert(prom->by_name, family->name, family);
	return family;
}

void
sdt_prom_add(SdtProm *prom,
	     const gchar *name,
	     SdtPromType type,
	     const gchar *help,
	     const gchar *const *labels,
	     gdouble value)
{
	SdtPromFamily *family;
	gchar number[G_ASCII_DTOSTR_BUF_SIZE];

	g_return_if_fail(sdt_prom_valid_name(name, FALSE));
	/* unknown: no sample, never "NaN" posing as a measurement */
	if (!isfinite(value))
		return;
	family = sdt_prom_family(prom, name, type, help);
	if (family == NULL)
		return;
	g_string_append(family->samples, name);
	for (guint i = 0; labels != NULL && labels[i] != NULL; i += 2) {
		g_autofree gchar *escaped = sdt_prom_escape_label_value(labels[i + 1]);
		g_return_if_fail(sdt_prom_valid_name(labels[i], TRUE));
		g_string_append_printf(family->samples,
				       "%s%s=\"%s\"",
				       i == 0 ? "{" : ",",
				       labels[i],
				       escaped);
	}
	if (labels != NULL && labels[0] != NULL)
		g_string_append_c(family->samples, '}');
	/* the shortest text that reads back as the same double, in C notation */
	g_ascii_dtostr(number, sizeof number, value);
	g_string_append_printf(family->samples, " %s\n", number);
}

gchar *
sdt_prom_to_string(SdtProm *prom)
{
	GString *out = g_string_new(NULL);

	for (guint i = 0; i < prom->families->len; i++) {
		SdtPromFamily *family = g_ptr_array_index(prom->families, i);
		g_string_append_printf(out, "# HELP %s ", family->name);
		sdt_prom_append_help(out, family->help);
		g_string_append_printf(out,
				       "\n# TYPE %s %s\n",
				       family->name,
				       family->type == SDT_PROM_COUNTER ? "counter" : "gauge");
		g_string_append(out, family->samples->str);
	}
	return g_string_free(out, FALSE);
}

/* what to do about @errsv when writing into @dir */
static const gchar *
sdt_prom_write_advice(gint errsv)
{
	switch (errsv) {
	case ENOENT:
	case ENOTDIR:
		return _("the folder does not exist: create it, or install "
			 "prometheus-node-exporter, whose textfile folder it is");
	case EROFS:
		return _("the file system is read-only: choose a folder on a writable one");
	case ENOSPC:
	case EDQUOT:
		return _("the file system is full: free some space");
	case EACCES:
	case EPERM:
		return _("permission denied: run it as root, or choose a folder you may write");
	default:
		return _("check the folder and try again");
	}
}

static gboolean
sdt_prom_write_error(GError **error, gint errsv, const gchar *path)
{
	g_set_error(error,
		    SDT_ERROR,
		    sdt_error_from_errno(errsv),
		    /* Translators: a file name, the system's error, then what to do */
		    _("Cannot write the metrics to “%s” (%s): %s"),
		    path,
		    g_strerror(errsv),
		    sdt_prom_write_advice(errsv));
	return FALSE;
}

/* the whole of @text to @fd, then fsync and 0644; an errno, 0 on success */
static gint
sdt_prom_write_fd(gint fd, const gchar *text)
{
	gsize len = strlen(text);
	gsize done = 0;
	gint errsv = sdt_file_pwrite_all(fd, text, len, 0, &done);

	if (errsv == 0 && done != len)
		errsv = ENOSPC;
	if (errsv == 0 && fsync(fd) != 0)
		errsv = errno;
	/* node_exporter runs as its own user; whatever the umask of the caller */
	if (errsv == 0 && fchmod(fd, 0644) != 0)
		errsv = errno;
	return errsv;
}

/* @path's folder is a symbolic link, or not a folder: refused, said as such */
static gboolean
sdt_prom_dir_refuse(GError **error, const gchar *path, const gchar *dir, gint errsv)
{
	struct stat st;

	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: a file name, then its folder */
			    _("Cannot write the metrics to “%s”: its folder %s is a symbolic "
			      "link, which SD Tuner never follows there (another user may have "
			      "planted it): give the real folder"),
			    path,
			    dir);
		return FALSE;
	}
	return sdt_prom_write_error(error, errsv, path);
}

/*
 * The folder of @path, opened without following a link in its last part, and
 * only when nobody else can swap files under us (issue 33): owned by root or
 * by the caller, not writable by other users unless sticky (/tmp, the
 * textfile collector's convention).  An fd, or -1 with @error.
 */
static gint
sdt_prom_open_dir(const gchar *path, const gchar *dir, GError **error)
{
	gint fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	gboolean shared;

	if (fd < 0) {
		sdt_prom_dir_refuse(error, path, dir, errno);
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		sdt_prom_write_error(error, errno, path);
		close(fd);
		return -1;
	}
	shared = !(st.st_mode & S_ISVTX) &&
		 ((st.st_mode & S_IWOTH) ||
		  ((st.st_mode & S_IWGRP) && st.st_gid != 0 && st.st_gid != getegid()));
	if ((st.st_uid != 0 && st.st_uid != geteuid()) || shared) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: a file name, then its folder */
			    _("Cannot write the metrics to “%s”: its folder %s belongs to "
			      "another user or may be written by other users, who could swap "
			      "files under SD Tuner: choose a folder owned by root (or by you) "
			      "that only its owner may write, such as "
			      "/var/lib/prometheus/node-exporter"),
			    path,
			    dir);
		close(fd);
		return -1;
	}
	return fd;
}

/* a new "NAME.XXXXXX" in @dir_fd, created (never opened) there; its name in @tmp */
static gint
sdt_prom_create_temp(gint dir_fd, const gchar *name, gchar **tmp)
{
	static const gchar letters[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

	for (guint tries = 0; tries < 100; tries++) {
		g_autoptr(GString) t = g_string_new(name);
		gint fd;

		g_string_append_c(t, '.');
		for (guint i = 0; i < 6; i++)
			g_string_append_c(
				t,
				letters[g_random_int_range(0, (gint) sizeof(letters) - 1)]);
		fd = openat(dir_fd,
			    t->str,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0) {
			*tmp = g_string_free(g_steal_pointer(&t), FALSE);
			return fd;
		}
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

gboolean
sdt_prom_write_file(const gchar *path, const gchar *text, GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autofree gchar *name = NULL;
	g_autofree gchar *tmp = NULL;
	gint dir_fd;
	gint fd;
	gint errsv;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	dir = g_path_get_dirname(path);
	name = g_path_get_basename(path);
	if (g_str_has_suffix(path, G_DIR_SEPARATOR_S))
		return sdt_prom_write_error(error, EISDIR, path);
	/* every step relative to the folder opened once: a folder swapped for a
	 * link half-way cannot move the file, nor leave a temporary one behind */
	dir_fd = sdt_prom_open_dir(path, dir, error);
	if (dir_fd < 0)
		return FALSE;
	/* "NAME.prom.XXXXXX": the textfile collector reads only "*.prom" */
	fd = sdt_prom_create_temp(dir_fd, name, &tmp);
	if (fd < 0) {
		errsv = errno;
		close(dir_fd);
		return sdt_prom_write_error(error, errsv, path);
	}
	errsv = sdt_prom_write_fd(fd, text);
	if (close(fd) != 0 && errsv == 0)
		errsv = errno;
	if (errsv == 0 && renameat(dir_fd, tmp, dir_fd, name) != 0)
		errsv = errno;
	if (errsv != 0) {
		(void) unlinkat(dir_fd, tmp, 0);
		close(dir_fd);
		return sdt_prom_write_error(error, errsv, path);
	}
	/* the rename itself durable; a folder that cannot be synced loses nothing */
	(void) fsync(dir_fd);
	close(dir_fd);
	return TRUE;
}
