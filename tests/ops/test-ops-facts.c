/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-info.h"
#include "sdt-ops-private.h"
#include "sdt-test-root.h"

/* sdt_history_append() of an entry of @kind around @doc (its members as given) */
static gboolean
test_history_append(SdtContext *ctx, const gchar *kind, JsonObject *doc, GError **error)
{
	g_autoptr(SdtHistoryEntry) entry = sdt_history_entry_new(kind, NULL, doc);

	return sdt_history_append(ctx, entry, NULL, error);
}

/*
 * sdt-ops-facts.c: what the config family reads from this system (the board's type code,
 * config.txt, SD Tuner's block for this board, tryboot, the SHA-256 of the config.txt this
 * boot runs with) on scratch copies of the fixture roots.
 */

#define BOOT_ID "2f1d7e5c-3b1a-4f7e-9d2c-8a6b5e4f3c21"

static const gchar block_pi3[] =
	"arm_64bit=1\n"
	"# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n"
	"[all]\n[board-type=0x08]\ndtoverlay=\ndtparam=sd_overclock=100\n[all]\n"
	"# --- SD Tuner end ---\n";

static SdtInfo *
test_ops_facts_info(SdtTestRoot *root)
{
	g_autoptr(GError) error = NULL;
	SdtInfo *info = sdt_info_collect(root->ctx, &error);

	g_assert_no_error(error);
	g_assert_nonnull(info);
	return info;
}

/* one testbed at a time: umockdev redirects the whole process to the newest */
static gint
test_ops_facts_type_code_of(const gchar *fixture)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new(fixture, NULL, FALSE);
	g_autoptr(SdtInfo) info = test_ops_facts_info(root);

	return sdt_ops_facts_type_code(info);
}

static void
test_ops_facts_type_code(void)
{
	/* revision a02082 is a 3B (type 0x08); the Pi 5 is 0x17; not a Pi: unknown */
	g_assert_cmpint(test_ops_facts_type_code_of("pi3"), ==, 0x08);
	g_assert_cmpint(test_ops_facts_type_code_of("pi5"), ==, 0x17);
	g_assert_cmpint(test_ops_facts_type_code_of("tinker-board"), ==, -1);
}

/* the typed facts of the simulated Pi 3 with its old SD lines: what recommend decides on */
static void
test_ops_facts_recommend_facts(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", "legacy-sd-lines.txt", FALSE);
	g_autoptr(SdtInfo) info = test_ops_facts_info(root);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigTxt) cfg = sdt_ops_facts_load_config(root->ctx, &writer, &error);
	SdtRecommendFacts facts;

	g_assert_no_error(error);
	g_assert_nonnull(writer);
	sdt_ops_facts_recommend(&facts, info, cfg);
	g_assert_cmpstr(facts.board_key, ==, "3");
	g_assert_cmpint(facts.type_code, ==, 8);
	g_assert_cmpstr(facts.controller, ==, "sdhost");
	g_assert_cmpuint(facts.core_clock_mhz, ==, 400);
	g_assert_true(facts.card_present);
	g_assert_false(facts.card_emmc);
	g_assert_cmpuint(facts.actual_clock_hz, ==, 100000000);
	g_assert_cmpuint(facts.log_overclock_hz, ==, 100000000);
	/* [board-type=0x08] dtparam=sd_overclock=90 is in effect; [pi5] sd_cqe=1 is not */
	g_assert_cmpuint(facts.config_overclock_mhz, ==, 90);
	g_assert_true(facts.config_sdhost_overlay);
	g_assert_true(facts.config_sdtweak_overlay);
	g_assert_null(facts.config_block_id);
}

static void
test_ops_facts_load_errors(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigTxt) cfg = sdt_ops_facts_load_config(root->ctx, &writer, &error);

	/* no config.txt: an error, no writer handed out */
	g_assert_null(cfg);
	g_assert_null(writer);
	g_assert_nonnull(error);
	g_assert_true(error->domain == SDT_ERROR);
}

/* the id of SD Tuner's block in config.txt when its filter reaches @fixture's board */
static gchar *
test_ops_facts_block_id_on(const gchar *fixture)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new(fixture, NULL, FALSE);
	g_autoptr(SdtInfo) info = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(GError) error = NULL;

	sdt_test_root_write(root, "boot/firmware/config.txt", block_pi3);
	info = test_ops_facts_info(root);
	cfg = sdt_ops_facts_load_config(root->ctx, NULL, &error);
	g_assert_no_error(error);
	return sdt_ops_facts_block_id_here(cfg, info);
}

