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

G_END_DECLS
