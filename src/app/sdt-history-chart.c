/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-history-chart.h"

typedef struct {
	gchar *title;
	gchar *unit;
	gdouble before;
	gdouble after;
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

static void
sdt_history_group_free(SdtHistoryGroup *group)
{
	g_free(group->title);
	g_free(group->unit);
	g_free(group);
}

static gchar *
sdt_history_chart_format(gdouble value, const gchar *unit)
{
	if (value < 0 || !isfinite(value))
		return g_strdup(_("not measured"));
	return g_strdup_printf(value >= 100 ? "%.0f %s" : "%.1f %s", value, unit);
}

static void
sdt_history_chart_update_accessible(SdtHistoryChart *self)
{
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));
	g_autoptr(GString) str = g_string_new(NULL);

	for (guint i = 0; i < self->groups->len; i++) {
		SdtHistoryGroup *g = g_ptr_array_index(self->groups, i);
		g_autofree gchar *before = sdt_history_chart_format(g->before, g->unit);
		g_autofree gchar *after = sdt_history_chart_format(g->after, g->unit);
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

static gboolean
sdt_history_chart_draw(GtkWidget *widget, cairo_t *cr)
{
	SdtHistoryChart *self = SDT_HISTORY_CHART(widget);
	GtkStyleContext *style = gtk_widget_get_style_context(widget);
	gdouble width = gtk_widget_get_allocated_width(widget);
	gdouble height = gtk_widget_get_allocated_height(widget);
	const GdkRGBA before_rgba = {0.60, 0.60, 0.60, 1.0};
	const GdkRGBA after_rgba = {0.21, 0.52, 0.89, 1.0};
	gdouble value_w = 110.0; /* room for the printed value right of a bar */
	gdouble y = 0;
	GdkRGBA fg;

	gtk_render_background(style, cr, 0, 0, width, height);
	gtk_style_context_get_color(style, gtk_style_context_get_state(style), &fg);

	/* legend */
	gdk_cairo_set_source_rgba(cr, &before_rgba);
	cairo_rectangle(cr, 0, y + 4, 14, 14);
	cairo_fill(cr);
	gdk_cairo_set_source_rgba(cr, &fg);
	sdt_history_chart_draw_text(widget, cr, 20, y + 2, self->before_label);
	gdk_cairo_set_source_rgba(cr, &after_rgba);
	cairo_rectangle(cr, 160, y + 4, 14, 14);
	cairo_fill(cr);
	gdk_cairo_set_source_rgba(cr, &fg);
	sdt_history_chart_draw_text(widget, cr, 180, y + 2, self->after_label);
	y += SDT_HISTORY_CHART_LEGEND;

	for (guint i = 0; i < self->groups->len; i++) {
		SdtHistoryGroup *g = g_ptr_array_index(self->groups, i);
		gdouble max = MAX(g->before, g->after);
		gdouble bar_max = MAX(width - value_w, 10);
		gdouble values[2] = {g->before, g->after};
		const GdkRGBA *colours[2] = {&before_rgba, &after_rgba};

		gdk_cairo_set_source_rgba(cr, &fg);
		sdt_history_chart_draw_text(widget, cr, 0, y, g->title);
		y += 24.0;
		for (guint j = 0; j < 2; j++) {
			g_autofree gchar *text = sdt_history_chart_format(values[j], g->unit);
			gdouble w = values[j] > 0 && max > 0 ? bar_max * values[j] / max : 0;

			gdk_cairo_set_source_rgba(cr, colours[j]);
			cairo_rectangle(cr, 0, y, w, SDT_HISTORY_CHART_BAR_H);
			cairo_fill(cr);
			gdk_cairo_set_source_rgba(cr, &fg);
			sdt_history_chart_draw_text(widget, cr, w + 6, y, text);
			y += SDT_HISTORY_CHART_BAR_H + SDT_HISTORY_CHART_GAP;
		}
	}
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
			    gdouble before,
			    gdouble after)
{
	SdtHistoryGroup *group;

	g_return_if_fail(SDT_IS_HISTORY_CHART(self));
	group = g_new0(SdtHistoryGroup, 1);
	group->title = g_strdup(title);
	group->unit = g_strdup(unit);
	group->before = isfinite(before) ? before : -1;
	group->after = isfinite(after) ? after : -1;
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

GtkWidget *
sdt_history_chart_new(void)
{
	return g_object_new(SDT_TYPE_HISTORY_CHART, NULL);
}
