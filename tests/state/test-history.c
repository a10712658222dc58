/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-ops.h"
#include "sdt-test-config.h"

/* the history's entries as `history --json` lists them (sdt_history_entries()) */
static JsonArray *
test_history_json(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) entries = sdt_history_entries(ctx, NULL, error);

	return entries != NULL ? sdt_history_entry_list_to_json(entries) : NULL;
}

/* sdt_history_append() of an entry of @kind around @doc (its members as given) */
static gboolean
test_history_append(SdtContext *ctx, const gchar *kind, JsonObject *doc, GError **error)
{
	g_autoptr(SdtHistoryEntry) entry = sdt_history_entry_new(kind, NULL, doc);

	return sdt_history_append(ctx, entry, NULL, error);
}

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

static SdtContext *
test_root_new(gchar **root_out)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *root = sdt_test_mkdtemp("sdt-history-XXXXXX");
	SdtContext *ctx;

	ctx = sdt_context_new(root, &error);
	g_assert_no_error(error);
	*root_out = g_steal_pointer(&root);
	return ctx;
}

static void
test_history_empty_is_empty_array(void)
{
	g_autofree gchar *root = NULL;
	g_autoptr(SdtContext) ctx = test_root_new(&root);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = test_ops_history_node(ctx, &error);

	g_assert_no_error(error);
	g_assert_nonnull(node);
	g_assert_cmpuint(
		json_array_get_length(
			json_object_get_array_member(json_node_get_object(node), "entries")),
		==,
		0);
	sdt_test_rm_rf(root);
}

static void
test_history_append_keeps_order_and_skips_damage(void)
{
	g_autofree gchar *root = NULL;
	g_autoptr(SdtContext) ctx = test_root_new(&root);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonArray) list = NULL;
	g_autofree gchar *junk = NULL;

	for (gint i = 0; i < 5; i++) {
		g_autoptr(JsonObject) entry = json_object_new();
		json_object_set_int_member(entry, "n", i);
		g_assert_true(test_history_append(ctx, i % 2 ? "apply" : "bench", entry, &error));
		g_assert_no_error(error);
	}
	/* a damaged entry and a leftover temporary file must not hide the rest */
	junk = g_build_filename(root, "var/lib/sd-tuner/history/0000000000000001-bench.json", NULL);
	g_assert_true(g_file_set_contents(junk, "{ not json", -1, NULL));
	g_free(junk);
	junk = g_build_filename(root, "var/lib/sd-tuner/history/.0000-bench.json.XYZ123", NULL);
	g_assert_true(g_file_set_contents(junk, "{}", -1, NULL));

	list = test_history_json(ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(list), ==, 5);
	for (guint i = 0; i < 5; i++) {
		JsonObject *o = json_array_get_object_element(list, i);
		g_assert_cmpint(json_object_get_int_member(o, "n"), ==, i);
		g_assert_cmpstr(json_object_get_string_member(o, "kind"),
				==,
				i % 2 ? "apply" : "bench");
		g_assert_true(g_str_has_suffix(json_object_get_string_member(o, "time"), "Z"));
	}
	sdt_test_rm_rf(root);
}

static void
test_history_unwritable_state_dir_is_an_error(void)
{
	g_autofree gchar *root = NULL;
	g_autoptr(SdtContext) ctx = test_root_new(&root);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) entry = json_object_new();
	g_autofree gchar *blocker = g_build_filename(root, "var", NULL);

	/* "var" is a file, so the state dir cannot be made */
	g_assert_true(g_file_set_contents(blocker, "", 0, NULL));
	g_assert_false(test_history_append(ctx, "bench", entry, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_FAILED);
	g_assert_nonnull(strstr(error->message, "var/lib/sd-tuner/history"));
	sdt_test_rm_rf(root);
}

/*
 * Entries past 2038, when a 32-bit time_t (Bookworm's armhf glibc) runs out:
 * the history keeps 64-bit times, so they get the right "time", file names
 * that sort after today's and before later ones, and list in that order.
 */
