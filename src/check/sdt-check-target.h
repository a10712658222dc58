/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-check-block.h"

G_BEGIN_DECLS

/*
 * Where the check works: the disk under a root-owned directory, opened for
 * raw reads, and later the reserved file in that directory with its extents
 * on the disk (FIEMAP), the only place the check ever writes.
 */

/* refuses a directory others can write to, a read-only or unsupported file
 * system and a disk too small to check; opens the disk O_RDONLY | O_DIRECT */
gboolean sdt_check_target_open(SdtCheck *self, GError **error);

/* a nameless file of most of the free space, and where its blocks lie */
gboolean sdt_check_target_reserve(SdtCheck *self, GError **error);

/* the disk O_RDWR | O_DIRECT: only after the read-only phase */
gboolean sdt_check_target_open_write(SdtCheck *self, GError **error);

/* the device offset of the @rank-th 4 KiB block of the reserved space */
guint64 sdt_check_target_rank_to_offset(SdtCheck *self, guint64 rank);
/* the rank of the first reserved block at or above @offset */
guint64 sdt_check_target_offset_to_rank(SdtCheck *self, guint64 offset);

G_END_DECLS
