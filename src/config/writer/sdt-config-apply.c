/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* apply and revert: the pure edit, written by the writer with its journal */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-config-apply.h"
#include "sdt-config-block.h"
#include "sdt-config-writer-private.h"
#include "sdt-config-journal.h"
#include "sdt-config-trial.h"
#include "sdt-config-writer.h"
#include "sdt-error.h"

/* a copy of a list of strings */
static GPtrArray *
sdt_config_apply_strings(GPtrArray *strings)
{
	GPtrArray *copy = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; strings != NULL && i < strings->len; i++)
		g_ptr_array_add(copy, g_strdup(g_ptr_array_index(strings, i)));
	return copy;
}

void
sdt_config_apply_result_free(SdtConfigApplyResult *result)
{
	if (result == NULL)
		return;
	g_free(result->id);
	g_free(result->path);
	g_free(result->diff);
	g_free(result->backup);
	g_clear_pointer(&result->disabled, g_ptr_array_unref);
	g_clear_pointer(&result->warnings, g_ptr_array_unref);
	g_free(result);
}

void
sdt_config_apply_revert_free(SdtConfigApplyRevert *revert)
{
	if (revert == NULL)
		return;
	g_free(revert->id);
	g_free(revert->path);
	g_free(revert->diff);
	g_free(revert->backup);
	g_free(revert->backup_before_change);
	g_free(revert->tryboot_backup);
	g_free(revert->tryboot_restored);
	g_clear_pointer(&revert->restored, g_ptr_array_unref);
	g_clear_pointer(&revert->kept, g_ptr_array_unref);
	g_clear_pointer(&revert->warnings, g_ptr_array_unref);
	g_free(revert);
}

void
sdt_config_apply_trial_end_free(SdtConfigApplyTrialEnd *end)
{
	if (end == NULL)
		return;
	g_free(end->tryboot_backup);
	g_free(end->tryboot_restored);
	g_clear_pointer(&end->warnings, g_ptr_array_unref);
	g_free(end);
}

/* backup, the commit (the pending record), then config.txt */
static gchar *
sdt_config_writer_replace(SdtConfigWriter *self,
			  const SdtConfigBlock *block,
			  SdtConfigEdit *edit,
			  const gchar *hash_before,
			  GError **error)
{
	g_autofree gchar *backup =
		sdt_config_writer_backup(self, edit->old_bytes, "config.txt", error);
	g_autofree gchar *hash_after = sdt_config_writer_hash(edit->new_bytes);

	if (backup == NULL)
		return NULL;
	if (!sdt_config_writer_run_commit(self,
					  block->id,
					  FALSE,
					  hash_after,
					  hash_after,
					  backup,
					  error))
		return NULL;
	if (!sdt_config_writer_write_config(self, edit->new_bytes, hash_before, error))
		return NULL;
	return g_steal_pointer(&backup);
}

/* a one-time boot: tryboot.txt = the whole new config.txt (PLATFORM.md §4),
 * built from config.txt as it is now */
static gboolean
sdt_config_writer_apply_trial(SdtConfigWriter *self,
			      const SdtConfigBlock *block,
			      SdtConfigEdit *edit,
			      const gchar *hash_before,
			      SdtConfigApplyResult *result,
			      gchar **backup,
			      GError **error)
{
	if (!sdt_config_trial_write(self, block->id, edit->new_bytes, hash_before, backup, error))
		return FALSE;
	result->path = sdt_config_trial_get_tryboot_display(self);
	result->trial = TRUE;
	return TRUE;
}

/* @strings (of gchar *) as a NULL-terminated copy */
static gchar **
sdt_config_writer_strv_from_array(GPtrArray *strings)
{
	gchar **strv = g_new0(gchar *, strings->len + 1);

	for (guint i = 0; i < strings->len; i++)
		strv[i] = g_strdup(g_ptr_array_index(strings, i));
	return strv;
}

