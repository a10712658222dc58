/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

/*
 * The helper's D-Bus names (DESIGN.md), defined once for the helper that owns
 * them and for the app and the CLI that call it (through sdt-client.h).
 */
#define SDT_BUS_NAME      "org.example.SdTuner1"
#define SDT_MANAGER_PATH  "/org/example/SdTuner1"
#define SDT_MANAGER_IFACE "org.example.SdTuner1.Manager"
#define SDT_JOB_IFACE     "org.example.SdTuner1.Job"
#define SDT_JOBS_PATH     "/org/example/SdTuner1/jobs" /* + "/N" */
