/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * The authenticity check against fake cards made with FUSE (tests/fake-card):
 * a file claiming 512 MiB that stores less, under a loop device, with ext4
 * over the whole claimed size and user files in the low addresses.  Every
 * run ends with fake-card.sh verify: e2fsck -fn clean, user files match their
 * SHA-256 sums, nothing left in the file system.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "sdt-check.h"
#include "sdt-error.h"

#define MIB       (G_GUINT64_CONSTANT(1) << 20)
#define CLAIM_MIB 512
#define TEST_DIR  "/var/tmp"

typedef struct {
	gchar *dir;
	gchar *mnt;
	gchar *loop;
} TestCard;

static gchar *
test_script(void)
{
	return g_test_build_filename(G_TEST_DIST, "fake-card", "fake-card.sh", NULL);
}

static gboolean
test_can_run(void)
{
	if (geteuid() != 0) {
		g_test_skip("needs root (FUSE, loop devices, mount)");
		return FALSE;
	}
	if (!g_file_test("/dev/fuse", G_FILE_TEST_EXISTS)) {
		g_test_skip("no /dev/fuse on this machine");
		return FALSE;
	}
	return TRUE;
}

static void
test_run_script(const gchar *cmd, const gchar *dir, const gchar *extra)
{
	g_autofree gchar *script = test_script();
	g_autofree gchar *line =
		g_strdup_printf("%s %s %s %s", script, cmd, dir, extra != NULL ? extra : "");
	g_autofree gchar *out = NULL;
	g_autofree gchar *err = NULL;
	g_autoptr(GError) error = NULL;
	gint status = 0;

	g_assert_true(g_spawn_command_line_sync(line, &out, &err, &status, &error));
	g_assert_no_error(error);
	if (!g_spawn_check_wait_status(status, NULL))
		g_error("%s failed: %s%s", line, out, err);
	if (out != NULL && out[0] != '\0')
		g_test_message("%s", g_strstrip(out));
}

static TestCard *
test_card_up(const gchar *kind, guint real_mib)
{
	TestCard *card = g_new0(TestCard, 1);
	g_autofree gchar *tmpl = g_build_filename(TEST_DIR, "sdt-check-XXXXXX", NULL);
	/* real sizes above 1 TiB-in-MiB are bytes */
	g_autofree gchar *args = real_mib > 1048576
					 ? g_strdup_printf("%s %u %ub", kind, CLAIM_MIB, real_mib)
					 : g_strdup_printf("%s %u %u", kind, CLAIM_MIB, real_mib);
	g_autofree gchar *loop_file = NULL;

	card->dir = g_mkdtemp(g_steal_pointer(&tmpl));
	g_assert_nonnull(card->dir);
	test_run_script("up", card->dir, args);
	card->mnt = g_build_filename(card->dir, "mnt", NULL);
	loop_file = g_build_filename(card->dir, "loop", NULL);
	g_assert_true(g_file_get_contents(loop_file, &card->loop, NULL, NULL));
	g_strstrip(card->loop);
	return card;
}

static void
test_card_down(TestCard *card)
{
	test_run_script("down", card->dir, NULL);
	g_free(card->dir);
	g_free(card->mnt);
	g_free(card->loop);
	g_free(card);
}

static guint64
test_free_bytes(const gchar *dir)
{
	struct statvfs vfs;
	g_assert_cmpint(statvfs(dir, &vfs), ==, 0);
	return (guint64) vfs.f_bfree * vfs.f_frsize;
}

static JsonObject *
test_check(TestCard *card, const SdtCheckConfig *config, JsonNode **node_out)
{
	g_autoptr(GError) error = NULL;
	guint64 free_before = test_free_bytes(card->mnt);
	JsonNode *node = sdt_check_run(card->mnt, config, NULL, NULL, NULL, &error);
	g_autofree gchar *text = NULL;

	g_assert_no_error(error);
	g_assert_nonnull(node);
	text = json_to_string(node, TRUE);
	g_test_message("%s", text);
	/* the reserved file is gone: all its space is free again */
	g_assert_cmpuint(test_free_bytes(card->mnt), >=, free_before - MIB);
	*node_out = node;
	return json_node_get_object(node);
}

