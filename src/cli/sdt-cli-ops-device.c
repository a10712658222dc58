/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * `sdtunerctl check --device DEV --full --destroy-data-on DEV` (issue 34): the full check
 * of a whole card with its confirmation, in-process with --root or the helper's
 * StartCheck with "device" and "confirm_device".
 */

#include "config.h"

#include <string.h>

#include "sdt-cli-ops-private.h"
#include "sdt-l10n.h"
#include "sdt-ops.h"

JsonNode *
sdt_cli_ops_device_check(SdtCli *cli,
			 const gchar *mode,
			 const gchar *device,
			 const gchar *confirm,
			 SdtBenchProgressFunc progress,
			 gpointer user_data,
			 GCancellable *cancellable,
			 GError **error)
{
	g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT(G_VARIANT_TYPE_VARDICT);
	g_autofree gchar *absolute = NULL;
	g_autofree gchar *confirm_absolute = NULL;
	JsonNode *node;

	if (confirm == NULL)
		return sdt_cli_ops_job(cli,
				       SDT_CLI_JOB_CHECK_DEVICE,
				       mode,
				       device,
				       progress,
				       user_data,
				       cancellable,
				       error);
	if (cli->ctx != NULL) {
		SdtCliUserProgress user = {progress, user_data};
		gpointer before = sdt_l10n_english_begin();

		/* in-process (--root: root, the tests' loop devices) a fixed disk too */
		node = sdt_ops_check_device(cli->ctx,
					    mode,
					    device,
					    confirm,
					    TRUE,
					    sdt_cli_ops_user_progress_cb,
					    &user,
					    cancellable,
					    error);
		sdt_l10n_english_end(before);
		return sdt_cli_ops_local(node, error);
	}
	/* both named absolutely, links kept: the helper resolves them; a kernel name
	 * ("sdb") is its node */
	absolute = strchr(device, '/') != NULL ? g_canonicalize_filename(device, NULL)
					       : g_strconcat("/dev/", device, NULL);
	confirm_absolute = strchr(confirm, '/') != NULL ? g_canonicalize_filename(confirm, NULL)
							: g_strconcat("/dev/", confirm, NULL);
	g_variant_builder_add(&builder, "{sv}", "device", g_variant_new_bytestring(absolute));
	g_variant_builder_add(&builder,
			      "{sv}",
			      "confirm_device",
			      g_variant_new_bytestring(confirm_absolute));
	node = sdt_cli_ops_run_job(cli,
				   "StartCheck",
				   mode,
				   g_variant_builder_end(&builder),
				   progress,
				   user_data,
				   cancellable,
				   error);
	if (node == NULL)
		sdt_cli_ops_privileged_hint(cli, error);
	return node;
}
