/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-board.h"
#include "sdt-board-private.h"
#include "sdt-error.h"

/* tests/data/boards/<dir>: device-tree files and cpuinfo with real revision codes
 * (PLATFORM.md §1.3, §1.5); the two non-Pi boards and the bad-input roots */
static const struct {
	const gchar *dir;
	const gchar *key;
	const gchar *revision; /* NULL: none */
	gint type_code;        /* -1: null in JSON */
	const gchar *soc;
	const gchar *controller;
	const gchar *source;
	const gchar *filter;
	guint n_warnings;
} boards[] = {
	{"pi1-a", "1", "0007", 0x00, "BCM2835", "sdhost", "device-tree-revision", "[pi1]", 0},
	{"pi1-b-rev2", "1", "000e", 0x01, "BCM2835", "sdhost", "device-tree-revision", "[pi1]", 0},
	{"pi1-bplus", "1", "0010", 0x03, "BCM2835", "sdhost", "device-tree-revision", "[pi1]", 0},
	{"pi1-aplus", "1", "0012", 0x02, "BCM2835", "sdhost", "device-tree-revision", "[pi1]", 0},
	{"pi1-b-overvolted", "1", "1000002", 0x01, "BCM2835", "sdhost", "cpuinfo", "[pi1]", 0},
	{"cm1", "cm1", "0011", 0x06, "BCM2835", "sdhost", "device-tree-revision", "[pi1]", 0},
	{"zero",
	 "zero",
	 "900093",
	 0x09,
	 "BCM2835",
	 "sdhost",
	 "device-tree-revision",
	 "[board-type=0x09]",
	 0},
	{"zero-w",
	 "zero-w",
	 "9000c1",
	 0x0c,
	 "BCM2835",
	 "sdhost",
	 "device-tree-revision",
	 "[board-type=0x0c]",
	 0},
	{"zero-2-w",
	 "zero-2-w",
	 "902120",
	 0x12,
	 "BCM2837",
	 "sdhost",
	 "device-tree-revision",
	 "[pi02]",
	 0},
	{"pi2-bcm2836",
	 "2",
	 "a01041",
	 0x04,
	 "BCM2836",
	 "sdhost",
	 "device-tree-revision",
	 "[pi2]",
	 0},
	{"pi2-bcm2837",
	 "2",
	 "a22042",
	 0x04,
	 "BCM2837",
	 "sdhost",
	 "device-tree-revision",
	 "[pi2]",
	 0},
	{"pi3-b",
	 "3",
	 "a02082",
	 0x08,
	 "BCM2837",
	 "sdhost",
	 "device-tree-revision",
	 "[board-type=0x08]",
	 0},
	{"pi3-bplus",
	 "3-plus",
	 "a020d3",
	 0x0d,
	 "BCM2837",
	 "sdhost",
	 "device-tree-revision",
	 "[board-type=0x0d]",
	 0},
	{"pi3-aplus",
	 "3a-plus",
	 "9020e0",
	 0x0e,
	 "BCM2837",
	 "sdhost",
	 "device-tree-revision",
	 "[board-type=0x0e]",
	 0},
	{"cm3",
	 "cm3",
	 "a020a0",
	 0x0a,
	 "BCM2837",
	 "sdhost",
	 "device-tree-revision",
	 "[board-type=0x0a]",
	 0},
	{"cm3-plus",
	 "cm3",
	 "a02100",
	 0x10,
	 "BCM2837",
	 "sdhost",
	 "device-tree-revision",
	 "[board-type=0x10]",
	 0},
	{"pi4-b",
	 "4",
	 "d03115",
	 0x11,
	 "BCM2711",
	 "emmc2",
	 "device-tree-revision",
	 "[board-type=0x11]",
	 0},
	{"pi400", "400", "c03130", 0x13, "BCM2711", "emmc2", "device-tree-revision", "[pi400]", 0},
	{"cm4", "cm4", "a03140", 0x14, "BCM2711", "emmc2", "device-tree-revision", "[cm4]", 0},
	{"pi5",
	 "5",
	 "d04170",
	 0x17,
	 "BCM2712",
	 "sdhci-brcmstb",
	 "device-tree-revision",
	 "[board-type=0x17]",
	 0},
	{"pi5-rev1.1",
	 "5",
	 "c04171",
	 0x17,
	 "BCM2712",
	 "sdhci-brcmstb",
	 "device-tree-revision",
	 "[board-type=0x17]",
	 0},
	{"pi500",
	 "500",
	 "d04190",
	 0x19,
	 "BCM2712",
	 "sdhci-brcmstb",
	 "device-tree-revision",
	 "[board-type=0x19]",
	 0},
	{"cm5",
	 "cm5",
	 "b04180",
	 0x18,
	 "BCM2712",
	 "sdhci-brcmstb",
	 "device-tree-revision",
	 "[board-type=0x18]",
	 0},
	{"cm5-lite",
	 "cm5",
	 "b041a0",
	 0x1a,
	 "BCM2712",
	 "sdhci-brcmstb",
	 "device-tree-revision",
	 "[board-type=0x1a]",
	 0},
	/* mainline kernel (QEMU): no revision anywhere */
	{"pi3-mainline", "3", NULL, -1, "BCM2837", "sdhost", "compatible", "[board-type=0x08]", 0},
	{"pi3-model-only", "3", NULL, -1, "BCM2837", "sdhost", "model", "[board-type=0x08]", 0},
	{"revision-0000", "3", NULL, -1, "BCM2837", "sdhost", "compatible", "[board-type=0x08]", 1},
	{"tinker-board", "unknown", NULL, -1, NULL, "unknown", NULL, NULL, 2},
	{"l138-som", "unknown", NULL, -1, NULL, "unknown", NULL, NULL, 2},
	{"garbage-dt", "unknown", NULL, -1, NULL, "unknown", NULL, NULL, 5},
	{"empty-root", "unknown", NULL, -1, NULL, "unknown", NULL, NULL, 1},
};

