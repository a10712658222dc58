/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sdt-rate-graph.h"

typedef struct {
	gdouble progress;
	gdouble rate;
	gboolean write;
} SdtRateSample;

struct _SdtRateGraph {
	GtkDrawingArea parent_instance;
	GArray *samples; /* of SdtRateSample */
	gdouble max_rate;
};

G_DEFINE_TYPE(SdtRateGraph, sdt_rate_graph, GTK_TYPE_DRAWING_AREA)

#define SDT_RATE_GRAPH_MARGIN_LEFT   56.0
#define SDT_RATE_GRAPH_MARGIN_BOTTOM 8.0
#define SDT_RATE_GRAPH_MARGIN_TOP    8.0
#define SDT_RATE_GRAPH_MARGIN_RIGHT  8.0

/* the smallest 1, 2 or 5 x 10^n at or above @value, so the axis reads well */
static gdouble
sdt_rate_graph_nice_ceiling(gdouble value)
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

static void
sdt_rate_graph_update_description(SdtRateGraph *self)
{
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));
	g_autofree gchar *text = NULL;

	if (self->samples->len == 0) {
		text = g_strdup(_("No benchmark has run yet"));
	} else {
		SdtRateSample *last =
			&g_array_index(self->samples, SdtRateSample, self->samples->len - 1);
		/* Translators: accessible description of the live rate graph */
		text = g_strdup_printf(_("Current rate %.1f MB/s, highest %.1f MB/s"),
				       last->rate,
				       self->max_rate);
	}
	atk_object_set_description(acc, text);
}

static gboolean
sdt_rate_graph_draw(GtkWidget *widget, cairo_t *cr)
{
	SdtRateGraph *self = SDT_RATE_GRAPH(widget);
	GtkStyleContext *style = gtk_widget_get_style_context(widget);
	gdouble width = gtk_widget_get_allocated_width(widget);
	gdouble height = gtk_widget_get_allocated_height(widget);
	gdouble plot_w = width - SDT_RATE_GRAPH_MARGIN_LEFT - SDT_RATE_GRAPH_MARGIN_RIGHT;
	gdouble plot_h = height - SDT_RATE_GRAPH_MARGIN_TOP - SDT_RATE_GRAPH_MARGIN_BOTTOM;
	gdouble top = sdt_rate_graph_nice_ceiling(self->max_rate);
	GdkRGBA fg;
	const GdkRGBA write_rgba = {0.90, 0.38, 0.00, 1.0}; /* orange */
	const GdkRGBA read_rgba = {0.21, 0.52, 0.89, 1.0};  /* blue */

	gtk_render_background(style, cr, 0, 0, width, height);
	if (plot_w <= 0 || plot_h <= 0)
		return FALSE;
	gtk_style_context_get_color(style, gtk_style_context_get_state(style), &fg);

	/* horizontal grid lines with their MB/s labels */
	cairo_set_line_width(cr, 1.0);
	for (guint i = 0; i <= 4; i++) {
		gdouble y = SDT_RATE_GRAPH_MARGIN_TOP + plot_h - plot_h * i / 4.0;
		g_autofree gchar *label = g_strdup_printf("%g", top * i / 4.0);
		PangoLayout *layout = gtk_widget_create_pango_layout(widget, label);
		gint lw;
		gint lh;

		cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.15);
		cairo_move_to(cr, SDT_RATE_GRAPH_MARGIN_LEFT, floor(y) + 0.5);
		cairo_line_to(cr, SDT_RATE_GRAPH_MARGIN_LEFT + plot_w, floor(y) + 0.5);
		cairo_stroke(cr);

		pango_layout_get_pixel_size(layout, &lw, &lh);
		cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.7);
		cairo_move_to(cr, SDT_RATE_GRAPH_MARGIN_LEFT - 6 - lw, y - lh / 2.0);
		pango_cairo_show_layout(cr, layout);
		g_object_unref(layout);
	}
	{
		PangoLayout *layout = gtk_widget_create_pango_layout(widget, _("MB/s"));
		cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.7);
		cairo_move_to(cr, SDT_RATE_GRAPH_MARGIN_LEFT + 6, SDT_RATE_GRAPH_MARGIN_TOP);
		pango_cairo_show_layout(cr, layout);
		g_object_unref(layout);
	}

	/* the rate line, one segment per pair of samples, coloured by phase */
	cairo_set_line_width(cr, 2.0);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (guint i = 1; i < self->samples->len; i++) {
		SdtRateSample *a = &g_array_index(self->samples, SdtRateSample, i - 1);
		SdtRateSample *b = &g_array_index(self->samples, SdtRateSample, i);
		const GdkRGBA *rgba = b->write ? &write_rgba : &read_rgba;

		gdk_cairo_set_source_rgba(cr, rgba);
		cairo_move_to(cr,
			      SDT_RATE_GRAPH_MARGIN_LEFT + plot_w * a->progress,
			      SDT_RATE_GRAPH_MARGIN_TOP + plot_h - plot_h * a->rate / top);
		cairo_line_to(cr,
			      SDT_RATE_GRAPH_MARGIN_LEFT + plot_w * b->progress,
			      SDT_RATE_GRAPH_MARGIN_TOP + plot_h - plot_h * b->rate / top);
		cairo_stroke(cr);
	}
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
			  gdouble progress,
			  gdouble rate_mb_s,
			  const gchar *phase)
{
	SdtRateSample sample = {0};

	g_return_if_fail(SDT_IS_RATE_GRAPH(self));

	/* a broken sample must not wreck the scale */
	if (!isfinite(progress) || !isfinite(rate_mb_s) || rate_mb_s < 0)
		return;
	sample.progress = CLAMP(progress, 0.0, 1.0);
	sample.rate = rate_mb_s;
	sample.write = phase != NULL && strstr(phase, "write") != NULL;
	g_array_append_val(self->samples, sample);
	self->max_rate = MAX(self->max_rate, rate_mb_s);
	sdt_rate_graph_update_description(self);
	gtk_widget_queue_draw(GTK_WIDGET(self));
}

guint
sdt_rate_graph_get_n_samples(SdtRateGraph *self)
{
	g_return_val_if_fail(SDT_IS_RATE_GRAPH(self), 0);
	return self->samples->len;
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

	self->samples = g_array_new(FALSE, TRUE, sizeof(SdtRateSample));
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

GtkWidget *
sdt_rate_graph_new(void)
{
	return g_object_new(SDT_TYPE_RATE_GRAPH, NULL);
}
