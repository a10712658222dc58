/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-journal-doc.h"
#include "sdt-config-writer.h"

G_BEGIN_DECLS

/*
 * Private to the writer's family (src/config/writer: sdt-config-writer.c,
 * -journal.c, -evidence.c, -trial.c, -apply.c, -includes.c); tests/check-shape.py
 * fails any other file that includes it.  The public API is sdt-config-writer.h,
 * sdt-config-journal.h and sdt-config-trial.h.
 */

/* ---- sdt-config-evidence.c ---- */

/* what tells SD Tuner's lines from the user's, for apply and revert */
typedef struct {
	SdtConfigJournalDoc *journal; /* validated, and about the block in the file */
	gchar **block;                /* the journal's lines of the block */
	GBytes *backup;               /* the file before the apply, checked against the journal */
	gchar *backup_path;
	gboolean own_state; /* config.txt is exactly as SD Tuner's apply left it */
	gchar *set_aside;   /* a damaged journal set aside (journal fallback): why */
} SdtConfigEvidence;

void sdt_config_evidence_clear(SdtConfigEvidence *ev);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SdtConfigEvidence, sdt_config_evidence_clear)

/* a backup SD Tuner made: a file directly in <state>/backups */
gboolean sdt_config_evidence_is_backup_path(SdtConfigWriter *self, const gchar *path);
/* the newest backup of config.txt, or NULL */
gchar *sdt_config_evidence_newest_backup(SdtConfigWriter *self);
/*
 * Gathers the evidence of which lines are SD Tuner's: the journal, checked
 * against its schema, the markers in the file and the backup it names.  A
 * journal about another change (a kill between the rename and the journal
 * write) is set aside; one that contradicts the markers or its backup is
 * corrupt state and an error.
 */
gboolean sdt_config_evidence_collect(SdtConfigWriter *self,
				     SdtConfigTxt *cfg,
				     GBytes *old,
				     SdtConfigEvidence *ev,
				     GError **error);
/*
 * Re-parses the reverted file: no marker may be left, and no setting SD Tuner
 * wrote may occur more often than it did outside the block before (or as a
 * line SD Tuner had switched off).  Never report success otherwise.
 */
gboolean sdt_config_evidence_verify_revert(SdtConfigWriter *self,
					   SdtConfigTxt *cfg,
					   SdtConfigEdit *edit,
					   const gchar *const *ours,
					   SdtConfigEvidence *ev,
					   GError **error);

/* ---- sdt-config-writer.c ---- */

/* the infix of the writer's temporary files, which a later writer removes */
#define SDT_CONFIG_TMP_INFIX ".sd-tuner-tmp-"

const gchar *sdt_config_writer_get_path(SdtConfigWriter *self);
/* <state>/@name */
gchar *sdt_config_writer_state_path(SdtConfigWriter *self, const gchar *name);
/* through the SdtConfigWriterIo table */
gint sdt_config_writer_unlink(SdtConfigWriter *self, const gchar *path);
/* now, by the context's clock */
GDateTime *sdt_config_writer_now(SdtConfigWriter *self);
/*
 * Reads a file SD Tuner does not own (config.txt, an include, tryboot.txt, a
 * backup) with sdt_file_read_bounded(): never blocks on a FIFO, never follows
 * a link, refuses anything but a regular file of at most 1 MiB.
 */
GBytes *sdt_config_writer_read_limited(const gchar *path, GError **error);
/* an errno error of a write, with what to do; always FALSE */
gboolean sdt_config_writer_set_write_error(GError **error, gint errsv, const gchar *path);
void sdt_config_writer_unlock(SdtConfigWriter *self);
/*
 * Replaces @path atomically: a temporary file in the same folder, fsync,
 * rename over @path, fsync of the folder.  With @expect_hash, @path must
 * still have that content just before the rename.  The new file keeps the
 * mode and owner of the old one, whatever the umask.
 */
/* as sdt_config_writer_write_atomic(); a new @path takes @like's mode and owner */
gboolean sdt_config_writer_write_atomic_like(SdtConfigWriter *self,
					     const gchar *path,
					     GBytes *bytes,
					     const gchar *expect_hash,
					     const gchar *like,
					     GError **error);
gboolean sdt_config_writer_write_atomic(SdtConfigWriter *self,
					const gchar *path,
					GBytes *bytes,
					const gchar *expect_hash,
					GError **error);
/* sdt_config_writer_write_atomic() of config.txt (the file a link points to) */
gboolean sdt_config_writer_write_config(SdtConfigWriter *self,
					GBytes *bytes,
					const gchar *expect_hash,
					GError **error);
/* a timestamped copy of @bytes as <state>/backups/@stem.<time>; its path */
gchar *
sdt_config_writer_backup(SdtConfigWriter *self, GBytes *bytes, const gchar *stem, GError **error);
/* checks, locks and reads config.txt; the lock is held when a model is returned */
SdtConfigTxt *sdt_config_writer_begin(SdtConfigWriter *self, GBytes **old, GError **error);

/* for tests: file system calls that fail on cue (sdt-config-writer-io.h) */
void sdt_config_writer_set_io(SdtConfigWriter *self, const SdtConfigWriterIo *io);

/* with the journal fallback set (sdt_config_writer_set_journal_fallback()) */
gboolean sdt_config_writer_get_journal_fallback(SdtConfigWriter *self);
/* the commit callback, if any; TRUE without one */
gboolean sdt_config_writer_run_commit(SdtConfigWriter *self,
				      const gchar *id,
				      gboolean trial,
				      const gchar *config_sha256,
				      const gchar *target_sha256,
				      const gchar *backup,
				      GError **error);

/* ---- sdt-config-journal.c ---- */

/* writes the journal of the change in place (of the trial) atomically */
gboolean
sdt_config_journal_write(SdtConfigWriter *self, const SdtConfigJournalDoc *journal, GError **error);
gboolean sdt_config_journal_write_trial(SdtConfigWriter *self,
					const SdtConfigJournalDocTrial *journal,
					GError **error);
void sdt_config_journal_remove_state(SdtConfigWriter *self, const gchar *name);

/*
 * Reads the journal: TRUE with *@journal NULL when there is none, FALSE with
 * @error when it cannot be read or does not match the schema.
 */
gboolean
sdt_config_journal_read(SdtConfigWriter *self, SdtConfigJournalDoc **journal, GError **error);
/* the trial journal: sdt_config_journal_read_trial() of sdt-config-journal.h */

/* ---- sdt-config-trial.c ---- */

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
/* what cancelling a trial did */
typedef struct {
	gboolean cancelled;      /* there was a trial of SD Tuner's, and it is gone */
	gchar *tryboot_backup;   /* a copy of tryboot.txt edited by hand; NULL: none */
	gchar *tryboot_restored; /* the backup the user's earlier tryboot.txt came from */
} SdtConfigTrialCancel;

void sdt_config_trial_cancel_clear(SdtConfigTrialCancel *cancel);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SdtConfigTrialCancel, sdt_config_trial_cancel_clear)

/*
 * Cancels a pending trial: SD Tuner's tryboot.txt goes, or the user's earlier
 * one comes back from its backup.  A tryboot.txt edited since SD Tuner wrote
 * it is backed up first.  @cancel says whether there was a trial.
 */
gboolean sdt_config_trial_cancel(SdtConfigWriter *self,
				 SdtConfigTrialCancel *cancel,
				 GPtrArray *warnings,
				 GError **error);

G_END_DECLS
