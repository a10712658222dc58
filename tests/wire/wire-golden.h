/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What the golden-file tests of the wire's codecs share (tests/wire/test-wire-*.c).
 */

#pragma once

#include <glib.h>

typedef gpointer (*WireGoldenParse)(const gchar *text, GError **error);
typedef gchar *(*WireGoldenWrite)(gconstpointer doc);

/* tests/data/wire/@name, without its final newline */
gchar *wire_golden_read(const gchar *name);

/* @name parses and writes back byte for byte */
void wire_golden_round_trip(const gchar *name,
			    WireGoldenParse parse,
			    WireGoldenWrite write,
			    GDestroyNotify free_doc);

/* each @bad[i][0] is refused with SDT_ERROR_INVALID_DATA naming @bad[i][1] */
void wire_golden_refused(const gchar *const (*bad)[2],
			 guint n,
			 WireGoldenParse parse,
			 GDestroyNotify free_doc);
