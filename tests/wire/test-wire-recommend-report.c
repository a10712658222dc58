/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * The recommendation's codec (src/wire/sdt-recommend-report.c) on the real
 * `recommend --json` of every kind of fixture: read then written back, the same
 * bytes; a member of the wrong type refused by name; unknown members ignored;
 * absent members unknown.
 */

#include "config.h"

#include <string.h>

#include "sdt-error.h"
#include "sdt-recommend-report.h"
#include "sdt-recommend-report-private.h"

static gchar *
test_golden(const gchar *name)
{
	g_autofree gchar *file = g_strdup_printf("recommend-report-%s.json", name);
	g_autofree gchar *path = g_test_build_filename(G_TEST_DIST, "data", "wire", file, NULL);
	g_autoptr(GError) error = NULL;
	gchar *text = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	return text;
}

static void
test_recommend_report_golden(void)
{
	const gchar *names[] =
		{"pi3", "pi4", "pi4-no-card", "pi5", "pi5-nvme-boot", "tinker-board", "cm4-emmc"};

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree gchar *golden = test_golden(names[i]);
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtRecommendReport) r = sdt_recommend_report_parse(golden, &error);
		g_autofree gchar *again = NULL;

		g_assert_no_error(error);
		again = sdt_recommend_report_to_string(r);
		g_assert_cmpstr(again, ==, golden);
	}
}

static void
test_recommend_report_fields(void)
{
	g_autofree gchar *pi3 = test_golden("pi3");
	g_autofree gchar *emmc = test_golden("cm4-emmc");
	g_autoptr(SdtRecommendReport) r = sdt_recommend_report_parse(pi3, NULL);
	g_autoptr(SdtRecommendReport) e = sdt_recommend_report_parse(emmc, NULL);
	SdtRecommendReportItem *item;

	g_assert_cmpuint(r->recommendations->len, ==, 1);
	item = g_ptr_array_index(r->recommendations, 0);
	g_assert_cmpstr(item->id, ==, "sd-overclock-100");
	g_assert_cmpstr(item->filter, ==, "[board-type=0x08]");
	g_assert_cmpstr(g_ptr_array_index(item->lines, 0), ==, "dtparam=sd_overclock=100");
	g_assert_cmpint(item->expected_clock_hz, ==, 100000000);
	g_assert_false(item->trial_only);
	g_assert_cmpuint(r->notes->len, ==, 3);
	g_assert_null(r->not_tuned);
	g_assert_cmpint(r->core_clock_hz, ==, 400000000);
	g_assert_cmpstr(r->core_clock_source, ==, "board-default");
	g_assert_cmpstr(r->core_clock_detail, ==, "the board's default core clock");

	g_assert_cmpuint(e->recommendations->len, ==, 0);
	g_assert_cmpstr(e->not_tuned, ==, "emmc");
	g_assert_cmpint(e->core_clock_hz, ==, 0);
}

/* a trial-only recommendation (sd_cqe=2), written as ops writes it; members of another
 * version are ignored and absent ones are unknown */
