/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-l10n.h"
#include "sdt-series-chart.h"

typedef struct {
	gdouble x; /* seconds since the epoch */
	gdouble value;
	gdouble spread; /* NaN: unknown */
} SdtSeriesPoint;

typedef struct {
	gchar *title;   /* "Sequential write (MB/s)" */
	GArray *points; /* of SdtSeriesPoint, oldest first */
	gdouble max;
} SdtSeriesRow;

typedef struct {
	gdouble x;
	gchar *label; /* the change's id */
} SdtSeriesMarker;

struct _SdtSeriesChart {
	GtkDrawingArea parent_instance;
	GPtrArray *rows;    /* of SdtSeriesRow */
	GPtrArray *markers; /* of SdtSeriesMarker */
	gdouble x_min, x_max;
	gchar *first_date, *last_date;
	guint n_points;
	gint64 last_draw_usec;
};

G_DEFINE_TYPE(SdtSeriesChart, sdt_series_chart, GTK_TYPE_DRAWING_AREA)

#define SDT_SERIES_TITLE_H 22.0
#define SDT_SERIES_PLOT_H  64.0
#define SDT_SERIES_GAP     12.0
#define SDT_SERIES_LEFT    56.0 /* room for the scale's figures */
#define SDT_SERIES_RIGHT   12.0
#define SDT_SERIES_AXIS_H  22.0 /* the dates under the last test */

/* the tests in the order of the Speed page's table */
static const gchar *const sdt_series_tests[] = {
	"seq-read",
	"seq-write",
	"rand-4k-read-qd1",
	"rand-4k-write-qd1",
	"rand-4k-read-qd32",
	"rand-4k-write-qd32",
};

static void
sdt_series_row_free(SdtSeriesRow *row)
{
	g_free(row->title);
	g_array_unref(row->points);
	g_free(row);
}

static void
sdt_series_marker_free(SdtSeriesMarker *m)
{
	g_free(m->label);
	g_free(m);
}

static gchar *
sdt_series_chart_figure(gdouble value, gdouble spread, const gchar *unit)
{
	if (isfinite(spread) && spread >= 0)
		/* Translators: a figure, its spread and its unit: "22.1 ± 0.3 MB/s" */
		return g_strdup_printf(value >= 100 ? _("%.0f ± %.0f %s") : _("%.1f ± %.1f %s"),
				       value,
				       spread,
				       unit);
	return g_strdup_printf(value >= 100 ? "%.0f %s" : "%.1f %s", value, unit);
}

/* a change, as a screen reader says it */
static gchar *
sdt_series_chart_change_text(const SdtClientChange *c)
{
	g_autofree gchar *when = sdt_l10n_time(c->time != NULL ? c->time : "?");
	const gchar *id = c->id != NULL ? c->id : "?";

	if (g_strcmp0(c->kind, "apply") == 0)
		/* Translators: a date, then a recommendation id */
		return g_strdup_printf(_("%s: SD Tuner applied %s."), when, id);
	if (g_strcmp0(c->kind, "step-down") == 0)
		/* Translators: a date, then a recommendation id */
		return g_strdup_printf(_("%s: the check after the restart stepped down to %s."),
				       when,
				       id);
	if (g_strcmp0(c->kind, "undo") == 0)
		/* Translators: a date, then a recommendation id */
		return g_strdup_printf(_("%s: the check after the restart undid %s."), when, id);
	/* Translators: a date, then a recommendation id */
	return g_strdup_printf(_("%s: SD Tuner reverted %s."), when, id);
}

