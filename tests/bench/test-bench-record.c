/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The benchmark record's codec (src/bench/sdt-bench-record.c): what it reads
 * it writes back byte for byte (documents and history entries of real runs),
 * an unknown number is NaN in C and null on the wire, an older history entry
 * still reads and keeps every member it had, and bad input is a clear error.
 */

#include <math.h>
#include <string.h>

#include "sdt-bench-record.h"
#include "sdt-error.h"
#include "sdt-json.h"

/* the history's own members around a record (sdt-history.c, sdt-ops-bench.c) */
static const gchar *const envelope[] = {"kind", "time", "config_sha256", NULL};

static gchar *
read_data(const gchar *folder, const gchar *name)
{
	g_autofree gchar *path = g_test_build_filename(G_TEST_DIST, "data", folder, name, NULL);
	g_autoptr(GError) error = NULL;
	gchar *text = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	return text;
}

static JsonNode *
parse(const gchar *text)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;

	json_parser_load_from_data(parser, text, -1, &error);
	g_assert_no_error(error);
	return json_node_copy(json_parser_get_root(parser));
}

/* to_json(from_json(x)) as the CLI prints it */
static gchar *
round_trip(JsonObject *obj)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchRecord) record = sdt_bench_record_from_json(obj, &error);
	g_autoptr(JsonNode) node = NULL;

	g_assert_no_error(error);
	g_assert_nonnull(record);
	node = sdt_bench_record_to_json(record);
	return sdt_json_to_string(node, TRUE);
}

/* `sdtunerctl --json bench --profile quick` of a real run, as printed */
static void
test_bench_record_real_document(void)
{
	g_autofree gchar *text = read_data("bench", "quick-run.json");
	g_autoptr(JsonNode) root = parse(text);
	g_autofree gchar *again = round_trip(json_node_get_object(root));
	g_autofree gchar *expected = g_strchomp(g_strdup(text));

	g_assert_cmpstr(again, ==, expected);
}

/*
 * A run of the stopping rule (issue 35; bench/card.sh --bps 20000000 --iops
 * 2000, the path shortened): its new members read and write back the same
 * bytes, and a record without them (quick-run.json) gets none.
 */
static void
test_bench_record_stopping_rule(void)
{
	g_autofree gchar *text = read_data("bench", "quick-run-stopping-rule.json");
	g_autofree gchar *old = read_data("bench", "quick-run.json");
	g_autoptr(JsonNode) root = parse(text);
	g_autofree gchar *again = round_trip(json_node_get_object(root));
	g_autofree gchar *expected = g_strchomp(g_strdup(text));
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchRecord) r = sdt_bench_record_parse(text, &error);
	g_autoptr(SdtBenchRecord) r_old = NULL;

	g_assert_cmpstr(again, ==, expected);
	g_assert_no_error(error);
	g_assert_cmpfloat(r->verdict.confidence_percent, ==, 95);
	for (guint i = 0; i < r->tests->len; i++) {
		SdtBenchRecordTest *t = g_ptr_array_index(r->tests, i);
		g_assert_cmpfloat(t->confidence_percent, ==, 95);
		g_assert_cmpfloat(t->target_ci_percent, ==, 3);
		g_assert_nonnull(t->stopped);
		if (g_strcmp0(t->stopped, "settled") == 0)
			g_assert_cmpfloat(t->ci_percent, <=, t->target_ci_percent);
	}
	g_assert_cmpstr(sdt_bench_record_get_test(r, "seq-write")->stopped, ==, "settled");
	g_assert_cmpstr(sdt_bench_record_get_test(r, "rand-4k-read-qd1")->stopped,
			==,
			"time-limit");

	r_old = sdt_bench_record_parse(old, &error);
	g_assert_no_error(error);
	g_assert_true(isnan(r_old->verdict.confidence_percent));
	for (guint i = 0; i < r_old->tests->len; i++) {
		SdtBenchRecordTest *t = g_ptr_array_index(r_old->tests, i);
		g_assert_true(isnan(t->confidence_percent));
		g_assert_true(isnan(t->target_ci_percent));
		g_assert_null(t->stopped);
	}
}

/* the same run's history entry: the record's members are the same bytes, in
 * the same order, before the history's own (kind, time, config_sha256) */
