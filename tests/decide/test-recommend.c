/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-board.h"
#include "sdt-recommend.h"
#include "sdt-recommend-private.h"

/* a Pi 3B with a High Speed card at 50 MHz and nothing in config.txt */
static SdtRecommendFacts
test_facts_pi3(void)
{
	SdtRecommendFacts f = {0};
	f.board_key = "3";
	f.type_code = 0x08;
	f.controller = "sdhost";
	f.core_clock_mhz = 400;
	f.mini_uart = TRUE;
	f.card_present = TRUE;
	f.app_class = 1;
	f.cmd48 = -1;
	f.ext_perf_cq = -1;
	f.cq_depth = -1;
	f.actual_clock_hz = 50000000;
	f.timing = "sd-high-speed";
	f.cqe = "off";
	return f;
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

static const SdtRecommendation *
test_only(SdtRecommendResult *res)
{
	g_assert_cmpuint(res->recommendations->len, ==, 1);
	return g_ptr_array_index(res->recommendations, 0);
}

static gboolean
test_notes_contain(SdtRecommendResult *res, const gchar *needle)
{
	for (guint i = 0; i < res->notes->len; i++) {
		if (strstr(g_ptr_array_index(res->notes, i), needle) != NULL)
			return TRUE;
	}
	return FALSE;
}

static void
test_recommend_sdhost_arithmetic(void)
{
	/* PLATFORM.md §2.3 worked examples */
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(400000000, 100), ==, 100000000);
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(400000000, 80), ==, 80000000);
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(400000000, 90), ==, 80000000);
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(400000000, 63), ==, 57142857);
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(250000000, 100), ==, 83333333);
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(250000000, 63), ==, 62500000);
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(250000000, 62), ==, 62500000);
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(250000000, 80), ==, 62500000);
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(400000000, 300), ==, 200000000);
}

static void
test_recommend_pi3_overclock(void)
{
	SdtRecommendFacts f = test_facts_pi3();
	g_autoptr(SdtRecommendResult) res = sdt_recommend(&f);
	const SdtRecommendation *rec = test_only(res);

	g_assert_cmpstr(rec->id, ==, "sd-overclock-100");
	g_assert_cmpuint(rec->lines->len, ==, 1);
	g_assert_cmpstr(g_ptr_array_index(rec->lines, 0), ==, "dtparam=sd_overclock=100");
	g_assert_cmpstr(rec->filter, ==, "[board-type=0x08]");
	g_assert_cmpuint(rec->expected_clock_hz, ==, 100000000);
	g_assert_nonnull(strstr(rec->expected_effect, "50.0 MB/s"));
	g_assert_nonnull(strstr(rec->reason, "400 MHz"));
	g_assert_nonnull(rec->risk);
	g_assert_nonnull(rec->title);
	/* A1/A2 and command queueing explained for a host without queueing */
	g_assert_true(test_notes_contain(res, "A1 and A2"));
	g_assert_true(test_notes_contain(res, "Command queueing"));
	g_assert_true(test_notes_contain(res, "cannot queue commands"));
}

