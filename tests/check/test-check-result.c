/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The check result's codec (src/check/sdt-check-result.c): what it reads it
 * writes back byte for byte (the document of a real quick check of a 96 MiB
 * ext4 loop card, its history entry, a fake card's figures, a full check's
 * rates, a whole card's write cache), an unknown number is NaN in C and null on the wire, and bad
 * input is SDT_ERROR_INVALID_DATA naming the member.
 */

#include <math.h>
#include <string.h>

#include "sdt-check-result.h"
#include "sdt-error.h"
#include "sdt-json.h"

static JsonNode *
parse(const gchar *text)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(GError) error = NULL;

	json_parser_load_from_data(parser, text, -1, &error);
	g_assert_no_error(error);
	return json_node_copy(json_parser_get_root(parser));
}

/* `sdtunerctl --json check --dir` of a real quick run, as printed */
static JsonNode *
real_document(void)
{
	g_autofree gchar *path =
		g_test_build_filename(G_TEST_DIST, "data", "check", "quick-run.json", NULL);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = NULL;
	g_autoptr(JsonNode) root = NULL;
	g_autofree gchar *again = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	root = parse(text);
	/* the printing is the CLI's, so a round trip compares bytes */
	again = sdt_json_to_string(root, TRUE);
	g_assert_cmpstr(again, ==, g_strchomp(text));
	return g_steal_pointer(&root);
}

/* `sdtunerctl --json check --device` of a stand-in (tests/fake-card: cache 1024/512
 * MiB, a 32 MiB cache of the last writes), as printed: the quick mode's write cache */
static JsonNode *
cache_document(void)
{
	g_autofree gchar *path =
		g_test_build_filename(G_TEST_DIST, "data", "check", "device-cache-run.json", NULL);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	return parse(text);
}

/* the document without @members (the history's envelope) */
static gchar *
without(JsonObject *obj, const gchar *const *members)
{
	g_autoptr(JsonNode) node = json_node_init_object(json_node_alloc(), obj);
	g_autofree gchar *text = sdt_json_to_string(node, FALSE);
	g_autoptr(JsonNode) dup = parse(text); /* a deep copy: @obj stays as it is */
	JsonObject *o = json_node_get_object(dup);

	for (guint i = 0; members[i] != NULL; i++)
		json_object_remove_member(o, members[i]);
	return sdt_json_to_string(dup, TRUE);
}

/* to_json(from_json(x)) as the CLI prints it */
static gchar *
round_trip(JsonObject *obj, SdtCheckResult **out)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtCheckResult) result = sdt_check_result_from_json(obj, &error);
	g_autoptr(JsonNode) node = NULL;

	g_assert_no_error(error);
	g_assert_nonnull(result);
	node = sdt_check_result_to_json(result);
	if (out != NULL)
		*out = g_steal_pointer(&result);
	return sdt_json_to_string(node, TRUE);
}

static void
test_check_result_real_document(void)
{
	/* the registers ops adds are the result's too (issue 36): the whole reply */
	static const gchar *const none[] = {NULL};
	g_autoptr(JsonNode) root = real_document();
	JsonObject *obj = json_node_get_object(root);
	g_autoptr(SdtCheckResult) r = NULL;
	g_autofree gchar *again = round_trip(obj, &r);
	g_autofree gchar *expected = without(obj, none);

	g_assert_cmpstr(again, ==, expected);
	g_assert_cmpstr(r->verdict, ==, "genuine");
	g_assert_cmpstr(r->mode, ==, "quick");
	g_assert_cmpint(r->claimed_bytes, ==, 100663296);
	g_assert_false(sdt_check_result_has_capacity(r));
	g_assert_true(isnan(r->estimated_capacity_bytes));
	g_assert_true(isnan(r->first_bad_offset));
	g_assert_null(r->failure);
	g_assert_cmpfloat(r->coverage, ==, 0.5234375);
	g_assert_cmpstr(r->target.filesystem, ==, "ext4");
	g_assert_true(r->target.stand_in);
	g_assert_cmpint(r->reserved_bytes, ==, 47185920);
	g_assert_cmpint(r->samples.written, ==, 2313);
	g_assert_cmpint(r->samples.no_wrap_up_to, ==, 100597760);
	g_assert_true(isnan(r->write_mb_s));
	g_assert_cmpuint(r->notes->len, ==, 1);
}

