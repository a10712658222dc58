/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-sd-bus.h"

G_BEGIN_DECLS

/*
 * What src/platform shares of sdt-sd-bus only among its own files and its tests (the
 * public interface is sdt-sd-bus.h).  Private to src/platform: tests/check-shape.py
 * fails any other file that includes it.
 */

/* the kernel's ios wording ("sd uhs DDR50", "mmc HS400 enhanced strobe") */
SdtTiming sdt_sd_bus_timing_from_ios(const gchar *text);
/* the mode word of "mmc0: new ultra high speed DDR50 SDXC card" ("DDR50", "SDR104") */
SdtTiming sdt_sd_bus_timing_from_uhs_mode(const gchar *mode);
gboolean sdt_sd_bus_timing_is_ddr(SdtTiming timing);
/* the clock the mode runs at without overclock, 0 if not fixed */
guint64 sdt_sd_bus_timing_get_nominal_clock_hz(SdtTiming timing);

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