static void
test_history_past_2038(void)
{
	static const struct {
		const gchar *iso;
		const gchar *file; /* microseconds since the epoch */
	} when[] = {
		/* the last second a 32-bit time_t holds, and the first past it */
		{"2038-01-19T03:14:07Z", "2147483647000000-apply.json"},
		{"2038-01-19T03:14:08Z", "2147483648000000-apply.json"},
		{"2040-02-29T12:34:56.789012Z", "2214131696789012-apply.json"},
	};
	g_autofree gchar *root = NULL;
	g_autoptr(SdtContext) ctx = test_root_new(&root);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonArray) list = NULL;

	/* written newest first: the order comes from the times, not the writes */
	for (gint i = G_N_ELEMENTS(when) - 1; i >= 0; i--) {
		g_autoptr(GDateTime) t = g_date_time_new_from_iso8601(when[i].iso, NULL);
		g_autoptr(JsonObject) entry = json_object_new();
		g_autofree gchar *path = NULL;

		g_assert_nonnull(t);
		sdt_context_set_now(ctx, t);
		json_object_set_int_member(entry, "n", i);
		g_assert_true(test_history_append(ctx, "apply", entry, &error));
		g_assert_no_error(error);
		path = g_build_filename(root, "var/lib/sd-tuner/history", when[i].file, NULL);
		g_assert_true(g_file_test(path, G_FILE_TEST_IS_REGULAR));
	}
	/* and one at the real time, which is before all of them */
	sdt_context_set_now(ctx, NULL);
	{
		g_autoptr(JsonObject) entry = json_object_new();
		json_object_set_int_member(entry, "n", -1);
		g_assert_true(test_history_append(ctx, "bench", entry, &error));
		g_assert_no_error(error);
	}

	list = test_history_json(ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(list), ==, G_N_ELEMENTS(when) + 1);
	g_assert_cmpint(json_object_get_int_member(json_array_get_object_element(list, 0), "n"),
			==,
			-1);
	for (guint i = 0; i < G_N_ELEMENTS(when); i++) {
		JsonObject *o = json_array_get_object_element(list, i + 1);
		g_autoptr(GDateTime) want = g_date_time_new_from_iso8601(when[i].iso, NULL);
		g_autoptr(GDateTime) got =
			g_date_time_new_from_iso8601(json_object_get_string_member(o, "time"),
						     NULL);

		g_assert_cmpint(json_object_get_int_member(o, "n"), ==, i);
		g_assert_nonnull(got);
		g_assert_true(g_date_time_equal(got, want));
		g_assert_cmpint(g_date_time_get_year(got), >=, 2038);
	}
	sdt_test_rm_rf(root);
}

/* what a history write killed between its temporary file and the rename leaves */
static gchar *
test_history_make_temp(const gchar *root, const gchar *name)
{
	g_autofree gchar *dir = g_build_filename(root, "var", "lib", "sd-tuner", "history", NULL);
	gchar *path = g_build_filename(dir, name, NULL);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(path, "{\"kind\": \"ben", -1, NULL));
	return path;
}

static void
test_history_stale_temp_files_removed(void)
{
	g_autofree gchar *root = NULL;
	g_autoptr(SdtContext) ctx = test_root_new(&root);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) entry = json_object_new();
	g_autoptr(JsonArray) list = NULL;
	g_autofree gchar *stale1 =
		test_history_make_temp(root, "1764579600000000-bench.json.Ab3dE9");
	g_autofree gchar *stale2 =
		test_history_make_temp(root, "1764579600000001-apply.json.ZZZZZZ");
	/* not of the temporary shape: not ours to remove */
	g_autofree gchar *other = test_history_make_temp(root, "notes.json.Ab3dE9");
	g_autofree gchar *other2 = test_history_make_temp(root, "1764579600000002-bench.json.x");

	/* a write cleans up first */
	g_assert_true(test_history_append(ctx, "bench", entry, &error));
	g_assert_no_error(error);
	g_assert_false(g_file_test(stale1, G_FILE_TEST_EXISTS));
	g_assert_false(g_file_test(stale2, G_FILE_TEST_EXISTS));
	g_assert_true(g_file_test(other, G_FILE_TEST_EXISTS));
	g_assert_true(g_file_test(other2, G_FILE_TEST_EXISTS));
	list = test_history_json(ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(list), ==, 1);

	/* and the helper's start-up, without a write */
	g_clear_pointer(&stale1, g_free);
	stale1 = test_history_make_temp(root, "1764579600000003-revert.json.q1W2e3");
	g_assert_cmpuint(sdt_history_remove_stale(ctx, &error), ==, 1);
	g_assert_no_error(error);
	g_assert_false(g_file_test(stale1, G_FILE_TEST_EXISTS));
	g_assert_true(g_file_test(other, G_FILE_TEST_EXISTS));
	g_clear_pointer(&list, json_array_unref);
	list = test_history_json(ctx, &error);
	g_assert_cmpuint(json_array_get_length(list), ==, 1);
	sdt_test_rm_rf(root);
}

