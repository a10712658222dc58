/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-context.h"
#include "sdt-dbus-generated.h"
#include "sdt-ops.h"

G_BEGIN_DECLS

/*
 * One benchmark, exported as org.example.SdTuner1.Job at
 * /org/example/SdTuner1/jobs/N.  The engine (sdt_ops_bench) runs in a GTask
 * worker thread; its progress callbacks are coalesced there and handed to the
 * thread-default main context of the job's creator at most every 100 ms (and
 * at every phase change), where the State/Phase/Progress/Rate properties
 * change.  Completed is emitted once, from that main context, then the
 * "finished" GObject signal.
 *
 * Cancel is accepted only from the unique bus name that started the job
 * (others get NotAuthorized), and the job cancels itself when that name
 * leaves the bus.
 */
#define SDT_TYPE_BENCHMARK_JOB (sdt_benchmark_job_get_type())
G_DECLARE_FINAL_TYPE(SdtBenchmarkJob, sdt_benchmark_job, SDT, BENCHMARK_JOB, SdtJobSkeleton)

/* @func: the engine, sdt_ops_bench or sdt_ops_check, or a stand-in in the unit tests */
SdtBenchmarkJob *sdt_benchmark_job_new(SdtContext *ctx,
				       const gchar *profile,
				       const gchar *bench_dir,
				       const gchar *starter,
				       SdtOpsJobFunc func);
/*
 * A job that is not sdt_ops_bench() or sdt_ops_check() (issue 32: the soak test,
 * verify): @run gets @data and the rest as an SdtOpsJobFunc (its result, as theirs, its
 * document's text from the codec, which the job carries as it is); @why is the reason
 * the job gives logind for holding off a shutdown (English, static).
 */
typedef gchar *(*SdtBenchmarkJobRunFunc)(SdtContext *ctx,
					 const gchar *profile,
					 const gchar *dir,
					 gpointer data,
					 SdtBenchProgressFunc progress,
					 gpointer user_data,
					 GCancellable *cancellable,
					 GError **error);
SdtBenchmarkJob *sdt_benchmark_job_new_full(SdtContext *ctx,
					    const gchar *profile,
					    const gchar *dir,
					    const gchar *starter,
					    SdtBenchmarkJobRunFunc run,
					    gpointer data,
					    GDestroyNotify destroy,
					    const gchar *why);
const gchar *sdt_benchmark_job_get_starter(SdtBenchmarkJob *self);
/* starts watching @connection for the starter leaving, and the worker */
void sdt_benchmark_job_start(SdtBenchmarkJob *self, GDBusConnection *connection);
void sdt_benchmark_job_cancel(SdtBenchmarkJob *self);
gboolean sdt_benchmark_job_is_finished(SdtBenchmarkJob *self);

G_END_DECLS