/* the journal of an apply that wrote @edit at @now, with the backup @backup */
static SdtConfigJournalDoc *
sdt_config_writer_journal_new(SdtConfigWriter *self,
			      const SdtConfigBlock *block,
			      SdtConfigEdit *edit,
			      SdtConfigEvidence *ev,
			      const gchar *backup,
			      const gchar *hash_before,
			      GDateTime *now)
{
	SdtConfigJournalDoc *journal = sdt_config_journal_doc_new();

	journal->has_version = TRUE;
	journal->version = SDT_CONFIG_JOURNAL_DOC_VERSION;
	journal->id = g_strdup(block->id);
	journal->path = g_strdup(sdt_config_writer_get_display_path(self));
	journal->filter = g_strdup(block->filter);
	journal->type_code = block->type_code;
	g_strfreev(journal->block);
	journal->block = sdt_config_writer_strv_from_array(edit->block);
	g_strfreev(journal->disabled);
	journal->disabled = sdt_config_writer_strv_from_array(edit->disabled);
	/* a block of SD Tuner's replaced in a file as SD Tuner left it (a step down,
	 * a card moved between boards): the file before SD Tuner's first change
	 * stays the one revert gives back */
	if (ev->own_state && ev->backup != NULL && ev->backup_path != NULL) {
		journal->backup = g_strdup(ev->backup_path);
		journal->sha256_before = sdt_config_writer_hash(ev->backup);
	} else {
		journal->backup = g_strdup(backup);
		journal->sha256_before = g_strdup(hash_before);
	}
	journal->sha256_after = sdt_config_writer_hash(edit->new_bytes);
	journal->time = g_date_time_format_iso8601(now);
	/* "has it rebooted since": compared by boot id, never by the clock */
	journal->boot_id = sdt_config_writer_get_boot_id(self);
	return journal;
}

/* config.txt replaced (after a backup), then the journal of the change */
static gboolean
sdt_config_writer_apply_in_place(SdtConfigWriter *self,
				 const SdtConfigBlock *block,
				 SdtConfigEdit *edit,
				 SdtConfigEvidence *ev,
				 const gchar *hash_before,
				 gchar **backup,
				 GError **error)
{
	g_autoptr(SdtConfigJournalDoc) journal = NULL;
	g_autoptr(GDateTime) now = sdt_config_writer_now(self); /* the time of the change */
	g_autoptr(GError) local = NULL;
	g_autofree gchar *hash_after = NULL;

	*backup = sdt_config_writer_replace(self, block, edit, hash_before, error);
	if (*backup == NULL)
		return FALSE;
	journal = sdt_config_writer_journal_new(self, block, edit, ev, *backup, hash_before, now);
	if (sdt_config_journal_write(self, journal, &local))
		return TRUE;
	/* all or nothing: without its journal the change is taken back */
	hash_after = sdt_config_writer_hash(edit->new_bytes);
	if (sdt_config_writer_write_config(self, edit->old_bytes, hash_after, NULL)) {
		g_set_error(error,
			    SDT_ERROR,
			    local->code,
			    _("the journal of the change could not be saved (%s), so SD Tuner "
			      "put %s back as it was: nothing was changed"),
			    local->message,
			    sdt_config_writer_get_display_path(self));
		return FALSE;
	}
	g_propagate_prefixed_error(error,
				   g_steal_pointer(&local),
				   _("%s was changed, but the journal could not be "
				     "saved: "),
				   sdt_config_writer_get_path(self));
	return FALSE;
}

/* the apply, with config.txt read (@cfg, @old) and the lock held */
static SdtConfigApplyResult *
sdt_config_writer_apply_locked(SdtConfigWriter *self,
			       SdtConfigTxt *cfg,
			       GBytes *old,
			       const SdtConfigBlock *block,
			       gboolean trial,
			       GError **error)
{
	g_autoptr(SdtConfigEdit) edit = NULL;
	g_auto(SdtConfigEvidence) ev = {NULL};
	g_autofree gchar *diff = NULL;
	g_autofree gchar *backup = NULL;
	g_autofree gchar *hash_before = NULL;
	g_autoptr(SdtConfigApplyResult) result = g_new0(SdtConfigApplyResult, 1);

	if (!sdt_config_evidence_collect(self, cfg, old, &ev, error))
		return NULL;
	edit = sdt_config_edit_apply(cfg, block, (const gchar *const *) ev.block, error);
	if (edit == NULL) {
		g_prefix_error(error, _("cannot edit %s: "), sdt_config_writer_get_path(self));
		return NULL;
	}
	diff = sdt_config_diff_unified(sdt_config_writer_get_display_path(self),
				       edit->old_bytes,
				       edit->new_bytes);
	result->changed = !g_bytes_equal(edit->old_bytes, edit->new_bytes);
	hash_before = sdt_config_writer_hash(edit->old_bytes);
	if (trial) {
		if (!sdt_config_writer_apply_trial(self,
						   block,
						   edit,
						   hash_before,
						   result,
						   &backup,
						   error))
			return NULL;
	} else {
		if (result->changed && !sdt_config_writer_apply_in_place(self,
									 block,
									 edit,
									 &ev,
									 hash_before,
									 &backup,
									 error))
			return NULL;
		result->path = g_strdup(sdt_config_writer_get_display_path(self));
	}
	result->id = g_strdup(block->id);
	result->diff = g_steal_pointer(&diff);
	result->backup = g_steal_pointer(&backup);
	result->disabled = sdt_config_apply_strings(edit->disabled);
	result->warnings = sdt_config_apply_strings(edit->warnings);
	return g_steal_pointer(&result);
}

