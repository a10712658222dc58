/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the kernel log sd-tuner-helper keeps: sdt_kmsg_filter() and the context's copy */

#include "config.h"

#include <glib/gstdio.h>

#include "sdt-context.h"
#include "sdt-kmsg.h"

/* records as /dev/kmsg gives them (PLATFORM.md §5.1 wording), with a
 * continuation line and a line that is not a record */
static const gchar kmsg_text[] =
	"6,1,0,-;Booting Linux on physical CPU 0x0\n"
	"6,412,1520334,-;mmc0: host does not support reading read-only switch, assuming "
	"write-enable\n"
	"6,413,1523112,-;mmc0: new high speed SDHC card at address aaaa\n"
	" SUBSYSTEM=mmc\n"
	" DEVICE=+mmc:mmc0:aaaa\n"
	"6,414,1530001,-;mmcblk0: mmc0:aaaa SC16G 14.8 GiB\n"
	"6,415,1530100,-; mmcblk0: p1 p2\n"
	"6,416,1601002,-;sdhost-bcm2835 3f202000.mmc: loaded - DMA enabled (>1)\n"
	" SUBSYSTEM=platform\n"
	"garbage without a header\n"
	"4,417,2000000,-;mmc0: overclocking to 62500000Hz";

static void
test_kernel_log_filter_keeps_mmc_records(void)
{
	gsize len = 0;
	g_autofree gchar *kept = sdt_kmsg_filter(kmsg_text, strlen(kmsg_text), "mmc", &len);

	g_assert_cmpstr(kept,
			==,
			"6,412,1520334,-;mmc0: host does not support reading read-only switch, "
			"assuming write-enable\n"
			"6,413,1523112,-;mmc0: new high speed SDHC card at address aaaa\n"
			" SUBSYSTEM=mmc\n"
			" DEVICE=+mmc:mmc0:aaaa\n"
			"6,414,1530001,-;mmcblk0: mmc0:aaaa SC16G 14.8 GiB\n"
			"4,417,2000000,-;mmc0: overclocking to 62500000Hz\n");
	g_assert_cmpuint(len, ==, strlen(kept));
}

static void
test_kernel_log_filter_empty_and_none(void)
{
	gsize len = 1;
	g_autofree gchar *empty = sdt_kmsg_filter("", 0, "mmc", &len);
	g_autofree gchar *none = NULL;

	g_assert_cmpstr(empty, ==, "");
	g_assert_cmpuint(len, ==, 0);
	none = sdt_kmsg_filter("6,1,0,-;mm\n6,2,0,-\n;mmc\n", 20, "mmc", &len);
	g_assert_cmpstr(none, ==, "");
	g_assert_cmpuint(len, ==, 0);
}

static void
test_kernel_log_kept_copy_replaces_reading(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *root = g_dir_make_tmp("sdt-kernel-log-XXXXXX", &error);
	g_autofree gchar *dev = NULL;
	g_autofree gchar *kmsg = NULL;
	g_autofree gchar *first = NULL;
	g_autofree gchar *second = NULL;
	g_autoptr(SdtContext) ctx = NULL;
	g_autoptr(GBytes) kept = NULL;
	gsize len = 0;

	g_assert_no_error(error);
	dev = g_build_filename(root, "dev", NULL);
	kmsg = g_build_filename(dev, "kmsg", NULL);
	g_assert_cmpint(g_mkdir(dev, 0755), ==, 0);
	g_assert_true(g_file_set_contents(kmsg, kmsg_text, -1, &error));
	ctx = sdt_context_new(root, &error);
	g_assert_no_error(error);

	first = sdt_kmsg_read(ctx, &len, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(first, ==, kmsg_text);
	g_assert_null(sdt_context_get_kernel_log(ctx));

	kept = g_bytes_new_static("6,1,0,-;mmc0: kept\n", 19);
	sdt_context_set_kernel_log(ctx, kept);
	/* the file is gone: the kept copy is what readers get */
	g_assert_cmpint(g_unlink(kmsg), ==, 0);
	second = sdt_kmsg_read(ctx, &len, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(second, ==, "6,1,0,-;mmc0: kept\n");
	g_assert_cmpuint(len, ==, 19);

	g_assert_cmpint(g_rmdir(dev), ==, 0);
	g_assert_cmpint(g_rmdir(root), ==, 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/kernel-log/filter-keeps-mmc-records",
			test_kernel_log_filter_keeps_mmc_records);
	g_test_add_func("/sdtuner/kernel-log/filter-empty-and-none",
			test_kernel_log_filter_empty_and_none);
	g_test_add_func("/sdtuner/kernel-log/kept-copy-replaces-reading",
			test_kernel_log_kept_copy_replaces_reading);
	return g_test_run();
}