/* entries that are not small regular files are skipped without blocking */
static void
test_history_odd_files_skipped_subprocess(void)
{
	g_autofree gchar *root = NULL;
	g_autoptr(SdtContext) ctx = test_root_new(&root);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) entry = json_object_new();
	g_autoptr(JsonArray) list = NULL;
	g_autofree gchar *dir = g_build_filename(root, "var", "lib", "sd-tuner", "history", NULL);
	g_autofree gchar *fifo = g_build_filename(dir, "1764579600000000-bench.json", NULL);
	g_autofree gchar *link = g_build_filename(dir, "1764579600000001-bench.json", NULL);
	g_autofree gchar *big = g_build_filename(dir, "1764579600000002-bench.json", NULL);
	g_autofree gchar *big_text = NULL;
	g_autoptr(GString) padding = g_string_new("{\"kind\": \"bench\", \"pad\": \"");

	json_object_set_int_member(entry, "n", 1);
	g_assert_true(test_history_append(ctx, "apply", entry, &error));
	g_assert_no_error(error);
	/* a FIFO would block a plain read for ever, with the helper's caller waiting */
	g_assert_cmpint(mkfifo(fifo, 0644), ==, 0);
	g_assert_cmpint(symlink("/etc/passwd", link), ==, 0);
	while (padding->len < 300 * 1024)
		g_string_append(padding,
				"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	g_string_append(padding, "\"}");
	g_assert_true(g_file_set_contents(big, padding->str, -1, NULL));

	list = test_history_json(ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(list), ==, 1);
	g_assert_cmpstr(
		json_object_get_string_member(json_array_get_object_element(list, 0), "kind"),
		==,
		"apply");
	sdt_test_rm_rf(root);
}

static void
test_history_odd_files_skipped(void)
{
	/* in a child with a time limit: on failure it would hang on the FIFO */
	g_test_trap_subprocess("/sdtuner/history/odd-files-skipped/subprocess",
			       10 * G_USEC_PER_SEC,
			       G_TEST_SUBPROCESS_INHERIT_STDERR);
	g_test_trap_assert_passed();
}

static void
test_history_write(const gchar *root, const gchar *name, const gchar *data, gssize len)
{
	g_autofree gchar *dir = g_build_filename(root, "var/lib/sd-tuner/history", NULL);
	g_autofree gchar *path = g_build_filename(dir, name, NULL);
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_file_set_contents(path, data, len, &error);
	g_assert_no_error(error);
}

/* whether this json-glib parses "\ud800" alone (before 1.10) or refuses it (1.10 on) */
static gboolean
test_history_parser_takes_lone_surrogate(void)
{
	g_autoptr(JsonParser) parser = json_parser_new();

	return json_parser_load_from_data(parser, "[\"a\\ud800b\"]", -1, NULL);
}

/* issue 9 (tests): tampered history entries are refused with a reason, never
 * handed to a reader that would hit a Json-CRITICAL or print invalid UTF-8 */
