/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-ops.h"
#include "sdt-test-util.h"

/* the history's entries as `history --json` lists them (sdt_history_entries()) */
static JsonArray *
test_history_json(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) entries = sdt_history_entries(ctx, NULL, error);

	return entries != NULL ? sdt_history_entry_list_to_json(entries) : NULL;
}

/* sdt_ops_check()'s result (sdt_ops_check_owned(), -1: root's or ours) as its document */
static JsonNode *
test_ops_check_run(SdtContext *ctx, const gchar *mode, const gchar *dir, GError **error)
{
	g_autoptr(SdtCheckResult) result =
		sdt_ops_check_owned(ctx, mode, dir, -1, NULL, NULL, NULL, error);

	return result != NULL ? sdt_check_result_to_json(result) : NULL;
}

/*
 * sdt_ops_check() (sdt-ops-check.c): the quick check of a small real card, an ext4 file
 * system on a loop device (root; under CI=true a machine without loop devices fails), and
 * the targets it refuses with a sentence that says what to do: an unknown mode, a tmpfs,
 * a read-only mount. The loop device is attached and mounted by the parent and always
 * detached after; the body runs in a subprocess, so a failed assertion leaves nothing.
 */

#define MIB      (1024 * 1024)
#define CARD_MIB 96

static gboolean
test_ops_check_sh(const gchar *command, gchar **out)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *err = NULL;
	gint status = 0;
	const gchar *argv[] = {"sh", "-c", command, NULL};

	if (!g_spawn_sync(NULL,
			  (gchar **) argv,
			  NULL,
			  G_SPAWN_SEARCH_PATH,
			  NULL,
			  NULL,
			  out,
			  &err,
			  &status,
			  &error) ||
	    !g_spawn_check_wait_status(status, NULL)) {
		g_test_message("%s: %s", command, error != NULL ? error->message : err);
		return FALSE;
	}
	if (out != NULL)
		g_strstrip(*out);
	return TRUE;
}

/* where loop devices cannot be had: skip, but fail under CI=true */
static gboolean
test_ops_check_can_loop(void)
{
	const gchar *why = NULL;

	if (geteuid() != 0)
		why = "needs root (loop device, mount)";
	else if (!g_file_test("/dev/loop-control", G_FILE_TEST_EXISTS))
		why = "no /dev/loop-control";
	if (why == NULL)
		return TRUE;
	if (g_strcmp0(g_getenv("CI"), "true") == 0)
		g_error("cannot run under CI=true: %s", why);
	g_test_skip(why);
	return FALSE;
}

/* a new folder from the full path template @tmpl (disk-backed ones: not in /tmp) */
static gchar *
test_ops_check_mkdtemp(const gchar *tmpl)
{
	gchar *dir = g_mkdtemp_full(g_strdup(tmpl), 0700);

	g_assert_nonnull(dir);
	return dir;
}

typedef struct {
	gchar *scratch;
	gchar *mnt;
	gchar *loop;
} TestCard;

static gboolean
test_ops_check_card_up(TestCard *card, gboolean read_only)
{
	g_autofree gchar *image = NULL;
	g_autofree gchar *cmd = NULL;

	card->scratch = test_ops_check_mkdtemp("/var/tmp/sdt-ops-check-XXXXXX");
	image = g_build_filename(card->scratch, "card.img", NULL);
	card->mnt = g_build_filename(card->scratch, "mnt", NULL);
	g_assert_cmpint(g_mkdir(card->mnt, 0755), ==, 0);
	cmd = g_strdup_printf("truncate -s %dM '%s' && losetup -f --show '%s'",
			      CARD_MIB,
			      image,
			      image);
	if (!test_ops_check_sh(cmd, &card->loop))
		return FALSE;
	g_free(cmd);
	cmd = g_strdup_printf("mkfs.ext4 -q -F '%s' && mount %s '%s' '%s'",
			      card->loop,
			      read_only ? "-o ro" : "",
			      card->loop,
			      card->mnt);
	return test_ops_check_sh(cmd, NULL);
}

static void
test_ops_check_card_down(TestCard *card)
{
	g_autofree gchar *cmd = NULL;

	if (card->loop != NULL) {
		cmd = g_strdup_printf("umount '%s'; losetup -d '%s'", card->mnt, card->loop);
		test_ops_check_sh(cmd, NULL);
	}
	if (card->scratch != NULL)
		g_assert_true(sdt_test_rm_rf(card->scratch));
	g_free(card->scratch);
	g_free(card->mnt);
	g_free(card->loop);
}

/* runs the test's body (@path/subprocess) on a fresh card, its folder in $SDT_TEST_CARD */
static void
test_ops_check_on_card(const gchar *path, gboolean read_only)
{
	TestCard card = {0};
	g_autofree gchar *sub = g_strconcat(path, "/subprocess", NULL);

	if (!test_ops_check_can_loop())
		return;
	if (!test_ops_check_card_up(&card, read_only)) {
		test_ops_check_card_down(&card);
		if (g_strcmp0(g_getenv("CI"), "true") == 0)
			g_error("cannot run under CI=true: no loop device");
		g_test_skip("no loop device");
		return;
	}
	g_setenv("SDT_TEST_CARD", card.mnt, TRUE);
	g_test_trap_subprocess(sub, 240 * G_USEC_PER_SEC, G_TEST_SUBPROCESS_INHERIT_STDERR);
	test_ops_check_card_down(&card);
	g_test_trap_assert_passed();
}

