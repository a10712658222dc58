/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * The config ops on real files in a scratch copy of the pi3 fixture (the SD
 * device chain from UMockdevTestbed; the binary runs under umockdev-wrapper):
 * sdt_ops_config_apply() and sdt_ops_config_revert() write what they say,
 * with the members of their replies in the order of the wire; the one read of
 * config.txt under the lock (sdt_config_writer_read()) is what the write
 * compares with, and a lock held by another SD Tuner is reported by the write.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <umockdev.h>

#include "sdt-test-util.h"
#include "sdt-config-apply.h"
#include "sdt-config-writer.h"
#include "sdt-error.h"
#include "sdt-json.h"
#include "sdt-ops-config.h"
#include "sdt-ops.h"

#define BOOT_ID "0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11\n"

typedef struct {
	UMockdevTestbed *testbed;
	SdtContext *ctx;
	gchar *tmp;
	gchar *root;
	gchar *boot;
	gchar *config;
	gchar *old; /* config.txt as the test wrote it */
} Fixture;

static gchar *
test_read(const gchar *path)
{
	gchar *data = NULL;

	g_assert_true(g_file_get_contents(path, &data, NULL, NULL));
	return data;
}

static void
test_write(const gchar *path, const gchar *data)
{
	g_autofree gchar *dir = g_path_get_dirname(path);

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(path, data, -1, NULL));
}

/* the SD clock in debugfs at 50 MHz: sd-overclock-100 is recommended */
static void
test_set_clock(Fixture *fx)
{
	g_autofree gchar *ios = g_build_filename(fx->root, "sys/kernel/debug/mmc0/ios", NULL);
	g_autofree gchar *text = test_read(ios);
	g_autoptr(GRegex) re = g_regex_new("actual clock:.*", 0, 0, NULL);
	g_autofree gchar *now =
		g_regex_replace(re, text, -1, 0, "actual clock:\t50000000 Hz", 0, NULL);

	test_write(ios, now);
}

static void
fixture_setup(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *device =
		g_test_build_filename(G_TEST_DIST, "data", "umockdev", "pi3.umockdev", NULL);
	g_autofree gchar *fixture =
		g_test_build_filename(G_TEST_DIST, "data", "roots", "pi3", NULL);
	g_autofree gchar *bookworm =
		g_test_build_filename(G_TEST_DIST, "data", "config", "rpios-bookworm.txt", NULL);
	g_autofree gchar *stock = test_read(bookworm);
	g_autofree gchar *boot_id = NULL;
	g_autofree gchar *extra = NULL;
	const gchar *cp[] = {"cp", "-a", fixture, NULL, NULL};
	gint status = -1;

	fx->tmp = sdt_test_mkdtemp("sdt-test-ops-config-XXXXXX");
	fx->root = g_build_filename(fx->tmp, "pi3", NULL);
	cp[3] = fx->root;
	g_assert_true(g_spawn_sync(NULL,
				   (gchar **) cp,
				   NULL,
				   G_SPAWN_SEARCH_PATH,
				   NULL,
				   NULL,
				   NULL,
				   NULL,
				   &status,
				   &error));
	g_assert_no_error(error);
	g_assert_cmpint(status, ==, 0);
	fx->boot = g_build_filename(fx->root, "boot", "firmware", NULL);
	fx->config = g_build_filename(fx->boot, "config.txt", NULL);
	fx->old = g_strconcat(stock, "include extra.txt\n", NULL);
	test_write(fx->config, fx->old);
	extra = g_build_filename(fx->boot, "extra.txt", NULL);
	test_write(extra, "# an include of the user\n");
	boot_id = g_build_filename(fx->root, "proc/sys/kernel/random/boot_id", NULL);
	test_write(boot_id, BOOT_ID);
	test_set_clock(fx);
	fx->testbed = umockdev_testbed_new();
	g_assert_true(umockdev_testbed_add_from_file(fx->testbed, device, &error));
	g_assert_no_error(error);
	fx->ctx = sdt_context_new(fx->root, &error);
	g_assert_no_error(error);
}

static void
fixture_teardown(Fixture *fx, gconstpointer data)
{
	g_clear_object(&fx->ctx);
	g_clear_object(&fx->testbed);
	g_assert_true(sdt_test_rm_rf(fx->tmp));
	g_free(fx->tmp);
	g_free(fx->root);
	g_free(fx->boot);
	g_free(fx->config);
	g_free(fx->old);
}

