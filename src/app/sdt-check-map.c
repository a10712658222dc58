/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-check-map.h"

#define SDT_CHECK_MAP_BAR_HEIGHT 28
#define SDT_CHECK_MAP_GAP        8  /* between the bar and the legend */
#define SDT_CHECK_MAP_SWATCH     12 /* a legend entry's square */
#define SDT_CHECK_MAP_SPACING    18 /* between legend entries */

struct _SdtCheckMap {
	GtkDrawingArea parent_instance;
	gint64 claimed_bytes;
	GArray *runs; /* SdtClientMapRun */
};

G_DEFINE_TYPE(SdtCheckMap, sdt_check_map, GTK_TYPE_DRAWING_AREA)

/* the Tango palette, apart for colour-blind eyes by lightness too: data green, wrap red,
 * zeros orange, failures plum, changed butter, not probed light grey, unknown dark grey */
static const GdkRGBA sdt_check_map_colours[SDT_CLIENT_MAP_N_STATES] = {
	[SDT_CLIENT_MAP_OK] = {0.306, 0.604, 0.024, 1},
	[SDT_CLIENT_MAP_WRAP] = {0.800, 0.000, 0.000, 1},
	[SDT_CLIENT_MAP_ZEROS] = {0.961, 0.475, 0.000, 1},
	[SDT_CLIENT_MAP_FAIL] = {0.361, 0.208, 0.400, 1},
	[SDT_CLIENT_MAP_CORRUPTED] = {0.929, 0.831, 0.000, 1},
	[SDT_CLIENT_MAP_UNTESTED] = {0.827, 0.843, 0.812, 1},
	[SDT_CLIENT_MAP_OTHER] = {0.333, 0.341, 0.325, 1},
};

/* the legend: the states a check of a card can show, and any other the map holds */
static gboolean
sdt_check_map_in_legend(SdtCheckMap *self, SdtClientMapState state)
{
	if (state == SDT_CLIENT_MAP_OK || state == SDT_CLIENT_MAP_WRAP ||
	    state == SDT_CLIENT_MAP_ZEROS || state == SDT_CLIENT_MAP_FAIL ||
	    state == SDT_CLIENT_MAP_UNTESTED)
		return TRUE;
	for (guint i = 0; self->runs != NULL && i < self->runs->len; i++)
		if (g_array_index(self->runs, SdtClientMapRun, i).state == state)
			return TRUE;
	return FALSE;
}

/* lays the legend out in lines under the bar, @width wide; draws it on @cr unless NULL;
 * returns the height of the whole widget */
static gint
sdt_check_map_legend(SdtCheckMap *self, gint width, cairo_t *cr, const GdkRGBA *fg)
{
	GtkWidget *widget = GTK_WIDGET(self);
	gint x = 0;
	gint y = SDT_CHECK_MAP_BAR_HEIGHT + SDT_CHECK_MAP_GAP;
	gint line_height = SDT_CHECK_MAP_SWATCH;

	for (guint s = 0; s < SDT_CLIENT_MAP_N_STATES; s++) {
		g_autoptr(PangoLayout) layout = NULL;
		gint tw = 0;
		gint th = 0;
		gint entry;

		if (!sdt_check_map_in_legend(self, (SdtClientMapState) s))
			continue;
		layout = gtk_widget_create_pango_layout(
			widget,
			sdt_client_check_map_state_label((SdtClientMapState) s));
		pango_layout_get_pixel_size(layout, &tw, &th);
		entry = SDT_CHECK_MAP_SWATCH + 6 + tw;
		if (x > 0 && x + entry > width) {
			x = 0;
			y += line_height + 4;
			line_height = SDT_CHECK_MAP_SWATCH;
		}
		line_height = MAX(line_height, th);
		if (cr != NULL) {
			gdk_cairo_set_source_rgba(cr, &sdt_check_map_colours[s]);
			cairo_rectangle(cr,
					x + 0.5,
					y + (th - SDT_CHECK_MAP_SWATCH) / 2 + 0.5,
					SDT_CHECK_MAP_SWATCH - 1,
					SDT_CHECK_MAP_SWATCH - 1);
			cairo_fill_preserve(cr);
			cairo_set_source_rgba(cr, fg->red, fg->green, fg->blue, 0.6);
			cairo_set_line_width(cr, 1);
			cairo_stroke(cr);
			gdk_cairo_set_source_rgba(cr, fg);
			cairo_move_to(cr, x + SDT_CHECK_MAP_SWATCH + 6, y);
			pango_cairo_show_layout(cr, layout);
		}
		x += entry + SDT_CHECK_MAP_SPACING;
	}
	return y + line_height;
}

