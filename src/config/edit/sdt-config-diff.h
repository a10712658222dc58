/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* a unified diff with 3 lines of context; "" when the contents are equal */
gchar *sdt_config_diff_unified(const gchar *label, GBytes *old_bytes, GBytes *new_bytes);

G_END_DECLS
