/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the trial: tryboot.txt for one boot with the change (PLATFORM.md §4) */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "sdt-config-writer-private.h"
#include "sdt-config-journal.h"
#include "sdt-config-trial.h"
#include "sdt-config-trial-state.h"
#include "sdt-error.h"

static gchar *
sdt_config_writer_get_tryboot_path(SdtConfigWriter *self)
{
	g_autofree gchar *dir = g_path_get_dirname(sdt_config_writer_get_path(self));
	return g_build_filename(dir, "tryboot.txt", NULL);
}

/* tryboot.txt written atomically; a new one takes config.txt's mode and owner */
static gboolean
sdt_config_writer_write_tryboot(SdtConfigWriter *self,
				const gchar *path,
				GBytes *bytes,
				GError **error)
{
	return sdt_config_writer_write_atomic_like(self,
						   path,
						   bytes,
						   NULL,
						   sdt_config_writer_get_path(self),
						   error);
}

gchar *
sdt_config_trial_get_tryboot_display(SdtConfigWriter *self)
{
	g_autofree gchar *dir = g_path_get_dirname(sdt_config_writer_get_display_path(self));
	return g_build_filename(dir, "tryboot.txt", NULL);
}

/* tryboot.txt's bytes; NULL with no error when it does not exist */
GBytes *
sdt_config_trial_read_tryboot(SdtConfigWriter *self, gboolean *exists, GError **error)
{
	g_autofree gchar *path = NULL;
	GStatBuf st;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(self != NULL, NULL);

	path = sdt_config_writer_get_tryboot_path(self);
	*exists = g_lstat(path, &st) == 0;
	if (!*exists)
		return NULL;
	return sdt_config_writer_read_limited(path, error);
}

static gboolean
sdt_config_trial_has_block(GBytes *bytes)
{
	return bytes != NULL && g_bytes_get_size(bytes) > 0 &&
	       g_strstr_len(g_bytes_get_data(bytes, NULL),
			    g_bytes_get_size(bytes),
			    SDT_CONFIG_BLOCK_BEGIN) != NULL;
}

SdtConfigTrialState *
sdt_config_trial_get(SdtConfigWriter *self, GError **error)
{
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(SdtConfigTxt) t = NULL;
	g_autoptr(SdtConfigJournalDocTrial) journal = NULL;
	g_autoptr(SdtConfigTrialState) trial = NULL;
	g_autofree gchar *id = NULL;
	gboolean exists = FALSE;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(self != NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);

	bytes = sdt_config_trial_read_tryboot(self, &exists, error);
	if (bytes == NULL)
		return NULL;
	t = sdt_config_txt_new_from_bytes(bytes, "tryboot.txt");
	id = sdt_config_sd_get_block_id(t);
	if (id == NULL)
		return NULL;
	trial = sdt_config_trial_state_new();
	trial->id = g_strdup(id);
	trial->path = sdt_config_trial_get_tryboot_display(self);
	trial->reboot_command = g_strdup(SDT_CONFIG_TRIAL_STATE_REBOOT_COMMAND);
	if (sdt_config_journal_read_trial(self, &journal, NULL) && journal != NULL) {
		g_autofree gchar *now = sdt_config_writer_hash_config(self);
		if (now != NULL && g_strcmp0(now, journal->config_sha256) != 0) {
			trial->note = g_strdup_printf(
				_("%s has changed since the trial was prepared, and the trial boot "
				  "would not have those changes: run “sdtunerctl apply %s --trial” "
				  "again to rebuild %s from it."),
				sdt_config_writer_get_display_path(self),
				id,
				trial->path);
			trial->stale = TRUE;
		}
	}
	return g_steal_pointer(&trial);
}

/*
 * Puts tryboot.txt for a trial of @bytes in place.  An existing tryboot.txt
 * that is not SD Tuner's own earlier trial is backed up first, whatever its
 * size; one that cannot be read (too large, not a regular file) is refused.
 */
