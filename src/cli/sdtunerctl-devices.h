/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-cli.h"

G_BEGIN_DECLS

/* `devices`: the block devices that might be cards and whether each can be checked
 * (sdt_ops_devices(), the helper's GetDevices) */
gint sdtunerctl_devices(SdtCli *cli, gint argc, gchar **argv, GError **error);

G_END_DECLS
