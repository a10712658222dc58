/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The history entry's codec (src/wire/sdt-history-entry.c), on entries SD Tuner wrote in
 * real runs: `sdtunerctl --root` apply, revert, a trial apply and the revert that
 * cancelled it on the pi3 fixture, a quick benchmark of a stand-in folder there (the
 * temporary root and folder written ROOT and /var/tmp/sd-tuner-bench), and a quick
 * benchmark in the VM (tests/data/bench/quick-run-history-entry.json).  Each reads back
 * byte for byte; each member the entry knows is refused by name when of the wrong type;
 * unknown members are kept; a bench entry's payload reads with the bench record's codec,
 * and the members the history's readers use read typed.
 */

#include <string.h>

#include "sdt-error.h"
#include "sdt-history-entry-private.h"
#include "wire-golden.h"

static const gchar *const goldens[] = {
	"history-entry-apply.json",
	"history-entry-apply-trial.json",
	"history-entry-revert.json",
	"history-entry-revert-trial-cancelled.json",
	"history-entry-bench-stand-in.json",
	"history-entry-bench-vm.json",
};

static gchar *
write_entry(gconstpointer doc)
{
	return sdt_history_entry_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       (WireGoldenParse) sdt_history_entry_parse,
			       write_entry,
			       (GDestroyNotify) sdt_history_entry_free);
}

