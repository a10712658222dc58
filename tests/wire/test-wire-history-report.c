/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The history document's codec (src/wire/sdt-history-report.c): `history --json` of the
 * fixture boards (tools/json-snapshot.sh: a card in the slot, none) and of
 * tests/data/history-series (five runs of the slot's card around an apply, one of
 * another card, one of a stand-in; then with a damaged entry, named in "warnings") read
 * back byte for byte; the document's own members of the wrong type refused by name; an
 * entry or series element of the wrong type read leniently (left unknown, the rest read);
 * the document filled in by hand written as the helper writes it.
 */

#include <math.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-history-report.h"
#include "wire-golden.h"

static gchar *
write_history(gconstpointer doc)
{
	return sdt_history_report_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       (WireGoldenParse) sdt_history_report_parse,
			       write_history,
			       (GDestroyNotify) sdt_history_report_free);
}

/* the slot card's series of tests/data/history-series */
static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("history-report-series.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHistoryReport) r = sdt_history_report_parse(text, &error);
	const SdtHistoryReportSeries *slot = NULL;
	const SdtHistoryReportTest *t;
	const SdtHistoryReportPoint *p;
	const SdtHistoryReportEntry *e;

	g_assert_no_error(error);
	g_assert_cmpuint(r->entries->len, ==, 8);
	e = g_ptr_array_index(r->entries, 2);
	g_assert_cmpstr(e->kind, ==, "apply");
	g_assert_cmpstr(e->id, ==, "sd-overclock-100");
	e = g_ptr_array_index(r->entries, 0);
	g_assert_cmpstr(e->kind, ==, "bench");
	g_assert_nonnull(e->bench);
	g_assert_no_error(e->error);
	g_assert_nonnull(r->card_in_slot);
	g_assert_cmpstr(r->card_in_slot->id, ==, "0353445355303847801e4c298300d28e");
	g_assert_cmpstr(r->card_in_slot->name, ==, "SU08G");
	g_assert_cmpstr(r->card_in_slot->serial, ==, "0x1e4c2983");
	g_assert_cmpuint(r->warnings->len, ==, 0);
	for (guint i = 0; i < r->series->len; i++) {
		const SdtHistoryReportSeries *s = g_ptr_array_index(r->series, i);
		if (s->in_slot)
			slot = s;
	}
	g_assert_nonnull(slot);
	g_assert_cmpstr(slot->card_id, ==, r->card_in_slot->id);
	t = g_ptr_array_index(slot->tests, 0);
	g_assert_cmpstr(t->name, ==, "seq-read");
	g_assert_cmpstr(t->unit, ==, "MB/s");
	g_assert_cmpuint(t->points->len, ==, 5);
	p = g_ptr_array_index(t->points, 0);
	g_assert_cmpfloat(p->value, ==, 22.1);
	g_assert_cmpfloat(p->spread, ==, 0.442);
	g_assert_null(p->change);
	g_assert_cmpint(p->usec, >, 0);
	p = g_ptr_array_index(t->points, 2);
	g_assert_cmpstr(p->change, ==, "sd-overclock-100");
	g_assert_cmpuint(slot->changes->len, ==, 1);
	g_assert_cmpstr(((SdtHistoryReportChange *) g_ptr_array_index(slot->changes, 0))->kind,
			==,
			"apply");
}

