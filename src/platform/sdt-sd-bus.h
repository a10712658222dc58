/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* DESIGN.md bus.timing values, in the kernel's timing-spec order */
typedef enum {
	SDT_TIMING_LEGACY,
	SDT_TIMING_MMC_HIGH_SPEED,
	SDT_TIMING_SD_HIGH_SPEED,
	SDT_TIMING_UHS_SDR12,
	SDT_TIMING_UHS_SDR25,
	SDT_TIMING_UHS_SDR50,
	SDT_TIMING_UHS_SDR104,
	SDT_TIMING_UHS_DDR50,
	SDT_TIMING_MMC_DDR52,
	SDT_TIMING_MMC_HS200,
	SDT_TIMING_MMC_HS400,
	SDT_TIMING_MMC_HS400ES,
	SDT_TIMING_UNKNOWN,
} SdtTiming;

/* "legacy", "sd-high-speed", "uhs-ddr50", ... "unknown" */
const gchar *sdt_sd_bus_timing_to_string(SdtTiming timing);

/* the debugfs ios file (PLATFORM.md §5.2); numbers are -1 when absent */
typedef struct {
	gint64 clock_hz;        /* requested by the MMC core */
	gint64 actual_clock_hz; /* what the host really runs at */
	gint bus_width;         /* bits: 1, 4, 8 */
	SdtTiming timing;
	gchar *timing_text;     /* the kernel's wording, e.g. "sd high-speed" */
	gdouble signal_voltage; /* volts, < 0 when absent */
} SdtSdBusIos;

G_END_DECLS
