/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-cli-ops.h"

G_BEGIN_DECLS

/*
 * What the files of sdt-cli-ops share (sdt-cli-ops.c, sdt-cli-ops-device.c): the
 * in-process result made valid UTF-8, the progress of English library code shown in
 * the user's language, the hint when the helper is needed, and a helper job followed
 * to its end.  Private to src/cli.
 */

/* a result made in this process (@text taken: its codec's text, as `--json` prints it),
 * returned; NULL: NULL, and @error's message made valid UTF-8 as over the bus */
gchar *sdt_cli_ops_local(gchar *text, GError **error);

/* a progress callback of library code running in English: it shows in the user's;
 * @data is an SdtCliUserProgress */
typedef struct {
	SdtBenchProgressFunc progress;
	gpointer user_data;
} SdtCliUserProgress;

void
sdt_cli_ops_user_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer data);

/* bench, apply and revert need the helper, or root in-process: what to install, or
 * the exact command that works without the service, added to @error */
void sdt_cli_ops_privileged_hint(SdtCli *cli, GError **error);

/* the helper's job @method (@arg, @options floating or NULL) followed until Completed */
gchar *sdt_cli_ops_run_job(SdtCli *cli,
			   const gchar *method,
			   const gchar *arg,
			   GVariant *options,
			   SdtBenchProgressFunc progress,
			   gpointer user_data,
			   GCancellable *cancellable,
			   GError **error);

G_END_DECLS
