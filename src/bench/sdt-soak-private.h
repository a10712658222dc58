/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-soak.h"

G_BEGIN_DECLS

/*
 * What src/bench shares of sdt-soak only among its own files and its tests (the public
 * interface is sdt-soak.h).  Private to src/bench: tests/check-shape.py fails any
 * other file that includes it.
 */

/* the byte at @offset of round @round's data for @seed (what a mismatch is compared to) */
guint8 sdt_soak_expected_byte(guint64 seed, guint round, guint64 offset);
/* fills @buf with round @round's data for [@offset, @offset + @len); @offset, @len multiples of 8
 */
void sdt_soak_fill(guint8 *buf, gsize len, guint64 seed, guint round, guint64 offset);

G_END_DECLS
