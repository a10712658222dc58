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
/*
 * Puts tryboot.txt for a trial of @bytes in place.  An existing tryboot.txt
 * that is not SD Tuner's own earlier trial is backed up first, whatever its
 * size; one that cannot be read (too large, not a regular file) is refused.
 */
gboolean sdt_config_trial_write(SdtConfigWriter *self,
				const gchar *id,
				GBytes *bytes,
				const gchar *config_hash,
				gchar **previous_backup,
				GError **error);
/*
 * Cancels a pending trial: SD Tuner's tryboot.txt goes, or the user's earlier
 * one comes back from its backup.  A tryboot.txt edited since SD Tuner wrote
 * it is backed up first.  *@cancelled says whether there was a trial.
 */
gboolean sdt_config_trial_cancel(SdtConfigWriter *self,
				 JsonObject *result,
				 GPtrArray *warnings,
				 gboolean *cancelled,
				 GError **error);

G_END_DECLS
