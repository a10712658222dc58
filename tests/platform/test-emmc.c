/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-emmc.h"
#include "sdt-emmc-private.h"
#include "sdt-error.h"
#include "sdt-recommend.h"

/* the eMMC's sysfs wear report (PLATFORM.md §6.8): the kernel's formats, and everything else */

static void
test_life_time_kernel_format(void)
{
	g_autoptr(GError) error = NULL;
	gint a = 0, b = 0;

	/* as drivers/mmc/core/mmc.c prints it: "0x%02x 0x%02x\n" */
	g_assert_true(sdt_emmc_life_time_parse("0x02 0x03\n", &a, &b, &error));
	g_assert_no_error(error);
	g_assert_cmpint(a, ==, 2);
	g_assert_cmpint(b, ==, 3);
	g_assert_true(sdt_emmc_life_time_parse("0x0b 0x0B", &a, &b, NULL));
	g_assert_cmpint(a, ==, 0x0b);
	g_assert_cmpint(b, ==, 0x0b);
	g_assert_true(sdt_emmc_life_time_parse("0x00 0xff", &a, &b, NULL));
	g_assert_cmpint(a, ==, 0);
	g_assert_cmpint(b, ==, 0xff);
}

static void
test_life_time_bad_input(void)
{
	static const gchar *bad[] = {
		"",
		"0x02",
		"0x02 0x03 0x04",
		"2 3",
		"0x 0x03",
		"0x123 0x03",
		"0x0g 0x03",
		"worn out",
		"0x 02",
		"123 0x03",
		"0x02 3",
		"0x02,0x03",
		"-0x02 0x03",
		"0x02\x00 0x03",
	};
	gint a = 7, b = 7;

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_assert_false(sdt_emmc_life_time_parse(bad[i], &a, &b, &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_cmpint(a, ==, SDT_EMMC_VALUE_UNKNOWN);
		g_assert_cmpint(b, ==, SDT_EMMC_VALUE_UNKNOWN);
	}
	{
		g_autoptr(GError) error = NULL;
		g_assert_false(sdt_emmc_life_time_parse(NULL, &a, &b, &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	}
}

static void
test_pre_eol(void)
{
	g_autoptr(GError) error = NULL;
	gint v = 0;

	g_assert_true(sdt_emmc_pre_eol_parse("0x01\n", &v, &error));
	g_assert_no_error(error);
	g_assert_cmpint(v, ==, SDT_EMMC_PRE_EOL_NORMAL);
	g_assert_true(sdt_emmc_pre_eol_parse("0x03", &v, NULL));
	g_assert_cmpint(v, ==, SDT_EMMC_PRE_EOL_URGENT);
	/* older kernels printed it without 0x (PLATFORM.md §6.8) */
	g_assert_true(sdt_emmc_pre_eol_parse("02\n", &v, NULL));
	g_assert_cmpint(v, ==, SDT_EMMC_PRE_EOL_WARNING);
	g_assert_false(sdt_emmc_pre_eol_parse("123", &v, NULL));
	g_assert_false(sdt_emmc_pre_eol_parse("0x01 0x02", &v, NULL));
	g_assert_cmpint(v, ==, SDT_EMMC_VALUE_UNKNOWN);
	g_assert_false(sdt_emmc_pre_eol_parse("urgent", &v, NULL));
	g_assert_false(sdt_emmc_pre_eol_parse("", &v, NULL));
	g_assert_false(sdt_emmc_pre_eol_parse(NULL, &v, NULL));

	g_assert_cmpstr(sdt_emmc_pre_eol_to_string(0), ==, "not-defined");
	g_assert_cmpstr(sdt_emmc_pre_eol_to_string(1), ==, "normal");
	g_assert_cmpstr(sdt_emmc_pre_eol_to_string(2), ==, "warning");
	g_assert_cmpstr(sdt_emmc_pre_eol_to_string(3), ==, "urgent");
	g_assert_cmpstr(sdt_emmc_pre_eol_to_string(4), ==, "unknown");
	g_assert_cmpstr(sdt_emmc_pre_eol_to_string(0xff), ==, "unknown");
	g_assert_cmpstr(sdt_emmc_pre_eol_to_string(-1), ==, "unknown");
}

/* every byte value: JEDEC's table 0x01..0x0B, the rest unknown, never a crash */
static void
test_life_time_table(void)
{
	for (gint v = -1; v <= 0xff; v++) {
		gint lo = -2, hi = -2;
		gboolean in_table = sdt_emmc_life_time_range(v, &lo, &hi);
		const gchar *state = sdt_emmc_life_time_state_to_string(v);

		if (v >= 1 && v <= 10) {
			g_assert_true(in_table);
			g_assert_cmpint(lo, ==, (v - 1) * 10);
			g_assert_cmpint(hi, ==, v * 10);
			g_assert_cmpstr(state, ==, "used");
		} else if (v == 0x0b) {
			g_assert_true(in_table);
			g_assert_cmpint(lo, ==, 100);
			g_assert_cmpint(hi, ==, -1);
			g_assert_cmpstr(state, ==, "exceeded");
		} else {
			g_assert_false(in_table);
			g_assert_cmpstr(state, ==, v == 0 ? "not-defined" : "unknown");
		}
	}
}

static void
test_wear_level(void)
{
	static const struct {
		gint a, b, eol;
		SdtEmmcWearLevel level;
	} cases[] = {
		{2, 3, 1, SDT_EMMC_WEAR_NORMAL},
		{8, 8, 1, SDT_EMMC_WEAR_NORMAL},
		{5, 9, 1, SDT_EMMC_WEAR_WARNING}, /* 80–90% of type B used */
		{1, 1, 2, SDT_EMMC_WEAR_WARNING}, /* pre-EOL warning on a fresh estimate */
		{7, 10, 3, SDT_EMMC_WEAR_URGENT}, /* pre-EOL urgent */
		{11, 2, 1, SDT_EMMC_WEAR_URGENT}, /* type A past its life */
		{0, 0, 0, SDT_EMMC_WEAR_UNKNOWN}, /* not defined */
		{-1, -1, -1, SDT_EMMC_WEAR_UNKNOWN},
		{0x0c, 0xff, 7, SDT_EMMC_WEAR_UNKNOWN}, /* outside the table: unknown, not normal */
		{-1, -1, 1, SDT_EMMC_WEAR_NORMAL},
		{0x0c, 0x0b, 7, SDT_EMMC_WEAR_URGENT},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		SdtEmmcWear w = {cases[i].a, cases[i].b, cases[i].eol};
		g_assert_cmpint(sdt_emmc_wear_level(&w), ==, cases[i].level);
	}
	g_assert_cmpstr(sdt_emmc_wear_level_to_string(SDT_EMMC_WEAR_URGENT), ==, "urgent");
	g_assert_cmpstr(sdt_emmc_wear_level_to_string(SDT_EMMC_WEAR_UNKNOWN), ==, "unknown");
}

/* random text never crashes a parser and never gives a value outside a byte */
static void
test_random_text(void)
{
	static const gchar alphabet[] = "0x0X 1aF9\t\n-+gz\xff";
	GRand *rand = g_rand_new_with_seed(27);

	for (guint i = 0; i < 20000; i++) {
		gchar text[16];
		guint len = (guint) g_rand_int_range(rand, 0, sizeof(text));
		gint a, b, e;
		SdtCid cid;
		guint oemid;

		for (guint j = 0; j < len; j++)
			text[j] = alphabet[g_rand_int_range(rand, 0, sizeof(alphabet) - 1)];
		text[len] = '\0';
		if (sdt_emmc_life_time_parse(text, &a, &b, NULL)) {
			g_assert_cmpint(a, >=, 0);
			g_assert_cmpint(a, <=, 0xff);
			g_assert_cmpint(b, >=, 0);
			g_assert_cmpint(b, <=, 0xff);
		} else {
			g_assert_cmpint(a, ==, -1);
		}
		if (sdt_emmc_pre_eol_parse(text, &e, NULL))
			g_assert_cmpint(e, <=, 0xff);
		else
			g_assert_cmpint(e, ==, -1);
		g_assert_false(sdt_emmc_cid_parse(text, 8, &cid, &oemid, NULL));
	}
	g_rand_free(rand);
}

/* the CM4 fixture's CID (tests/data/umockdev/cm4-emmc.umockdev): the eMMC layout, not SD's */
#define CM4_CID "150100384754463452103a4b5c6d6700"

static void
test_cid(void)
{
	g_autoptr(GError) error = NULL;
	SdtCid cid;
	guint oemid = 99;

	g_assert_true(sdt_emmc_cid_parse(CM4_CID, 8, &cid, &oemid, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(cid.manfid, ==, 0x15);
	g_assert_cmpuint(oemid, ==, 0);
	g_assert_cmpstr(cid.name, ==, "8GTF4R"); /* six characters: SD's decoder gives "\x008GTF" */
	g_assert_cmpuint(cid.hwrev, ==, 1);
	g_assert_cmpuint(cid.fwrev, ==, 0);
	g_assert_cmpuint(cid.serial, ==, 0x3a4b5c6d);
	g_assert_cmpuint(cid.month, ==, 6);
	g_assert_cmpuint(cid.year, ==, 2020); /* 0x7 + 1997 + 16: EXT_CSD_REV 8 > 4 */
	g_assert_cmpstr(sdt_emmc_manufacturer_name(cid.manfid), ==, "Samsung");

	/* EXT_CSD_REV 4 (eMMC 4.3): the same four bits count from 1997 */
	g_assert_true(sdt_emmc_cid_parse(CM4_CID, 4, &cid, &oemid, NULL));
	g_assert_cmpuint(cid.year, ==, 2004);
	/* unknown revision: taken as a chip made since 2010 */
	g_assert_true(sdt_emmc_cid_parse(CM4_CID, -1, &cid, &oemid, NULL));
	g_assert_cmpuint(cid.year, ==, 2020);

	g_assert_false(sdt_emmc_cid_parse("1501003847", 8, &cid, &oemid, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_clear_error(&error);
	g_assert_false(
		sdt_emmc_cid_parse("zz0100384754463452103a4b5c6d6700", 8, &cid, &oemid, NULL));
	g_assert_false(sdt_emmc_cid_parse(NULL, 8, &cid, &oemid, NULL));
	g_assert_null(sdt_emmc_manufacturer_name(0x03)); /* SD's SanDisk id is not an eMMC id */
}

/* the pure decision: no config.txt change for eMMC, nor for a card / is not on */
static SdtRecommendFacts
test_facts_pi5(void)
{
	SdtRecommendFacts f = {0};
	f.board_key = "5";
	f.type_code = 0x17;
	f.controller = "sdhci-brcmstb";
	f.card_present = TRUE;
	f.app_class = 2;
	f.cmd48 = 1;
	f.ext_perf_cq = 1;
	f.cq_depth = 32;
	f.timing = "uhs-sdr104";
	f.cqe = "off";
	return f;
}

static gboolean
test_notes_have(const SdtRecommendResult *r, const gchar *words)
{
	for (guint i = 0; i < r->notes->len; i++)
		if (strstr(g_ptr_array_index(r->notes, i), words) != NULL)
			return TRUE;
	return FALSE;
}

static void
test_recommend(void)
{
	SdtRecommendFacts f = test_facts_pi5();
	g_autoptr(SdtRecommendResult) sd = sdt_recommend(&f);
	g_autoptr(SdtRecommendResult) nvme = NULL;
	g_autoptr(SdtRecommendResult) emmc = NULL;

	/* the premise: on the system card, this A2 card is offered sd-cqe-2 */
	g_assert_nonnull(sdt_recommend_result_find(sd, "sd-cqe-2"));

	f.system_elsewhere = TRUE;
	f.system_device = "nvme0n1p2";
	nvme = sdt_recommend(&f);
	g_assert_cmpuint(nvme->recommendations->len, ==, 0);
	g_assert_true(test_notes_have(nvme, "The system runs from nvme0n1p2, not from this card"));
	g_assert_true(test_notes_have(nvme, "You can still benchmark and check the card"));

	f = test_facts_pi5();
	f.card_emmc = TRUE;
	f.app_class = 0;
	emmc = sdt_recommend(&f);
	g_assert_cmpuint(emmc->recommendations->len, ==, 0);
	g_assert_true(test_notes_have(emmc, "do not apply to eMMC"));
	g_assert_false(test_notes_have(emmc, "A1 and A2")); /* SD classes say nothing of eMMC */
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/emmc/life-time-kernel-format", test_life_time_kernel_format);
	g_test_add_func("/sdtuner/emmc/life-time-bad-input", test_life_time_bad_input);
	g_test_add_func("/sdtuner/emmc/pre-eol", test_pre_eol);
	g_test_add_func("/sdtuner/emmc/life-time-every-byte", test_life_time_table);
	g_test_add_func("/sdtuner/emmc/wear-level", test_wear_level);
	g_test_add_func("/sdtuner/emmc/cid-layout", test_cid);
	g_test_add_func("/sdtuner/emmc/random-text-never-crashes", test_random_text);
	g_test_add_func("/sdtuner/emmc/recommend-nothing", test_recommend);
	return g_test_run();
}
