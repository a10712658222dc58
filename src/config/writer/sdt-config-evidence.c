/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* what tells SD Tuner's lines from the user's: the journal, the markers, the backup */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-config-block.h"
#include "sdt-config-writer-private.h"
#include "sdt-config-journal.h"
#include "sdt-error.h"

void
sdt_config_evidence_clear(SdtConfigEvidence *ev)
{
	g_clear_pointer(&ev->journal, sdt_config_journal_doc_free);
	g_clear_pointer(&ev->block, g_strfreev);
	g_clear_pointer(&ev->backup, g_bytes_unref);
	g_clear_pointer(&ev->backup_path, g_free);
	g_clear_pointer(&ev->set_aside, g_free);
}

/*
 * A journal SD Tuner cannot trust: an error that changes nothing, or with the
 * journal fallback (verify's undo) set aside, so that the markers and the
 * template decide; @ev then holds no journal evidence and says why.
 */
static gboolean
sdt_config_writer_corrupt(SdtConfigWriter *self,
			  SdtConfigEvidence *ev,
			  GError **error,
			  const gchar *reason)
{
	g_autofree gchar *journal = sdt_config_writer_state_path(self, SDT_CONFIG_JOURNAL);

	if (sdt_config_writer_get_journal_fallback(self)) {
		g_clear_pointer(&ev->backup, g_bytes_unref);
		g_clear_pointer(&ev->backup_path, g_free);
		g_clear_pointer(&ev->set_aside, g_free);
		ev->own_state = FALSE;
		ev->set_aside = g_strdup_printf(
			/* Translators: %s says what is wrong with the journal */
			_("SD Tuner set its damaged record of the change aside (%s) and took out "
			  "only the lines it writes for the id in the markers"),
			reason);
		return TRUE;
	}
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    _("%s, so SD Tuner cannot trust it to tell its lines in %s from yours and "
		      "changes nothing. Delete %s, then run the command again: SD Tuner then "
		      "removes only the lines it recognises as its own and keeps any other."),
		    reason,
		    sdt_config_writer_get_display_path(self),
		    journal);
	return FALSE;
}

/* a backup SD Tuner made: a file directly in <state>/backups */
gboolean
sdt_config_evidence_is_backup_path(SdtConfigWriter *self, const gchar *path)
{
	g_autofree gchar *dir = sdt_config_writer_state_path(self, "backups");
	g_autofree gchar *parent = g_path_get_dirname(path);
	return g_strcmp0(dir, parent) == 0 && strstr(path, "/../") == NULL;
}

/* the newest backup of config.txt, or NULL */
gchar *
sdt_config_evidence_newest_backup(SdtConfigWriter *self)
{
	g_autofree gchar *dir = sdt_config_writer_state_path(self, "backups");
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autofree gchar *best = NULL;
	const gchar *name;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		if (!g_str_has_prefix(name, "config.txt.") ||
		    strstr(name, SDT_CONFIG_TMP_INFIX) != NULL)
			continue;
		if (best == NULL || strcmp(name, best) > 0) {
			g_free(best);
			best = g_strdup(name);
		}
	}
	return best != NULL ? g_build_filename(dir, best, NULL) : NULL;
}

/* the lines between the markers of SD Tuner's block in @cfg */
static gchar **
sdt_config_evidence_file_block(SdtConfigTxt *cfg)
{
	GPtrArray *src = sdt_config_txt_get_lines(cfg);
	GPtrArray *out = g_ptr_array_new();
	guint begin = 0;
	guint end = 0;

	if (sdt_config_sd_find_block(cfg, &begin, &end))
		for (guint i = begin + 1; i < end && i < src->len; i++)
			g_ptr_array_add(
				out,
				g_strdup(((SdtConfigLine *) g_ptr_array_index(src, i))->text));
	g_ptr_array_add(out, NULL);
	return (gchar **) g_ptr_array_free(out, FALSE);
}

