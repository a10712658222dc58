/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-error.h"
#include "sdt-options.h"

#define SDT_ID_MAX_LEN 64

gboolean
sdt_options_lookup_boolean(GVariant *options,
			   const gchar *key,
			   gboolean default_value,
			   gboolean *value,
			   GError **error)
{
	g_autoptr(GVariant) v = NULL;

	*value = default_value;
	if (options == NULL)
		return TRUE;
	if (!g_variant_is_of_type(options, G_VARIANT_TYPE_VARDICT)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: %s is a D-Bus type signature */
			    _("Options must be a dictionary of type a{sv}, not %s"),
			    g_variant_get_type_string(options));
		return FALSE;
	}
	v = g_variant_lookup_value(options, key, NULL);
	if (v == NULL)
		return TRUE;
	if (!g_variant_is_of_type(v, G_VARIANT_TYPE_BOOLEAN)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: first %s is an option name, second a D-Bus type */
			    _("Option “%s” must be a boolean (b), not %s"),
			    key,
			    g_variant_get_type_string(v));
		return FALSE;
	}
	*value = g_variant_get_boolean(v);
	return TRUE;
}

gboolean
sdt_options_check_id(const gchar *id, GError **error)
{
	gsize len = strlen(id);

	if (len == 0 || len > SDT_ID_MAX_LEN) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: %u is a number of characters */
			    _("A recommendation id has 1 to %u characters; use an id that "
			      "GetRecommendations returned"),
			    (guint) SDT_ID_MAX_LEN);
		return FALSE;
	}
	for (gsize i = 0; i < len; i++) {
		gchar c = id[i];
		if (g_ascii_islower(c) || g_ascii_isdigit(c))
			continue;
		if (i > 0 && (c == '-' || c == '_' || (c == '.' && id[i - 1] != '.')))
			continue;
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("A recommendation id contains only lower-case letters, "
				      "digits, “-”, “_” and single dots; use an id that "
				      "GetRecommendations returned"));
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_options_check_profile(const gchar *profile, GError **error)
{
	const gchar *profiles[] = {"quick", "standard", "full", NULL};

	if (g_strv_contains(profiles, profile))
		return TRUE;
	g_set_error_literal(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("Unknown benchmark profile; use “quick”, “standard” or “full”"));
	return FALSE;
}
