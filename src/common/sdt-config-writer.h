/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <sys/types.h>

#include "sdt-config-txt.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * Editing config.txt.  Two layers:
 *
 * - sdt_config_edit_apply() / sdt_config_edit_revert(): pure functions from
 *   a model to new bytes.  SD Tuner's block is appended at the end:
 *
 *     # --- SD Tuner begin: <id> (undo: sdtunerctl revert) ---
 *     [all]
 *     <filter of this board family>
 *     dtoverlay=
 *     <the lines>
 *     [all]
 *     # --- SD Tuner end ---
 *
 *   `[all]` first clears any filter left active above (e.g. [tryboot]),
 *   the empty `dtoverlay=` ends the scope of an earlier overlay so the lines
 *   set base device-tree parameters, and the closing `[all]` leaves anything
 *   added after the block with its old meaning.  A conflicting SD line that
 *   reaches only boards the block's filter reaches is commented out with
 *   SDT_CONFIG_DISABLED_MARK; one that reaches other boards too is left
 *   alone (it is reported) so no other board's configuration changes.
 *
 * - SdtConfigWriter: the file system side.  Atomic replacement (temporary file
 *   in the same folder, fsync, rename, fsync of the folder), a timestamped
 *   backup and a journal under the state dir, a lock against a second SD
 *   Tuner writer and a content-hash check against any other writer.  All
 *   file writes go through an SdtConfigWriterIo table so tests can make any
 *   of them fail.
 */

typedef struct {
	const gchar *id;           /* a recommendation id, e.g. "sd-overclock-100" */
	const gchar *filter;       /* the filter line, e.g. "[board-type=0x08]"; never "[all]" */
	const gchar *const *lines; /* the settings, e.g. {"dtparam=sd_overclock=100", NULL} */
	gint type_code;            /* the board the block is written for */
	SdtConfigSdKind replaces;  /* SD lines of these kinds conflict with the block */
} SdtConfigBlock;

typedef struct {
	GBytes *old_bytes;
	GBytes *new_bytes;
	GPtrArray *disabled; /* apply: texts of lines commented out; revert: lines restored */
	GPtrArray *warnings; /* translated messages: conflicts left in place, foreign lines kept */
	GPtrArray *block;    /* apply: the lines between the markers, as written */
	GPtrArray *kept;     /* revert: "line N: text" of lines inside the block that stay */
	gboolean kept_unknown; /* revert: @kept are lines whose author is unknown (no journal) */
} SdtConfigEdit;

void sdt_config_edit_free(SdtConfigEdit *edit);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigEdit, sdt_config_edit_free)

SdtConfigEdit *sdt_config_edit_apply(SdtConfigTxt *cfg,
				     const SdtConfigBlock *block,
				     const gchar *const *previous_block,
				     GError **error);
/*
 * Revert is line-precise: a line between the markers goes only when it is
 * byte-identical to a line SD Tuner wrote.  @previous_block is the journal's
 * copy of those lines; without it (NULL) only the lines SD Tuner writes for
 * the block's id (sdt_config_block_template()) count as its own, and any other
 * line is kept because its author is unknown.  Kept lines stay under the
 * block's `[all]`/filter/`dtoverlay=` lines, so their meaning is unchanged.
 */
SdtConfigEdit *
sdt_config_edit_revert(SdtConfigTxt *cfg, const gchar *const *previous_block, GError **error);

/*
 * The lines SD Tuner writes between its markers for recommendation @id under
 * @filter: `[all]`, @filter, `dtoverlay=`, the settings of @id, `[all]`.
 * NULL when @id is not one SD Tuner writes (sd-overclock-N, sd-cqe-N).
 */
gchar **sdt_config_block_template(const gchar *id, const gchar *filter);

/*
 * The one diagnosis of a damaged block (a marker missing or repeated, a line
 * switched off by SD Tuner without its block), shared by status, apply,
 * revert and the app: one translated message that says what is wrong, which
 * SD settings of the block are still in effect and the one way out.  NULL
 * when the block is whole or absent.  @display_path names the file.
 */
gchar *sdt_config_block_diagnose(SdtConfigTxt *cfg, const gchar *display_path);

/* a unified diff with 3 lines of context; "" when the contents are equal */
gchar *sdt_config_diff_unified(const gchar *label, GBytes *old_bytes, GBytes *new_bytes);