/* every figure as text: the chart's accessible description */
static void
sdt_series_chart_describe(SdtSeriesChart *self, const SdtClientSeries *series)
{
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));
	g_autoptr(GString) str = g_string_new(NULL);

	for (guint i = 0; series != NULL && i < G_N_ELEMENTS(sdt_series_tests); i++) {
		const SdtClientSeriesTest *t =
			sdt_client_series_get_test(series, sdt_series_tests[i]);
		for (guint j = 0; t != NULL && j < t->points->len; j++) {
			const SdtClientPoint *p = g_ptr_array_index(t->points, j);
			g_autofree gchar *when = sdt_l10n_time(p->time != NULL ? p->time : "?");
			g_autofree gchar *figure =
				sdt_series_chart_figure(p->value, p->spread, t->unit);
			if (!isfinite(p->value))
				continue;
			if (p->change != NULL)
				/* Translators: test, date, figure, the setting in force */
				g_string_append_printf(str,
						       _("%1$s, %2$s: %3$s (with %4$s). "),
						       sdt_l10n_bench_test(t->name),
						       when,
						       figure,
						       p->change);
			else
				/* Translators: test, date, figure; no SD Tuner setting was in force
				 */
				g_string_append_printf(
					str,
					_("%1$s, %2$s: %3$s (no SD Tuner setting). "),
					sdt_l10n_bench_test(t->name),
					when,
					figure);
		}
	}
	for (guint i = 0; series != NULL && i < series->changes->len; i++) {
		g_autofree gchar *text =
			sdt_series_chart_change_text(g_ptr_array_index(series->changes, i));
		g_string_append_printf(str, "%s ", text);
	}
	atk_object_set_description(acc,
				   str->len > 0 ? g_strchomp(str->str)
						: _("No benchmark of this card yet"));
}

static void
sdt_series_chart_add_row(SdtSeriesChart *self, const SdtClientSeriesTest *t)
{
	SdtSeriesRow *row = g_new0(SdtSeriesRow, 1);

	/* Translators: a test's name, then its unit: "Sequential read (MB/s)" */
	row->title = g_strdup_printf(_("%s (%s)"), sdt_l10n_bench_test(t->name), t->unit);
	row->points = g_array_new(FALSE, FALSE, sizeof(SdtSeriesPoint));
	for (guint j = 0; j < t->points->len; j++) {
		const SdtClientPoint *p = g_ptr_array_index(t->points, j);
		SdtSeriesPoint sp = {(gdouble) p->usec / G_USEC_PER_SEC, p->value, p->spread};

		if (!isfinite(p->value) || p->value < 0 || p->usec == 0)
			continue;
		g_array_append_val(row->points, sp);
		row->max = MAX(row->max, p->value + (isfinite(p->spread) ? p->spread : 0));
		self->x_min = MIN(self->x_min, sp.x);
		self->x_max = MAX(self->x_max, sp.x);
		self->n_points++;
	}
	g_ptr_array_add(self->rows, row);
}

