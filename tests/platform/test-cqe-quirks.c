/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-cqe-quirks.h"
#include "sdt-cqe-quirks-private.h"
#include "sdt-recommend.h"

static SdtCid
test_cid(guint manfid, const gchar *oemid, const gchar *name, guint hw, guint fw, guint y, guint m)
{
	SdtCid cid;
	memset(&cid, 0, sizeof(cid));
	cid.manfid = manfid;
	cid.oemid[0] = oemid[0];
	cid.oemid[1] = oemid[1];
	g_strlcpy(cid.name, name, sizeof(cid.name));
	cid.hwrev = hw;
	cid.fwrev = fw;
	cid.year = y;
	cid.month = m;
	return cid;
}

static void
test_lookup(void)
{
	const struct {
		SdtCid cid;
		SdtCqeList want;
	} cases[] = {
		/* Samsung PRO Plus / EVO Plus of 2023: deny; of 2024 (issue 6561): not listed */
		{test_cid(0x1b, "SM", "EC2QT", 3, 0, 2023, 6), SDT_CQE_LIST_DENY},
		{test_cid(0x1b, "SM", "EC2QT", 3, 0, 2024, 6), SDT_CQE_LIST_NONE},
		/* Kingston "TI" 2019 to 2022: deny; 2023: not listed */
		{test_cid(0x9f, "TI", "SD64G", 6, 1, 2019, 11), SDT_CQE_LIST_DENY},
		{test_cid(0x9f, "TI", "SD64G", 6, 1, 2022, 1), SDT_CQE_LIST_DENY},
		{test_cid(0x9f, "TI", "SD64G", 6, 1, 2023, 5), SDT_CQE_LIST_NONE},
		/* Gigastone ASTC: only 02/2022 and only that name */
		{test_cid(0x12, "4V", "ASTC", 1, 0, 2022, 2), SDT_CQE_LIST_DENY},
		{test_cid(0x12, "4V", "ASTC", 1, 0, 2022, 3), SDT_CQE_LIST_NONE},
		{test_cid(0x12, "4V", "ASTD", 1, 0, 2022, 2), SDT_CQE_LIST_NONE},
		/* SanDisk "SD": 2019 and 2020 deny; the pi5 fixture's SN64G of 11/2022 is not
		   listed */
		{test_cid(0x03, "SD", "SN64G", 8, 6, 2020, 10), SDT_CQE_LIST_DENY},
		{test_cid(0x03, "SD", "SN64G", 8, 6, 2022, 11), SDT_CQE_LIST_NONE},
		/* Raspberry Pi cards (Longsys "LS"): from hardware revision 1 */
		{test_cid(0xad, "LS", "USD00", 1, 0, 2024, 9), SDT_CQE_LIST_ALLOW},
		{test_cid(0xad, "LS", "USD00", 0, 9, 2024, 9), SDT_CQE_LIST_NONE},
		/* Transcend "J`": from revision 2.0 of 04/2026 */
		{test_cid(0x74, "J`", "USD00", 2, 0, 2026, 4), SDT_CQE_LIST_ALLOW},
		{test_cid(0x74, "J`", "USD00", 2, 0, 2026, 3), SDT_CQE_LIST_NONE},
		{test_cid(0x74, "J`", "USD00", 1, 9, 2027, 1), SDT_CQE_LIST_NONE},
		/* the OEM id must match too */
		{test_cid(0x1b, "XX", "EC2QT", 3, 0, 2023, 6), SDT_CQE_LIST_NONE},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		const gchar *why = NULL;
		SdtCqeList got = sdt_cqe_quirks_lookup(&cases[i].cid, &why);
		g_test_message("case %u: %s", i, sdt_cqe_quirks_list_to_string(got));
		g_assert_cmpstr(sdt_cqe_quirks_list_to_string(got),
				==,
				sdt_cqe_quirks_list_to_string(cases[i].want));
		g_assert_true((got == SDT_CQE_LIST_NONE) == (why == NULL));
	}
}

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
	f.actual_clock_hz = 200000000;
	f.timing = "uhs-sdr104";
	f.cqe = "host-software-queue";
	return f;
}

static void
test_recommend(void)
{
	SdtRecommendFacts f = test_facts_pi5();
	g_autoptr(SdtRecommendResult) offered = sdt_recommend(&f);
	g_autoptr(SdtRecommendResult) denied = NULL;
	const SdtRecommendation *rec;
	SdtCid samsung = test_cid(0x1b, "SM", "EC2QT", 3, 0, 2023, 6);

	/* offered: as a trial only, and the risk says plainly that data can be corrupted */
	rec = sdt_recommend_result_find(offered, "sd-cqe-2");
	g_assert_nonnull(rec);
	g_assert_true(rec->trial_only);
	g_assert_nonnull(strstr(rec->risk, "Some cards corrupt data with queueing forced on"));
	g_assert_nonnull(strstr(rec->risk, "soak test"));
	/* written in the answer: the decision's first recommendation is this one */
	g_assert_true(g_ptr_array_index(offered->recommendations, 0) == rec);

	/* a card the kernel deny-lists is never offered sd_cqe=2, and the note says why */
	f.cqe_list = (gint) sdt_cqe_quirks_lookup(&samsung, &f.cqe_list_why);
	g_assert_cmpint(f.cqe_list, ==, SDT_CQE_LIST_DENY);
	denied = sdt_recommend(&f);
	g_assert_null(sdt_recommend_result_find(denied, "sd-cqe-2"));
	g_assert_cmpuint(denied->recommendations->len, ==, 0);
	{
		gboolean said = FALSE;
		for (guint i = 0; i < denied->notes->len; i++)
			said |= strstr(g_ptr_array_index(denied->notes, i),
				       "known-bad for command queueing (Samsung PRO Plus") != NULL;
		g_assert_true(said);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/cqe-quirks/lookup", test_lookup);
	g_test_add_func("/cqe-quirks/recommend", test_recommend);
	return g_test_run();
}
