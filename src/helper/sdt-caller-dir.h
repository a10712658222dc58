/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>
#include <sys/stat.h>
#include <sys/types.h>

G_BEGIN_DECLS

/*
 * A folder a D-Bus caller with the uid @uid names for the helper (running as
 * root) to write in: `sdtunerctl check --dir DIR` over the bus.  The same rules
 * as in-process (a directory nobody else may write to, not in memory), plus
 * those that keep a caller from using root's rights on someone else's folder:
 *
 *  - no symbolic link anywhere on the way (each component is opened with
 *    O_NOFOLLOW), so no link another user planted can redirect it;
 *  - the folder belongs to @uid and only its owner may write to it, and the
 *    caller could write in it themselves: every folder above lets the caller
 *    through and the last one lets the caller write, by the mode bits or the
 *    POSIX ACL, with the caller's groups from the user database;
 *  - every folder above it belongs to root or to @uid, and one others may
 *    write to is sticky (/var/tmp), so no other user can replace a part;
 *  - its file system is not in memory (tmpfs, ramfs): said first, /tmp being
 *    one on Raspberry Pi OS trixie.
 *
 * On success @st (may be %NULL) is the folder's stat, for the job to compare
 * when it starts.  Errors are SDT_ERROR (InvalidArgument, NotSupported, or
 * from errno such as NotFound), each saying what to do instead.
 */
gboolean sdt_caller_dir_check(const gchar *path, uid_t uid, struct stat *st, GError **error);

G_END_DECLS