SdtConfigApplyResult *
sdt_config_apply(SdtConfigWriter *self, const SdtConfigBlock *block, gboolean trial, GError **error)
{
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	SdtConfigApplyResult *result;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(self != NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);
	g_return_val_if_fail(block != NULL, NULL);

	cfg = sdt_config_writer_begin(self, &old, error);
	if (cfg == NULL)
		return NULL;
	result = sdt_config_writer_apply_locked(self, cfg, old, block, trial, error);
	sdt_config_writer_unlock(self);
	return result;
}

SdtConfigApplyResult *
sdt_config_apply_write(SdtConfigWriter *writer,
		       SdtConfigTxt *cfg,
		       GBytes *old,
		       const SdtConfigBlock *block,
		       gboolean trial,
		       GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(writer), NULL);
	g_return_val_if_fail(cfg != NULL, NULL);
	g_return_val_if_fail(old != NULL, NULL);
	g_return_val_if_fail(block != NULL, NULL);
	if (!sdt_config_writer_prepare(writer, error))
		return NULL;
	return sdt_config_writer_apply_locked(writer, cfg, old, block, trial, error);
}

/* an error of a backup SD Tuner may go on without: the state dir is full or read-only */
static gboolean
sdt_config_writer_backup_error_is_space(const GError *error)
{
	return g_error_matches(error, SDT_ERROR, SDT_ERROR_NO_SPACE) ||
	       g_error_matches(error, SDT_ERROR, SDT_ERROR_READ_ONLY);
}

/*
 * A tryboot.txt that cannot be read: refused before anything changes when SD
 * Tuner has a record of writing it; one it has no record of (a FIFO, a huge
 * file of the user's) does not stand in the way back (issue 23 item 5): the
 * revert of config.txt goes on, and cancel_trial leaves it with a warning.
 */
static gboolean
sdt_config_writer_check_tryboot(SdtConfigWriter *self, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(GBytes) tryboot = NULL;
	g_autoptr(SdtConfigJournalDocTrial) journal = NULL;
	g_autofree gchar *display = NULL;
	gboolean exists = FALSE;

	tryboot = sdt_config_trial_read_tryboot(self, &exists, &local);
	if (!exists || tryboot != NULL)
		return TRUE;
	if (!sdt_config_journal_read_trial(self, &journal, NULL) || journal == NULL)
		return TRUE;
	display = sdt_config_trial_get_tryboot_display(self);
	g_set_error(error,
		    SDT_ERROR,
		    local->code,
		    _("SD Tuner cannot read %s (%s), so it cannot tell whether a "
		      "trial is pending and changes nothing: move that file away by "
		      "hand, then try again"),
		    display,
		    local->message);
	return FALSE;
}

/*
 * Without a journal: the newest backup with exactly the reverted bytes shows
 * the file is as SD Tuner's apply left it.
 */
static void
sdt_config_writer_find_own_state(SdtConfigWriter *self, SdtConfigEdit *edit, SdtConfigEvidence *ev)
{
	g_autofree gchar *newest = NULL;
	g_autoptr(GBytes) bytes = NULL;

	if (ev->journal != NULL || edit->kept->len != 0)
		return;
	newest = sdt_config_evidence_newest_backup(self);
	bytes = newest != NULL ? sdt_config_writer_read_limited(newest, NULL) : NULL;
	if (bytes != NULL && g_bytes_equal(bytes, edit->new_bytes)) {
		ev->own_state = TRUE;
		ev->backup_path = g_steal_pointer(&newest);
	}
}

/*
 * A copy of config.txt as it is before the revert, unless it is SD Tuner's
 * own state (the backup from before the apply has the old bytes).  A full or
 * read-only state dir only costs the copy: a warning says so.
 */