static guint
test_ops_check_entries(const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const gchar *name;
	guint n = 0;

	g_assert_nonnull(d);
	while ((name = g_dir_read_name(d)) != NULL)
		if (strcmp(name, "lost+found") != 0)
			n++;
	return n;
}

static void
test_ops_check_genuine(void)
{
	test_ops_check_on_card("/sdtuner/ops-check/genuine", FALSE);
}

/* a genuine 96 MiB card: the verdict, the claim, no test file left, a stand-in not recorded */
static void
test_ops_check_genuine_body(void)
{
	const gchar *mnt = g_getenv("SDT_TEST_CARD");
	g_autofree gchar *root = test_ops_check_mkdtemp("/var/tmp/sdt-ops-check-root-XXXXXX");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtContext) ctx = sdt_context_new(root, &error);
	g_autoptr(JsonNode) node = NULL;
	g_autoptr(JsonArray) history = NULL;
	JsonObject *obj;

	g_assert_no_error(error);
	node = test_ops_check_run(ctx, "quick", mnt, &error);
	g_assert_no_error(error);
	obj = json_node_get_object(node);
	g_assert_cmpstr(json_object_get_string_member(obj, "verdict"), ==, "genuine");
	g_assert_cmpstr(json_object_get_string_member(obj, "mode"), ==, "quick");
	g_assert_cmpint(json_object_get_int_member(obj, "claimed_bytes"),
			==,
			(gint64) CARD_MIB * MIB);
	obj = json_object_get_object_member(json_node_get_object(node), "target");
	g_assert_cmpstr(json_object_get_string_member(obj, "path"), ==, mnt);
	g_assert_true(json_object_get_boolean_member(obj, "stand_in"));
	obj = json_object_get_object_member(json_node_get_object(node), "samples");
	g_assert_cmpint(json_object_get_int_member(obj, "bad"), ==, 0);
	g_assert_cmpint(json_object_get_int_member(obj, "read"), >, 0);
	/* the registers of a stand-in are nobody's: null */
	g_assert_true(JSON_NODE_HOLDS_NULL(
		json_object_get_member(json_node_get_object(node), "registers")));
	g_assert_cmpuint(test_ops_check_entries(mnt), ==, 0);
	history = test_history_json(ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(history), ==, 0);
	g_assert_true(sdt_test_rm_rf(root));
}

static void
test_ops_check_read_only(void)
{
	test_ops_check_on_card("/sdtuner/ops-check/read-only", TRUE);
}

static void
test_ops_check_read_only_body(void)
{
	const gchar *mnt = g_getenv("SDT_TEST_CARD");
	g_autofree gchar *root = test_ops_check_mkdtemp("/var/tmp/sdt-ops-check-root-XXXXXX");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtContext) ctx = sdt_context_new(root, &error);
	g_autoptr(JsonNode) node = NULL;

	g_assert_no_error(error);
	node = test_ops_check_run(ctx, "quick", mnt, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_READ_ONLY);
	g_assert_nonnull(strstr(error->message, "remount it read-write"));
	g_assert_null(node);
	g_assert_true(sdt_test_rm_rf(root));
}

/* no loop device needed: an unknown mode and a tmpfs are refused, saying what to do */
static void
test_ops_check_refused(void)
{
	g_autofree gchar *root = test_ops_check_mkdtemp("/var/tmp/sdt-ops-check-root-XXXXXX");
	g_autofree gchar *shm = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtContext) ctx = sdt_context_new(root, &error);
	g_autoptr(JsonNode) turbo = NULL;
	g_autoptr(JsonNode) tmpfs = NULL;

	g_assert_no_error(error);
	turbo = test_ops_check_run(ctx, "turbo", "/var/tmp", &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_assert_nonnull(strstr(error->message, "use quick or full"));
	g_assert_null(turbo);
	g_clear_error(&error);
	if (g_file_test("/dev/shm", G_FILE_TEST_IS_DIR)) {
		shm = test_ops_check_mkdtemp("/dev/shm/sdt-ops-check-XXXXXX");
		tmpfs = test_ops_check_run(ctx, "quick", shm, &error);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_SUPPORTED);
		/* memory is what is wrong with it, said first (issue 32) */
		g_assert_nonnull(strstr(error->message, "is in memory (tmpfs), not on a card"));
		g_assert_null(tmpfs);
		g_assert_cmpuint(test_ops_check_entries(shm), ==, 0);
		g_assert_true(sdt_test_rm_rf(shm));
	}
	g_assert_true(sdt_test_rm_rf(root));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-check/refused", test_ops_check_refused);
	g_test_add_func("/sdtuner/ops-check/genuine", test_ops_check_genuine);
	g_test_add_func("/sdtuner/ops-check/genuine/subprocess", test_ops_check_genuine_body);
	g_test_add_func("/sdtuner/ops-check/read-only", test_ops_check_read_only);
	g_test_add_func("/sdtuner/ops-check/read-only/subprocess", test_ops_check_read_only_body);
	return g_test_run();
}
