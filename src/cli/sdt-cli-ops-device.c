/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * `bench --device` (issue 34) as a command sees it: in-process with --root, else the
 * helper's StartBenchmark with "device" (and "destroy_data_on").
 */

#include "config.h"

#include <string.h>

#include "sdt-cli-ops-private.h"
#include "sdt-l10n.h"

/* a device as the helper takes it: absolute; a kernel name ("sdb") is under /dev */
static GVariant *
sdt_cli_ops_device_path(const gchar *name)
{
	g_autofree gchar *path = strchr(name, '/') != NULL ? g_canonicalize_filename(name, NULL)
							   : g_strconcat("/dev/", name, NULL);

	return g_variant_new_bytestring(path);
}

JsonNode *
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
	g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT(G_VARIANT_TYPE_VARDICT);
	gpointer before;
	JsonNode *node;

	if (cli->ctx == NULL) {
		/* issue 34: the helper's StartBenchmark on a whole card, the check-device action */
		g_variant_builder_add(&builder, "{sv}", "device", sdt_cli_ops_device_path(device));
		if (confirm != NULL)
			g_variant_builder_add(&builder,
					      "{sv}",
					      "destroy_data_on",
					      sdt_cli_ops_device_path(confirm));
		node = sdt_cli_ops_run_job(cli,
					   "StartBenchmark",
					   profile,
					   g_variant_builder_end(&builder),
					   progress,
					   user_data,
					   cancellable,
					   error);
		if (node == NULL)
			sdt_cli_ops_privileged_hint(cli, error);
		return node;
	}
	before = sdt_l10n_english_begin();
	/* in-process (--root: root, the tests' loop devices) a disk that is not removable too */
	node = sdt_ops_bench_device(cli->ctx,
				    profile,
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
