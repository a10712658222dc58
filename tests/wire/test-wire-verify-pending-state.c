/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * pending.json's codec (src/wire/sdt-verify-pending-state.c): the file of real runs
 * (tests/test-verify-cli.py's simulated Pi 3: right after apply, and after a step down
 * with its step and "before" figures) read back byte for byte; a decision being carried
 * out; a missing member, one of the wrong type or out of range refused by name, as
 * a hand-edited file always was.  The evidence file of `verify --evidence`: read, every
 * part optional, a member of the wrong type refused by name.
 */

#include <math.h>
#include <string.h>

#include "sdt-verify-pending-state.h"
#include "sdt-verify-pending-state-private.h"
#include "wire-golden.h"
#include "sdt-verify-report.h"

static gpointer
parse_state(const gchar *text, GError **error)
{
	return sdt_verify_pending_state_parse(text, strlen(text), error);
}

static gchar *
write_state(gconstpointer doc)
{
	return sdt_verify_pending_state_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       parse_state,
			       write_state,
			       (GDestroyNotify) sdt_verify_pending_state_free);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("verify-pending-step.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtVerifyPendingState) p = parse_state(text, &error);
	const SdtVerifyPendingStateStep *s;
	const SdtVerifyPendingStateFigure *f;

	g_assert_no_error(error);
	g_assert_cmpstr(p->id, ==, "sd-overclock-80");
	g_assert_cmpuint(p->step, ==, 1);
	g_assert_true(p->trial);
	g_assert_null(p->tries[0]);
	g_assert_cmpuint(p->steps->len, ==, 1);
	s = g_ptr_array_index(p->steps, 0);
	g_assert_cmpstr(s->decision, ==, "step-down");
	g_assert_cmpstr(s->reason->code, ==, "errors-step-down");
	/* no benchmark in the history: no "before" (the evidence file gave it) */
	g_assert_null(p->before);
	g_assert_null(p->decided);
	p->before = sdt_verify_pending_state_figures_new();
	sdt_verify_pending_state_figures_add(p->before, "seq-write", 18.0, 0.4, "MB/s");
	f = sdt_verify_pending_state_figures_find(p->before, "seq-write");
	g_assert_cmpstr(f->unit, ==, "MB/s");
	g_assert_null(sdt_verify_pending_state_figures_find(p->before, "seq-read"));
}

