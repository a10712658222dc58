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
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-state-lock.h"

/* "NAME." and the six letters or digits of g_mkstemp() */
static gboolean
sdt_state_lock_is_temp_name(const gchar *entry, const gchar *name)
{
	const gsize len = strlen(name);

	if (strncmp(entry, name, len) != 0 || entry[len] != '.' || strlen(entry) != len + 7)
		return FALSE;
	for (const gchar *p = entry + len + 1; *p != '\0'; p++) {
		if (!g_ascii_isalnum(*p))
			return FALSE;
	}
	return TRUE;
}

/* a folder named "sd-tuner" at or above @path: SD Tuner's own from there down */
static gboolean
sdt_state_dir_is_ours(const gchar *path)
{
	g_auto(GStrv) parts = g_strsplit(path, G_DIR_SEPARATOR_S, -1);

	for (guint i = 0; parts[i] != NULL; i++) {
		if (g_strcmp0(parts[i], "sd-tuner") == 0)
			return TRUE;
	}
	return FALSE;
}

/*
 * Whether @st may hold SD Tuner's state (issue 33): owned by root or by the
 * user running SD Tuner (a --root tree of a test), and written by nobody else;
 * above SD Tuner's own folders a sticky one (/tmp) is fine too.
 */
static gboolean
sdt_state_dir_trusted(const gchar *path, const struct stat *st, gboolean strict, GError **error)
{
	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		g_set_error(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			/* Translators: a folder, the user id owning it, then the folder again */
			_("%s belongs to another user (uid %u), who could change SD Tuner's "
			  "records in it: SD Tuner changed nothing. Give it to root "
			  "(sudo chown root: %s) or remove it, then try again"),
			path,
			(guint) st->st_uid,
			path);
		return FALSE;
	}
	if ((st->st_mode & (S_IWGRP | S_IWOTH)) == 0 || (!strict && (st->st_mode & S_ISVTX)))
		return TRUE;
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    /* Translators: a folder, its mode (octal), then the folder again */
		    _("%s may be written by other users (mode %04o), who could change SD "
		      "Tuner's records in it: SD Tuner changed nothing. Take their write "
		      "access away (sudo chmod go-w %s), then try again"),
		    path,
		    (guint) (st->st_mode & 07777),
		    path);
	return FALSE;
}

gboolean
sdt_state_lock_check_dir(const gchar *dir, GError **error)
{
	g_autofree gchar *path = NULL;
	gboolean ours;
	gboolean first = TRUE;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	path = g_canonicalize_filename(dir, NULL);
	ours = sdt_state_dir_is_ours(path);
	/* @dir itself never through a link; the folders above it as the kernel
	 * resolves them (/var/run is a link to /run on every Debian) */
	for (gchar *p = g_strdup(path);; first = FALSE) {
		g_autofree gchar *here = p;
		g_autofree gchar *base = g_path_get_basename(here);
		struct stat st;
		gint rc = first ? lstat(here, &st) : stat(here, &st);

		if (rc != 0 && errno != ENOENT)
			return sdt_error_set_from_errno(error, errno, _("cannot open %s"), here);
		if (rc == 0 && first && !S_ISDIR(st.st_mode)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("%s is not a folder: move it away, then try again"),
				    here);
			return FALSE;
		}
		if (rc == 0 && !sdt_state_dir_trusted(here, &st, first || ours, error))
			return FALSE;
		/* above SD Tuner's own folder: the system's */
		if (g_strcmp0(base, "sd-tuner") == 0)
			ours = FALSE;
		if (g_strcmp0(here, "/") == 0)
			return TRUE;
		p = g_path_get_dirname(here);
	}
}

gint
sdt_state_lock(const gchar *dir, const gchar *name, GError **error)
{
	g_autoptr(GDir) d = NULL;
	const gchar *entry;
	gint fd;

	g_return_val_if_fail(error == NULL || *error == NULL, -1);

	if (!sdt_state_lock_check_dir(dir, error))
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		sdt_error_set_from_errno(error, errno, _("cannot open %s"), dir);
		return -1;
	}
	while (flock(fd, LOCK_EX) != 0) {
		if (errno != EINTR) {
			sdt_error_set_from_errno(error, errno, _("cannot lock %s"), dir);
			close(fd);
			return -1;
		}
	}
	d = g_dir_open(dir, 0, NULL);
	while (d != NULL && (entry = g_dir_read_name(d)) != NULL) {
		g_autofree gchar *path = NULL;
		if (!sdt_state_lock_is_temp_name(entry, name))
			continue;
		path = g_build_filename(dir, entry, NULL);
		if (g_unlink(path) != 0 && errno != ENOENT)
			g_warning("cannot remove %s: %s", path, g_strerror(errno));
	}
	return fd;
}

/* mkdir -p of @dir: every folder it creates gets @mode, whatever the umask; 0 or an errno */
static gint
sdt_state_dir_create(const gchar *dir, mode_t mode)
{
	g_autofree gchar *parent = g_path_get_dirname(dir);
	gint errsv;

	if (g_file_test(dir, G_FILE_TEST_EXISTS))
		return 0;
	if (g_strcmp0(parent, dir) != 0 && (errsv = sdt_state_dir_create(parent, mode)) != 0)
		return errsv;
	if (mkdir(dir, mode) != 0)
		return errno == EEXIST ? 0 : errno;
	if (chmod(dir, mode) != 0)
		g_warning("cannot make %s mode %o: %s", dir, (guint) mode, g_strerror(errno));
	return 0;
}

gboolean
sdt_state_lock_make_dir(const gchar *dir, GError **error)
{
	struct stat st;
	gint errsv;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	/* before anything is created in it: whose it is */
	if (!sdt_state_lock_check_dir(dir, error))
		return FALSE;
	errsv = sdt_state_dir_create(dir, SDT_STATE_DIR_MODE);
	if (errsv != 0)
		return sdt_error_set_from_errno(error, errsv, _("cannot create %s"), dir);
	if (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("%s is not a folder: move it away, then try again"),
			    dir);
		return FALSE;
	}
	/* what was created meanwhile (another process between the check and mkdir) */
	if (!sdt_state_lock_check_dir(dir, error))
		return FALSE;
	/* one an older SD Tuner made 0755 (sdtunerctl under a shell's umask) */
	if ((st.st_mode & 07777) != SDT_STATE_DIR_MODE && st.st_uid == geteuid() &&
	    chmod(dir, SDT_STATE_DIR_MODE) != 0)
		g_warning("cannot make %s mode %o: %s", dir, SDT_STATE_DIR_MODE, g_strerror(errno));
	return TRUE;
}
