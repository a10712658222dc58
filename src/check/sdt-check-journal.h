/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The probe's journal: what the blocks it is about to write held before,
 * written durably (temporary file, fsync, rename, fsync of the folder) to every
 * journal folder before the first of those writes, and removed once they are
 * all put back.  A check killed (or a power cut) in between leaves it; the next
 * start puts the blocks back from it (sdt_check_journal_repair()).  Internal to
 * the check, below sdt-check-block; docs/ARCHITECTURE.md "Authenticity check".
 */

#define SDT_CHECK_JOURNAL_NAME "check-journal"

typedef struct {
	gchar *disk_node; /* the whole disk the blocks are on */
	guint64 rdev;     /* its device number */
	guint64 claim;    /* its size */
	guint64 seed;     /* the run's: its blocks carry it */
	guint n;
	guint64 *at;   /* device byte offsets, 4 KiB blocks */
	guint8 *saved; /* n blocks: what each held */
} SdtCheckJournal;

/* writes @journal into every folder of @dirs (NULL-terminated; created 0700) */
gboolean
sdt_check_journal_write(const gchar *const *dirs, const SdtCheckJournal *journal, GError **error);
/*
 * After the batch's writes: a journal copy on the card that one of them hit (a
 * wrap can alias the journal's own blocks) is written again, read with O_DIRECT
 * so that the page cache cannot hide the damage.  FALSE only when rewriting fails.
 */
gboolean sdt_check_journal_rewrite_damaged(const gchar *const *dirs,
					   const SdtCheckJournal *journal,
					   GError **error);

/* removes the journal from every folder of @dirs */
void sdt_check_journal_remove(const gchar *const *dirs);

/*
 * Puts back the blocks a killed check left written, from the first intact
 * journal in @dirs: a block is rewritten only where it holds one of that run's
 * blocks now (never over anything else), then synced, and the journals go.
 * Returns the number of blocks put back (0: none was out), -1 with @error set
 * when the journal's disk is not there or not the same (the journal stays for
 * a later start) or a write failed.
 */
gint sdt_check_journal_repair(const gchar *const *dirs, GError **error);

G_END_DECLS
