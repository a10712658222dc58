/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sdt-dbus-generated.h"

G_BEGIN_DECLS

/*
 * The helper's D-Bus names (DESIGN.md), defined once for the app, the CLI and
 * the helper that owns them.
 */
#define SDT_BUS_NAME      "org.example.SdTuner1"
#define SDT_MANAGER_PATH  "/org/example/SdTuner1"
#define SDT_MANAGER_IFACE "org.example.SdTuner1.Manager"
#define SDT_JOB_IFACE     "org.example.SdTuner1.Job"
#define SDT_JOBS_PATH     "/org/example/SdTuner1/jobs" /* + "/N" */

/*
 * How long a call may wait: Apply, Revert, StartBenchmark and StartCheck may
 * sit behind a polkit password prompt.  The app's dialog times out sooner than
 * a person typing at a terminal; a dead helper fails the call at once anyway.
 */
#define SDT_CALL_TIMEOUT_MS          (5 * 60 * 1000)
#define SDT_TERMINAL_CALL_TIMEOUT_MS (10 * 60 * 1000)

/* an empty a{sv} for the options argument (floating) */
GVariant *sdt_client_no_options(void);

G_END_DECLS