/* every member of the golden that the entry knows, made a number, is refused by name */
static void
test_golden_refused(gconstpointer name)
{
	static const gchar *const known[] = {"kind",
					     "time",
					     "id",
					     "path",
					     "backup",
					     "trial",
					     "changed",
					     "profile",
					     "target",
					     "tests",
					     "verdict",
					     "config_sha256",
					     "boot_id",
					     "card",
					     "identity"};
	g_autofree gchar *text = wire_golden_read(name);
	guint refused = 0;

	for (guint i = 0; i < G_N_ELEMENTS(known); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonNode) node = json_from_string(text, &error);
		g_autofree gchar *bad = NULL;
		g_autoptr(SdtHistoryEntry) e = NULL;
		g_autofree gchar *quoted = g_strdup_printf("\"%s\"", known[i]);

		g_assert_no_error(error);
		if (!json_object_has_member(json_node_get_object(node), known[i]))
			continue;
		json_object_set_int_member(json_node_get_object(node), known[i], 1);
		bad = json_to_string(node, FALSE);
		e = sdt_history_entry_parse(bad, &error);
		g_assert_null(e);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		if (strstr(error->message, quoted) == NULL)
			g_error("%s: %s does not name %s",
				(const gchar *) name,
				error->message,
				known[i]);
		refused++;
	}
	g_assert_cmpuint(refused, >=, 3);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("history-entry-bench-vm.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHistoryEntry) e = sdt_history_entry_parse(text, &error);
	g_autoptr(SdtBenchRecord) r = NULL;

	g_assert_no_error(error);
	g_assert_cmpstr(e->kind, ==, "bench");
	g_assert_cmpstr(e->time, ==, "2026-12-02T02:29:29.526005Z");
	r = sdt_history_entry_get_bench(e, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(r->profile, ==, "quick");
	g_assert_cmpuint(r->tests->len, >, 0);
}

/* what the history's readers use, typed: a member of another type is not said */
static void
test_accessors(void)
{
	g_autofree gchar *text = wire_golden_read("history-entry-apply.json");
	g_autofree gchar *stand_in_text = wire_golden_read("history-entry-bench-stand-in.json");
	g_autoptr(SdtHistoryEntry) apply = sdt_history_entry_parse(text, NULL);
	g_autoptr(SdtHistoryEntry) stand_in = sdt_history_entry_parse(stand_in_text, NULL);
	g_autoptr(SdtHistoryEntry) verify = sdt_history_entry_parse(
		"{\"kind\": \"verify\", \"time\": \"t\", \"id\": \"sd-overclock-100\", "
		"\"decision\": \"step-down\", \"next_id\": \"sd-overclock-80\", "
		"\"action\": {\"what\": \"stepped-down\"}, \"boot_id\": \"b1\"}",
		NULL);
	g_autoptr(SdtHistoryEntry) check = sdt_history_entry_parse(
		"{\"kind\": \"check\", \"time\": \"t\", \"verdict\": \"fake\", "
		"\"identity\": {\"device\": \"sdb\", \"size_bytes\": 31914983424, "
		"\"bus\": \"usb\", \"cid\": null}}",
		NULL);
	g_autoptr(SdtHistoryEntry) damaged = sdt_history_entry_parse(
		"{\"kind\": \"check\", \"time\": \"t\", \"verdict\": \"fake\", "
		"\"identity\": {\"device\": \"sdb\", \"vendor\": 7}}",
		NULL);
	g_autoptr(SdtHistoryEntry) slot = sdt_history_entry_parse(
		"{\"kind\": \"check\", \"time\": \"t\", \"verdict\": \"genuine\", "
		"\"identity\": null}",
		NULL);
	g_autoptr(SdtVerifyReport) report = NULL;
	SdtHistoryEntryChange change;
	SdtHistoryEntryCard card;
	g_autoptr(SdtCheckResult) checked = NULL;
	g_autoptr(GError) error = NULL;

	sdt_history_entry_get_change(apply, &change);
	g_assert_cmpstr(change.id, ==, "sd-overclock-100");
	g_assert_null(change.what);
	g_assert_null(sdt_history_entry_get_config_sha256(stand_in));
	sdt_history_entry_get_card(stand_in, &card);
	g_assert_true(card.stand_in);
	g_assert_null(card.id);
	sdt_history_entry_get_change(verify, &change);
	g_assert_cmpstr(change.what, ==, "stepped-down");
	g_assert_cmpstr(change.next_id, ==, "sd-overclock-80");
	g_assert_cmpstr(change.decision, ==, "step-down");
	g_assert_cmpstr(sdt_history_entry_get_boot_id(verify), ==, "b1");
	report = sdt_history_entry_get_verify(verify, NULL);
	g_assert_nonnull(report);
	/* a device check's identity is the check result's, health's type */
	g_assert_true(sdt_history_entry_has_identity(check));
	checked = sdt_history_entry_get_check(check, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(checked->verdict, ==, "fake");
	g_assert_nonnull(checked->identity);
	g_assert_cmpstr(checked->identity->device, ==, "sdb");
	g_assert_cmpint(checked->identity->size_bytes, ==, 31914983424);
	g_assert_cmpstr(checked->identity->bus, ==, "usb");
	g_assert_null(checked->identity->cid);
	g_assert_null(checked->identity->vendor);
	g_clear_pointer(&checked, sdt_check_result_free);
	/* the slot's check has none, its "identity" null */
	g_assert_true(sdt_history_entry_has_identity(slot));
	checked = sdt_history_entry_get_check(slot, &error);
	g_assert_no_error(error);
	g_assert_null(checked->identity);
	g_clear_pointer(&checked, sdt_check_result_free);
	/* a member of the wrong type is refused by name, not read as unknown */
	checked = sdt_history_entry_get_check(damaged, &error);
	g_assert_null(checked);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "identity.vendor"));
	g_assert_false(sdt_history_entry_has_identity(apply));
}

/* an entry SD Tuner writes: the caller's object gets "kind" and "time" last */
static void
test_new(void)
{
	g_autoptr(JsonObject) doc = json_object_new();
	g_autoptr(SdtHistoryEntry) e = NULL;
	g_autofree gchar *text = NULL;

	json_object_set_string_member(doc, "id", "sd-overclock-100");
	e = sdt_history_entry_new("apply", "2026-01-01T00:00:00.000000Z", doc);
	text = sdt_history_entry_to_string(e);
	g_assert_cmpstr(text,
			==,
			"{\n  \"id\" : \"sd-overclock-100\",\n  \"kind\" : \"apply\",\n"
			"  \"time\" : \"2026-01-01T00:00:00.000000Z\"\n}");
	g_assert_cmpstr(json_object_get_string_member(doc, "kind"), ==, "apply");
	g_assert_true(sdt_history_entry_kind_valid("verify"));
	g_assert_false(sdt_history_entry_kind_valid("Bench"));
	g_assert_false(sdt_history_entry_kind_valid(""));
}

