/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib/gstdio.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* the file system calls of the writer; each returns like its libc namesake */
typedef struct {
	gint (*open)(const gchar *path, gint flags, mode_t mode, gpointer user_data);
	gssize (*write)(gint fd, const void *buf, gsize count, gpointer user_data);
	gint (*fsync)(gint fd, gpointer user_data);
	gint (*close)(gint fd, gpointer user_data);
	gint (*rename)(const gchar *from, const gchar *to, gpointer user_data);
	gint (*unlink)(const gchar *path, gpointer user_data);
	gpointer user_data;
} SdtConfigWriterIo;

/*
 * Inside the writer (sdt-config-writer.c) only: the default table, the
 * temporary file and the descriptor of the one read (sdt-config-writer-io.c).
 */

/* the libc calls themselves */
const SdtConfigWriterIo *sdt_config_writer_io_get_default(void);
/*
 * The temporary file @tmp with @bytes, the mode and owner of @st, flushed
 * and closed, through @io; 0, or the errno of the failure (@tmp removed).
 */
gint sdt_config_writer_io_write_tmp(const SdtConfigWriterIo *io,
				    const gchar *tmp,
				    const GStatBuf *st,
				    GBytes *bytes);
/*
 * The sha256 of the file behind @fd (the descriptor config.txt was read
 * from), read again through @fd, when @path is still that file (a regular
 * file, same device and inode): an edit in place shows through it.  NULL
 * when @path was replaced or cannot be examined: the path itself must be
 * read again.  A file grown past @max_len has the hash "" (not the same).
 */
gchar *sdt_config_writer_io_hash_held(gint fd, const gchar *path, gsize max_len);

G_END_DECLS