/* the member names of @node, in order, joined by "," */
static gchar *
test_members(JsonNode *node)
{
	g_autoptr(GString) s = g_string_new(NULL);
	g_autoptr(GList) names = json_object_get_members(json_node_get_object(node));

	for (GList *l = names; l != NULL; l = l->next)
		g_string_append_printf(s, "%s%s", s->len > 0 ? "," : "", (const gchar *) l->data);
	return g_string_free(g_steal_pointer(&s), FALSE);
}

/* the temporary files of a writer left in the boot folder */
static guint
test_count_tmp(Fixture *fx)
{
	g_autoptr(GDir) d = g_dir_open(fx->boot, 0, NULL);
	const gchar *name;
	guint n = 0;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL)
		n += strstr(name, ".sd-tuner-tmp-") != NULL;
	return n;
}

/* an answer's text (the codec's, src/wire) as a document to look into; NULL stays NULL */
static JsonNode *
test_node(gchar *text)
{
	g_autofree gchar *owned = text;
	g_autoptr(GError) error = NULL;
	JsonNode *node;

	if (owned == NULL)
		return NULL;
	node = json_from_string(owned, &error);
	g_assert_no_error(error);
	return node;
}

static void
test_apply_revert(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) applied =
		test_node(sdt_ops_config_apply(fx->ctx, "sd-overclock-100", FALSE, &error));
	g_autoptr(JsonNode) again = NULL;
	g_autoptr(JsonNode) reverted = NULL;
	g_autofree gchar *members = NULL;
	g_autofree gchar *now = NULL;
	g_autofree gchar *backup = NULL;
	JsonObject *o;

	g_assert_no_error(error);
	g_assert_nonnull(applied);
	members = test_members(applied);
	g_assert_cmpstr(members,
			==,
			"path,id,diff,backup,reboot_required,changed,disabled,warnings");
	o = json_node_get_object(applied);
	g_assert_cmpstr(json_object_get_string_member(o, "path"), ==, "/boot/firmware/config.txt");
	g_assert_true(json_object_get_boolean_member(o, "changed"));
	g_assert_true(json_object_get_boolean_member(o, "reboot_required"));
	g_assert_nonnull(
		strstr(json_object_get_string_member(o, "diff"), "+dtparam=sd_overclock=100\n"));
	now = test_read(fx->config);
	g_assert_true(g_str_has_prefix(now, fx->old));
	g_assert_nonnull(strstr(now, "\ndtparam=sd_overclock=100\n"));
	/* the backup the reply names holds config.txt as it was */
	backup = test_read(json_object_get_string_member(o, "backup"));
	g_assert_cmpstr(backup, ==, fx->old);
	g_assert_cmpuint(test_count_tmp(fx), ==, 0);

	/* the same change again: nothing written */
	again = test_node(sdt_ops_config_apply(fx->ctx, "sd-overclock-100", FALSE, &error));
	g_assert_no_error(error);
	o = json_node_get_object(again);
	g_assert_false(json_object_get_boolean_member(o, "changed"));
	g_assert_cmpstr(json_object_get_string_member(o, "diff"), ==, "");
	g_assert_true(json_object_get_null_member(o, "backup"));

	reverted = test_node(sdt_ops_config_revert(fx->ctx, &error));
	g_assert_no_error(error);
	g_assert_nonnull(reverted);
	g_free(members);
	members = test_members(reverted);
	g_assert_cmpstr(members,
			==,
			"id,path,diff,backup,backup_before_change,reboot_required,trial_cancelled,"
			"restored,kept,warnings");
	o = json_node_get_object(reverted);
	g_assert_cmpstr(json_object_get_string_member(o, "id"), ==, "sd-overclock-100");
	g_assert_true(json_object_get_boolean_member(o, "reboot_required"));
	g_assert_false(json_object_get_boolean_member(o, "trial_cancelled"));
	g_free(now);
	now = test_read(fx->config);
	g_assert_cmpstr(now, ==, fx->old);

	/* nothing left: the revert's own error */
	g_clear_pointer(&reverted, json_node_unref);
	reverted = test_node(sdt_ops_config_revert(fx->ctx, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_assert_null(reverted);
}

static void
test_trial(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) applied =
		test_node(sdt_ops_config_apply(fx->ctx, "sd-overclock-100", TRUE, &error));
	g_autoptr(JsonNode) reverted = NULL;
	g_autofree gchar *members = NULL;
	g_autofree gchar *tryboot = g_build_filename(fx->boot, "tryboot.txt", NULL);
	g_autofree gchar *tb = NULL;
	g_autofree gchar *now = NULL;
	JsonObject *o;

	g_assert_no_error(error);
	members = test_members(applied);
	g_assert_cmpstr(members,
			==,
			"path,trial,reboot_command,id,diff,backup,reboot_required,changed,disabled,"
			"warnings");
	o = json_node_get_object(applied);
	g_assert_cmpstr(json_object_get_string_member(o, "path"), ==, "/boot/firmware/tryboot.txt");
	g_assert_cmpstr(json_object_get_string_member(o, "reboot_command"),
			==,
			"sudo reboot '0 tryboot'");
	g_assert_true(json_object_get_boolean_member(o, "reboot_required"));
	tb = test_read(tryboot);
	g_assert_true(g_str_has_prefix(tb, fx->old));
	now = test_read(fx->config);
	g_assert_cmpstr(now, ==, fx->old);

	reverted = test_node(sdt_ops_config_revert(fx->ctx, &error));
	g_assert_no_error(error);
	o = json_node_get_object(reverted);
	g_assert_true(json_object_get_boolean_member(o, "trial_cancelled"));
	g_assert_false(json_object_get_boolean_member(o, "reboot_required"));
	g_assert_true(json_object_get_null_member(o, "id"));
	g_assert_false(g_file_test(tryboot, G_FILE_TEST_EXISTS));
}