static void
test_recommend_core_clock_250(void)
{
	SdtRecommendFacts f = test_facts_pi3();
	g_autoptr(SdtRecommendResult) res = NULL;
	g_autoptr(SdtRecommendResult) res2 = NULL;
	const SdtRecommendation *rec;

	/* enable_uart=1 on a board with the mini UART fixes the core at 250 MHz */
	f.enable_uart = TRUE;
	res = sdt_recommend(&f);
	rec = test_only(res);
	g_assert_cmpstr(rec->id, ==, "sd-overclock-83");
	g_assert_cmpuint(rec->expected_clock_hz, ==, 83333333);
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(250000000, 83), ==, 83333333);

	/* core_freq in config.txt sets the core clock: 500 / 5 = 100 MHz */
	{
		g_autoptr(SdtRecommendResult) r3 = NULL;
		f = test_facts_pi3();
		f.config_core_freq_mhz = 500;
		g_assert_cmpuint(sdt_recommend_core_clock_mhz(&f), ==, 500);
		r3 = sdt_recommend(&f);
		g_assert_cmpstr(test_only(r3)->id, ==, "sd-overclock-100");
		g_assert_nonnull(strstr(test_only(r3)->reason, "500 MHz"));
		f.config_core_freq_mhz = 300;
		g_clear_pointer(&r3, sdt_recommend_result_free);
		r3 = sdt_recommend(&f);
		/* 300 / 3 = 100 MHz */
		g_assert_cmpuint(test_only(r3)->expected_clock_hz, ==, 100000000);
		f.config_core_freq_mhz = 350;
		g_clear_pointer(&r3, sdt_recommend_result_free);
		r3 = sdt_recommend(&f);
		/* 350 / 4 = 87.5 MHz */
		g_assert_cmpstr(test_only(r3)->id, ==, "sd-overclock-87");
		g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(350000000, 87), ==, 87500000);
	}

	/* a Pi 2 runs its core at 250 MHz anyway */
	f = test_facts_pi3();
	f.board_key = "2";
	f.type_code = 0x04;
	f.core_clock_mhz = 250;
	f.mini_uart = FALSE;
	f.enable_uart = TRUE;
	res2 = sdt_recommend(&f);
	rec = test_only(res2);
	g_assert_cmpstr(rec->id, ==, "sd-overclock-83");
	g_assert_cmpstr(rec->filter, ==, "[pi2]");
}

static void
test_recommend_overclock_reduced(void)
{
	SdtRecommendFacts f = test_facts_pi3();
	g_autoptr(SdtRecommendResult) r1 = NULL;
	g_autoptr(SdtRecommendResult) r2 = NULL;
	g_autoptr(SdtRecommendResult) r3 = NULL;

	f.log_overclock_reduced = TRUE;
	f.log_overclock_hz = 100000000;
	f.config_overclock_mhz = 100;
	f.config_block_id = "sd-overclock-100";
	r1 = sdt_recommend(&f);
	g_assert_cmpstr(test_only(r1)->id, ==, "sd-overclock-80");
	g_assert_cmpuint(test_only(r1)->expected_clock_hz, ==, 80000000);
	g_assert_nonnull(strstr(test_only(r1)->reason, "reducing overclock"));

	f.log_overclock_hz = 80000000;
	r2 = sdt_recommend(&f);
	g_assert_cmpstr(test_only(r2)->id, ==, "sd-overclock-66");
	g_assert_cmpuint(sdt_recommend_sdhost_clock_hz(400000000, 66), ==, 66666666);

	/* 57.1 MHz failed too: the next step is 50 MHz, no overclock at all */
	f.log_overclock_hz = 57142857;
	r3 = sdt_recommend(&f);
	g_assert_cmpuint(r3->recommendations->len, ==, 0);
	g_assert_true(test_notes_contain(r3, "lowest overclock step"));
}

