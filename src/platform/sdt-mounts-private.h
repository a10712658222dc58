/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-mounts.h"

G_BEGIN_DECLS

/*
 * What src/platform shares of sdt-mounts only among its own files and its tests (the
 * public interface is sdt-mounts.h).  Private to src/platform: tests/check-shape.py
 * fails any other file that includes it.
 */

/* every mount of the block device @major:@minor, in file order (the array does not own them) */
GPtrArray *sdt_mounts_find_device(GPtrArray *mounts, guint major, guint minor);

G_END_DECLS
