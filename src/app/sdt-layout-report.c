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
#include <signal.h>

#include "sdt-layout-report.h"
#include "sdt-ui-layout.h"

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
	SdtUiLayoutWindow *window = user_data;

	if (!gtk_widget_is_drawable(widget))
		return;
	if (GTK_IS_LABEL(widget) && gtk_label_get_text(GTK_LABEL(widget))[0] != '\0') {
		GtkWidget *toplevel = gtk_widget_get_toplevel(widget);
		SdtUiLayoutLabel *l =
			sdt_ui_layout_add_label(window, gtk_label_get_text(GTK_LABEL(widget)));
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
		l->x = x;
		l->y = y;
		l->width = alloc.width;
		l->height = alloc.height;
		l->min_width = min_w - margin_x;
		l->natural_width = nat_w - margin_x;
		l->height_for_width = min_h - margin_y;
		l->wrap = gtk_label_get_line_wrap(GTK_LABEL(widget));
		l->ellipsize = gtk_label_get_ellipsize(GTK_LABEL(widget)) != PANGO_ELLIPSIZE_NONE;
		l->scrolled = sdt_layout_report_in_scrolled_window(widget);
		/* a button's label: the primary actions must be in view (test-gui-loop.py) */
		l->button = gtk_widget_get_ancestor(widget, GTK_TYPE_BUTTON) != NULL;
		l->in_view = sdt_layout_report_in_view(widget);
	}
	if (GTK_IS_CONTAINER(widget))
		gtk_container_forall(GTK_CONTAINER(widget), sdt_layout_report_widget, window);
}

static gboolean
sdt_layout_report_signal_cb(gpointer user_data)
{
	GtkApplication *app = user_data;
	const gchar *path = g_getenv("SDTUNER_LAYOUT_REPORT");
	g_autoptr(SdtUiLayout) layout = sdt_ui_layout_new();
	g_autofree gchar *text = NULL;
	g_autofree gchar *tmp = NULL;
	g_autoptr(GError) error = NULL;

	for (GList *l = gtk_application_get_windows(app); l != NULL; l = l->next) {
		GtkWidget *window = l->data;
		if (!gtk_widget_get_mapped(window))
			continue;
		sdt_layout_report_widget(
			window,
			sdt_ui_layout_add_window(layout,
						 gtk_widget_get_allocated_width(window),
						 gtk_widget_get_allocated_height(window)));
	}
	text = sdt_ui_layout_to_string(layout);
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