static void
test_recommend_already_done(void)
{
	SdtRecommendFacts f = test_facts_pi3();
	g_autoptr(SdtRecommendResult) r1 = NULL;
	g_autoptr(SdtRecommendResult) r2 = NULL;
	g_autoptr(SdtRecommendResult) r3 = NULL;
	g_autoptr(SdtRecommendResult) r4 = NULL;

	f.config_block_id = "sd-overclock-100";
	f.config_overclock_mhz = 100;
	r1 = sdt_recommend(&f);
	g_assert_cmpuint(r1->recommendations->len, ==, 0);
	g_assert_true(test_notes_contain(r1, "is in place"));

	/* after a step down to 80 MHz that works, no way back up to 100 */
	{
		g_autoptr(SdtRecommendResult) r5 = NULL;
		f = test_facts_pi3();
		f.config_block_id = "sd-overclock-80";
		f.config_overclock_mhz = 80;
		f.actual_clock_hz = 80000000;
		f.log_overclock_hz = 80000000;
		r5 = sdt_recommend(&f);
		g_assert_cmpuint(r5->recommendations->len, ==, 0);
		g_assert_true(test_notes_contain(r5, "sd-overclock-80 is in place"));
		g_assert_true(test_notes_contain(r5, "80 MHz"));
	}

	/* a hand-written overclock that works */
	f = test_facts_pi3();
	f.actual_clock_hz = 100000000;
	f.config_overclock_mhz = 100;
	r2 = sdt_recommend(&f);
	g_assert_cmpuint(r2->recommendations->len, ==, 0);
	g_assert_true(test_notes_contain(r2, "already overclocked"));

	/* ... but through the sdhost overlay, which kills Wi-Fi: migrate it */
	f.config_sdhost_overlay = TRUE;
	r3 = sdt_recommend(&f);
	g_assert_cmpstr(test_only(r3)->id, ==, "sd-overclock-100");
	g_assert_nonnull(strstr(test_only(r3)->reason, "Wi-Fi"));

	/* a Default Speed card never reaches the overclock */
	f = test_facts_pi3();
	f.timing = "legacy";
	f.actual_clock_hz = 25000000;
	r4 = sdt_recommend(&f);
	g_assert_cmpuint(r4->recommendations->len, ==, 0);
	g_assert_true(test_notes_contain(r4, "Default Speed"));
}

/*
 * The clock of SD Tuner's setting in place is the sd_overclock config.txt puts
 * in effect (a number), not one read back from the block's id: a later line of
 * the user's decides the clock, and a block whose line was removed sets none.
 */
static void
test_recommend_in_place_typed_clock(void)
{
	SdtRecommendFacts f = test_facts_pi3();
	g_autoptr(SdtRecommendResult) r1 = NULL;
	g_autoptr(SdtRecommendResult) r2 = NULL;

	f.config_block_id = "sd-overclock-100";
	f.config_overclock_mhz = 80;
	r1 = sdt_recommend(&f);
	g_assert_cmpuint(r1->recommendations->len, ==, 0);
	g_assert_true(
		test_notes_contain(r1, "sd-overclock-100 is in place; the SD clock is 80 MHz"));
	g_assert_false(test_notes_contain(r1, "the SD clock is 100 MHz"));

	/* the block's line is gone: nothing of it takes effect, so it is offered again */
	f.config_overclock_mhz = 0;
	r2 = sdt_recommend(&f);
	g_assert_false(test_notes_contain(r2, "is in place"));
	g_assert_cmpstr(test_only(r2)->id, ==, "sd-overclock-100");
}

static void
test_recommend_pi4(void)
{
	SdtRecommendFacts f = test_facts_pi3();
	g_autoptr(SdtRecommendResult) r1 = NULL;
	g_autoptr(SdtRecommendResult) r2 = NULL;

	f.board_key = "4";
	f.type_code = 0x11;
	f.controller = "emmc2";
	f.core_clock_mhz = 0;
	f.timing = "uhs-ddr50";
	r1 = sdt_recommend(&f);
	g_assert_cmpuint(r1->recommendations->len, ==, 0);
	g_assert_true(test_notes_contain(r1, "DDR50"));
	g_assert_true(test_notes_contain(r1, "cannot queue commands"));
	f.timing = "sd-high-speed";
	r2 = sdt_recommend(&f);
	g_assert_cmpuint(r2->recommendations->len, ==, 0);
	g_assert_true(test_notes_contain(r2, "UHS-I"));
}