/* a write cache found: its range in bytes, what was written after the blocks; a
 * document with none found has no range; one from before the cache round has none */
static void
test_check_result_write_cache(void)
{
	static const gchar *const added[] = {NULL}; /* the identity is the result's too */
	g_autoptr(JsonNode) root = cache_document();
	JsonObject *obj = json_node_get_object(root);
	g_autoptr(SdtCheckResult) r = NULL;
	g_autofree gchar *again = round_trip(obj, &r);
	g_autofree gchar *expected = without(obj, added);
	g_autoptr(SdtCheckResult) none = NULL;
	g_autoptr(SdtCheckResult) old = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autoptr(JsonNode) old_root = real_document();
	JsonObject *cache;

	g_assert_cmpstr(again, ==, expected);
	g_assert_cmpstr(r->failure, ==, "lost-writes");
	g_assert_true(r->target.whole_device);
	g_assert_cmpint(r->cache_flushed_bytes, ==, 32 * 1048576);
	g_assert_cmpfloat(r->cache_at_least_bytes, ==, 16 * 1048576.0);
	g_assert_cmpfloat(r->cache_at_most_bytes, ==, 32 * 1048576.0);
	g_assert_cmpuint(r->map->len, >, 1);

	/* none found: the range is null on the wire, NaN in C */
	cache = json_object_get_object_member(obj, "write_cache");
	json_object_set_null_member(cache, "at_least_bytes");
	json_object_set_null_member(cache, "at_most_bytes");
	json_object_set_int_member(cache, "flushed_bytes", 128 * 1048576);
	g_free(again);
	again = round_trip(obj, &none);
	g_assert_true(isnan(none->cache_at_most_bytes));
	g_assert_cmpint(none->cache_flushed_bytes, ==, 128 * 1048576);
	g_assert_nonnull(strstr(again, "\"at_most_bytes\" : null"));

	/* a document of a version before: not sized, and not written back */
	old = sdt_check_result_from_json(json_node_get_object(old_root), NULL);
	g_assert_nonnull(old);
	g_assert_cmpint(old->cache_flushed_bytes, ==, -1);
	node = sdt_check_result_to_json(old);
	g_assert_false(json_object_has_member(json_node_get_object(node), "write_cache"));
}

/* a history entry: the check's members and the history's own, which the codec
 * leaves to the history (sdt-history.c) */
static void
test_check_result_history_entry(void)
{
	static const gchar *const envelope[] = {"kind", "time", "config_sha256", NULL};
	g_autoptr(JsonNode) root = real_document();
	JsonObject *obj = json_node_get_object(root);
	g_autofree gchar *again = NULL;
	g_autofree gchar *expected = NULL;

	json_object_set_string_member(obj, "kind", "check");
	json_object_set_string_member(obj, "time", "2026-12-02T03:00:00Z");
	json_object_set_string_member(obj, "config_sha256", "00ff");
	again = round_trip(obj, NULL);
	expected = without(obj, envelope);
	g_assert_cmpstr(again, ==, expected);
}

