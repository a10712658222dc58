/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The soak test's codec (src/wire/sdt-soak-report.c): `bench --profile soak --json` of a
 * real run on a stand-in, and a card's run that found bytes read back wrong, read back
 * byte for byte; a member of the wrong type refused by name; unknown members ignored;
 * absent and null read as unknown.
 */

#include <math.h>

#include "sdt-soak-report.h"
#include "sdt-soak-report-private.h"
#include "wire-golden.h"

static gchar *
write_report(gconstpointer doc)
{
	return sdt_soak_report_to_string(doc, TRUE);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       (WireGoldenParse) sdt_soak_report_parse,
			       write_report,
			       (GDestroyNotify) sdt_soak_report_free);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("soak-report-data-error.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtSoakReport) r = sdt_soak_report_parse(text, &error);

	g_assert_no_error(error);
	g_assert_cmpstr(r->target.device, ==, "mmcblk0");
	g_assert_false(r->target.stand_in);
	g_assert_cmpstr(r->profile, ==, "soak");
	g_assert_cmpint(r->mismatches, ==, 4096);
	g_assert_cmpint(r->first_bad_offset, ==, 1052672);
	g_assert_cmpint(r->first_bad_round, ==, 3);
	g_assert_cmpint(r->rounds, ==, 13);
	g_assert_cmpstr(r->seed, ==, "2631619714084828282");
	g_assert_cmpfloat(r->seconds, ==, 2.107009);
	g_assert_cmpuint(r->notes->len, ==, 1);
}

static void
test_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = json_from_string(
		"{\"soak\": {\"seconds\": null, \"first_bad_offset\": null, \"later\": 1}, "
		"\"more\": []}",
		&error);
	g_autoptr(SdtSoakReport) r = NULL;
	g_autoptr(JsonNode) again = NULL;

	g_assert_no_error(error);
	r = sdt_soak_report_from_json(json_node_get_object(node), &error);
	g_assert_no_error(error);
	g_assert_null(r->target.path);
	g_assert_null(r->profile);
	g_assert_null(r->seed);
	g_assert_true(isnan(r->seconds) && isnan(r->write_mb_s));
	g_assert_cmpint(r->first_bad_offset, ==, -1);
	g_assert_cmpint(r->rounds, ==, 0);
	again = sdt_soak_report_to_json(r);
	g_assert_false(json_object_has_member(
		json_object_get_object_member(json_node_get_object(again), "soak"),
		"first_bad_round"));
}

static void
test_refused(void)
{
	static const gchar *const bad[][2] = {
		{"{}", "soak"},
		{"{\"soak\": 1}", "soak"},
		{"{\"soak\": {}, \"target\": []}", "target"},
		{"{\"soak\": {}, \"target\": {\"stand_in\": \"no\"}}", "target.stand_in"},
		{"{\"soak\": {}, \"profile\": 1}", "profile"},
		{"{\"soak\": {}, \"notes\": [1]}", "notes"},
		{"{\"soak\": {\"rounds\": \"13\"}}", "soak.rounds"},
		{"{\"soak\": {\"first_bad_offset\": 1.5}}", "soak.first_bad_offset"},
		{"{\"soak\": {\"seed\": 26}}", "soak.seed"},
		{"{\"soak\": {\"read_mb_s\": \"fast\"}}", "soak.read_mb_s"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_soak_report_parse,
			    (GDestroyNotify) sdt_soak_report_free);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"soak-report-stand-in.json",
					       "soak-report-data-error.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path = g_strdup_printf("/wire/soak-report/golden/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
	}
	g_test_add_func("/wire/soak-report/fields", test_fields);
	g_test_add_func("/wire/soak-report/unknown", test_unknown);
	g_test_add_func("/wire/soak-report/refused", test_refused);
	return g_test_run();
}