static void
test_assert_fake(JsonObject *obj, const gchar *failure, guint real_mib)
{
	gint64 estimate;
	guint64 real = real_mib > 1048576 ? real_mib : real_mib * MIB;

	g_assert_cmpstr(json_object_get_string_member(obj, "verdict"), ==, "fake");
	g_assert_cmpstr(json_object_get_string_member(obj, "failure"), ==, failure);
	g_assert_cmpint(json_object_get_int_member(obj, "claimed_bytes"), ==, CLAIM_MIB * MIB);
	estimate = json_object_get_int_member(obj, "estimated_capacity_bytes");
	g_test_message("estimate %" G_GINT64_FORMAT " MiB for a real %" G_GUINT64_FORMAT " MiB",
		       estimate / (gint64) MIB,
		       real / MIB);
	g_assert_cmpint(estimate, >=, (gint64) (real / 10 * 9));
	g_assert_cmpint(estimate, <=, (gint64) (real / 10 * 11));
	g_assert_false(json_object_get_null_member(obj, "first_bad_offset"));
	g_assert_cmpint(json_object_get_int_member(obj, "first_bad_offset"),
			<=,
			(gint64) (real / 10 * 11));
}

static void
test_fake_kind(const gchar *kind, guint real_mib, const gchar *failure, gboolean skip_read)
{
	TestCard *card;
	SdtCheckConfig config;
	g_autoptr(JsonNode) node = NULL;
	JsonObject *obj;

	if (!test_can_run())
		return;
	card = test_card_up(kind, real_mib);
	sdt_check_config_init(&config, SDT_CHECK_MODE_QUICK);
	config.stand_in = TRUE;
	config.skip_read_phase = skip_read;
	obj = test_check(card, &config, &node);
	if (failure == NULL) {
		g_assert_cmpstr(json_object_get_string_member(obj, "verdict"), ==, "genuine");
		g_assert_true(json_object_get_null_member(obj, "estimated_capacity_bytes"));
		g_assert_true(json_object_get_null_member(obj, "first_bad_offset"));
		g_assert_cmpfloat(json_object_get_double_member(obj, "coverage"), >, 0.5);
	} else {
		test_assert_fake(obj, failure, real_mib);
	}
	g_assert_true(json_object_get_boolean_member(json_object_get_object_member(obj, "target"),
						     "stand_in"));
	test_run_script("verify", card->dir, NULL);
	test_card_down(card);
}

static void
test_check_wrap(void)
{
	/* found by the read-only phase: no write at all */
	test_fake_kind("wrap", 256, "wrap", FALSE);
}

static void
test_check_wrap_below_guard(void)
{
	/* a wrap at 256 GB-style 256 * 10^6 bytes, below the write guard's sizes
	 * (half the claim and up): the read-only phase alone finds it */
	test_fake_kind("wrap", 256000000, "wrap", FALSE);
}

static void
test_check_wrap_write_guard_alone(void)
{
	/* without the read-only phase, the write guard alone keeps the user's data
	 * intact and the overwritten aliases still give the wrap away */
	test_fake_kind("wrap", 256, "wrap", TRUE);
}

static void
test_check_zeros(void)
{
	test_fake_kind("zeros", 384, "lost-writes", FALSE);
}

static void
test_check_eio(void)
{
	test_fake_kind("eio", 320, "io-error", FALSE);
}

static void
test_check_eio_writes(void)
{
	test_fake_kind("eio", 320, "io-error", TRUE);
}

static void
test_check_genuine(void)
{
	test_fake_kind("genuine", CLAIM_MIB, NULL, FALSE);
}

static void
test_cancel_in_write_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer user_data)
{
	if (g_strcmp0(phase, "write") == 0)
		g_cancellable_cancel(G_CANCELLABLE(user_data));
}

static void
test_shell(const gchar *line)
{
	gint status = 0;
	g_autoptr(GError) error = NULL;
	g_assert_true(g_spawn_command_line_sync(line, NULL, NULL, &status, &error));
	g_assert_no_error(error);
	g_assert_true(g_spawn_check_wait_status(status, NULL));
}

