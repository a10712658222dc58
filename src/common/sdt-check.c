/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-check-full.h"
#include "sdt-check-json.h"
#include "sdt-check-read.h"
#include "sdt-check-target.h"
#include "sdt-check-write.h"
#include "sdt-check.h"

/* the target, the read-only phase, then (unless it found a fake) the writes */
static gboolean
sdt_check_phases(SdtCheck *self, GError **error)
{
	if (!sdt_check_open_target(self, error))
		return FALSE;
	self->candidates = sdt_check_candidate_sizes(self->claim);
	if (!self->config->skip_read_phase && !sdt_check_read_phase(self, error))
		return FALSE;
	if (self->failure != NULL)
		return TRUE;
	if (self->config->mode == SDT_CHECK_MODE_FULL)
		return sdt_check_full(self, error);
	return sdt_check_write_phase(self, error);
}

JsonNode *
sdt_check_run(const gchar *dir,
	      const SdtCheckConfig *config,
	      SdtBenchProgressFunc progress,
	      gpointer user_data,
	      GCancellable *cancellable,
	      GError **error)
{
	SdtCheck self;
	JsonNode *node = NULL;

	g_return_val_if_fail(dir != NULL && config != NULL, NULL);
	sdt_check_init(&self, dir, config, progress, user_data, cancellable);
	if (sdt_check_phases(&self, error)) {
		/* the reserved file goes before the result is reported */
		if (self.file_fd >= 0) {
			close(self.file_fd);
			self.file_fd = -1;
		}
		sdt_check_report(&self, "cleanup", 1.0);
		node = sdt_check_to_json(&self);
	}
	sdt_check_clear(&self);
	return node;
}

gboolean
sdt_check_remove_stale(const gchar *dir)
{
	g_autofree gchar *path = g_build_filename(dir, SDT_CHECK_RESERVE_NAME, NULL);
	struct stat st;

	if (g_lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return FALSE;
	return g_unlink(path) == 0;
}
