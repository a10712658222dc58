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
/* the kernel's ios wording ("sd uhs DDR50", "mmc HS400 enhanced strobe") */
SdtTiming sdt_sd_bus_timing_from_ios(const gchar *text);
/* the mode word of "mmc0: new ultra high speed DDR50 SDXC card" ("DDR50", "SDR104") */
SdtTiming sdt_sd_bus_timing_from_uhs_mode(const gchar *mode);
gboolean sdt_sd_bus_timing_is_ddr(SdtTiming timing);
/* the clock the mode runs at without overclock, 0 if not fixed */
guint64 sdt_sd_bus_timing_get_nominal_clock_hz(SdtTiming timing);

/* the debugfs ios file (PLATFORM.md §5.2); numbers are -1 when absent */
typedef struct {
	gint64 clock_hz;        /* requested by the MMC core */
	gint64 actual_clock_hz; /* what the host really runs at */
	gint bus_width;         /* bits: 1, 4, 8 */
	SdtTiming timing;
	gchar *timing_text;     /* the kernel's wording, e.g. "sd high-speed" */
	gdouble signal_voltage; /* volts, < 0 when absent */
} SdtSdBusIos;

/*
 * Parses the text of /sys/kernel/debug/mmcN/ios.  Lines it cannot read stay
 * unknown; FALSE with SDT_ERROR_INVALID_DATA only when no line at all is
 * usable.
 */
gboolean sdt_sd_bus_ios_parse(SdtSdBusIos *ios, const gchar *text, GError **error);
void sdt_sd_bus_ios_init(SdtSdBusIos *ios);
void sdt_sd_bus_ios_clear(SdtSdBusIos *ios);

/*
 * The bus ceiling in MB/s (10^6 bytes per second): clock × width / 8, × 2 for
 * DDR.  Negative when the clock or the width is unknown.
 */
gdouble sdt_sd_bus_ceiling_mb_s(gint64 clock_hz, gint bus_width, SdtTiming timing);

G_END_DECLS