void
sdt_series_chart_set_series(SdtSeriesChart *self, const SdtClientSeries *series)
{
	g_return_if_fail(SDT_IS_SERIES_CHART(self));
	g_ptr_array_set_size(self->rows, 0);
	g_ptr_array_set_size(self->markers, 0);
	self->x_min = G_MAXDOUBLE;
	self->x_max = -G_MAXDOUBLE;
	self->n_points = 0;
	for (guint i = 0; series != NULL && i < G_N_ELEMENTS(sdt_series_tests); i++) {
		const SdtClientSeriesTest *t =
			sdt_client_series_get_test(series, sdt_series_tests[i]);
		if (t != NULL && t->points->len > 0)
			sdt_series_chart_add_row(self, t);
	}
	/* the changes between the first run and the last: the others are off the chart */
	for (guint i = 0; series != NULL && i < series->changes->len; i++) {
		const SdtClientChange *c = g_ptr_array_index(series->changes, i);
		SdtSeriesMarker *m;
		gdouble x = (gdouble) c->usec / G_USEC_PER_SEC;

		if (c->usec == 0 || x < self->x_min || x > self->x_max)
			continue;
		m = g_new0(SdtSeriesMarker, 1);
		m->x = x;
		m->label = g_strdup(c->id != NULL ? c->id : c->kind);
		g_ptr_array_add(self->markers, m);
	}
	g_clear_pointer(&self->first_date, g_free);
	g_clear_pointer(&self->last_date, g_free);
	if (self->n_points > 0) {
		g_autoptr(GDateTime) a = g_date_time_new_from_unix_local((gint64) self->x_min);
		g_autoptr(GDateTime) b = g_date_time_new_from_unix_local((gint64) self->x_max);
		self->first_date = g_date_time_format(a, "%x");
		self->last_date = g_date_time_format(b, "%x");
	}
	sdt_series_chart_describe(self, series);
	gtk_widget_set_size_request(
		GTK_WIDGET(self),
		280,
		(gint) (MAX(1, self->rows->len) *
				(SDT_SERIES_TITLE_H + SDT_SERIES_PLOT_H + SDT_SERIES_GAP) +
			SDT_SERIES_AXIS_H));
	gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void
sdt_series_chart_text(GtkWidget *widget, cairo_t *cr, gdouble x, gdouble y, const gchar *text)
{
	PangoLayout *layout = gtk_widget_create_pango_layout(widget, text);
	cairo_move_to(cr, x, y);
	pango_cairo_show_layout(cr, layout);
	g_object_unref(layout);
}

/* the horizontal position of time @x in a plot from @left, @w wide */
static gdouble
sdt_series_chart_x(SdtSeriesChart *self, gdouble x, gdouble left, gdouble w)
{
	if (self->x_max <= self->x_min)
		return left + w / 2;
	return left + (x - self->x_min) / (self->x_max - self->x_min) * w;
}

/* one test: its frame, scale, line, points and whiskers, at @top */
static void
sdt_series_chart_draw_row(SdtSeriesChart *self,
			  cairo_t *cr,
			  const SdtSeriesRow *row,
			  gdouble top,
			  gdouble w,
			  const GdkRGBA *fg,
			  const GdkRGBA *line)
{
	GtkWidget *widget = GTK_WIDGET(self);
	gdouble y0 = top + SDT_SERIES_TITLE_H + SDT_SERIES_PLOT_H; /* the plot's zero */
	gdouble max = row->max > 0 ? row->max * 1.1 : 1;
	g_autofree gchar *scale = g_strdup_printf(max >= 100 ? "%.0f" : "%.1f", max);

	gdk_cairo_set_source_rgba(cr, fg);
	sdt_series_chart_text(widget, cr, 0, top, row->title);
	sdt_series_chart_text(widget, cr, 0, top + SDT_SERIES_TITLE_H, scale);
	sdt_series_chart_text(widget, cr, 0, y0 - 16, "0");
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr,
			SDT_SERIES_LEFT + 0.5,
			top + SDT_SERIES_TITLE_H + 0.5,
			w,
			SDT_SERIES_PLOT_H);
	cairo_stroke(cr);
	gdk_cairo_set_source_rgba(cr, line);
	cairo_set_line_width(cr, 2);
	for (guint j = 0; j < row->points->len; j++) {
		const SdtSeriesPoint *p = &g_array_index(row->points, SdtSeriesPoint, j);
		gdouble x = sdt_series_chart_x(self, p->x, SDT_SERIES_LEFT, w);
		gdouble y = y0 - p->value / max * SDT_SERIES_PLOT_H;
		if (j == 0)
			cairo_move_to(cr, x, y);
		else
			cairo_line_to(cr, x, y);
	}
	cairo_stroke(cr);
	cairo_set_line_width(cr, 1);
	for (guint j = 0; j < row->points->len; j++) {
		const SdtSeriesPoint *p = &g_array_index(row->points, SdtSeriesPoint, j);
		gdouble x = sdt_series_chart_x(self, p->x, SDT_SERIES_LEFT, w);
		gdouble y = y0 - p->value / max * SDT_SERIES_PLOT_H;
		if (isfinite(p->spread) && p->spread > 0) {
			gdouble d = p->spread / max * SDT_SERIES_PLOT_H;
			cairo_move_to(cr, x, MAX(y - d, top + SDT_SERIES_TITLE_H));
			cairo_line_to(cr, x, MIN(y + d, y0));
			cairo_stroke(cr);
		}
		cairo_arc(cr, x, y, 3.5, 0, 2 * G_PI);
		cairo_fill(cr);
	}
}

