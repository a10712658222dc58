/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-cli-ops.h"

G_BEGIN_DECLS

/* the pieces of sdt-cli-ops.c that the commands' own ops (sdt-cli-ops-device.c) share */

/* a progress callback of library code running in English: it shows in the user's */
typedef struct {
	SdtBenchProgressFunc progress;
	gpointer user_data;
} SdtCliUserProgress;

/* @data an SdtCliUserProgress */
void
sdt_cli_ops_user_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer data);

/* a result read in this process: what it prints is valid UTF-8, as over the bus */
JsonNode *sdt_cli_ops_local(JsonNode *node, GError **error);

/* after a failed job: what to install, or the command that works without the service */
void sdt_cli_ops_privileged_hint(SdtCli *cli, GError **error);

/*
 * Starts a job of the helper (StartBenchmark or StartCheck, with @arg; StartSoak or
 * StartVerify, @arg %NULL) with @options (floating, may be %NULL) and follows it until
 * Completed.
 */
JsonNode *sdt_cli_ops_run_job(SdtCli *cli,
			      const gchar *method,
			      const gchar *arg,
			      GVariant *options,
			      SdtBenchProgressFunc progress,
			      gpointer user_data,
			      GCancellable *cancellable,
			      GError **error);

G_END_DECLS
