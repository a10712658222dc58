/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "sdt-bench.h"
#include "sdt-context.h"
#include "sdt-check.h"
#include "sdt-devices.h"
#include "sdt-health-report.h"
#include "sdt-soak-report.h"

G_BEGIN_DECLS

/*
 * The operations of SD Tuner, one function each.  `sdtunerctl --root` calls
 * them in-process; sd-tuner-helper calls them behind polkit and sends the
 * result over D-Bus as the same JSON text, so both modes print the same thing
 * and the GTK app parses the same document.  Schemas: docs/DESIGN.md and the
 * documentation in src/dbus/org.example.SdTuner1.xml.
 *
 * Every function returns its document, typed (sdt-bench-record.h, ...) or as
 * its codec's text, or %NULL with @error set in the SDT_ERROR domain.  None of them checks
 * authorization: that is the helper's job.
 */

/* `info --json`: board, card, bus, config, warnings (sdt-info-report.h) */
gchar *sdt_ops_info(SdtContext *ctx, GError **error);

/* `recommend --json`: the text of an SdtRecommendReport (sdt-recommend-report.h) */
gchar *sdt_ops_config_recommend(SdtContext *ctx, GError **error);

/* `apply ID`: the text of an SdtConfigAnswerApply (sdt-config-answer.h) */
gchar *sdt_ops_config_apply(SdtContext *ctx, const gchar *id, gboolean trial, GError **error);

/* `revert`: the text of an SdtConfigAnswerRevert (sdt-config-answer.h);
 * SDT_ERROR_NOT_FOUND if nothing to revert */
gchar *sdt_ops_config_revert(SdtContext *ctx, GError **error);

/* `status`: the managed block, a pending trial, verification after reboot; its JSON
 * text (sdt-status-report.h) */
gchar *sdt_ops_status(SdtContext *ctx, GError **error);

/* `history`: config changes and benchmark results, oldest first; its JSON text
 * (sdt-history-report.h) */
gchar *sdt_ops_history(SdtContext *ctx, GError **error);

/*
 * `bench --json`: runs synchronously (call it from a worker thread); @dir is
 * %NULL except in --root mode tests.  Cancelling @cancellable stops it within
 * 200 ms with SDT_ERROR_CANCELLED and no file left behind.  The result is
 * appended to the history under the context's state dir.  Returns the compact
 * text of the bench record (sdt_ops_bench_run()), or of the soak report for the
 * profile "soak" (sdt_ops_bench_soak()).
 */
gchar *sdt_ops_bench(SdtContext *ctx,
		     const gchar *profile,
		     const gchar *dir,
		     SdtBenchProgressFunc progress,
		     gpointer user_data,
		     GCancellable *cancellable,
		     GError **error);

/*
 * What the helper runs as a job in a worker thread, sdt_ops_bench() or
 * sdt_ops_check(): @arg is the profile or the mode, the rest as theirs; the
 * result is its document's compact text, as the job hands it on.
 */
typedef gchar *(*SdtOpsJobFunc)(SdtContext *ctx,
				const gchar *arg,
				const gchar *dir,
				SdtBenchProgressFunc progress,
				gpointer user_data,
				GCancellable *cancellable,
				GError **error);

/* what `verify` is doing, for its progress */
typedef enum {
	SDT_OPS_VERIFY_STAGE_LOG,       /* checking the kernel log and the bus since boot */
	SDT_OPS_VERIFY_STAGE_BENCHMARK, /* the benchmark, @fraction of it done */
	SDT_OPS_VERIFY_STAGE_SOAK,      /* the soak test, @fraction of it done */
} SdtOpsVerifyStage;

/* called from the thread that runs sdt_ops_verify(), at most about 10 times a second */
typedef void (*SdtOpsVerifyProgressFunc)(SdtOpsVerifyStage stage,
					 gdouble fraction,
					 gpointer user_data);

/* one translated line that says what @stage is doing, e.g. "Soak test: 40 % done" */
gchar *sdt_ops_verify_stage_describe(SdtOpsVerifyStage stage, gdouble fraction);

