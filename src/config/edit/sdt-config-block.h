/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-txt.h"

G_BEGIN_DECLS

/* SD Tuner's block (see sdt-config-edit.h) and the result of an edit */

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

void sdt_config_block_edit_free(SdtConfigEdit *edit);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigEdit, sdt_config_block_edit_free)

/* the edited lines of a file, shared by the apply and the revert */
typedef struct {
	gchar *text;
	gchar *eol;
} SdtEditLine;

/* TRUE when @filter is one model filter line, e.g. "[pi4]"; @name: (out): its name */
gboolean sdt_config_block_filter_valid(const gchar *filter, gchar **name);

/*
 * The lines SD Tuner writes between its markers for recommendation @id under
 * @filter: `[all]`, @filter, `dtoverlay=`, the settings of @id, `[all]`.
 * NULL when @id is not one SD Tuner writes (sd-overclock-N, sd-cqe-N).
 */
gchar **sdt_config_block_template(const gchar *id, const gchar *filter);
/*
 * Without a journal: the lines SD Tuner writes for the id in the begin marker
 * of the block at lines [@begin, @end] of @cfg (only the frame for an id SD
 * Tuner does not write).
 */
gchar **sdt_config_block_template_for(SdtConfigTxt *cfg, guint begin, guint end);

G_END_DECLS
