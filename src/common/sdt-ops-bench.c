/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT, O_TMPFILE, statx, fallocate */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-bench.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-ops.h"

/*
 * The directory for the test file on the file system of the SD card: the
 * card's root partition (<mount>/var/lib/sd-tuner, else the mount itself),
 * else its boot partition; sets @ceiling_mb_s to the bus ceiling.
 */
static gchar *
sdt_bench_card_find_dir(SdtContext *ctx, gdouble *ceiling_mb_s, GError **error)
{
	g_set_error_literal(error, SDT_ERROR, SDT_ERROR_NOT_FOUND, _("No SD card found"));
	return NULL;
}

JsonNode *
sdt_bench_ops_run(SdtContext *ctx,
		  const SdtBenchConfig *config,
		  const gchar *dir,
		  SdtBenchProgressFunc progress,
		  gpointer user_data,
		  GCancellable *cancellable,
		  GError **error)
{
	g_autoptr(SdtBenchTarget) target = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	g_autoptr(JsonNode) node = NULL;
	g_autoptr(JsonNode) entry = NULL;
	g_autofree gchar *dir_card = NULL;
	g_autoptr(GError) error_history = NULL;
	gdouble ceiling_mb_s = 0;

	g_return_val_if_fail(SDT_IS_CONTEXT(ctx), NULL);

	/* the test file goes where the card is; --dir exists for tests against a root */
	if (dir != NULL && !sdt_context_is_simulated(ctx)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("A benchmark directory is accepted only with --root"));
		return NULL;
	}
	if (dir == NULL) {
		dir_card = sdt_bench_card_find_dir(ctx, &ceiling_mb_s, error);
		if (dir_card == NULL)
			return NULL;
		dir = dir_card;
	}
	if (progress != NULL)
		progress("prepare", 0.0, 0.0, user_data);
	target = sdt_bench_target_open(dir, config->file_size, config->target_flags, error);
	if (target == NULL)
		return NULL;
	result = sdt_bench_run(target, config, progress, user_data, cancellable, error);
	if (result == NULL)
		return NULL;
	node = sdt_bench_result_to_json(result, target, ceiling_mb_s);

	/* a failure to save the history does not throw the measurement away */
	entry = sdt_bench_result_to_json(result, target, ceiling_mb_s);
	if (!sdt_history_append(ctx, "bench", json_node_get_object(entry), &error_history))
		g_warning("benchmark result not saved: %s", error_history->message);
	return g_steal_pointer(&node);
}

JsonNode *
sdt_ops_bench(SdtContext *ctx,
	      const gchar *profile,
	      const gchar *dir,
	      SdtBenchProgressFunc progress,
	      gpointer user_data,
	      GCancellable *cancellable,
	      GError **error)
{
	SdtBenchConfig config;

	if (!sdt_bench_config_for_profile(profile, &config, error))
		return NULL;
	return sdt_bench_ops_run(ctx, &config, dir, progress, user_data, cancellable, error);
}