/*
 * A journal of this file about another id than the begin marker's: set aside
 * when the block holds the lines of the marker's id (a kill between the
 * rename and the journal of a later apply), but when the block holds exactly
 * the lines the journal names, the marker was edited: damaged state, an
 * error that changes nothing (issue 23 item 3).
 */
static gboolean
sdt_config_evidence_check_marker(SdtConfigWriter *self,
				 SdtConfigTxt *cfg,
				 SdtConfigJournalDoc *journal,
				 const gchar *id,
				 GError **error)
{
	g_auto(GStrv) in_file = NULL;
	const gchar *journal_id = journal->id;

	if (id == NULL || g_strcmp0(journal_id, id) == 0)
		return TRUE;
	in_file = sdt_config_evidence_file_block(cfg);
	if (!g_strv_equal((const gchar *const *) in_file, (const gchar *const *) journal->block))
		return TRUE;
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    /* Translators: the ids are like sd-overclock-100 */
		    _("The begin marker of SD Tuner's block in %s names %s, but SD Tuner's record "
		      "of its change names %s with exactly the lines in that block: the marker "
		      "was edited, so SD Tuner cannot tell which change is in effect and changes "
		      "nothing. Put the marker back to “%s%s (undo: sdtunerctl revert) ---” and "
		      "run the command again, or restore the backup from before the change by "
		      "hand (see “sdtunerctl history”)."),
		    sdt_config_writer_get_display_path(self),
		    id,
		    journal_id,
		    SDT_CONFIG_BLOCK_BEGIN,
		    journal_id);
	return FALSE;
}

/*
 * Gathers the evidence of which lines are SD Tuner's: the journal, checked
 * against its schema, the markers in the file and the backup it names.  A
 * journal about another change (a kill between the rename and the journal
 * write) is set aside; one that contradicts the markers or its backup is
 * corrupt state and an error.
 */
gboolean
sdt_config_evidence_collect(SdtConfigWriter *self,
			    SdtConfigTxt *cfg,
			    GBytes *old,
			    SdtConfigEvidence *ev,
			    GError **error)
{
	g_autoptr(SdtConfigJournalDoc) journal = NULL;
	g_autoptr(GError) local = NULL;
	g_autofree gchar *id = NULL;
	g_autofree gchar *hash = NULL;
	g_auto(GStrv) block = NULL;
	g_auto(GStrv) template = NULL;
	g_autofree gchar *filter_name = NULL;
	const gchar *backup_path;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	id = sdt_config_sd_get_block_id(cfg);
	if (!sdt_config_journal_read(self, &journal, &local))
		return sdt_config_writer_corrupt(self, ev, error, local->message);
	if (journal != NULL &&
	    g_strcmp0(journal->path, sdt_config_writer_get_display_path(self)) == 0 &&
	    !sdt_config_evidence_check_marker(self, cfg, journal, id, error))
		return FALSE;
	if (journal == NULL || id == NULL || g_strcmp0(journal->id, id) != 0 ||
	    g_strcmp0(journal->path, sdt_config_writer_get_display_path(self)) != 0)
		return TRUE;

	block = g_strdupv(journal->block);
	template = sdt_config_block_template(id, journal->filter);
	/* the filter too: SD Tuner writes only under a model filter */
	if (!sdt_config_block_filter_valid(journal->filter, &filter_name) || template == NULL ||
	    !g_strv_equal((const gchar *const *) template, (const gchar *const *) block)) {
		g_autofree gchar *reason = g_strdup_printf(
			_("SD Tuner's record of its change does not list the lines SD Tuner "
			  "writes for %s"),
			id);
		return sdt_config_writer_corrupt(self, ev, error, reason);
	}
	hash = sdt_config_writer_hash(old);
	ev->own_state = g_strcmp0(hash, journal->sha256_after) == 0;
	backup_path = journal->backup;
	if (sdt_config_evidence_is_backup_path(self, backup_path)) {
		g_autoptr(GBytes) bytes = sdt_config_writer_read_limited(backup_path, NULL);
		g_autofree gchar *bhash = bytes != NULL ? sdt_config_writer_hash(bytes) : NULL;
		if (bhash != NULL && g_strcmp0(bhash, journal->sha256_before) != 0) {
			g_autofree gchar *reason = g_strdup_printf(
				_("the backup %s no longer holds the file SD Tuner's record of "
				  "its change describes"),
				backup_path);
			return sdt_config_writer_corrupt(self, ev, error, reason);
		}
		if (bytes != NULL) {
			ev->backup = g_steal_pointer(&bytes);
			ev->backup_path = g_strdup(backup_path);
		}
	}
	ev->journal = g_steal_pointer(&journal);
	ev->block = g_steal_pointer(&block);
	return TRUE;
}

