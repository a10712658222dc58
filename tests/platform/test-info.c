/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <umockdev.h>

#include "sdt-info.h"
#include "sdt-ops.h"

/*
 * The C structs of sdt_info_collect(), which the recommendation code and the
 * helper use directly.  The SD device chain comes from UMockdevTestbed (this
 * binary runs under umockdev-wrapper); test-info.py checks the JSON of the CLI.
 */

typedef struct {
	UMockdevTestbed *testbed;
	SdtContext *ctx;
} Fixture;

static SdtInfo *
test_info_collect(Fixture *fx, const gchar *umockdev, const gchar *root)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *device =
		g_test_build_filename(G_TEST_DIST, "data", "umockdev", umockdev, NULL);
	g_autofree gchar *dir = g_test_build_filename(G_TEST_DIST, "data", "roots", root, NULL);
	SdtInfo *info;

	fx->testbed = umockdev_testbed_new();
	g_assert_true(umockdev_testbed_add_from_file(fx->testbed, device, &error));
	g_assert_no_error(error);
	fx->ctx = sdt_context_new(dir, &error);
	g_assert_no_error(error);
	info = sdt_info_collect(fx->ctx, &error);
	g_assert_no_error(error);
	g_assert_nonnull(info);
	return info;
}

static void
fixture_teardown(Fixture *fx, gconstpointer data)
{
	g_clear_object(&fx->ctx);
	g_clear_object(&fx->testbed);
}

static void
test_pi3_overclocked(Fixture *fx, gconstpointer data)
{
	g_autoptr(SdtInfo) info = test_info_collect(fx, "pi3.umockdev", "pi3");

	g_assert_true(info->simulated);
	g_assert_cmpstr(sdt_board_get_key(info->board), ==, "3");
	g_assert_cmpuint(info->board->info->core_clock_hz, ==, 400000000);
	g_assert_cmpint(sdt_board_get_controller(info->board), ==, SDT_SD_CONTROLLER_SDHOST);
	g_assert_true(info->card->present);
	g_assert_true(info->card->holds_system);
	g_assert_cmpstr(info->card->host, ==, "mmc0");
	g_assert_cmpstr(info->card->host_driver, ==, "sdhost-bcm2835");
	g_assert_true(info->card->ssr_valid);
	g_assert_cmpint(info->card->ssr.speed_class, ==, 4);
	g_assert_cmpint(info->card->capacity_bytes, ==, G_GINT64_CONSTANT(7948206080));
	g_assert_cmpint(info->bus.source, ==, SDT_SD_BUS_SOURCE_DEBUGFS);
	g_assert_cmpint(info->bus.ios.actual_clock_hz, ==, 100000000);
	g_assert_cmpfloat_with_epsilon(info->bus.ceiling_mb_s, 50.0, 1e-9);
	g_assert_cmpint(info->bus.cqe, ==, SDT_CQE_OFF);
	g_assert_true(info->kernel_log_read);
	g_assert_cmpint(info->kernel_log.overclock_hz, ==, 100000000);
	g_assert_cmpuint(info->warnings->len, ==, 0);
	g_assert_cmpuint(info->mounts->len, ==, 7);
}

