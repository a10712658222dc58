/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-writer.h"

G_BEGIN_DECLS

/*
 * What an apply, a revert and the end of a trial did, as the writer saw it:
 * typed, no JSON (the ops layer composes the replies, sdt-ops-config.h).
 */

/* an apply (sdt_config_apply(), sdt_config_apply_write()) */
typedef struct {
	gchar *id;
	gchar *path;         /* as seen on the Pi: config.txt, or tryboot.txt for a trial */
	gchar *diff;         /* the unified diff of config.txt ("" for none) */
	gchar *backup;       /* the copy of the file before the change; NULL: none */
	gboolean changed;    /* config.txt's bytes changed (a trial changes none) */
	gboolean trial;      /* written into tryboot.txt, for one boot */
	GPtrArray *disabled; /* the user's lines switched off */
	GPtrArray *warnings;
} SdtConfigApplyResult;

void sdt_config_apply_result_free(SdtConfigApplyResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigApplyResult, sdt_config_apply_result_free)

/* a revert (sdt_config_apply_revert()) */
typedef struct {
	gchar *id;                   /* the block's id; NULL: no block (a trial only) */
	gchar *path;                 /* config.txt as seen on the Pi */
	gchar *diff;                 /* "" when config.txt was not touched */
	gchar *backup;               /* config.txt just before the revert; NULL: none */
	gchar *backup_before_change; /* the one taken before the apply; NULL: none */
	gboolean reverted;           /* SD Tuner's block was taken out of config.txt */
	gboolean trial_cancelled;
	gchar *tryboot_backup;   /* a copy of a tryboot.txt edited by hand; NULL: none */
	gchar *tryboot_restored; /* the user's earlier tryboot.txt put back from; NULL: none */
	GPtrArray *restored;     /* the user's lines switched on again */
	GPtrArray *kept;
	GPtrArray *warnings;
} SdtConfigApplyRevert;

void sdt_config_apply_revert_free(SdtConfigApplyRevert *revert);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigApplyRevert, sdt_config_apply_revert_free)

/* the end of a trial (sdt_config_apply_end_trial()) */
typedef struct {
	gboolean trial_cancelled;
	gchar *tryboot_backup;
	gchar *tryboot_restored;
	GPtrArray *warnings;
} SdtConfigApplyTrialEnd;

void sdt_config_apply_trial_end_free(SdtConfigApplyTrialEnd *end);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigApplyTrialEnd, sdt_config_apply_trial_end_free)

/*
 * Checks, locks and reads config.txt, applies @block (into tryboot.txt for a
 * @trial), unlocks.  The verify unit's apply, and the tests'.
 */
SdtConfigApplyResult *sdt_config_apply(SdtConfigWriter *self,
				       const SdtConfigBlock *block,
				       gboolean trial,
				       GError **error);
/*
 * Takes SD Tuner's block out of config.txt and cancels a pending trial too
 * (tryboot.txt of SD Tuner's removed, or the user's earlier tryboot.txt put
 * back).  "backup" is a copy of the file as it was just before the revert,
 * or NULL when none was needed or none could be saved (a warning says which).
 */
SdtConfigApplyRevert *sdt_config_apply_revert(SdtConfigWriter *self, GError **error);
/*
 * Cancels a pending trial only (config.txt is not touched); no trial is no
 * error.  The last step of keeping a trial, after its block is in config.txt.
 */
SdtConfigApplyTrialEnd *sdt_config_apply_end_trial(SdtConfigWriter *self, GError **error);

/*
 * The apply of @block on config.txt as sdt_config_writer_read() read it (@cfg,
 * @old): the bytes the recommendation was computed on are the bytes edited,
 * and the write refuses when config.txt changed since (SDT_ERROR_CONFIG_CHANGED).
 * Reports first what keeps the writer from writing at all (the folder, the
 * lock).  The lock stays held: drop the writer or sdt_config_writer_unlock().
 */
SdtConfigApplyResult *sdt_config_apply_write(SdtConfigWriter *writer,
					     SdtConfigTxt *cfg,
					     GBytes *old,
					     const SdtConfigBlock *block,
					     gboolean trial,
					     GError **error);

G_END_DECLS
