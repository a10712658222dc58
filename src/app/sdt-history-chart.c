/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-chart-logic.h"
#include "sdt-history-chart.h"

typedef struct {
	gchar *title;
	gchar *unit;
	gdouble values[2];  /* before, after; < 0 not measured */
	gdouble spreads[2]; /* absolute, in @unit; < 0 unknown */
} SdtHistoryGroup;

struct _SdtHistoryChart {
	GtkDrawingArea parent_instance;
	GPtrArray *groups; /* of SdtHistoryGroup */
	gchar *before_label;
	gchar *after_label;
};

G_DEFINE_TYPE(SdtHistoryChart, sdt_history_chart, GTK_TYPE_DRAWING_AREA)

#define SDT_HISTORY_CHART_BAR_H   18.0
#define SDT_HISTORY_CHART_GAP     4.0
#define SDT_HISTORY_CHART_GROUP_H (24.0 + 2 * SDT_HISTORY_CHART_BAR_H + 2 * SDT_HISTORY_CHART_GAP)
#define SDT_HISTORY_CHART_LEGEND  28.0
#define SDT_HISTORY_CHART_VALUE_W 160.0 /* room for the printed value right of a bar */

static void
sdt_history_group_free(SdtHistoryGroup *group)
{
	g_free(group->title);
	g_free(group->unit);
	g_free(group);
}

static gchar *
sdt_history_chart_format(gdouble value, gdouble spread, const gchar *unit)
{
	if (value < 0 || !isfinite(value))
		return g_strdup(_("not measured"));
	if (spread >= 0 && isfinite(spread))
		/* Translators: a figure, its spread and its unit: "22.1 ± 0.3 MB/s" */
		return g_strdup_printf(value >= 100 ? _("%.0f ± %.0f %s") : _("%.1f ± %.1f %s"),
				       value,
				       spread,
				       unit);
	return g_strdup_printf(value >= 100 ? "%.0f %s" : "%.1f %s", value, unit);
}

static void
sdt_history_chart_update_accessible(SdtHistoryChart *self)
{
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));
	g_autoptr(GString) str = g_string_new(NULL);

	for (guint i = 0; i < self->groups->len; i++) {
		SdtHistoryGroup *g = g_ptr_array_index(self->groups, i);
		g_autofree gchar *before =
			sdt_history_chart_format(g->values[0], g->spreads[0], g->unit);
		g_autofree gchar *after =
			sdt_history_chart_format(g->values[1], g->spreads[1], g->unit);
		g_string_append_printf(str,
				       /* Translators: test, first label, its figure, second
					* label, its figure: "Sequential read: Before 22.1 MB/s,
					* After 40.3 MB/s. " */
				       _("%1$s: %2$s %3$s, %4$s %5$s. "),
				       g->title,
				       self->before_label,
				       before,
				       self->after_label,
				       after);
	}
	atk_object_set_description(acc,
				   str->len > 0 ? str->str : _("No benchmark results to compare"));
	gtk_widget_set_size_request(GTK_WIDGET(self),
				    280,
				    (gint) (SDT_HISTORY_CHART_LEGEND +
					    MAX(1, self->groups->len) * SDT_HISTORY_CHART_GROUP_H));
	gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void
sdt_history_chart_draw_text(GtkWidget *widget, cairo_t *cr, gdouble x, gdouble y, const gchar *text)
{
	PangoLayout *layout = gtk_widget_create_pango_layout(widget, text);
	cairo_move_to(cr, x, y);
	pango_cairo_show_layout(cr, layout);
	g_object_unref(layout);
}

static void
sdt_history_chart_draw_legend(GtkWidget *widget, cairo_t *cr, const GdkRGBA *colours[3])
{
	SdtHistoryChart *self = SDT_HISTORY_CHART(widget);

	gdk_cairo_set_source_rgba(cr, colours[0]);
	cairo_rectangle(cr, 0, 4, 14, 14);
	cairo_fill(cr);
	gdk_cairo_set_source_rgba(cr, colours[2]);
	sdt_history_chart_draw_text(widget, cr, 20, 2, self->before_label);
	gdk_cairo_set_source_rgba(cr, colours[1]);
	cairo_rectangle(cr, 160, 4, 14, 14);
	cairo_fill(cr);
	gdk_cairo_set_source_rgba(cr, colours[2]);
	sdt_history_chart_draw_text(widget, cr, 180, 2, self->after_label);
}

/* a bar of @w pixels at @y in @bar, and its error bar from @low to @high in @line */
static void
sdt_history_chart_draw_bar(cairo_t *cr,
			   gdouble y,
			   gdouble w,
			   gdouble low,
			   gdouble high,
			   const GdkRGBA *bar,
			   const GdkRGBA *line)
{
	gdouble mid = y + SDT_HISTORY_CHART_BAR_H / 2;

	gdk_cairo_set_source_rgba(cr, bar);
	cairo_rectangle(cr, 0, y, w, SDT_HISTORY_CHART_BAR_H);
	cairo_fill(cr);
	if (high <= low)
		return;
	gdk_cairo_set_source_rgba(cr, line);
	cairo_set_line_width(cr, 1.5);
	cairo_move_to(cr, low, mid);
	cairo_line_to(cr, high, mid);
	cairo_move_to(cr, low, y + 3);
	cairo_line_to(cr, low, y + SDT_HISTORY_CHART_BAR_H - 3);
	cairo_move_to(cr, high, y + 3);
	cairo_line_to(cr, high, y + SDT_HISTORY_CHART_BAR_H - 3);
	cairo_stroke(cr);
}