static gboolean
sdt_config_writer_revert_backup(SdtConfigWriter *self,
				SdtConfigEdit *edit,
				SdtConfigEvidence *ev,
				GPtrArray *warnings,
				gchar **backup,
				GError **error)
{
	g_autoptr(GError) local = NULL;

	if (ev->own_state && ev->backup_path != NULL) {
		g_ptr_array_add(warnings,
				g_strdup_printf(_("no new backup was needed: %s was exactly as "
						  "SD Tuner's change left it, and %s holds it as "
						  "it was before the change"),
						sdt_config_writer_get_display_path(self),
						ev->backup_path));
		return TRUE;
	}
	*backup = sdt_config_writer_backup(self, edit->old_bytes, "config.txt", &local);
	if (*backup == NULL && !sdt_config_writer_backup_error_is_space(local)) {
		g_propagate_error(error, g_steal_pointer(&local));
		return FALSE;
	}
	if (*backup == NULL)
		g_ptr_array_add(warnings,
				g_strdup_printf(_("the file as it was before this revert "
						  "could not be saved (%s); only SD "
						  "Tuner's lines were removed, so nothing "
						  "you wrote is lost"),
						local->message));
	return TRUE;
}

/* what the revert of one file does and reports */
typedef struct {
	SdtConfigEdit *edit; /* NULL: no block in config.txt */
	SdtConfigEvidence ev;
	gchar *diff;
	gchar *backup;
	GPtrArray *warnings;
} SdtConfigWriterRevert;

static void
sdt_config_writer_revert_clear(SdtConfigWriterRevert *r)
{
	g_clear_pointer(&r->edit, sdt_config_block_edit_free);
	sdt_config_evidence_clear(&r->ev);
	g_clear_pointer(&r->diff, g_free);
	g_clear_pointer(&r->backup, g_free);
	g_clear_pointer(&r->warnings, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SdtConfigWriterRevert, sdt_config_writer_revert_clear)

/* SD Tuner's block taken out of config.txt, checked, backed up and written */
static gboolean
sdt_config_writer_revert_block(SdtConfigWriter *self,
			       SdtConfigTxt *cfg,
			       SdtConfigWriterRevert *r,
			       GError **error)
{
	g_auto(GStrv) template = NULL;
	g_autofree gchar *hash_before = NULL;
	const gchar *const *ours = (const gchar *const *) r->ev.block;

	r->edit = sdt_config_revert(cfg, ours, error);
	if (r->edit == NULL) {
		g_prefix_error(error, _("cannot edit %s: "), sdt_config_writer_get_path(self));
		return FALSE;
	}
	if (ours == NULL) {
		guint begin = 0;
		guint end = 0;
		sdt_config_sd_find_block(cfg, &begin, &end);
		template = sdt_config_block_template_for(cfg, begin, end);
		ours = (const gchar *const *) template;
	}
	sdt_config_writer_find_own_state(self, r->edit, &r->ev);
	if (!sdt_config_evidence_verify_revert(self, cfg, r->edit, ours, &r->ev, error))
		return FALSE;
	for (guint i = 0; i < r->edit->warnings->len; i++)
		g_ptr_array_add(r->warnings, g_strdup(g_ptr_array_index(r->edit->warnings, i)));
	r->diff = sdt_config_diff_unified(sdt_config_writer_get_display_path(self),
					  r->edit->old_bytes,
					  r->edit->new_bytes);
	hash_before = sdt_config_writer_hash(r->edit->old_bytes);
	if (!sdt_config_writer_revert_backup(self,
					     r->edit,
					     &r->ev,
					     r->warnings,
					     &r->backup,
					     error) ||
	    !sdt_config_writer_write_config(self, r->edit->new_bytes, hash_before, error))
		return FALSE;
	sdt_config_journal_remove_state(self, SDT_CONFIG_JOURNAL);
	return TRUE;
}

/* the result of a revert (see sdt-config-apply.h) */
static SdtConfigApplyRevert *
sdt_config_writer_revert_result(SdtConfigWriter *self,
				SdtConfigTrialCancel *cancel,
				gchar *id,
				SdtConfigWriterRevert *r)
{
	SdtConfigApplyRevert *result = g_new0(SdtConfigApplyRevert, 1);
	SdtConfigEdit *edit = r->edit;

	result->id = id;
	result->path = g_strdup(sdt_config_writer_get_display_path(self));
	result->diff = r->diff != NULL ? g_steal_pointer(&r->diff) : g_strdup("");
	result->backup = g_steal_pointer(&r->backup);
	result->backup_before_change = g_strdup(r->ev.backup_path);
	result->reverted = edit != NULL;
	result->trial_cancelled = cancel->cancelled;
	result->tryboot_backup = g_steal_pointer(&cancel->tryboot_backup);
	result->tryboot_restored = g_steal_pointer(&cancel->tryboot_restored);
	result->restored = sdt_config_apply_strings(edit != NULL ? edit->disabled : NULL);
	result->kept = sdt_config_apply_strings(edit != NULL ? edit->kept : NULL);
	result->warnings = g_steal_pointer(&r->warnings);
	return result;
}

/* the revert, with config.txt read (@cfg, @old) and the lock held */
static SdtConfigApplyRevert *
sdt_config_writer_revert_locked(SdtConfigWriter *self,
				SdtConfigTxt *cfg,
				GBytes *old,
				GError **error)
{
	g_auto(SdtConfigWriterRevert) r = {NULL};
	g_auto(SdtConfigTrialCancel) cancel = {FALSE};
	g_autofree gchar *id = sdt_config_sd_get_block_id(cfg);

	r.warnings = g_ptr_array_new_with_free_func(g_free);
	if (!sdt_config_evidence_collect(self, cfg, old, &r.ev, error) ||
	    !sdt_config_writer_check_tryboot(self, error))
		return NULL;
	if (r.ev.set_aside != NULL)
		g_ptr_array_add(r.warnings, g_strdup(r.ev.set_aside));
	if (sdt_config_sd_find_block(cfg, NULL, NULL) &&
	    !sdt_config_writer_revert_block(self, cfg, &r, error))
		return NULL;
	/* a pending trial goes too: it would bring the change back */
	if (!sdt_config_trial_cancel(self, &cancel, r.warnings, error)) {
		if (r.edit != NULL)
			g_prefix_error(error,
				       _("%s was reverted, but the trial could not be cancelled: "),
				       sdt_config_writer_get_display_path(self));
		return NULL;
	}
	if (r.edit == NULL && !cancel.cancelled) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("SD Tuner has no change in %s: nothing to revert"),
			    sdt_config_writer_get_path(self));
		return NULL;
	}
	return sdt_config_writer_revert_result(self, &cancel, g_steal_pointer(&id), &r);
}

