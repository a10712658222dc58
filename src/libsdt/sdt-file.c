/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_PATH, syscall */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#endif

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-file-private.h"

/* 64-bit times and file offsets on 32-bit Raspberry Pi OS (armhf) too: meson.build
 * defines _TIME_BITS=64 and _FILE_OFFSET_BITS=64 for every target; a build
 * without them (or with a C library that ignores them) stops here */
G_STATIC_ASSERT(sizeof(time_t) == 8);
G_STATIC_ASSERT(sizeof(off_t) == 8);

static gboolean
sdt_file_check_stat(const gchar *path, const struct stat *st, gsize max_len, GError **error)
{
	if (!S_ISREG(st->st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("%s is not a regular file"),
			    path);
		return FALSE;
	}
	if ((guint64) st->st_size > (guint64) max_len) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: a path, its size in bytes, the most SD Tuner reads */
			    _("%s is too large (%" PRIu64 " bytes, at most %" PRIu64 ")"),
			    path,
			    (uint64_t) st->st_size,
			    (uint64_t) max_len);
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
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	return sdt_file_read_bounded_fd(path, max_len, contents, len, NULL, error);
}

gboolean
sdt_file_read_bounded_fd(const gchar *path,
			 gsize max_len,
			 gchar **contents,
			 gsize *len,
			 gint *fd_out,
			 GError **error)
{
	g_autofree gchar *buf = NULL;
	struct stat st;
	gsize used = 0;
	gint fd;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(path != NULL, FALSE);
	g_return_val_if_fail(contents != NULL, FALSE);

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		gint errsv = errno;
		if (errsv == ELOOP) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("%s is a symbolic link"),
				    path);
			return FALSE;
		}
		return sdt_error_set_from_errno(error, errsv, _("Cannot open %s"), path);
	}
	if (fstat(fd, &st) != 0) {
		gint errsv = errno;
		g_close(fd, NULL);
		return sdt_error_set_from_errno(error, errsv, _("Cannot inspect %s"), path);
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
			return sdt_error_set_from_errno(error, errsv, _("Cannot read %s"), path);
		}
		if (n == 0)
			break;
		used += (gsize) n;
	}
	if (used > (gsize) st.st_size) {
		g_close(fd, NULL);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("%s changed while it was read"),
			    path);
		return FALSE;
	}
	if (fd_out != NULL)
		*fd_out = fd;
	else
		g_close(fd, NULL);
	buf[used] = '\0';
	if (len != NULL)
		*len = used;
	*contents = g_steal_pointer(&buf);
	return TRUE;
}

/* a kernel file is read in pieces of this size at first; the buffer doubles up to the maximum */
#define SDT_FILE_KERNEL_CHUNK 4096

static gboolean
sdt_file_has_root(const gchar *root)
{
	return root != NULL && root[0] != '\0' && g_strcmp0(root, "/") != 0;
}

static gchar *
sdt_file_display_path(const gchar *root, const gchar *path)
{
	return sdt_file_has_root(root) ? g_build_filename(root, path, NULL) : g_strdup(path);
}

/* openat2() with RESOLVE_IN_ROOT; -1 with errno ENOSYS where the kernel or the headers lack it */
static gint
sdt_file_openat2_in_root(const gchar *root, const gchar *path, gint flags)
{
#if defined(SYS_openat2) && defined(RESOLVE_IN_ROOT)
	struct open_how how;
	gint dfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	gint fd, errsv;

	if (dfd < 0)
		return -1;
	memset(&how, 0, sizeof(how));
	how.flags = (guint64) flags;
	how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
	/* EAGAIN: a rename under the root raced the lookup; try again */
	for (guint i = 0; i < 8; i++) {
		fd = (gint) syscall(SYS_openat2, dfd, path, &how, sizeof(how));
		if (fd >= 0 || (errno != EAGAIN && errno != EINTR))
			break;
	}
	errsv = errno;
	close(dfd);
	errno = errsv;
	return fd;
#else
	errno = ENOSYS;
	return -1;
#endif
}

/* before openat2(): the folder of @path, links resolved, must lie under @root */
static gint
sdt_file_open_under_root(const gchar *root, const gchar *path, gint flags, gboolean *outside)
{
	g_autofree gchar *full = g_build_filename(root, path, NULL);
	g_autofree gchar *dir = g_path_get_dirname(full);
	g_autofree gchar *base = g_path_get_basename(full);
	g_autofree gchar *real_root = realpath(root, NULL);
	g_autofree gchar *real_dir = realpath(dir, NULL);
	g_autofree gchar *target = NULL;

	*outside = FALSE;
	if (real_root == NULL || real_dir == NULL)
		return -1;
	if (g_strcmp0(real_root, "/") != 0 && g_strcmp0(real_dir, real_root) != 0 &&
	    !(g_str_has_prefix(real_dir, real_root) && real_dir[strlen(real_root)] == '/')) {
		*outside = TRUE;
		return -1;
	}
	target = g_build_filename(real_dir, base, NULL);
	return open(target, flags);
}