/* a fake card's capacity figures are numbers, a full check writes its rates */
static void
test_check_result_fake_full(void)
{
	static const gchar *const registers[] = {"registers", NULL};
	g_autoptr(JsonNode) root = real_document();
	JsonObject *obj = json_node_get_object(root);
	g_autoptr(SdtCheckResult) r = NULL;
	g_autofree gchar *again = NULL;
	g_autofree gchar *expected = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autofree gchar *text = NULL;

	json_object_set_string_member(obj, "verdict", "fake");
	json_object_set_string_member(obj, "mode", "full");
	json_object_set_int_member(obj, "estimated_capacity_bytes", 50331648);
	json_object_set_int_member(obj, "capacity_at_least_bytes", 49283072);
	json_object_set_int_member(obj, "capacity_at_most_bytes", 50331648);
	json_object_set_int_member(obj, "first_bad_offset", 50335744);
	json_object_set_string_member(obj, "failure", "block at 48 MiB came back wrong");
	/* write_mb_s and read_mb_s sit after reserved_top_offset in the engine's order */
	json_object_remove_member(obj, "samples");
	json_object_remove_member(obj, "notes");
	json_object_remove_member(obj, "registers");
	json_object_set_double_member(obj, "write_mb_s", 12.5);
	json_object_set_double_member(obj, "read_mb_s", 20.25);
	{
		g_autoptr(JsonNode) doc = real_document();
		JsonObject *d = json_node_get_object(doc);
		json_object_set_member(obj,
				       "samples",
				       json_node_copy(json_object_get_member(d, "samples")));
		json_object_set_member(obj,
				       "notes",
				       json_node_copy(json_object_get_member(d, "notes")));
	}
	again = round_trip(obj, &r);
	expected = without(obj, registers);
	g_assert_cmpstr(again, ==, expected);
	g_assert_true(sdt_check_result_has_capacity(r));
	g_assert_cmpfloat(r->capacity_at_least_bytes, ==, 49283072.0);
	g_assert_cmpfloat(r->first_bad_offset, ==, 50335744.0);
	g_assert_cmpfloat(r->read_mb_s, ==, 20.25);

	/* a full result with an unknown rate writes null, a quick one none */
	r->write_mb_s = NAN;
	node = sdt_check_result_to_json(r);
	g_assert_true(json_object_get_null_member(json_node_get_object(node), "write_mb_s"));
	g_clear_pointer(&node, json_node_unref);
	g_free(r->mode);
	r->mode = g_strdup("quick");
	node = sdt_check_result_to_json(r);
	g_assert_false(json_object_has_member(json_node_get_object(node), "read_mb_s"));
	text = sdt_json_to_string(node, FALSE);
	g_assert_null(strstr(text, "mb_s"));
}

/* null and absent are the one unknown: NaN, NULL, 0 for a count */
static void
test_check_result_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) root =
		parse("{\"verdict\": \"undetermined\", \"coverage\": null, \"reason\": null}");
	g_autoptr(SdtCheckResult) r =
		sdt_check_result_from_json(json_node_get_object(root), &error);
	g_autoptr(JsonNode) node = NULL;
	JsonObject *out;

	g_assert_no_error(error);
	g_assert_true(isnan(r->coverage));
	g_assert_true(isnan(r->seconds));
	g_assert_null(r->reason);
	g_assert_null(r->target.path);
	g_assert_cmpint(r->claimed_bytes, ==, 0);
	g_assert_cmpint(r->samples.read, ==, 0);
	g_assert_cmpuint(r->notes->len, ==, 0);
	node = sdt_check_result_to_json(r);
	out = json_node_get_object(node);
	g_assert_true(json_object_get_null_member(out, "coverage"));
	g_assert_true(json_object_get_null_member(out, "seconds"));
	g_assert_true(json_object_get_null_member(out, "estimated_capacity_bytes"));
	g_assert_true(json_object_get_null_member(out, "reason"));
	g_assert_cmpint(json_object_get_int_member(out, "claimed_bytes"), ==, 0);
}

