/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include <limits.h>
#include <string.h>

#include "sdt-error.h"
#include "sdt-options.h"

#define SDT_ID_MAX_LEN 64

/* the value of @key in @options if it has @type; *@v %NULL when absent */
static gboolean
sdt_options_lookup_typed(GVariant *options,
			 const gchar *key,
			 const GVariantType *type,
			 GVariant **v,
			 GError **error)
{
	*v = NULL;
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
	*v = g_variant_lookup_value(options, key, NULL);
	if (*v == NULL || g_variant_is_of_type(*v, type))
		return TRUE;
	if (g_variant_type_equal(type, G_VARIANT_TYPE_BOOLEAN))
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: first %s is an option name, second a D-Bus type */
			    _("Option “%s” must be a boolean (b), not %s"),
			    key,
			    g_variant_get_type_string(*v));
	else
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: an option name, the D-Bus type it must have (e.g.
			     * "d"), the type it had */
			    _("Option “%s” must be of type %s, not %s"),
			    key,
			    g_variant_type_peek_string(type),
			    g_variant_get_type_string(*v));
	g_clear_pointer(v, g_variant_unref);
	return FALSE;
}

gboolean
sdt_options_lookup_boolean(GVariant *options,
			   const gchar *key,
			   gboolean default_value,
			   gboolean *value,
			   GError **error)
{
	g_autoptr(GVariant) v = NULL;

	*value = default_value;
	if (!sdt_options_lookup_typed(options, key, G_VARIANT_TYPE_BOOLEAN, &v, error))
		return FALSE;
	if (v != NULL)
		*value = g_variant_get_boolean(v);
	return TRUE;
}

gboolean
sdt_options_lookup_double(GVariant *options,
			  const gchar *key,
			  gdouble default_value,
			  gdouble *value,
			  GError **error)
{
	g_autoptr(GVariant) v = NULL;

	*value = default_value;
	if (!sdt_options_lookup_typed(options, key, G_VARIANT_TYPE_DOUBLE, &v, error))
		return FALSE;
	if (v != NULL)
		*value = g_variant_get_double(v);
	return TRUE;
}

gboolean
sdt_options_lookup_uint64(GVariant *options,
			  const gchar *key,
			  guint64 default_value,
			  guint64 *value,
			  GError **error)
{
	g_autoptr(GVariant) v = NULL;

	*value = default_value;
	if (!sdt_options_lookup_typed(options, key, G_VARIANT_TYPE_UINT64, &v, error))
		return FALSE;
	if (v != NULL)
		*value = g_variant_get_uint64(v);
	return TRUE;
}

gboolean
sdt_options_lookup_path(GVariant *options, const gchar *key, gchar **path, GError **error)
{
	g_autoptr(GVariant) v = NULL;
	g_auto(GStrv) parts = NULL;
	gconstpointer data;
	gsize len;

	*path = NULL;
	if (!sdt_options_lookup_typed(options, key, G_VARIANT_TYPE_BYTESTRING, &v, error))
		return FALSE;
	if (v == NULL)
		return TRUE;
	data = g_variant_get_fixed_array(v, &len, 1);
	/* NUL-terminated, no NUL before, absolute, within PATH_MAX */
	if (len < 3 || len > PATH_MAX || ((const gchar *) data)[len - 1] != '\0' ||
	    memchr(data, '\0', len - 1) != NULL || ((const gchar *) data)[0] != '/') {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: %s is an option name */
			    _("Option “%s” must be an absolute path to a folder other than /, "
			      "as a NUL-terminated byte string (ay)"),
			    key);
		return FALSE;
	}
	parts = g_strsplit(data, "/", -1);
	for (guint i = 0; parts[i] != NULL; i++) {
		if (g_strcmp0(parts[i], "..") == 0) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    /* Translators: %s is an option name */
				    _("Option “%s” must name the folder without “..”"),
				    key);
			return FALSE;
		}
	}
	*path = g_strdup(data);
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

gboolean
sdt_options_lookup_device(GVariant *options, gchar **device, gchar **confirm, GError **error)
{
	if (!sdt_options_lookup_path(options, SDT_OPTION_DEVICE, device, error) ||
	    !sdt_options_lookup_path(options, SDT_OPTION_DESTROY_DATA_ON, confirm, error))
		return FALSE;
	if (*confirm == NULL || *device != NULL)
		return TRUE;
	g_clear_pointer(confirm, g_free);
	g_set_error_literal(
		error,
		SDT_ERROR,
		SDT_ERROR_INVALID_ARGUMENT,
		_("Option “destroy_data_on” goes with a device (“device”), naming the same card"));
	return FALSE;
}
