/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The app's layout report's codec (src/wire/sdt-ui-layout.c, what the GUI tests read):
 * two windows, one without labels, and no window read back byte for byte; a member of
 * the wrong type refused by name; unknown members ignored; absent and null read as 0.
 */

#include "sdt-ui-layout.h"
#include "sdt-ui-layout-private.h"
#include "wire-golden.h"

static gchar *
write_layout(gconstpointer doc)
{
	return sdt_ui_layout_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       (WireGoldenParse) sdt_ui_layout_parse,
			       write_layout,
			       (GDestroyNotify) sdt_ui_layout_free);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("ui-layout-two-windows.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtUiLayout) layout = sdt_ui_layout_parse(text, &error);
	const SdtUiLayoutWindow *w;
	const SdtUiLayoutLabel *l;

	g_assert_no_error(error);
	g_assert_cmpuint(layout->windows->len, ==, 2);
	w = g_ptr_array_index(layout->windows, 0);
	g_assert_cmpint(w->width, ==, 800);
	g_assert_cmpuint(w->labels->len, ==, 4);
	l = g_ptr_array_index(w->labels, 2);
	g_assert_cmpstr(l->text, ==, "_Check");
	g_assert_true(l->button && l->in_view && !l->wrap);
	l = g_ptr_array_index(w->labels, 3);
	g_assert_cmpint(l->x, ==, -5);
	g_assert_true(l->ellipsize && l->scrolled && !l->in_view);
}

static void
test_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = json_from_string(
		"[{\"labels\": [{\"text\": \"a\", \"x\": null, \"later\": 1}], \"more\": 2}]",
		&error);
	g_autoptr(SdtUiLayout) layout = NULL;
	const SdtUiLayoutLabel *l;
	g_autoptr(JsonNode) again = NULL;

	g_assert_no_error(error);
	layout = sdt_ui_layout_from_json(json_node_get_array(node), &error);
	g_assert_no_error(error);
	l = g_ptr_array_index(((SdtUiLayoutWindow *) g_ptr_array_index(layout->windows, 0))->labels,
			      0);
	g_assert_cmpint(l->x, ==, 0);
	g_assert_false(l->in_view);
	again = sdt_ui_layout_to_json(layout);
	g_assert_cmpuint(json_array_get_length(json_node_get_array(again)), ==, 1);
}

static void
test_refused(void)
{
	static const gchar *const bad[][2] = {
		{"{}", "not an array"},
		{"[1]", "[0]"},
		{"[{\"window_width\": \"800\"}]", "[0].window_width"},
		{"[{\"labels\": {}}]", "[0].labels"},
		{"[{\"labels\": [true]}]", "[0].labels[0]"},
		{"[{\"labels\": [{\"text\": 5}]}]", "[0].labels[0].text"},
		{"[{\"labels\": [{\"y\": 1.5}]}]", "[0].labels[0].y"},
		{"[{\"labels\": [{\"in_view\": 1}]}]", "[0].labels[0].in_view"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_ui_layout_parse,
			    (GDestroyNotify) sdt_ui_layout_free);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"ui-layout-two-windows.json", "ui-layout-none.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path = g_strdup_printf("/wire/ui-layout/golden/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
	}
	g_test_add_func("/wire/ui-layout/fields", test_fields);
	g_test_add_func("/wire/ui-layout/unknown", test_unknown);
	g_test_add_func("/wire/ui-layout/refused", test_refused);
	return g_test_run();
}