static void
test_recommend_pi5(void)
{
	SdtRecommendFacts f = test_facts_pi5();
	g_autoptr(SdtRecommendResult) r1 = NULL;
	g_autoptr(SdtRecommendResult) r2 = NULL;
	g_autoptr(SdtRecommendResult) r3 = NULL;
	g_autoptr(SdtRecommendResult) r4 = NULL;
	g_autoptr(SdtRecommendResult) r5 = NULL;
	g_autoptr(SdtRecommendResult) r6 = NULL;
	g_autoptr(SdtRecommendResult) r7 = NULL;

	/* an A2 card with CQ support that Linux has not allow-listed */
	r1 = sdt_recommend(&f);
	g_assert_cmpstr(test_only(r1)->id, ==, "sd-cqe-2");
	g_assert_cmpstr(g_ptr_array_index(test_only(r1)->lines, 0), ==, "dtparam=sd_cqe=2");
	g_assert_cmpstr(test_only(r1)->filter, ==, "[board-type=0x17]");
	g_assert_true(test_notes_contain(r1, "can queue commands"));

	/* the same on a CM5 and a 500: their own board type */
	f.type_code = 0x18;
	f.board_key = "cm5";
	r2 = sdt_recommend(&f);
	g_assert_cmpstr(test_only(r2)->filter, ==, "[board-type=0x18]");

	/* CQE recovery in the log: switch it off */
	f = test_facts_pi5();
	f.cqe = "enabled";
	f.log_cqe_recovery = TRUE;
	r3 = sdt_recommend(&f);
	g_assert_cmpstr(test_only(r3)->id, ==, "sd-cqe-0");
	g_assert_cmpstr(g_ptr_array_index(test_only(r3)->lines, 0), ==, "dtparam=sd_cqe=0");

	/* A1: nothing */
	f = test_facts_pi5();
	f.app_class = 1;
	r4 = sdt_recommend(&f);
	g_assert_cmpuint(r4->recommendations->len, ==, 0);
	g_assert_true(test_notes_contain(r4, "A1"));

	/* queueing already on: nothing */
	f = test_facts_pi5();
	f.cqe = "enabled";
	r5 = sdt_recommend(&f);
	g_assert_cmpuint(r5->recommendations->len, ==, 0);

	/* A2 on the label, but no CMD48: nothing */
	f = test_facts_pi5();
	f.cmd48 = 0;
	r6 = sdt_recommend(&f);
	g_assert_cmpuint(r6->recommendations->len, ==, 0);
	g_assert_true(test_notes_contain(r6, "CMD48"));

	/* already set, waiting for a reboot */
	f = test_facts_pi5();
	f.config_block_id = "sd-cqe-2";
	f.config_cqe = "2";
	r7 = sdt_recommend(&f);
	g_assert_cmpuint(r7->recommendations->len, ==, 0);
}

static void
test_recommend_not_a_pi(void)
{
	SdtRecommendFacts f = {0};
	g_autoptr(SdtRecommendResult) r1 = NULL;
	g_autoptr(SdtRecommendResult) r2 = NULL;

	f.board_key = "unknown";
	f.type_code = -1;
	f.controller = "unknown";
	f.card_present = TRUE;
	r1 = sdt_recommend(&f);
	g_assert_cmpuint(r1->recommendations->len, ==, 0);
	g_assert_cmpuint(r1->notes->len, ==, 1);
	g_assert_true(test_notes_contain(r1, "not a Raspberry Pi"));
	g_assert_null(r1->not_tuned);
	g_assert_cmpuint(r1->core_clock_mhz, ==, 0);

	f = test_facts_pi3();
	f.card_present = FALSE;
	r2 = sdt_recommend(&f);
	g_assert_cmpuint(r2->recommendations->len, ==, 0);
	g_assert_true(test_notes_contain(r2, "No SD card"));
}

/* independent of sdt-recommend.c: controller and default core clock per type (§2.1) */
static const gchar *
test_family_of(gint type_code)
{
	switch (type_code) {
	case 0x00:
	case 0x01:
	case 0x02:
	case 0x03:
	case 0x04:
	case 0x06:
		return "sdhost/250/no-mini-uart";
	case 0x09:
	case 0x0a:
	case 0x10:
		return "sdhost/400/no-mini-uart";
	case 0x08:
	case 0x0c:
	case 0x0d:
	case 0x0e:
	case 0x12:
		return "sdhost/400/mini-uart";
	case 0x11:
	case 0x13:
	case 0x14:
	case 0x15:
		return "emmc2";
	case 0x17:
	case 0x18:
	case 0x19:
	case 0x1a:
		return "sdhci-brcmstb";
	default:
		return "unknown";
	}
}

