/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-cli.h"

G_BEGIN_DECLS

/* `sdtunerctl check [--full] [--dir DIR] [--json]` */
gint sdtunerctl_check(SdtCli *cli, gint argc, gchar **argv, GError **error);
/* `sdtunerctl health [--json]` */
gint sdtunerctl_check_health(SdtCli *cli, gint argc, gchar **argv, GError **error);

G_END_DECLS