static void
test_bench_record_real_history_entry(void)
{
	g_autofree gchar *text = read_data("bench", "quick-run-history-entry.json");
	g_autoptr(JsonNode) root = parse(text);
	JsonObject *entry = json_node_get_object(root);
	g_autoptr(JsonNode) record_only = parse(text);
	g_autofree gchar *again = NULL;
	g_autofree gchar *expected = NULL;

	for (guint i = 0; envelope[i] != NULL; i++)
		json_object_remove_member(json_node_get_object(record_only), envelope[i]);
	g_assert_true(json_object_has_member(entry, "kind"));
	again = round_trip(json_node_get_object(record_only));
	expected = sdt_json_to_string(record_only, TRUE);
	g_assert_cmpstr(again, ==, expected);
	/* and the file is that text with the envelope after it: the same bytes up to
	 * the record's closing brace, then a comma */
	g_assert_true(g_str_has_suffix(again, "\n}"));
	again[strlen(again) - 2] = '\0';
	g_assert_true(g_str_has_prefix(text, again));
	g_assert_cmpint(text[strlen(again)], ==, ',');
}

/* every member of @old is in @now with the same value (objects member by member) */
static void
assert_contains(JsonNode *old, JsonNode *now, const gchar *at)
{
	if (JSON_NODE_HOLDS_OBJECT(old)) {
		JsonObject *o = json_node_get_object(old);
		g_autoptr(GList) members = json_object_get_members(o);

		g_assert_true(JSON_NODE_HOLDS_OBJECT(now));
		for (GList *l = members; l != NULL; l = l->next) {
			g_autofree gchar *where = g_strdup_printf("%s.%s", at, (gchar *) l->data);
			JsonNode *n = json_object_get_member(json_node_get_object(now), l->data);
			if (n == NULL)
				g_error("%s: not written back", where);
			assert_contains(json_object_get_member(o, l->data), n, where);
		}
		return;
	}
	if (JSON_NODE_HOLDS_ARRAY(old)) {
		JsonArray *a = json_node_get_array(old);
		g_assert_true(JSON_NODE_HOLDS_ARRAY(now));
		g_assert_cmpuint(json_array_get_length(a),
				 ==,
				 json_array_get_length(json_node_get_array(now)));
		for (guint i = 0; i < json_array_get_length(a); i++) {
			g_autofree gchar *where = g_strdup_printf("%s[%u]", at, i);
			assert_contains(json_array_get_element(a, i),
					json_array_get_element(json_node_get_array(now), i),
					where);
		}
		return;
	}
	if (!json_node_equal(old, now))
		g_error("%s: written back differently", at);
}

/*
 * The fixture history's benchmark (an older, smaller record: no raw_device,
 * no ci_percent): it reads, every member it had is written back unchanged, and
 * what it lacked is the current format's unknown (null) or zero; the record
 * read back from that is the same record.
 */
static void
test_bench_record_fixture_history(void)
{
	g_autofree gchar *text = read_data("history", "1767225600000002-bench.json");
	g_autoptr(JsonNode) root = parse(text);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchRecord) r = NULL;
	g_autoptr(SdtBenchRecord) r2 = NULL;
	g_autoptr(JsonNode) out = NULL;
	g_autoptr(JsonNode) out2 = NULL;
	g_autofree gchar *t1 = NULL;
	g_autofree gchar *t2 = NULL;

	for (guint i = 0; envelope[i] != NULL; i++)
		json_object_remove_member(json_node_get_object(root), envelope[i]);
	r = sdt_bench_record_from_json(json_node_get_object(root), &error);
	g_assert_no_error(error);
	g_assert_cmpstr(r->profile, ==, "quick");
	g_assert_cmpuint(r->tests->len, ==, 1);
	g_assert_true(isnan(((SdtBenchRecordTest *) g_ptr_array_index(r->tests, 0))->ci_percent));
	g_assert_null(r->raw_device);
	g_assert_cmpfloat(r->ceiling_mb_s, ==, 25.0);
	out = sdt_bench_record_to_json(r);
	assert_contains(root, out, "");
	g_assert_true(JSON_NODE_HOLDS_NULL(json_object_get_member(
		json_object_get_object_member(json_node_get_object(out), "target"),
		"raw_device")));
	r2 = sdt_bench_record_from_json(json_node_get_object(out), &error);
	g_assert_no_error(error);
	out2 = sdt_bench_record_to_json(r2);
	t1 = sdt_json_to_string(out, TRUE);
	t2 = sdt_json_to_string(out2, TRUE);
	g_assert_cmpstr(t1, ==, t2);
}