/* refusals and Stop: a clear error, nothing left behind, the data intact */
static void
test_check_bad_input(void)
{
	TestCard *card;
	SdtCheckConfig config;
	g_autoptr(GError) error = NULL;
	g_autoptr(GCancellable) cancellable = g_cancellable_new();
	g_autofree gchar *line = NULL;
	g_autofree gchar *filler = NULL;
	g_autofree gchar *shm = NULL;
	g_autofree gchar *stale = NULL;
	guint64 free_before;
	JsonNode *node;

	if (!test_can_run())
		return;
	card = test_card_up("genuine", CLAIM_MIB);
	sdt_check_config_init(&config, SDT_CHECK_MODE_QUICK);

	/* read-only */
	line = g_strdup_printf("mount -o remount,ro %s", card->mnt);
	test_shell(line);
	node = sdt_check_run(card->mnt, &config, NULL, NULL, NULL, &error);
	g_assert_null(node);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_READ_ONLY);
	g_test_message("%s", error->message);
	g_clear_error(&error);
	g_free(line);
	line = g_strdup_printf("mount -o remount,rw %s", card->mnt);
	test_shell(line);

	/* not a block device */
	shm = g_dir_make_tmp("sdt-check-XXXXXX", NULL);
	g_assert_nonnull(shm);
	g_chmod(shm, 0755);
	if (g_file_test("/dev/shm", G_FILE_TEST_IS_DIR)) {
		g_autofree gchar *tdir = g_build_filename("/dev/shm", "sdt-check-tmpfs", NULL);
		g_mkdir(tdir, 0755);
		node = sdt_check_run(tdir, &config, NULL, NULL, NULL, &error);
		g_assert_null(node);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_SUPPORTED);
		g_test_message("%s", error->message);
		g_clear_error(&error);
		g_rmdir(tdir);
	}
	g_rmdir(shm);

	/* not a directory */
	node = sdt_check_run("/nonexistent/sdt-check", &config, NULL, NULL, NULL, &error);
	g_assert_null(node);
	g_assert_nonnull(error);
	g_clear_error(&error);

	/* too little free space */
	free_before = test_free_bytes(card->mnt);
	filler = g_build_filename(card->mnt, "filler", NULL);
	g_free(line);
	line = g_strdup_printf("fallocate -l %" G_GUINT64_FORMAT " %s",
			       free_before - 40 * MIB,
			       filler);
	test_shell(line);
	node = sdt_check_run(card->mnt, &config, NULL, NULL, NULL, &error);
	g_assert_null(node);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NO_SPACE);
	g_test_message("%s", error->message);
	g_clear_error(&error);
	g_assert_cmpint(g_unlink(filler), ==, 0);
	sync();

	/* Stop during the writes: Cancelled, and the reserved file is gone */
	free_before = test_free_bytes(card->mnt);
	node = sdt_check_run(card->mnt,
			     &config,
			     test_cancel_in_write_cb,
			     cancellable,
			     cancellable,
			     &error);
	g_assert_null(node);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_CANCELLED);
	g_clear_error(&error);
	g_assert_cmpuint(test_free_bytes(card->mnt), >=, free_before - MIB);

	/* a reserved file a killed check left behind goes, anything else of that name stays */
	stale = g_build_filename(card->mnt, SDT_CHECK_RESERVE_NAME, NULL);
	g_assert_true(g_file_set_contents(stale, "x", 1, NULL));
	g_assert_true(sdt_check_remove_stale(card->mnt));
	g_assert_false(g_file_test(stale, G_FILE_TEST_EXISTS));
	g_assert_false(sdt_check_remove_stale(card->mnt));
	g_assert_cmpint(g_mkdir(stale, 0700), ==, 0);
	g_assert_false(sdt_check_remove_stale(card->mnt));
	g_assert_cmpint(g_rmdir(stale), ==, 0);

	test_run_script("verify", card->dir, NULL);
	test_card_down(card);
}

static void
test_check_candidates(void)
{
	g_autoptr(GArray) sizes = sdt_check_candidate_sizes(G_GUINT64_CONSTANT(2000000000000));
	gboolean has_8g = FALSE;
	gboolean has_8gib = FALSE;

	for (guint i = 0; i < sizes->len; i++) {
		guint64 size = g_array_index(sizes, guint64, i);
		g_assert_cmpuint(size, <, G_GUINT64_CONSTANT(2000000000000));
		if (i > 0)
			g_assert_cmpuint(size, >, g_array_index(sizes, guint64, i - 1));
		has_8g = has_8g || size == G_GUINT64_CONSTANT(8000000000);
		has_8gib = has_8gib || size == (G_GUINT64_CONSTANT(8) << 30);
	}
	g_assert_true(has_8g);
	g_assert_true(has_8gib);
	g_assert_cmpuint(g_array_index(sizes, guint64, 0), ==, MIB);

	/* raw writes go where FIEMAP says only on one-device file systems */
	g_assert_true(sdt_check_fs_supported("ext4"));
	g_assert_true(sdt_check_fs_supported("vfat"));
	g_assert_false(sdt_check_fs_supported("btrfs"));
	g_assert_false(sdt_check_fs_supported("tmpfs"));
	g_assert_false(sdt_check_fs_supported(NULL));
}

int
main(int argc, char *argv[])
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/check/fake/wrap", test_check_wrap);
	g_test_add_func("/check/fake/wrap-below-guard", test_check_wrap_below_guard);
	g_test_add_func("/check/fake/wrap-write-guard-alone", test_check_wrap_write_guard_alone);
	g_test_add_func("/check/fake/zeros", test_check_zeros);
	g_test_add_func("/check/fake/eio", test_check_eio);
	g_test_add_func("/check/fake/eio-writes", test_check_eio_writes);
	g_test_add_func("/check/genuine", test_check_genuine);
	g_test_add_func("/check/bad-input", test_check_bad_input);
	g_test_add_func("/check/candidates", test_check_candidates);
	return g_test_run();
}
