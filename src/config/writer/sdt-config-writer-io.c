/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the writer's file system calls: the default table, the temporary file, the held descriptor */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-config-writer-io.h"
#include "sdt-config-writer-io-private.h"
#include "sdt-file.h"

static gint
sdt_config_writer_io_open(const gchar *path, gint flags, mode_t mode, gpointer user_data)
{
	return open(path, flags, mode);
}

static gssize
sdt_config_writer_io_write(gint fd, const void *buf, gsize count, gpointer user_data)
{
	return write(fd, buf, count);
}

static gint
sdt_config_writer_io_fsync(gint fd, gpointer user_data)
{
	return fsync(fd);
}

static gint
sdt_config_writer_io_close(gint fd, gpointer user_data)
{
	return close(fd);
}

static gint
sdt_config_writer_io_rename(const gchar *from, const gchar *to, gpointer user_data)
{
	gint rc = rename(from, to);
	sdt_file_kill_point();
	return rc;
}

static gint
sdt_config_writer_io_unlink(const gchar *path, gpointer user_data)
{
	gint rc = unlink(path);
	sdt_file_kill_point();
	return rc;
}

static const SdtConfigWriterIo sdt_config_writer_io_default = {
	sdt_config_writer_io_open,
	sdt_config_writer_io_write,
	sdt_config_writer_io_fsync,
	sdt_config_writer_io_close,
	sdt_config_writer_io_rename,
	sdt_config_writer_io_unlink,
	NULL,
};

const SdtConfigWriterIo *
sdt_config_writer_io_get_default(void)
{
	return &sdt_config_writer_io_default;
}

/* writes all of @data to @fd; 0, or the errno of the failure */
static gint
sdt_config_writer_io_write_all(const SdtConfigWriterIo *io, gint fd, const guint8 *data, gsize len)
{
	gsize done = 0;

	while (done < len) {
		gssize w = io->write(fd, data + done, len - done, io->user_data);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		done += w;
	}
	return 0;
}

/*
 * Gives the temporary file @fd the mode and owner of @st (the file it
 * replaces, or the one a new file takes after): open() took the umask off the
 * mode (the helper's UMask=0077 made a 0644 config.txt 0600, hiding it on an
 * ext4 /boot) and the owner is the writer's.  Only what differs is changed:
 * on vfat both already follow the mount options and cannot be changed.
 */
static gint
sdt_config_writer_io_copy_mode(gint fd, const GStatBuf *st)
{
	struct stat now;

	if (fstat(fd, &now) != 0)
		return errno;
	if ((now.st_uid != st->st_uid || now.st_gid != st->st_gid) &&
	    fchown(fd, st->st_uid, st->st_gid) != 0)
		return errno;
	if ((now.st_mode & 07777) != (st->st_mode & 07777) && fchmod(fd, st->st_mode & 07777) != 0)
		return errno;
	return 0;
}

gint
sdt_config_writer_io_write_tmp(const SdtConfigWriterIo *io,
			       const gchar *tmp,
			       const GStatBuf *st,
			       GBytes *bytes)
{
	gsize len = 0;
	const guint8 *data = g_bytes_get_data(bytes, &len);
	gint fd;
	gint errsv;

	fd = io->open(tmp,
		      O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		      st->st_mode & 0777,
		      io->user_data);
	if (fd < 0)
		return errno;
	errsv = sdt_config_writer_io_copy_mode(fd, st);
	if (errsv == 0)
		errsv = sdt_config_writer_io_write_all(io, fd, data, len);
	if (errsv == 0 && io->fsync(fd, io->user_data) != 0)
		errsv = errno;
	if (errsv != 0) {
		io->close(fd, io->user_data);
		io->unlink(tmp, io->user_data);
		return errsv;
	}
	if (io->close(fd, io->user_data) != 0) {
		errsv = errno;
		io->unlink(tmp, io->user_data);
		return errsv;
	}
	return 0;
}

gchar *
sdt_config_writer_io_hash_held(gint fd, const gchar *path, gsize max_len)
{
	g_autoptr(GByteArray) buf = NULL;
	struct stat held;
	GStatBuf now;
	goffset off = 0;

	g_return_val_if_fail(path != NULL, NULL);
	if (fd < 0 || fstat(fd, &held) != 0 || g_lstat(path, &now) != 0 || !S_ISREG(now.st_mode) ||
	    now.st_dev != held.st_dev || now.st_ino != held.st_ino)
		return NULL;
	buf = g_byte_array_new();
	for (;;) {
		guint8 chunk[4096];
		gssize n = pread(fd, chunk, sizeof(chunk), (off_t) off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return NULL;
		if (n == 0)
			break;
		g_byte_array_append(buf, chunk, (guint) n);
		off += n;
		if (buf->len > max_len)
			return g_strdup(""); /* grown past what SD Tuner reads: not the same */
	}
	return g_compute_checksum_for_data(G_CHECKSUM_SHA256, buf->data, buf->len);
}
