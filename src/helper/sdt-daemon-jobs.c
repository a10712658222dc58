/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The helper's jobs of issue 32 (no passwordless sudo): the soak test (StartSoak),
 * verify (StartVerify) and the check of a folder of the caller's (StartCheck with
 * "dir"), each an SdtBenchmarkJob around its engine.
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-caller-dir.h"
#include "sdt-daemon-jobs.h"
#include "sdt-error.h"

typedef struct {
	guint64 size;
	gdouble seconds;
} SdtDaemonSoak;

static gchar *
sdt_daemon_soak_run(SdtContext *ctx,
		    const gchar *profile,
		    const gchar *dir,
		    gpointer data,
		    SdtBenchProgressFunc progress,
		    gpointer user_data,
		    GCancellable *cancellable,
		    GError **error)
{
	SdtDaemonSoak *soak = data;
	g_autoptr(SdtSoakReport) report = sdt_ops_bench_soak(ctx,
							     dir,
							     soak->size,
							     soak->seconds,
							     progress,
							     user_data,
							     cancellable,
							     error);

	return report != NULL ? sdt_soak_report_to_string(report, FALSE) : NULL;
}

/* verify's stages as the job's Phase (docs/DESIGN.md), each with its own fraction */
typedef struct {
	SdtBenchProgressFunc progress;
	gpointer user_data;
} SdtDaemonVerifyProgress;

static void
sdt_daemon_verify_progress_cb(SdtOpsVerifyStage stage, gdouble fraction, gpointer user_data)
{
	SdtDaemonVerifyProgress *p = user_data;
	static const gchar *const phases[] = {
		[SDT_OPS_VERIFY_STAGE_LOG] = "log",
		[SDT_OPS_VERIFY_STAGE_BENCHMARK] = "benchmark",
		[SDT_OPS_VERIFY_STAGE_SOAK] = "soak",
	};

	if ((guint) stage < G_N_ELEMENTS(phases))
		p->progress(phases[stage], fraction, 0.0, p->user_data);
}

static gchar *
sdt_daemon_verify_run(SdtContext *ctx,
		      const gchar *profile,
		      const gchar *dir,
		      gpointer data,
		      SdtBenchProgressFunc progress,
		      gpointer user_data,
		      GCancellable *cancellable,
		      GError **error)
{
	SdtOpsVerifyOptions options = {0};
	SdtDaemonVerifyProgress p = {progress, user_data};

	/* on the card, never the helper's --bench-dir: verify is about the card */
	options.soak_seconds = *(gdouble *) data;
	options.progress = sdt_daemon_verify_progress_cb;
	options.progress_data = &p;
	return sdt_ops_verify(ctx, &options, cancellable, error);
}

static gchar *
sdt_daemon_check_dir_run(SdtContext *ctx,
			 const gchar *mode,
			 const gchar *dir,
			 gpointer data,
			 SdtBenchProgressFunc progress,
			 gpointer user_data,
			 GCancellable *cancellable,
			 GError **error)
{
	SdtDaemonJobsCheckDir *checked = data;
	g_autoptr(SdtCheckResult) result = NULL;
	struct stat st;

	/* the same folder as at the call, still the caller's */
	if (!sdt_caller_dir_check(dir, checked->uid, &st, error))
		return NULL;
	if (st.st_dev != checked->dev || st.st_ino != checked->ino) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s was replaced by another folder after it was checked; name it "
			      "again"),
			    dir);
		return NULL;
	}
	result = sdt_ops_check_owned(ctx,
				     mode,
				     dir,
				     (gint64) checked->uid,
				     progress,
				     user_data,
				     cancellable,
				     error);
	return result != NULL ? sdt_check_result_to_string(result, FALSE) : NULL;
}

SdtBenchmarkJob *
sdt_daemon_jobs_soak(SdtContext *ctx,
		     const gchar *bench_dir,
		     const gchar *sender,
		     guint64 size,
		     gdouble seconds)
{
	SdtDaemonSoak *soak = g_new0(SdtDaemonSoak, 1);

	soak->size = size;
	soak->seconds = seconds;
	return sdt_benchmark_job_new_full(
		ctx,
		"soak",
		bench_dir,
		sender,
		sdt_daemon_soak_run,
		soak,
		g_free,
		"soak-testing the SD card: a shutdown now would cut the test");
}

