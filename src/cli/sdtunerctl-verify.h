/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-cli.h"

G_BEGIN_DECLS

/* `verify [--evidence FILE]`: the decision after a reboot (sdt_ops_verify()) */
gint sdtunerctl_verify(SdtCli *cli, gint argc, gchar **argv, GError **error);

G_END_DECLS
