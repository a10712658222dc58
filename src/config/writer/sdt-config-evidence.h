/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-writer.h"

G_BEGIN_DECLS

/* what tells SD Tuner's lines from the user's, for apply and revert */
typedef struct {
	JsonObject *journal; /* validated, and about the block in the file */
	gchar **block;       /* the journal's lines of the block */
	GBytes *backup;      /* the file before the apply, checked against the journal */
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

G_END_DECLS
