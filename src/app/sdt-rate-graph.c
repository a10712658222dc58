/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sdt-chart-logic.h"
#include "sdt-rate-graph.h"

struct _SdtRateGraph {
	GtkDrawingArea parent_instance;
	GArray *samples; /* of SdtRatePoint */
	gdouble max_rate;
};

G_DEFINE_TYPE(SdtRateGraph, sdt_rate_graph, GTK_TYPE_DRAWING_AREA)

#define SDT_RATE_GRAPH_MARGIN_LEFT   56.0
#define SDT_RATE_GRAPH_MARGIN_BOTTOM 24.0
#define SDT_RATE_GRAPH_MARGIN_TOP    8.0
#define SDT_RATE_GRAPH_MARGIN_RIGHT  16.0
/* the engine reports at least every 100 ms while a test runs: a longer
 * silence is a pause (preparing the next test), not a measurement */
#define SDT_RATE_GRAPH_MAX_GAP 2.0

typedef struct {
	gdouble x, y, w, h; /* the plot area */
	gdouble top;        /* MB/s at its top */
	gdouble span;       /* seconds across it */
	GdkRGBA fg;
} SdtRatePlot;

static void
sdt_rate_graph_update_description(SdtRateGraph *self)
{
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));
	g_autofree gchar *text = NULL;

	if (self->samples->len == 0) {
		text = g_strdup(_("No benchmark has run yet"));
	} else {
		SdtRatePoint *last =
			&g_array_index(self->samples, SdtRatePoint, self->samples->len - 1);
		/* Translators: accessible description of the live rate graph */
		text = g_strdup_printf(_("Current rate %.1f MB/s, highest %.1f MB/s"),
				       last->rate,
				       self->max_rate);
	}
	atk_object_set_description(acc, text);
}

static void
sdt_rate_graph_text(GtkWidget *widget,
		    cairo_t *cr,
		    gdouble x,
		    gdouble y,
		    gdouble xalign,
		    gdouble yalign,
		    const gchar *text)
{
	PangoLayout *layout = gtk_widget_create_pango_layout(widget, text);
	gint lw;
	gint lh;

	pango_layout_get_pixel_size(layout, &lw, &lh);
	cairo_move_to(cr, x - xalign * lw, y - yalign * lh);
	pango_cairo_show_layout(cr, layout);
	g_object_unref(layout);
}

/* horizontal grid lines with their MB/s labels, and the unit */
static void
sdt_rate_graph_draw_rate_axis(GtkWidget *widget, cairo_t *cr, const SdtRatePlot *p)
{
	cairo_set_line_width(cr, 1.0);
	for (guint i = 0; i <= 4; i++) {
		gdouble y = p->y + p->h - p->h * i / 4.0;
		g_autofree gchar *label = g_strdup_printf("%g", p->top * i / 4.0);

		cairo_set_source_rgba(cr, p->fg.red, p->fg.green, p->fg.blue, 0.15);
		cairo_move_to(cr, p->x, floor(y) + 0.5);
		cairo_line_to(cr, p->x + p->w, floor(y) + 0.5);
		cairo_stroke(cr);
		cairo_set_source_rgba(cr, p->fg.red, p->fg.green, p->fg.blue, 0.7);
		sdt_rate_graph_text(widget, cr, p->x - 6, y, 1.0, 0.5, label);
	}
	sdt_rate_graph_text(widget, cr, p->x + 6, p->y, 0.0, 0.0, _("MB/s"));
}

/* ticks every few seconds along the bottom, and the unit at the right end */
static void
sdt_rate_graph_draw_time_axis(GtkWidget *widget, cairo_t *cr, const SdtRatePlot *p)
{
	gdouble step = sdt_chart_logic_time_step(p->span);
	gdouble base = p->y + p->h;

	cairo_set_source_rgba(cr, p->fg.red, p->fg.green, p->fg.blue, 0.7);
	cairo_set_line_width(cr, 1.0);
	for (gdouble t = 0; t <= p->span + 1e-9; t += step) {
		gdouble x = floor(p->x + p->w * t / p->span) + 0.5;
		g_autofree gchar *label = g_strdup_printf("%g", t);

		cairo_move_to(cr, x, base);
		cairo_line_to(cr, x, base + 4);
		cairo_stroke(cr);
		/* the last tick's number makes room for the unit */
		if (t + step <= p->span + 1e-9 || t == 0)
			sdt_rate_graph_text(widget, cr, x, base + 4, 0.5, 0.0, label);
	}
	/* Translators: the unit of the rate graph's time axis, at its right end */
	sdt_rate_graph_text(widget,
			    cr,
			    p->x + p->w + SDT_RATE_GRAPH_MARGIN_RIGHT,
			    base + 4,
			    1.0,
			    0.0,
			    _("seconds"));
}

