/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * sdt_state_lock:
 * @dir: the state folder
 * @name: the file in it that is about to be written or removed, e.g. "pending.json"
 * @error: a #GError
 *
 * Locks @dir (flock, waiting for another holder) and removes the temporary
 * files g_file_set_contents() leaves for @name ("NAME.XXXXXX") when a writer
 * is killed between its temporary file and the rename.  Every writer of @name
 * holds this lock while it writes or removes it, so none of the files removed
 * is another writer's live one.
 *
 * Returns: the lock's file descriptor (close() releases it), or -1 with @error set.
 */
gint sdt_state_lock(const gchar *dir, const gchar *name, GError **error);

/*
 * The one mode of every folder SD Tuner keeps its state in (the state dir,
 * its backups/, history/ and check/, /run/sd-tuner), whoever creates it: the
 * helper (UMask=0077), `sdtunerctl --root /` under a shell's umask or the
 * verify unit.  Root's alone: the backups, the journals and the history are
 * read by others through the helper only (docs/ARCHITECTURE.md, "State folders").
 */
#define SDT_STATE_DIR_MODE 0700

/**
 * sdt_state_lock_make_dir:
 * @dir: a state folder
 * @error: a #GError
 *
 * Creates @dir and its missing parents with %SDT_STATE_DIR_MODE whatever the
 * umask (on a system only the state folders themselves are missing), and
 * gives an existing @dir of this user that mode too (one an older SD Tuner
 * created 0755).  A folder sdt_state_lock_check_dir() refuses is refused
 * before anything is created or changed.
 *
 * Returns: FALSE with @error when @dir cannot be created or is refused.
 */
gboolean sdt_state_lock_make_dir(const gchar *dir, GError **error);

/**
 * sdt_state_lock_check_dir:
 * @dir: a state folder (it may be missing)
 * @error: a #GError
 *
 * Whether SD Tuner may keep its state in @dir (issue 33): @dir (never a
 * symbolic link) and each folder above it that exists must belong to root or
 * to the user running SD Tuner (a --root tree of a test), and no other user
 * may write it; above SD Tuner's own folders ("sd-tuner" and below) a sticky
 * folder such as /tmp is fine too.  Nothing is changed.
 *
 * Returns: FALSE with @error (SDT_ERROR_INVALID_DATA, naming the folder and
 * what to do) when it may not.
 */
gboolean sdt_state_lock_check_dir(const gchar *dir, GError **error);

G_END_DECLS
