/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <glib/gstdio.h>

#include "sdt-test-util.h"

gchar *
sdt_test_mkdtemp(const gchar *tmpl)
{
	g_autoptr(GError) error = NULL;
	gchar *dir = g_dir_make_tmp(tmpl, &error);
	g_assert_no_error(error);
	return dir;
}

gboolean
sdt_test_rm_rf(const gchar *path)
{
	g_autoptr(GDir) d = g_dir_open(path, 0, NULL);
	const gchar *name;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree gchar *child = g_build_filename(path, name, NULL);
		if (g_file_test(child, G_FILE_TEST_IS_DIR) &&
		    !g_file_test(child, G_FILE_TEST_IS_SYMLINK))
			sdt_test_rm_rf(child);
		else
			g_unlink(child);
	}
	g_rmdir(path);
	return !g_file_test(path, G_FILE_TEST_EXISTS) && !g_file_test(path, G_FILE_TEST_IS_SYMLINK);
}