static const gchar *const test_lines[] = {"dtparam=sd_overclock=100", NULL};

static const SdtConfigBlock test_block = {
	"sd-overclock-100",
	"[board-type=0x08]",
	test_lines,
	0x08,
	SDT_CONFIG_SD_OVERCLOCK,
};

/* another program edits config.txt after the one read: in place or by a new file */
static void
test_changed_after_read(Fixture *fx, gconstpointer data)
{
	for (guint replace = 0; replace < 2; replace++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(fx->ctx, &error);
		g_autoptr(GBytes) old = NULL;
		g_autoptr(SdtConfigTxt) cfg = NULL;
		g_autoptr(SdtConfigApplyResult) result = NULL;
		g_autofree gchar *theirs = g_strconcat(fx->old, "dtparam=audio=off\n", NULL);
		g_autofree gchar *now = NULL;

		test_write(fx->config, fx->old);
		g_assert_no_error(error);
		cfg = sdt_config_writer_read(writer, &old, &error);
		g_assert_no_error(error);
		g_assert_nonnull(cfg);
		if (replace) {
			g_autofree gchar *other = g_strconcat(fx->config, ".other", NULL);
			test_write(other, theirs);
			g_assert_cmpint(g_rename(other, fx->config), ==, 0);
		} else {
			FILE *f = g_fopen(fx->config, "a");
			g_assert_nonnull(f);
			g_assert_cmpint(fputs("dtparam=audio=off\n", f), >=, 0);
			g_assert_cmpint(fclose(f), ==, 0);
		}
		result = sdt_config_apply_write(writer, cfg, old, &test_block, FALSE, &error);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_CONFIG_CHANGED);
		g_assert_null(result);
		now = test_read(fx->config);
		g_assert_cmpstr(now, ==, theirs);
		g_assert_cmpuint(test_count_tmp(fx), ==, 0);
	}
}

/* the one read, then the write on it, with nothing in between: the typed result */
static void
test_read_then_write(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(fx->ctx, &error);
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtConfigTxt) cfg = sdt_config_writer_read(writer, &old, &error);
	g_autoptr(SdtConfigApplyResult) result = NULL;
	g_autofree gchar *now = NULL;
	g_autofree gchar *backup = NULL;

	g_assert_no_error(error);
	result = sdt_config_apply_write(writer, cfg, old, &test_block, FALSE, &error);
	g_assert_no_error(error);
	g_assert_nonnull(result);
	g_assert_cmpstr(result->id, ==, "sd-overclock-100");
	g_assert_cmpstr(result->path, ==, "/boot/firmware/config.txt");
	g_assert_true(result->changed);
	g_assert_false(result->trial);
	g_assert_cmpuint(result->disabled->len, ==, 0);
	now = test_read(fx->config);
	g_assert_true(g_str_has_prefix(now, fx->old));
	g_assert_nonnull(strstr(result->diff, "+dtparam=sd_overclock=100\n"));
	backup = test_read(result->backup);
	g_assert_cmpstr(backup, ==, fx->old);
}