/* how `verify` runs (sdt_ops_verify()) */
typedef struct {
	/* tests and copied images only: a JSON file with "soak", "before" and "after"
	 * results to use instead of running them; NULL runs them on the card */
	const gchar *evidence_path;
	/* the soak test's time (the default, SDT_SOAK_DEFAULT_SECONDS, when < 0) */
	gdouble soak_seconds;
	/* the benchmark and the soak test together stop after this long (the
	 * default, SDT_OPS_VERIFY_MAX_SECONDS, when <= 0): verification could not run */
	gdouble max_seconds;
	/* what it is doing, or NULL */
	SdtOpsVerifyProgressFunc progress;
	gpointer progress_data;
} SdtOpsVerifyOptions;

/* 20 minutes: a standard benchmark and a 2-minute soak on a card at 4 MB/s, twice over */
#define SDT_OPS_VERIFY_MAX_SECONDS (20 * 60)

/*
 * `verify`: after a reboot, decides on the pending change (<state>/pending.json)
 * and acts: keep (a trial goes into config.txt for good), step down (the next
 * divisor step is prepared, never rebooted) or undo (the revert).  Returns
 * {"pending": false, ...} when there is nothing pending, else the decision
 * with its reason and evidence, also appended to the history as "verify".
 * Unless @options gives an evidence file, the evidence is gathered when the
 * decision rests on it (sdt_verify_evidence_needed()): the "before" figures
 * are the last benchmark of the card itself from before the change (recorded
 * with the pending change), the "after" figures a standard benchmark run now
 * on the card's file system, then the soak test there; both go into the
 * history as usual.  Runs synchronously (a worker thread); cancelling
 * @cancellable (SIGTERM) stops it with SDT_ERROR_CANCELLED, no test file
 * left, nothing decided: the try stays counted as interrupted.  Its JSON text
 * (sdt-verify-report.h).
 */
gchar *sdt_ops_verify(SdtContext *ctx,
		      const SdtOpsVerifyOptions *options,
		      GCancellable *cancellable,
		      GError **error);

/*
 * `metrics`: the card's state in the Prometheus text exposition format
 * (sdt-ops-metrics.c, docs/DESIGN.md): what info, health and the history say,
 * read only; nothing is sent to the card and nothing is measured.
 */
gchar *sdt_ops_metrics(SdtContext *ctx, GError **error);

/*
 * `check --json`: sdt_check_run() on the SD card's file system, or on @dir
 * (a stand-in, labelled so in the result); @mode is "quick" or "full".  The
 * card's result (not a stand-in's) is appended to the history as "check".  The signature is
 * the benchmark's, so the helper runs it as a job the same way: the result's compact text
 * (sdt_check_result_to_string(), with its "registers").
 */
gchar *sdt_ops_check(SdtContext *ctx,
		     const gchar *mode,
		     const gchar *dir,
		     SdtBenchProgressFunc progress,
		     gpointer user_data,
		     GCancellable *cancellable,
		     GError **error);

/*
 * The check of a whole unmounted card in place (issue 34): @device a kernel name, a node
 * or a link to one. Refused, changing nothing, unless `sdtunerctl devices` offers it (the
 * system disk under any name or a partition of it, a mounted, held, read-only or empty
 * device are not); with @allow_fixed (in-process; the helper on a simulated board) also a
 * loop device that nothing but being fixed keeps from it, a stand-in for a card
 * (sdt_device_offer_decide_stand_in()): the tests' cards. The result is kept in the
 * history under the card's identity (sdt_ops_check_recognise()).
 * The full mode writes over every block, saving nothing: only with @confirm naming the
 * same block device (a link to it counts; a partition of it or another device does
 * not), else refused before anything is opened for writing, with what would be lost
 * (its partition table and file systems).  @confirm with the quick mode is refused.
 */
SdtCheckResult *sdt_ops_check_device(SdtContext *ctx,
				     const gchar *mode,
				     const gchar *device,
				     const gchar *confirm,
				     gboolean allow_fixed,
				     SdtBenchProgressFunc progress,
				     gpointer user_data,
				     GCancellable *cancellable,
				     GError **error);

