/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <sys/types.h>

#include "sdt-check-config.h"
#include "sdt-check-result.h"
#include "sdt-bench.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * The authenticity check: is the card as big as it claims?  docs/ARCHITECTURE.md
 * ("Authenticity check") states the design and why it never writes where a
 * fake card's address wrap-around could land on the user's data:
 *
 *   1. a read-only phase: raw O_DIRECT reads at the top of the card (I/O
 *      errors) and at anchor + C for every candidate real size C (a wrap at C
 *      shows the card's first blocks again at C);
 *   2. only then a reserved file of most of the free space (fallocate), its
 *      extents (FIEMAP), and self-identifying 4 KiB blocks written raw into
 *      those extents, only at addresses whose alias under every candidate
 *      size of at least half the claim also lies in the reserved file;
 *      fsync, O_DIRECT read-back;
 *   3. the file is closed (it has no name: O_TMPFILE, or unlinked at once).
 *
 * The files, each layer using only those below it: sdt-check-config (modes,
 * candidate sizes, supported file systems), sdt-check-block (a run's state,
 * the blocks, raw I/O), sdt-check-target (the disk, the reserved file and its
 * extents), sdt-check-read (phase 1), sdt-check-write (phase 2), sdt-check-full
 * (the full mode), sdt-check-json (the verdict and the result), and this one.
 */

/*
 * Checks the device under the mounted, writable file system that holds
 * @dir (a root-owned directory); or, with config->device set and @dir NULL,
 * that whole unmounted card in place (every block it writes saved, journaled
 * off the card and put back).  Refusals: not on a block device
 * (NotSupported), read-only (ReadOnly), too little free space (NoSpace), a
 * card that is mounted, held or the system disk (Busy, NotSupported).
 * Cancelling stops it within about 200 ms and removes the reserved file.
 * Returns the result of `sdtunerctl check --json` (docs/DESIGN.md, sdt-check-result.h).
 */
SdtCheckResult *sdt_check_run(const gchar *dir,
			      const SdtCheckConfig *config,
			      SdtBenchProgressFunc progress,
			      gpointer user_data,
			      GCancellable *cancellable,
			      GError **error);

/* what sdt_ops_bench_card_dir() found on the SD card */
typedef struct {
	gchar *dir;           /* the directory on the card; NULL when the caller named one */
	gchar *source;        /* the card's partition, e.g. /dev/mmcblk0p2 */
	dev_t devnum;         /* its device number */
	gdouble ceiling_mb_s; /* the bus's ceiling, 0 when unknown */
} SdtBenchCardDir;

/*
 * Puts back the blocks a check killed during its probe left changed, from its
 * journal in @journal_dirs (sdt_check_journal_dirs()).  The helper's start, the
 * verify unit and every check call it.  The number of blocks put back, or -1
 * with @error set (the journal stays for a later try).
 */
gint sdt_check_repair(const gchar *const *journal_dirs, GError **error);

/*
 * sdt_check_repair(), and where: the card is looked for by its content at the
 * journal's node and, when it is not there, at every whole block device of its size
 * (a card put back in another reader).  @device (may be NULL): the node the blocks
 * went back to (g_free), NULL when none did.  While a check runs (its lock, in
 * @journal_dirs' second folder) nothing is done: 0.  `devices` and the helper's start call it: a
 * card is repaired when it is seen.
 */
gint sdt_check_repair_seen(const gchar *const *journal_dirs, gchar **device, GError **error);

/*
 * A check journal that repair found damaged beyond use (no whole copy: what the
 * interrupted check had out is unknown) is kept as NAME.damaged and never
 * dropped: its path, or NULL.  status, health and the metrics say it.
 */
gchar *sdt_check_damaged_journal(const gchar *const *journal_dirs);

/* where the check keeps its journal: <state>/check and <root>/run/sd-tuner (g_strfreev) */
gchar **sdt_check_journal_dirs(SdtContext *ctx);

/* removes a reserved file a killed check left in @dir; TRUE if there was one */
gboolean sdt_check_remove_stale(const gchar *dir);

G_END_DECLS
