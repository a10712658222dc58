/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-utf8.h"

gchar *
sdt_utf8_make_valid(const gchar *str, gssize len)
{
	if (str == NULL)
		return NULL;
	return g_utf8_make_valid(str, len);
}

void
sdt_utf8_sanitize_error(GError *error)
{
	gchar *valid;

	if (error == NULL || error->message == NULL || g_utf8_validate(error->message, -1, NULL))
		return;
	valid = sdt_utf8_make_valid(error->message, -1);
	g_free(error->message);
	error->message = valid;
}