static gboolean
sdt_check_map_draw(GtkWidget *widget, cairo_t *cr)
{
	SdtCheckMap *self = SDT_CHECK_MAP(widget);
	GtkStyleContext *style = gtk_widget_get_style_context(widget);
	gint width = gtk_widget_get_allocated_width(widget);
	GdkRGBA fg;

	gtk_style_context_get_color(style, gtk_style_context_get_state(style), &fg);
	if (self->runs == NULL || self->runs->len == 0 || self->claimed_bytes <= 0 || width < 2)
		return FALSE;
	/* the card's whole claimed size: what no run covers is not probed */
	gdk_cairo_set_source_rgba(cr, &sdt_check_map_colours[SDT_CLIENT_MAP_UNTESTED]);
	cairo_rectangle(cr, 0, 0, width, SDT_CHECK_MAP_BAR_HEIGHT);
	cairo_fill(cr);
	for (guint i = 0; i < self->runs->len; i++) {
		const SdtClientMapRun *r = &g_array_index(self->runs, SdtClientMapRun, i);
		gdouble x0 = (gdouble) width * (gdouble) r->from / (gdouble) self->claimed_bytes;
		gdouble x1 = (gdouble) width * (gdouble) r->to / (gdouble) self->claimed_bytes;

		/* a run too short to see still gets a pixel: one failing block matters */
		if (x1 - x0 < 1)
			x1 = MIN(x0 + 1, width);
		gdk_cairo_set_source_rgba(cr, &sdt_check_map_colours[r->state]);
		cairo_rectangle(cr, x0, 0, x1 - x0, SDT_CHECK_MAP_BAR_HEIGHT);
		cairo_fill(cr);
	}
	cairo_set_source_rgba(cr, fg.red, fg.green, fg.blue, 0.6);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, 0.5, 0.5, width - 1, SDT_CHECK_MAP_BAR_HEIGHT - 1);
	cairo_stroke(cr);
	sdt_check_map_legend(self, width, cr, &fg);
	return FALSE;
}

static GtkSizeRequestMode
sdt_check_map_get_request_mode(GtkWidget *widget)
{
	return GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH;
}

static void
sdt_check_map_get_preferred_width(GtkWidget *widget, gint *minimum, gint *natural)
{
	*minimum = 200;
	*natural = 600;
}

static void
sdt_check_map_get_preferred_height_for_width(GtkWidget *widget,
					     gint width,
					     gint *minimum,
					     gint *natural)
{
	*minimum = *natural = sdt_check_map_legend(SDT_CHECK_MAP(widget), width, NULL, NULL);
}

static void
sdt_check_map_get_preferred_height(GtkWidget *widget, gint *minimum, gint *natural)
{
	sdt_check_map_get_preferred_height_for_width(widget, 600, minimum, natural);
}

void
sdt_check_map_set_map(SdtCheckMap *self, const SdtClientCheckMap *map)
{
	g_return_if_fail(SDT_IS_CHECK_MAP(self));
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));
	g_autofree gchar *words = map != NULL ? sdt_client_check_map_describe(map) : NULL;

	g_array_set_size(self->runs, 0);
	self->claimed_bytes = 0;
	if (map != NULL) {
		g_array_append_vals(self->runs, map->runs->data, map->runs->len);
		self->claimed_bytes = map->claimed_bytes;
	}
	atk_object_set_description(acc, words != NULL ? words : "");
	gtk_widget_queue_resize(GTK_WIDGET(self));
}

GtkWidget *
sdt_check_map_new(void)
{
	return g_object_new(SDT_TYPE_CHECK_MAP, NULL);
}

static void
sdt_check_map_finalize(GObject *object)
{
	SdtCheckMap *self = SDT_CHECK_MAP(object);

	g_array_unref(self->runs);
	G_OBJECT_CLASS(sdt_check_map_parent_class)->finalize(object);
}

static void
sdt_check_map_init(SdtCheckMap *self)
{
	AtkObject *acc = gtk_widget_get_accessible(GTK_WIDGET(self));

	self->runs = g_array_new(FALSE, FALSE, sizeof(SdtClientMapRun));
	gtk_widget_set_hexpand(GTK_WIDGET(self), TRUE);
	atk_object_set_role(acc, ATK_ROLE_CHART);
	atk_object_set_name(acc, _("Map of the card"));
}

static void
sdt_check_map_class_init(SdtCheckMapClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->finalize = sdt_check_map_finalize;
	widget_class->draw = sdt_check_map_draw;
	widget_class->get_request_mode = sdt_check_map_get_request_mode;
	widget_class->get_preferred_width = sdt_check_map_get_preferred_width;
	widget_class->get_preferred_height = sdt_check_map_get_preferred_height;
	widget_class->get_preferred_height_for_width = sdt_check_map_get_preferred_height_for_width;
}