/* a bench entry from its record (the entry members config_sha256 and card are the
 * record's): the golden written by `sdtunerctl --root bench` again, byte for byte */
static void
test_new_bench(void)
{
	g_autofree gchar *text = wire_golden_read("history-entry-bench-stand-in.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHistoryEntry) e = sdt_history_entry_parse(text, &error);
	g_autoptr(SdtBenchRecord) r = NULL;
	g_autoptr(SdtHistoryEntry) again = NULL;
	g_autofree gchar *written = NULL;
	g_autofree gchar *with_card = NULL;

	g_assert_no_error(error);
	r = sdt_history_entry_get_bench(e, &error);
	g_assert_no_error(error);
	g_assert_null(r->config_sha256);
	g_assert_null(r->card_id);
	again = sdt_history_entry_new_bench(r);
	g_assert_null(again->time);
	sdt_history_entry_stamp(again, e->time);
	written = sdt_history_entry_to_string(again);
	g_assert_cmpstr(written, ==, text);

	/* a card's: {id, name, serial}, an unknown one null */
	r->config_sha256 = g_strdup("00ff");
	r->card_id = g_strdup("0353445345333247");
	r->card_serial = g_strdup("0x1e4c2983");
	g_clear_pointer(&again, sdt_history_entry_free);
	again = sdt_history_entry_new_bench(r);
	with_card = sdt_history_entry_to_string(again);
	g_assert_nonnull(strstr(with_card,
				"\"config_sha256\" : \"00ff\",\n  \"card\" : {\n    \"id\" : "
				"\"0353445345333247\",\n    \"name\" : null,\n    \"serial\" : "
				"\"0x1e4c2983\"\n  }\n}"));
}

/* a string member of @doc, or NULL */
static gchar *
dup_member(JsonObject *doc, const gchar *name)
{
	return g_strdup(json_object_get_string_member_with_default(doc, name, NULL));
}

/* the entry of an apply or a revert made from its answer's fields, stamped with the
 * golden's time: the golden again, byte for byte (with a boot id after the rest) */
static void
test_new_change(gconstpointer name)
{
	g_autofree gchar *text = wire_golden_read(name);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHistoryEntry) e = sdt_history_entry_parse(text, &error);
	g_autoptr(SdtHistoryEntry) again = NULL;
	g_autoptr(SdtHistoryEntry) booted = NULL;
	g_autofree gchar *written = NULL;
	g_autofree gchar *with_boot = NULL;
	JsonObject *doc;

	g_assert_no_error(error);
	doc = e->doc;
	if (g_strcmp0(e->kind, "apply") == 0) {
		g_autoptr(SdtConfigAnswerApply) a = sdt_config_answer_apply_new();
		a->id = dup_member(doc, "id");
		a->path = dup_member(doc, "path");
		a->backup = dup_member(doc, "backup");
		a->trial = json_object_get_boolean_member_with_default(doc, "trial", FALSE);
		a->changed = json_object_get_boolean_member(doc, "changed");
		again = sdt_history_entry_new_apply(a, NULL);
		booted = sdt_history_entry_new_apply(a, "b00t");
	} else {
		g_autoptr(SdtConfigAnswerRevert) r = sdt_config_answer_revert_new();
		r->id = dup_member(doc, "id");
		r->path = dup_member(doc, "path");
		r->backup = dup_member(doc, "backup");
		r->trial_cancelled = json_object_get_boolean_member(doc, "trial_cancelled");
		r->diff =
			g_strdup(json_object_get_boolean_member(doc, "changed") ? "-a\n+b\n" : "");
		again = sdt_history_entry_new_revert(r, NULL);
		booted = sdt_history_entry_new_revert(r, "b00t");
	}
	sdt_history_entry_stamp(again, e->time);
	written = sdt_history_entry_to_string(again);
	g_assert_cmpstr(written, ==, text);
	with_boot = sdt_history_entry_to_string(booted);
	g_assert_true(g_str_has_suffix(with_boot, "\n  \"boot_id\" : \"b00t\"\n}"));
}

