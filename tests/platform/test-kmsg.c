/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-kmsg.h"
#include "sdt-kmsg-private.h"

/* message formats: PLATFORM.md §5.1 (RPL bcm2835-sdhost.c, sd.c, block.c) */
static const gchar *pi3_log = "6,228,2496288,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)\n"
			      " SUBSYSTEM=platform\n"
			      " DEVICE=+platform:3f202000.mmc\n"
			      "6,229,2500000,-;mmc0: overclocking to 100000000Hz\n"
			      "6,230,2568846,-;mmc0: new high speed SDHC card at address 0001\n"
			      "6,231,2589212,-;mmcblk0: mmc0:0001 SU08G 7.40 GiB \n"
			      "6,232,2623451,-; mmcblk0: p1 p2\n"
			      "6,233,2700000,-;mmc1: Overclocking to 50000000Hz\n"
			      "6,234,2700001,-;mmc1: overclocking to 60000000Hz\n"
			      "4,235,9000000,-;mmc0: reducing overclock due to errors\n"
			      "6,236,9000001,-;mmc0: overclocking to 80000000Hz\n"
			      "4,237,9500000,-;mmc0: reducing overclock due to errors\n"
			      "4,238,9600000,-;mmc0: cancelling overclock\n"
			      "6,239,9700000,-;rcu: \\x09RCU restricting CPUs\n";

static void
test_parse_records(void)
{
	g_autoptr(GPtrArray) records = NULL;
	SdtKmsgRecord *r;
	guint n_bad = 99;

	records = sdt_kmsg_parse(pi3_log, strlen(pi3_log), &n_bad);
	g_assert_cmpuint(n_bad, ==, 0);
	g_assert_cmpuint(records->len, ==, 12);
	r = g_ptr_array_index(records, 0);
	g_assert_cmpuint(r->priority, ==, 6);
	g_assert_cmpuint(r->seq, ==, 228);
	g_assert_cmpuint(r->usec, ==, 2496288);
	g_assert_cmpstr(r->message, ==, "mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)");
	g_assert_cmpuint(g_strv_length(r->dict), ==, 2);
	g_assert_cmpstr(r->dict[1], ==, "DEVICE=+platform:3f202000.mmc");
	/* trailing spaces trimmed, escapes kept */
	r = g_ptr_array_index(records, 3);
	g_assert_cmpstr(r->message, ==, "mmcblk0: mmc0:0001 SU08G 7.40 GiB");
	g_assert_null(r->dict);
	r = g_ptr_array_index(records, 11);
	g_assert_cmpstr(r->message, ==, "rcu: \\x09RCU restricting CPUs");
}

static void
test_facts_overclock(void)
{
	g_autoptr(GPtrArray) records = sdt_kmsg_parse(pi3_log, strlen(pi3_log), NULL);
	SdtKmsgFacts f;

	sdt_kmsg_facts_init(&f);
	sdt_kmsg_facts_scan(&f, records, "mmc0", "mmcblk0");
	/* mmc1 (WLAN) lines are not the SD slot's */
	g_assert_cmpint(f.overclock_hz, ==, 80000000);
	g_assert_cmpuint(f.overclock_reduced, ==, 2);
	g_assert_true(f.overclock_cancelled);
	g_assert_cmpint(f.overclock_current_hz, ==, 0);
	g_assert_true(f.card_seen);
	g_assert_cmpint(f.card_timing, ==, SDT_TIMING_SD_HIGH_SPEED);
	g_assert_cmpstr(f.card_type, ==, "SDHC");
	g_assert_cmpint(f.quirks, ==, -1);
	g_assert_cmpstr(f.block_line, ==, "mmcblk0: mmc0:0001 SU08G 7.40 GiB");
	g_assert_false(f.cqe_enabled);
	sdt_kmsg_facts_clear(&f);
}

