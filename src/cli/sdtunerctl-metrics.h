/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-cli.h"

G_BEGIN_DECLS

/* `metrics [--output FILE]`: the card's state for Prometheus (sdt_ops_metrics()) */
gint sdtunerctl_metrics(SdtCli *cli, gint argc, gchar **argv, GError **error);

G_END_DECLS
