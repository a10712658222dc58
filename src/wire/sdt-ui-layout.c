/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-error.h"
#include "sdt-json.h"
#include "sdt-json-private.h"
#include "sdt-json-strict-private.h"
#include "sdt-ui-layout.h"
#include "sdt-ui-layout-private.h"

#define KEY_WINDOW_WIDTH     "window_width"
#define KEY_WINDOW_HEIGHT    "window_height"
#define KEY_LABELS           "labels"
#define KEY_TEXT             "text"
#define KEY_X                "x"
#define KEY_Y                "y"
#define KEY_WIDTH            "width"
#define KEY_HEIGHT           "height"
#define KEY_MIN_WIDTH        "min_width"
#define KEY_NATURAL_WIDTH    "natural_width"
#define KEY_HEIGHT_FOR_WIDTH "height_for_width"
#define KEY_WRAP             "wrap"
#define KEY_ELLIPSIZE        "ellipsize"
#define KEY_SCROLLED         "scrolled"
#define KEY_BUTTON           "button"
#define KEY_IN_VIEW          "in_view"

static void
sdt_ui_layout_label_free(gpointer data)
{
	SdtUiLayoutLabel *label = data;

	g_free(label->text);
	g_free(label);
}

static void
sdt_ui_layout_window_free(gpointer data)
{
	SdtUiLayoutWindow *window = data;

	g_ptr_array_unref(window->labels);
	g_free(window);
}

SdtUiLayout *
sdt_ui_layout_new(void)
{
	SdtUiLayout *layout = g_new0(SdtUiLayout, 1);

	layout->windows = g_ptr_array_new_with_free_func(sdt_ui_layout_window_free);
	return layout;
}

void
sdt_ui_layout_free(SdtUiLayout *layout)
{
	if (layout == NULL)
		return;
	g_ptr_array_unref(layout->windows);
	g_free(layout);
}

SdtUiLayoutWindow *
sdt_ui_layout_add_window(SdtUiLayout *layout, gint64 width, gint64 height)
{
	SdtUiLayoutWindow *window;

	g_return_val_if_fail(layout != NULL, NULL);

	window = g_new0(SdtUiLayoutWindow, 1);
	window->width = width;
	window->height = height;
	window->labels = g_ptr_array_new_with_free_func(sdt_ui_layout_label_free);
	g_ptr_array_add(layout->windows, window);
	return window;
}

SdtUiLayoutLabel *
sdt_ui_layout_add_label(SdtUiLayoutWindow *window, const gchar *text)
{
	SdtUiLayoutLabel *label;

	g_return_val_if_fail(window != NULL, NULL);

	label = g_new0(SdtUiLayoutLabel, 1);
	label->text = g_strdup(text);
	g_ptr_array_add(window->labels, label);
	return label;
}

/* the reading direction: absent or null is 0 or FALSE, a wrong type an error */

static gboolean
sdt_ui_layout_read_label(JsonObject *o, const gchar *at, SdtUiLayoutLabel *l, GError **error)
{
	return sdt_json_strict_string(o, at, KEY_TEXT, &l->text, error) &&
	       sdt_json_strict_int(o, at, KEY_X, 0, &l->x, error) &&
	       sdt_json_strict_int(o, at, KEY_Y, 0, &l->y, error) &&
	       sdt_json_strict_int(o, at, KEY_WIDTH, 0, &l->width, error) &&
	       sdt_json_strict_int(o, at, KEY_HEIGHT, 0, &l->height, error) &&
	       sdt_json_strict_int(o, at, KEY_MIN_WIDTH, 0, &l->min_width, error) &&
	       sdt_json_strict_int(o, at, KEY_NATURAL_WIDTH, 0, &l->natural_width, error) &&
	       sdt_json_strict_int(o, at, KEY_HEIGHT_FOR_WIDTH, 0, &l->height_for_width, error) &&
	       sdt_json_strict_bool(o, at, KEY_WRAP, FALSE, &l->wrap, error) &&
	       sdt_json_strict_bool(o, at, KEY_ELLIPSIZE, FALSE, &l->ellipsize, error) &&
	       sdt_json_strict_bool(o, at, KEY_SCROLLED, FALSE, &l->scrolled, error) &&
	       sdt_json_strict_bool(o, at, KEY_BUTTON, FALSE, &l->button, error) &&
	       sdt_json_strict_bool(o, at, KEY_IN_VIEW, FALSE, &l->in_view, error);
}

