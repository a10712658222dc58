/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-file.h"

static gboolean
sdt_file_check_stat(const gchar *path, const struct stat *st, gsize max_len, GError **error)
{
	if (!S_ISREG(st->st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    "%s is not a regular file",
			    path);
		return FALSE;
	}
	if ((guint64) st->st_size > (guint64) max_len) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    "%s is too large (%" G_GUINT64_FORMAT " bytes, at most %" G_GSIZE_FORMAT
			    ")",
			    path,
			    (guint64) st->st_size,
			    max_len);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_file_read_bounded(const gchar *path,
		      gsize max_len,
		      gchar **contents,
		      gsize *len,
		      GError **error)
{
	g_autofree gchar *buf = NULL;
	struct stat st;
	gsize used = 0;
	gint fd;

	g_return_val_if_fail(path != NULL, FALSE);
	g_return_val_if_fail(contents != NULL, FALSE);

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		gint errsv = errno;
		if (errsv == ELOOP) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    "%s is a symbolic link",
				    path);
			return FALSE;
		}
		return sdt_error_set_from_errno(error, errsv, "Cannot open %s", path);
	}
	if (fstat(fd, &st) != 0) {
		gint errsv = errno;
		g_close(fd, NULL);
		return sdt_error_set_from_errno(error, errsv, "Cannot inspect %s", path);
	}
	if (!sdt_file_check_stat(path, &st, max_len, error)) {
		g_close(fd, NULL);
		return FALSE;
	}

	/* one byte more than allowed, to notice a file that grew since fstat() */
	buf = g_malloc((gsize) st.st_size + 2);
	for (;;) {
		gsize room = (gsize) st.st_size + 1 - used;
		gssize n;

		if (room == 0)
			break;
		n = read(fd, buf + used, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			gint errsv = errno;
			g_close(fd, NULL);
			return sdt_error_set_from_errno(error, errsv, "Cannot read %s", path);
		}
		if (n == 0)
			break;
		used += (gsize) n;
	}
	g_close(fd, NULL);
	if (used > (gsize) st.st_size) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    "%s changed while it was read",
			    path);
		return FALSE;
	}
	buf[used] = '\0';
	if (len != NULL)
		*len = used;
	*contents = g_steal_pointer(&buf);
	return TRUE;
}

gint
sdt_file_pread_all(gint fd, void *buf, gsize len, guint64 offset, gsize *done)
{
	gsize n = 0;
	gint rc = 0;

	while (n < len) {
		gssize r = pread(fd, (guint8 *) buf + n, len - n, (off_t) (offset + n));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r < 0 ? errno : EIO;
			break;
		}
		n += (gsize) r;
	}
	if (done != NULL)
		*done = n;
	return rc;
}

gint
sdt_file_pwrite_all(gint fd, const void *buf, gsize len, guint64 offset, gsize *done)
{
	gsize n = 0;
	gint rc = 0;

	while (n < len) {
		gssize r = pwrite(fd, (const guint8 *) buf + n, len - n, (off_t) (offset + n));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			rc = r < 0 ? errno : EIO;
			break;
		}
		n += (gsize) r;
	}
	if (done != NULL)
		*done = n;
	return rc;
}

void
sdt_file_kill_point(void)
{
	static gint at = -1;
	static gint count = 0;

	if (g_atomic_int_get(&at) < 0) {
		const gchar *env = g_getenv("SDTUNER_TEST_KILL_AT");
		g_atomic_int_set(&at, env != NULL ? (gint) g_ascii_strtoll(env, NULL, 10) : 0);
	}
	if (g_atomic_int_get(&at) > 0 && g_atomic_int_add(&count, 1) + 1 == at)
		raise(SIGKILL);
}
