/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-context.h"

G_BEGIN_DECLS

/* one line of /proc/self/mountinfo (proc(5)); paths with their \NNN escapes decoded */
typedef struct {
	guint id;
	guint parent_id;
	guint major;
	guint minor;
	gchar *root; /* the mounted directory inside the file system */
	gchar *mount_point;
	gchar *options;        /* per-mount options, e.g. "rw,noatime" */
	gchar *fs_type;        /* "ext4", "vfat", ... */
	gchar *source;         /* "/dev/mmcblk0p2" */
	gchar *super_options;  /* per-superblock options */
	gboolean read_only;    /* "ro" in either option list: nothing can be written here */
	gboolean fs_read_only; /* "ro" per superblock: the file system itself is read-only */
} SdtMount;

void sdt_mounts_entry_free(SdtMount *mount);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtMount, sdt_mounts_entry_free)

/*
 * Parses mountinfo text; malformed lines are skipped and counted in @n_bad.
 * Returns an array of SdtMount in file order (later lines mount over earlier
 * ones).
 */
GPtrArray *sdt_mounts_parse(const gchar *text, guint *n_bad);

/* reads and parses <root>/proc/self/mountinfo */
GPtrArray *sdt_mounts_load(SdtContext *ctx, GError **error);

/* the mount visible at exactly @mount_point (the last one listed), or NULL */
SdtMount *sdt_mounts_find_mount_point(GPtrArray *mounts, const gchar *mount_point);
/* @mount is its file system mounted as the system mounts it: not covered, not a bind
 * mount of a folder of a file system also mounted whole (a sandbox's) */
gboolean sdt_mounts_is_own_mount(GPtrArray *mounts, SdtMount *mount);
/* the mount that holds @path: the longest mount point that is a prefix of it */
SdtMount *sdt_mounts_find_for_path(GPtrArray *mounts, const gchar *path);

G_END_DECLS