static void
test_recommend_report_trial_and_unknown(void)
{
	const gchar *doc = "{\n"
			   "  \"recommendations\" : [\n"
			   "    {\n"
			   "      \"id\" : \"sd-cqe-2\",\n"
			   "      \"title\" : \"t\",\n"
			   "      \"lines\" : [\n"
			   "        \"dtparam=sd_cqe=2\"\n"
			   "      ],\n"
			   "      \"filter\" : \"[board-type=0x17]\",\n"
			   "      \"reason\" : \"r\",\n"
			   "      \"expected_effect\" : \"e\",\n"
			   "      \"risk\" : \"k\",\n"
			   "      \"trial_only\" : true\n"
			   "    }\n"
			   "  ],\n"
			   "  \"notes\" : [],\n"
			   "  \"not_tuned\" : null\n"
			   "}";
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtRecommendReport) r = sdt_recommend_report_parse(doc, &error);
	g_autoptr(SdtRecommendReport) u = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autofree gchar *again = NULL;
	SdtRecommendReportItem *item;

	g_assert_no_error(error);
	again = sdt_recommend_report_to_string(r);
	g_assert_cmpstr(again, ==, doc);
	item = g_ptr_array_index(r->recommendations, 0);
	g_assert_true(item->trial_only);
	g_assert_cmpint(item->expected_clock_hz, ==, 0);

	u = sdt_recommend_report_parse("{\"recommendations\": [{\"id\": \"a\", \"new\": 1}], "
				       "\"future\": {\"x\": []}, \"core_clock\": null}",
				       &error);
	g_assert_no_error(error);
	item = g_ptr_array_index(u->recommendations, 0);
	g_assert_cmpstr(item->id, ==, "a");
	g_assert_null(item->title);
	g_assert_null(item->risk);
	g_assert_cmpuint(item->lines->len, ==, 0);
	g_assert_cmpuint(u->notes->len, ==, 0);
	g_assert_null(u->not_tuned);
	g_assert_cmpint(u->core_clock_hz, ==, 0);
	/* the object form, both ways */
	node = sdt_recommend_report_to_json(u);
	g_clear_pointer(&u, sdt_recommend_report_free);
	u = sdt_recommend_report_from_json(json_node_get_object(node), &error);
	g_assert_no_error(error);
	g_assert_cmpuint(u->recommendations->len, ==, 1);
}

static void
test_recommend_report_bad(void)
{
	const gchar *cases[][2] = {
		{"{\"recommendations\": [{\"title\": \"x\"}]}", "“recommendations[0].id”"},
		{"{\"recommendations\": [\"x\"]}", "“recommendations[0]”"},
		{"{\"recommendations\": [{\"id\": \"a\", \"lines\": \"l\"}]}",
		 "“recommendations[0].lines”"},
		{"{\"recommendations\": [{\"id\": 1}]}", "“recommendations[0].id”"},
		{"{\"recommendations\": [{\"id\": \"a\", \"title\": 1}]}",
		 "“recommendations[0].title”"},
		{"{\"recommendations\": [{\"id\": \"a\", \"filter\": []}]}",
		 "“recommendations[0].filter”"},
		{"{\"recommendations\": [{\"id\": \"a\", \"reason\": true}]}",
		 "“recommendations[0].reason”"},
		{"{\"recommendations\": [{\"id\": \"a\", \"expected_effect\": 2}]}",
		 "“recommendations[0].expected_effect”"},
		{"{\"recommendations\": [{\"id\": \"a\", \"risk\": {}}]}",
		 "“recommendations[0].risk”"},
		{"{\"recommendations\": [{\"id\": \"a\", \"expected_clock_hz\": \"1\"}]}",
		 "“recommendations[0].expected_clock_hz”"},
		{"{\"recommendations\": [{\"id\": \"a\", \"trial_only\": 1}]}",
		 "“recommendations[0].trial_only”"},
		{"{\"recommendations\": {}}", "“recommendations”"},
		{"{\"notes\": [null]}", "“notes[0]”"},
		{"{\"notes\": \"n\"}", "“notes”"},
		{"{\"not_tuned\": 3}", "“not_tuned”"},
		{"{\"core_clock\": 3}", "“core_clock”"},
		{"{\"core_clock\": {\"hz\": \"4\"}}", "“core_clock.hz”"},
		{"{\"core_clock\": {\"source\": 4}}", "“core_clock.source”"},
		{"{\"core_clock\": {\"detail\": []}}", "“core_clock.detail”"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtRecommendReport) r = sdt_recommend_report_parse(cases[i][0], &error);

		g_assert_null(r);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, cases[i][1]));
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wire/recommend-report/golden", test_recommend_report_golden);
	g_test_add_func("/wire/recommend-report/fields", test_recommend_report_fields);
	g_test_add_func("/wire/recommend-report/trial-and-unknown",
			test_recommend_report_trial_and_unknown);
	g_test_add_func("/wire/recommend-report/bad", test_recommend_report_bad);
	return g_test_run();
}
