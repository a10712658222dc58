/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The benchmark's random numbers: the offsets of the random tests and the
 * data of every write.  xoshiro256+ seeded through splitmix64: fast, fresh
 * incompressible data.
 */
typedef struct {
	guint64 s[4];
} SdtBenchRng;

G_END_DECLS
