/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-sd-bus.h"
#include "sdt-sd-bus-private.h"
#include "sdt-error.h"

/* observed (QEMU 7.2 raspi3b, Linux 6.1): the shared fixture qemu-rpi3/ios */
static const gchar *qemu_ios = "clock:\t\t50000000 Hz\n"
			       "actual clock:\t50000000 Hz\n"
			       "vdd:\t\t21 (3.3 ~ 3.4 V)\n"
			       "bus mode:\t2 (push-pull)\n"
			       "chip select:\t0 (don't care)\n"
			       "power mode:\t2 (on)\n"
			       "bus width:\t2 (4 bits)\n"
			       "timing spec:\t2 (sd high-speed)\n"
			       "signal voltage:\t0 (3.30 V)\n"
			       "driver type:\t0 (driver type B)\n";

static void
test_ios_qemu(void)
{
	g_autoptr(GError) error = NULL;
	SdtSdBusIos ios;

	sdt_sd_bus_ios_init(&ios);
	g_assert_true(sdt_sd_bus_ios_parse(&ios, qemu_ios, &error));
	g_assert_no_error(error);
	g_assert_cmpint(ios.clock_hz, ==, 50000000);
	g_assert_cmpint(ios.actual_clock_hz, ==, 50000000);
	g_assert_cmpint(ios.bus_width, ==, 4);
	g_assert_cmpint(ios.timing, ==, SDT_TIMING_SD_HIGH_SPEED);
	g_assert_cmpstr(ios.timing_text, ==, "sd high-speed");
	g_assert_cmpfloat_with_epsilon(ios.signal_voltage, 3.30, 0.001);
	g_assert_cmpfloat_with_epsilon(
		sdt_sd_bus_ceiling_mb_s(ios.actual_clock_hz, ios.bus_width, ios.timing),
		25.0,
		1e-9);
	sdt_sd_bus_ios_clear(&ios);
}

static void
test_ios_ddr50_no_actual_clock(void)
{
	g_autoptr(GError) error = NULL;
	SdtSdBusIos ios;

	sdt_sd_bus_ios_init(&ios);
	g_assert_true(sdt_sd_bus_ios_parse(&ios,
					   "clock:\t\t50000000 Hz\n"
					   "bus width:\t2 (4 bits)\n"
					   "timing spec:\t7 (sd uhs DDR50)\n"
					   "signal voltage:\t1 (1.80 V)\n",
					   &error));
	g_assert_cmpint(ios.clock_hz, ==, 50000000);
	g_assert_cmpint(ios.actual_clock_hz, ==, -1);
	g_assert_cmpint(ios.timing, ==, SDT_TIMING_UHS_DDR50);
	g_assert_cmpfloat_with_epsilon(ios.signal_voltage, 1.80, 0.001);
	g_assert_cmpfloat_with_epsilon(
		sdt_sd_bus_ceiling_mb_s(ios.clock_hz, ios.bus_width, ios.timing),
		50.0,
		1e-9);
	sdt_sd_bus_ios_clear(&ios);
}