/* SD Tuner's changes: a dashed line across every test, the id at the top */
static void
sdt_series_chart_draw_markers(SdtSeriesChart *self, cairo_t *cr, gdouble w, gdouble bottom)
{
	const GdkRGBA marker = {0.85, 0.45, 0.05, 1.0};
	const gdouble dash[] = {4.0, 3.0};

	gdk_cairo_set_source_rgba(cr, &marker);
	for (guint i = 0; i < self->markers->len; i++) {
		const SdtSeriesMarker *m = g_ptr_array_index(self->markers, i);
		gdouble x = sdt_series_chart_x(self, m->x, SDT_SERIES_LEFT, w);

		cairo_set_dash(cr, dash, G_N_ELEMENTS(dash), 0);
		cairo_set_line_width(cr, 1.5);
		cairo_move_to(cr, x, SDT_SERIES_TITLE_H);
		cairo_line_to(cr, x, bottom);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		sdt_series_chart_text(GTK_WIDGET(self), cr, x + 3, SDT_SERIES_TITLE_H, m->label);
	}
}

static gboolean
sdt_series_chart_draw(GtkWidget *widget, cairo_t *cr)
{
	SdtSeriesChart *self = SDT_SERIES_CHART(widget);
	GtkStyleContext *style = gtk_widget_get_style_context(widget);
	const GdkRGBA line = {0.21, 0.52, 0.89, 1.0};
	gdouble width = gtk_widget_get_allocated_width(widget);
	gdouble w = MAX(width - SDT_SERIES_LEFT - SDT_SERIES_RIGHT, 10);
	gdouble top = 0;
	gint64 start = g_get_monotonic_time();
	GdkRGBA fg;

	gtk_render_background(style, cr, 0, 0, width, gtk_widget_get_allocated_height(widget));
	gtk_style_context_get_color(style, gtk_style_context_get_state(style), &fg);
	for (guint i = 0; i < self->rows->len; i++) {
		sdt_series_chart_draw_row(self,
					  cr,
					  g_ptr_array_index(self->rows, i),
					  top,
					  w,
					  &fg,
					  &line);
		top += SDT_SERIES_TITLE_H + SDT_SERIES_PLOT_H + SDT_SERIES_GAP;
	}
	sdt_series_chart_draw_markers(self, cr, w, top - SDT_SERIES_GAP);
	if (self->first_date != NULL) {
		gdk_cairo_set_source_rgba(cr, &fg);
		sdt_series_chart_text(widget,
				      cr,
				      SDT_SERIES_LEFT,
				      top - SDT_SERIES_GAP + 2,
				      self->first_date);
		sdt_series_chart_text(widget,
				      cr,
				      SDT_SERIES_LEFT + w - 80,
				      top - SDT_SERIES_GAP + 2,
				      self->last_date);
	}
	self->last_draw_usec = g_get_monotonic_time() - start;
	/* G_MESSAGES_DEBUG=sd-tuner: the cost of a draw on this machine */
	g_debug("series chart: %u points drawn in %" G_GINT64_FORMAT " µs",
		self->n_points,
		self->last_draw_usec);
	return FALSE;
}

static void
sdt_series_chart_finalize(GObject *object)
{
	SdtSeriesChart *self = SDT_SERIES_CHART(object);

	g_ptr_array_unref(self->rows);
	g_ptr_array_unref(self->markers);
	g_free(self->first_date);
	g_free(self->last_date);
	G_OBJECT_CLASS(sdt_series_chart_parent_class)->finalize(object);
}

static void
sdt_series_chart_init(SdtSeriesChart *self)
{
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));

	self->rows = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_series_row_free);
	self->markers = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_series_marker_free);
	atk_object_set_role(acc, ATK_ROLE_CHART);
	atk_object_set_name(acc, _("Each test over time"));
	sdt_series_chart_set_series(self, NULL);
}

static void
sdt_series_chart_class_init(SdtSeriesChartClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->finalize = sdt_series_chart_finalize;
	widget_class->draw = sdt_series_chart_draw;
	gtk_widget_class_set_css_name(widget_class, "sdtserieschart");
}