/* a lock held by another SD Tuner: the read goes on, the write says so and writes nothing */
static void
test_lock_held(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigWriter) holder = sdt_config_writer_new(fx->ctx, &error);
	g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(fx->ctx, &error);
	g_autoptr(GBytes) held_old = NULL;
	g_autoptr(SdtConfigTxt) held = sdt_config_writer_read(holder, &held_old, &error);
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtConfigApplyResult) result = NULL;
	g_autofree gchar *now = NULL;

	g_assert_no_error(error);
	g_assert_nonnull(held);
	/* a first apply takes the lock before its first write, making its file */
	g_assert_true(sdt_config_writer_prepare(holder, &error));
	g_assert_no_error(error);
	cfg = sdt_config_writer_read(writer, &old, &error);
	g_assert_no_error(error);
	g_assert_nonnull(cfg);
	result = sdt_config_apply_write(writer, cfg, old, &test_block, FALSE, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_BUSY);
	g_assert_null(result);
	now = test_read(fx->config);
	g_assert_cmpstr(now, ==, fx->old);
}

/* the replies of typed results, byte for byte */
static void
test_replies(void)
{
	g_autoptr(GPtrArray) none = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	SdtConfigApplyResult a = {(gchar *) "sd-cqe-2",
				  (gchar *) "/boot/firmware/tryboot.txt",
				  (gchar *) "",
				  NULL,
				  FALSE,
				  TRUE,
				  none,
				  warnings};
	SdtConfigApplyRevert r = {NULL,
				  (gchar *) "/boot/firmware/config.txt",
				  (gchar *) "",
				  NULL,
				  (gchar *) "/b/config.txt.1",
				  FALSE,
				  TRUE,
				  (gchar *) "/b/tryboot.txt.1",
				  NULL,
				  none,
				  none,
				  warnings};
	g_autoptr(SdtConfigAnswerApply) aa = NULL;
	g_autoptr(SdtConfigAnswerRevert) ar = NULL;
	g_autoptr(JsonNode) na = NULL;
	g_autoptr(JsonNode) nr = NULL;
	g_autofree gchar *sa = NULL;
	g_autofree gchar *sr = NULL;

	g_ptr_array_add(warnings, g_strdup("w"));
	aa = sdt_ops_config_apply_answer(&a);
	ar = sdt_ops_config_revert_answer(&r);
	na = sdt_config_answer_apply_to_json(aa);
	nr = sdt_config_answer_revert_to_json(ar);
	sa = sdt_json_to_string(na, FALSE);
	sr = sdt_json_to_string(nr, FALSE);
	g_assert_cmpstr(sa,
			==,
			"{\"path\":\"/boot/firmware/tryboot.txt\",\"trial\":true,"
			"\"reboot_command\":\"sudo reboot '0 tryboot'\",\"id\":\"sd-cqe-2\","
			"\"diff\":\"\",\"backup\":null,\"reboot_required\":true,\"changed\":false,"
			"\"disabled\":[],\"warnings\":[\"w\"]}");
	g_assert_cmpstr(
		sr,
		==,
		"{\"tryboot_backup\":\"/b/tryboot.txt.1\",\"id\":null,"
		"\"path\":\"/boot/firmware/config.txt\",\"diff\":\"\",\"backup\":null,"
		"\"backup_before_change\":\"/b/config.txt.1\",\"reboot_required\":false,"
		"\"trial_cancelled\":true,\"restored\":[],\"kept\":[],\"warnings\":[\"w\"]}");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_setenv("LANGUAGE", "C", TRUE);
	g_test_add("/ops-config/apply-revert",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_apply_revert,
		   fixture_teardown);
	g_test_add("/ops-config/trial", Fixture, NULL, fixture_setup, test_trial, fixture_teardown);
	g_test_add("/ops-config/read-then-write",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_read_then_write,
		   fixture_teardown);
	g_test_add("/ops-config/changed-after-read",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_changed_after_read,
		   fixture_teardown);
	g_test_add("/ops-config/lock-held",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_lock_held,
		   fixture_teardown);
	g_test_add_func("/ops-config/replies", test_replies);
	return g_test_run();
}