/* a decision being carried out: its result is the verify document */
static void
test_decided(void)
{
	g_autofree gchar *text = wire_golden_read("verify-pending-step.json");
	g_autofree gchar *result = wire_golden_read("verify-step-down.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtVerifyPendingState) p = parse_state(text, &error);
	g_autoptr(SdtVerifyPendingState) back = NULL;
	g_autofree gchar *written = NULL;
	g_autofree gchar *again = NULL;

	g_assert_no_error(error);
	p->decided = sdt_verify_pending_state_decided_new();
	p->decided->decision = g_strdup("undo");
	p->decided->time = g_strdup("2026-12-01T09:00:00Z");
	p->decided->error = g_strdup("cannot write config.txt");
	p->decided->result = sdt_verify_report_parse(result, &error);
	g_assert_no_error(error);
	written = sdt_verify_pending_state_to_string(p);
	g_assert_nonnull(strstr(written,
				"\"decided\" : {\n    \"decision\" : \"undo\",\n    "
				"\"next_id\" : null,\n    \"time\""));
	back = parse_state(written, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(back->decided->error, ==, "cannot write config.txt");
	g_assert_cmpstr(back->decided->result->next_id, ==, "sd-overclock-80");
	again = sdt_verify_pending_state_to_string(back);
	g_assert_cmpstr(again, ==, written);
	/* a reader in the middle of its document: the object's members, as the text's */
	{
		g_autoptr(JsonNode) node = sdt_verify_pending_state_to_json(back);
		g_autoptr(SdtVerifyPendingState) from =
			sdt_verify_pending_state_from_json(json_node_get_object(node), &error);
		g_assert_no_error(error);
		g_assert_cmpstr(from->decided->decision, ==, "undo");
	}
}

static void
test_refused(void)
{
	g_autofree gchar *text = wire_golden_read("verify-pending-apply.json");
	/* each member of a real file, made wrong */
	static const gchar *const edits[][3] = {
		{"\"version\" : 1", "\"version\" : 2", "version"},
		{"\"id\" : \"sd-overclock-100\"", "\"id\" : \"../etc\"", "id"},
		{"\"original_id\" : \"sd-overclock-100\"", "\"original_id\" : 1", "original_id"},
		{"\"step\" : 0", "\"step\" : 3", "step"},
		{"\"trial\" : false", "\"trial\" : \"no\"", "trial"},
		{"\"attempts\" : 0", "\"attempts\" : -1", "attempts"},
		{"\"tries\" : []", "\"tries\" : [1]", "tries"},
		{"\"before\" : null", "\"before\" : []", "before"},
		{"\"steps\" : []", "\"steps\" : [1]", "steps"},
		{"\"filter\" : \"[board-type=0x08]\"", "\"filter\" : \"pi3\"", "filter"},
		{"\"type_code\" : 8", "\"type_code\" : 300", "type_code"},
		{"\"replaces\" : 17", "\"replaces\" : null", "replaces"},
		{"\"replaces\" : 17",
		 "\"replaces\" : 17, \"decided\" : {\"decision\" : \"undo\"}",
		 "decided"},
	};
	const gchar *const plain[][2] = {
		{"not json", "not valid JSON"},
		{"[]", "(root)"},
		{"{\"version\": 1}", "id"},
	};
	gchar *bad[G_N_ELEMENTS(edits)][2];

	for (guint i = 0; i < G_N_ELEMENTS(edits); i++) {
		g_auto(GStrv) parts = g_strsplit(text, edits[i][0], 2);
		g_assert_cmpuint(g_strv_length(parts), ==, 2);
		bad[i][0] = g_strjoinv(edits[i][1], parts);
		bad[i][1] = g_strdup_printf("“%s”", edits[i][2]);
	}
	wire_golden_refused((const gchar *const(*)[2]) bad,
			    G_N_ELEMENTS(edits),
			    parse_state,
			    (GDestroyNotify) sdt_verify_pending_state_free);
	wire_golden_refused(plain,
			    G_N_ELEMENTS(plain),
			    parse_state,
			    (GDestroyNotify) sdt_verify_pending_state_free);
	for (guint i = 0; i < G_N_ELEMENTS(edits); i++) {
		g_free(bad[i][0]);
		g_free(bad[i][1]);
	}
}

static gpointer
parse_evidence(const gchar *text, GError **error)
{
	return sdt_verify_pending_state_evidence_parse(text, strlen(text), error);
}

/* the evidence file of `verify --evidence` (as tests/test-verify-cli.py writes it) */
static const gchar evidence_text[] =
	"{\"soak\": {\"bytes_written\": 67108864, \"bytes_checked\": 67108864, "
	"\"mismatches\": 0, \"first_bad_offset\": null}, "
	"\"before\": {\"seq-write\": {\"median\": 20.5, \"spread\": 1.5, \"unit\": \"MB/s\"}, "
	"\"rand-4k-read\": {\"median\": 1800, \"spread\": 40, \"unit\": \"IOPS\"}}, "
	"\"after\": {\"seq-write\": {\"median\": 22, \"spread\": null}}, \"note\": 1}";

static void
test_evidence(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtVerifyPendingStateEvidence) ev = parse_evidence(evidence_text, &error);
	g_autoptr(SdtVerifyPendingStateEvidence) empty = NULL;
	const SdtVerifyPendingStateFigure *f;

	g_assert_no_error(error);
	g_assert_true(ev->has_soak);
	g_assert_cmpfloat(ev->soak_bytes_written, ==, 67108864.0);
	g_assert_cmpfloat(ev->soak_mismatches, ==, 0.0);
	g_assert_true(isnan(ev->soak_first_bad_offset));
	g_assert_cmpuint(ev->before->len, ==, 2);
	f = sdt_verify_pending_state_figures_find(ev->before, "rand-4k-read");
	g_assert_cmpfloat(f->median, ==, 1800.0);
	g_assert_cmpstr(f->unit, ==, "IOPS");
	f = g_ptr_array_index(ev->after, 0);
	g_assert_cmpstr(f->name, ==, "seq-write");
	g_assert_cmpfloat(f->median, ==, 22.0);
	g_assert_true(isnan(f->spread));
	/* no unit: "" as the decision compares it */
	g_assert_cmpstr(f->unit, ==, "");

	/* every part may be left out or null */
	empty = parse_evidence("{\"before\": null}", &error);
	g_assert_no_error(error);
	g_assert_null(empty->before);
	g_assert_null(empty->after);
	g_assert_false(empty->has_soak);
	g_assert_true(isnan(empty->soak_bytes_checked));
}

static void
test_evidence_refused(void)
{
	const gchar *const bad[][2] = {
		{"not json", "not valid JSON"},
		{"[1]", "not a JSON object"},
		{"{\"soak\": 1}", "“soak”"},
		{"{\"soak\": {\"mismatches\": \"0\"}}", "“soak.mismatches”"},
		{"{\"before\": []}", "“before”"},
		{"{\"after\": {\"seq-write\": 22}}", "“after.seq-write”"},
		{"{\"before\": {\"seq-write\": {\"median\": \"20\"}}}",
		 "“before.seq-write.median”"},
		{"{\"before\": {\"seq-write\": {\"unit\": 1}}}", "“before.seq-write.unit”"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    parse_evidence,
			    (GDestroyNotify) sdt_verify_pending_state_evidence_free);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"verify-pending-apply.json",
					       "verify-pending-step.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path =
			g_strdup_printf("/wire/verify-pending-state/golden/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
	}
	g_test_add_func("/wire/verify-pending-state/fields", test_fields);
	g_test_add_func("/wire/verify-pending-state/decided", test_decided);
	g_test_add_func("/wire/verify-pending-state/refused", test_refused);
	g_test_add_func("/wire/verify-pending-state/evidence", test_evidence);
	g_test_add_func("/wire/verify-pending-state/evidence-refused", test_evidence_refused);
	return g_test_run();
}
