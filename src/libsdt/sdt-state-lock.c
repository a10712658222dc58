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

gint
sdt_state_lock(const gchar *dir, const gchar *name, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, -1);
	g_autoptr(GDir) d = NULL;
	const gchar *entry;
	gint fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

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
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	struct stat st;
	gint errsv = sdt_state_dir_create(dir, SDT_STATE_DIR_MODE);

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
	/* one an older SD Tuner made 0755 (sdtunerctl under a shell's umask) */
	if ((st.st_mode & 07777) != SDT_STATE_DIR_MODE && st.st_uid == geteuid() &&
	    chmod(dir, SDT_STATE_DIR_MODE) != 0)
		g_warning("cannot make %s mode %o: %s", dir, SDT_STATE_DIR_MODE, g_strerror(errno));
	return TRUE;
}