/* a damaged entry skipped by the helper is named */
static void
test_warnings(void)
{
	g_autofree gchar *text = wire_golden_read("history-report-damaged.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHistoryReport) r = sdt_history_report_parse(text, &error);

	g_assert_no_error(error);
	g_assert_cmpuint(r->warnings->len, ==, 1);
	g_assert_nonnull(strstr(g_ptr_array_index(r->warnings, 0), "1767600000000008-bench.json"));
}

/* the document's own members: strict */
static void
test_refused(void)
{
	static const gchar *const bad[][2] = {
		{"[]", "not a JSON object"},
		{"{\"entries\": {}}", "“entries”"},
		{"{\"series\": 1}", "“series”"},
		{"{\"card_in_slot\": []}", "“card_in_slot”"},
		{"{\"card_in_slot\": {\"id\": 1}}", "“card_in_slot.id”"},
		{"{\"card_in_slot\": {\"id\": \"aa\", \"name\": 1}}", "“card_in_slot.name”"},
		{"{\"card_in_slot\": {\"id\": \"aa\", \"serial\": true}}", "“card_in_slot.serial”"},
		{"{\"warnings\": \"w\"}", "“warnings”"},
		{"{\"warnings\": [1]}", "“warnings[0]”"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_history_report_parse,
			    (GDestroyNotify) sdt_history_report_free);
}

/* entries and series of other versions or edited by hand: what cannot be read stays
 * unknown, the rest is read and written back as it was */
static void
test_lenient(void)
{
	const gchar *text = "{\"entries\": [{\"kind\": \"apply\", \"time\": \"t\", \"trial\": 1}, "
			    "[2]], \"series\": [5, {\"card\": null, \"in_slot\": \"no\", "
			    "\"tests\": [{\"name\": \"seq-read\", \"unit\": \"MB/s\", "
			    "\"points\": [{\"time\": \"x\", \"value\": \"fast\"}]}]}], "
			    "\"unknown\": 1}";
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHistoryReport) r = sdt_history_report_parse(text, &error);
	g_autofree gchar *back = NULL;
	const SdtHistoryReportEntry *e;
	const SdtHistoryReportSeries *s;
	const SdtHistoryReportPoint *p;

	g_assert_no_error(error);
	g_assert_cmpuint(r->entries->len, ==, 2);
	e = g_ptr_array_index(r->entries, 0);
	g_assert_cmpstr(e->kind, ==, "apply");
	g_assert_error(e->error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(e->error->message, "“entries[0].trial”"));
	e = g_ptr_array_index(r->entries, 1);
	g_assert_null(e->kind);
	g_assert_error(e->error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_cmpuint(r->series->len, ==, 1);
	s = g_ptr_array_index(r->series, 0);
	g_assert_null(s->card_id);
	g_assert_false(s->in_slot);
	p = g_ptr_array_index(((SdtHistoryReportTest *) g_ptr_array_index(s->tests, 0))->points, 0);
	g_assert_true(isnan(p->value));
	g_assert_null(r->card_in_slot);
	back = sdt_history_report_to_string(r);
	g_assert_nonnull(strstr(back, "\"trial\" : 1"));
	g_assert_nonnull(strstr(back, "\"card_in_slot\" : null"));
	g_assert_null(strstr(back, "warnings"));
}

/* an older helper: no series, no card in the slot (from a parsed object, as the tests of
 * the readers build theirs) */
static void
test_older(void)
{
	g_autoptr(JsonNode) root = json_from_string("{\"entries\": []}", NULL);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHistoryReport) r =
		sdt_history_report_from_json(json_node_get_object(root), &error);

	g_autoptr(JsonNode) node = NULL;
	JsonObject *obj;

	g_assert_no_error(error);
	g_assert_cmpuint(r->entries->len, ==, 0);
	g_assert_cmpuint(r->series->len, ==, 0);
	g_assert_null(r->card_in_slot);
	/* written back with every member of its own: empty arrays and a null card */
	node = sdt_history_report_to_json(r);
	obj = json_node_get_object(node);
	g_assert_cmpuint(json_array_get_length(json_object_get_array_member(obj, "series")), ==, 0);
	g_assert_true(json_object_get_null_member(obj, "card_in_slot"));
}

/* filled in as sdt_ops_history() fills it: null where unknown */
static void
test_filled(void)
{
	g_autoptr(SdtHistoryReport) r = sdt_history_report_new();
	SdtHistoryReportSeries *s = sdt_history_report_series_new();
	SdtHistoryReportTest *t = sdt_history_report_test_new("rand-4k-read-qd1", "IOPS");
	SdtHistoryReportPoint *p = sdt_history_report_point_new();
	g_autoptr(SdtHistoryReport) back = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = NULL;
	g_autofree gchar *again = NULL;

	p->time = g_strdup("2026-01-05T09:00:00.000000Z");
	p->value = 1500;
	g_ptr_array_add(t->points, p);
	g_ptr_array_add(s->tests, t);
	g_ptr_array_add(s->changes, sdt_history_report_change_new("t", "revert", NULL));
	g_ptr_array_add(r->series, s);
	r->card_in_slot = sdt_history_report_card_new("aa", NULL, NULL);
	text = sdt_history_report_to_string(r);
	g_assert_nonnull(strstr(text, "\"spread\" : null"));
	g_assert_nonnull(strstr(text, "\"change\" : null"));
	g_assert_nonnull(strstr(text, "\"card\" : null"));
	g_assert_nonnull(strstr(text, "\"name\" : null"));
	back = sdt_history_report_parse(text, &error);
	g_assert_no_error(error);
	again = sdt_history_report_to_string(back);
	g_assert_cmpstr(again, ==, text);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"history-report-pi4.json",
					       "history-report-no-card.json",
					       "history-report-series.json",
					       "history-report-damaged.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path =
			g_strdup_printf("/wire/history-report/golden/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
	}
	g_test_add_func("/wire/history-report/fields", test_fields);
	g_test_add_func("/wire/history-report/warnings", test_warnings);
	g_test_add_func("/wire/history-report/refused", test_refused);
	g_test_add_func("/wire/history-report/lenient", test_lenient);
	g_test_add_func("/wire/history-report/older", test_older);
	g_test_add_func("/wire/history-report/filled", test_filled);
	return g_test_run();
}
