/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-error.h"
#include "sdt-ops.h"
#include "sdt-test-root.h"

/*
 * sdt_ops_status(): the `status` document on a scratch copy of the simulated Pi 3: no
 * block, SD Tuner's block, a damaged block, no config.txt, a tryboot boot.
 */

#define BLOCK                                                                     \
	"# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n"  \
	"[all]\n[board-type=0x08]\ndtoverlay=\ndtparam=sd_overclock=100\n[all]\n" \
	"# --- SD Tuner end ---\n"

static JsonNode *
test_ops_status_of(SdtTestRoot *root)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = sdt_ops_status(root->ctx, &error);
	JsonNode *node;

	g_assert_no_error(error);
	g_assert_nonnull(text);
	node = json_from_string(text, &error);
	g_assert_no_error(error);
	return node;
}

static void
test_ops_status_no_block(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", "legacy-sd-lines.txt", TRUE);
	g_autoptr(JsonNode) node = test_ops_status_of(root);

	g_assert_cmpstr(sdt_test_root_json_str(node, "path"), ==, "/boot/firmware/config.txt");
	g_assert_false(sdt_test_root_json_bool(node, "damaged"));
	g_assert_true(sdt_test_root_json_is_null(node, "error"));
	g_assert_false(sdt_test_root_json_bool(node, "applied"));
	g_assert_true(sdt_test_root_json_is_null(node, "id"));
	g_assert_cmpuint(sdt_test_root_json_len(node, "lines"), ==, 0);
	g_assert_false(sdt_test_root_json_bool(node, "reboot_pending"));
	g_assert_false(sdt_test_root_json_bool(node, "tryboot_active"));
	g_assert_true(sdt_test_root_json_is_null(node, "trial"));
	g_assert_true(sdt_test_root_json_is_null(node, "pending_verification"));
	g_assert_true(sdt_test_root_json_is_null(node, "last_verification"));
}

/* SD Tuner's block, applied by hand (no journal): its id, lines and filter */
static void
test_ops_status_block(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(JsonNode) node = NULL;

	sdt_test_root_write(root, "boot/firmware/config.txt", "arm_64bit=1\n" BLOCK);
	node = test_ops_status_of(root);
	g_assert_false(sdt_test_root_json_bool(node, "damaged"));
	g_assert_true(sdt_test_root_json_bool(node, "applied"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "id"), ==, "sd-overclock-100");
	g_assert_cmpstr(sdt_test_root_json_str(node, "filter"), ==, "[board-type=0x08]");
	/* the settings of the block; "dtoverlay=" only ends the overlay in scope */
	g_assert_cmpuint(sdt_test_root_json_len(node, "lines"), ==, 1);
	g_assert_cmpstr(sdt_test_root_json_str(node, "lines.0"), ==, "dtparam=sd_overclock=100");
}

/* a begin mark without its end: damaged, said so, nothing claimed verified */
static void
test_ops_status_damaged_block(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(JsonNode) node = NULL;

	sdt_test_root_write(root,
			    "boot/firmware/config.txt",
			    "arm_64bit=1\n"
			    "# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n"
			    "dtparam=sd_overclock=100\n");
	node = test_ops_status_of(root);
	g_assert_true(sdt_test_root_json_bool(node, "damaged"));
	g_assert_true(sdt_test_root_json_bool(node, "applied"));
	g_assert_true(sdt_test_root_json_bool(node, "failed"));
	g_assert_false(sdt_test_root_json_bool(node, "verified"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "id"), ==, "sd-overclock-100");
	g_assert_cmpuint(sdt_test_root_json_len(node, "lines"), ==, 0);
	g_assert_cmpstr(sdt_test_root_json_str(node, "error"),
			==,
			sdt_test_root_json_str(node, "verification"));
	g_assert_nonnull(strstr(sdt_test_root_json_str(node, "error"), "config.txt"));
}

/* no config.txt: status answers with the reason, nothing applied */
static void
test_ops_status_no_config(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(JsonNode) node = test_ops_status_of(root);

	g_assert_false(sdt_test_root_json_bool(node, "damaged"));
	g_assert_false(sdt_test_root_json_bool(node, "applied"));
	g_assert_true(sdt_test_root_json_is_null(node, "id"));
	g_assert_nonnull(strstr(sdt_test_root_json_str(node, "error"), "config.txt"));
}

/* the firmware booted tryboot.txt (the device tree's chosen/bootloader/tryboot = 1) */
static void
test_ops_status_tryboot(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", "legacy-sd-lines.txt", FALSE);
	g_autofree gchar *path =
		sdt_test_root_file(root, "proc/device-tree/chosen/bootloader/tryboot");
	g_autofree gchar *dir = g_path_get_dirname(path);
	const gchar one[4] = {0, 0, 0, 1};
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	g_assert_cmpint(g_mkdir_with_parents(dir, 0755), ==, 0);
	g_assert_true(g_file_set_contents(path, one, sizeof one, &error));
	g_assert_no_error(error);
	node = test_ops_status_of(root);
	g_assert_true(sdt_test_root_json_bool(node, "tryboot_active"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-status/no-block", test_ops_status_no_block);
	g_test_add_func("/sdtuner/ops-status/block", test_ops_status_block);
	g_test_add_func("/sdtuner/ops-status/damaged-block", test_ops_status_damaged_block);
	g_test_add_func("/sdtuner/ops-status/no-config", test_ops_status_no_config);
	g_test_add_func("/sdtuner/ops-status/tryboot", test_ops_status_tryboot);
	return g_test_run();
}