SdtBenchmarkJob *
sdt_daemon_jobs_verify(SdtContext *ctx, const gchar *sender, gdouble soak_seconds)
{
	return sdt_benchmark_job_new_full(
		ctx,
		"verify",
		NULL,
		sender,
		sdt_daemon_verify_run,
		g_memdup2(&soak_seconds, sizeof(soak_seconds)),
		g_free,
		"verifying SD Tuner's change: a shutdown now would cut the benchmark "
		"or the soak test it runs");
}

SdtBenchmarkJob *
sdt_daemon_jobs_check_dir(SdtContext *ctx,
			  const gchar *mode,
			  const gchar *dir,
			  const gchar *sender,
			  const SdtDaemonJobsCheckDir *checked)
{
	g_return_val_if_fail(checked != NULL, NULL);
	return sdt_benchmark_job_new_full(ctx,
					  mode,
					  dir,
					  sender,
					  sdt_daemon_check_dir_run,
					  g_memdup2(checked, sizeof(*checked)),
					  g_free,
					  "checking a file system: a shutdown in the middle of its "
					  "writes could damage the data on it");
}

static gchar *
sdt_daemon_check_device_run(SdtContext *ctx,
			    const gchar *mode,
			    const gchar *device,
			    gpointer data,
			    SdtBenchProgressFunc progress,
			    gpointer user_data,
			    GCancellable *cancellable,
			    GError **error)
{
	/* only a card `sdtunerctl devices` offers: never a fixed disk through the helper, but
	 * on a simulated board (a root prefix) a loop device standing in for a card, as the
	 * device list offers it there (docs/DESIGN.md "Stand-ins"); @data: the full mode's
	 * confirmation, or NULL */
	g_autoptr(SdtCheckResult) result = sdt_ops_check_device(ctx,
								mode,
								device,
								data,
								sdt_context_is_simulated(ctx),
								progress,
								user_data,
								cancellable,
								error);

	return result != NULL ? sdt_check_result_to_string(result, FALSE) : NULL;
}

SdtBenchmarkJob *
sdt_daemon_jobs_check_device(SdtContext *ctx,
			     const gchar *mode,
			     const gchar *device,
			     const gchar *confirm,
			     const gchar *sender)
{
	return sdt_benchmark_job_new_full(ctx,
					  mode,
					  device,
					  sender,
					  sdt_daemon_check_device_run,
					  g_strdup(confirm),
					  g_free,
					  "checking a card in place: a shutdown in the middle of "
					  "its writes leaves them for the next start to put back");
}

static gchar *
sdt_daemon_bench_device_run(SdtContext *ctx,
			    const gchar *profile,
			    const gchar *device,
			    gpointer data,
			    SdtBenchProgressFunc progress,
			    gpointer user_data,
			    GCancellable *cancellable,
			    GError **error)
{
	/* only a card `sdtunerctl devices` offers: never a fixed disk through the helper */
	g_autoptr(SdtBenchRecord) record = sdt_ops_bench_device(ctx,
								profile,
								device,
								data,
								FALSE,
								progress,
								user_data,
								cancellable,
								error);

	return record != NULL ? sdt_bench_record_to_string(record, FALSE) : NULL;
}

static SdtBenchmarkJob *
sdt_daemon_jobs_bench_device(SdtContext *ctx,
			     const gchar *profile,
			     const gchar *device,
			     const gchar *confirm,
			     const gchar *sender)
{
	return sdt_benchmark_job_new_full(
		ctx,
		profile,
		device,
		sender,
		sdt_daemon_bench_device_run,
		g_strdup(confirm),
		g_free,
		"benchmarking a card in a reader: a shutdown in the middle "
		"of its writes would leave the card half written");
}

SdtBenchmarkJob *
sdt_daemon_jobs_bench(SdtContext *ctx,
		      const gchar *profile,
		      const gchar *bench_dir,
		      const gchar *device,
		      const gchar *confirm,
		      const gchar *sender)
{
	if (device != NULL)
		return sdt_daemon_jobs_bench_device(ctx, profile, device, confirm, sender);
	return sdt_benchmark_job_new(ctx, profile, bench_dir, sender, sdt_ops_bench);
}
