/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Everything that leaves a process of SD Tuner (a D-Bus reply or signal, JSON
 * (sdt_json_sanitize_utf8()),
 * a line on the terminal) is valid UTF-8, whatever bytes a file held: each
 * byte that is not part of valid UTF-8 becomes U+FFFD (�), so the reader sees
 * that something was replaced.  config.txt itself is never changed this way:
 * the bytes written back are the user's bytes (sdt-config-txt.h).
 */

/* a valid UTF-8 copy of @str (@len bytes, or NUL-terminated if -1); NULL for NULL */
gchar *sdt_utf8_make_valid(const gchar *str, gssize len);

/* makes @error's message valid UTF-8 in place; %NULL is fine */
void sdt_utf8_sanitize_error(GError *error);

G_END_DECLS