gboolean
sdt_config_trial_write(SdtConfigWriter *self,
		       const gchar *id,
		       GBytes *bytes,
		       const gchar *config_hash,
		       gchar **previous_backup,
		       GError **error)
{
	g_autofree gchar *tryboot = NULL;
	g_autofree gchar *display = NULL;
	g_autoptr(SdtConfigJournalDocTrial) old_journal = NULL;
	g_autoptr(SdtConfigJournalDocTrial) journal = sdt_config_journal_doc_trial_new();
	g_autoptr(GBytes) prev = NULL;
	g_autoptr(GError) local = NULL;
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();
	g_autofree gchar *backup = NULL;
	g_autofree gchar *hash = NULL;
	gboolean exists = FALSE;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	tryboot = sdt_config_writer_get_tryboot_path(self);
	display = sdt_config_trial_get_tryboot_display(self);
	hash = sdt_config_writer_hash(bytes);
	/* a damaged trial journal only means the old tryboot.txt is backed up */
	if (!sdt_config_journal_read_trial(self, &old_journal, NULL))
		old_journal = NULL;
	prev = sdt_config_trial_read_tryboot(self, &exists, &local);
	if (exists && prev == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    local->code,
			    _("%s already exists and SD Tuner cannot keep a copy of it (%s), so "
			      "it does not replace it: move it away by hand, then try again"),
			    display,
			    local->message);
		return FALSE;
	}
	if (prev != NULL) {
		g_autofree gchar *prev_hash = sdt_config_writer_hash(prev);
		if (old_journal != NULL && g_strcmp0(prev_hash, old_journal->tryboot_sha256) == 0) {
			/* SD Tuner's own trial: the user's file from before it is already saved */
			backup = g_strdup(old_journal->previous_backup);
		} else {
			backup = sdt_config_writer_backup(self, prev, "tryboot.txt", error);
			if (backup == NULL)
				return FALSE;
		}
	}
	/* the pending record first (issue 23 item 1) */
	if (!sdt_config_writer_run_commit(self, id, TRUE, config_hash, hash, backup, error) ||
	    !sdt_config_writer_write_tryboot(self, tryboot, bytes, error))
		return FALSE;
	journal->has_version = TRUE;
	journal->version = SDT_CONFIG_JOURNAL_DOC_TRIAL_VERSION;
	journal->id = g_strdup(id);
	journal->path = g_strdup(display);
	journal->config_sha256 = g_strdup(config_hash);
	journal->tryboot_sha256 = g_strdup(hash);
	journal->previous_backup = g_strdup(backup);
	journal->time = g_date_time_format_iso8601(now);
	journal->boot_id = sdt_config_writer_get_boot_id(self);
	if (!sdt_config_journal_write_trial(self, journal, error)) {
		g_prefix_error(error,
			       _("%s was written, but SD Tuner's record of it could not be "
				 "saved: "),
			       display);
		return FALSE;
	}
	*previous_backup = g_steal_pointer(&backup);
	return TRUE;
}

/*
 * The user's tryboot.txt from before the trial, when the trial journal names
 * its backup: *@previous (and *@previous_path) or an error when it cannot be
 * read; TRUE with *@previous NULL when there was none.
 */
static gboolean
sdt_config_trial_previous(SdtConfigWriter *self,
			  SdtConfigJournalDocTrial *journal,
			  const gchar *display,
			  const gchar **previous_path,
			  GBytes **previous,
			  GError **error)
{
	if (journal == NULL || journal->previous_backup == NULL)
		return TRUE;
	*previous_path = journal->previous_backup;
	if (sdt_config_evidence_is_backup_path(self, *previous_path))
		*previous = sdt_config_writer_read_limited(*previous_path, NULL);
	if (*previous != NULL)
		return TRUE;
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_NOT_FOUND,
		    _("the trial in %s replaced an earlier tryboot.txt, but its "
		      "backup %s cannot be read, so SD Tuner leaves the trial in "
		      "place: restore that file or delete %s by hand"),
		    display,
		    *previous_path,
		    display);
	return FALSE;
}

/* a tryboot.txt edited since SD Tuner wrote it, or with no record of it: keep a copy */
static gboolean
sdt_config_trial_keep_copy(SdtConfigWriter *self,
			   SdtConfigJournalDocTrial *journal,
			   GBytes *bytes,
			   SdtConfigTrialCancel *cancel,
			   GError **error)
{
	g_autofree gchar *hash = sdt_config_writer_hash(bytes);
	g_autofree gchar *backup = NULL;

	if (journal != NULL && g_strcmp0(hash, journal->tryboot_sha256) == 0)
		return TRUE;
	backup = sdt_config_writer_backup(self, bytes, "tryboot.txt", error);
	if (backup == NULL)
		return FALSE;
	cancel->tryboot_backup = g_steal_pointer(&backup);
	return TRUE;
}