/* the block's id only when its filter reaches this board */
static void
test_ops_facts_block_id_here(void)
{
	g_autofree gchar *id3 = test_ops_facts_block_id_on("pi3");
	g_autofree gchar *id5 = test_ops_facts_block_id_on("pi5");

	g_assert_cmpstr(id3, ==, "sd-overclock-100");
	g_assert_null(id5);
}

static void
test_ops_facts_tryboot(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", NULL, FALSE);
	const gchar rel[] = "proc/device-tree/chosen/bootloader/tryboot";
	g_autofree gchar *path = sdt_test_root_file(root, rel);
	const gchar one[4] = {0, 0, 0, 1};
	const gchar zero[4] = {0, 0, 0, 0};

	g_assert_false(sdt_ops_facts_tryboot_active(root->ctx));
	sdt_test_root_write(root, rel, "");
	g_assert_true(g_file_set_contents(path, one, sizeof one, NULL));
	g_assert_true(sdt_ops_facts_tryboot_active(root->ctx));
	g_assert_true(g_file_set_contents(path, zero, sizeof zero, NULL));
	g_assert_false(sdt_ops_facts_tryboot_active(root->ctx));
	/* the text "1" is not the device tree's 32-bit cell */
	g_assert_true(g_file_set_contents(path, "1\n", -1, NULL));
	g_assert_false(sdt_ops_facts_tryboot_active(root->ctx));
}

/* the SHA-256 of config.txt as it is, when this boot runs with it */
static void
test_ops_facts_running_sha256(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi3", "legacy-sd-lines.txt", FALSE);
	g_autofree gchar *text = sdt_test_root_read(root, "boot/firmware/config.txt");
	g_autofree gchar *want = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
	g_autofree gchar *none = NULL;
	g_autofree gchar *got = NULL;
	g_autofree gchar *changed = NULL;
	g_autofree gchar *path = NULL;
	g_autoptr(JsonObject) entry = json_object_new();
	g_autoptr(GError) error = NULL;
	const gchar one[4] = {0, 0, 0, 1};

	/* no boot id: which boot ran it cannot be told */
	none = sdt_ops_facts_running_sha256(root->ctx);
	g_assert_null(none);
	sdt_test_root_write(root, "proc/sys/kernel/random/boot_id", BOOT_ID "\n");
	got = sdt_ops_facts_running_sha256(root->ctx);
	g_assert_cmpstr(got, ==, want);
	/* SD Tuner changed config.txt in this boot: not what runs */
	json_object_set_string_member(entry, "id", "sd-overclock-100");
	json_object_set_string_member(entry, "boot_id", BOOT_ID);
	g_assert_true(test_history_append(root->ctx, "apply", entry, &error));
	g_assert_no_error(error);
	changed = sdt_ops_facts_running_sha256(root->ctx);
	g_assert_null(changed);
	/* and under tryboot it runs tryboot.txt */
	g_clear_pointer(&changed, g_free);
	sdt_test_root_write(root, "proc/sys/kernel/random/boot_id", "another-boot\n");
	path = sdt_test_root_file(root, "proc/device-tree/chosen/bootloader/tryboot");
	sdt_test_root_write(root, "proc/device-tree/chosen/bootloader/tryboot", "");
	g_assert_true(g_file_set_contents(path, one, sizeof one, NULL));
	changed = sdt_ops_facts_running_sha256(root->ctx);
	g_assert_null(changed);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-facts/type-code", test_ops_facts_type_code);
	g_test_add_func("/sdtuner/ops-facts/recommend-facts", test_ops_facts_recommend_facts);
	g_test_add_func("/sdtuner/ops-facts/load-errors", test_ops_facts_load_errors);
	g_test_add_func("/sdtuner/ops-facts/block-id-here", test_ops_facts_block_id_here);
	g_test_add_func("/sdtuner/ops-facts/tryboot", test_ops_facts_tryboot);
	g_test_add_func("/sdtuner/ops-facts/running-sha256", test_ops_facts_running_sha256);
	return g_test_run();
}