/* how often each line text occurs in @lines, outside [@skip_from, @skip_to] */
static guint
sdt_config_evidence_count_text(GPtrArray *lines, const gchar *text, guint skip_from, guint skip_to)
{
	guint n = 0;
	for (guint i = 0; i < lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (i >= skip_from && i <= skip_to)
			continue;
		if (g_strcmp0(line->text, text) == 0)
			n++;
	}
	return n;
}

/*
 * Re-parses the reverted file: no marker may be left, and no setting SD Tuner
 * wrote may occur more often than it did outside the block before (or as a
 * line SD Tuner had switched off).  Never report success otherwise.
 */
gboolean
sdt_config_evidence_verify_revert(SdtConfigWriter *self,
				  SdtConfigTxt *cfg,
				  SdtConfigEdit *edit,
				  const gchar *const *ours,
				  SdtConfigEvidence *ev,
				  GError **error)
{
	g_autoptr(SdtConfigTxt) result = NULL;
	GPtrArray *after;
	GPtrArray *before;
	guint begin = 0;
	guint end = 0;
	const gchar *left = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	result = sdt_config_txt_new_from_bytes(edit->new_bytes, "config.txt");
	after = sdt_config_txt_get_lines(result);
	before = sdt_config_txt_get_lines(cfg);
	sdt_config_sd_find_block(cfg, &begin, &end);
	for (guint i = 0; i < after->len && left == NULL; i++) {
		SdtConfigLine *line = g_ptr_array_index(after, i);
		if (g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN) ||
		    g_strcmp0(line->text, SDT_CONFIG_BLOCK_END) == 0 ||
		    g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK))
			left = line->text;
	}
	for (guint k = 0; ours != NULL && ours[k] != NULL && left == NULL; k++) {
		guint allowed;
		if (g_str_has_prefix(ours[k], "[") || g_strcmp0(ours[k], "dtoverlay=") == 0)
			continue;
		allowed = sdt_config_evidence_count_text(before, ours[k], begin, end);
		for (guint j = 0; j < edit->disabled->len; j++)
			allowed += g_strcmp0(g_ptr_array_index(edit->disabled, j), ours[k]) == 0;
		for (guint j = 0; j < edit->kept->len; j++) {
			const gchar *kept = g_ptr_array_index(edit->kept, j);
			const gchar *text = strstr(kept, ": ");
			allowed += text != NULL && g_strcmp0(text + 2, ours[k]) == 0;
		}
		if (sdt_config_evidence_count_text(after, ours[k], G_MAXUINT, G_MAXUINT) > allowed)
			left = ours[k];
	}
	if (left != NULL) {
		g_set_error(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			_("SD Tuner could not take back its change to %s: the line “%s” would "
			  "still be there afterwards, so it changes nothing. Restore the backup "
			  "from before the change by hand (see “sdtunerctl history”)."),
			sdt_config_writer_get_display_path(self),
			left);
		return FALSE;
	}
	/* untouched since the apply: the result must be the backup from before it */
	if (ev->own_state && ev->backup != NULL && !g_bytes_equal(ev->backup, edit->new_bytes)) {
		g_autofree gchar *reason = g_strdup_printf(
			_("taking back SD Tuner's lines does not give the backup %s from before "
			  "the change"),
			ev->backup_path);
		return sdt_config_writer_corrupt(self, ev, error, reason);
	}
	return TRUE;
}

/* the trial ---------------------------------------------------------------- */
