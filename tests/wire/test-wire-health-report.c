/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The health report's codec (src/wire/sdt-health-report.c): every golden (`sdtunerctl
 * --root R --json health` on the fixture roots as tools/json-snapshot.sh runs it, and on
 * the Pi 4 with the kernel's counters, a slowing benchmark history and a device check of
 * the same card: tests/data/wire/health-report-*.json) reads and writes back byte for
 * byte; every member of the wrong type is refused naming it; a member that is null or
 * absent is unknown; members it does not know are ignored.
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-health-report.h"
#include "sdt-health-report-private.h"
#include "wire-golden.h"

static const gchar *const goldens[] = {
	"health-report-cm4-emmc.json",
	"health-report-pi4-no-card.json",
	"health-report-pi4-wear.json",
	"health-report-pi5.json",
	"health-report-pi5-nvme-boot.json",
};

static JsonNode *
parse(const gchar *text)
{
	g_autoptr(GError) error = NULL;
	JsonNode *node = json_from_string(text, &error);

	g_assert_no_error(error);
	return node;
}

static void
test_golden_round_trip(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(goldens); i++)
		wire_golden_round_trip(goldens[i],
				       (WireGoldenParse) sdt_health_report_parse,
				       (WireGoldenWrite) sdt_health_report_to_string,
				       (GDestroyNotify) sdt_health_report_free);
}

/* the fields of the goldens: a worn SD card, eMMC and no card */
static void
test_fields(void)
{
	g_autofree gchar *wear = wire_golden_read("health-report-pi4-wear.json");
	g_autofree gchar *cm4 = wire_golden_read("health-report-cm4-emmc.json");
	g_autofree gchar *none = wire_golden_read("health-report-pi4-no-card.json");
	g_autoptr(SdtHealthReport) w = sdt_health_report_parse(wear, NULL);
	g_autoptr(SdtHealthReport) e = sdt_health_report_parse(cm4, NULL);
	g_autoptr(SdtHealthReport) n = sdt_health_report_parse(none, NULL);
	SdtHealthReportPartition *p;
	SdtHealthReportFinding *f;

	g_assert_true(w->card.present);
	g_assert_cmpstr(w->card.device, ==, "mmcblk0");
	g_assert_cmpint(w->card.holds_system, ==, SDT_INFO_REPORT_FLAG_YES);
	g_assert_true(w->card.write_protect_known);
	g_assert_false(w->card.write_protect_permanent);
	g_assert_null(w->card.emmc);
	g_assert_cmpuint(w->partitions->len, ==, 2);
	p = g_ptr_array_index(w->partitions, 1);
	g_assert_cmpstr(p->filesystem, ==, "vfat");
	g_assert_cmpint(p->lifetime_write_bytes, ==, SDT_HEALTH_REPORT_UNKNOWN);
	g_assert_cmpint(w->lifetime_write_bytes, ==, G_GINT64_CONSTANT(126419751936));
	g_assert_cmpfloat(w->uptime_seconds, ==, 172800.5);
	g_assert_cmpint(w->written_bytes, ==, 4096000000);
	g_assert_nonnull(w->projection);
	g_assert_cmpint(w->kernel_errors_since_boot, ==, 2);
	g_assert_cmpstr(w->registers->verdict, ==, "suspicious");
	f = g_ptr_array_index(w->registers->findings, 0);
	g_assert_cmpstr(f->rule, ==, "speed-contradicted");
	g_assert_cmpint(w->trend->runs, ==, 6);
	g_assert_true(w->trend->seq_write_mb_s->alert);
	g_assert_cmpfloat(w->trend->seq_write_mb_s->change, ==, -0.5);
	g_assert_cmpuint(w->trend->alerts->len, ==, 2);
	g_assert_cmpstr(w->checked_before->match, ==, "cid");
	g_assert_cmpstr(w->checked_before->identity.serial_of, ==, "reader");
	g_assert_cmpint(w->checked_before->identity.size_bytes,
			==,
			G_GINT64_CONSTANT(128177930240));
	g_assert_null(w->check_journal_damaged);

	g_assert_cmpstr(e->card.kind, ==, "emmc");
	g_assert_nonnull(e->card.emmc);
	g_assert_cmpstr(e->card.emmc->wear, ==, "normal");
	g_assert_null(e->registers);
	g_assert_cmpuint(e->notes->len, ==, 3);

	g_assert_false(n->card.present);
	g_assert_cmpint(n->card.holds_system, ==, SDT_INFO_REPORT_FLAG_UNKNOWN);
	g_assert_cmpstr(n->card.system_device, ==, "sda2");
	g_assert_false(n->card.write_protect_known);
	g_assert_cmpint(n->card.capacity_bytes, ==, SDT_HEALTH_REPORT_UNKNOWN);
	g_assert_true(isnan(n->writes_per_day_bytes));
	g_assert_null(n->projection);
	g_assert_null(n->checked_before);
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

/* the object that holds the last member of @path ("partitions[0].device") */
static JsonObject *
parent_of(JsonObject *obj, const gchar *path, const gchar **member)
{
	g_auto(GStrv) parts = g_strsplit(path, ".", -1);
	guint n = g_strv_length(parts);

	for (guint i = 0; obj != NULL && i + 1 < n; i++) {
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
	for (guint g = 0; g < G_N_ELEMENTS(goldens); g++) {
		g_autofree gchar *text = wire_golden_read(goldens[g]);
		g_autoptr(JsonNode) doc = parse(text);
		g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);

		collect_paths(doc, "", paths);
		for (guint i = 0; i < paths->len; i++) {
			const gchar *path = g_ptr_array_index(paths, i);
			g_autoptr(JsonNode) root = parse(text);
			g_autoptr(GError) error = NULL;
			g_autoptr(SdtHealthReport) report = NULL;
			g_autofree gchar *quoted = g_strdup_printf("“%s”", path);
			const gchar *member;
			JsonObject *parent = parent_of(json_node_get_object(root), path, &member);
			JsonNode *node = json_object_get_member(parent, member);

			if (JSON_NODE_HOLDS_NULL(node))
				continue; /* of no type to be wrong about */
			set_wrong_type(parent, member, node);
			report = sdt_health_report_from_json(json_node_get_object(root), &error);
			g_test_message("%s %s: %s",
				       goldens[g],
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
	static const gchar *const bad[][2] = {
		{"{\"notes\": [\"n\", 7]}", "notes[1]"},
		{"{\"partitions\": [{\"device\": \"a\"}, \"b\"]}", "partitions[1]"},
		{"{\"partitions\": [{\"device\": \"a\"}, {\"read_only\": 1}]}",
		 "partitions[1].read_only"},
		{"{\"registers\": {\"findings\": [null]}}", "registers.findings[0]"},
		{"{\"trend\": {\"alerts\": [{}]}}", "trend.alerts[0]"},
	};

	wire_golden_refused(bad,
			    G_N_ELEMENTS(bad),
			    (WireGoldenParse) sdt_health_report_parse,
			    (GDestroyNotify) sdt_health_report_free);
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
	g_autofree gchar *text = wire_golden_read("health-report-pi4-wear.json");
	g_autoptr(JsonNode) doc = parse(text);
	g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func(g_free);

	collect_paths(doc, "", paths);
	for (guint i = 0; i < paths->len * 2; i++) {
		const gchar *path = g_ptr_array_index(paths, i / 2);
		g_autoptr(JsonNode) root = parse(text);
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtHealthReport) report = NULL;
		g_autoptr(JsonNode) back = NULL;
		const gchar *member;
		JsonObject *parent = parent_of(json_node_get_object(root), path, &member);

		if (i % 2 == 0)
			json_object_set_null_member(parent, member);
		else
			json_object_remove_member(parent, member);
		report = sdt_health_report_from_json(json_node_get_object(root), &error);
		g_test_message("%s (%s)", path, i % 2 == 0 ? "null" : "absent");
		g_assert_no_error(error);
		back = sdt_health_report_to_json(report);
		parent = parent_of(json_node_get_object(back), path, &member);
		if (parent != NULL)
			assert_unknown(json_object_get_member(parent, member));
	}
}

/* nothing at all: the same as a new report; members it does not know are left out */
static void
test_empty_and_unknown(void)
{
	g_autoptr(SdtHealthReport) empty = sdt_health_report_parse("{}", NULL);
	g_autoptr(SdtHealthReport) fresh = sdt_health_report_new();
	g_autofree gchar *a = sdt_health_report_to_string(empty);
	g_autofree gchar *b = sdt_health_report_to_string(fresh);
	g_autofree gchar *text = wire_golden_read("health-report-pi4-wear.json");
	g_autoptr(JsonNode) root = parse(text);
	JsonObject *obj = json_node_get_object(root);
	const gchar *inner[] = {"card", "since_boot", "projection", "registers", "trend"};
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHealthReport) report = NULL;
	g_autofree gchar *again = NULL;

	g_assert_cmpstr(a, ==, b);
	g_assert_nonnull(strstr(a, "\"trend\" : null"));
	json_object_set_string_member(obj, "future", "x");
	for (guint i = 0; i < G_N_ELEMENTS(inner); i++)
		json_object_set_int_member(json_object_get_object_member(obj, inner[i]),
					   "future",
					   1);
	report = sdt_health_report_from_json(obj, &error);
	g_assert_no_error(error);
	again = sdt_health_report_to_string(report);
	g_assert_cmpstr(again, ==, text);
}

/* "registers" alone (check's reply carries it too); not JSON is an error */
static void
test_registers_and_text(void)
{
	g_autoptr(SdtHealthReportRegisters) r = sdt_health_report_registers_new();
	g_autoptr(SdtHealthReportRegisters) back = NULL;
	g_autoptr(JsonNode) null_node = sdt_health_report_registers_to_json(NULL);
	g_autoptr(JsonObject) reply = json_object_new();
	g_autoptr(GError) error = NULL;

	r->verdict = g_strdup("suspicious");
	sdt_health_report_registers_add(r, "manfid-zero", g_strdup("m"));
	json_object_set_member(reply, "registers", sdt_health_report_registers_to_json(r));
	g_assert_true(sdt_health_report_read_registers(reply, NULL, &back, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(back->verdict, ==, "suspicious");
	g_assert_cmpuint(back->findings->len, ==, 1);
	g_assert_true(JSON_NODE_HOLDS_NULL(null_node));
	json_object_set_int_member(reply, "registers", 3);
	g_clear_pointer(&back, sdt_health_report_registers_free);
	g_assert_false(sdt_health_report_read_registers(reply, NULL, &back, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "“registers”"));
	g_clear_error(&error);
	g_assert_null(sdt_health_report_parse("[1]", &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/wire-health-report/golden-round-trip", test_golden_round_trip);
	g_test_add_func("/sdtuner/wire-health-report/fields", test_fields);
	g_test_add_func("/sdtuner/wire-health-report/wrong-types", test_wrong_types);
	g_test_add_func("/sdtuner/wire-health-report/wrong-elements", test_wrong_elements);
	g_test_add_func("/sdtuner/wire-health-report/nulls-and-absent", test_nulls_and_absent);
	g_test_add_func("/sdtuner/wire-health-report/empty-and-unknown", test_empty_and_unknown);
	g_test_add_func("/sdtuner/wire-health-report/registers-and-text", test_registers_and_text);
	return g_test_run();
}
