/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-chart-logic.h"

GArray *
sdt_chart_logic_rate_segments(const SdtRatePoint *points, guint n_points, gdouble max_gap)
{
	GArray *segments = g_array_new(FALSE, TRUE, sizeof(SdtRateSegment));
	SdtRateSegment seg = {0, 0};

	for (guint i = 0; i < n_points; i++) {
		gboolean breaks = i > 0 && (g_strcmp0(points[i].phase, points[i - 1].phase) != 0 ||
					    points[i].seconds - points[i - 1].seconds > max_gap);
		if (breaks) {
			g_array_append_val(segments, seg);
			seg.first = i;
			seg.n = 0;
		}
		seg.n++;
	}
	if (seg.n > 0)
		g_array_append_val(segments, seg);
	return segments;
}

gdouble
sdt_chart_logic_nice_ceiling(gdouble value)
{
	gdouble exp10;
	gdouble mant;

	if (value <= 0 || !isfinite(value))
		return 1.0;
	exp10 = pow(10, floor(log10(value)));
	mant = value / exp10;
	if (mant <= 1.0)
		return exp10;
	if (mant <= 2.0)
		return 2 * exp10;
	if (mant <= 5.0)
		return 5 * exp10;
	return 10 * exp10;
}

gdouble
sdt_chart_logic_time_step(gdouble span)
{
	const gdouble steps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600};

	if (!isfinite(span) || span <= 0)
		return 1;
	for (guint i = 0; i < G_N_ELEMENTS(steps); i++) {
		if (span / steps[i] <= 6)
			return steps[i];
	}
	return 3600 * ceil(span / 3600 / 6);
}

void
sdt_chart_logic_error_bar(gdouble value,
			  gdouble spread,
			  gdouble scale_max,
			  gdouble length,
			  gdouble *low,
			  gdouble *high)
{
	gdouble s = isfinite(spread) && spread > 0 ? spread : 0;

	if (!isfinite(value) || value < 0 || !isfinite(scale_max) || scale_max <= 0) {
		*low = *high = 0;
		return;
	}
	*low = CLAMP(length * (value - s) / scale_max, 0, length);
	*high = CLAMP(length * (value + s) / scale_max, 0, length);
}

static void
sdt_chart_figure_free(SdtChartFigure *figure)
{
	if (figure == NULL)
		return;
	g_free(figure->name);
	g_free(figure);
}

/* a figure or spread the chart can draw, -1 when unknown */
static gdouble
sdt_chart_number(gdouble v)
{
	return isfinite(v) && v >= 0 ? v : -1;
}

/* the evidence's figures that have a name */
static GPtrArray *
sdt_chart_figures_from_evidence(GPtrArray *list)
{
	GPtrArray *figures = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_chart_figure_free);

	for (guint i = 0; i < list->len; i++) {
		const SdtClientFigure *o = g_ptr_array_index(list, i);
		SdtChartFigure *f;

		if (o->name == NULL)
			continue;
		f = g_new0(SdtChartFigure, 1);
		f->name = g_strdup(o->name);
		f->iops = g_strcmp0(o->unit, "IOPS") == 0;
		f->before = sdt_chart_number(o->before);
		f->before_spread = sdt_chart_number(o->before_spread);
		f->after = sdt_chart_number(o->after);
		f->after_spread = sdt_chart_number(o->after_spread);
		g_ptr_array_add(figures, f);
	}
	return figures;
}

GPtrArray *
sdt_chart_logic_figures_from_verify(const SdtClientHistory *history, const gchar **time)
{
	guint n = history != NULL ? history->entries->len : 0;

	for (guint i = n; i > 0; i--) {
		const SdtClientHistoryEntry *e = g_ptr_array_index(history->entries, i - 1);
		g_autoptr(GPtrArray) figures = NULL;

		if (g_strcmp0(e->kind, "verify") != 0)
			continue;
		figures = sdt_chart_figures_from_evidence(e->figures);
		if (figures->len == 0)
			continue;
		if (time != NULL)
			*time = e->time;
		return g_steal_pointer(&figures);
	}
	return NULL;
}