SdtConfigApplyRevert *
sdt_config_apply_revert(SdtConfigWriter *self, GError **error)
{
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	SdtConfigApplyRevert *result;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(self != NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);

	cfg = sdt_config_writer_begin(self, &old, error);
	if (cfg == NULL)
		return NULL;
	result = sdt_config_writer_revert_locked(self, cfg, old, error);
	sdt_config_writer_unlock(self);
	return result;
}

SdtConfigApplyTrialEnd *
sdt_config_apply_end_trial(SdtConfigWriter *self, GError **error)
{
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_auto(SdtConfigTrialCancel) cancel = {FALSE};
	SdtConfigApplyTrialEnd *end;
	gboolean ok;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(self != NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);

	cfg = sdt_config_writer_begin(self, &old, error);
	if (cfg == NULL)
		return NULL;
	ok = sdt_config_trial_cancel(self, &cancel, warnings, error);
	sdt_config_writer_unlock(self);
	if (!ok)
		return NULL;
	end = g_new0(SdtConfigApplyTrialEnd, 1);
	end->trial_cancelled = cancel.cancelled;
	end->tryboot_backup = g_steal_pointer(&cancel.tryboot_backup);
	end->tryboot_restored = g_steal_pointer(&cancel.tryboot_restored);
	end->warnings = g_steal_pointer(&warnings);
	return end;
}

gboolean
sdt_config_apply_diagnose_revert(SdtConfigWriter *self, GError **error)
{
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtConfigEdit) edit = NULL;
	g_auto(SdtConfigEvidence) ev = {NULL};
	g_auto(GStrv) template = NULL;
	const gchar *const *ours;
	guint begin = 0;
	guint end = 0;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), FALSE);

	cfg = sdt_config_writer_load(self, &old, error);
	if (cfg == NULL || !sdt_config_evidence_collect(self, cfg, old, &ev, error) ||
	    !sdt_config_writer_check_tryboot(self, error))
		return FALSE;
	if (!sdt_config_sd_find_block(cfg, &begin, &end))
		return TRUE;
	ours = (const gchar *const *) ev.block;
	edit = sdt_config_revert(cfg, ours, error);
	if (edit == NULL) {
		g_prefix_error(error, _("cannot edit %s: "), sdt_config_writer_get_path(self));
		return FALSE;
	}
	if (ours == NULL) {
		template = sdt_config_block_template_for(cfg, begin, end);
		ours = (const gchar *const *) template;
	}
	sdt_config_writer_find_own_state(self, edit, &ev);
	return sdt_config_evidence_verify_revert(self, cfg, edit, ours, &ev, error);
}
