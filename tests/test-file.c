/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-test-util.h"

typedef struct {
	gchar *dir;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data)
{
	f->dir = g_dir_make_tmp("sdt-file-XXXXXX", NULL);
	g_assert_nonnull(f->dir);
}

static void
fixture_teardown(Fixture *f, gconstpointer data)
{
	g_assert_true(sdt_test_rm_rf(f->dir));
	g_free(f->dir);
}

static void
test_file_regular(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "config.txt", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;
	const gchar bytes[] = "# \xdc"
			      "bertaktung\n\0after-nul\n";

	g_assert_true(g_file_set_contents(path, bytes, sizeof bytes - 1, NULL));
	g_assert_true(sdt_file_read_bounded(path, 1024, &text, &len, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(len, ==, sizeof bytes - 1);
	g_assert_cmpmem(text, len, bytes, sizeof bytes - 1);
	g_assert_cmpint(text[len], ==, '\0');

	/* exactly at the limit is fine, one byte less is not */
	g_clear_pointer(&text, g_free);
	g_assert_true(sdt_file_read_bounded(path, sizeof bytes - 1, &text, NULL, &error));
	g_assert_no_error(error);
	g_clear_pointer(&text, g_free);
	g_assert_false(sdt_file_read_bounded(path, sizeof bytes - 2, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_null(text);
}

/* a FIFO must be refused at once, not read (the helper would hang holding its lock) */
static void
test_file_fifo(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "tryboot.txt", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(mkfifo(path, 0600), ==, 0);
	g_assert_false(sdt_file_read_bounded(path, 1024, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "not a regular file"));
	g_assert_null(text);
}

static void
test_file_symlink(Fixture *f, gconstpointer data)
{
	g_autofree gchar *target = g_build_filename(f->dir, "target", NULL);
	g_autofree gchar *path = g_build_filename(f->dir, "link", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_true(g_file_set_contents(target, "x=1\n", -1, NULL));
	g_assert_cmpint(symlink(target, path), ==, 0);
	g_assert_false(sdt_file_read_bounded(path, 1024, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_null(text);
}

static void
test_file_missing_and_dir(Fixture *f, gconstpointer data)
{
	g_autofree gchar *path = g_build_filename(f->dir, "missing", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;

	g_assert_false(sdt_file_read_bounded(path, 1024, &text, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_clear_error(&error);
	g_assert_false(sdt_file_read_bounded(f->dir, 1024, &text, NULL, &error));
	g_assert_nonnull(error);
	g_assert_null(text);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/file/regular",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_file_regular,
		   fixture_teardown);
	g_test_add("/file/fifo", Fixture, NULL, fixture_setup, test_file_fifo, fixture_teardown);
	g_test_add("/file/symlink",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_file_symlink,
		   fixture_teardown);
	g_test_add("/file/missing-and-dir",
		   Fixture,
		   NULL,
		   fixture_setup,
		   test_file_missing_and_dir,
		   fixture_teardown);
	return g_test_run();
}
