/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-writer.h"

G_BEGIN_DECLS

/* the trial (PLATFORM.md §4), for apply and revert */

/* tryboot.txt as seen on the Pi */
gchar *sdt_config_trial_get_tryboot_display(SdtConfigWriter *self);
/* tryboot.txt's bytes; NULL with no error when it does not exist */
GBytes *sdt_config_trial_read_tryboot(SdtConfigWriter *self, gboolean *exists, GError **error);
G_END_DECLS
