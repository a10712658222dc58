/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * The answers of apply and revert (src/wire/sdt-config-answer.c) on real
 * `sdtunerctl --root ... apply|revert --json` runs on the pi3 fixture: read
 * then written back, the same bytes; a member of the wrong type refused by
 * name; unknown members ignored; absent members their documented defaults.
 */

#include "config.h"

#include <string.h>

#include "sdt-config-answer.h"
#include "sdt-config-answer-private.h"
#include "sdt-error.h"

static gchar *
test_golden(const gchar *name)
{
	g_autofree gchar *file = g_strdup_printf("config-answer-%s.json", name);
	g_autofree gchar *path = g_test_build_filename(G_TEST_DIST, "data", "wire", file, NULL);
	g_autoptr(GError) error = NULL;
	gchar *text = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	return text;
}

static void
test_config_answer_apply_golden(void)
{
	const gchar *names[] = {"apply-changed", "apply-unchanged", "apply-trial"};

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree gchar *golden = test_golden(names[i]);
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtConfigAnswerApply) a = sdt_config_answer_apply_parse(golden, &error);
		g_autofree gchar *again = NULL;

		g_assert_no_error(error);
		again = sdt_config_answer_apply_to_string(a);
		g_assert_cmpstr(again, ==, golden);
	}
}

static void
test_config_answer_revert_golden(void)
{
	const gchar *names[] = {"revert", "revert-trial"};

	for (guint i = 0; i < G_N_ELEMENTS(names); i++) {
		g_autofree gchar *golden = test_golden(names[i]);
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtConfigAnswerRevert) r = sdt_config_answer_revert_parse(golden, &error);
		g_autofree gchar *again = NULL;

		g_assert_no_error(error);
		again = sdt_config_answer_revert_to_string(r);
		g_assert_cmpstr(again, ==, golden);
	}
}

static void
test_config_answer_fields(void)
{
	g_autofree gchar *changed = test_golden("apply-changed");
	g_autofree gchar *unchanged = test_golden("apply-unchanged");
	g_autofree gchar *trial = test_golden("apply-trial");
	g_autofree gchar *cancel = test_golden("revert-trial");
	g_autoptr(SdtConfigAnswerApply) a = sdt_config_answer_apply_parse(changed, NULL);
	g_autoptr(SdtConfigAnswerApply) u = sdt_config_answer_apply_parse(unchanged, NULL);
	g_autoptr(SdtConfigAnswerApply) t = sdt_config_answer_apply_parse(trial, NULL);
	g_autoptr(SdtConfigAnswerRevert) c = sdt_config_answer_revert_parse(cancel, NULL);

	g_assert_cmpstr(a->path, ==, "/boot/firmware/config.txt");
	g_assert_true(a->changed && a->reboot_required && !a->trial);
	g_assert_nonnull(strstr(a->diff, "+dtparam=sd_overclock=100\n"));
	g_assert_nonnull(a->backup);
	g_assert_cmpstr(g_ptr_array_index(a->disabled, 0), ==, "dtparam=sd_overclock=90");
	g_assert_cmpuint(a->warnings->len, ==, 2);
	/* the block found in place: no lists */
	g_assert_false(u->changed || u->reboot_required);
	g_assert_null(u->backup);
	g_assert_null(u->disabled);
	g_assert_null(u->warnings);
	g_assert_true(t->trial);
	g_assert_cmpstr(t->reboot_command, ==, "sudo reboot '0 tryboot'");
	g_assert_null(c->id);
	g_assert_true(c->trial_cancelled);
	g_assert_false(c->reboot_required);
	g_assert_cmpuint(c->warnings->len, ==, 1);
}

static void
test_config_answer_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigAnswerApply) a =
		sdt_config_answer_apply_parse("{\"path\": \"p\", \"future\": [1]}", &error);
	g_autoptr(SdtConfigAnswerRevert) r = NULL;
	g_autoptr(JsonNode) node = NULL;

	g_assert_no_error(error);
	g_assert_cmpstr(a->path, ==, "p");
	g_assert_null(a->id);
	g_assert_null(a->diff);
	g_assert_true(a->changed && a->reboot_required && !a->trial);
	r = sdt_config_answer_revert_parse("{\"diff\": \"\", \"backup\": null, \"x\": {}}", &error);
	g_assert_no_error(error);
	g_assert_cmpstr(r->diff, ==, "");
	g_assert_null(r->backup);
	g_assert_true(r->reboot_required);
	g_assert_false(r->trial_cancelled);
	g_assert_cmpuint(r->restored->len + r->kept->len + r->warnings->len, ==, 0);
	/* the object forms, both ways */
	node = sdt_config_answer_apply_to_json(a);
	g_clear_pointer(&a, sdt_config_answer_apply_free);
	a = sdt_config_answer_apply_from_json(json_node_get_object(node), &error);
	g_assert_no_error(error);
	g_assert_cmpstr(a->path, ==, "p");
	g_clear_pointer(&node, json_node_unref);
	node = sdt_config_answer_revert_to_json(r);
	g_clear_pointer(&r, sdt_config_answer_revert_free);
	r = sdt_config_answer_revert_from_json(json_node_get_object(node), &error);
	g_assert_no_error(error);
	g_assert_cmpstr(r->diff, ==, "");
}

static void
test_config_answer_bad(void)
{
	const gchar *apply[][2] = {
		{"{\"path\": 1}", "“path”"},
		{"{\"trial\": \"yes\"}", "“trial”"},
		{"{\"reboot_command\": []}", "“reboot_command”"},
		{"{\"id\": 2}", "“id”"},
		{"{\"diff\": {}}", "“diff”"},
		{"{\"backup\": false}", "“backup”"},
		{"{\"reboot_required\": 1}", "“reboot_required”"},
		{"{\"changed\": \"no\"}", "“changed”"},
		{"{\"disabled\": \"l\"}", "“disabled”"},
		{"{\"warnings\": [1]}", "“warnings[0]”"},
	};
	const gchar *revert[][2] = {
		{"{\"tryboot_backup\": 1}", "“tryboot_backup”"},
		{"{\"tryboot_restored\": 1}", "“tryboot_restored”"},
		{"{\"id\": 1}", "“id”"},
		{"{\"path\": 1}", "“path”"},
		{"{\"diff\": 1}", "“diff”"},
		{"{\"backup\": 1}", "“backup”"},
		{"{\"backup_before_change\": 1}", "“backup_before_change”"},
		{"{\"reboot_required\": \"y\"}", "“reboot_required”"},
		{"{\"trial_cancelled\": 0}", "“trial_cancelled”"},
		{"{\"restored\": {}}", "“restored”"},
		{"{\"kept\": [null]}", "“kept[0]”"},
		{"{\"warnings\": 3}", "“warnings”"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(apply); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtConfigAnswerApply) a =
			sdt_config_answer_apply_parse(apply[i][0], &error);

		g_assert_null(a);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, apply[i][1]));
	}
	for (guint i = 0; i < G_N_ELEMENTS(revert); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtConfigAnswerRevert) r =
			sdt_config_answer_revert_parse(revert[i][0], &error);

		g_assert_null(r);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, revert[i][1]));
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/wire/config-answer/apply-golden", test_config_answer_apply_golden);
	g_test_add_func("/wire/config-answer/revert-golden", test_config_answer_revert_golden);
	g_test_add_func("/wire/config-answer/fields", test_config_answer_fields);
	g_test_add_func("/wire/config-answer/unknown", test_config_answer_unknown);
	g_test_add_func("/wire/config-answer/bad", test_config_answer_bad);
	return g_test_run();
}
