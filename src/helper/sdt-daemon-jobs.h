/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include "sdt-benchmark-job.h"

G_BEGIN_DECLS

/* StartSoak: sdt_ops_bench_soak() of @size bytes for @seconds, in @bench_dir (the
 * helper's --bench-dir, tests) or on the card */
SdtBenchmarkJob *sdt_daemon_jobs_soak(SdtContext *ctx,
				      const gchar *bench_dir,
				      const gchar *sender,
				      guint64 size,
				      gdouble seconds);

/* StartVerify: sdt_ops_verify(), its stages as the job's Phase "log", "benchmark"
 * and "soak"; @soak_seconds -1 for the default */
SdtBenchmarkJob *sdt_daemon_jobs_verify(SdtContext *ctx, const gchar *sender, gdouble soak_seconds);

/* a folder the caller named (StartCheck's "dir"), as sdt_caller_dir_check() found it
 * at the call; the job checks it again when it starts */
typedef struct {
	uid_t uid;
	dev_t dev;
	ino_t ino;
} SdtDaemonJobsCheckDir;

/* StartCheck with "dir": sdt_ops_check_owned() on @dir for the caller @checked->uid */
SdtBenchmarkJob *sdt_daemon_jobs_check_dir(SdtContext *ctx,
					   const gchar *mode,
					   const gchar *dir,
					   const gchar *sender,
					   const SdtDaemonJobsCheckDir *checked);

/* StartCheck with "device": sdt_ops_check_device() on a card the device list offers;
 * @confirm: "destroy_data_on", the full mode's confirmation, or NULL */
SdtBenchmarkJob *sdt_daemon_jobs_check_device(SdtContext *ctx,
					      const gchar *mode,
					      const gchar *device,
					      const gchar *confirm,
					      const gchar *sender);

/* StartBenchmark: sdt_ops_bench() in @bench_dir (NULL: on the card), or with @device
 * sdt_ops_bench_device() on a card the device list offers, its write tests confirmed by
 * @confirm ("destroy_data_on") or NULL */
SdtBenchmarkJob *sdt_daemon_jobs_bench(SdtContext *ctx,
				       const gchar *profile,
				       const gchar *bench_dir,
				       const gchar *device,
				       const gchar *confirm,
				       const gchar *sender);

G_END_DECLS