static void
test_fixtures(void)
{
	for (guint i = 0; i < G_N_ELEMENTS(boards); i++) {
		g_autoptr(GError) error = NULL;
		g_autofree gchar *root =
			g_test_build_filename(G_TEST_DIST, "data", "boards", boards[i].dir, NULL);
		g_autoptr(SdtContext) ctx = sdt_context_new(root, &error);
		g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(SdtBoard) board = NULL;
		g_autofree gchar *revision = NULL;

		g_test_message("board %s", boards[i].dir);
		g_assert_no_error(error);
		board = sdt_board_detect(ctx, warnings);
		revision = sdt_board_get_revision_string(board);
		g_assert_cmpstr(sdt_board_get_key(board), ==, boards[i].key);
		g_assert_cmpstr(revision, ==, boards[i].revision);
		if (boards[i].type_code >= 0) {
			g_assert_true(board->has_revision);
			g_assert_cmpuint(board->revision.type_code, ==, boards[i].type_code);
		} else {
			g_assert_false(board->has_revision);
		}
		g_assert_cmpstr(board->soc, ==, boards[i].soc);
		g_assert_cmpstr(sdt_board_sd_controller_to_string(sdt_board_get_controller(board)),
				==,
				boards[i].controller);
		g_assert_cmpstr(sdt_board_source_to_string(board->source), ==, boards[i].source);
		g_assert_cmpstr(board->info != NULL ? board->info->filter : NULL,
				==,
				boards[i].filter);
		g_assert_cmpuint(warnings->len, ==, boards[i].n_warnings);
	}
}

static void
test_models_for_display(void)
{
	const struct {
		const gchar *dir;
		const gchar *model;
	} models[] = {
		{"pi3-mainline", "Raspberry Pi 3 Model B"},
		{"pi5", "Raspberry Pi 5 Model B Rev 1.0"},
		{"tinker-board", "Rockchip RK3288 Asus Tinker Board"},
		/* no device tree: the cpuinfo Hardware line names the board */
		{"l138-som", "MityDSP-L138/MityARM-1808"},
		{"garbage-dt", NULL},
	};

	for (guint i = 0; i < G_N_ELEMENTS(models); i++) {
		g_autofree gchar *root =
			g_test_build_filename(G_TEST_DIST, "data", "boards", models[i].dir, NULL);
		g_autoptr(SdtContext) ctx = sdt_context_new(root, NULL);
		g_autoptr(SdtBoard) board = sdt_board_detect(ctx, NULL);
		g_assert_cmpstr(board->model, ==, models[i].model);
	}
}

