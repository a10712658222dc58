/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* option keys of the a{sv} dictionaries (src/dbus/org.example.SdTuner1.xml) */
#define SDT_OPTION_NO_USER_INTERACTION "auth.no_user_interaction"
#define SDT_OPTION_TRIAL               "trial"
/* issue 32: StartSoak, StartVerify and StartCheck's folder */
#define SDT_OPTION_SIZE         "size"
#define SDT_OPTION_SECONDS      "seconds"
#define SDT_OPTION_SOAK_SECONDS "soak_seconds"
#define SDT_OPTION_DIR          "dir"
/* issue 34: StartCheck of a whole unmounted card */
#define SDT_OPTION_DEVICE "device"
/* StartCheck's full mode and StartBenchmark with "device": the confirmation that names the
 * same card again (ay), as `--destroy-data-on` does (issue 34) */
#define SDT_OPTION_DESTROY_DATA_ON "destroy_data_on"

/*
 * Checks of what a D-Bus caller sends, done before anything else.  They are
 * pure functions of the arguments; each failure is SDT_ERROR_INVALID_ARGUMENT
 * with a message that names the argument.
 */

/* @options must be a{sv}; a known key with a value of the wrong type fails,
 * unknown keys are ignored */
gboolean sdt_options_lookup_boolean(GVariant *options,
				    const gchar *key,
				    gboolean default_value,
				    gboolean *value,
				    GError **error);

/* the same for a double (d) and an unsigned 64-bit number (t) */
gboolean sdt_options_lookup_double(GVariant *options,
				   const gchar *key,
				   gdouble default_value,
				   gdouble *value,
				   GError **error);
gboolean sdt_options_lookup_uint64(GVariant *options,
				   const gchar *key,
				   guint64 default_value,
				   guint64 *value,
				   GError **error);

/* a path as a NUL-terminated byte string (ay): absolute, no NUL inside, no "..",
 * at most PATH_MAX bytes; *@path is %NULL when the key is absent */
gboolean sdt_options_lookup_path(GVariant *options, const gchar *key, gchar **path, GError **error);

/* StartBenchmark's and StartCheck's "device" and "destroy_data_on"
 * (sdt_options_lookup_path()); the second without the first is SDT_ERROR_INVALID_ARGUMENT */
gboolean
sdt_options_lookup_device(GVariant *options, gchar **device, gchar **confirm, GError **error);

/* a recommendation id: 1-64 characters of [a-z0-9._-], starting with a letter
 * or digit, so no path, no "..", nothing to escape */

gboolean sdt_options_check_id(const gchar *id, GError **error);

/* "quick", "standard" or "full" */
gboolean sdt_options_check_profile(const gchar *profile, GError **error);

G_END_DECLS
