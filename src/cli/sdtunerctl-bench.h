/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-cli.h"

G_BEGIN_DECLS

/* `sdtunerctl [--root DIR] [--json] bench [--profile P] [--dir DIR] [--json]` */
gint sdtunerctl_bench(SdtCli *cli, gint argc, gchar **argv, GError **error);

G_END_DECLS
