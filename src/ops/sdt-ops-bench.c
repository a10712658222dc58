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
#include "sdt-state-lock.h"
#include "sdt-history.h"
#include "sdt-info.h"
#include "sdt-mounts.h"
#include "sdt-ops-private.h"
#include "sdt-ops.h"
#include "sdt-soak-report.h"
#include "sdt-soak.h"

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

/* a card to benchmark: present and large enough for @file_size + 10% */
static gboolean
sdt_bench_card_check_size(SdtInfo *info, guint64 file_size, GError **error)
{
	if (!info->card->present) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_NOT_FOUND,
				    _("No SD card found: there is no card in the slot, or the SD "
				      "controller is disabled"));
		return FALSE;
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
		return FALSE;
	}
	return TRUE;
}

/* the card's partition to write to: mounted */
static SdtMount *
sdt_bench_card_mounted(SdtInfo *info, GError **error)
{
	SdtMount *mount = sdt_bench_card_pick_mount(info);

	if (mount == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("The SD card %s is not mounted: mount its root or boot partition "
			      "to benchmark it"),
			    info->card->devnode != NULL ? info->card->devnode : info->card->device);
		return NULL;
	}
	return mount;
}

/*
 * Read-write where the test file goes: the mount that holds @dir on the real
 * system (under the helper's ProtectSystem=strict / is read-only for it, its
 * state directory is not), the card's mount under a root prefix.
 */
static gboolean
sdt_bench_card_dir_writable(SdtContext *ctx,
			    SdtInfo *info,
			    SdtMount *mount,
			    const gchar *dir,
			    GError **error)
{
	SdtMount *holder =
		sdt_context_is_simulated(ctx) ? NULL : sdt_mounts_find_for_path(info->mounts, dir);

	if (holder == NULL)
		holder = mount;
	if (!holder->read_only)
		return TRUE;
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_READ_ONLY,
		    _("%s on the SD card is mounted read-only at %s; remount it "
		      "read-write to run the benchmark"),
		    holder->source,
		    holder->mount_point);
	return FALSE;
}

/*
 * The directory for the test file on the file system of the SD card: the
 * card's root partition (<mount>/var/lib/sd-tuner, else the mount itself),
 * else its boot partition.  Under a root prefix the mount point is resolved
 * under the root, so a simulated board benchmarks a file on this machine; on
 * the real system the directory must be on the card's partition itself.
 */
