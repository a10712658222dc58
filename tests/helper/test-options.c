/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-options.h"
#include "sdt-soak.h"

static GVariant *
test_options_parse(const gchar *text)
{
	g_autoptr(GError) error = NULL;
	GVariant *v = g_variant_parse(NULL, text, NULL, NULL, &error);
	g_assert_no_error(error);
	return g_variant_ref_sink(v);
}

static void
test_options_boolean_present_absent_default(void)
{
	g_autoptr(GVariant) opts = test_options_parse("{'auth.no_user_interaction': <true>, "
						      "'unknown.key': <'ignored'>}");
	g_autoptr(GVariant) empty = test_options_parse("@a{sv} {}");
	g_autoptr(GError) error = NULL;
	gboolean value = FALSE;

	g_assert_true(sdt_options_lookup_boolean(opts,
						 SDT_OPTION_NO_USER_INTERACTION,
						 FALSE,
						 &value,
						 &error));
	g_assert_no_error(error);
	g_assert_true(value);
	g_assert_true(sdt_options_lookup_boolean(opts, SDT_OPTION_TRIAL, TRUE, &value, &error));
	g_assert_no_error(error);
	g_assert_true(value);
	g_assert_true(sdt_options_lookup_boolean(empty, SDT_OPTION_TRIAL, FALSE, &value, &error));
	g_assert_no_error(error);
	g_assert_false(value);
}

static void
test_options_boolean_wrong_type_is_invalid_argument(void)
{
	const gchar *cases[] = {
		"{'auth.no_user_interaction': <1>}",
		"{'auth.no_user_interaction': <'true'>}",
		"{'auth.no_user_interaction': <<true>>}",
		"{'auth.no_user_interaction': <[true]>}",
	};
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GVariant) opts = test_options_parse(cases[i]);
		g_autoptr(GError) error = NULL;
		gboolean value = TRUE;

		g_assert_false(sdt_options_lookup_boolean(opts,
							  SDT_OPTION_NO_USER_INTERACTION,
							  FALSE,
							  &value,
							  &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
		g_assert_nonnull(strstr(error->message, "auth.no_user_interaction"));
		/* the default is what a caller sees on failure, never the bad value */
		g_assert_false(value);
	}
}

