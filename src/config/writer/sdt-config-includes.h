/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-config-txt.h"

G_BEGIN_DECLS

/* reads and attaches the included files under @dir, within the include budget
 * (file I/O, so in the writer's folder, not in the app's library) */
gboolean sdt_config_includes_load(SdtConfigTxt *self, const gchar *dir, GError **error);

G_END_DECLS
