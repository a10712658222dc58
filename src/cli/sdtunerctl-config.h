/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-cli.h"

G_BEGIN_DECLS

/* `sdtunerctl [--root DIR] [--json] recommend` */
gint sdtunerctl_config_recommend(SdtCli *cli, gint argc, gchar **argv, GError **error);
/* `sdtunerctl [--root DIR] [--json] apply ID [--trial]` */
gint sdtunerctl_config_apply(SdtCli *cli, gint argc, gchar **argv, GError **error);
/* `sdtunerctl [--root DIR] [--json] revert` */
gint sdtunerctl_config_revert(SdtCli *cli, gint argc, gchar **argv, GError **error);
/* `sdtunerctl [--root DIR] [--json] status` */
gint sdtunerctl_config_status(SdtCli *cli, gint argc, gchar **argv, GError **error);
/* `sdtunerctl [--root DIR] [--json] history` */
gint sdtunerctl_config_history(SdtCli *cli, gint argc, gchar **argv, GError **error);

G_END_DECLS