/* the user's earlier tryboot.txt back (@previous), or SD Tuner's removed */
static gboolean
sdt_config_trial_undo(SdtConfigWriter *self,
		      GBytes *previous,
		      const gchar *previous_path,
		      SdtConfigTrialCancel *cancel,
		      GPtrArray *warnings,
		      GError **error)
{
	g_autofree gchar *tryboot = sdt_config_writer_get_tryboot_path(self);
	g_autofree gchar *display = sdt_config_trial_get_tryboot_display(self);

	if (previous != NULL) {
		if (!sdt_config_writer_write_tryboot(self, tryboot, previous, error))
			return FALSE;
		cancel->tryboot_restored = g_strdup(previous_path);
		g_ptr_array_add(warnings,
				g_strdup_printf(_("the trial was cancelled: %s is the one from "
						  "before the trial again"),
						display));
		return TRUE;
	}
	if (sdt_config_writer_unlink(self, tryboot) != 0 && errno != ENOENT)
		return sdt_config_writer_set_write_error(error, errno, tryboot);
	g_ptr_array_add(warnings,
			g_strdup_printf(_("the trial was cancelled: SD Tuner's %s was "
					  "removed"),
					display));
	return TRUE;
}

/*
 * Cancels a pending trial: SD Tuner's tryboot.txt goes, or the user's earlier
 * one comes back from its backup.  A tryboot.txt edited since SD Tuner wrote
 * it is backed up first.  *@cancelled says whether there was a trial.
 */
void
sdt_config_trial_cancel_clear(SdtConfigTrialCancel *cancel)
{
	g_clear_pointer(&cancel->tryboot_backup, g_free);
	g_clear_pointer(&cancel->tryboot_restored, g_free);
	cancel->cancelled = FALSE;
}

gboolean
sdt_config_trial_cancel(SdtConfigWriter *self,
			SdtConfigTrialCancel *cancel,
			GPtrArray *warnings,
			GError **error)
{
	g_autofree gchar *display = NULL;
	g_autoptr(SdtConfigJournalDocTrial) journal = NULL;
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GBytes) previous = NULL;
	g_autoptr(GError) local = NULL;
	const gchar *previous_path = NULL;
	gboolean exists = FALSE;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(cancel != NULL, FALSE);

	display = sdt_config_trial_get_tryboot_display(self);
	cancel->cancelled = FALSE;
	if (!sdt_config_journal_read_trial(self, &journal, NULL))
		journal = NULL;
	bytes = sdt_config_trial_read_tryboot(self, &exists, &local);
	if (exists && bytes == NULL && journal == NULL) {
		/* no record of writing it: not SD Tuner's, and no trial of SD Tuner's */
		g_ptr_array_add(warnings,
				g_strdup_printf(_("SD Tuner cannot read %s (%s) and has no record "
						  "of writing it, so it left that file as it is: "
						  "look at it yourself, the firmware boots it "
						  "after “reboot '0 tryboot'”"),
						display,
						local->message));
		return TRUE;
	}
	if (exists && bytes == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    local->code,
			    _("SD Tuner cannot read %s (%s), so it cannot tell whether a trial is "
			      "pending: move that file away by hand, then try again"),
			    display,
			    local->message);
		return FALSE;
	}
	if (!sdt_config_trial_has_block(bytes)) {
		/* no trial of SD Tuner's in tryboot.txt: a leftover record goes */
		if (journal != NULL)
			sdt_config_journal_remove_state(self, SDT_TRIAL_JOURNAL);
		return TRUE;
	}
	if (!sdt_config_trial_previous(self, journal, display, &previous_path, &previous, error) ||
	    !sdt_config_trial_keep_copy(self, journal, bytes, cancel, error) ||
	    !sdt_config_trial_undo(self, previous, previous_path, cancel, warnings, error))
		return FALSE;
	sdt_config_journal_remove_state(self, SDT_TRIAL_JOURNAL);
	cancel->cancelled = TRUE;
	return TRUE;
}