static void
test_pi5_cqe(Fixture *fx, gconstpointer data)
{
	g_autoptr(SdtInfo) info = test_info_collect(fx, "pi5.umockdev", "pi5");
	g_autoptr(SdtInfoReport) report = NULL;

	g_assert_cmpstr(sdt_board_get_key(info->board), ==, "5");
	g_assert_cmpstr(info->board->info->filter, ==, "[board-type=0x17]");
	g_assert_cmpint(info->card->ssr.app_class, ==, 2);
	g_assert_true(info->card->scr.cmd48);
	g_assert_cmpint(info->card->ext_perf, ==, SDT_EXT_PERF_CACHE | SDT_EXT_PERF_CMD_QUEUE);
	g_assert_cmpint(info->card->ext_power, ==, SDT_EXT_POWER_OFF_NOTIFY);
	g_assert_cmpint(info->bus.ios.timing, ==, SDT_TIMING_UHS_SDR104);
	g_assert_cmpint(info->bus.cqe, ==, SDT_CQE_ENABLED);
	g_assert_cmpint(info->kernel_log.cqe_tags, ==, 31);
	g_assert_cmpint(info->kernel_log.quirks, ==, 0x4000);

	report = sdt_info_to_report(info);
	g_assert_null(report->config);
	g_assert_cmpstr(report->bus.cqe, ==, "enabled");
	g_assert_cmpint(report->card.app_class, ==, 2);
	g_assert_cmpint(report->card.cache, ==, SDT_INFO_REPORT_FLAG_YES);
	g_assert_cmpfloat(report->bus.signal_voltage, ==, 1.8);
	g_assert_true(report->card.ext_perf.cmd_queue);
	g_assert_null(report->card.emmc);
}

static void
test_pi5_bad_input(Fixture *fx, gconstpointer data)
{
	g_autoptr(SdtInfo) info = test_info_collect(fx, "pi5.umockdev", "pi5-bad-input");

	g_assert_cmpint(info->bus.source, ==, SDT_SD_BUS_SOURCE_KERNEL_LOG);
	g_assert_cmpint(info->bus.ios.clock_hz, ==, 208000000);
	g_assert_cmpfloat_with_epsilon(info->bus.ceiling_mb_s, 104.0, 1e-9);
	g_assert_cmpint(info->bus.cqe, ==, SDT_CQE_HOST_SOFTWARE_QUEUE);
	g_assert_cmpuint(info->kernel_log.cqe_recovery, ==, 2);
	g_assert_cmpuint(info->warnings->len, ==, 2);
}

static void
test_no_card(Fixture *fx, gconstpointer data)
{
	g_autoptr(SdtInfo) info = test_info_collect(fx, "pi4-no-card.umockdev", "pi4-no-card");

	g_assert_cmpstr(sdt_board_get_key(info->board), ==, "4");
	g_assert_false(info->card->present);
	g_assert_null(info->card->device);
	g_assert_cmpint(info->bus.ios.clock_hz, ==, -1);
	g_assert_cmpfloat(info->bus.ceiling_mb_s, <, 0);
	g_assert_cmpint(info->bus.cqe, ==, SDT_CQE_UNKNOWN);
	g_assert_cmpuint(info->warnings->len, ==, 1);
}

static void
test_ops_info(Fixture *fx, gconstpointer data)
{
	g_autoptr(SdtInfo) info = test_info_collect(fx, "tinker-board.umockdev", "tinker-board");
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = sdt_ops_info(fx->ctx, &error);
	g_autoptr(SdtInfoReport) report = NULL;

	g_assert_no_error(error);
	report = sdt_info_report_parse(text, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(report->board.key, ==, "unknown");
	g_assert_null(report->board.revision);
	g_assert_nonnull(report->config);
	g_assert_cmpstr(info->card->host_driver, ==, "dwmmc_rockchip");
	g_assert_cmpint(info->bus.ios.bus_width, ==, -1);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/sdtuner/info/pi3-overclocked",
		   Fixture,
		   NULL,
		   NULL,
		   test_pi3_overclocked,
		   fixture_teardown);
	g_test_add("/sdtuner/info/pi5-cqe", Fixture, NULL, NULL, test_pi5_cqe, fixture_teardown);
	g_test_add("/sdtuner/info/pi5-bad-input",
		   Fixture,
		   NULL,
		   NULL,
		   test_pi5_bad_input,
		   fixture_teardown);
	g_test_add("/sdtuner/info/no-card", Fixture, NULL, NULL, test_no_card, fixture_teardown);
	g_test_add("/sdtuner/info/ops-info-non-pi",
		   Fixture,
		   NULL,
		   NULL,
		   test_ops_info,
		   fixture_teardown);
	return g_test_run();
}
