/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The error document's codec (src/wire/sdt-error-report.c): `sdtunerctl --json` of a
 * failing command (an SD Tuner error, a GOption error) read back byte for byte; a member
 * of the wrong type refused by name; unknown members ignored; absent and null unknown.
 */

#include "sdt-error-report.h"
#include "sdt-error-report-private.h"
#include "wire-golden.h"

static gchar *
write_report(gconstpointer doc)
{
	return sdt_error_report_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       (WireGoldenParse) sdt_error_report_parse,
			       write_report,
			       (GDestroyNotify) sdt_error_report_free);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("error-report-not-found.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtErrorReport) report = sdt_error_report_parse(text, &error);

	g_assert_no_error(error);
	g_assert_cmpstr(report->name, ==, "org.example.SdTuner1.Error.NotFound");
	g_assert_cmpint(report->code, ==, 7);
	g_assert_true(g_str_has_prefix(report->message, "root directory"));
}

static void
test_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node =
		json_from_string("{\"error\": {\"name\": null, \"later\": 1}, \"more\": []}",
				 &error);
	g_autoptr(SdtErrorReport) report = NULL;

	g_assert_no_error(error);
	report = sdt_error_report_from_json(json_node_get_object(node), &error);
	g_assert_no_error(error);
	g_assert_null(report->name);
	g_assert_null(report->message);
	g_assert_cmpint(report->code, ==, 0);
	g_clear_pointer(&node, json_node_unref);
	node = sdt_error_report_to_json(report);
	g_assert_true(json_node_is_null(json_object_get_member(
		json_object_get_object_member(json_node_get_object(node), "error"),
		"message")));
}

static void
test_refused(void)
{
	static const gchar *const bad[][2] = {
		{"{}", "error"},
		{"{\"error\": \"x\"}", "error"},
		{"{\"error\": {\"name\": 1}}", "error.name"},
		{"{\"error\": {\"code\": \"7\"}}", "error.code"},
		{"{\"error\": {\"message\": []}}", "error.message"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_error_report_parse,
			    (GDestroyNotify) sdt_error_report_free);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"error-report-not-found.json",
					       "error-report-usage.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path =
			g_strdup_printf("/wire/error-report/golden/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
	}
	g_test_add_func("/wire/error-report/fields", test_fields);
	g_test_add_func("/wire/error-report/unknown", test_unknown);
	g_test_add_func("/wire/error-report/refused", test_refused);
	return g_test_run();
}
