/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the journal of the change in place: schema-checked before use */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "sdt-config-journal.h"
#include "sdt-config-journal-doc.h"
#include "sdt-config-writer-private.h"
#include "sdt-error.h"
#include "sdt-file.h"

/* the journal @name when it is missing: TRUE with *@data NULL */
static gboolean
sdt_config_journal_load(SdtConfigWriter *self,
			const gchar *name,
			gchar **path,
			gchar **data,
			gsize *len,
			GError **error)
{
	GStatBuf st;

	*path = sdt_config_writer_state_path(self, name);
	if (g_lstat(*path, &st) != 0 && errno == ENOENT)
		return TRUE;
	return sdt_file_read_bounded(*path, SDT_CONFIG_JOURNAL_DOC_MAX, data, len, error);
}

/* the error of a journal that cannot be read or is not what SD Tuner writes */
static gboolean
sdt_config_journal_damaged(const gchar *path, const GError *local, GError **error)
{
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    /* Translators: the journal's path, then what is wrong with it */
		    _("SD Tuner's record of its change, %s, is damaged: %s"),
		    path,
		    local->message);
	return FALSE;
}

gboolean
sdt_config_journal_read(SdtConfigWriter *self, SdtConfigJournalDoc **journal, GError **error)
{
	g_autofree gchar *path = NULL;
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), FALSE);

	*journal = NULL;
	if (!sdt_config_journal_load(self, SDT_CONFIG_JOURNAL, &path, &data, &len, &local))
		return sdt_config_journal_damaged(path, local, error);
	if (data == NULL)
		return TRUE;
	*journal = sdt_config_journal_doc_parse(data, len, &local);
	if (*journal == NULL)
		return sdt_config_journal_damaged(path, local, error);
	return TRUE;
}

gboolean
sdt_config_journal_read_trial(SdtConfigWriter *self,
			      SdtConfigJournalDocTrial **journal,
			      GError **error)
{
	g_autofree gchar *path = NULL;
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), FALSE);

	*journal = NULL;
	if (!sdt_config_journal_load(self, SDT_TRIAL_JOURNAL, &path, &data, &len, &local))
		return sdt_config_journal_damaged(path, local, error);
	if (data == NULL)
		return TRUE;
	*journal = sdt_config_journal_doc_trial_parse(data, len, &local);
	if (*journal == NULL)
		return sdt_config_journal_damaged(path, local, error);
	return TRUE;
}

SdtConfigJournalDoc *
sdt_config_journal_get(SdtConfigWriter *self)
{
	SdtConfigJournalDoc *journal = NULL;

	if (!sdt_config_journal_read(self, &journal, NULL))
		return NULL;
	return journal;
}

/* @text as <state>/@name, atomically */
static gboolean
sdt_config_journal_write_text(SdtConfigWriter *self, const gchar *name, gchar *text, GError **error)
{
	g_autofree gchar *path = sdt_config_writer_state_path(self, name);
	g_autoptr(GBytes) bytes = g_bytes_new_take(text, strlen(text));

	return sdt_config_writer_write_atomic(self, path, bytes, NULL, error);
}

gboolean
sdt_config_journal_write(SdtConfigWriter *self, const SdtConfigJournalDoc *journal, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(journal != NULL, FALSE);

	return sdt_config_journal_write_text(self,
					     SDT_CONFIG_JOURNAL,
					     sdt_config_journal_doc_to_string(journal),
					     error);
}

gboolean
sdt_config_journal_write_trial(SdtConfigWriter *self,
			       const SdtConfigJournalDocTrial *journal,
			       GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(journal != NULL, FALSE);

	return sdt_config_journal_write_text(self,
					     SDT_TRIAL_JOURNAL,
					     sdt_config_journal_doc_trial_to_string(journal),
					     error);
}

void
sdt_config_journal_remove_state(SdtConfigWriter *self, const gchar *name)
{
	g_autofree gchar *path = sdt_config_writer_state_path(self, name);
	sdt_config_writer_unlink(self, path);
}
