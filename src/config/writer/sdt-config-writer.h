/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <sys/types.h>

#include "sdt-config-diff.h"
#include "sdt-config-edit.h"
#include "sdt-config-journal-doc.h"
#include "sdt-config-trial-state.h"
#include "sdt-config-txt.h"
#include "sdt-config-writer-io.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * SdtConfigWriter: the file system side of editing config.txt (the pure
 * edit is sdt-config-edit.h, the diff sdt-config-diff.h).  Atomic
 * replacement (temporary file in the same folder, fsync, rename, fsync of the
 * folder), a timestamped backup and a journal under the state dir, a lock
 * against a second SD Tuner writer and a content-hash check against any other
 * writer.  All file writes go through an SdtConfigWriterIo table so tests can
 * make any of them fail.  The app links none of it (tests/check-shape.py).
 */

#define SDT_TYPE_CONFIG_WRITER (sdt_config_writer_get_type())
G_DECLARE_FINAL_TYPE(SdtConfigWriter, sdt_config_writer, SDT, CONFIG_WRITER, GObject)

/*
 * Finds config.txt under the context's root: /boot/firmware/config.txt, else
 * /boot/config.txt unless that is the Bookworm "DO NOT EDIT" stub pointing to
 * /boot/firmware (then the missing /boot/firmware is the error).
 * @display_path: (out): the path as seen on the Pi, e.g. "/boot/firmware/config.txt"
 */
gchar *sdt_config_writer_locate(SdtContext *ctx, gchar **display_path, GError **error);

SdtConfigWriter *sdt_config_writer_new(SdtContext *ctx, GError **error);
/* a writer on explicit paths (the tests, the journal fuzz target) */
SdtConfigWriter *sdt_config_writer_new_for_paths(const gchar *config_path,
						 const gchar *display_path,
						 const gchar *state_dir);
const gchar *sdt_config_writer_get_display_path(SdtConfigWriter *self);
/*
 * With @fallback, a journal that is damaged (not valid, or not the lines SD
 * Tuner writes, or its backup changed) is set aside as if it were missing:
 * the markers and the template say which lines are SD Tuner's.  The verify
 * unit's undo runs this way (nobody is there to delete the journal); a
 * marker that disagrees with an intact journal stays an error.
 */
void sdt_config_writer_set_journal_fallback(SdtConfigWriter *self, gboolean fallback);

/*
 * What must be on disk before an apply puts its file in place (the pending
 * record of `verify`, issue 23 item 1): called with the lock held, after the
 * backups and before config.txt (tryboot.txt for a trial) is written.
 * @config_sha256: config.txt's hash after the apply; @target_sha256: the hash
 * of the file written (config.txt, or tryboot.txt for a trial).  FALSE with
 * @error: the apply fails and writes nothing.
 */
typedef gboolean (*SdtConfigWriterCommit)(SdtConfigWriter *self,
					  const gchar *id,
					  gboolean trial,
					  const gchar *config_sha256,
					  const gchar *target_sha256,
					  gpointer data,
					  GError **error);
void
sdt_config_writer_set_commit(SdtConfigWriter *self, SdtConfigWriterCommit commit, gpointer data);
/* in the commit callback: the backup of the file before the change (its path,
 * as the apply's answer gives it), NULL when none */
const gchar *sdt_config_writer_get_commit_backup(SdtConfigWriter *self);

/*
 * Reads and parses config.txt (and its includes) with every check of the
 * issue.  The descriptor it was read from stays open in the writer: the check
 * before a rename over config.txt reads it through that descriptor (the path
 * again only when the file was replaced), so a command opens config.txt once.
 */
SdtConfigTxt *sdt_config_writer_load(SdtConfigWriter *self, GBytes **bytes, GError **error);
/*
 * The one read of a command that may write config.txt: takes the lock (when
 * its file is there: a command that writes nothing creates nothing), then
 * sdt_config_writer_load().  A lock that cannot be taken does not fail the
 * read (a command that ends up writing nothing answers as it would without
 * the lock); sdt_config_writer_prepare() takes it or reports it before the
 * first write.
 */
SdtConfigTxt *sdt_config_writer_read(SdtConfigWriter *self, GBytes **bytes, GError **error);
/*
 * Before the first write after sdt_config_writer_read(): config.txt's folder
 * can be written, the lock is held (else its error), the temporary files of
 * an earlier writer are gone.
 */
gboolean sdt_config_writer_prepare(SdtConfigWriter *self, GError **error);
/*
 * What a revert would say, without the lock and without writing anything:
 * FALSE with the revert's own error when it would refuse (the diagnosis
 * `status` gives, issue 23 item 2).
 */
gboolean sdt_config_apply_diagnose_revert(SdtConfigWriter *self, GError **error);

/*
 * The journal of the change in place (`<state>/config-journal.json`, its codec
 * sdt-config-journal-doc.h), or NULL (missing or corrupt)
 */
SdtConfigJournalDoc *sdt_config_journal_get(SdtConfigWriter *self);
/*
 * sdt_context_get_boot_id() of the writer's context, or NULL (none for explicit
 * paths); the one given to sdt_config_writer_set_boot_id() once it is set
 */
gchar *sdt_config_writer_get_boot_id(SdtConfigWriter *self);
/*
 * The boot id the writer records in its journals (@boot_id NULL: unknown), as
 * the caller read it once for the whole operation (an apply: issue 36)
 */
void sdt_config_writer_set_boot_id(SdtConfigWriter *self, const gchar *boot_id);
/* the sha256 of config.txt now, or NULL when it cannot be read */
gchar *sdt_config_writer_hash_config(SdtConfigWriter *self);
/*
 * The pending trial (sdt-config-trial-state.h) when tryboot.txt holds SD
 * Tuner's block, else NULL (with @error when tryboot.txt cannot be read).
 * "stale" is TRUE when config.txt changed since the trial was prepared;
 * "note" then says how to rebuild it.
 */
SdtConfigTrialState *sdt_config_trial_get(SdtConfigWriter *self, GError **error);

/* the sha256 of @bytes */
gchar *sdt_config_writer_hash(GBytes *bytes);

G_END_DECLS