gint
sdt_file_open_in_root(const gchar *root, const gchar *path, gint flags, GError **error)
{
	g_autofree gchar *shown = NULL;
	gboolean outside = FALSE;
	gint fd, errsv;

	g_return_val_if_fail(error == NULL || *error == NULL, -1);
	g_return_val_if_fail(path != NULL && path[0] == '/', -1);

	flags |= O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
	if (!sdt_file_has_root(root))
		fd = open(path, flags);
	else {
		fd = sdt_file_openat2_in_root(root, path, flags);
		if (fd < 0 && (errno == ENOSYS || errno == EPERM))
			fd = sdt_file_open_under_root(root, path, flags, &outside);
	}
	if (fd >= 0)
		return fd;
	errsv = errno;
	shown = sdt_file_display_path(root, path);
	if (outside)
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: a file's path, then the root directory (--root) */
			    _("%s leads out of the root %s through a symbolic link: SD Tuner reads "
			      "only what lies under it"),
			    shown,
			    root);
	else if (errsv == ELOOP || errsv == EXDEV)
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: a file's path */
			    _("%s is a symbolic link or leads out of the root: replace it with a "
			      "copy of the file"),
			    shown);
	else
		sdt_error_set_from_errno(error, errsv, _("Cannot open %s"), shown);
	return -1;
}

/* whole sentences per file type, so that no translation has to fit a fragment */
static gboolean
sdt_file_set_not_regular(GError **error, const gchar *shown, mode_t mode)
{
	if (S_ISFIFO(mode))
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: a file's path */
			    _("%s is a FIFO, not a kernel file: SD Tuner reads only regular files "
			      "there (on a copied root, copy the file itself)"),
			    shown);
	else if (S_ISCHR(mode) || S_ISBLK(mode))
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: a file's path */
			    _("%s is a device node, not a kernel file: SD Tuner reads only regular "
			      "files there (on a copied root, copy the file itself)"),
			    shown);
	else if (S_ISDIR(mode))
		g_set_error(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			/* Translators: a file's path */
			_("%s is a folder, not a kernel file: SD Tuner reads only regular files "
			  "there (on a copied root, copy the file itself)"),
			shown);
	else
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: a file's path (a socket, say) */
			    _("%s is not a regular file, not a kernel file: SD Tuner reads only "
			      "regular files there (on a copied root, copy the file itself)"),
			    shown);
	return FALSE;
}

/* reads @fd until end-of-file, at most @max_len bytes; -1 with errno, or E2BIG beyond it */
static gboolean
sdt_file_read_to_end(gint fd, gsize max_len, gchar **contents, gsize *len, gint *errsv)
{
	gsize cap = MIN(max_len, (gsize) SDT_FILE_KERNEL_CHUNK) + 1;
	g_autofree gchar *buf = g_malloc(cap + 1);
	gsize used = 0;

	for (;;) {
		gssize n;

		if (used == cap) {
			if (cap > max_len)
				break; /* one byte beyond the maximum */
			cap = cap > (max_len + 1) / 2 ? max_len + 1 : cap * 2;
			buf = g_realloc(buf, cap + 1);
		}
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return (*errsv = errno, FALSE);
		if (n == 0)
			break;
		used += (gsize) n;
	}
	if (used > max_len)
		return (*errsv = E2BIG, FALSE);
	buf[used] = '\0';
	*len = used;
	*contents = g_steal_pointer(&buf);
	return TRUE;
}

gboolean
sdt_file_read_kernel(const gchar *root,
		     const gchar *path,
		     gsize max_len,
		     gchar **contents,
		     gsize *len,
		     GError **error)
{
	g_autofree gchar *shown = NULL;
	struct stat st;
	gsize used = 0;
	gint fd, errsv = 0;
	gboolean ok;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(contents != NULL, FALSE);
	g_return_val_if_fail(max_len < G_MAXSIZE / 2, FALSE);

	fd = sdt_file_open_in_root(root, path, O_RDONLY | O_NONBLOCK, error);
	if (fd < 0)
		return FALSE;
	shown = sdt_file_display_path(root, path);
	if (fstat(fd, &st) != 0) {
		errsv = errno;
		close(fd);
		return sdt_error_set_from_errno(error, errsv, _("Cannot inspect %s"), shown);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return sdt_file_set_not_regular(error, shown, st.st_mode);
	}
	ok = sdt_file_read_to_end(fd, max_len, contents, &used, &errsv);
	close(fd);
	if (!ok && errsv == E2BIG) {
		g_autofree gchar *size = g_format_size(max_len);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: a file's path, then a size ("64.0 kB") */
			    _("%s holds more than %s, more than this kernel file ever does: it is "
			      "not what SD Tuner expects there"),
			    shown,
			    size);
		return FALSE;
	}
	if (!ok)
		return sdt_error_set_from_errno(error, errsv, _("Cannot read %s"), shown);
	if (len != NULL)
		*len = used;
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
