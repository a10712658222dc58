/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "sdt-ops.h"
#include "sdt-prom.h"
#include "sdtunerctl-metrics.h"

/*
 * `metrics` always runs in this process, with --root or on "/": it only reads
 * (sysfs, debugfs, the kernel log, the history), so a timer needs neither the
 * helper nor the system bus, and it never wakes the helper every 15 minutes.
 * As root it sees everything; as another user debugfs and (with
 * kernel.dmesg_restrict) the kernel log are missing and their samples left out.
 */
gint
sdtunerctl_metrics(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autoptr(SdtContext) own = NULL;
	g_autofree gchar *output = NULL;
	g_autofree gchar *text = NULL;
	SdtContext *ctx;
	gint rc = SDT_CLI_EXIT_OK;
	const GOptionEntry entries[] = {
		{"output",
		 'o',
		 0,
		 G_OPTION_ARG_FILENAME,
		 &output,
		 N_("Write the metrics to FILE atomically (readable by everyone) instead of "
		    "printing them, e.g. /var/lib/prometheus/node-exporter/sdtuner.prom"),
		 N_("FILE")},
		{NULL},
	};

	if (!sdt_cli_parse(cli, entries, 0, 0, &argc, &argv, &rc, error))
		return rc;
	if (output != NULL && output[0] == '\0') {
		g_set_error_literal(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    _("metrics: --output needs a file name"));
		return SDT_CLI_EXIT_USAGE;
	}
	ctx = cli->ctx;
	if (ctx == NULL) {
		own = sdt_context_new("/", error);
		if (own == NULL)
			return SDT_CLI_EXIT_FAILED;
		ctx = own;
	}
	text = sdt_ops_metrics(ctx, error);
	if (text == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (output != NULL)
		return sdt_prom_write_file(output, text, error) ? SDT_CLI_EXIT_OK
								: SDT_CLI_EXIT_FAILED;
	/* the format is UTF-8 whatever the locale: never through g_print()'s conversion */
	fputs(text, stdout);
	fflush(stdout);
	return ferror(stdout) ? SDT_CLI_EXIT_FAILED : SDT_CLI_EXIT_OK;
}