static gboolean
sdt_ui_layout_read_window(JsonObject *o, const gchar *at, SdtUiLayout *layout, GError **error)
{
	gint64 width = 0;
	gint64 height = 0;
	JsonArray *labels = NULL;
	SdtUiLayoutWindow *window;

	if (!sdt_json_strict_int(o, at, KEY_WINDOW_WIDTH, 0, &width, error) ||
	    !sdt_json_strict_int(o, at, KEY_WINDOW_HEIGHT, 0, &height, error) ||
	    !sdt_json_strict_array(o, at, KEY_LABELS, &labels, error))
		return FALSE;
	window = sdt_ui_layout_add_window(layout, width, height);
	for (guint i = 0; labels != NULL && i < json_array_get_length(labels); i++) {
		g_autofree gchar *lat = sdt_json_strict_element(at, KEY_LABELS, i);
		JsonObject *lo = sdt_json_strict_element_object(json_array_get_element(labels, i),
								lat,
								error);
		if (lo == NULL || !sdt_ui_layout_read_label(lo,
							    lat,
							    sdt_ui_layout_add_label(window, NULL),
							    error))
			return FALSE;
	}
	return TRUE;
}

SdtUiLayout *
sdt_ui_layout_from_json(JsonArray *windows, GError **error)
{
	g_autoptr(SdtUiLayout) layout = sdt_ui_layout_new();

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(windows != NULL, NULL);

	for (guint i = 0; i < json_array_get_length(windows); i++) {
		g_autofree gchar *at = g_strdup_printf("[%u]", i);
		JsonObject *o = sdt_json_strict_element_object(json_array_get_element(windows, i),
							       at,
							       error);
		if (o == NULL || !sdt_ui_layout_read_window(o, at, layout, error))
			return NULL;
	}
	return g_steal_pointer(&layout);
}

SdtUiLayout *
sdt_ui_layout_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error_local = NULL;
	JsonNode *root;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	if (!json_parser_load_from_data(parser, text, -1, &error_local)) {
		g_autofree gchar *where = sdt_json_parse_problem(error_local);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("The layout report is not valid JSON: %s"),
			    where);
		return NULL;
	}
	root = json_parser_get_root(parser);
	if (root == NULL || !JSON_NODE_HOLDS_ARRAY(root)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("The layout report is not an array of windows"));
		return NULL;
	}
	return sdt_ui_layout_from_json(json_node_get_array(root), error);
}

/* the writing direction: the members in the order the GUI tests have always read */

static void
sdt_ui_layout_put_label(JsonBuilder *b, const SdtUiLayoutLabel *l)
{
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, KEY_TEXT, l->text);
	sdt_json_put_int(b, KEY_X, l->x);
	sdt_json_put_int(b, KEY_Y, l->y);
	sdt_json_put_int(b, KEY_WIDTH, l->width);
	sdt_json_put_int(b, KEY_HEIGHT, l->height);
	sdt_json_put_int(b, KEY_MIN_WIDTH, l->min_width);
	sdt_json_put_int(b, KEY_NATURAL_WIDTH, l->natural_width);
	sdt_json_put_int(b, KEY_HEIGHT_FOR_WIDTH, l->height_for_width);
	sdt_json_put_bool(b, KEY_WRAP, l->wrap);
	sdt_json_put_bool(b, KEY_ELLIPSIZE, l->ellipsize);
	sdt_json_put_bool(b, KEY_SCROLLED, l->scrolled);
	sdt_json_put_bool(b, KEY_BUTTON, l->button);
	sdt_json_put_bool(b, KEY_IN_VIEW, l->in_view);
	json_builder_end_object(b);
}

JsonNode *
sdt_ui_layout_to_json(const SdtUiLayout *layout)
{
	g_autoptr(JsonBuilder) b = json_builder_new();

	g_return_val_if_fail(layout != NULL, NULL);

	json_builder_begin_array(b);
	for (guint i = 0; i < layout->windows->len; i++) {
		const SdtUiLayoutWindow *w = g_ptr_array_index(layout->windows, i);
		json_builder_begin_object(b);
		sdt_json_put_int(b, KEY_WINDOW_WIDTH, w->width);
		sdt_json_put_int(b, KEY_WINDOW_HEIGHT, w->height);
		json_builder_set_member_name(b, KEY_LABELS);
		json_builder_begin_array(b);
		for (guint j = 0; j < w->labels->len; j++)
			sdt_ui_layout_put_label(b, g_ptr_array_index(w->labels, j));
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	return json_builder_get_root(b);
}

gchar *
sdt_ui_layout_to_string(const SdtUiLayout *layout)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(layout != NULL, NULL);

	node = sdt_ui_layout_to_json(layout);
	return sdt_json_to_string(node, TRUE);
}
