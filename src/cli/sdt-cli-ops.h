/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-ops.h"
#include "sdt-cli.h"
#include "sdt-dbus-generated.h"

G_BEGIN_DECLS

/*
 * The operations as a command sees them.  Each returns the same JSON
 * document as the sdt_ops_* function of the same name: computed in-process
 * when sdtunerctl runs with --root (cli->ctx set), otherwise received from
 * sd-tuner-helper over the system bus, where Apply, Revert and bench are
 * checked by polkit.  In bus mode, when stdin is a terminal, sdtunerctl runs
 * a text authentication agent for its own process, as udisksctl does, so the
 * administrator's password can be typed in the terminal.
 *
 * Commands call these and print the result the same way in both modes.
 */
gchar *sdt_cli_ops_apply(SdtCli *cli, const gchar *id, gboolean trial, GError **error);
gchar *sdt_cli_ops_revert(SdtCli *cli, GError **error);

/* the helper's jobs, also run in-process with --root */
typedef enum {
	SDT_CLI_JOB_BENCH,        /* `bench`: sdt_ops_bench(), the helper's StartBenchmark; @arg the
				     profile */
	SDT_CLI_JOB_CHECK,        /* `check`: sdt_ops_check(), StartCheck (its own polkit action);
				   * @arg "quick" or "full" */
	SDT_CLI_JOB_CHECK_DEVICE, /* `check --device`: sdt_ops_check_device() (in-process
				   * also a fixed disk), StartCheck with "device" */
} SdtCliJob;

/*
 * Synchronous in both modes, like sdt_ops_bench(): call it from a worker
 * thread.  @progress is called from the calling thread (in bus mode from a
 * private main context this function iterates until the job's Completed
 * signal).  Cancelling @cancellable from any thread, e.g. a SIGINT handler
 * in the main thread, stops the job (bus mode: Job.Cancel) and the call
 * fails with SDT_ERROR_CANCELLED.  @dir is accepted in --root mode (e.g.
 * `--root / check --dir MNT` as root) and, for the check only, over the bus
 * (StartCheck's "dir" option: the helper checks the caller's own folder);
 * with SDT_CLI_JOB_CHECK_DEVICE it is the card's device (StartCheck's "device").
 * Returns the document's text as `--json` prints it (indented, valid UTF-8), in
 * both modes; so do the jobs below.
 */
gchar *sdt_cli_ops_job(SdtCli *cli,
		       SdtCliJob job,
		       const gchar *arg,
		       const gchar *dir,
		       SdtBenchProgressFunc progress,
		       gpointer user_data,
		       GCancellable *cancellable,
		       GError **error);

/* `check --device DEV [--full --destroy-data-on CONFIRM]`: sdt_ops_check_device()
 * in-process with --root, else StartCheck with "device" and "destroy_data_on"; without
 * @confirm as sdt_cli_ops_job() with SDT_CLI_JOB_CHECK_DEVICE */
gchar *sdt_cli_ops_device_check(SdtCli *cli,
				const gchar *mode,
				const gchar *device,
				const gchar *confirm,
				SdtBenchProgressFunc progress,
				gpointer user_data,
				GCancellable *cancellable,
				GError **error);

/* `bench --device` as sdt_ops_bench_device(): in-process with --root (a fixed disk too),
 * else the helper's StartBenchmark with the options "device" and "destroy_data_on" */
gchar *sdt_cli_ops_device_bench(SdtCli *cli,
				const gchar *profile,
				const gchar *device,
				const gchar *confirm,
				SdtBenchProgressFunc progress,
				gpointer user_data,
				GCancellable *cancellable,
				GError **error);

/* the soak test as sdt_ops_bench_soak(): in-process with --root, else the
 * helper's StartSoak job (@dir only with --root) */
gchar *sdt_cli_ops_soak(SdtCli *cli,
			const gchar *dir,
			guint64 size,
			gdouble seconds,
			SdtBenchProgressFunc progress,
			gpointer user_data,
			GCancellable *cancellable,
			GError **error);

/*
 * `verify` over the bus: the helper's StartVerify job, @soak_seconds -1 for
 * the default; @progress gets the job's Phase back as a stage.  As
 * sdt_cli_ops_job(): synchronous, cancelled through @cancellable.  In-process
 * (--root) verify calls sdt_ops_verify() itself.
 */
gchar *sdt_cli_ops_verify(SdtCli *cli,
			  gdouble soak_seconds,
			  SdtOpsVerifyProgressFunc progress,
			  gpointer user_data,
			  GCancellable *cancellable,
			  GError **error);

/*
 * An operation that only reads (info, recommend, status, history, health):
 * @local in-process with --root, else the helper's method, @call being its
 * generated sdt_manager_call_*_sync; when no helper is installed, @local
 * reads this machine in-process instead and a line on stderr says so.
 */
typedef gboolean (*SdtCliCallFunc)(SdtManager *proxy,
				   GVariant *arg_options,
				   gchar **out,
				   GCancellable *cancellable,
				   GError **error);
/* its answer is the document's text (src/wire), returned as received: the command
 * reads it with the document's codec */
typedef gchar *(*SdtCliTextFunc)(SdtContext *ctx, GError **error);
gchar *
sdt_cli_ops_read_text(SdtCli *cli, SdtCliTextFunc local, SdtCliCallFunc call, GError **error);

/* frees what bus mode set up (proxy, authentication agent) */
void sdt_cli_ops_shutdown(SdtCli *cli);

G_END_DECLS
