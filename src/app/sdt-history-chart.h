/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SDT_TYPE_HISTORY_CHART (sdt_history_chart_get_type())
G_DECLARE_FINAL_TYPE(SdtHistoryChart, sdt_history_chart, SDT, HISTORY_CHART, GtkDrawingArea)

/*
 * A before/after bar chart: one group per benchmark test, two bars each, each
 * with an error bar of its spread (value ± spread). Every group has its own
 * scale (MB/s and IOPS differ by orders of magnitude); the numbers are printed
 * next to the bars.  A value below 0 means "not measured" and draws no bar; a
 * spread below 0 is unknown and draws no error bar.
 */
void sdt_history_chart_clear(SdtHistoryChart *self);
void sdt_history_chart_add_group(SdtHistoryChart *self,
				 const gchar *title,
				 const gchar *unit,
				 const gdouble values[2],
				 const gdouble spreads[2]);
void sdt_history_chart_set_labels(SdtHistoryChart *self,
				  const gchar *before_label,
				  const gchar *after_label);

G_END_DECLS