static void
test_revision_decode(void)
{
	SdtRevision rev;

	g_assert_true(sdt_board_revision_decode(0xa02082, &rev));
	g_assert_true(rev.new_style);
	g_assert_cmpuint(rev.type_code, ==, 0x08);
	g_assert_cmpuint(rev.revision, ==, 2);
	g_assert_cmpuint(rev.memory_mb, ==, 1024);
	g_assert_cmpuint(rev.processor, ==, 2);
	g_assert_cmpstr(rev.maker, ==, "Sony UK");

	g_assert_true(sdt_board_revision_decode(0xa22082, &rev));
	g_assert_cmpstr(rev.maker, ==, "Embest");
	g_assert_true(sdt_board_revision_decode(0xd04170, &rev));
	g_assert_cmpuint(rev.memory_mb, ==, 8192);
	g_assert_cmpuint(rev.type_code, ==, 0x17);

	/* old style, also with the overvoltage prefix */
	g_assert_true(sdt_board_revision_decode(0x0015, &rev));
	g_assert_false(rev.new_style);
	g_assert_cmpuint(rev.type_code, ==, 0x02);
	g_assert_true(sdt_board_revision_decode(0x1000002, &rev));
	g_assert_cmpuint(rev.type_code, ==, 0x01);

	/* nothing, an unlisted old-style code, a reserved processor */
	g_assert_false(sdt_board_revision_decode(0x0000, &rev));
	g_assert_false(sdt_board_revision_decode(0x0001, &rev));
	g_assert_false(sdt_board_revision_decode(0xa07082, &rev));
}

static void
test_unknown_type_code(void)
{
	/* CM0 (0x1b) is not covered; 0x0f is internal */
	const guint8 cm0[] = {0x00, 0x90, 0x21, 0xb0};
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(SdtBoard) board =
		sdt_board_new_from_data(cm0, sizeof(cm0), NULL, 0, NULL, 0, NULL, 0, warnings);

	g_assert_true(board->has_revision);
	g_assert_cmpuint(board->revision.type_code, ==, 0x1b);
	g_assert_cmpstr(sdt_board_get_key(board), ==, "unknown");
	g_assert_cmpstr(board->soc, ==, "BCM2837");
	g_assert_cmpuint(warnings->len, ==, 1);
	g_assert_nonnull(strstr(g_ptr_array_index(warnings, 0), "0x1b"));
}

