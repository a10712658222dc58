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
