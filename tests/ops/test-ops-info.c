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
 * sdt_ops_info(): the `info` document, composed in-process on a scratch copy of a
 * fixture root with its SD device chain (umockdev), the figures the fixture holds.
 */

/* sdt_ops_info()'s text as a document (NULL and @error when it fails) */
static JsonNode *
ops_info(SdtContext *ctx, GError **error)
{
	g_autofree gchar *text = sdt_ops_info(ctx, error);

	return text != NULL ? json_from_string(text, error) : NULL;
}

/* the simulated Pi 3 with a config.txt full of old SD lines (tools/json-snapshot.sh's) */
static void
test_ops_info_pi3(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", "legacy-sd-lines.txt", TRUE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = ops_info(root->ctx, &error);

	g_assert_no_error(error);
	g_assert_cmpstr(sdt_test_root_json_str(node, "board.key"), ==, "3");
	g_assert_cmpstr(sdt_test_root_json_str(node, "board.revision"), ==, "a02082");
	g_assert_cmpint(sdt_test_root_json_int(node, "board.type_code"), ==, 8);
	g_assert_cmpstr(sdt_test_root_json_str(node, "board.filter"), ==, "[board-type=0x08]");
	g_assert_cmpint(sdt_test_root_json_int(node, "board.core_clock_hz"), ==, 400000000);
	/* the card's CID and CSD of the fixture: SanDisk, 7948206080 bytes */
	g_assert_true(sdt_test_root_json_bool(node, "card.present"));
	g_assert_cmpint(sdt_test_root_json_int(node, "card.manfid"), ==, 3);
	g_assert_cmpstr(sdt_test_root_json_str(node, "card.name"), ==, "SU08G");
	g_assert_cmpint(sdt_test_root_json_int(node, "card.capacity_bytes"),
			==,
			G_GINT64_CONSTANT(7948206080));
	g_assert_cmpstr(sdt_test_root_json_str(node, "card.registers.cid"),
			==,
			"0353445355303847801e4c298300d28e");
	g_assert_true(sdt_test_root_json_bool(node, "card.holds_system"));
	g_assert_cmpuint(sdt_test_root_json_len(node, "card.mount_points"), ==, 2);
	g_assert_cmpstr(sdt_test_root_json_str(node, "card.mount_points.0"), ==, "/");
	/* the bus as debugfs says: 50 MHz asked, 100 MHz run (the overclock) */
	g_assert_cmpint(sdt_test_root_json_int(node, "bus.clock_hz"), ==, 50000000);
	g_assert_cmpint(sdt_test_root_json_int(node, "bus.actual_clock_hz"), ==, 100000000);
	g_assert_cmpfloat_with_epsilon(sdt_test_root_json_double(node, "bus.ceiling_mb_s"),
				       50.0,
				       1e-9);
	g_assert_cmpstr(sdt_test_root_json_str(node, "bus.source"), ==, "debugfs");
	g_assert_cmpint(sdt_test_root_json_int(node, "kernel_log.overclock_hz"), ==, 100000000);
	g_assert_cmpuint(sdt_test_root_json_len(node, "warnings"), ==, 0);
	/* config.txt: the seven SD lines, each with its filter and whether it applies here */
	g_assert_cmpstr(sdt_test_root_json_str(node, "config.path"),
			==,
			"/boot/firmware/config.txt");
	g_assert_true(sdt_test_root_json_is_null(node, "config.error"));
	g_assert_true(sdt_test_root_json_is_null(node, "config.managed_block"));
	g_assert_cmpuint(sdt_test_root_json_len(node, "config.sd_settings"), ==, 7);
	g_assert_cmpstr(sdt_test_root_json_str(node, "config.sd_settings.3.text"),
			==,
			"dtparam=sd_overclock=90");
	g_assert_cmpint(sdt_test_root_json_int(node, "config.sd_settings.3.line"), ==, 10);
	g_assert_cmpstr(sdt_test_root_json_str(node, "config.sd_settings.3.kind"), ==, "overclock");
	g_assert_true(sdt_test_root_json_bool(node, "config.sd_settings.3.applies"));
	/* [pi5] dtparam=sd_cqe=1 does not apply on a Pi 3 */
	g_assert_cmpstr(sdt_test_root_json_str(node, "config.sd_settings.4.filter"), ==, "[pi5]");
	g_assert_false(sdt_test_root_json_bool(node, "config.sd_settings.4.applies"));
	/* the sdhost overlay switches off Wi-Fi: a warning on that line */
	g_assert_nonnull(
		strstr(sdt_test_root_json_str(node, "config.sd_settings.0.warning"), "Wi-Fi"));
}

