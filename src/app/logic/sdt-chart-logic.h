/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-client-history.h"

G_BEGIN_DECLS

/*
 * The arithmetic of the Speed page's rate graph and the History page's
 * before/after chart, without GTK (unit-tested in tests/app/test-app-logic.c).
 */

/* one sample of the live rate graph */
typedef struct {
	gdouble seconds;    /* since the benchmark started */
	gdouble rate;       /* MB/s */
	const gchar *phase; /* the test, an interned string ("seq-write", ...) */
} SdtRatePoint;

/* a run of samples drawn as one line: points[first] .. points[first + n - 1] */
typedef struct {
	guint first;
	guint n;
} SdtRateSegment;

/*
 * Splits the samples into lines: a new line starts where the test changes, or
 * where no sample came for more than @max_gap seconds, so the graph never
 * draws a straight line across the pause between two tests.
 * Returns a GArray of SdtRateSegment.
 */
GArray *sdt_chart_logic_rate_segments(const SdtRatePoint *points, guint n_points, gdouble max_gap);

/* the smallest 1, 2 or 5 x 10^n at or above @value (1 for nothing) */
gdouble sdt_chart_logic_nice_ceiling(gdouble value);

/* the spacing of time-axis ticks for @span seconds: at most 6 ticks, of
 * 1, 2, 5, 10, 15, 30 s or whole minutes */
gdouble sdt_chart_logic_time_step(gdouble span);

/*
 * An error bar: the ends, in pixels from the axis, of @value ± @spread on a
 * scale where @scale_max is @length pixels; clamped to 0..@length.
 */
void sdt_chart_logic_error_bar(gdouble value,
			       gdouble spread,
			       gdouble scale_max,
			       gdouble length,
			       gdouble *low,
			       gdouble *high);

/* one before/after figure with its spreads (absolute, in the figure's unit);
 * a figure below 0 was not measured, a spread below 0 is unknown */
typedef struct {
	gchar *name; /* "seq-read", ... */
	gboolean iops;
	gdouble before;
	gdouble before_spread;
	gdouble after;
	gdouble after_spread;
} SdtChartFigure;

/*
 * The figures of the newest "verify" entry of the history (oldest first) whose
 * evidence has before/after figures, with their spreads; NULL when there is
 * none (the array frees its figures). @time (optional) gets that entry's time,
 * which is the history's.
 */
GPtrArray *sdt_chart_logic_figures_from_verify(const SdtClientHistory *history, const gchar **time);

G_END_DECLS