/* each test a line of its own, coloured by writing or reading */
static void
sdt_rate_graph_draw_lines(SdtRateGraph *self, cairo_t *cr, const SdtRatePlot *p)
{
	const GdkRGBA write_rgba = {0.90, 0.38, 0.00, 1.0}; /* orange */
	const GdkRGBA read_rgba = {0.21, 0.52, 0.89, 1.0};  /* blue */
	const SdtRatePoint *pts = (const SdtRatePoint *) self->samples->data;
	g_autoptr(GArray) segments =
		sdt_chart_logic_rate_segments(pts, self->samples->len, SDT_RATE_GRAPH_MAX_GAP);

	cairo_set_line_width(cr, 2.0);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (guint s = 0; s < segments->len; s++) {
		const SdtRateSegment *seg = &g_array_index(segments, SdtRateSegment, s);
		gboolean write = strstr(pts[seg->first].phase, "write") != NULL;

		gdk_cairo_set_source_rgba(cr, write ? &write_rgba : &read_rgba);
		for (guint i = seg->first; i < seg->first + seg->n; i++) {
			gdouble x = p->x + p->w * pts[i].seconds / p->span;
			gdouble y = p->y + p->h - p->h * pts[i].rate / p->top;
			if (i == seg->first)
				cairo_move_to(cr, x, y);
			else
				cairo_line_to(cr, x, y);
		}
		if (seg->n == 1)
			cairo_rel_line_to(cr, 1, 0);
		cairo_stroke(cr);
	}
}

static gboolean
sdt_rate_graph_draw(GtkWidget *widget, cairo_t *cr)
{
	SdtRateGraph *self = SDT_RATE_GRAPH(widget);
	GtkStyleContext *style = gtk_widget_get_style_context(widget);
	gdouble width = gtk_widget_get_allocated_width(widget);
	gdouble height = gtk_widget_get_allocated_height(widget);
	SdtRatePlot p;
	gdouble last = 0;

	gtk_render_background(style, cr, 0, 0, width, height);
	p.x = SDT_RATE_GRAPH_MARGIN_LEFT;
	p.y = SDT_RATE_GRAPH_MARGIN_TOP;
	p.w = width - SDT_RATE_GRAPH_MARGIN_LEFT - SDT_RATE_GRAPH_MARGIN_RIGHT;
	p.h = height - SDT_RATE_GRAPH_MARGIN_TOP - SDT_RATE_GRAPH_MARGIN_BOTTOM;
	if (p.w <= 0 || p.h <= 0)
		return FALSE;
	if (self->samples->len > 0)
		last = g_array_index(self->samples, SdtRatePoint, self->samples->len - 1).seconds;
	p.top = sdt_chart_logic_nice_ceiling(self->max_rate);
	p.span = sdt_chart_logic_time_step(last) *
		 ceil(MAX(last, 1) / sdt_chart_logic_time_step(last));
	gtk_style_context_get_color(style, gtk_style_context_get_state(style), &p.fg);
	sdt_rate_graph_draw_rate_axis(widget, cr, &p);
	sdt_rate_graph_draw_time_axis(widget, cr, &p);
	sdt_rate_graph_draw_lines(self, cr, &p);
	return FALSE;
}

void
sdt_rate_graph_clear(SdtRateGraph *self)
{
	g_return_if_fail(SDT_IS_RATE_GRAPH(self));
	g_array_set_size(self->samples, 0);
	self->max_rate = 0;
	sdt_rate_graph_update_description(self);
	gtk_widget_queue_draw(GTK_WIDGET(self));
}

void
sdt_rate_graph_add_sample(SdtRateGraph *self,
			  gdouble seconds,
			  gdouble rate_mb_s,
			  const gchar *phase)
{
	SdtRatePoint sample = {0};

	g_return_if_fail(SDT_IS_RATE_GRAPH(self));

	/* a broken sample must not wreck the scale */
	if (!isfinite(seconds) || seconds < 0 || !isfinite(rate_mb_s) || rate_mb_s < 0)
		return;
	sample.seconds = seconds;
	sample.rate = rate_mb_s;
	sample.phase = g_intern_string(phase != NULL ? phase : "");
	g_array_append_val(self->samples, sample);
	self->max_rate = MAX(self->max_rate, rate_mb_s);
	sdt_rate_graph_update_description(self);
	gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void
sdt_rate_graph_finalize(GObject *object)
{
	SdtRateGraph *self = SDT_RATE_GRAPH(object);
	g_array_unref(self->samples);
	G_OBJECT_CLASS(sdt_rate_graph_parent_class)->finalize(object);
}

static void
sdt_rate_graph_init(SdtRateGraph *self)
{
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));

	self->samples = g_array_new(FALSE, TRUE, sizeof(SdtRatePoint));
	gtk_widget_set_size_request(GTK_WIDGET(self), 240, 120);
	atk_object_set_role(acc, ATK_ROLE_CHART);
	atk_object_set_name(acc, _("Transfer rate graph"));
	sdt_rate_graph_update_description(self);
}

static void
sdt_rate_graph_class_init(SdtRateGraphClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->finalize = sdt_rate_graph_finalize;
	widget_class->draw = sdt_rate_graph_draw;
	gtk_widget_class_set_css_name(widget_class, "sdtrategraph");
}
