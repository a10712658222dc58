/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The writer's journals under the state dir: the journal of the change in place, and that
 * of the pending trial (below).
 *
 * The journal of the change in place, <state>/config-journal.json: what the last apply
 * wrote to config.txt (version 2), and its one C type:
 * {version, id, path, filter, type_code, block: [lines], disabled: [lines], backup,
 *  sha256_before, sha256_after, time, boot_id}
 *
 * The file is SD Tuner's own and tells its lines from the user's: every member but
 * "version" and "boot_id" is required, and one that is absent or of the wrong type makes
 * the whole journal damaged, its error naming the member ("the member “block” has the
 * wrong type"); unknown members are ignored.  A journal longer than
 * SDT_CONFIG_JOURNAL_DOC_MAX is refused unread.
 */

#define SDT_CONFIG_JOURNAL_DOC_MAX (256 * 1024)

/* the version an apply writes */
#define SDT_CONFIG_JOURNAL_DOC_VERSION 2

typedef struct {
	gboolean has_version; /* FALSE: no "version" (a journal from before versions) */
	gint64 version;
	gchar *id;   /* e.g. "sd-overclock-100" */
	gchar *path; /* config.txt as seen on the Pi */
	gchar *filter;
	gint64 type_code;
	gchar **block;    /* the lines of SD Tuner's block */
	gchar **disabled; /* the user's lines SD Tuner switched off */
	gchar *backup;    /* the backup of the file from before SD Tuner's change */
	gchar *sha256_before;
	gchar *sha256_after;
	gchar *time;    /* ISO 8601 */
	gchar *boot_id; /* NULL: unknown (null) */
} SdtConfigJournalDoc;

/* an empty journal: no lines */
SdtConfigJournalDoc *sdt_config_journal_doc_new(void);
void sdt_config_journal_doc_free(SdtConfigJournalDoc *doc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigJournalDoc, sdt_config_journal_doc_free)

/*
 * Reads the journal's text: NULL with SDT_ERROR_INVALID_DATA saying what is wrong with it
 * ("it is not valid JSON (…)", "the member “id” is missing", …), for the message
 * that names the file.
 */
SdtConfigJournalDoc *sdt_config_journal_doc_parse(const gchar *text, gsize len, GError **error);
/* the file's text (pretty) */
gchar *sdt_config_journal_doc_to_string(const SdtConfigJournalDoc *doc);

/* ---- the journal of the pending trial ---- */

/*
 * The journal of the pending trial, <state>/trial-journal.json: what SD Tuner wrote to
 * tryboot.txt (version 1), and its one C type:
 * {version, id, path, config_sha256, tryboot_sha256, previous_backup, time, boot_id}
 *
 * Like the journal of the change in place (above), every member but
 * "version" and "boot_id" is required ("previous_backup" may be null), and one absent or
 * of the wrong type makes the whole journal damaged, its error naming the member;
 * unknown members are ignored.
 */

/* the version a trial writes */
#define SDT_CONFIG_JOURNAL_DOC_TRIAL_VERSION 1

typedef struct {
	gboolean has_version; /* FALSE: no "version" */
	gint64 version;
	gchar *id;
	gchar *path;            /* tryboot.txt as seen on the Pi */
	gchar *config_sha256;   /* config.txt when the trial was built from it */
	gchar *tryboot_sha256;  /* tryboot.txt as SD Tuner wrote it */
	gchar *previous_backup; /* the backup of the user's earlier tryboot.txt; NULL: none */
	gchar *time;            /* ISO 8601 */
	gchar *boot_id;         /* NULL: unknown (null) */
} SdtConfigJournalDocTrial;

SdtConfigJournalDocTrial *sdt_config_journal_doc_trial_new(void);
void sdt_config_journal_doc_trial_free(SdtConfigJournalDocTrial *doc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigJournalDocTrial, sdt_config_journal_doc_trial_free)

/* the journal's text: NULL with SDT_ERROR_INVALID_DATA saying what is wrong with it,
 * as sdt_config_journal_doc_parse() */
SdtConfigJournalDocTrial *
sdt_config_journal_doc_trial_parse(const gchar *text, gsize len, GError **error);
/* the file's text (pretty) */
gchar *sdt_config_journal_doc_trial_to_string(const SdtConfigJournalDocTrial *doc);

G_END_DECLS