static void
test_history_tampered_entries(void)
{
	g_autofree gchar *root = NULL;
	g_autoptr(SdtContext) ctx = test_root_new(&root);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autofree gchar *fifo = NULL;
	const gchar *seeds[] = {"1767225600000000-apply.json",
				"1767225600000001-revert.json",
				"1767225600000002-bench.json"};
	JsonObject *obj;
	JsonArray *entries;
	JsonArray *warnings;
	const gchar *id;

	/* the entries SD Tuner writes are read */
	for (guint i = 0; i < G_N_ELEMENTS(seeds); i++) {
		g_autofree gchar *path =
			g_test_build_filename(G_TEST_DIST, "data", "history", seeds[i], NULL);
		g_autofree gchar *text = NULL;
		gsize len = 0;
		g_assert_true(g_file_get_contents(path, &text, &len, NULL));
		test_history_write(root, seeds[i], text, (gssize) len);
	}
	/* wrong types, where `sdtunerctl history` reads them */
	test_history_write(root,
			   "1767225600000003-apply.json",
			   "{\"kind\": {\"x\": 1}, \"time\": \"2026-01-01T00:00:00Z\"}",
			   -1);
	test_history_write(root,
			   "1767225600000004-apply.json",
			   "{\"kind\": \"apply\", \"time\": \"t\", \"id\": 5, \"trial\": \"yes\"}",
			   -1);
	test_history_write(root, "1767225600000005-apply.json", "[1, 2]", -1);
	test_history_write(root, "1767225600000006-apply.json", "{\"time\": \"t\"}", -1);
	/* a lone surrogate decodes to bytes that are not UTF-8 */
	test_history_write(root,
			   "1767225600000007-apply.json",
			   "{\"kind\": \"apply\", \"time\": \"t\", \"id\": \"a\\ud800b\"}",
			   -1);
	/* a FIFO planted in the folder: never opened for reading, no hang */
	fifo = g_build_filename(root, "var/lib/sd-tuner/history/1767225600000008-bench.json", NULL);
	g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);

	node = test_ops_history_node(ctx, &error);
	g_assert_no_error(error);
	obj = json_node_get_object(node);
	entries = json_object_get_array_member(obj, "entries");
	warnings = json_object_get_array_member(obj, "warnings");
	g_assert_nonnull(warnings);
	/* the lone surrogate: json-glib before 1.10 (bookworm) decodes it to bytes that are
	 * not UTF-8, which the reader repairs (U+FFFD) and keeps; 1.10 (trixie) refuses the
	 * file as JSON, which the reader skips as damaged, naming it: either way no invalid
	 * UTF-8 comes out, and nothing is dropped without a warning */
	if (test_history_parser_takes_lone_surrogate()) {
		g_assert_cmpuint(json_array_get_length(entries), ==, 4);
		id = json_object_get_string_member(json_array_get_object_element(entries, 3), "id");
		g_assert_true(g_utf8_validate(id, -1, NULL));
		g_assert_true(g_str_has_prefix(id, "a\uFFFD"));
		g_assert_cmpuint(json_array_get_length(warnings), ==, 5);
	} else {
		g_assert_cmpuint(json_array_get_length(entries), ==, 3);
		g_assert_cmpuint(json_array_get_length(warnings), ==, 6);
		g_assert_nonnull(strstr(json_array_get_string_element(warnings, 4),
					"1767225600000007-apply.json"));
		g_assert_nonnull(strstr(json_array_get_string_element(warnings, 4), "not JSON"));
	}
	g_assert_cmpstr(
		json_object_get_string_member(json_array_get_object_element(entries, 0), "kind"),
		==,
		"apply");
	g_assert_cmpstr(
		json_object_get_string_member(json_array_get_object_element(entries, 2), "kind"),
		==,
		"bench");
	/* each skipped entry is explained, by file name */
	g_assert_nonnull(
		strstr(json_array_get_string_element(warnings, 0), "1767225600000003-apply.json"));
	g_assert_nonnull(
		strstr(json_array_get_string_element(warnings, 0), "\"kind\" has the wrong type"));
	g_assert_nonnull(
		strstr(json_array_get_string_element(warnings, 1), "\"id\" has the wrong type"));
	g_assert_nonnull(strstr(json_array_get_string_element(warnings, 2), "not a JSON object"));
	g_assert_nonnull(strstr(json_array_get_string_element(warnings, 3), "no \"kind\" member"));
	g_assert_nonnull(
		strstr(json_array_get_string_element(warnings, json_array_get_length(warnings) - 1),
		       "not a regular file"));
	sdt_test_rm_rf(root);
}