/* SD Tuner's own block in config.txt is shown as its id */
static void
test_ops_info_managed_block(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	sdt_test_root_write(
		root,
		"boot/firmware/config.txt",
		"arm_64bit=1\n"
		"# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n"
		"[all]\n[board-type=0x08]\ndtoverlay=\ndtparam=sd_overclock=100\n[all]\n"
		"# --- SD Tuner end ---\n");
	node = ops_info(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(sdt_test_root_json_str(node, "config.managed_block"),
			==,
			"sd-overclock-100");
	g_assert_cmpuint(sdt_test_root_json_len(node, "config.sd_settings"), ==, 1);
	g_assert_cmpstr(sdt_test_root_json_str(node, "config.sd_settings.0.text"),
			==,
			"dtparam=sd_overclock=100");
	g_assert_true(sdt_test_root_json_bool(node, "config.sd_settings.0.managed"));
}

/* no card in the slot: info still answers, the card absent, a warning that says so */
static void
test_ops_info_no_card(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi4-no-card", "rpios-bookworm.txt", FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = ops_info(root->ctx, &error);

	g_assert_no_error(error);
	g_assert_cmpstr(sdt_test_root_json_str(node, "board.key"), ==, "4");
	g_assert_false(sdt_test_root_json_bool(node, "card.present"));
	g_assert_true(sdt_test_root_json_is_null(node, "card.device"));
	g_assert_true(sdt_test_root_json_is_null(node, "bus.clock_hz"));
	g_assert_cmpuint(sdt_test_root_json_len(node, "warnings"), ==, 1);
}

/* no config.txt, or one that cannot be read: the rest of info, and config.error says why */
static void
test_ops_info_config_missing(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = ops_info(root->ctx, &error);

	g_assert_no_error(error);
	g_assert_cmpstr(sdt_test_root_json_str(node, "board.key"), ==, "3");
	g_assert_nonnull(strstr(sdt_test_root_json_str(node, "config.error"), "config.txt"));
	g_assert_cmpuint(sdt_test_root_json_len(node, "config.sd_settings"), ==, 0);
}

static void
test_ops_info_config_is_a_directory(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autofree gchar *cfg = sdt_test_root_file(root, "boot/firmware/config.txt");
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = NULL;

	g_assert_cmpint(g_mkdir_with_parents(cfg, 0755), ==, 0);
	node = ops_info(root->ctx, &error);
	g_assert_no_error(error);
	g_assert_false(sdt_test_root_json_is_null(node, "config.error"));
	g_assert_cmpuint(sdt_test_root_json_len(node, "config.sd_settings"), ==, 0);
}

/* a board SD Tuner does not know (a Tinker Board): its facts, no key, no revision */
static void
test_ops_info_not_a_pi(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("tinker-board", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) node = ops_info(root->ctx, &error);

	g_assert_no_error(error);
	g_assert_cmpstr(sdt_test_root_json_str(node, "board.key"), ==, "unknown");
	g_assert_true(sdt_test_root_json_is_null(node, "board.revision"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "card.host_driver"), ==, "dwmmc_rockchip");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-info/pi3", test_ops_info_pi3);
	g_test_add_func("/sdtuner/ops-info/managed-block", test_ops_info_managed_block);
	g_test_add_func("/sdtuner/ops-info/no-card", test_ops_info_no_card);
	g_test_add_func("/sdtuner/ops-info/config-missing", test_ops_info_config_missing);
	g_test_add_func("/sdtuner/ops-info/config-is-a-directory",
			test_ops_info_config_is_a_directory);
	g_test_add_func("/sdtuner/ops-info/not-a-pi", test_ops_info_not_a_pi);
	return g_test_run();
}