static void
test_facts_cqe(void)
{
	const gchar *log = "6,1,1,-;mmc0: CQHCI version 5.10\n"
			   "6,2,2,-;mmc0: Command Queue Engine enabled, 31 tags\n"
			   "6,3,3,-;mmc0: new ultra high speed SDR104 SDXC card at address aaaa\n"
			   "6,4,4,-;mmcblk0: mmc0:aaaa SN64G 59.5 GiB (quirks 0x00004000)\n"
			   "3,5,5,-;mmc0: running CQE recovery\n"
			   "3,6,6,-;mmc0: running CQE recovery\n"
			   "3,7,7,-;mmc0: running CQE recovery\n"
			   "6,8,8,-;mmc1: new ultra high speed DDR50 SDIO card at address 0001\n";
	g_autoptr(GPtrArray) records = sdt_kmsg_parse(log, strlen(log), NULL);
	SdtKmsgFacts f;

	sdt_kmsg_facts_init(&f);
	sdt_kmsg_facts_scan(&f, records, "mmc0", "mmcblk0");
	g_assert_true(f.cqe_enabled);
	g_assert_cmpint(f.cqe_tags, ==, 31);
	g_assert_false(f.host_software_queue);
	g_assert_cmpuint(f.cqe_recovery, ==, 3);
	g_assert_cmpint(f.quirks, ==, 0x4000);
	g_assert_cmpint(f.card_timing, ==, SDT_TIMING_UHS_SDR104);
	g_assert_cmpstr(f.card_type, ==, "SDXC");
	g_assert_cmpint(f.overclock_hz, ==, -1);
	g_assert_cmpint(f.overclock_current_hz, ==, 0);
	sdt_kmsg_facts_clear(&f);

	/* no host known: any mmcN counts, the last card line wins */
	sdt_kmsg_facts_init(&f);
	sdt_kmsg_facts_scan(&f, records, NULL, NULL);
	g_assert_cmpint(f.card_timing, ==, SDT_TIMING_UHS_DDR50);
	g_assert_cmpint(f.quirks, ==, 0x4000);
	sdt_kmsg_facts_clear(&f);
}

static void
test_facts_hsq_and_failed(void)
{
	const gchar *log = "6,1,1,-;mmc0: Host Software Queue enabled\n"
			   "3,2,2,-;mmc0: Enabling CMDQ failed\n"
			   "6,3,3,-;mmc0: Command Queue Engine enabled\n"
			   "6,4,4,-;mmc0: new SDHC card at address 0001\n";
	g_autoptr(GPtrArray) records = sdt_kmsg_parse(log, strlen(log), NULL);
	SdtKmsgFacts f;

	sdt_kmsg_facts_init(&f);
	sdt_kmsg_facts_scan(&f, records, "mmc0", "mmcblk0");
	g_assert_true(f.host_software_queue);
	g_assert_true(f.cqe_enabled);
	g_assert_cmpint(f.cqe_tags, ==, -1);
	g_assert_false(f.cmdq_failed);
	g_assert_cmpint(f.card_timing, ==, SDT_TIMING_LEGACY);
	sdt_kmsg_facts_clear(&f);
}

static void
test_long_line_and_garbage(void)
{
	g_autoptr(GString) log = g_string_new("6,1,1,-;usb 1-1: ");
	g_autoptr(GPtrArray) records = NULL;
	SdtKmsgRecord *r;
	SdtKmsgFacts f;
	guint n_bad = 0;

	for (guint i = 0; i < 10240; i++)
		g_string_append_c(log, 'A' + i % 26);
	g_string_append(log, "\n6,2,2,-;mmc0: overclocking to 62500000Hz\n");
	g_string_append(log, " orphan continuation\n");
	g_string_append(log, "garbage line\n6,x,3,-;bad seq\n6,4;no usec\n6,5,5,-no semicolon\n");
	g_string_append_len(log, "\0\xff\xfe\n", 4);
	g_string_append(log, "4,6,6,c;mmc0: reducing overclock due to errors"); /* no newline */
	records = sdt_kmsg_parse(log->str, log->len, &n_bad);
	g_assert_cmpuint(records->len, ==, 3);
	r = g_ptr_array_index(records, 0);
	g_assert_cmpuint(strlen(r->message), ==, 10240 + strlen("usb 1-1: "));
	/* the orphan continuation belongs to record 2: it is a dict line, not garbage */
	r = g_ptr_array_index(records, 1);
	g_assert_cmpstr(r->dict[0], ==, "orphan continuation");
	g_assert_cmpuint(n_bad, ==, 5);

	sdt_kmsg_facts_init(&f);
	sdt_kmsg_facts_scan(&f, records, "mmc0", "mmcblk0");
	g_assert_cmpint(f.overclock_hz, ==, 62500000);
	g_assert_cmpuint(f.overclock_reduced, ==, 1);
	/* reduced after the last announcement: the clock now is not known */
	g_assert_cmpint(f.overclock_current_hz, ==, -1);
	sdt_kmsg_facts_clear(&f);
}

