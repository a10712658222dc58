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
 * Trusting st_size, it is not for kernel files: sdt_file_read_kernel() is.
 *
 * Returns: %TRUE on success.
 */
gboolean sdt_file_read_bounded(const gchar *path,
			       gsize max_len,
			       gchar **contents,
			       gsize *len,
			       GError **error);
/*
 * As sdt_file_read_bounded(); with @fd_out the descriptor the bytes were read
 * from stays open and is returned (the caller closes it), so the same file can
 * be checked again later without opening its path a second time.
 */
gboolean sdt_file_read_bounded_fd(const gchar *path,
				  gsize max_len,
				  gchar **contents,
				  gsize *len,
				  gint *fd_out,
				  GError **error);

/**
 * sdt_file_read_kernel:
 * @root: (nullable): the root prefix (`--root`); %NULL or `/` for none
 * @path: an absolute path as seen on the Pi (`/proc/...`, `/sys/...`)
 * @max_len: refuse more than this many bytes
 * @contents: (out): the bytes, NUL-terminated
 * @len: (out) (optional): their length
 * @error: a #GError
 *
 * Reads a kernel file (procfs, sysfs, debugfs, or its copy in a `--root`)
 * the way the kernel serves it: procfs and debugfs report `st_size` 0 and sysfs
 * 4096 whatever they hold, so the size is ignored and the file read until
 * end-of-file, in as many reads as the kernel needs.  It never blocks and never
 * holds more than @max_len + 1 bytes: the file is opened with
 * sdt_file_open_in_root() and `O_NONBLOCK`, and refused unless fstat() says it
 * is a regular file (no FIFO, socket, device node or directory); more than
 * @max_len bytes is an error, not a truncation.
 *
 * Returns: %TRUE on success.
 */
gboolean sdt_file_read_kernel(const gchar *root,
			      const gchar *path,
			      gsize max_len,
			      gchar **contents,
			      gsize *len,
			      GError **error);

/**
 * sdt_file_pread_all:
 * @fd: a file descriptor
 * @buf: where the bytes go
 * @len: how many bytes
 * @offset: where they are in the file
 * @done: (out) (optional): how many bytes were read, also on failure
 *
 * pread() until @len bytes are read, retrying after EINTR and short reads.
 *
 * Returns: 0, or the errno of the failed read (EIO for an unexpected end).
 */
gint sdt_file_pread_all(gint fd, void *buf, gsize len, guint64 offset, gsize *done);

/**
 * sdt_file_pwrite_all:
 * @fd: a file descriptor
 * @buf: the bytes
 * @len: how many bytes
 * @offset: where they go in the file
 * @done: (out) (optional): how many bytes were written, also on failure
 *
 * pwrite() until @len bytes are written, retrying after EINTR and short writes.
 *
 * Returns: 0, or the errno of the failed write (EIO when nothing could be written).
 */
gint sdt_file_pwrite_all(gint fd, const void *buf, gsize len, guint64 offset, gsize *done);

/**
 * sdt_file_kill_point:
 *
 * For the kill tests (issue 23 item 4): with `SDTUNER_TEST_KILL_AT=N` in the
 * environment the process kills itself with SIGKILL at the N-th call, i.e.
 * right after the N-th durable change SD Tuner makes to its files (each rename
 * and removal of the config writer, each save and removal of the pending
 * record, each history entry).  Without the variable it does nothing; the
 * units and the packages never set it.
 */
void sdt_file_kill_point(void);

G_END_DECLS
