/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-writer-io.h"

G_BEGIN_DECLS

/*
 * Inside the writer (sdt-config-writer.c) only: the default table, the
 * temporary file and the descriptor of the one read (sdt-config-writer-io.c).
 * Private to src/config/writer: tests/check-shape.py fails any other file that
 * includes it.  The public part is the table, sdt-config-writer-io.h.
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