static gchar *
sdt_bench_card_find_dir(SdtContext *ctx, guint64 file_size, SdtBenchCardDir *card, GError **error)
{
	g_autoptr(SdtInfo) info = sdt_info_collect(ctx, error);
	g_autofree gchar *mnt = NULL;
	g_autofree gchar *state = NULL;
	const gchar *candidates[2];
	SdtMount *mount;

	if (info == NULL || !sdt_bench_card_check_size(info, file_size, error))
		return NULL;
	mount = sdt_bench_card_mounted(info, error);
	if (mount == NULL)
		return NULL;
	mnt = sdt_context_build_path(ctx, mount->mount_point);
	state = sdt_context_get_state_dir(ctx);
	candidates[0] = g_strcmp0(mount->mount_point, "/") == 0 ? state : NULL;
	candidates[1] = mnt;
	if (candidates[0] != NULL && !sdt_state_lock_make_dir(candidates[0], NULL))
		candidates[0] = NULL;
	for (guint i = 0; i < G_N_ELEMENTS(candidates); i++) {
		struct stat st;
		if (candidates[i] == NULL || g_stat(candidates[i], &st) != 0)
			continue;
		if (!sdt_context_is_simulated(ctx) &&
		    st.st_dev != makedev(mount->major, mount->minor))
			continue;
		if (!sdt_bench_card_dir_writable(ctx, info, mount, candidates[i], error))
			return NULL;
		if (info->bus.ceiling_mb_s > 0)
			card->ceiling_mb_s = info->bus.ceiling_mb_s;
		card->devnum = makedev(mount->major, mount->minor);
		card->source = g_strdup(mount->source);
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

void
sdt_ops_bench_card_dir_clear(SdtBenchCardDir *card)
{
	g_clear_pointer(&card->dir, g_free);
	g_clear_pointer(&card->source, g_free);
}

const gchar *
sdt_ops_bench_card_dir(SdtContext *ctx,
		       const gchar *dir,
		       guint64 file_size,
		       SdtBenchCardDir *card,
		       SdtBenchProgressFunc progress,
		       gpointer user_data,
		       GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	if (dir == NULL) {
		card->dir = sdt_bench_card_find_dir(ctx, file_size, card, error);
		if (card->dir == NULL)
			return NULL;
		dir = card->dir;
	}
	if (progress != NULL)
		progress("prepare", 0.0, 0.0, user_data);
	return dir;
}

/*
 * A benchmark's history entry: the config.txt the run was under
 * (sdt_ops_facts_running_sha256(), null when unknown: only a benchmark measured under
 * the config in effect is the "before" of a change) and the card it measured
 * (sdt_ops_history_card(), so that the history's series keep each card's figures
 * apart; a stand-in's run records none).
 */
static SdtHistoryEntry *
sdt_bench_ops_entry(SdtContext *ctx, SdtBenchRecord *record, gboolean stand_in)
{
	g_autoptr(SdtHistoryReportCard) card = stand_in ? NULL : sdt_ops_history_card(ctx);

	record->config_sha256 = sdt_ops_facts_running_sha256(ctx);
	if (card != NULL) {
		record->card_id = g_strdup(card->id);
		record->card_name = g_strdup(card->name);
		record->card_serial = g_strdup(card->serial);
	}
	return sdt_history_entry_new_bench(record);
}

SdtBenchRecord *
sdt_ops_bench_run(SdtContext *ctx,
		  const SdtBenchConfig *config,
		  const gchar *dir,
		  SdtBenchProgressFunc progress,
		  gpointer user_data,
		  GCancellable *cancellable,
		  GError **error)
{
	g_autoptr(SdtBenchTarget) target = NULL;
	g_autoptr(SdtBenchResult) result = NULL;
	SdtBenchRecord *record;
	g_autoptr(SdtHistoryEntry) entry = NULL;
	g_autoptr(GError) error_history = NULL;
	g_auto(SdtBenchCardDir) card = {0};

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONTEXT(ctx), NULL);

	dir = sdt_ops_bench_card_dir(ctx,
				     dir,
				     config->file_size,
				     &card,
				     progress,
				     user_data,
				     error);
	if (dir == NULL)
		return NULL;
	target = sdt_bench_target_open(dir, config->file_size, config->target_flags, error);
	if (target == NULL)
		return NULL;
	result = sdt_bench_run(target, config, progress, user_data, cancellable, error);
	if (result == NULL)
		return NULL;
	/* a directory given for tests, or a simulated board's card directory on this
	 * machine: the figures are not the card's (marked in the result and history) */
	target->stand_in = card.dir == NULL || target->devnum != card.devnum;
	if (card.source != NULL && target->devnum != card.devnum) {
		/* only under a root prefix: otherwise the directory was checked to be on the card
		 */
		g_ptr_array_insert(
			result->notes,
			0,
			g_strdup_printf(_("Simulated board: the test file is on %s of this "
					  "machine, not on the SD card's %s"),
					target->device,
					card.source));
	}
	record = sdt_bench_result_to_record(result, target, card.ceiling_mb_s);

	/* a failure to save the history does not throw the measurement away */
	entry = sdt_bench_ops_entry(ctx, record, target->stand_in);
	if (!sdt_history_append(ctx, entry, NULL, &error_history))
		g_warning("benchmark result not saved: %s", error_history->message);
	return record;
}

gchar *
sdt_ops_bench(SdtContext *ctx,
	      const gchar *profile,
	      const gchar *dir,
	      SdtBenchProgressFunc progress,
	      gpointer user_data,
	      GCancellable *cancellable,
	      GError **error)
{
	g_autoptr(SdtBenchRecord) record = NULL;
	g_autoptr(SdtSoakReport) report = NULL;
	SdtBenchConfig config;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (g_strcmp0(profile, "soak") == 0) {
		report = sdt_ops_bench_soak(ctx,
					    dir,
					    SDT_SOAK_DEFAULT_SIZE,
					    SDT_SOAK_DEFAULT_SECONDS,
					    progress,
					    user_data,
					    cancellable,
					    error);
		return report != NULL ? sdt_soak_report_to_string(report, FALSE) : NULL;
	}
	if (!sdt_bench_config_for_profile(profile, &config, error))
		return NULL;
	record = sdt_ops_bench_run(ctx, &config, dir, progress, user_data, cancellable, error);
	return record != NULL ? sdt_bench_record_to_string(record, FALSE) : NULL;
}

/* the test file of @size bytes on the card's file system, or in @dir under a root */
static SdtBenchTarget *
sdt_ops_soak_open(SdtContext *ctx,
		  const gchar *dir,
		  guint64 size,
		  SdtBenchProgressFunc progress,
		  gpointer user_data,
		  GError **error)
{
	g_auto(SdtBenchCardDir) card = {0};
	SdtBenchTarget *target;

	dir = sdt_ops_bench_card_dir(ctx, dir, size, &card, progress, user_data, error);
	if (dir == NULL)
		return NULL;
	/* refuses without size + 10% free; no name, so nothing is left behind */
	target = sdt_bench_target_open(dir, size, SDT_BENCH_TARGET_FLAG_NONE, error);
	if (target != NULL)
		target->stand_in = card.dir == NULL || target->devnum != card.devnum;
	return target;
}

/* the `bench --profile soak` document: where, and what was written, checked and found */
static SdtSoakReport *
sdt_ops_soak_report(SdtBenchTarget *target, const SdtSoakConfig *config, const SdtSoakResult *res)
{
	SdtSoakReport *r = sdt_soak_report_new();

	r->target.path = g_strdup(target->dir);
	r->target.device = g_strdup(target->device);
	r->target.filesystem = g_strdup(target->filesystem);
	r->target.stand_in = target->stand_in;
	r->bytes_written = (gint64) res->bytes_written;
	r->bytes_checked = (gint64) res->bytes_checked;
	r->mismatches = (gint64) res->mismatches;
	r->first_bad_offset = res->first_bad_offset >= 0 ? res->first_bad_offset : -1;
	r->first_bad_round = res->first_bad_round;
	r->file_size = (gint64) config->size;
	r->rounds = res->rounds;
	r->seed = g_strdup_printf("%" G_GUINT64_FORMAT, config->seed);
	r->seconds = res->seconds;
	r->write_mb_s = res->write_seconds > 0
				? (gdouble) res->bytes_written / 1e6 / res->write_seconds
				: 0.0;
	r->read_mb_s = res->read_seconds > 0
			       ? (gdouble) res->bytes_checked / 1e6 / res->read_seconds
			       : 0.0;
	r->checked_mb_per_run_second =
		res->seconds > 0 ? (gdouble) res->bytes_checked / 1e6 / res->seconds : 0.0;
	return r;
}

/* the soak test (sdt-soak.c) on the card's file system, or in @dir under a root */
SdtSoakReport *
sdt_ops_bench_soak(SdtContext *ctx,
		   const gchar *dir,
		   guint64 size,
		   gdouble seconds,
		   SdtBenchProgressFunc progress,
		   gpointer user_data,
		   GCancellable *cancellable,
		   GError **error)
{
	g_autoptr(SdtBenchTarget) target = NULL;
	g_autoptr(GError) error_history = NULL;
	g_autoptr(SdtHistoryEntry) entry = NULL;
	SdtSoakReport *report;
	SdtSoakConfig config = {0};
	SdtSoakResult res;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONTEXT(ctx), NULL);

	if (!sdt_soak_check_args(size, seconds, error))
		return NULL;
	target = sdt_ops_soak_open(ctx, dir, size, progress, user_data, error);
	if (target == NULL)
		return NULL;
	config.size = size;
	config.seconds = seconds;
	config.seed = g_random_int() | ((guint64) g_random_int() << 32);
	if (!sdt_soak_run(target->fd, &config, &res, progress, user_data, cancellable, error))
		return NULL;
	report = sdt_ops_soak_report(target, &config, &res);
	entry = sdt_history_entry_new_soak(report);
	if (!sdt_history_append(ctx, entry, NULL, &error_history))
		g_warning("soak result not saved: %s", error_history->message);
	return report;
}