/* a check's verdict is a word, a benchmark's an object: every check entry was skipped as
 * damaged ("verdict" has the wrong type), found by the real-kernel tier (tests/vm: `history`
 * after `check` on the emulated Pi 3) */
static void
test_history_check_entry(void)
{
	g_autofree gchar *root = NULL;
	g_autoptr(SdtContext) ctx = test_root_new(&root);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) check = NULL;
	g_autoptr(JsonNode) node = NULL;
	JsonObject *obj;
	JsonArray *entries;
	JsonArray *warnings;

	/* the members sdt_check_run() gives, as the guest printed them */
	check = json_from_string("{\"verdict\": \"genuine\", \"mode\": \"quick\", "
				 "\"claimed_bytes\": 4294967296, \"target\": {\"path\": "
				 "\"/var/lib/sd-tuner\", \"device\": \"mmcblk0p2\", "
				 "\"stand_in\": false}, \"samples\": {\"read\": 762, "
				 "\"written\": 308, \"bad\": 0, \"top_verified\": 12}}",
				 &error);
	g_assert_no_error(error);
	g_assert_true(test_history_append(ctx, "check", json_node_get_object(check), &error));
	g_assert_no_error(error);
	/* the other way round is still damage */
	test_history_write(root,
			   "1767225600000001-bench.json",
			   "{\"kind\": \"bench\", \"time\": \"t\", \"verdict\": \"genuine\"}",
			   -1);
	test_history_write(root,
			   "1767225600000002-check.json",
			   "{\"kind\": \"check\", \"time\": \"t\", \"verdict\": {\"a1\": true}}",
			   -1);

	node = test_ops_history_node(ctx, &error);
	g_assert_no_error(error);
	obj = json_node_get_object(node);
	entries = json_object_get_array_member(obj, "entries");
	g_assert_cmpuint(json_array_get_length(entries), ==, 1);
	obj = json_array_get_object_element(entries, 0);
	g_assert_cmpstr(json_object_get_string_member(obj, "kind"), ==, "check");
	g_assert_true(JSON_NODE_HOLDS_VALUE(json_object_get_member(obj, "verdict")));
	g_assert_cmpstr(json_object_get_string_member(obj, "verdict"), ==, "genuine");
	warnings = json_object_get_array_member(json_node_get_object(node), "warnings");
	g_assert_cmpuint(json_array_get_length(warnings), ==, 2);
	for (guint i = 0; i < 2; i++)
		g_assert_nonnull(strstr(json_array_get_string_element(warnings, i),
					"\"verdict\" has the wrong type"));
	sdt_test_rm_rf(root);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/history/empty-is-empty-array", test_history_empty_is_empty_array);
	g_test_add_func("/sdtuner/history/odd-files-skipped", test_history_odd_files_skipped);
	g_test_add_func("/sdtuner/history/odd-files-skipped/subprocess",
			test_history_odd_files_skipped_subprocess);
	g_test_add_func("/sdtuner/history/stale-temp-files-removed",
			test_history_stale_temp_files_removed);
	g_test_add_func("/sdtuner/history/append-keeps-order-and-skips-damage",
			test_history_append_keeps_order_and_skips_damage);
	g_test_add_func("/sdtuner/history/unwritable-state-dir-is-an-error",
			test_history_unwritable_state_dir_is_an_error);
	g_test_add_func("/sdtuner/history/past-2038", test_history_past_2038);
	g_test_add_func("/sdtuner/history/tampered-entries", test_history_tampered_entries);
	g_test_add_func("/sdtuner/history/check-entry", test_history_check_entry);
	return g_test_run();
}
