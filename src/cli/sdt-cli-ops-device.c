/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The commands on a whole card (issue 34) as a command sees them: `bench --device` and
 * `check --device DEV --full --destroy-data-on DEV`, in-process with --root, else the
 * helper's StartBenchmark or StartCheck with "device" (and "destroy_data_on").
 */

#include "config.h"

#include <string.h>

#include "sdt-cli-ops-private.h"
#include "sdt-l10n.h"
#include "sdt-ops.h"

/* a device as the helper takes it: absolute, links kept (the helper resolves them); a
 * kernel name ("sdb") is under /dev */
static GVariant *
sdt_cli_ops_device_path(const gchar *name)
{
	g_autofree gchar *path = strchr(name, '/') != NULL ? g_canonicalize_filename(name, NULL)
							   : g_strconcat("/dev/", name, NULL);

	return g_variant_new_bytestring(path);
}

/* the helper's @method on @device with its confirmation @confirm (or NULL) */
static gchar *
sdt_cli_ops_device_job(SdtCli *cli,
		       const gchar *method,
		       const gchar *arg,
		       const gchar *device,
		       const gchar *confirm,
		       SdtBenchProgressFunc progress,
		       gpointer user_data,
		       GCancellable *cancellable,
		       GError **error)
{
	g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT(G_VARIANT_TYPE_VARDICT);
	gchar *text;

	g_variant_builder_add(&builder, "{sv}", "device", sdt_cli_ops_device_path(device));
	if (confirm != NULL)
		g_variant_builder_add(&builder,
				      "{sv}",
				      "destroy_data_on",
				      sdt_cli_ops_device_path(confirm));
	text = sdt_cli_ops_run_job(cli,
				   method,
				   arg,
				   g_variant_builder_end(&builder),
				   progress,
				   user_data,
				   cancellable,
				   error);
	if (text == NULL)
		sdt_cli_ops_privileged_hint(cli, error);
	return text;
}

gchar *
sdt_cli_ops_device_check(SdtCli *cli,
			 const gchar *mode,
			 const gchar *device,
			 const gchar *confirm,
			 SdtBenchProgressFunc progress,
			 gpointer user_data,
			 GCancellable *cancellable,
			 GError **error)
{
	SdtCliUserProgress user = {progress, user_data};
	gpointer before;
	g_autoptr(SdtCheckResult) result = NULL;

	if (confirm == NULL)
		return sdt_cli_ops_job(cli,
				       SDT_CLI_JOB_CHECK_DEVICE,
				       mode,
				       device,
				       progress,
				       user_data,
				       cancellable,
				       error);
	if (cli->ctx == NULL)
		return sdt_cli_ops_device_job(cli,
					      "StartCheck",
					      mode,
					      device,
					      confirm,
					      progress,
					      user_data,
					      cancellable,
					      error);
	before = sdt_l10n_english_begin();
	/* in-process (--root: root, the tests' loop devices) a stand-in too */
	result = sdt_ops_check_device(cli->ctx,
				      mode,
				      device,
				      confirm,
				      TRUE,
				      sdt_cli_ops_user_progress_cb,
				      &user,
				      cancellable,
				      error);
	sdt_l10n_english_end(before);
	return sdt_cli_ops_local(result != NULL ? sdt_check_result_to_string(result, TRUE) : NULL,
				 error);
}

gchar *
sdt_cli_ops_device_bench(SdtCli *cli,
			 const gchar *profile,
			 const gchar *device,
			 const gchar *confirm,
			 SdtBenchProgressFunc progress,
			 gpointer user_data,
			 GCancellable *cancellable,
			 GError **error)
{
	SdtCliUserProgress user = {progress, user_data};
	gpointer before;
	g_autoptr(SdtBenchRecord) record = NULL;

	if (cli->ctx == NULL)
		/* the helper's StartBenchmark on a whole card, the check-device action */
		return sdt_cli_ops_device_job(cli,
					      "StartBenchmark",
					      profile,
					      device,
					      confirm,
					      progress,
					      user_data,
					      cancellable,
					      error);
	before = sdt_l10n_english_begin();
	/* in-process (--root: root, the tests' loop devices) a disk that is not removable too */
	record = sdt_ops_bench_device(cli->ctx,
				      profile,
				      device,
				      confirm,
				      TRUE,
				      sdt_cli_ops_user_progress_cb,
				      &user,
				      cancellable,
				      error);
	sdt_l10n_english_end(before);
	return sdt_cli_ops_local(record != NULL ? sdt_bench_record_to_string(record, TRUE) : NULL,
				 error);
}
