/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-dbus-generated.h"

G_BEGIN_DECLS

/*
 * The D-Bus names of the helper (DESIGN.md), and how long a call may wait:
 * Apply, Revert and StartBenchmark may sit behind a polkit password prompt.
 */
#define SDT_BUS_NAME        "org.example.SdTuner1"
#define SDT_MANAGER_PATH    "/org/example/SdTuner1"
#define SDT_CALL_TIMEOUT_MS (5 * 60 * 1000)

/* an empty a{sv} for the options argument */
GVariant *sdt_page_no_options(void);

G_END_DECLS