static void
test_model_prefixes(void)
{
	const struct {
		const gchar *model;
		const gchar *key;
	} map[] = {
		{"Raspberry Pi 3 Model B Plus Rev 1.3", "3-plus"},
		{"Raspberry Pi 3 Model B Rev 1.2", "3"},
		{"Raspberry Pi 500 Rev 1.0", "500"},
		{"Raspberry Pi 5 Model B Rev 1.1", "5"},
		{"Raspberry Pi Compute Module 5 Rev 1.0", "cm5"},
		{"Raspberry Pi Compute Module 4 Rev 1.1", "cm4"},
		{"Raspberry Pi Zero 2 W Rev 1.0", "zero-2-w"},
		{"Raspberry Pi Zero W Rev 1.1", "zero-w"},
		{"Raspberry Pi Model B Plus Rev 1.2", "1"},
		{"Raspberry Pi 2 Model B Rev 1.1", "2"},
		{"Raspberry Pi 400 Rev 1.0", "400"},
		{"Raspberry Pi 50", "unknown"},
		{"Raspberry Pi", "unknown"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(map); i++) {
		g_autoptr(SdtBoard) board = sdt_board_new_from_data(NULL,
								    0,
								    NULL,
								    0,
								    NULL,
								    0,
								    map[i].model,
								    strlen(map[i].model),
								    NULL);
		g_assert_cmpstr(sdt_board_get_key(board), ==, map[i].key);
	}
}

static void
test_table(void)
{
	const gchar *keys[] = {"zero",
			       "zero-w",
			       "zero-2-w",
			       "1",
			       "2",
			       "3",
			       "3-plus",
			       "3a-plus",
			       "cm1",
			       "cm3",
			       "4",
			       "400",
			       "cm4",
			       "5",
			       "500",
			       "cm5"};
	const SdtBoardModel *models;
	guint n = 0;

	models = sdt_board_model_table(&n);
	g_assert_cmpuint(n, ==, 22);
	for (guint i = 0; i < G_N_ELEMENTS(keys); i++) {
		const SdtBoardModel *m = sdt_board_model_lookup_key(keys[i]);
		g_assert_nonnull(m);
		g_assert_cmpstr(m->key, ==, keys[i]);
		g_assert_nonnull(m->filter);
		g_assert_true(m->filter[0] == '[');
	}
	for (guint i = 0; i < n; i++) {
		g_assert_true(sdt_board_model_lookup_type(models[i].type_code) == &models[i]);
		/* a core clock exactly for the sdhost boards */
		g_assert_true((models[i].core_clock_hz > 0) ==
			      (models[i].controller == SDT_SD_CONTROLLER_SDHOST));
	}
	g_assert_null(sdt_board_model_lookup_key("unknown"));
	g_assert_null(sdt_board_model_lookup_type(0x1b));
	g_assert_cmpstr(sdt_board_model_lookup_type(0x12)->filter, ==, "[pi02]");
	g_assert_cmpstr(sdt_board_model_lookup_type(0x08)->filter, ==, "[board-type=0x08]");
	g_assert_cmpuint(sdt_board_model_lookup_type(0x04)->core_clock_hz, ==, 250000000);
	g_assert_cmpuint(sdt_board_model_lookup_type(0x0c)->core_clock_hz, ==, 400000000);
	g_assert_cmpstr(
		sdt_board_sd_controller_to_string(sdt_board_model_lookup_type(0x19)->controller),
		==,
		"sdhci-brcmstb");
}

/* random bytes in every file: a result and warnings, never a crash */
static void
test_random_files(void)
{
	for (guint i = 0; i < 3000; i++) {
		guint8 rev[6], cpu[64], compat[48], model[32];
		gsize rev_len = (gsize) g_test_rand_int_range(0, sizeof(rev));
		g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
		g_autoptr(SdtBoard) board = NULL;
		for (guint j = 0; j < sizeof(rev); j++)
			rev[j] = (guint8) g_test_rand_int_range(0, 256);
		for (guint j = 0; j < sizeof(cpu); j++)
			cpu[j] = (guint8) g_test_rand_int_range(0, 256);
		for (guint j = 0; j < sizeof(compat); j++)
			compat[j] = (guint8) g_test_rand_int_range(0, 256);
		for (guint j = 0; j < sizeof(model); j++)
			model[j] = (guint8) g_test_rand_int_range(0, 256);
		board = sdt_board_new_from_data(rev,
						rev_len,
						(const gchar *) cpu,
						sizeof(cpu),
						(const gchar *) compat,
						sizeof(compat),
						(const gchar *) model,
						sizeof(model),
						warnings);
		g_assert_nonnull(sdt_board_get_key(board));
		g_assert_nonnull(
			sdt_board_sd_controller_to_string(sdt_board_get_controller(board)));
		g_assert_true(board->model == NULL || g_utf8_validate(board->model, -1, NULL));
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/board/fixtures", test_fixtures);
	g_test_add_func("/sdtuner/board/models-for-display", test_models_for_display);
	g_test_add_func("/sdtuner/board/revision-decode", test_revision_decode);
	g_test_add_func("/sdtuner/board/unknown-type-code", test_unknown_type_code);
	g_test_add_func("/sdtuner/board/model-prefixes", test_model_prefixes);
	g_test_add_func("/sdtuner/board/table", test_table);
	g_test_add_func("/sdtuner/board/random-files-never-crash", test_random_files);
	return g_test_run();
}