/* sdt_ops_check() on @dir, a folder that must belong to the user @dir_owner
 * (the helper's caller, issue 32); -1 as sdt_ops_check(): root's or ours */
SdtCheckResult *sdt_ops_check_owned(SdtContext *ctx,
				    const gchar *mode,
				    const gchar *dir,
				    gint64 dir_owner,
				    SdtBenchProgressFunc progress,
				    gpointer user_data,
				    GCancellable *cancellable,
				    GError **error);

/*
 * `bench --profile soak --json`: the soak report (sdt-soak-report.h; on the wire
 * {"target", "profile": "soak", "tests": [], "soak": {bytes_written, bytes_checked,
 * mismatches, first_bad_offset (null when clean), file_size, rounds, seed, seconds,
 * write_mb_s, read_mb_s}}).
 * The file is created like the benchmark's (sdt_bench_target_open(): no
 * name, refused without @size + 10% free).  Appended to the history as "soak".
 */
SdtSoakReport *sdt_ops_bench_soak(SdtContext *ctx,
				  const gchar *dir,
				  guint64 size,
				  gdouble seconds,
				  SdtBenchProgressFunc progress,
				  gpointer user_data,
				  GCancellable *cancellable,
				  GError **error);

/*
 * `health --json`: how much has been written to the card and what the kernel
 * says about it, from files only (no vendor command such as CMD56 is ever
 * sent: those have made cards vanish).  Reads, all under the root prefix:
 *   <root>/sys/fs/ext4/<partition>/lifetime_write_kbytes
 *   <root>/sys/block/<disk>/stat            (sectors written since boot)
 *   <root>/proc/uptime, <root>/proc/self/mountinfo, <root>/dev/kmsg
 * plus the card's CSD (write-protect bits) and the history (trend).  The text of an
 * SdtHealthReport (sdt-health-report.h).
 */
gchar *sdt_ops_health(SdtContext *ctx, GError **error);

/*
 * `devices --json` (issue 34): the block devices that might be cards, each with what udev
 * and libblkid say about it and whether a check may be offered on it, or why not
 * (sdt-devices, sdt-device-offer).  Reads <root>/proc/self/mountinfo; fails when it
 * cannot (the system disk would be unknown).  Its JSON text (sdt-device-list.h).
 * sdt-ops-devices.c.
 */
gchar *sdt_ops_devices(SdtContext *ctx, GError **error);

void sdt_ops_bench_card_dir_clear(SdtBenchCardDir *card);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SdtBenchCardDir, sdt_ops_bench_card_dir_clear)

/*
 * `bench --device` (issue 34): the benchmark of a whole unmounted card @device (a kernel
 * name, a node or a link to one) that `sdtunerctl devices` offers (with @allow_fixed,
 * in-process under --root: also a fixed disk, the tests' loop devices), on the region
 * [SDT_BENCH_DEVICE_OFFSET, + the profile's file size) of it.  The read tests always
 * (a read-only card too); the write tests only on a card with no partition table and no
 * file system signature, or when @confirm (--destroy-data-on) names the same device;
 * a @confirm naming another is refused before anything is opened.  Returns the bench
 * record (target.whole_device and its members, docs/DESIGN.md); not added to history.
 * sdt-ops-bench-device.c.
 */
SdtBenchRecord *sdt_ops_bench_device(SdtContext *ctx,
				     const gchar *profile,
				     const gchar *device,
				     const gchar *confirm,
				     gboolean allow_fixed,
				     SdtBenchProgressFunc progress,
				     gpointer user_data,
				     GCancellable *cancellable,
				     GError **error);

/* sdt_ops_bench() with an explicit configuration (tests use tiny sizes) */
SdtBenchRecord *sdt_ops_bench_run(SdtContext *ctx,
				  const SdtBenchConfig *config,
				  const gchar *dir,
				  SdtBenchProgressFunc progress,
				  gpointer user_data,
				  GCancellable *cancellable,
				  GError **error);

G_END_DECLS
