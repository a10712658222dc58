/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The status document's codec (src/wire/sdt-status-report.c): `status --json` of the
 * fixture boards (tools/json-snapshot.sh) and of real runs (tests/test-verify-cli.py's
 * simulated Pi 3: a trial waiting for its restart, the step down after it, the keep, an
 * undo) read back byte for byte; config.txt that cannot be read; a member of the wrong
 * type refused by name; unknown members ignored; absent and null read as unknown.
 */

#include <string.h>

#include "sdt-status-report.h"
#include "sdt-status-report-private.h"
#include "wire-golden.h"

static gchar *
write_status(gconstpointer doc)
{
	return sdt_status_report_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       (WireGoldenParse) sdt_status_report_parse,
			       write_status,
			       (GDestroyNotify) sdt_status_report_free);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("status-step.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtStatusReport) s = sdt_status_report_parse(text, &error);

	g_assert_no_error(error);
	g_assert_nonnull(s->trial);
	g_assert_cmpstr(s->trial->id, ==, "sd-overclock-80");
	g_assert_cmpstr(s->pending_verification->id, ==, "sd-overclock-80");
	g_assert_cmpint(s->pending_verification->step, ==, 1);
	g_assert_null(s->pending_verification->decision);
	g_assert_cmpstr(s->last_verification->decision, ==, "step-down");
	g_assert_cmpstr(s->last_verification->action->what, ==, "stepped-down");
	g_assert_nonnull(s->last_verification->time);
	g_assert_null(s->check_journal_damaged);
	g_assert_cmpstr(sdt_status_report_pending_reason(s), ==, "");
}

/* config.txt could not be read: its own order (error before damaged), and a pending
 * decision that could not be carried out */
static void
test_unreadable(void)
{
	g_autoptr(SdtStatusReport) s = sdt_status_report_new();
	g_autoptr(SdtStatusReport) back = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) args = sdt_l10n_record_reason_args_new();
	g_autofree gchar *text = NULL;
	g_autofree gchar *again = NULL;

	s->path = g_strdup("/boot/firmware/config.txt");
	s->error = g_strdup("cannot read it");
	s->pending_verification = sdt_status_report_pending_new();
	s->pending_verification->id = g_strdup("sd-overclock-100");
	s->pending_verification->decision = g_strdup("undo");
	s->pending_verification->reason = sdt_l10n_record_reason_new("config-edited", NULL);
	s->members |= SDT_STATUS_REPORT_TRIAL_ERROR;
	s->trial_error = g_strdup("tryboot.txt cannot be read");
	text = sdt_status_report_to_string(s);
	g_assert_true(
		g_str_has_prefix(text,
				 "{\n  \"path\" : \"/boot/firmware/config.txt\",\n  \"error\" "
				 ": \"cannot read it\",\n  \"damaged\" : false,"));
	g_assert_nonnull(strstr(text,
				"\"reboot_pending\" : false,\n  \"verified\" : null,\n  "
				"\"trial_error\" : \"tryboot.txt cannot be read\",\n  "
				"\"trial\" : null,"));
	g_assert_nonnull(strstr(text, "\"reason_code\" : \"config-edited\""));
	g_assert_nonnull(strstr(text, "\"error\" : null\n  },\n  \"last_verification\""));
	back = sdt_status_report_parse(text, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(back->pending_verification->reason->code, ==, "config-edited");
	g_assert_cmpstr(sdt_status_report_pending_reason(back), !=, "");
	again = sdt_status_report_to_string(back);
	g_assert_cmpstr(again, ==, text);
	g_assert_nonnull(args);
}

/* absent and null are unknown; members of other versions are ignored */
static void
test_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtStatusReport) s = sdt_status_report_parse(
		"{\"lines\": null, \"verified\": null, \"trial\": null, \"future\": {}, "
		"\"pending_verification\": {\"trial\": true}}",
		&error);
	g_autoptr(JsonNode) node = NULL;

	g_assert_no_error(error);
	g_assert_null(s->path);
	g_assert_cmpuint(s->lines->len, ==, 0);
	g_assert_false(s->verified_known);
	g_assert_null(s->trial);
	g_assert_null(s->pending_verification->id);
	g_assert_true(s->pending_verification->trial);
	g_assert_null(s->last_verification);
	/* written back: "verified" null, "trial" null, the pending change's members */
	node = sdt_status_report_to_json(s);
	g_assert_true(
		json_node_is_null(json_object_get_member(json_node_get_object(node), "verified")));
	g_assert_true(json_object_get_boolean_member(
		json_object_get_object_member(json_node_get_object(node), "pending_verification"),
		"trial"));
}

static void
test_refused(void)
{
	static const gchar *const bad[][2] = {
		{"[]", "not a JSON object"},
		{"{\"applied\": \"yes\"}", "“applied”"},
		{"{\"lines\": [1]}", "“lines[0]”"},
		{"{\"filter\": 1}", "“filter”"},
		{"{\"verified\": 1}", "“verified”"},
		{"{\"trial\": {\"id\": 5}}", "“trial.id”"},
		{"{\"trial\": {\"stale\": \"no\"}}", "“trial.stale”"},
		{"{\"tryboot_active\": 0}", "“tryboot_active”"},
		{"{\"last_verification\": {\"decision\": []}}", "“last_verification.decision”"},
		{"{\"last_verification\": {\"action\": {\"error\": 1}}}",
		 "“last_verification.action.error”"},
		{"{\"pending_verification\": \"x\"}", "“pending_verification”"},
		{"{\"pending_verification\": {\"trial\": \"yes\"}}",
		 "“pending_verification.trial”"},
		{"{\"pending_verification\": {\"attempts\": \"1\"}}",
		 "“pending_verification.attempts”"},
		{"{\"state_error\": false}", "“state_error”"},
		{"{\"check_journal_damaged\": 1}", "“check_journal_damaged”"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_status_report_parse,
			    (GDestroyNotify) sdt_status_report_free);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"status-pi3.json",
					       "status-pending.json",
					       "status-step.json",
					       "status-kept.json",
					       "status-undone.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path =
			g_strdup_printf("/wire/status-report/golden/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
	}
	g_test_add_func("/wire/status-report/fields", test_fields);
	g_test_add_func("/wire/status-report/unreadable", test_unreadable);
	g_test_add_func("/wire/status-report/unknown", test_unknown);
	g_test_add_func("/wire/status-report/refused", test_refused);
	return g_test_run();
}
