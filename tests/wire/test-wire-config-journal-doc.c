/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The journal of the change in place (src/wire/sdt-config-journal-doc.c):
 * config-journal.json of real runs (`sdtunerctl apply` on the simulated Pi 3 with a boot
 * id, on the Pi 5 with a line switched off and no boot id; the backups' folder as on a
 * Pi) read back byte for byte; a missing member, one of the wrong type or a line that is
 * not a string refused by name, with the words `revert` has always shown.
 */

#include <string.h>

#include "sdt-config-journal-doc.h"
#include "sdt-config-journal-doc-private.h"
#include "sdt-error.h"
#include "wire-golden.h"

static gpointer
parse_journal(const gchar *text, GError **error)
{
	return sdt_config_journal_doc_parse(text, strlen(text), error);
}

static gchar *
write_journal(gconstpointer doc)
{
	return sdt_config_journal_doc_to_string(doc);
}

static void
test_golden(gconstpointer name)
{
	wire_golden_round_trip(name,
			       parse_journal,
			       write_journal,
			       (GDestroyNotify) sdt_config_journal_doc_free);
}

static void
test_fields(void)
{
	g_autofree gchar *text = wire_golden_read("config-journal-pi5-disabled.json");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigJournalDoc) j = parse_journal(text, &error);

	g_assert_no_error(error);
	g_assert_true(j->has_version);
	g_assert_cmpint(j->version, ==, SDT_CONFIG_JOURNAL_DOC_VERSION);
	g_assert_cmpstr(j->id, ==, "sd-cqe-0");
	g_assert_cmpstr(j->filter, ==, "[board-type=0x17]");
	g_assert_cmpint(j->type_code, ==, 0x17);
	g_assert_cmpuint(g_strv_length(j->block), ==, 5);
	g_assert_cmpstr(j->block[3], ==, "dtparam=sd_cqe=0");
	g_assert_cmpuint(g_strv_length(j->disabled), ==, 1);
	g_assert_cmpstr(j->disabled[0], ==, "dtparam=sd_cqe=2");
	g_assert_true(g_str_has_prefix(j->backup, "/var/lib/sd-tuner/backups/config.txt."));
	g_assert_null(j->boot_id);
}

/* a journal from before versions and boot ids; members SD Tuner does not know */
static void
test_optional(void)
{
	const gchar *text = "{\"id\": \"a\", \"path\": \"/p\", \"filter\": \"[pi3]\", "
			    "\"type_code\": 8, \"block\": [\"x\"], \"disabled\": [], "
			    "\"backup\": \"b\", \"sha256_before\": \"h\", \"sha256_after\": "
			    "\"h\", \"time\": \"t\", \"later\": {}}";
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigJournalDoc) j = parse_journal(text, &error);
	g_autoptr(JsonNode) again = NULL;

	g_assert_no_error(error);
	g_assert_false(j->has_version);
	g_assert_null(j->boot_id);
	again = sdt_config_journal_doc_to_json(j);
	g_assert_false(json_object_has_member(json_node_get_object(again), "version"));
	g_assert_false(json_object_has_member(json_node_get_object(again), "later"));
	g_assert_true(json_object_get_null_member(json_node_get_object(again), "boot_id"));
	{
		g_autoptr(SdtConfigJournalDoc) back =
			sdt_config_journal_doc_from_json(json_node_get_object(again), &error);
		g_assert_no_error(error);
		g_assert_cmpstr(back->block[0], ==, "x");
	}
}

/* the words of a damaged journal (tests/config: `revert` shows them after its path) */
static void
test_words(void)
{
	static const gchar *const cases[][2] = {
		{"{", "it is not valid JSON ("},
		{"[]", "it is not a JSON object"},
		{"{\"id\": \"a\"}", "the member “path” is missing"},
		{"{\"id\": 1}", "the member “id” has the wrong type"},
	};
	g_autofree gchar *huge = g_strnfill(SDT_CONFIG_JOURNAL_DOC_MAX + 1, ' ');
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigJournalDoc) j = NULL;

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) e = NULL;
		g_autoptr(SdtConfigJournalDoc) d = parse_journal(cases[i][0], &e);
		g_assert_null(d);
		g_assert_error(e, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_true(g_str_has_prefix(e->message, cases[i][1]));
	}
	j = sdt_config_journal_doc_parse(huge, strlen(huge), &error);
	g_assert_null(j);
	g_assert_cmpstr(error->message,
			==,
			"it is 262145 bytes long, far more than SD Tuner writes");
}

/* every member of the golden @name, of another type: refused, naming it */
static void
test_refused(gconstpointer name)
{
	g_autofree gchar *text = wire_golden_read(name);
	g_autoptr(JsonNode) root = json_from_string(text, NULL);
	g_autoptr(GList) members = json_object_get_members(json_node_get_object(root));

	for (GList *l = members; l != NULL; l = l->next) {
		const gchar *member = l->data;
		g_autoptr(JsonNode) copy = json_from_string(text, NULL); /* a deep copy */
		JsonObject *obj = json_node_get_object(copy);
		gboolean is_array = JSON_NODE_HOLDS_ARRAY(json_object_get_member(obj, member));
		g_autofree gchar *bad = NULL;
		g_autofree gchar *bad_element = NULL;
		g_autofree gchar *named = g_strdup_printf("“%s” has the wrong type", member);
		const gchar *cases[2][2] = {{NULL, named}, {NULL, named}};

		if (g_strcmp0(member, "version") == 0 || g_strcmp0(member, "type_code") == 0)
			json_object_set_string_member(obj, member, "8");
		else
			json_object_set_int_member(obj, member, 1);
		bad = json_to_string(copy, FALSE);
		cases[0][0] = bad;
		/* an array with an element that is not a line */
		if (is_array) {
			JsonArray *lines = json_array_new();
			json_array_add_int_element(lines, 1);
			json_object_set_array_member(obj, member, lines);
			bad_element = json_to_string(copy, FALSE);
			cases[1][0] = bad_element;
		}
		wire_golden_refused(cases,
				    is_array ? 2 : 1,
				    parse_journal,
				    (GDestroyNotify) sdt_config_journal_doc_free);
	}
}

/* a required member that is absent or null */
static void
test_missing(void)
{
	static const gchar *const bad[][2] = {
		{"{\"version\": 2}", "“id” is missing"},
		{"{\"id\": \"a\", \"path\": \"/p\", \"filter\": null}",
		 "“filter” has the wrong type"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    parse_journal,
			    (GDestroyNotify) sdt_config_journal_doc_free);
}

int
main(int argc, char **argv)
{
	static const gchar *const goldens[] = {"config-journal-pi3.json",
					       "config-journal-pi5-disabled.json"};

	g_test_init(&argc, &argv, NULL);
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++) {
		g_autofree gchar *path =
			g_strdup_printf("/wire/config-journal-doc/golden/%s", goldens[i]);
		g_autofree gchar *refused =
			g_strdup_printf("/wire/config-journal-doc/refused/%s", goldens[i]);
		g_test_add_data_func(path, goldens[i], test_golden);
		g_test_add_data_func(refused, goldens[i], test_refused);
	}
	g_test_add_func("/wire/config-journal-doc/fields", test_fields);
	g_test_add_func("/wire/config-journal-doc/optional", test_optional);
	g_test_add_func("/wire/config-journal-doc/words", test_words);
	g_test_add_func("/wire/config-journal-doc/missing", test_missing);
	return g_test_run();
}
