/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-error.h"
#include "sdt-json.h"
#include "sdt-utf8.h"

/* issue 9 item 6: whatever bytes a file held, JSON and messages leave as UTF-8 */
static void
test_utf8_sanitize_json(void)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(JsonNode) node = NULL;
	g_autofree gchar *text = NULL;
	g_autoptr(JsonNode) back = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GList) members = NULL;
	JsonObject *obj;
	JsonArray *array;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "first");
	json_builder_add_string_value(b,
				      "# \xdc"
				      "bertaktung");
	json_builder_set_member_name(b,
				     "bad\xff"
				     "name");
	json_builder_add_int_value(b, 7);
	json_builder_set_member_name(b, "list");
	json_builder_begin_array(b);
	json_builder_add_string_value(b, "ok ✓");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "text");
	json_builder_add_string_value(b, "dtparam=sd_cqe=1 # Ger\xe4t");
	json_builder_end_object(b);
	json_builder_add_null_value(b);
	json_builder_end_array(b);
	json_builder_set_member_name(b, "last");
	json_builder_add_string_value(b, "fine");
	json_builder_end_object(b);
	node = json_builder_get_root(b);

	g_assert_cmpuint(sdt_json_sanitize_utf8(node), ==, 3);
	/* a second pass finds nothing left */
	g_assert_cmpuint(sdt_json_sanitize_utf8(node), ==, 0);
	text = json_to_string(node, FALSE);
	g_assert_true(g_utf8_validate(text, -1, NULL));
	back = json_from_string(text, &error);
	g_assert_no_error(error);
	obj = json_node_get_object(back);
	g_assert_cmpstr(json_object_get_string_member(obj, "first"), ==, "# \uFFFDbertaktung");
	g_assert_cmpint(json_object_get_int_member(obj, "bad\uFFFDname"), ==, 7);
	array = json_object_get_array_member(obj, "list");
	g_assert_cmpstr(json_array_get_string_element(array, 0), ==, "ok ✓");
	g_assert_cmpstr(
		json_object_get_string_member(json_array_get_object_element(array, 1), "text"),
		==,
		"dtparam=sd_cqe=1 # Ger\uFFFDt");
	/* the order of the members is kept when one is renamed */
	members = json_object_get_members(obj);
	g_assert_cmpstr(g_list_nth_data(members, 0), ==, "first");
	g_assert_cmpstr(g_list_nth_data(members, 1), ==, "bad\uFFFDname");
	g_assert_cmpstr(g_list_nth_data(members, 3), ==, "last");
}

static void
test_utf8_sanitize_error(void)
{
	g_autoptr(GError) error = g_error_new(SDT_ERROR,
					      SDT_ERROR_INVALID_DATA,
					      "line 3 “%s” opens a filter",
					      "[pi\xe4");
	g_autoptr(GError) fine = g_error_new_literal(SDT_ERROR, SDT_ERROR_FAILED, "all “fine”");

	g_assert_false(g_utf8_validate(error->message, -1, NULL));
	sdt_utf8_sanitize_error(error);
	g_assert_cmpstr(error->message, ==, "line 3 “[pi\uFFFD” opens a filter");
	sdt_utf8_sanitize_error(fine);
	g_assert_cmpstr(fine->message, ==, "all “fine”");
	sdt_utf8_sanitize_error(NULL);
	g_assert_null(sdt_utf8_make_valid(NULL, -1));
	g_assert_cmpstr(sdt_utf8_make_valid("a\x80z", 3), ==, "a\uFFFDz");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/utf8/sanitize-json", test_utf8_sanitize_json);
	g_test_add_func("/sdtuner/utf8/sanitize-error", test_utf8_sanitize_error);
	return g_test_run();
}
