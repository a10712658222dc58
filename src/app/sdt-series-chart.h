/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-client-series.h"

G_BEGIN_DECLS

#define SDT_TYPE_SERIES_CHART (sdt_series_chart_get_type())
G_DECLARE_FINAL_TYPE(SdtSeriesChart, sdt_series_chart, SDT, SERIES_CHART, GtkDrawingArea)

/*
 * A card's figures over time: one small line-and-point chart per benchmark test (each
 * with its own scale: MB/s and IOPS differ by orders of magnitude), a point per run with
 * its spread as a whisker, SD Tuner's changes as dashed vertical lines across every
 * test, on one time axis.  Drawn only when GTK asks (a size change, new data): nothing
 * animates.  The figures are its accessible description, for screen readers.
 */
void sdt_series_chart_set_series(SdtSeriesChart *self, const SdtClientSeries *series);

G_END_DECLS
