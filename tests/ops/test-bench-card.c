/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <umockdev.h>

#include "sdt-bench.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-test-util.h"
#include "sdt-ops.h"

/* the history's entries as `history --json` lists them (sdt_history_entries()) */
static JsonArray *
test_history_json(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) entries = sdt_history_entries(ctx, NULL, error);

	return entries != NULL ? sdt_history_entry_list_to_json(entries) : NULL;
}

/*
 * sdt_ops_bench_run() finding the card's file system: the SD device chain
 * comes from UMockdevTestbed (this binary runs under umockdev-wrapper), the
 * mount table from a copy of tests/data/roots/pi3 in which each test edits
 * /proc/self/mountinfo.  The test file then lands on this machine's disk under
 * the copy (a simulated board), which is on /var/tmp: /tmp may be tmpfs.
 */

#define MIB      (1024 * 1024)
#define PI3_DISK "/sys/devices/platform/soc/3f202000.mmc/mmc_host/mmc0/mmc0:0001/block/mmcblk0"

typedef struct {
	UMockdevTestbed *testbed;
	gchar *root;
	SdtContext *ctx;
} Fixture;

static void
fixture_setup(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *src = g_test_build_filename(G_TEST_DIST, "data", "roots", "pi3", NULL);
	g_autofree gchar *device =
		g_test_build_filename(G_TEST_DIST, "data", "umockdev", "pi3.umockdev", NULL);
	g_autofree gchar *cmd = NULL;
	gint status = 0;

	fx->testbed = umockdev_testbed_new();
	if (GPOINTER_TO_INT(data)) {
		g_assert_true(umockdev_testbed_add_from_file(fx->testbed, device, &error));
		g_assert_no_error(error);
	}
	fx->root = g_mkdtemp_full(g_strdup("/var/tmp/sdt-bench-card-XXXXXX"), 0700);
	g_assert_nonnull(fx->root);
	cmd = g_strdup_printf("cp -a %s/. %s/", src, fx->root);
	g_assert_true(g_spawn_command_line_sync(cmd, NULL, NULL, &status, &error));
	g_assert_no_error(error);
	g_assert_cmpint(status, ==, 0);
	fx->ctx = sdt_context_new(fx->root, &error);
	g_assert_no_error(error);
}

static void
fixture_teardown(Fixture *fx, gconstpointer data)
{
	g_assert_true(sdt_test_rm_rf(fx->root));
	g_clear_object(&fx->ctx);
	g_clear_object(&fx->testbed);
	g_free(fx->root);
}

static void
fixture_set_mountinfo(Fixture *fx, const gchar *text)
{
	g_autofree gchar *fn = g_build_filename(fx->root, "proc", "self", "mountinfo", NULL);
	g_autoptr(GError) error = NULL;
	g_assert_true(g_file_set_contents(fn, text, -1, &error));
	g_assert_no_error(error);
}

static void
test_config_tiny(SdtBenchConfig *config)
{
	g_assert_true(sdt_bench_config_for_profile("quick", config, NULL));
	config->profile = "test";
	config->file_size = 8 * MIB;
	config->seq_block_size = 1 * MIB;
	config->rand_seconds = 0.1;
	config->rand_qd1_seconds = 0.1;
	config->raw_seconds = 0;
}

/* nothing was written: no history entry, no test file */
static void
fixture_assert_nothing_left(Fixture *fx)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonArray) history = test_history_json(fx->ctx, &error);
	g_autofree gchar *state = sdt_context_get_state_dir(fx->ctx);
	g_autoptr(GDir) dir = NULL;

	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(history), ==, 0);
	dir = g_dir_open(state, 0, NULL);
	if (dir != NULL)
		g_assert_null(g_dir_read_name(dir));
}

static JsonNode *
fixture_run(Fixture *fx, GError **error)
{
	SdtBenchConfig config;
	g_autoptr(SdtBenchRecord) record = NULL;

	test_config_tiny(&config);
	record = sdt_ops_bench_run(fx->ctx, &config, NULL, NULL, NULL, NULL, error);
	return record != NULL ? sdt_bench_record_to_json(record) : NULL;
}

