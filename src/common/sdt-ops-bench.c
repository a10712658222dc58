/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT, O_TMPFILE, statx, fallocate */

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "sdt-bench.h"
#include "sdt-check.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-info.h"
#include "sdt-mounts.h"
#include "sdt-ops.h"

/* where a card's file systems are most likely to be, best first */
static const gchar *sdt_bench_card_mount_points[] = {"/", "/boot/firmware", "/boot"};

static SdtMount *
sdt_bench_card_pick_mount(SdtInfo *info)
{
	SdtCard *card = info->card;

	for (guint i = 0; i < G_N_ELEMENTS(sdt_bench_card_mount_points); i++) {
		const gchar *mp = sdt_bench_card_mount_points[i];
		if (g_ptr_array_find_with_equal_func(card->mount_points, mp, g_str_equal, NULL))
			return sdt_mounts_find_mount_point(info->mounts, mp);
	}
	if (card->mount_points->len > 0)
		return sdt_mounts_find_mount_point(info->mounts,
						   g_ptr_array_index(card->mount_points, 0));
	return NULL;
}

/*
 * The directory for the test file on the file system of the SD card: the
 * card's root partition (<mount>/var/lib/sd-tuner, else the mount itself),
 * else its boot partition.  Under a root prefix the mount point is resolved
 * under the root, so a simulated board benchmarks a file on this machine; on
 * the real system the directory must be on the card's partition itself.
 */
gchar *
sdt_bench_card_find_dir(SdtContext *ctx,
			guint64 file_size,
			gdouble *ceiling_mb_s,
			dev_t *card_devnum,
			gchar **card_source,
			GError **error)
{
	g_autoptr(SdtInfo) info = sdt_info_collect(ctx, error);
	g_autofree gchar *mnt = NULL;
	g_autofree gchar *state = NULL;
	const gchar *candidates[2];
	SdtMount *mount;

	if (info == NULL)
		return NULL;
	if (!info->card->present) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_NOT_FOUND,
				    _("No SD card found: there is no card in the slot, or the SD "
				      "controller is disabled"));
		return NULL;
	}
	if (info->card->size_bytes > 0 &&
	    (guint64) info->card->size_bytes < file_size + file_size / 10) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NO_SPACE,
			    _("The SD card %s holds %" PRId64 " MB, too small for the %" PRIu64
			      " MiB test file of this profile; choose a smaller profile"),
			    info->card->device,
			    info->card->size_bytes / 1000000,
			    file_size / (1024 * 1024));
		return NULL;
	}
	mount = sdt_bench_card_pick_mount(info);
	if (mount == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("The SD card %s is not mounted: mount its root or boot partition "
			      "to benchmark it"),
			    info->card->devnode != NULL ? info->card->devnode : info->card->device);
		return NULL;
	}
	if (mount->read_only) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_READ_ONLY,
			    _("%s on the SD card is mounted read-only at %s; remount it "
			      "read-write to run the benchmark"),
			    mount->source,
			    mount->mount_point);
		return NULL;
	}

	mnt = sdt_context_build_path(ctx, mount->mount_point);
	state = sdt_context_get_state_dir(ctx);
	candidates[0] = g_strcmp0(mount->mount_point, "/") == 0 ? state : NULL;
	candidates[1] = mnt;
	if (candidates[0] != NULL && g_mkdir_with_parents(candidates[0], 0755) != 0)
		candidates[0] = NULL;
	for (guint i = 0; i < G_N_ELEMENTS(candidates); i++) {
		struct stat st;
		if (candidates[i] == NULL || g_stat(candidates[i], &st) != 0)
			continue;
		if (!sdt_context_is_simulated(ctx) &&
		    st.st_dev != makedev(mount->major, mount->minor))
			continue;
		if (info->bus.ceiling_mb_s > 0)
			*ceiling_mb_s = info->bus.ceiling_mb_s;
		*card_devnum = makedev(mount->major, mount->minor);
		*card_source = g_strdup(mount->source);
		return g_strdup(candidates[i]);
	}
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_NOT_FOUND,
		    _("%s is mounted at %s, but that directory is not on it; the benchmark "
		      "only writes to the SD card"),
		    mount->source,
		    mnt);
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
	g_autofree gchar *card_source = NULL;
	dev_t card_devnum = 0;
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
		dir_card = sdt_bench_card_find_dir(ctx,
						   config->file_size,
						   &ceiling_mb_s,
						   &card_devnum,
						   &card_source,
						   error);
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
	/* a directory given for tests, or a simulated board's card directory on this
	 * machine: the figures are not the card's (marked in the result and history) */
	target->stand_in = dir_card == NULL || target->devnum != card_devnum;
	if (card_source != NULL && target->devnum != card_devnum) {
		/* only under a root prefix: otherwise the directory was checked to be on the card
		 */
		g_ptr_array_insert(
			result->notes,
			0,
			g_strdup_printf(_("Simulated board: the test file is on %s of this "
					  "machine, not on the SD card's %s"),
					target->device,
					card_source));
	}
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
