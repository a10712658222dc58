/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sdt-bench-io-types.h"
#include "sdt-bench-rng.h"

G_BEGIN_DECLS

const gchar *sdt_bench_io_backend_to_string(SdtBenchIoBackend backend);

/* @fd is duplicated; the copy lives as long as IO may be in flight */
SdtBenchIo *
sdt_bench_io_new(SdtBenchIoBackend backend, guint depth, gint fd, gsize block_size, GError **error);
/*
 * Frees at once when nothing is in flight; otherwise (after a cancellation) a
 * short-lived thread reaps the outstanding requests and then frees, so the
 * caller never waits for a slow card to finish a 4 MiB write.
 */
void sdt_bench_io_free(SdtBenchIo *io);
SdtBenchIoBackend sdt_bench_io_get_backend(SdtBenchIo *io);
guint sdt_bench_io_get_in_flight(SdtBenchIo *io);
guint sdt_bench_io_get_in_flight_max(SdtBenchIo *io);

/*
 * Error injection: the completion of IO number @after_ios (counting from 0)
 * reports -@errsv instead of its real result, as a failing card would.
 */
void sdt_bench_io_inject_error(SdtBenchIo *io, guint64 after_ios, gint errsv);

/*
 * Runs @job.  Returns %FALSE with SDT_ERROR_IO (or the errno's code) on a
 * failed or short IO, SDT_ERROR_CANCELLED when @job->cancellable fires, with
 * @stats filled up to that point.  Waiting for a completion blocks until one
 * arrives or the cancellable fires (its fd wakes the wait: no polling); only
 * a cancellable without an fd is looked at every 50 ms.
 */
gboolean
sdt_bench_io_run(SdtBenchIo *io, const SdtBenchIoJob *job, SdtBenchIoStats *stats, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBenchIo, sdt_bench_io_free)

G_END_DECLS
