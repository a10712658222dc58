/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * sdt_file_read_bounded:
 * @path: the file to read
 * @max_len: refuse files larger than this many bytes
 * @contents: (out): the bytes, NUL-terminated
 * @len: (out) (optional): their length
 * @error: a #GError
 *
 * Reads a small regular file the helper does not own (config.txt, an include,
 * tryboot.txt, the journal, a history entry) without ever blocking or following
 * a planted link: the file is opened with `O_NONBLOCK | O_NOFOLLOW`, checked
 * with fstat(), and refused unless it is a regular file of at most @max_len
 * bytes.  A FIFO, socket, device or directory gets `SDT_ERROR_INVALID_DATA`; a
 * symlink in the last component gets `SDT_ERROR_INVALID_DATA` too; a missing
 * file gets `SDT_ERROR_NOT_FOUND`.  A file that grows while it is read is
 * refused as well, so no caller ever holds more than @max_len + 1 bytes.
 *
 * Returns: %TRUE on success.
 */
gboolean sdt_file_read_bounded(const gchar *path,
			       gsize max_len,
			       gchar **contents,
			       gsize *len,
			       GError **error);

G_END_DECLS
