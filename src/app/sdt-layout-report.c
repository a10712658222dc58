/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * For the GUI tests (tests/gui/test-gui-i18n.py): with SDTUNER_LAYOUT_REPORT=FILE
 * set, SIGUSR1 makes the app write FILE (JSON): the window's size and, for every
 * label on screen, its text, its allocation and the size it asks for. A German or
 * Japanese label is clipped when its allocation is narrower than its natural width
 * (or, wrapped, lower than the height its width needs), or when it lies outside the
 * window. Nothing of this runs unless the variable is set.
 */

#include "config.h"

#include <errno.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>

#include "sdt-layout-report.h"

static gboolean
sdt_layout_report_in_scrolled_window(GtkWidget *widget)
{
	return gtk_widget_get_ancestor(widget, GTK_TYPE_SCROLLED_WINDOW) != NULL;
}

/*
 * Whether all of @widget is on screen without scrolling: inside the visible
 * part of every scrolled window around it and inside the window itself.
 */
static gboolean
sdt_layout_report_in_view(GtkWidget *widget)
{
	gint w = gtk_widget_get_allocated_width(widget);
	gint h = gtk_widget_get_allocated_height(widget);

	for (GtkWidget *a = gtk_widget_get_parent(widget); a != NULL;
	     a = gtk_widget_get_parent(a)) {
		gint x = 0;
		gint y = 0;

		if (!GTK_IS_SCROLLED_WINDOW(a) && gtk_widget_get_parent(a) != NULL)
			continue;
		if (!gtk_widget_translate_coordinates(widget, a, 0, 0, &x, &y))
			return FALSE;
		if (x < 0 || y < 0 || x + w > gtk_widget_get_allocated_width(a) ||
		    y + h > gtk_widget_get_allocated_height(a))
			return FALSE;
	}
	return TRUE;
}

static void
sdt_layout_report_widget(GtkWidget *widget, gpointer user_data)
{
	JsonBuilder *builder = user_data;

	if (!gtk_widget_is_drawable(widget))
		return;
	if (GTK_IS_LABEL(widget) && gtk_label_get_text(GTK_LABEL(widget))[0] != '\0') {
		GtkWidget *toplevel = gtk_widget_get_toplevel(widget);
		GtkAllocation alloc;
		gint min_w, nat_w, min_h, nat_h;
		gint x = 0, y = 0;

		/* sizes asked for include the margins, the allocation does not */
		gint margin_x =
			gtk_widget_get_margin_start(widget) + gtk_widget_get_margin_end(widget);
		gint margin_y =
			gtk_widget_get_margin_top(widget) + gtk_widget_get_margin_bottom(widget);

		gtk_widget_get_allocation(widget, &alloc);
		gtk_widget_translate_coordinates(widget, toplevel, 0, 0, &x, &y);
		gtk_widget_get_preferred_width(widget, &min_w, &nat_w);
		gtk_widget_get_preferred_height_for_width(widget,
							  alloc.width + margin_x,
							  &min_h,
							  &nat_h);
		min_w -= margin_x;
		nat_w -= margin_x;
		min_h -= margin_y;
		json_builder_begin_object(builder);
		json_builder_set_member_name(builder, "text");
		json_builder_add_string_value(builder, gtk_label_get_text(GTK_LABEL(widget)));
		json_builder_set_member_name(builder, "x");
		json_builder_add_int_value(builder, x);
		json_builder_set_member_name(builder, "y");
		json_builder_add_int_value(builder, y);
		json_builder_set_member_name(builder, "width");
		json_builder_add_int_value(builder, alloc.width);
		json_builder_set_member_name(builder, "height");
		json_builder_add_int_value(builder, alloc.height);
		json_builder_set_member_name(builder, "min_width");
		json_builder_add_int_value(builder, min_w);
		json_builder_set_member_name(builder, "natural_width");
		json_builder_add_int_value(builder, nat_w);
		json_builder_set_member_name(builder, "height_for_width");
		json_builder_add_int_value(builder, min_h);
		json_builder_set_member_name(builder, "wrap");
		json_builder_add_boolean_value(builder, gtk_label_get_line_wrap(GTK_LABEL(widget)));
		json_builder_set_member_name(builder, "ellipsize");
		json_builder_add_boolean_value(builder,
					       gtk_label_get_ellipsize(GTK_LABEL(widget)) !=
						       PANGO_ELLIPSIZE_NONE);
		json_builder_set_member_name(builder, "scrolled");
		json_builder_add_boolean_value(builder,
					       sdt_layout_report_in_scrolled_window(widget));
		/* a button's label: the primary actions must be in view (test-gui-loop.py) */
		json_builder_set_member_name(builder, "button");
		json_builder_add_boolean_value(builder,
					       gtk_widget_get_ancestor(widget, GTK_TYPE_BUTTON) !=
						       NULL);
		json_builder_set_member_name(builder, "in_view");
		json_builder_add_boolean_value(builder, sdt_layout_report_in_view(widget));
		json_builder_end_object(builder);
	}
	if (GTK_IS_CONTAINER(widget))
		gtk_container_forall(GTK_CONTAINER(widget), sdt_layout_report_widget, builder);
}

static gboolean
sdt_layout_report_signal_cb(gpointer user_data)
{
	GtkApplication *app = user_data;
	const gchar *path = g_getenv("SDTUNER_LAYOUT_REPORT");
	g_autoptr(JsonBuilder) builder = json_builder_new();
	g_autoptr(JsonNode) root = NULL;
	g_autofree gchar *text = NULL;
	g_autofree gchar *tmp = NULL;
	g_autoptr(GError) error = NULL;

	json_builder_begin_array(builder);
	for (GList *l = gtk_application_get_windows(app); l != NULL; l = l->next) {
		GtkWidget *window = l->data;
		if (!gtk_widget_get_mapped(window))
			continue;
		json_builder_begin_object(builder);
		json_builder_set_member_name(builder, "window_width");
		json_builder_add_int_value(builder, gtk_widget_get_allocated_width(window));
		json_builder_set_member_name(builder, "window_height");
		json_builder_add_int_value(builder, gtk_widget_get_allocated_height(window));
		json_builder_set_member_name(builder, "labels");
		json_builder_begin_array(builder);
		sdt_layout_report_widget(window, builder);
		json_builder_end_array(builder);
		json_builder_end_object(builder);
	}
	json_builder_end_array(builder);
	root = json_builder_get_root(builder);
	text = json_to_string(root, TRUE);
	/* written whole, then renamed: the test never reads half a report */
	tmp = g_strconcat(path, ".tmp", NULL);
	if (!g_file_set_contents(tmp, text, -1, &error) || g_rename(tmp, path) != 0)
		g_warning("layout report: %s", error != NULL ? error->message : g_strerror(errno));
	return G_SOURCE_CONTINUE;
}

void
sdt_layout_report_install(GtkApplication *app)
{
	if (g_getenv("SDTUNER_LAYOUT_REPORT") == NULL)
		return;
	g_unix_signal_add(SIGUSR1, sdt_layout_report_signal_cb, app);
}
