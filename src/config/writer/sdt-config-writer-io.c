/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the writer's file system calls on the real file system (SdtConfigWriterIo) */

#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "sdt-config-writer-private.h"
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

const SdtConfigWriterIo sdt_config_writer_io_default = {
	sdt_config_writer_io_open,
	sdt_config_writer_io_write,
	sdt_config_writer_io_fsync,
	sdt_config_writer_io_close,
	sdt_config_writer_io_rename,
	sdt_config_writer_io_unlink,
	NULL,
};
