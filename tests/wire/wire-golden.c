/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include <string.h>

#include "sdt-error.h"
#include "wire-golden.h"

gchar *
wire_golden_read(const gchar *name)
{
	g_autofree gchar *path = g_test_build_filename(G_TEST_DIST, "data", "wire", name, NULL);
	g_autoptr(GError) error = NULL;
	gchar *text = NULL;

	g_file_get_contents(path, &text, NULL, &error);
	g_assert_no_error(error);
	/* the CLI prints a newline after the document */
	if (g_str_has_suffix(text, "\n"))
		text[strlen(text) - 1] = '\0';
	return text;
}

void
wire_golden_round_trip(const gchar *name,
		       WireGoldenParse parse,
		       WireGoldenWrite write,
		       GDestroyNotify free_doc)
{
	g_autofree gchar *text = wire_golden_read(name);
	g_autoptr(GError) error = NULL;
	gpointer doc = parse(text, &error);
	g_autofree gchar *again = NULL;

	g_assert_no_error(error);
	g_assert_nonnull(doc);
	again = write(doc);
	g_assert_cmpstr(again, ==, text);
	free_doc(doc);
}

void
wire_golden_refused(const gchar *const (*bad)[2],
		    guint n,
		    WireGoldenParse parse,
		    GDestroyNotify free_doc)
{
	for (guint i = 0; i < n; i++) {
		g_autoptr(GError) error = NULL;
		gpointer doc = parse(bad[i][0], &error);
		if (doc != NULL) {
			free_doc(doc);
			g_error("%s was read", bad[i][0]);
		}
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		if (strstr(error->message, bad[i][1]) == NULL)
			g_error("%s: %s does not name %s", bad[i][0], error->message, bad[i][1]);
	}
}