/* the file system calls of the writer; each returns like its libc namesake */
typedef struct {
	gint (*open)(const gchar *path, gint flags, mode_t mode, gpointer user_data);
	gssize (*write)(gint fd, const void *buf, gsize count, gpointer user_data);
	gint (*fsync)(gint fd, gpointer user_data);
	gint (*close)(gint fd, gpointer user_data);
	gint (*rename)(const gchar *from, const gchar *to, gpointer user_data);
	gint (*unlink)(const gchar *path, gpointer user_data);
	gpointer user_data;
} SdtConfigWriterIo;

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
/* for tests: a writer on explicit paths */
SdtConfigWriter *sdt_config_writer_new_for_paths(const gchar *config_path,
						 const gchar *display_path,
						 const gchar *state_dir);
void sdt_config_writer_set_io(SdtConfigWriter *self, const SdtConfigWriterIo *io);
const gchar *sdt_config_writer_get_path(SdtConfigWriter *self);
const gchar *sdt_config_writer_get_display_path(SdtConfigWriter *self);

/* reads and parses config.txt (and its includes) with every check of the issue */
SdtConfigTxt *sdt_config_writer_load(SdtConfigWriter *self, GBytes **bytes, GError **error);

/*
 * Result (JSON object): {"id", "path", "diff", "backup", "reboot_required",
 * "changed", "disabled": [...], "warnings": [...]}; for a trial "path" is
 * tryboot.txt and "trial" is true.
 */
JsonObject *sdt_config_writer_apply(SdtConfigWriter *self,
				    const SdtConfigBlock *block,
				    gboolean trial,
				    GError **error);
/*
 * {"id", "path", "diff", "backup", "backup_before_change", "reboot_required",
 * "restored": [...], "kept": [...], "warnings": [...], "trial_cancelled",
 * "tryboot_restored"}: "backup" is a copy of the file as it was just before
 * the revert, or null when none was needed or none could be saved ("warnings"
 * says which); "backup_before_change" is the one taken before the apply.
 * Cancels a pending trial too (tryboot.txt of SD Tuner's removed, or the
 * user's earlier tryboot.txt put back).
 */
JsonObject *sdt_config_writer_revert(SdtConfigWriter *self, GError **error);

/*
 * The journal (`<state>/config-journal.json`): what the last apply wrote.
 * Schema (every member type-checked): version (int, optional), id, path,
 * filter (strings), type_code (int), block, disabled (arrays of strings),
 * backup, sha256_before, sha256_after, time (strings), boot_id (string or
 * null, optional).  Returns NULL with SDT_ERROR_INVALID_DATA for anything else.
 */
JsonObject *sdt_config_journal_parse(const gchar *data, gsize len, GError **error);
/* the trial journal (`<state>/trial-journal.json`) */
JsonObject *sdt_config_trial_journal_parse(const gchar *data, gsize len, GError **error);

/* the journal of the change in place, or NULL (missing or corrupt) */
JsonObject *sdt_config_writer_get_journal(SdtConfigWriter *self);
/*
 * Reads the journal: TRUE with *@journal NULL when there is none, FALSE with
 * @error when it cannot be read or does not match the schema.
 */
gboolean
sdt_config_writer_read_journal(SdtConfigWriter *self, JsonObject **journal, GError **error);
/* the trial journal, same contract */
gboolean
sdt_config_writer_read_trial_journal(SdtConfigWriter *self, JsonObject **journal, GError **error);
/* the boot id of the running system (`<root>/proc/sys/kernel/random/boot_id`), or NULL */
gchar *sdt_config_writer_get_boot_id(SdtConfigWriter *self);
/* the sha256 of config.txt now, or NULL when it cannot be read */
gchar *sdt_config_writer_hash_config(SdtConfigWriter *self);
/*
 * The pending trial: {"id", "path", "reboot_command", "stale", "note"} when
 * tryboot.txt holds SD Tuner's block, else NULL (with @error when tryboot.txt
 * cannot be read).  "stale" is TRUE when config.txt changed since the trial
 * was prepared; "note" then says how to rebuild it.
 */
JsonObject *sdt_config_writer_get_trial(SdtConfigWriter *self, GError **error);
/* the path of tryboot.txt beside config.txt */
gchar *sdt_config_writer_get_tryboot_path(SdtConfigWriter *self);

/* removes temporary files a killed writer left behind; returns how many */
guint sdt_config_writer_cleanup(SdtConfigWriter *self);

G_END_DECLS
