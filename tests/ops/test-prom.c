/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "sdt-error.h"
#include "sdt-prom.h"
#include "sdt-prom-private.h"
#include "sdt-test-util.h"

/* issue 27: the exposition format, label values from hostile card registers */
static void
test_prom_escape(void)
{
	g_autofree gchar *plain = sdt_prom_escape_label_value("SN64G");
	g_autofree gchar *hostile = sdt_prom_escape_label_value("a\"b\\c\nd\xff"
								"e");
	g_autofree gchar *empty = sdt_prom_escape_label_value(NULL);

	g_assert_cmpstr(plain, ==, "SN64G");
	/* quote, backslash and line feed escaped; the invalid byte is U+FFFD */
	g_assert_cmpstr(hostile,
			==,
			"a\\\"b\\\\c\\nd\xef\xbf\xbd"
			"e");
	g_assert_true(g_utf8_validate(hostile, -1, NULL));
	g_assert_cmpstr(empty, ==, "");
}

static void
test_prom_text(void)
{
	g_autoptr(SdtProm) prom = sdt_prom_new();
	g_autofree gchar *text = NULL;
	const gchar *a[] = {"test", "seq-write", NULL};
	const gchar *b[] = {"test", "seq-read", "note", "x\"y", NULL};

	sdt_prom_add(prom, "sdtuner_a_bytes", SDT_PROM_GAUGE, "A\\help\nline", NULL, 64e9);
	sdt_prom_add(prom, "sdtuner_unknown", SDT_PROM_GAUGE, "never shown", NULL, NAN);
	sdt_prom_add(prom, "sdtuner_b_total", SDT_PROM_COUNTER, "B", NULL, 3);
	sdt_prom_add(prom, "sdtuner_rate", SDT_PROM_GAUGE, "R", a, 22.5e6);
	sdt_prom_add(prom, "sdtuner_rate", SDT_PROM_GAUGE, "R", b, 0.1);
	sdt_prom_add(prom, "sdtuner_rate", SDT_PROM_GAUGE, "R", a, INFINITY);
	text = sdt_prom_to_string(prom);
	g_assert_cmpstr(text,
			==,
			"# HELP sdtuner_a_bytes A\\\\help\\nline\n"
			"# TYPE sdtuner_a_bytes gauge\n"
			"sdtuner_a_bytes 64000000000\n"
			"# HELP sdtuner_b_total B\n"
			"# TYPE sdtuner_b_total counter\n"
			"sdtuner_b_total 3\n"
			"# HELP sdtuner_rate R\n"
			"# TYPE sdtuner_rate gauge\n"
			"sdtuner_rate{test=\"seq-write\"} 22500000\n"
			"sdtuner_rate{test=\"seq-read\",note=\"x\\\"y\"} 0.10000000000000001\n");
}

static gchar *
test_prom_read(const gchar *path)
{
	gchar *contents = NULL;
	g_assert_true(g_file_get_contents(path, &contents, NULL, NULL));
	return contents;
}

static guint
test_prom_count_files(const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	guint n = 0;
	while (d != NULL && g_dir_read_name(d) != NULL)
		n++;
	return n;
}

/* atomic, 0644 whatever the umask, and an error leaves the old file and no temporary */
static void
test_prom_write_file(void)
{
	g_autofree gchar *dir = sdt_test_mkdtemp("sdt-prom-XXXXXX");
	g_autofree gchar *path = g_build_filename(dir, "sdtuner.prom", NULL);
	g_autofree gchar *missing = g_build_filename(dir, "no-such-dir", "sdtuner.prom", NULL);
	g_autofree gchar *contents = NULL;
	g_autoptr(GError) error = NULL;
	struct stat st;
	mode_t old_umask = umask(0077);

	g_assert_true(sdt_prom_write_file(path, "sdtuner_x 1\n", &error));
	g_assert_no_error(error);
	umask(old_umask);
	g_assert_cmpint(g_stat(path, &st), ==, 0);
	g_assert_cmpint(st.st_mode & 07777, ==, 0644);
	contents = test_prom_read(path);
	g_assert_cmpstr(contents, ==, "sdtuner_x 1\n");
	g_assert_true(sdt_prom_write_file(path, "sdtuner_x 2\n", &error));
	g_clear_pointer(&contents, g_free);
	contents = test_prom_read(path);
	g_assert_cmpstr(contents, ==, "sdtuner_x 2\n");
	g_assert_cmpuint(test_prom_count_files(dir), ==, 1);

	g_assert_false(sdt_prom_write_file(missing, "sdtuner_x 3\n", &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_assert_nonnull(strstr(error->message, "no-such-dir"));
	g_assert_nonnull(strstr(error->message, "folder does not exist"));
	g_assert_cmpuint(test_prom_count_files(dir), ==, 1);
	g_assert_true(sdt_test_rm_rf(dir));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/prom/escape", test_prom_escape);
	g_test_add_func("/sdtuner/prom/text", test_prom_text);
	g_test_add_func("/sdtuner/prom/write-file", test_prom_write_file);
	return g_test_run();
}
