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

G_END_DECLS
