/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sdt-bench-io-types.h"
#include "sdt-bench-rng.h"

G_BEGIN_DECLS

/*
 * Frees at once when nothing is in flight; otherwise (after a cancellation) a
 * short-lived thread reaps the outstanding requests and then frees, so the
 * caller never waits for a slow card to finish a 4 MiB write.
 */
void sdt_bench_io_free(SdtBenchIo *io);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBenchIo, sdt_bench_io_free)

G_END_DECLS
