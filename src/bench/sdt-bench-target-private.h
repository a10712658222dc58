/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-bench-target.h"

G_BEGIN_DECLS

/*
 * What src/bench shares of sdt-bench-target only among its own files and its tests
 * (the public interface is sdt-bench-target.h).  Private to src/bench:
 * tests/check-shape.py fails any other file that includes it.
 */

/* opens @self->disk_node with SDT_BENCH_RAW_OPEN_FLAGS; returns the fd or -1 */
gint sdt_bench_target_open_raw(SdtBenchTarget *self, GError **error);

/*
 * The magic of a statfs() result. f_type is a signed word, an int on 32-bit
 * targets: magics at or above 0x80000000 (ramfs, btrfs, f2fs) are negative
 * there and must not be sign-extended to 64 bits.
 */
guint32 sdt_bench_target_fs_magic(const struct statfs *sfs);
/* the file system's name, else its magic in hex: "0xcafe4a11" */
gchar *sdt_bench_target_fs_describe(const struct statfs *sfs);

G_END_DECLS