/* one test: its title, then the two bars on the group's own scale */
static gdouble
sdt_history_chart_draw_group(GtkWidget *widget,
			     cairo_t *cr,
			     const SdtHistoryGroup *g,
			     gdouble y,
			     const GdkRGBA *colours[3])
{
	gdouble width = gtk_widget_get_allocated_width(widget);
	gdouble bar_max = MAX(width - SDT_HISTORY_CHART_VALUE_W, 10);
	gdouble max = 0;

	for (guint j = 0; j < 2; j++)
		max = MAX(max, g->values[j] + MAX(g->spreads[j], 0));
	gdk_cairo_set_source_rgba(cr, colours[2]);
	sdt_history_chart_draw_text(widget, cr, 0, y, g->title);
	y += 24.0;
	for (guint j = 0; j < 2; j++) {
		g_autofree gchar *text =
			sdt_history_chart_format(g->values[j], g->spreads[j], g->unit);
		gdouble low;
		gdouble high;
		gdouble w;

		sdt_chart_logic_error_bar(g->values[j], g->spreads[j], max, bar_max, &low, &high);
		sdt_chart_logic_error_bar(g->values[j], 0, max, bar_max, &w, &w);
		sdt_history_chart_draw_bar(cr, y, w, low, high, colours[j], colours[2]);
		gdk_cairo_set_source_rgba(cr, colours[2]);
		sdt_history_chart_draw_text(widget, cr, MAX(w, high) + 6, y, text);
		y += SDT_HISTORY_CHART_BAR_H + SDT_HISTORY_CHART_GAP;
	}
	return y;
}

static gboolean
sdt_history_chart_draw(GtkWidget *widget, cairo_t *cr)
{
	SdtHistoryChart *self = SDT_HISTORY_CHART(widget);
	GtkStyleContext *style = gtk_widget_get_style_context(widget);
	const GdkRGBA before_rgba = {0.60, 0.60, 0.60, 1.0};
	const GdkRGBA after_rgba = {0.21, 0.52, 0.89, 1.0};
	GdkRGBA fg;
	const GdkRGBA *colours[3] = {&before_rgba, &after_rgba, &fg};
	gdouble y = SDT_HISTORY_CHART_LEGEND;

	gtk_render_background(style,
			      cr,
			      0,
			      0,
			      gtk_widget_get_allocated_width(widget),
			      gtk_widget_get_allocated_height(widget));
	gtk_style_context_get_color(style, gtk_style_context_get_state(style), &fg);
	sdt_history_chart_draw_legend(widget, cr, colours);
	for (guint i = 0; i < self->groups->len; i++)
		y = sdt_history_chart_draw_group(widget,
						 cr,
						 g_ptr_array_index(self->groups, i),
						 y,
						 colours);
	return FALSE;
}

void
sdt_history_chart_clear(SdtHistoryChart *self)
{
	g_return_if_fail(SDT_IS_HISTORY_CHART(self));
	g_ptr_array_set_size(self->groups, 0);
	sdt_history_chart_update_accessible(self);
}

void
sdt_history_chart_add_group(SdtHistoryChart *self,
			    const gchar *title,
			    const gchar *unit,
			    const gdouble values[2],
			    const gdouble spreads[2])
{
	SdtHistoryGroup *group;

	g_return_if_fail(SDT_IS_HISTORY_CHART(self));
	group = g_new0(SdtHistoryGroup, 1);
	group->title = g_strdup(title);
	group->unit = g_strdup(unit);
	for (guint j = 0; j < 2; j++) {
		group->values[j] = isfinite(values[j]) ? values[j] : -1;
		group->spreads[j] = isfinite(spreads[j]) ? spreads[j] : -1;
	}
	g_ptr_array_add(self->groups, group);
	sdt_history_chart_update_accessible(self);
}

void
sdt_history_chart_set_labels(SdtHistoryChart *self,
			     const gchar *before_label,
			     const gchar *after_label)
{
	g_return_if_fail(SDT_IS_HISTORY_CHART(self));
	g_free(self->before_label);
	g_free(self->after_label);
	self->before_label = g_strdup(before_label);
	self->after_label = g_strdup(after_label);
	sdt_history_chart_update_accessible(self);
}

static void
sdt_history_chart_finalize(GObject *object)
{
	SdtHistoryChart *self = SDT_HISTORY_CHART(object);
	g_ptr_array_unref(self->groups);
	g_free(self->before_label);
	g_free(self->after_label);
	G_OBJECT_CLASS(sdt_history_chart_parent_class)->finalize(object);
}

static void
sdt_history_chart_init(SdtHistoryChart *self)
{
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));

	self->groups = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_group_free);
	self->before_label = g_strdup(_("Before"));
	self->after_label = g_strdup(_("After"));
	atk_object_set_role(acc, ATK_ROLE_CHART);
	atk_object_set_name(acc, _("Before and after chart"));
	sdt_history_chart_update_accessible(self);
}

static void
sdt_history_chart_class_init(SdtHistoryChartClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->finalize = sdt_history_chart_finalize;
	widget_class->draw = sdt_history_chart_draw;
	gtk_widget_class_set_css_name(widget_class, "sdthistorychart");
}