static void
test_bench_card_simulated_board(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = fixture_run(fx, &error);
	g_autoptr(JsonArray) history = NULL;
	g_autofree gchar *state = sdt_context_get_state_dir(fx->ctx);
	JsonObject *obj;
	JsonArray *notes;

	g_assert_no_error(error);
	obj = json_node_get_object(node);
	/* the card's root partition is mounted at /: the state dir under the root */
	g_assert_cmpstr(
		json_object_get_string_member(json_object_get_object_member(obj, "target"), "path"),
		==,
		state);
	/* the pi3 fixture runs its sdhost bus at 100 MHz: 50 MB/s */
	g_assert_cmpfloat_with_epsilon(json_object_get_double_member(obj, "ceiling_mb_s"),
				       50.0,
				       1e-9);
	g_assert_cmpfloat(json_object_get_double_member(obj, "ceiling_percent"), >, 0);
	notes = json_object_get_array_member(obj, "notes");
	g_assert_cmpuint(json_array_get_length(notes), >=, 1);
	g_assert_true(g_str_has_prefix(json_array_get_string_element(notes, 0), "Simulated board"));
	/* the simulated board's card directory is on this machine: a stand-in */
	g_assert_true(json_object_get_boolean_member(json_object_get_object_member(obj, "target"),
						     "stand_in"));
	g_assert_true(json_object_get_boolean_member(json_object_get_object_member(obj, "verdict"),
						     "stand_in"));
	g_assert_nonnull(strstr(json_array_get_string_element(notes, 0), "/dev/mmcblk0p2"));

	history = test_history_json(fx->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(json_array_get_length(history), ==, 1);
}

static void
test_bench_card_boot_partition_only(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autofree gchar *boot = g_build_filename(fx->root, "boot", "firmware", NULL);

	/* the system runs from elsewhere; only the card's boot partition is mounted */
	fixture_set_mountinfo(
		fx,
		"22 1 8:2 / / rw,noatime - ext4 /dev/sda2 rw\n"
		"31 22 179:1 / /boot/firmware rw,relatime - vfat /dev/mmcblk0p1 rw\n");
	g_assert_cmpint(g_mkdir_with_parents(boot, 0755), ==, 0);
	node = fixture_run(fx, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(json_object_get_string_member(
				json_object_get_object_member(json_node_get_object(node), "target"),
				"path"),
			==,
			boot);
}

static void
test_bench_card_no_card(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = fixture_run(fx, &error);

	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_assert_null(node);
	g_assert_nonnull(strstr(error->message, "No SD card"));
	fixture_assert_nothing_left(fx);
}

static void
test_bench_card_not_mounted(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	fixture_set_mountinfo(fx, "22 1 8:2 / / rw,noatime - ext4 /dev/sda2 rw\n");
	node = fixture_run(fx, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_assert_null(node);
	g_assert_nonnull(strstr(error->message, "/dev/mmcblk0"));
	g_assert_nonnull(strstr(error->message, "not mounted"));
	fixture_assert_nothing_left(fx);
}

static void
test_bench_card_read_only(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	fixture_set_mountinfo(
		fx,
		"22 1 179:2 / / ro,noatime - ext4 /dev/mmcblk0p2 ro\n"
		"31 22 179:1 / /boot/firmware ro,relatime - vfat /dev/mmcblk0p1 ro\n");
	node = fixture_run(fx, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_READ_ONLY);
	g_assert_null(node);
	g_assert_nonnull(strstr(error->message, "/dev/mmcblk0p2"));
	fixture_assert_nothing_left(fx);
}

static void
test_bench_card_too_small(Fixture *fx, gconstpointer data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	/* a 4 MiB card (8192 sectors) for the 8 MiB test file */
	umockdev_testbed_set_attribute(fx->testbed, PI3_DISK, "size", "8192");
	node = fixture_run(fx, &error);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NO_SPACE);
	g_assert_null(node);
	g_assert_nonnull(strstr(error->message, "mmcblk0"));
	g_assert_nonnull(strstr(error->message, "8 MiB"));
	fixture_assert_nothing_left(fx);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/sdtuner/bench-card/simulated-board",
		   Fixture,
		   GINT_TO_POINTER(TRUE),
		   fixture_setup,
		   test_bench_card_simulated_board,
		   fixture_teardown);
	g_test_add("/sdtuner/bench-card/boot-partition-only",
		   Fixture,
		   GINT_TO_POINTER(TRUE),
		   fixture_setup,
		   test_bench_card_boot_partition_only,
		   fixture_teardown);
	g_test_add("/sdtuner/bench-card/no-card",
		   Fixture,
		   GINT_TO_POINTER(FALSE),
		   fixture_setup,
		   test_bench_card_no_card,
		   fixture_teardown);
	g_test_add("/sdtuner/bench-card/not-mounted",
		   Fixture,
		   GINT_TO_POINTER(TRUE),
		   fixture_setup,
		   test_bench_card_not_mounted,
		   fixture_teardown);
	g_test_add("/sdtuner/bench-card/read-only",
		   Fixture,
		   GINT_TO_POINTER(TRUE),
		   fixture_setup,
		   test_bench_card_read_only,
		   fixture_teardown);
	g_test_add("/sdtuner/bench-card/card-too-small",
		   Fixture,
		   GINT_TO_POINTER(TRUE),
		   fixture_setup,
		   test_bench_card_too_small,
		   fixture_teardown);
	return g_test_run();
}