static void
test_recommend_filter_reach(void)
{
	guint n = 0;
	const gint *codes = sdt_config_filter_known_type_codes(&n);
	guint n_filters = 0;

	for (guint i = 0; i < n; i++) {
		const gchar *filter = sdt_recommend_filter_for_type(codes[i]);
		g_autofree gchar *name = NULL;
		gboolean self = FALSE;

		if (filter == NULL) {
			g_assert_cmpstr(test_family_of(codes[i]), ==, "emmc2");
			continue;
		}
		n_filters++;
		g_assert_cmpstr(filter, !=, "[all]");
		g_assert_true(g_str_has_prefix(filter, "[") && g_str_has_suffix(filter, "]"));
		name = g_strndup(filter + 1, strlen(filter) - 2);
		for (guint j = 0; j < n; j++) {
			if (!sdt_config_filter_model_matches(name, codes[j]))
				continue;
			if (codes[j] == codes[i])
				self = TRUE;
			if (g_strcmp0(test_family_of(codes[j]), test_family_of(codes[i])) != 0)
				g_error("%s for 0x%02x also reaches 0x%02x (%s, not %s)",
					filter,
					codes[i],
					codes[j],
					test_family_of(codes[j]),
					test_family_of(codes[i]));
		}
		g_assert_true(self);
	}
	g_assert_cmpuint(n_filters, ==, n - 4);
}

static void
test_recommend_pure(void)
{
	SdtRecommendFacts f = test_facts_pi3();
	g_autoptr(SdtRecommendResult) r1 = sdt_recommend(&f);
	g_autoptr(SdtRecommendResult) r2 = sdt_recommend(&f);
	const SdtRecommendation *a;
	const SdtRecommendation *b;

	/* the same facts, the same advice, every text said */
	g_assert_cmpuint(r1->recommendations->len, ==, r2->recommendations->len);
	g_assert_cmpuint(r1->notes->len, ==, r2->notes->len);
	for (guint i = 0; i < r1->notes->len; i++)
		g_assert_cmpstr(g_ptr_array_index(r1->notes, i),
				==,
				g_ptr_array_index(r2->notes, i));
	a = g_ptr_array_index(r1->recommendations, 0);
	b = g_ptr_array_index(r2->recommendations, 0);
	g_assert_cmpstr(a->id, ==, b->id);
	g_assert_cmpstr(a->title, ==, b->title);
	g_assert_cmpstr(a->filter, ==, b->filter);
	g_assert_cmpstr(a->reason, ==, b->reason);
	g_assert_cmpstr(a->expected_effect, ==, b->expected_effect);
	g_assert_cmpstr(a->risk, ==, b->risk);
	g_assert_nonnull(a->title);
	g_assert_nonnull(a->reason);
	g_assert_nonnull(a->expected_effect);
	g_assert_nonnull(a->risk);
	g_assert_cmpstr(g_ptr_array_index(a->lines, 0), ==, "dtparam=sd_overclock=100");
	g_assert_nonnull(sdt_recommend_result_find(r1, "sd-overclock-100"));
	g_assert_null(sdt_recommend_result_find(r1, "sd-cqe-2"));
}

/* issue 9 item 4: the core clock rules on every board with the mini UART as primary UART */
typedef struct {
	const gchar *config;
	guint core_mhz;
	SdtCoreClockSource source;
	const gchar *id;
} TestClockCase;

