/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdtunerctl.h"

G_BEGIN_DECLS

/* `sdtunerctl [--root DIR] [--json] info` */
gint sdt_cli_info(SdtCli *cli, gint argc, gchar **argv, GError **error);

/* the human-readable text of an `info` document (exposed for tests) */
gchar *sdt_cli_info_format(JsonObject *info);

G_END_DECLS
