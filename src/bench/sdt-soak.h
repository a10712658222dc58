/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sdt-bench.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * The soak test, a module of the benchmark engine (`bench --profile soak`):
 * does the card store data correctly?  Each round writes seeded
 * pseudo-random data (reproducible from the seed and the offset alone) into
 * the test file, the first half at queue depth 32 in a shuffled block order
 * and the second half sequentially, and reads all of it back with O_DIRECT,
 * comparing every byte.  The file goes in chunks (an eighth of it, 1 to
 * 16 MiB) through a pipeline: while one chunk is written, fdatasync()ed and
 * dropped from the page cache (posix_fadvise DONTNEED; the file is O_DIRECT
 * anyway), the chunk before it is read back and checked in another thread,
 * so the card reads and writes at once.  Rounds repeat with new seeds until
 * the time is up; there is at least one.
 */

#define SDT_SOAK_DEFAULT_SIZE    (G_GUINT64_CONSTANT(256) * 1024 * 1024)
#define SDT_SOAK_DEFAULT_SECONDS 120.0
#define SDT_SOAK_MIN_SIZE        (G_GUINT64_CONSTANT(8) * 1024 * 1024)
#define SDT_SOAK_MAX_SIZE        (G_GUINT64_CONSTANT(4096) * 1024 * 1024)
#define SDT_SOAK_SEQ_BLOCK       (1024 * 1024)
#define SDT_SOAK_QD_BLOCK        (64 * 1024)
#define SDT_SOAK_QUEUE_DEPTH     32

typedef struct {
	guint64 size;    /* bytes of the test file, a multiple of SDT_SOAK_SEQ_BLOCK */
	gdouble seconds; /* keep starting rounds until this much time has passed */
	guint64 seed;
} SdtSoakConfig;

typedef struct {
	guint64 bytes_written;
	guint64 bytes_checked;
	guint64 mismatches;      /* bytes that read back wrong */
	gint64 first_bad_offset; /* offset in the test file of the first, -1 when clean */
	guint first_bad_round;
	guint rounds;
	gdouble seconds;
	gdouble write_seconds;
	gdouble read_seconds;
} SdtSoakResult;

/*
 * The soak test's own limits (the CLI's and the helper's arguments alike): @size a whole
 * number of MiB from SDT_SOAK_MIN_SIZE to SDT_SOAK_MAX_SIZE, @seconds from 0 to a day.
 * SDT_ERROR_INVALID_ARGUMENT otherwise.
 */
gboolean sdt_soak_check_args(guint64 size, gdouble seconds, GError **error);

/*
 * Runs the soak test on @fd (a file opened O_RDWR | O_DIRECT, at least
 * @config->size bytes).  Mismatches are a result, not an error; errors are
 * I/O failures (SDT_ERROR_IO, naming the offset) and cancellation.
 */
gboolean sdt_soak_run(gint fd,
		      const SdtSoakConfig *config,
		      SdtSoakResult *result,
		      SdtBenchProgressFunc progress,
		      gpointer user_data,
		      GCancellable *cancellable,
		      GError **error);

G_END_DECLS
