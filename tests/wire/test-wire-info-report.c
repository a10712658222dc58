/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The info report's codec (src/wire/sdt-info-report.c): every golden (`sdtunerctl
 * --json info` on each fixture root, tests/data/wire/info-report-*.json) reads and
 * writes back byte for byte; every member of the wrong type is refused naming it; a
 * member that is null or absent is unknown; members it does not know are ignored.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-info-report.h"
#include "sdt-info-report-private.h"
#include "sdt-json.h"

static const gchar *const fixtures[] = {
	"cm4-emmc",
	"pi3",
	"pi3-qemu",
	"pi4",
	"pi4-no-card",
	"pi5",
	"pi5-nvme-boot",
	"tinker-board",
};

/* the golden as sdtunerctl printed it, without its last newline */
static gchar *
golden(const gchar *fixture)
{
	g_autofree gchar *name = g_strdup_printf("info-report-%s.json", fixture);
	g_autofree gchar *path = g_test_build_filename(G_TEST_DIST, "data", "wire", name, NULL);
	g_autoptr(GError) error = NULL;
	gchar *text = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	g_assert_true(g_str_has_suffix(text, "}\n"));
	text[strlen(text) - 1] = '\0';
	return text;
}

static JsonNode *
parse(const gchar *text)
{
	g_autoptr(GError) error = NULL;
	JsonNode *node = json_from_string(text, &error);

	g_assert_no_error(error);
	return node;
}

static gchar *
node_text(JsonNode *node)
{
	return sdt_json_to_string(node, TRUE);
}

/* parse, then to_string: the same bytes */
static void
test_golden_round_trip(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(fixtures); i++) {
		g_autofree gchar *text = golden(fixtures[i]);
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtInfoReport) report = sdt_info_report_parse(text, &error);
		g_autofree gchar *again = NULL;

		g_test_message("%s", fixtures[i]);
		g_assert_no_error(error);
		again = sdt_info_report_to_string(report);
		g_assert_cmpstr(again, ==, text);
	}
}

/* the fields of two goldens: an SD card with every register, and eMMC */
static void
test_fields(void)
{
	g_autofree gchar *pi5 = golden("pi5");
	g_autofree gchar *cm4 = golden("cm4-emmc");
	g_autofree gchar *none = golden("pi4-no-card");
	g_autoptr(SdtInfoReport) r = sdt_info_report_parse(pi5, NULL);
	g_autoptr(SdtInfoReport) e = sdt_info_report_parse(cm4, NULL);
	g_autoptr(SdtInfoReport) n = sdt_info_report_parse(none, NULL);
	SdtInfoReportSetting *set;

	g_assert_cmpstr(r->board.model, ==, "Raspberry Pi 5 Model B Rev 1.0");
	g_assert_cmpstr(r->board.key, ==, "5");
	g_assert_cmpint(r->board.type_code, ==, 0x17);
	g_assert_cmpstr(r->board.filter, ==, "[board-type=0x17]");
	g_assert_cmpint(r->board.core_clock_hz, ==, SDT_INFO_REPORT_UNKNOWN);
	g_assert_true(r->card.present);
	g_assert_cmpstr(r->card.date, ==, "2022-11");
	g_assert_cmpint(r->card.app_class, ==, 2);
	g_assert_cmpint(r->card.cq_depth, ==, 32);
	g_assert_cmpint(r->card.cache, ==, SDT_INFO_REPORT_FLAG_YES);
	g_assert_cmpint(r->card.holds_system, ==, SDT_INFO_REPORT_FLAG_YES);
	g_assert_cmpuint(r->card.mount_points->len, ==, 2);
	g_assert_true(r->card.ext_perf.present);
	g_assert_true(r->card.ext_perf.cmd_queue);
	g_assert_true(r->card.ext_power.power_off_notify);
	g_assert_null(r->card.emmc);
	g_assert_cmpint(r->bus.clock_hz, ==, 200000000);
	g_assert_cmpfloat(r->bus.signal_voltage, ==, 1.8);
	g_assert_cmpfloat(r->bus.ceiling_mb_s, ==, 100);
	g_assert_cmpstr(r->bus.cqe, ==, "enabled");
	g_assert_true(r->kernel_log.read);
	g_assert_cmpint(r->kernel_log.cqe_enabled, ==, SDT_INFO_REPORT_FLAG_YES);
	g_assert_cmpint(r->kernel_log.cqe_tags, ==, 31);
	g_assert_cmpint(r->kernel_log.overclock_hz, ==, SDT_INFO_REPORT_UNKNOWN);
	g_assert_cmpstr(r->kernel_log.quirks, ==, "0x00004000");
	g_assert_nonnull(r->config);
	g_assert_cmpstr(r->config->path, ==, "/boot/firmware/config.txt");
	set = g_ptr_array_index(r->config->sd_settings, 1);
	g_assert_cmpstr(set->text, ==, "dtoverlay=sdtweak,poll_once");
	g_assert_cmpint(set->line, ==, 8);
	g_assert_true(set->applies);
	g_assert_nonnull(set->warning);
	g_assert_true(r->simulated);

	g_assert_cmpstr(e->card.kind, ==, "emmc");
	g_assert_nonnull(e->card.emmc);
	g_assert_cmpstr(e->card.emmc->wear, ==, "normal");
	g_assert_cmpint(e->card.emmc->life_time_b.value, ==, 3);
	g_assert_cmpint(e->card.emmc->life_time_b.used_max_percent, ==, 30);
	g_assert_cmpint(e->card.emmc->pre_eol, ==, 1);
	g_assert_cmpstr(e->card.emmc->raw_rev, ==, "0x8");
	g_assert_false(e->card.ext_perf.present);

	g_assert_false(n->card.present);
	g_assert_cmpint(n->card.holds_system, ==, SDT_INFO_REPORT_FLAG_UNKNOWN);
	g_assert_cmpstr(n->card.system_device, ==, "sda2");
	g_assert_true(isnan(n->bus.ceiling_mb_s));
	g_assert_cmpuint(n->warnings->len, ==, 1);
}

/* every member path of @node under @prefix (objects, arrays as [0]), depth first */
static void
collect_paths(JsonNode *node, const gchar *prefix, GPtrArray *out)
{
	if (JSON_NODE_HOLDS_OBJECT(node)) {
		JsonObject *obj = json_node_get_object(node);
		g_autoptr(GList) members = json_object_get_members(obj);
		for (GList *l = members; l != NULL; l = l->next) {
			g_autofree gchar *path =
				prefix[0] != '\0'
					? g_strdup_printf("%s.%s", prefix, (gchar *) l->data)
					: g_strdup(l->data);
			g_ptr_array_add(out, g_strdup(path));
			collect_paths(json_object_get_member(obj, l->data), path, out);
		}
	} else if (JSON_NODE_HOLDS_ARRAY(node) &&
		   json_array_get_length(json_node_get_array(node)) > 0) {
		JsonNode *first = json_array_get_element(json_node_get_array(node), 0);
		g_autofree gchar *path = g_strdup_printf("%s[0]", prefix);
		if (JSON_NODE_HOLDS_OBJECT(first))
			collect_paths(first, path, out);
	}
}

/* the object that holds the last member of @path ("config.sd_settings[0].text") */
static JsonObject *
parent_of(JsonObject *obj, const gchar *path, const gchar **member)
{
	g_auto(GStrv) parts = g_strsplit(path, ".", -1);
	guint n = g_strv_length(parts);

	for (guint i = 0; i + 1 < n; i++) {
		gchar *bracket = strchr(parts[i], '[');
		if (bracket != NULL) {
			*bracket = '\0';
			obj = json_array_get_object_element(
				json_object_get_array_member(obj, parts[i]),
				0);
		} else {
			obj = json_object_get_object_member(obj, parts[i]);
		}
	}
	*member = strrchr(path, '.') != NULL ? strrchr(path, '.') + 1 : path;
	return obj;
}

/* a value of another type than @node's: an int for a string, 1.5 for an int, ... */
static void
set_wrong_type(JsonObject *parent, const gchar *member, JsonNode *node)
{
	if (JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == G_TYPE_STRING)
		json_object_set_int_member(parent, member, 1);
	else if (JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == G_TYPE_INT64)
		json_object_set_double_member(parent, member, 1.5);
	else
		json_object_set_string_member(parent, member, "x");
}

/* each member of every golden, made of the wrong type: an error that names it */
static void
test_wrong_types(void)
{
	for (guint f = 0; f < G_N_ELEMENTS(fixtures); f++) {
		g_autofree gchar *text = golden(fixtures[f]);
		g_autoptr(JsonNode) doc = parse(text);
		g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);

		collect_paths(doc, "", paths);
		for (guint i = 0; i < paths->len; i++) {
			const gchar *path = g_ptr_array_index(paths, i);
			g_autoptr(JsonNode) root = parse(text);
			g_autoptr(GError) error = NULL;
			g_autoptr(SdtInfoReport) report = NULL;
			g_autofree gchar *quoted = g_strdup_printf("“%s”", path);
			const gchar *member;
			JsonObject *parent = parent_of(json_node_get_object(root), path, &member);
			JsonNode *node = json_object_get_member(parent, member);

			if (JSON_NODE_HOLDS_NULL(node))
				continue; /* of no type to be wrong about */
			set_wrong_type(parent, member, node);
			report = sdt_info_report_from_json(json_node_get_object(root), &error);
			g_test_message("%s %s: %s",
				       fixtures[f],
				       path,
				       error != NULL ? error->message : "-");
			g_assert_null(report);
			g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
			g_assert_nonnull(strstr(error->message, quoted));
		}
	}
}

/* an element of the wrong type in an array */
static void
test_wrong_elements(void)
{
	const gchar *cases[][2] = {
		{"{\"warnings\": [\"w\", 7]}", "“warnings[1]”"},
		{"{\"board\": {\"compatible\": [\"a\", {}]}}", "“board.compatible[1]”"},
		{"{\"card\": {\"mount_points\": [null]}}", "“card.mount_points[0]”"},
		{"{\"config\": {\"sd_settings\": [{\"text\": \"a\"}, \"b\"]}}",
		 "“config.sd_settings[1]”"},
		{"{\"config\": {\"sd_settings\": [{\"text\": \"a\"}, {\"warning\": false}]}}",
		 "“config.sd_settings[1].warning”"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtInfoReport) report = sdt_info_report_parse(cases[i][0], &error);

		g_assert_null(report);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, cases[i][1]));
	}
}

/* what a member null or absent writes back: null, or the default of one always written */
static void
assert_unknown(JsonNode *node)
{
	if (node == NULL || JSON_NODE_HOLDS_NULL(node) || JSON_NODE_HOLDS_OBJECT(node))
		return;
	if (JSON_NODE_HOLDS_ARRAY(node)) {
		g_assert_cmpuint(json_array_get_length(json_node_get_array(node)), ==, 0);
		return;
	}
	if (json_node_get_value_type(node) == G_TYPE_BOOLEAN)
		g_assert_false(json_node_get_boolean(node));
	else
		g_assert_cmpint(json_node_get_int(node), ==, 0);
}

/* each member null, then absent: the document reads, and that member is unknown */
static void
test_nulls_and_absent(void)
{
	g_autofree gchar *text = golden("cm4-emmc");
	g_autoptr(JsonNode) doc = parse(text);
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);

	collect_paths(doc, "", paths);
	for (guint i = 0; i < paths->len * 2; i++) {
		const gchar *path = g_ptr_array_index(paths, i / 2);
		g_autoptr(JsonNode) root = parse(text);
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtInfoReport) report = NULL;
		g_autoptr(JsonNode) back = NULL;
		const gchar *member;
		JsonObject *parent = parent_of(json_node_get_object(root), path, &member);

		if (i % 2 == 0)
			json_object_set_null_member(parent, member);
		else
			json_object_remove_member(parent, member);
		report = sdt_info_report_from_json(json_node_get_object(root), &error);
		g_test_message("%s (%s)", path, i % 2 == 0 ? "null" : "absent");
		g_assert_no_error(error);
		back = sdt_info_report_to_json(report);
		parent = parent_of(json_node_get_object(back), path, &member);
		if (parent != NULL)
			assert_unknown(json_object_get_member(parent, member));
	}
}

/* nothing at all, or every section null: every value unknown, no config written */
static void
test_empty(void)
{
	const gchar *docs[] = {
		"{}",
		"{\"board\": null, \"card\": null, \"bus\": null, \"kernel_log\": null, "
		"\"config\": null, \"warnings\": null, \"simulated\": null}",
	};

	for (guint i = 0; i < G_N_ELEMENTS(docs); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtInfoReport) r = sdt_info_report_parse(docs[i], &error);
		g_autoptr(SdtInfoReport) fresh = sdt_info_report_new();
		g_autofree gchar *a = NULL;
		g_autofree gchar *b = NULL;

		g_assert_no_error(error);
		g_assert_null(r->board.model);
		g_assert_false(r->card.present);
		g_assert_cmpint(r->card.cache, ==, SDT_INFO_REPORT_FLAG_UNKNOWN);
		g_assert_cmpint(r->card.manfid, ==, SDT_INFO_REPORT_UNKNOWN);
		g_assert_false(r->card.ext_perf.present);
		g_assert_null(r->card.emmc);
		g_assert_true(isnan(r->bus.ceiling_mb_s));
		g_assert_null(r->bus.timing);
		g_assert_false(r->kernel_log.read);
		g_assert_cmpint(r->kernel_log.overclock_cancelled,
				==,
				SDT_INFO_REPORT_FLAG_UNKNOWN);
		g_assert_null(r->config);
		g_assert_cmpuint(r->warnings->len, ==, 0);
		/* the same as a new report */
		a = sdt_info_report_to_string(r);
		b = sdt_info_report_to_string(fresh);
		g_assert_cmpstr(a, ==, b);
		g_assert_null(strstr(a, "\"config\""));
	}
}

/* members this version does not know, anywhere, are left out */
static void
test_unknown_members(void)
{
	g_autofree gchar *text = golden("pi4");
	g_autoptr(JsonNode) root = parse(text);
	JsonObject *obj = json_node_get_object(root);
	const gchar *inner[] = {"board", "card", "bus", "kernel_log", "config"};
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtInfoReport) report = NULL;
	g_autofree gchar *again = NULL;

	json_object_set_string_member(obj, "future", "x");
	for (guint i = 0; i < G_N_ELEMENTS(inner); i++)
		json_object_set_int_member(json_object_get_object_member(obj, inner[i]),
					   "future",
					   1);
	json_object_set_boolean_member(
		json_array_get_object_element(
			json_object_get_array_member(json_object_get_object_member(obj, "config"),
						     "sd_settings"),
			0),
		"future",
		TRUE);
	report = sdt_info_report_from_json(obj, &error);
	g_assert_no_error(error);
	again = sdt_info_report_to_string(report);
	g_assert_cmpstr(again, ==, text);
}

/* card.emmc alone (health writes and reads it too) */
static void
test_emmc_member(void)
{
	g_autofree gchar *text = golden("cm4-emmc");
	g_autoptr(JsonNode) root = parse(text);
	JsonObject *card = json_object_get_object_member(json_node_get_object(root), "card");
	g_autoptr(SdtInfoReportEmmc) emmc = NULL;
	g_autoptr(JsonNode) written = NULL;
	g_autoptr(JsonNode) null_node = sdt_info_report_emmc_to_json(NULL);
	g_autofree gchar *a = NULL;
	g_autofree gchar *b = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_true(sdt_info_report_read_emmc(card, "card", &emmc, &error));
	g_assert_no_error(error);
	written = sdt_info_report_emmc_to_json(emmc);
	a = node_text(written);
	b = node_text(json_object_get_member(card, "emmc"));
	g_assert_cmpstr(a, ==, b);
	g_assert_true(JSON_NODE_HOLDS_NULL(null_node));

	json_object_set_null_member(card, "emmc");
	g_clear_pointer(&emmc, sdt_info_report_emmc_free);
	g_assert_true(sdt_info_report_read_emmc(card, "card", &emmc, &error));
	g_assert_null(emmc);
	json_object_set_int_member(card, "emmc", 3);
	g_assert_false(sdt_info_report_read_emmc(card, "card", &emmc, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "“card.emmc”"));
}

/* the text is valid UTF-8 whatever the engine read; not JSON is an error */
static void
test_text(void)
{
	g_autoptr(SdtInfoReport) report = sdt_info_report_new();
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	report->board.model = g_strdup("Pi \xff");
	g_ptr_array_add(report->warnings, g_strdup("bad \xfe byte"));
	text = sdt_info_report_to_string(report);
	g_assert_true(g_utf8_validate(text, -1, NULL));
	g_assert_nonnull(strstr(text, "Pi \xef\xbf\xbd"));
	g_assert_null(sdt_info_report_parse("[1]", &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_clear_error(&error);
	g_assert_null(sdt_info_report_parse("{", &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/wire-info-report/golden-round-trip", test_golden_round_trip);
	g_test_add_func("/sdtuner/wire-info-report/fields", test_fields);
	g_test_add_func("/sdtuner/wire-info-report/wrong-types", test_wrong_types);
	g_test_add_func("/sdtuner/wire-info-report/wrong-elements", test_wrong_elements);
	g_test_add_func("/sdtuner/wire-info-report/nulls-and-absent", test_nulls_and_absent);
	g_test_add_func("/sdtuner/wire-info-report/empty", test_empty);
	g_test_add_func("/sdtuner/wire-info-report/unknown-members", test_unknown_members);
	g_test_add_func("/sdtuner/wire-info-report/emmc-member", test_emmc_member);
	g_test_add_func("/sdtuner/wire-info-report/text", test_text);
	return g_test_run();
}
