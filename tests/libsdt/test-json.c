/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-json.h"

static void
test_json_format_double(void)
{
	const struct {
		gdouble value;
		const gchar *text;
	} cases[] = {
		{3.3, "3.3"},
		{3.30, "3.3"},
		{1.8, "1.8"},
		{25.0, "25.0"},
		{0.0, "0.0"},
		{-12.5, "-12.5"},
		{41.7, "41.7"},
		{0.1 + 0.2, "0.30000000000000004"}, /* a real difference is kept */
		{1e21, "1e+21"},
		{123456.78, "123456.78"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree gchar *text = sdt_json_format_double(cases[i].value);
		g_assert_cmpstr(text, ==, cases[i].text);
		g_assert_cmpfloat(g_ascii_strtod(text, NULL), ==, cases[i].value);
	}
}

/* json-glib alone writes 3.2999999999999998; the document reads back the same */
static void
test_json_to_string_numbers(void)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) node = NULL;
	g_autoptr(JsonNode) back = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = NULL;
	g_autofree gchar *compact = NULL;
	JsonObject *obj;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "signal_voltage");
	json_builder_add_double_value(b, 3.3);
	json_builder_set_member_name(b, "ceiling_mb_s");
	json_builder_add_double_value(b, 25.0);
	json_builder_set_member_name(b, "iops");
	json_builder_add_int_value(b, 1500);
	json_builder_set_member_name(b, "negative");
	json_builder_add_double_value(b, -0.7);
	/* numbers inside strings and names are text, not numbers */
	json_builder_set_member_name(b, "3.2999999999999998");
	json_builder_add_string_value(b, "says \"1.10000000000000009\" and \\ 2.5e3");
	json_builder_set_member_name(b, "list");
	json_builder_begin_array(b);
	json_builder_add_double_value(b, 0.1);
	json_builder_add_double_value(b, 1e-7);
	json_builder_add_null_value(b);
	json_builder_add_double_value(b, INFINITY);
	json_builder_add_double_value(b, -INFINITY);
	json_builder_add_double_value(b, NAN);
	json_builder_end_array(b);
	json_builder_end_object(b);
	node = json_builder_get_root(b);

	text = sdt_json_to_string(node, TRUE);
	g_test_message("%s", text);
	g_assert_nonnull(strstr(text, "\"signal_voltage\" : 3.3,"));
	g_assert_nonnull(strstr(text, "\"ceiling_mb_s\" : 25.0,"));
	g_assert_nonnull(strstr(text, "\"iops\" : 1500,"));
	g_assert_nonnull(strstr(text, "\"negative\" : -0.7,"));
	g_assert_nonnull(strstr(text, "\"3.2999999999999998\""));
	g_assert_nonnull(strstr(text, "\\\"1.10000000000000009\\\" and \\\\ 2.5e3"));
	g_assert_nonnull(strstr(text, "0.1,"));
	g_assert_nonnull(strstr(text, "1e-07,"));

	back = json_from_string(text, &error);
	g_assert_no_error(error);
	obj = json_node_get_object(back);
	g_assert_cmpfloat(json_object_get_double_member(obj, "signal_voltage"), ==, 3.3);
	g_assert_true(json_node_get_value_type(json_object_get_member(obj, "ceiling_mb_s")) ==
		      G_TYPE_DOUBLE);
	g_assert_cmpint(json_object_get_int_member(obj, "iops"), ==, 1500);
	g_assert_cmpstr(json_object_get_string_member(obj, "3.2999999999999998"),
			==,
			"says \"1.10000000000000009\" and \\ 2.5e3");
	g_assert_cmpfloat(
		json_array_get_double_element(json_object_get_array_member(obj, "list"), 1),
		==,
		1e-7);

	g_assert_true(JSON_NODE_HOLDS_NULL(
		json_array_get_element(json_object_get_array_member(obj, "list"), 3)));
	g_assert_true(JSON_NODE_HOLDS_NULL(
		json_array_get_element(json_object_get_array_member(obj, "list"), 5)));

	compact = sdt_json_to_string(node, FALSE);
	g_assert_nonnull(strstr(compact, "null,null,null,null]"));
	g_assert_nonnull(strstr(compact, "\"signal_voltage\":3.3,"));
}

int
main(int argc, char *argv[])
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/json/format-double", test_json_format_double);
	g_test_add_func("/sdtuner/json/to-string-numbers", test_json_to_string_numbers);
	return g_test_run();
}
