/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-health.h"
#include "sdt-test-root.h"
#include "sdt-ops.h"

/*
 * sdt_ops_health(): the `health` document on a scratch copy of the Pi 4 fixture (its SD
 * device chain from umockdev), with the kernel's counters written as the kernel has them:
 * ext4's lifetime writes, the block stat, the uptime, card errors in the kernel log.
 */

static JsonNode *
test_ops_health_of(SdtTestRoot *root)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *text = sdt_ops_health(root->ctx, &error);
	JsonNode *node;

	/* the codec's text (sdt-health-report), read back as JSON for the paths below */
	g_assert_no_error(error);
	g_assert_nonnull(text);
	node = json_from_string(text, &error);
	g_assert_no_error(error);
	g_assert_nonnull(node);
	return node;
}

/* only the fixture: the card and its partitions, every counter null, nothing fails */
static void
test_ops_health_fixture_only(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi4", NULL, FALSE);
	g_autoptr(JsonNode) node = test_ops_health_of(root);

	g_assert_true(sdt_test_root_json_bool(node, "card.present"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "card.device"), ==, "mmcblk0");
	g_assert_cmpstr(sdt_test_root_json_str(node, "card.kind"), ==, "sd");
	g_assert_true(sdt_test_root_json_bool(node, "card.holds_system"));
	g_assert_false(sdt_test_root_json_bool(node, "card.write_protect.permanent"));
	g_assert_false(sdt_test_root_json_bool(node, "card.write_protect.temporary"));
	g_assert_cmpuint(sdt_test_root_json_len(node, "partitions"), ==, 2);
	g_assert_cmpstr(sdt_test_root_json_str(node, "partitions.0.device"), ==, "mmcblk0p2");
	g_assert_cmpstr(sdt_test_root_json_str(node, "partitions.0.mount_point"), ==, "/");
	g_assert_cmpstr(sdt_test_root_json_str(node, "partitions.0.filesystem"), ==, "ext4");
	g_assert_cmpstr(sdt_test_root_json_str(node, "partitions.1.filesystem"), ==, "vfat");
	g_assert_true(sdt_test_root_json_is_null(node, "lifetime_write_bytes"));
	g_assert_true(sdt_test_root_json_is_null(node, "since_boot.written_bytes"));
	g_assert_true(sdt_test_root_json_is_null(node, "writes_per_day_bytes"));
	g_assert_true(sdt_test_root_json_is_null(node, "projection"));
	g_assert_cmpint(sdt_test_root_json_int(node, "kernel_errors_since_boot"), ==, 0);
	g_assert_false(sdt_test_root_json_bool(node, "read_only"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "registers.verdict"), ==, "plausible");
	g_assert_cmpint(sdt_test_root_json_int(node, "trend.runs"), ==, 0);
	g_assert_cmpuint(sdt_test_root_json_len(node, "trend.alerts"), ==, 0);
}

/* the kernel's counters: every figure follows from them */
static void
test_ops_health_counters(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi4", NULL, FALSE);
	g_autoptr(JsonNode) node = NULL;
	g_autofree gchar *kmsg_path = NULL;
	g_autofree gchar *kmsg = NULL;
	g_autofree gchar *more = NULL;
	const gdouble written = 8000000.0 * 512;
	const gdouble per_day = written / (172800.5 / 86400.0);
	gdouble capacity;
	gdouble years;

	sdt_test_root_write(root, "sys/fs/ext4/mmcblk0p2/lifetime_write_kbytes", "123456789\n");
	sdt_test_root_write(
		root,
		"sys/block/mmcblk0/stat",
		"   12345      100   2000000     5000    67890      200  8000000    9000"
		"        0    10000    14000\n");
	sdt_test_root_write(root, "proc/uptime", "172800.50 300000.00\n");
	kmsg_path = sdt_test_root_file(root, "dev/kmsg");
	g_assert_true(g_file_get_contents(kmsg_path, &kmsg, NULL, NULL));
	more = g_strconcat(kmsg,
			   "3,900,50000000,-;mmc0: error -110 whilst initialising SD card\n",
			   "3,901,50000001,-;mmc0: Timeout waiting for hardware interrupt.\n",
			   "3,902,50000002,-;mmc1: error -110 whilst initialising SDIO card\n",
			   NULL);
	g_assert_true(g_file_set_contents(kmsg_path, more, -1, NULL));

	node = test_ops_health_of(root);
	g_assert_cmpint(sdt_test_root_json_int(node, "lifetime_write_bytes"),
			==,
			G_GINT64_CONSTANT(123456789) * 1024);
	g_assert_cmpint(sdt_test_root_json_int(node, "since_boot.written_bytes"),
			==,
			G_GINT64_CONSTANT(8000000) * 512);
	g_assert_cmpint(sdt_test_root_json_int(node, "since_boot.read_bytes"),
			==,
			G_GINT64_CONSTANT(2000000) * 512);
	g_assert_cmpfloat_with_epsilon(sdt_test_root_json_double(node, "since_boot.uptime_seconds"),
				       172800.5,
				       1e-6);
	g_assert_cmpfloat_with_epsilon(sdt_test_root_json_double(node, "writes_per_day_bytes"),
				       per_day,
				       1.0);
	/* the card's rated endurance as 500 full writes of its capacity, the rest at this rate */
	capacity = (gdouble) sdt_test_root_json_int(node, "card.capacity_bytes");
	years = (capacity * 500 - 123456789.0 * 1024) / per_day / 365.25;
	g_assert_cmpfloat_with_epsilon(sdt_test_root_json_double(node, "projection.years"),
				       years,
				       0.01);
	g_assert_nonnull(
		strstr(sdt_test_root_json_str(node, "projection.assumption"), "rough estimate"));
	/* two errors of mmc0, the card's host; mmc1's is not the card's */
	g_assert_cmpint(sdt_test_root_json_int(node, "kernel_errors_since_boot"), ==, 2);
}

