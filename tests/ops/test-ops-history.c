/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-ops-private.h"
#include "sdt-ops.h"
#include "sdt-test-root.h"

/* sdt_ops_history()'s text, parsed: NULL with @error when the op failed */
static JsonNode *
test_ops_history_node(SdtContext *ctx, GError **error)
{
	g_autofree gchar *text = sdt_ops_history(ctx, error);
	JsonNode *node;

	if (text == NULL)
		return NULL;
	node = json_from_string(text, error);
	g_assert_nonnull(node);
	return node;
}

/*
 * sdt_ops_history(): the `history` document from the entries of tests/data/history in a
 * scratch state dir, a damaged entry named in "warnings", a state dir that is not one.
 */

static void
test_ops_history_entries(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, TRUE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = test_ops_history_node(root->ctx, &error);

	g_assert_no_error(error);
	/* oldest first: the apply, its revert, a benchmark */
	g_assert_cmpuint(sdt_test_root_json_len(node, "entries"), ==, 3);
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.0.kind"), ==, "apply");
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.0.id"), ==, "sd-overclock-100");
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.0.time"),
			==,
			"2026-01-01T00:00:00.000000Z");
	g_assert_false(sdt_test_root_json_bool(node, "entries.0.trial"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.1.kind"), ==, "revert");
	g_assert_true(sdt_test_root_json_is_null(node, "entries.1.id"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.2.kind"), ==, "bench");
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.2.tests.0.name"), ==, "seq-read");
	g_assert_cmpfloat_with_epsilon(sdt_test_root_json_double(node, "entries.2.tests.0.mb_s"),
				       22.5,
				       1e-9);
	/* nothing skipped: no "warnings" */
	g_assert_false(json_object_has_member(json_node_get_object(node), "warnings"));
}

/* no state dir yet (a fresh system): an empty history, not an error */
static void
test_ops_history_none_yet(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = test_ops_history_node(root->ctx, &error);

	g_assert_no_error(error);
	g_assert_cmpuint(sdt_test_root_json_len(node, "entries"), ==, 0);
}

/* a damaged entry (cut short, as by a power cut) is skipped and named; the rest stay */
static void
test_ops_history_damaged_entry(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, TRUE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	sdt_test_root_write(root,
			    "var/lib/sd-tuner/history/1767225600000003-apply.json",
			    "{\"kind\": \"apply\", \"id\": \"sd-ov");
	sdt_test_root_write(root,
			    "var/lib/sd-tuner/history/1767225600000004-bench.json",
			    "{\"kind\": \"bench\", \"time\": \"t\", \"tests\": 5}");
	node = test_ops_history_node(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(sdt_test_root_json_len(node, "entries"), ==, 3);
	g_assert_cmpstr(sdt_test_root_json_str(node, "entries.2.kind"), ==, "bench");
	g_assert_cmpuint(sdt_test_root_json_len(node, "warnings"), ==, 2);
	g_assert_nonnull(
		strstr(sdt_test_root_json_str(node, "warnings.0"), "1767225600000003-apply.json"));
	g_assert_nonnull(
		strstr(sdt_test_root_json_str(node, "warnings.1"), "1767225600000004-bench.json"));
	g_assert_nonnull(strstr(sdt_test_root_json_str(node, "warnings.1"), "\"tests\""));
}

/* the history folder is a file: an error that names it, no document */
static void
test_ops_history_not_a_folder(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	sdt_test_root_write(root, "var/lib/sd-tuner/history", "not a folder\n");
	node = test_ops_history_node(root->ctx, &error);
	g_assert_null(node);
	g_assert_nonnull(error);
	g_assert_true(error->domain == SDT_ERROR);
	g_assert_nonnull(strstr(error->message, "history"));
}

/* the card of the pi3 fixture (tests/data/umockdev/pi3.umockdev) */
#define TEST_CARD_SLOT  "0353445355303847801e4c298300d28e"
#define TEST_CARD_OTHER "1b534d4542314b4d105a3c7e21013cbf"

/* a bench entry of @card (NULL: an older entry without one) at minute @minute */
static gchar *
test_history_bench(const gchar *card,
		   guint minute,
		   gdouble seq_write,
		   gdouble ci,
		   gboolean stand_in)
{
	g_autofree gchar *card_json =
		card != NULL ? g_strdup_printf("{\"id\": \"%s\", \"name\": \"SU08G\", "
					       "\"serial\": \"0x1e4c2983\"}",
					       card)
			     : g_strdup("null");

	return g_strdup_printf(
		"{\"kind\": \"bench\", \"time\": \"2026-02-01T%02u:%02u:00Z\", \"profile\": "
		"\"quick\", \"target\": {\"path\": \"/var/tmp/x\", \"stand_in\": %s}, \"card\": "
		"%s, "
		"\"tests\": [{\"name\": \"seq-write\", \"mb_s\": %.1f, \"iops\": 10, \"seconds\": "
		"2, \"ci_percent\": %.1f}, {\"name\": \"rand-4k-read-qd1\", \"mb_s\": 8, \"iops\": "
		"2000, \"seconds\": 2}]}",
		minute / 60,
		minute % 60,
		stand_in ? "true" : "false",
		card_json,
		seq_write,
		ci);
}

static void
test_history_write(SdtTestRoot *root, guint n, const gchar *kind, const gchar *text)
{
	g_autofree gchar *rel =
		g_strdup_printf("var/lib/sd-tuner/history/%" G_GUINT64_FORMAT "-%s.json",
				G_GUINT64_CONSTANT(1769904000000000) + n,
				kind);
	sdt_test_root_write(root, rel, text);
}

/*
 * The series: the card in the slot's runs per test with value, absolute spread and
 * the change in force; another card's runs apart; a stand-in's left out; the apply,
 * the verification's step-down and the revert as markers.
 */
static void
test_ops_history_series(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autofree gchar *b0 = test_history_bench(TEST_CARD_SLOT, 0, 20.0, 5.0, FALSE);
	g_autofree gchar *b1 = test_history_bench(TEST_CARD_SLOT, 10, 22.0, 10.0, FALSE);
	g_autofree gchar *b2 = test_history_bench(TEST_CARD_OTHER, 20, 9.0, 1.0, FALSE);
	g_autofree gchar *b3 = test_history_bench(TEST_CARD_SLOT, 30, 99.0, 1.0, TRUE);
	g_autofree gchar *b4 = test_history_bench(TEST_CARD_SLOT, 40, 18.0, 2.0, FALSE);
	g_autofree gchar *b5 = test_history_bench(TEST_CARD_SLOT, 50, 19.0, 2.0, FALSE);

	test_history_write(root, 0, "bench", b0);
	test_history_write(root,
			   1,
			   "apply",
			   "{\"kind\": \"apply\", \"time\": \"2026-02-01T00:05:00Z\", \"id\": "
			   "\"sd-overclock-100\", \"trial\": false}");
	test_history_write(root, 2, "bench", b1);
	test_history_write(root, 3, "bench", b2);
	test_history_write(root, 4, "bench", b3);
	test_history_write(root,
			   5,
			   "verify",
			   "{\"kind\": \"verify\", \"time\": \"2026-02-01T00:35:00Z\", \"id\": "
			   "\"sd-overclock-100\", \"decision\": \"step-down\", \"next_id\": "
			   "\"sd-overclock-80\", \"action\": {\"what\": \"stepped-down\"}}");
	test_history_write(root, 6, "bench", b4);
	test_history_write(root,
			   7,
			   "revert",
			   "{\"kind\": \"revert\", \"time\": \"2026-02-01T00:45:00Z\", \"id\": "
			   "\"sd-overclock-80\"}");
	test_history_write(root, 8, "bench", b5);
	node = test_ops_history_node(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(sdt_test_root_json_str(node, "card_in_slot.id"), ==, TEST_CARD_SLOT);
	g_assert_cmpstr(sdt_test_root_json_str(node, "card_in_slot.serial"), ==, "0x1e4c2983");
	g_assert_cmpuint(sdt_test_root_json_len(node, "series"), ==, 2);

	/* the card in the slot: 4 runs (the stand-in's left out), seq-write then random */
	g_assert_true(sdt_test_root_json_bool(node, "series.0.in_slot"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.card.id"), ==, TEST_CARD_SLOT);
	g_assert_cmpuint(sdt_test_root_json_len(node, "series.0.tests"), ==, 2);
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.tests.0.name"), ==, "seq-write");
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.tests.0.unit"), ==, "MB/s");
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.tests.1.unit"), ==, "IOPS");
	g_assert_cmpuint(sdt_test_root_json_len(node, "series.0.tests.0.points"), ==, 4);
	g_assert_cmpfloat_with_epsilon(
		sdt_test_root_json_double(node, "series.0.tests.0.points.1.value"),
		22.0,
		1e-9);
	/* spread: 10% of 22 MB/s, in MB/s */
	g_assert_cmpfloat_with_epsilon(
		sdt_test_root_json_double(node, "series.0.tests.0.points.1.spread"),
		2.2,
		1e-9);
	g_assert_true(sdt_test_root_json_is_null(node, "series.0.tests.1.points.0.spread"));
	g_assert_cmpfloat_with_epsilon(
		sdt_test_root_json_double(node, "series.0.tests.1.points.0.value"),
		2000,
		1e-9);
	/* the change in force at each run */
	g_assert_true(sdt_test_root_json_is_null(node, "series.0.tests.0.points.0.change"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.tests.0.points.1.change"),
			==,
			"sd-overclock-100");
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.tests.0.points.2.change"),
			==,
			"sd-overclock-80");
	g_assert_true(sdt_test_root_json_is_null(node, "series.0.tests.0.points.3.change"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.tests.0.points.3.time"),
			==,
			"2026-02-01T00:50:00Z");
	/* the markers: apply, step-down, revert */
	g_assert_cmpuint(sdt_test_root_json_len(node, "series.0.changes"), ==, 3);
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.changes.0.kind"), ==, "apply");
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.changes.0.time"),
			==,
			"2026-02-01T00:05:00Z");
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.changes.1.kind"), ==, "step-down");
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.changes.1.id"),
			==,
			"sd-overclock-80");
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.0.changes.2.kind"), ==, "revert");

	/* another card: its own series, not in the slot */
	g_assert_false(sdt_test_root_json_bool(node, "series.1.in_slot"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "series.1.card.id"), ==, TEST_CARD_OTHER);
	g_assert_cmpuint(sdt_test_root_json_len(node, "series.1.tests.0.points"), ==, 1);
}

/* no history, one run, and older runs that did not record their card */
static void
test_ops_history_series_edges(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(SdtTestRoot) old = sdt_test_root_new("pi3", NULL, TRUE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) empty = test_ops_history_node(root->ctx, &error);
	g_autoptr(JsonNode) one = NULL;
	g_autoptr(JsonNode) older = NULL;
	g_autofree gchar *b0 = test_history_bench(TEST_CARD_SLOT, 0, 20.0, 5.0, FALSE);

	g_assert_no_error(error);
	g_assert_cmpuint(sdt_test_root_json_len(empty, "series"), ==, 0);
	g_assert_cmpstr(sdt_test_root_json_str(empty, "card_in_slot.id"), ==, TEST_CARD_SLOT);

	test_history_write(root, 0, "bench", b0);
	one = test_ops_history_node(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(sdt_test_root_json_len(one, "series.0.tests.0.points"), ==, 1);
	g_assert_cmpuint(sdt_test_root_json_len(one, "series.0.changes"), ==, 0);

	/* tests/data/history: a benchmark without "card" after an apply and a revert */
	older = test_ops_history_node(old->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(sdt_test_root_json_len(older, "series"), ==, 1);
	g_assert_true(sdt_test_root_json_is_null(older, "series.0.card"));
	g_assert_false(sdt_test_root_json_bool(older, "series.0.in_slot"));
	g_assert_cmpuint(sdt_test_root_json_len(older, "series.0.changes"), ==, 2);
	g_assert_true(sdt_test_root_json_is_null(older, "series.0.tests.0.points.0.change"));
}

/* hundreds of entries: one series of 600 points per test, built in well under a second */
static void
test_ops_history_series_many(void)
{
	g_autoptr(GPtrArray) entries =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_entry_free);
	g_autoptr(SdtHistoryReport) report = NULL;
	SdtHistoryReportSeries *series;
	SdtHistoryReportTest *test;
	gint64 start;

	for (guint i = 0; i < 600; i++) {
		g_autofree gchar *text =
			test_history_bench(TEST_CARD_SLOT, i, 20.0 + i % 7, 3, FALSE);
		SdtHistoryEntry *e = sdt_history_entry_parse_data(text, strlen(text), NULL);
		g_assert_nonnull(e);
		g_ptr_array_add(entries, e);
	}
	start = g_get_monotonic_time();
	report = sdt_ops_history_series(entries, TEST_CARD_SLOT);
	g_test_message("600 entries: series in %.1f ms", (g_get_monotonic_time() - start) / 1000.0);
	g_assert_cmpuint(report->series->len, ==, 1);
	series = g_ptr_array_index(report->series, 0);
	test = g_ptr_array_index(series->tests, 0);
	g_assert_cmpuint(test->points->len, ==, 600);
}

/* the recognition rule (docs/DESIGN.md "A checked card's identity") on fixture entries:
 * the same CID is the card, whatever its size and however old; else the newest entry
 * without a CID (a reader) of exactly the size; another card's CID never matches by size,
 * nor does an entry whose identity does not read back (its "cid" a number: it was read
 * as no CID, and so as a reader's card of that size) */
static void
test_ops_history_recognise(void)
{
	const gchar *text =
		"["
		"{\"kind\":\"check\",\"time\":\"2026-01-01T00:00:00Z\",\"verdict\":\"genuine\","
		" \"identity\":{\"device\":\"mmcblk1\",\"size_bytes\":31914983424,\"bus\":\"mmc\","
		"  \"cid\":\"1b534d4a4431593730d27654a6a19c00\"}},"
		"{\"kind\":\"check\",\"time\":\"2026-01-02T00:00:00Z\",\"verdict\":\"fake\","
		" \"identity\":{\"device\":\"sdb\",\"size_bytes\":31914983424,\"bus\":\"usb\","
		"  \"serial\":\"000000001234\",\"serial_of\":\"reader\",\"cid\":null}},"
		"{\"kind\":\"check\",\"time\":\"2026-01-03T00:00:00Z\",\"verdict\":\"genuine\","
		" \"identity\":{\"device\":\"sdc\",\"size_bytes\":15931539456,\"bus\":\"usb\","
		"  \"cid\":null}},"
		"{\"kind\":\"check\",\"time\":\"2026-01-04T00:00:00Z\",\"verdict\":\"fake\","
		" \"identity\":{\"device\":\"mmcblk1\",\"size_bytes\":7948206080,\"bus\":\"mmc\","
		"  \"cid\":\"035344534c3136478019d1a6c6013a00\"}},"
		"{\"kind\":\"check\",\"time\":\"2026-01-05T00:00:00Z\",\"verdict\":\"genuine\","
		" \"target\":{\"whole_device\":false}},"
		"{\"kind\":\"bench\",\"time\":\"2026-01-06T00:00:00Z\"},"
		"{\"kind\":\"check\",\"time\":\"2026-01-07T00:00:00Z\",\"verdict\":\"fake\","
		" \"identity\":{\"device\":\"sdd\",\"size_bytes\":15931539456,\"bus\":\"usb\","
		"  \"cid\":7}}"
		"]";
	g_autoptr(JsonNode) node = json_from_string(text, NULL);
	JsonArray *array = json_node_get_array(node);
	g_autoptr(GPtrArray) history =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_history_entry_free);
	const gchar *match = NULL;
	const SdtHistoryEntry *e;

	for (guint i = 0; i < json_array_get_length(array); i++) {
		g_autofree gchar *one = json_to_string(json_array_get_element(array, i), FALSE);
		SdtHistoryEntry *entry = sdt_history_entry_parse_data(one, strlen(one), NULL);
		g_assert_nonnull(entry);
		g_ptr_array_add(history, entry);
	}
	/* CID match (its size would match a newer reader entry too: the CID wins) */
	e = sdt_ops_check_recognise(history,
				    "1B534D4A4431593730D27654A6A19C00",
				    31914983424,
				    &match);
	g_assert_nonnull(e);
	g_assert_cmpstr(match, ==, "cid");
	g_assert_cmpstr(e->time, ==, "2026-01-01T00:00:00Z");
	/* another CID, the size of a reader entry: maybe that card (not the newer damaged one) */
	e = sdt_ops_check_recognise(history,
				    "02544d5341303847049c7a5b8e00c600",
				    15931539456,
				    &match);
	g_assert_nonnull(e);
	g_assert_cmpstr(match, ==, "size");
	g_assert_cmpstr(e->time, ==, "2026-01-03T00:00:00Z");
	/* no CID read, the size of both the slot entry and a reader's: the reader's only */
	e = sdt_ops_check_recognise(history, NULL, 31914983424, &match);
	g_assert_nonnull(e);
	g_assert_cmpstr(match, ==, "size");
	g_assert_cmpstr(e->time, ==, "2026-01-02T00:00:00Z");
	/* the size of an entry with another card's CID: not that card */
	e = sdt_ops_check_recognise(history,
				    "02544d5341303847049c7a5b8e00c600",
				    7948206080,
				    &match);
	g_assert_null(e);
	g_assert_null(match);
	/* one byte off: a mismatch; the running card's own check is never one */
	g_assert_null(sdt_ops_check_recognise(history, NULL, 15931539457, &match));
	g_assert_null(sdt_ops_check_recognise(history, NULL, -1, &match));
	g_assert_null(sdt_ops_check_recognise(NULL, NULL, 15931539456, &match));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-history/entries", test_ops_history_entries);
	g_test_add_func("/sdtuner/ops-history/none-yet", test_ops_history_none_yet);
	g_test_add_func("/sdtuner/ops-history/damaged-entry", test_ops_history_damaged_entry);
	g_test_add_func("/sdtuner/ops-history/not-a-folder", test_ops_history_not_a_folder);
	g_test_add_func("/sdtuner/ops-history/series", test_ops_history_series);
	g_test_add_func("/sdtuner/ops-history/series-edges", test_ops_history_series_edges);
	g_test_add_func("/sdtuner/ops-history/series-many", test_ops_history_series_many);
	g_test_add_func("/sdtuner/ops-history/recognise", test_ops_history_recognise);
	return g_test_run();
}
