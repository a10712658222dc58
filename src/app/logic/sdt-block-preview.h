/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The exact text SD Tuner's block will have in config.txt for a recommendation
 * (its id, filter line and settings, as GetRecommendations gives them): the
 * pure edit (sdt_config_edit_apply(), the one Apply's writer puts on disk)
 * renders it into an empty file, so the preview is what Apply writes, markers
 * included.  Lines of the file that the
 * block replaces are commented out on top of this; Apply's diff shows those.
 */
gchar *
sdt_block_preview(const gchar *id, const gchar *filter, const gchar *const *lines, GError **error);

G_END_DECLS