static void
test_read_file_under_root(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *root = g_test_build_filename(G_TEST_DIST, "data", "roots", "pi5", NULL);
	g_autofree gchar *empty =
		g_test_build_filename(G_TEST_DIST, "data", "boards", "empty-root", NULL);
	g_autoptr(SdtContext) ctx = sdt_context_new(root, &error);
	g_autoptr(SdtContext) ctx_empty = sdt_context_new(empty, &error);
	g_autofree gchar *text = NULL;
	g_autoptr(GPtrArray) records = NULL;
	gsize len = 0;
	SdtKmsgFacts f;

	g_assert_no_error(error);
	text = sdt_kmsg_read(ctx, &len, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(len, ==, strlen(text));
	records = sdt_kmsg_parse(text, len, NULL);
	sdt_kmsg_facts_init(&f);
	sdt_kmsg_facts_scan(&f, records, "mmc0", "mmcblk0");
	g_assert_true(f.cqe_enabled);
	g_assert_cmpint(f.cqe_tags, ==, 31);
	sdt_kmsg_facts_clear(&f);

	g_assert_null(sdt_kmsg_read(ctx_empty, &len, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
}

/* the real /dev/kmsg must be read to its end without blocking (it never returns EOF) */
static void
test_read_real_device(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtContext) ctx = sdt_context_new("/", &error);
	g_autofree gchar *text = NULL;
	g_autoptr(GPtrArray) records = NULL;
	gsize len = 0;
	guint n_bad = 0;

	if (g_access("/dev/kmsg", R_OK) != 0)
		return g_test_skip("/dev/kmsg is not readable here");
	text = sdt_kmsg_read(ctx, &len, &error);
	if (g_error_matches(error, SDT_ERROR, SDT_ERROR_NOT_AUTHORIZED))
		return g_test_skip("reading /dev/kmsg is not permitted here");
	g_assert_no_error(error);
	records = sdt_kmsg_parse(text, len, &n_bad);
	g_assert_cmpuint(n_bad, ==, 0);
	g_assert_cmpuint(records->len, >, 0);
}

/* every prefix and random byte flips of a real log: no crash, never more records */
static void
test_mutations(void)
{
	gsize len = strlen(pi3_log);

	for (gsize cut = 0; cut <= len; cut++) {
		g_autoptr(GPtrArray) records = sdt_kmsg_parse(pi3_log, cut, NULL);
		SdtKmsgFacts f;
		g_assert_cmpuint(records->len, <=, 12);
		sdt_kmsg_facts_init(&f);
		sdt_kmsg_facts_scan(&f, records, "mmc0", "mmcblk0");
		sdt_kmsg_facts_clear(&f);
	}
	for (guint i = 0; i < 2000; i++) {
		g_autofree gchar *buf = g_strdup(pi3_log);
		g_autoptr(GPtrArray) records = NULL;
		SdtKmsgFacts f;
		for (guint j = 0; j < 4; j++)
			buf[g_test_rand_int_range(0, (gint32) len)] =
				(gchar) g_test_rand_int_range(0, 256);
		records = sdt_kmsg_parse(buf, len, NULL);
		g_assert_cmpuint(records->len, <=, 12);
		sdt_kmsg_facts_init(&f);
		sdt_kmsg_facts_scan(&f, records, NULL, NULL);
		sdt_kmsg_facts_clear(&f);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/kmsg/parse-records", test_parse_records);
	g_test_add_func("/sdtuner/kmsg/facts-overclock", test_facts_overclock);
	g_test_add_func("/sdtuner/kmsg/facts-cqe", test_facts_cqe);
	g_test_add_func("/sdtuner/kmsg/facts-hsq-and-failed", test_facts_hsq_and_failed);
	g_test_add_func("/sdtuner/kmsg/long-line-and-garbage", test_long_line_and_garbage);
	g_test_add_func("/sdtuner/kmsg/read-file-under-root", test_read_file_under_root);
	g_test_add_func("/sdtuner/kmsg/read-real-device-without-blocking", test_read_real_device);
	g_test_add_func("/sdtuner/kmsg/mutated-input-never-crashes", test_mutations);
	return g_test_run();
}