static void
test_recommend_core_clock_uart_rules(void)
{
	const TestClockCase cases[] = {
		{"enable_uart=1\n", 250, SDT_CORE_CLOCK_UART_FIXED, "sd-overclock-83"},
		{"enable_uart=0\n", 400, SDT_CORE_CLOCK_BOARD_DEFAULT, "sd-overclock-100"},
		/* the PL011 becomes the primary UART: the core keeps its clock */
		{"enable_uart=1\ndtoverlay=disable-bt\n",
		 400,
		 SDT_CORE_CLOCK_BOARD_DEFAULT,
		 "sd-overclock-100"},
		{"dtoverlay=miniuart-bt\nenable_uart=1\n",
		 400,
		 SDT_CORE_CLOCK_BOARD_DEFAULT,
		 "sd-overclock-100"},
		{"enable_uart=1\ndtoverlay=pi3-disable-bt\n",
		 400,
		 SDT_CORE_CLOCK_BOARD_DEFAULT,
		 "sd-overclock-100"},
		{"enable_uart=1\ndtoverlay=pi3-miniuart-bt,krnbt=on\n",
		 400,
		 SDT_CORE_CLOCK_BOARD_DEFAULT,
		 "sd-overclock-100"},
		/* force_turbo fixes the core at the turbo clock, not at 250 MHz */
		{"enable_uart=1\nforce_turbo=1\n",
		 400,
		 SDT_CORE_CLOCK_UART_TURBO,
		 "sd-overclock-100"},
		{"enable_uart=1\nforce_turbo=1\ncore_freq=450\n",
		 450,
		 SDT_CORE_CLOCK_UART_TURBO,
		 "sd-overclock-90"},
		/* without force_turbo enable_uart wins over core_freq */
		{"enable_uart=1\ncore_freq=500\n",
		 250,
		 SDT_CORE_CLOCK_UART_FIXED,
		 "sd-overclock-83"},
		{"core_freq=500\n", 500, SDT_CORE_CLOCK_CONFIG_CORE_FREQ, "sd-overclock-100"},
		/* an overlay for another board, or under a run-time filter, does not count */
		{"[pi4]\ndtoverlay=disable-bt\n[all]\nenable_uart=1\n",
		 250,
		 SDT_CORE_CLOCK_UART_FIXED,
		 "sd-overclock-83"},
		{"[HDMI:1]\ndtoverlay=disable-bt\n[all]\nenable_uart=1\n",
		 250,
		 SDT_CORE_CLOCK_UART_FIXED,
		 "sd-overclock-83"},
	};
	guint n_models = 0;
	const SdtBoardModel *models = sdt_board_model_table(&n_models);
	guint n_boards = 0;

	for (guint m = 0; m < n_models; m++) {
		const SdtBoardModel *model = &models[m];

		if (model->controller != SDT_SD_CONTROLLER_SDHOST ||
		    !sdt_config_filter_board_has_wireless((gint) model->type_code))
			continue;
		n_boards++;
		for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
			g_autoptr(GBytes) bytes =
				g_bytes_new_static(cases[c].config, strlen(cases[c].config));
			g_autoptr(SdtConfigTxt) cfg =
				sdt_config_txt_new_from_bytes(bytes, "config.txt");
			g_autoptr(SdtRecommendResult) res = NULL;
			SdtRecommendFacts f = test_facts_pi3();
			SdtCoreClockSource source;

			f.board_key = model->key;
			f.type_code = (gint) model->type_code;
			f.core_clock_mhz = model->core_clock_hz / 1000000;
			f.mini_uart = TRUE;
			sdt_recommend_facts_from_config(&f, cfg, f.type_code);
			if (sdt_recommend_core_clock(&f, &source) != cases[c].core_mhz ||
			    source != cases[c].source)
				g_error("%s (0x%02x) with “%s”: core %u MHz (%s), want %u (%s)",
					model->name,
					model->type_code,
					cases[c].config,
					sdt_recommend_core_clock(&f, NULL),
					sdt_recommend_core_clock_source_to_string(source),
					cases[c].core_mhz,
					sdt_recommend_core_clock_source_to_string(cases[c].source));
			res = sdt_recommend(&f);
			g_assert_cmpstr(test_only(res)->id, ==, cases[c].id);
			g_assert_cmpstr(test_only(res)->filter, ==, model->filter);
			/* the figure and where it came from are in the result (JSON core_clock) */
			g_assert_cmpuint(res->core_clock_mhz, ==, cases[c].core_mhz);
			g_assert_cmpint(res->core_clock_source, ==, cases[c].source);
		}
	}
	/* 3B, Zero W, 3B+, 3A+, Zero 2 W */
	g_assert_cmpuint(n_boards, ==, 5);
}

