/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SDT_TYPE_RATE_GRAPH (sdt_rate_graph_get_type())
G_DECLARE_FINAL_TYPE(SdtRateGraph, sdt_rate_graph, SDT, RATE_GRAPH, GtkDrawingArea)

/*
 * A live graph of the benchmark's transfer rate: x is the time since the
 * benchmark started (seconds, labelled), y the rate in MB/s, scaled to the
 * highest rate seen. Each test is its own line (sdt_chart_logic_rate_segments()), write
 * tests and read tests in different colours.
 */
void sdt_rate_graph_clear(SdtRateGraph *self);
void sdt_rate_graph_add_sample(SdtRateGraph *self,
			       gdouble seconds,
			       gdouble rate_mb_s,
			       const gchar *phase);

G_END_DECLS