static void
test_ios_garbage(void)
{
	const gchar *bad[] = {
		"",
		"no colon here\n\n",
		"clock: fast\nbus width: 4\ntiming spec: sd\nsignal voltage: high\n",
		"clock:\t\t-5 Hz\nbus width:\t2 (3 bits)\nsignal voltage:\t0 (9.00 V)\n",
	};

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		SdtSdBusIos ios;
		sdt_sd_bus_ios_init(&ios);
		g_assert_false(sdt_sd_bus_ios_parse(&ios, bad[i], &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_cmpint(ios.clock_hz, ==, -1);
		g_assert_cmpint(ios.bus_width, ==, -1);
		sdt_sd_bus_ios_clear(&ios);
	}
}

static void
test_ios_unknown_timing(void)
{
	g_autoptr(GError) error = NULL;
	SdtSdBusIos ios;

	sdt_sd_bus_ios_init(&ios);
	g_assert_true(sdt_sd_bus_ios_parse(&ios, "timing spec:\t13 (invalid)\n", &error));
	g_assert_cmpint(ios.timing, ==, SDT_TIMING_UNKNOWN);
	g_assert_cmpstr(ios.timing_text, ==, "invalid");
	g_assert_cmpstr(sdt_sd_bus_timing_to_string(ios.timing), ==, "unknown");
	sdt_sd_bus_ios_clear(&ios);
}

static void
test_timing_names(void)
{
	const struct {
		const gchar *ios;
		const gchar *name;
		gboolean ddr;
	} map[] = {
		{"legacy", "legacy", FALSE},
		{"mmc high-speed", "mmc-high-speed", FALSE},
		{"sd high-speed", "sd-high-speed", FALSE},
		{"sd uhs SDR12", "uhs-sdr12", FALSE},
		{"sd uhs SDR25", "uhs-sdr25", FALSE},
		{"sd uhs SDR50", "uhs-sdr50", FALSE},
		{"sd uhs SDR104", "uhs-sdr104", FALSE},
		{"sd uhs DDR50", "uhs-ddr50", TRUE},
		{"mmc DDR52", "mmc-ddr52", TRUE},
		{"mmc HS200", "mmc-hs200", FALSE},
		{"mmc HS400", "mmc-hs400", TRUE},
		{"mmc HS400 enhanced strobe", "mmc-hs400es", TRUE},
		{"sd uhs SDR1000", "unknown", FALSE},
	};

	for (guint i = 0; i < G_N_ELEMENTS(map); i++) {
		SdtTiming t = sdt_sd_bus_timing_from_ios(map[i].ios);
		g_assert_cmpstr(sdt_sd_bus_timing_to_string(t), ==, map[i].name);
		g_assert_true(sdt_sd_bus_timing_is_ddr(t) == map[i].ddr);
	}
	g_assert_cmpint(sdt_sd_bus_timing_from_uhs_mode("SDR104"), ==, SDT_TIMING_UHS_SDR104);
	g_assert_cmpint(sdt_sd_bus_timing_from_uhs_mode("DDR50"), ==, SDT_TIMING_UHS_DDR50);
	g_assert_cmpint(sdt_sd_bus_timing_from_uhs_mode(NULL), ==, SDT_TIMING_UNKNOWN);
	g_assert_cmpuint(sdt_sd_bus_timing_get_nominal_clock_hz(SDT_TIMING_UHS_SDR104),
			 ==,
			 208000000);
}

/* PLATFORM.md §2.2 */
static void
test_ceilings(void)
{
	g_assert_cmpfloat_with_epsilon(sdt_sd_bus_ceiling_mb_s(25000000, 4, SDT_TIMING_LEGACY),
				       12.5,
				       1e-9);
	g_assert_cmpfloat_with_epsilon(
		sdt_sd_bus_ceiling_mb_s(100000000, 4, SDT_TIMING_SD_HIGH_SPEED),
		50.0,
		1e-9);
	/* sd_overclock=100 with a 250 MHz core: 250/3 */
	g_assert_cmpfloat_with_epsilon(
		sdt_sd_bus_ceiling_mb_s(83333333, 4, SDT_TIMING_SD_HIGH_SPEED),
		41.6666665,
		1e-6);
	g_assert_cmpfloat_with_epsilon(sdt_sd_bus_ceiling_mb_s(100000000, 4, SDT_TIMING_UHS_SDR50),
				       50.0,
				       1e-9);
	g_assert_cmpfloat_with_epsilon(sdt_sd_bus_ceiling_mb_s(208000000, 4, SDT_TIMING_UHS_SDR104),
				       104.0,
				       1e-9);
	g_assert_cmpfloat_with_epsilon(
		sdt_sd_bus_ceiling_mb_s(50000000, 1, SDT_TIMING_SD_HIGH_SPEED),
		6.25,
		1e-9);
	g_assert_cmpfloat(sdt_sd_bus_ceiling_mb_s(-1, 4, SDT_TIMING_UHS_DDR50), <, 0);
	g_assert_cmpfloat(sdt_sd_bus_ceiling_mb_s(50000000, -1, SDT_TIMING_UHS_DDR50), <, 0);
}

/* every prefix and random byte flips of the QEMU ios: no crash, values stay in range */
static void
test_mutations(void)
{
	gsize len = strlen(qemu_ios);

	for (guint i = 0; i < 3000; i++) {
		g_autofree gchar *buf = g_strndup(qemu_ios, i < len ? i : len);
		SdtSdBusIos ios;
		if (i >= len) {
			for (guint j = 0; j < 4; j++)
				buf[g_test_rand_int_range(0, (gint32) len)] =
					(gchar) g_test_rand_int_range(1, 256);
		}
		sdt_sd_bus_ios_init(&ios);
		sdt_sd_bus_ios_parse(&ios, buf, NULL);
		g_assert_true(ios.bus_width == -1 || ios.bus_width == 1 || ios.bus_width == 4 ||
			      ios.bus_width == 8);
		g_assert_cmpint(ios.timing, <=, SDT_TIMING_UNKNOWN);
		sdt_sd_bus_ios_clear(&ios);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/bus/ios-qemu", test_ios_qemu);
	g_test_add_func("/sdtuner/bus/ios-ddr50-without-actual-clock",
			test_ios_ddr50_no_actual_clock);
	g_test_add_func("/sdtuner/bus/ios-garbage-is-an-error", test_ios_garbage);
	g_test_add_func("/sdtuner/bus/ios-unknown-timing", test_ios_unknown_timing);
	g_test_add_func("/sdtuner/bus/timing-names", test_timing_names);
	g_test_add_func("/sdtuner/bus/ceilings", test_ceilings);
	g_test_add_func("/sdtuner/bus/mutated-input-never-crashes", test_mutations);
	return g_test_run();
}
