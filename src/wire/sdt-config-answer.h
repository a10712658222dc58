/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The answers of a change to config.txt: `apply --json` (the helper's Apply)
 * and `revert --json` (Revert), DESIGN.md; two shapes, a C type each.  The ops
 * layer fills them from the config writer's results and writes them with
 * *_to_string(); the CLI and the app read them back with *_parse().
 *
 * A member of the wrong type is SDT_ERROR_INVALID_DATA naming it; an absent or
 * null string is NULL; the flags read as their defaults below when absent.
 */

typedef struct {
	gchar *path;           /* config.txt, or tryboot.txt for a trial */
	gboolean trial;        /* "trial" and "reboot_command" are written when TRUE */
	gchar *reboot_command; /* how to boot tryboot.txt once */
	gchar *id;
	gchar *diff;              /* unified diff ("" for none) */
	gchar *backup;            /* the copy before the change; NULL (null): none */
	gboolean reboot_required; /* absent: TRUE */
	gboolean changed;         /* absent: TRUE */
	/* the user's lines switched off, and warnings; NULL (absent) only in the
	 * answer of an apply that found its block in place, which starts with "id" */
	GPtrArray *disabled;
	GPtrArray *warnings;
} SdtConfigAnswerApply;

/* an answer with no member said: NULL strings and lists, the flags TRUE, not a trial */
SdtConfigAnswerApply *sdt_config_answer_apply_new(void);
void sdt_config_answer_apply_free(SdtConfigAnswerApply *answer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigAnswerApply, sdt_config_answer_apply_free)

JsonNode *sdt_config_answer_apply_to_json(const SdtConfigAnswerApply *answer);
/* the text as `sdtunerctl apply --json` prints it (indented, valid UTF-8) */
gchar *sdt_config_answer_apply_to_string(const SdtConfigAnswerApply *answer);
SdtConfigAnswerApply *sdt_config_answer_apply_parse(const gchar *text, GError **error);

typedef struct {
	/* a trial cancelled: the copy of a tryboot.txt edited by hand, the user's
	 * earlier tryboot.txt put back from; NULL: not written */
	gchar *tryboot_backup;
	gchar *tryboot_restored;
	gchar *id;   /* the block's id; NULL (null): no block (a trial only) */
	gchar *path; /* config.txt */
	gchar *diff; /* "" when config.txt was not touched */
	gchar *backup;
	gchar *backup_before_change;
	gboolean reboot_required; /* absent: TRUE */
	gboolean trial_cancelled; /* absent: FALSE */
	GPtrArray *restored;      /* of gchar*: the user's lines switched on again */
	GPtrArray *kept;
	GPtrArray *warnings;
} SdtConfigAnswerRevert;

/* an answer with no member said: NULL strings, empty lists, a reboot required */
SdtConfigAnswerRevert *sdt_config_answer_revert_new(void);
void sdt_config_answer_revert_free(SdtConfigAnswerRevert *answer);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigAnswerRevert, sdt_config_answer_revert_free)

JsonNode *sdt_config_answer_revert_to_json(const SdtConfigAnswerRevert *answer);
/* the text as `sdtunerctl revert --json` prints it (indented, valid UTF-8) */
gchar *sdt_config_answer_revert_to_string(const SdtConfigAnswerRevert *answer);
SdtConfigAnswerRevert *sdt_config_answer_revert_parse(const gchar *text, GError **error);

G_END_DECLS