static void
test_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHistoryEntry) e = sdt_history_entry_parse(
		"{\"kind\": \"check\", \"time\": \"t\", \"verdict\": \"fake\", \"later\": [1], "
		"\"id\": null, \"card\": null}",
		&error);
	g_autoptr(GPtrArray) all = g_ptr_array_new();
	g_autoptr(JsonArray) array = NULL;

	g_assert_no_error(error);
	g_assert_cmpstr(e->kind, ==, "check");
	g_assert_true(json_object_has_member(e->doc, "later"));
	g_ptr_array_add(all, e);
	array = sdt_history_entry_list_to_json(all);
	g_assert_cmpuint(json_array_get_length(array), ==, 1);
	g_assert_true(json_array_get_object_element(array, 0) == e->doc);
}

/* an object already read: the entry keeps it, unchanged */
static void
test_from_json(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node =
		json_from_string("{\"later\": 1, \"kind\": \"verify\", \"time\": \"t\"}", &error);
	g_autoptr(SdtHistoryEntry) e = NULL;
	g_autoptr(SdtHistoryEntry) none = NULL;
	g_autoptr(JsonNode) again = NULL;

	g_assert_no_error(error);
	e = sdt_history_entry_from_json(json_node_get_object(node), &error);
	g_assert_no_error(error);
	g_assert_cmpstr(e->kind, ==, "verify");
	again = sdt_history_entry_to_json(e);
	g_assert_true(json_node_equal(again, node));
	json_object_set_boolean_member(json_node_get_object(node), "time", TRUE);
	none = sdt_history_entry_from_json(json_node_get_object(node), &error);
	g_assert_null(none);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
}

static void
test_refused(void)
{
	static const gchar *const bad[][2] = {
		{"{\"time\": \"t\"}", "\"kind\""},
		{"{\"kind\": \"apply\"}", "\"time\""},
		{"{\"kind\": \"Apply\", \"time\": \"t\"}", "\"kind\""},
		{"{\"kind\": \"check\", \"time\": \"t\", \"verdict\": {}}", "\"verdict\""},
		{"{\"kind\": \"bench\", \"time\": \"t\", \"verdict\": \"fake\"}", "\"verdict\""},
		{"{\"kind\": \"apply\", \"time\": \"t\", \"card\": []}", "\"card\""},
		{"[]", "JSON object"},
		{"{", "not JSON"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_history_entry_parse,
			    (GDestroyNotify) sdt_history_entry_free);
}

/* the bytes of a file: too large and a NUL byte are refused too */
static void
test_data(void)
{
	g_autoptr(GError) nul = NULL;
	g_autoptr(GError) large = NULL;
	g_autofree gchar *big = g_strnfill(SDT_HISTORY_ENTRY_MAX_SIZE + 1, ' ');
	g_autoptr(SdtHistoryEntry) a = sdt_history_entry_parse_data("{\0}", 3, &nul);
	g_autoptr(SdtHistoryEntry) b =
		sdt_history_entry_parse_data(big, SDT_HISTORY_ENTRY_MAX_SIZE + 1, &large);

	g_assert_null(a);
	g_assert_error(nul, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_null(b);
	g_assert_error(large, SDT_ERROR, SDT_ERROR_INVALID_DATA);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path =
			g_strdup_printf("/wire/history-entry/golden/%s", goldens[i]);
		g_autofree gchar *refused =
			g_strdup_printf("/wire/history-entry/golden-refused/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
		g_test_add_data_func(refused, goldens[i], test_golden_refused);
	}
	g_test_add_func("/wire/history-entry/fields", test_fields);
	g_test_add_func("/wire/history-entry/accessors", test_accessors);
	g_test_add_func("/wire/history-entry/new", test_new);
	g_test_add_func("/wire/history-entry/new-bench", test_new_bench);
	for (guint i = 0; i < 4; i++) {
		g_autofree gchar *path =
			g_strdup_printf("/wire/history-entry/new-change/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_new_change);
	}
	g_test_add_func("/wire/history-entry/unknown", test_unknown);
	g_test_add_func("/wire/history-entry/from-json", test_from_json);
	g_test_add_func("/wire/history-entry/refused", test_refused);
	g_test_add_func("/wire/history-entry/data", test_data);
	return g_test_run();
}