static void
test_options_not_a_dict_is_invalid_argument(void)
{
	g_autoptr(GVariant) opts = test_options_parse("('auth.no_user_interaction', true)");
	g_autoptr(GError) error = NULL;
	gboolean value = TRUE;

	g_assert_false(sdt_options_lookup_boolean(opts, SDT_OPTION_TRIAL, FALSE, &value, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_assert_cmpstr(error->message, ==, "Options must be a dictionary of type a{sv}, not (sb)");
}

static void
test_options_ids(void)
{
	const gchar *good[] = {"sd-overclock-100", "sd-cqe-2", "a", "x_y.z9"};
	const gchar *bad[] = {"",
			      "../config.txt",
			      "..",
			      ".hidden",
			      "a/b",
			      "/etc/passwd",
			      "a..b",
			      "Upper",
			      "sd overclock",
			      "id\n",
			      "-leading-dash",
			      "é",
			      "0123456789012345678901234567890123456789012345678901234567890123X"};

	for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
		g_autoptr(GError) error = NULL;
		g_assert_true(sdt_options_check_id(good[i], &error));
		g_assert_no_error(error);
	}
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_assert_false(sdt_options_check_id(bad[i], &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	}
}

static void
test_options_huge_id(void)
{
	g_autofree gchar *huge = g_strnfill(1024 * 1024, 'a');
	g_autoptr(GError) error = NULL;

	g_assert_false(sdt_options_check_id(huge, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	/* the message never echoes what the caller sent */
	g_assert_cmpuint(strlen(error->message), <, 200);
}

static void
test_options_profiles(void)
{
	const gchar *good[] = {"quick", "standard", "full"};
	const gchar *bad[] = {"", "Quick", "quick ", "../quick", "fast"};

	for (guint i = 0; i < G_N_ELEMENTS(good); i++) {
		g_autoptr(GError) error = NULL;
		g_assert_true(sdt_options_check_profile(good[i], &error));
		g_assert_no_error(error);
	}
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_assert_false(sdt_options_check_profile(bad[i], &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	}
}

/* issue 32: StartSoak's size and seconds, StartVerify's soak_seconds */
static void
test_options_numbers(void)
{
	g_autoptr(GVariant) opts =
		test_options_parse("{'size': <uint64 16777216>, 'seconds': <2.5>, 'bad': <5>}");
	g_autoptr(GError) error = NULL;
	guint64 size = 0;
	gdouble seconds = 0;

	g_assert_true(sdt_options_lookup_uint64(opts, SDT_OPTION_SIZE, 1, &size, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(size, ==, 16777216);
	g_assert_true(sdt_options_lookup_double(opts, SDT_OPTION_SECONDS, 1, &seconds, &error));
	g_assert_cmpfloat(seconds, ==, 2.5);
	g_assert_true(
		sdt_options_lookup_double(opts, SDT_OPTION_SOAK_SECONDS, -1, &seconds, &error));
	g_assert_cmpfloat(seconds, ==, -1);
	g_assert_true(sdt_soak_check_args(size, 2.5, &error));
	g_assert_no_error(error);
	g_assert_false(sdt_options_lookup_uint64(opts, "bad", 1, &size, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_assert_nonnull(strstr(error->message, "must be of type t, not i"));
	g_clear_error(&error);
	g_assert_false(sdt_options_lookup_double(opts, "bad", 1, &seconds, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);
	/* 7 MiB, 8 MiB + 1, 4097 MiB; a negative, NaN and more than a day */
	g_assert_false(sdt_soak_check_args(7 << 20, 1, &error));
	g_clear_error(&error);
	g_assert_false(sdt_soak_check_args((8 << 20) + 1, 1, &error));
	g_clear_error(&error);
	g_assert_false(sdt_soak_check_args(G_GUINT64_CONSTANT(4097) << 20, 1, &error));
	g_clear_error(&error);
	g_assert_false(sdt_soak_check_args(8 << 20, -1, &error));
	g_clear_error(&error);
	g_assert_false(sdt_soak_check_args(8 << 20, NAN, &error));
	g_clear_error(&error);
	g_assert_false(sdt_soak_check_args(8 << 20, 86401, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
}

/* issue 32: StartCheck's dir, a path as bytes */
static void
test_options_path(void)
{
	const gchar *bad[] = {
		"{'dir': <'/var/tmp'>}",
		"{'dir': <b'var/tmp'>}",
		"{'dir': <b'/'>}",
		"{'dir': <b''>}",
		"{'dir': <b'/var/../etc'>}",
		"{'dir': <b'/..'>}",
		"{'dir': <[byte 0x2f, 0x76, 0x00, 0x61, 0x00]>}",
		"{'dir': <[byte 0x2f, 0x76, 0x61]>}",
	};
	g_autoptr(GVariant) good = test_options_parse("{'dir': <b'/media/pi/STICK/..x/.'>}");
	g_autoptr(GVariant) none = test_options_parse("@a{sv} {}");
	g_autoptr(GError) error = NULL;
	g_autofree gchar *path = NULL;

	g_assert_true(sdt_options_lookup_path(good, SDT_OPTION_DIR, &path, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(path, ==, "/media/pi/STICK/..x/.");
	g_clear_pointer(&path, g_free);
	g_assert_true(sdt_options_lookup_path(none, SDT_OPTION_DIR, &path, &error));
	g_assert_null(path);
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GVariant) opts = test_options_parse(bad[i]);
		g_test_message("%s", bad[i]);
		g_assert_false(sdt_options_lookup_path(opts, SDT_OPTION_DIR, &path, &error));
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
		g_assert_null(path);
		g_clear_error(&error);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/options/boolean-present-absent-default",
			test_options_boolean_present_absent_default);
	g_test_add_func("/sdtuner/options/boolean-wrong-type-is-invalid-argument",
			test_options_boolean_wrong_type_is_invalid_argument);
	g_test_add_func("/sdtuner/options/not-a-dict-is-invalid-argument",
			test_options_not_a_dict_is_invalid_argument);
	g_test_add_func("/sdtuner/options/ids", test_options_ids);
	g_test_add_func("/sdtuner/options/huge-id", test_options_huge_id);
	g_test_add_func("/sdtuner/options/profiles", test_options_profiles);
	g_test_add_func("/sdtuner/options/numbers", test_options_numbers);
	g_test_add_func("/sdtuner/options/path", test_options_path);
	return g_test_run();
}