static void
test_check_result_malformed(void)
{
	static const struct {
		const gchar *json;
		const gchar *names;
	} bad[] = {
		{"{}", "verdict"},
		{"{\"verdict\": null}", "verdict"},
		{"{\"verdict\": 3}", "verdict"},
		{"{\"verdict\": \"fake\", \"claimed_bytes\": \"64 GB\"}", "claimed_bytes"},
		{"{\"verdict\": \"fake\", \"claimed_bytes\": 1.5}", "claimed_bytes"},
		{"{\"verdict\": \"fake\", \"estimated_capacity_bytes\": \"big\"}",
		 "estimated_capacity_bytes"},
		{"{\"verdict\": \"fake\", \"failure\": false}", "failure"},
		{"{\"verdict\": \"fake\", \"coverage\": []}", "coverage"},
		{"{\"verdict\": \"fake\", \"target\": \"/dev/mmcblk0\"}", "target"},
		{"{\"verdict\": \"fake\", \"target\": {\"disk\": 5}}", "target.disk"},
		{"{\"verdict\": \"fake\", \"target\": {\"stand_in\": \"no\"}}", "target.stand_in"},
		{"{\"verdict\": \"fake\", \"samples\": {\"read\": \"a\"}}", "samples.read"},
		{"{\"verdict\": \"fake\", \"notes\": [\"ok\", 1]}", "notes[1]"},
		{"{\"verdict\": \"fake\", \"read_mb_s\": \"fast\"}", "read_mb_s"},
		{"{\"verdict\": \"fake\", \"write_cache\": 8}", "write_cache"},
		{"{\"verdict\": \"fake\", \"write_cache\": {}}", "write_cache.flushed_bytes"},
		{"{\"verdict\": \"fake\", \"write_cache\": {\"flushed_bytes\": 1, "
		 "\"at_most_bytes\": \"32 MiB\"}}",
		 "write_cache.at_most_bytes"},
		/* what ops adds */
		{"{\"verdict\": \"fake\", \"registers\": \"plausible\"}", "registers"},
		{"{\"verdict\": \"fake\", \"identity\": \"sdb\"}", "identity"},
		{"{\"verdict\": \"fake\", \"identity\": {\"size_bytes\": \"8 GB\"}}",
		 "identity.size_bytes"},
		{"{\"verdict\": \"fake\", \"identity\": {\"cid\": 1}}", "identity.cid"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonNode) root = parse(bad[i].json);
		g_autoptr(SdtCheckResult) r =
			sdt_check_result_from_json(json_node_get_object(root), &error);

		g_assert_null(r);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		if (strstr(error->message, bad[i].names) == NULL)
			g_error("%s: “%s” does not name %s",
				bad[i].json,
				error->message,
				bad[i].names);
	}
}

/* the register plausibility beside the result in the helper's answer, read from its text */
static void
test_check_result_registers(void)
{
	g_autoptr(SdtHealthReportRegisters) registers = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_true(sdt_check_result_parse_registers(
		"{\"registers\": {\"verdict\": \"suspicious\", \"findings\": "
		"[{\"rule\": \"manfid-zero\", \"message\": \"m\"}]}}",
		&registers,
		&error));
	g_assert_no_error(error);
	g_assert_cmpstr(registers->verdict, ==, "suspicious");
	g_assert_cmpuint(registers->findings->len, ==, 1);
	g_clear_pointer(&registers, sdt_health_report_registers_free);
	/* absent and null: none */
	g_assert_true(sdt_check_result_parse_registers("{}", &registers, &error));
	g_assert_no_error(error);
	g_assert_null(registers);
	g_assert_true(
		sdt_check_result_parse_registers("{\"registers\": null}", &registers, &error));
	g_assert_no_error(error);
	g_assert_null(registers);
	/* the wrong type is refused by name; so is a reply that is not an object */
	g_assert_false(sdt_check_result_parse_registers("{\"registers\": 3}", &registers, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "registers"));
	g_clear_error(&error);
	g_assert_false(sdt_check_result_parse_registers("[1]", &registers, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/check-result/real-document", test_check_result_real_document);
	g_test_add_func("/check-result/history-entry", test_check_result_history_entry);
	g_test_add_func("/check-result/fake-full", test_check_result_fake_full);
	g_test_add_func("/check-result/write-cache", test_check_result_write_cache);
	g_test_add_func("/check-result/unknown", test_check_result_unknown);
	g_test_add_func("/check-result/malformed", test_check_result_malformed);
	g_test_add_func("/check-result/registers", test_check_result_registers);
	return g_test_run();
}