/* unknown numbers: null on the wire, NaN in C, null again when written */
static void
test_bench_record_unknown(void)
{
	g_autofree gchar *text = read_data("bench", "quick-run.json");
	g_autoptr(JsonNode) root = parse(text);
	JsonObject *obj = json_node_get_object(root);
	JsonObject *t0 = json_node_get_object(
		json_array_get_element(json_object_get_array_member(obj, "tests"), 0));
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtBenchRecord) r = NULL;
	g_autoptr(JsonNode) out = NULL;
	g_autofree gchar *expected = NULL;
	g_autofree gchar *again = NULL;
	SdtBenchRecordTest *t;

	json_object_set_null_member(t0, "ci_percent");
	json_object_set_null_member(obj, "spread_percent");
	json_object_set_null_member(json_object_get_object_member(obj, "verdict"),
				    "spread_percent");
	json_object_set_double_member(obj, "ceiling_mb_s", 50);
	json_object_set_double_member(obj, "ceiling_percent", 12.5);
	r = sdt_bench_record_from_json(obj, &error);
	g_assert_no_error(error);
	t = g_ptr_array_index(r->tests, 0);
	g_assert_true(isnan(t->ci_percent));
	g_assert_true(isnan(r->spread_percent));
	g_assert_true(isnan(r->verdict.spread_percent));
	g_assert_cmpfloat(r->ceiling_mb_s, ==, 50);
	/* a valid row against a known ceiling has a percentage, an unknown ceiling none */
	g_assert_true(t->valid);
	g_assert_cmpfloat_with_epsilon(t->ceiling_pct, 100.0 * t->mb_s / 50, 1e-9);
	out = sdt_bench_record_to_json(r);
	expected = sdt_json_to_string(root, TRUE);
	again = sdt_json_to_string(out, TRUE);
	g_assert_cmpstr(again, ==, expected);

	json_object_set_null_member(obj, "ceiling_mb_s");
	g_clear_pointer(&r, sdt_bench_record_free);
	r = sdt_bench_record_from_json(obj, &error);
	g_assert_no_error(error);
	g_assert_true(isnan(r->ceiling_mb_s));
	g_assert_true(isnan(((SdtBenchRecordTest *) g_ptr_array_index(r->tests, 0))->ceiling_pct));
}

/* a member of the wrong type, or no list of tests: SDT_ERROR_INVALID_DATA naming it */
static void
test_bench_record_malformed(void)
{
	static const struct {
		const gchar *json;
		const gchar *names;
	} bad[] = {
		{"{\"profile\": \"quick\"}", "list of tests"},
		{"{\"tests\": {}}", "“tests”"},
		{"{\"tests\": [{\"name\": \"seq-write\", \"mb_s\": \"fast\"}]}", "“tests[0].mb_s”"},
		{"{\"tests\": [{\"mb_s\": 3}]}", "“tests[0].name”"},
		{"{\"tests\": [7]}", "tests[0]"},
		{"{\"tests\": [], \"target\": {\"stand_in\": \"yes\"}}", "“target.stand_in”"},
		{"{\"tests\": [], \"verdict\": {\"a1\": 1}}", "“verdict.a1”"},
		{"{\"tests\": [], \"ceiling_mb_s\": \"25\"}", "“ceiling_mb_s”"},
		{"{\"tests\": [{\"name\": \"seq-write\", \"stopped\": 1}]}", "“tests[0].stopped”"},
		{"{\"tests\": [{\"name\": \"seq-write\", \"confidence_percent\": \"95\"}]}",
		 "“tests[0].confidence_percent”"},
		/* a bench entry's own members */
		{"{\"tests\": [], \"config_sha256\": 7}", "“config_sha256”"},
		{"{\"tests\": [], \"card\": \"sd\"}", "“card”"},
		{"{\"tests\": [], \"card\": {\"id\": 3}}", "“card.id”"},
		{"{\"tests\": [], \"card\": {\"id\": \"03\", \"serial\": 1}}", "“card.serial”"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtBenchRecord) r = sdt_bench_record_parse(bad[i].json, &error);

		g_assert_null(r);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		if (strstr(error->message, bad[i].names) == NULL)
			g_error("%s: “%s” does not name %s",
				bad[i].json,
				error->message,
				bad[i].names);
	}
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtBenchRecord) r = sdt_bench_record_parse("{\"tests\": [", &error);
		g_assert_null(r);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/bench-record/real-document", test_bench_record_real_document);
	g_test_add_func("/bench-record/real-history-entry", test_bench_record_real_history_entry);
	g_test_add_func("/bench-record/stopping-rule", test_bench_record_stopping_rule);
	g_test_add_func("/bench-record/fixture-history", test_bench_record_fixture_history);
	g_test_add_func("/bench-record/unknown", test_bench_record_unknown);
	g_test_add_func("/bench-record/malformed", test_bench_record_malformed);
	return g_test_run();
}
