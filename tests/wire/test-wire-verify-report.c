/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The verification's result (src/wire/sdt-verify-report.c): `verify --json` of real runs
 * (tests/test-verify-cli.py's simulated Pi 3: a wait, a step down on a trial, the keep
 * after it, an undo, nothing pending, a damaged record) read back byte for byte; a
 * history entry's envelope and status's last_verification; a member of the wrong type
 * refused by name; unknown members ignored; absent and null read as unknown.
 */

#include <math.h>
#include <string.h>

#include "sdt-verify-report.h"
#include "wire-golden.h"

static gchar *
write_report(gconstpointer doc)
{
	return sdt_verify_report_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       (WireGoldenParse) sdt_verify_report_parse,
			       write_report,
			       (GDestroyNotify) sdt_verify_report_free);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("verify-step-down.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtVerifyReport) r = sdt_verify_report_parse(text, &error);
	const SdtVerifyReportFigure *f;
	const SdtL10nRecordArg *a;

	g_assert_no_error(error);
	g_assert_true(r->pending);
	g_assert_cmpstr(r->decision, ==, "step-down");
	g_assert_cmpstr(r->next_id, ==, "sd-overclock-80");
	g_assert_cmpstr(r->reason->code, ==, "errors-step-down");
	g_assert_cmpuint(r->reason->args->len, ==, 3);
	a = g_ptr_array_index(r->reason->args, 0);
	g_assert_null(a->value);
	g_assert_cmpstr(a->list[0], ==, "“reducing overclock due to errors”");
	a = g_ptr_array_index(r->reason->args, 2);
	g_assert_cmpstr(a->value, ==, "80.0");
	g_assert_cmpint(r->evidence->clock_expected_hz, ==, 100000000);
	g_assert_cmpint(r->evidence->soak_first_bad_offset, ==, -1);
	g_assert_cmpstr(r->action->what, ==, "stepped-down");
	g_clear_pointer(&r, sdt_verify_report_free);
	g_free(text);
	text = wire_golden_read("verify-keep.json");
	r = sdt_verify_report_parse(text, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(r->evidence->figures->len, ==, 3);
	f = g_ptr_array_index(r->evidence->figures, 2);
	g_assert_cmpstr(f->unit, ==, "IOPS");
	g_assert_cmpfloat(f->after, ==, 2400.0);
	g_assert_true(r->action->trial_cancelled);
	/* shown from its code: the tests by their titles */
	g_assert_nonnull(strstr(sdt_verify_report_reason(r), "Sequential write: 18.0"));
}

/* a history entry: its envelope last; status keeps its time after next_id */
static void
test_history_entry(void)
{
	g_autofree gchar *text = wire_golden_read("verify-damaged.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtVerifyReport) r = sdt_verify_report_parse(text, &error);
	g_autoptr(SdtVerifyReport) copy = NULL;
	g_autofree gchar *last = NULL;
	g_autofree gchar *again = NULL;

	g_assert_no_error(error);
	g_assert_cmpstr(r->kind, ==, "verify");
	g_assert_nonnull(r->time);
	g_assert_null(r->id);
	copy = sdt_verify_report_copy(r);
	again = sdt_verify_report_to_string(copy);
	g_assert_cmpstr(again, ==, text);
	r->members &= SDT_VERIFY_REPORT_LAST_MEMBERS;
	last = sdt_verify_report_to_string(r);
	g_assert_true(g_str_has_prefix(last, "{\n  \"decision\" : \"undo\",\n  \"reason\" : "));
	g_assert_nonnull(strstr(last, "\"time\" : \""));
	g_assert_null(strstr(last, "\"kind\""));
	g_assert_null(strstr(last, "\"stop\""));
}

/* absent and null are unknown; members of other versions are ignored; a reason's code
 * or arguments of another version are kept out, its text shown */
static void
test_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtVerifyReport) r = sdt_verify_report_parse(
		"{\"decision\": null, \"reason\": \"Old text.\", \"reason_code\": 3, "
		"\"reason_args\": [{\"not\": \"text\"}], \"evidence\": {\"soak\": null, "
		"\"figures\": [{\"name\": \"seq-write\", \"before\": null}]}, \"future\": [1]}",
		&error);
	const SdtVerifyReportFigure *f;
	g_autofree gchar *text = NULL;

	g_assert_no_error(error);
	g_assert_null(r->decision);
	g_assert_null(r->reason->code);
	g_assert_null(r->reason->args);
	g_assert_cmpstr(r->reason->text, ==, "Old text.");
	g_assert_null(r->action);
	f = g_ptr_array_index(r->evidence->figures, 0);
	g_assert_true(isnan(f->before) && isnan(f->after));
	g_assert_false(r->evidence->soak_ran);
	text = sdt_verify_report_to_string(r);
	g_assert_null(strstr(text, "future"));
	g_assert_true(
		g_str_has_prefix(text, "{\n  \"decision\" : null,\n  \"reason\" : \"Old text.\""));
}

static void
test_refused(void)
{
	static const gchar *const bad[][2] = {
		{"[]", "not a JSON object"},
		{"{\"pending\": \"yes\"}", "pending"},
		{"{\"id\": 1}", "id"},
		{"{\"step\": \"1\"}", "step"},
		{"{\"decision\": []}", "decision"},
		{"{\"reason\": 5}", "reason"},
		{"{\"improved\": [1]}", "improved[0]"},
		{"{\"evidence\": []}", "evidence"},
		{"{\"evidence\": {\"clock\": {\"expected_hz\": \"1\"}}}",
		 "evidence.clock.expected_hz"},
		{"{\"evidence\": {\"cqe\": {\"expected\": 2}}}", "evidence.cqe.expected"},
		{"{\"evidence\": {\"log\": [false]}}", "evidence.log[0]"},
		{"{\"evidence\": {\"soak\": {\"mismatches\": \"0\"}}}", "evidence.soak.mismatches"},
		{"{\"evidence\": {\"figures\": [{\"after\": \"1\"}]}}",
		 "evidence.figures[0].after"},
		{"{\"action\": {\"what\": 1}}", "action.what"},
		{"{\"action\": {\"what\": \"reverted\", \"kept\": \"x\"}}", "action.kept"},
		{"{\"action\": {\"what\": \"kept\", \"trial_cancelled\": 1}}",
		 "action.trial_cancelled"},
		{"{\"time\": 0}", "time"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_verify_report_parse,
			    (GDestroyNotify) sdt_verify_report_free);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"verify-wait.json",
					       "verify-step-down.json",
					       "verify-keep.json",
					       "verify-undo.json",
					       "verify-nothing.json",
					       "verify-damaged.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path =
			g_strdup_printf("/wire/verify-report/golden/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
	}
	g_test_add_func("/wire/verify-report/fields", test_fields);
	g_test_add_func("/wire/verify-report/history-entry", test_history_entry);
	g_test_add_func("/wire/verify-report/unknown", test_unknown);
	g_test_add_func("/wire/verify-report/refused", test_refused);
	return g_test_run();
}
