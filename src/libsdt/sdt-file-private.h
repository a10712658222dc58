/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-file.h"

G_BEGIN_DECLS

/*
 * What src/libsdt shares of sdt-file only among its own files and its tests (the
 * public interface is sdt-file.h).  Private to src/libsdt: tests/check-shape.py fails
 * any other file that includes it.
 */

/**
 * sdt_file_open_in_root:
 * @root: (nullable): the root prefix (`--root`); %NULL or `/` for none
 * @path: an absolute path as seen on the Pi, e.g. `/proc/uptime`
 * @flags: open() flags; `O_NOFOLLOW | O_CLOEXEC | O_NOCTTY` are added
 * @error: a #GError
 *
 * Opens @path under @root without leaving it: with a root, every symbolic link
 * on the way is resolved inside it (openat2() `RESOLVE_IN_ROOT`, as the Pi would
 * see an absolute link of its copied image; a kernel before 5.6: the link's
 * target must lie under @root), and a link in the last component is refused.
 *
 * Returns: a file descriptor, or -1 with @error set (`SDT_ERROR_NOT_FOUND` for a
 * missing file, `SDT_ERROR_INVALID_DATA` for a link).
 */
gint sdt_file_open_in_root(const gchar *root, const gchar *path, gint flags, GError **error);

G_END_DECLS