static void
test_recommend_core_clock_running(void)
{
	SdtRecommendFacts f = test_facts_pi3();
	g_autoptr(SdtRecommendResult) res = NULL;
	g_autoptr(SdtRecommendResult) res2 = NULL;
	SdtCoreClockSource source;

	/* config.txt says 250 MHz, the running system reads 400 MHz: the reading wins */
	f.enable_uart = TRUE;
	f.running_core_clock_mhz = 400;
	f.running_core_clock_source = "/sys/kernel/debug/clk/fw-clk-core/clk_rate";
	g_assert_cmpuint(sdt_recommend_core_clock(&f, &source), ==, 400);
	g_assert_cmpint(source, ==, SDT_CORE_CLOCK_RUNNING);
	res = sdt_recommend(&f);
	g_assert_cmpstr(test_only(res)->id, ==, "sd-overclock-100");
	g_assert_true(test_notes_contain(res, "reports a core clock of 400 MHz"));
	g_assert_cmpint(res->core_clock_source, ==, SDT_CORE_CLOCK_RUNNING);
	g_assert_cmpstr(sdt_recommend_core_clock_source_to_string(res->core_clock_source),
			==,
			"running-system");
	g_assert_cmpstr(res->core_clock_detail, ==, "/sys/kernel/debug/clk/fw-clk-core/clk_rate");

	/* and the other way round: 250 MHz read on a board that would run at 400 */
	f = test_facts_pi3();
	f.running_core_clock_mhz = 250;
	res2 = sdt_recommend(&f);
	g_assert_cmpstr(test_only(res2)->id, ==, "sd-overclock-83");

	/* boards without the mini UART as primary: enable_uart changes nothing */
	{
		const gint codes[] = {0x09, 0x0a, 0x10};
		for (guint i = 0; i < G_N_ELEMENTS(codes); i++) {
			f = test_facts_pi3();
			f.type_code = codes[i];
			f.mini_uart = sdt_config_filter_board_has_wireless(codes[i]);
			f.enable_uart = TRUE;
			g_assert_false(f.mini_uart);
			g_assert_cmpuint(sdt_recommend_core_clock(&f, &source), ==, 400);
			g_assert_cmpint(source, ==, SDT_CORE_CLOCK_BOARD_DEFAULT);
		}
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/recommend/sdhost-arithmetic", test_recommend_sdhost_arithmetic);
	g_test_add_func("/sdtuner/recommend/pi3-overclock", test_recommend_pi3_overclock);
	g_test_add_func("/sdtuner/recommend/core-clock-250", test_recommend_core_clock_250);
	g_test_add_func("/sdtuner/recommend/overclock-reduced", test_recommend_overclock_reduced);
	g_test_add_func("/sdtuner/recommend/already-done", test_recommend_already_done);
	g_test_add_func("/sdtuner/recommend/in-place-typed-clock",
			test_recommend_in_place_typed_clock);
	g_test_add_func("/sdtuner/recommend/pi4-nothing", test_recommend_pi4);
	g_test_add_func("/sdtuner/recommend/pi5-cqe", test_recommend_pi5);
	g_test_add_func("/sdtuner/recommend/not-a-pi", test_recommend_not_a_pi);
	g_test_add_func("/sdtuner/recommend/filter-reach", test_recommend_filter_reach);
	g_test_add_func("/sdtuner/recommend/pure", test_recommend_pure);
	g_test_add_func("/sdtuner/recommend/core-clock-uart-rules",
			test_recommend_core_clock_uart_rules);
	g_test_add_func("/sdtuner/recommend/core-clock-running", test_recommend_core_clock_running);
	return g_test_run();
}