static void
test_ops_health_bench(SdtTestRoot *root, guint i, gdouble seq_mb_s, gdouble lat_us)
{
	g_autofree gchar *rel =
		g_strdup_printf("var/lib/sd-tuner/history/%" G_GUINT64_FORMAT "-bench.json",
				G_GUINT64_CONSTANT(1700000000000000) + i);
	g_autofree gchar *text = g_strdup_printf(
		"{\"kind\": \"bench\", \"time\": \"2026-01-%02uT00:00:00Z\", \"profile\": "
		"\"quick\", \"target\": {\"path\": \"/var/tmp/x\", \"stand_in\": false}, "
		"\"tests\": [{\"name\": \"seq-write\", \"mb_s\": %.1f}, {\"name\": "
		"\"rand-4k-write-qd1\", \"mb_s\": 1.0, \"latency_us\": {\"mean\": %.1f, "
		"\"p99\": %.1f}}]}",
		i + 1,
		seq_mb_s,
		lat_us,
		lat_us * 3);
	sdt_test_root_write(root, rel, text);
}

/* three steady runs, then three at half the rate: an alert; a damaged entry is skipped */
static void
test_ops_health_trend(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi4", NULL, FALSE);
	g_autoptr(JsonNode) node = NULL;
	const gdouble mb_s[] = {20.0, 21.0, 19.5, 10.0, 10.5, 9.5};

	for (guint i = 0; i < G_N_ELEMENTS(mb_s); i++)
		test_ops_health_bench(root, i, mb_s[i], 900);
	sdt_test_root_write(root,
			    "var/lib/sd-tuner/history/1700000000000009-bench.json",
			    "{\"kind\": \"bench\", \"tests\": [");
	node = test_ops_health_of(root);
	g_assert_cmpint(sdt_test_root_json_int(node, "trend.runs"), ==, 6);
	g_assert_cmpuint(sdt_test_root_json_len(node, "trend.alerts"), >=, 1);
	g_assert_nonnull(strstr(sdt_test_root_json_str(node, "trend.alerts.0"), "write"));
}

/* the state folder may be written by others (issue 33): its history is not read, and the
 * answer says why (state_error) instead of an empty trend that looks like no benchmark */
static void
test_ops_health_state_refused(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi4", NULL, FALSE);
	g_autofree gchar *state = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autoptr(JsonNode) fine = NULL;

	test_ops_health_bench(root, 0, 20.0, 900);
	fine = test_ops_health_of(root);
	g_assert_true(sdt_test_root_json_is_null(fine, "state_error"));
	g_assert_cmpint(sdt_test_root_json_int(fine, "trend.runs"), ==, 1);

	state = sdt_test_root_file(root, "var/lib/sd-tuner");
	g_assert_cmpint(g_chmod(state, 0777), ==, 0);
	node = test_ops_health_of(root);
	g_assert_nonnull(strstr(sdt_test_root_json_str(node, "state_error"), "other users"));
	g_assert_nonnull(strstr(sdt_test_root_json_str(node, "state_error"), "chmod go-w"));
	g_assert_cmpint(sdt_test_root_json_int(node, "trend.runs"), ==, 0);
	g_assert_cmpint(g_chmod(state, 0755), ==, 0);
}

/* no card in the slot (the system on USB): health answers, the card absent */
static void
test_ops_health_no_card(void)
{
	g_autoptr(SdtTestRoot) root = sdt_test_root_new("pi4-no-card", NULL, FALSE);
	g_autoptr(JsonNode) node = test_ops_health_of(root);

	g_assert_false(sdt_test_root_json_bool(node, "card.present"));
	g_assert_true(sdt_test_root_json_is_null(node, "card.device"));
	g_assert_cmpstr(sdt_test_root_json_str(node, "card.system_device"), ==, "sda2");
	g_assert_cmpuint(sdt_test_root_json_len(node, "partitions"), ==, 0);
	g_assert_true(sdt_test_root_json_is_null(node, "projection"));
	g_assert_true(sdt_test_root_json_is_null(node, "registers"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/ops-health/fixture-only", test_ops_health_fixture_only);
	g_test_add_func("/sdtuner/ops-health/counters", test_ops_health_counters);
	g_test_add_func("/sdtuner/ops-health/trend", test_ops_health_trend);
	g_test_add_func("/sdtuner/ops-health/no-card", test_ops_health_no_card);
	g_test_add_func("/sdtuner/ops-health/state-refused", test_ops_health_state_refused);
	return g_test_run();
}
