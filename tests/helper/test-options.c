/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-error.h"
#include "sdt-options.h"

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
	return g_test_run();
}
