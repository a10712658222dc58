/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <gio/gio.h>

#include "sdt-error.h"

/* an error raised in the helper must reach a GDBus client with the same code */
static void
test_error_dbus_round_trip(void)
{
	for (gint code = 0; code < SDT_ERROR_LAST; code++) {
		g_autoptr(GError) local = g_error_new(SDT_ERROR, code, "code %d", code);
		g_autofree gchar *name = g_dbus_error_encode_gerror(local);
		g_autoptr(GError) remote = g_dbus_error_new_for_dbus_error(name, "x");

		g_assert_cmpstr(name, ==, sdt_error_to_dbus_name(code));
		g_assert_true(g_str_has_prefix(name, "org.example.SdTuner1.Error."));
		g_assert_error(remote, SDT_ERROR, code);
	}
	g_assert_cmpstr(sdt_error_to_dbus_name(SDT_ERROR_BUSY),
			==,
			"org.example.SdTuner1.Error.Busy");
	g_assert_cmpstr(sdt_error_to_dbus_name(SDT_ERROR_LAST),
			==,
			"org.example.SdTuner1.Error.Failed");
}

static void
test_error_from_errno(void)
{
	g_autoptr(GError) error = NULL;

	g_assert_cmpint(sdt_error_from_errno(ENOSPC), ==, SDT_ERROR_NO_SPACE);
	g_assert_cmpint(sdt_error_from_errno(EROFS), ==, SDT_ERROR_READ_ONLY);
	g_assert_cmpint(sdt_error_from_errno(EIO), ==, SDT_ERROR_IO);
	g_assert_cmpint(sdt_error_from_errno(E2BIG), ==, SDT_ERROR_FAILED);
	g_assert_false(sdt_error_set_from_errno(&error, ENOSPC, "writing %s", "/x"));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NO_SPACE);
	g_assert_cmpstr(error->message, ==, "writing /x: No space left on device");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/error/dbus-round-trip", test_error_dbus_round_trip);
	g_test_add_func("/sdtuner/error/from-errno", test_error_from_errno);
	return g_test_run();
}
