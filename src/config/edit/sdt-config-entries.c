/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the lines as the firmware meets them: includes inlined, filters and overlay scope applied */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-config-txt.h"
#include "sdt-config-txt-private.h"
#include "sdt-error.h"

/* @filter is the line's own string: the state lives as long as the model */
static void
sdt_config_filter_state_update(SdtConfigFilterState *state, const gchar *filter)
{
	SdtConfigFilterType type = SDT_CONFIG_FILTER_UNKNOWN;

	if (!sdt_config_filter_parse(filter, &type)) {
		memset(state, 0, sizeof(*state));
		return;
	}
	state->active[type] = filter;
}

typedef struct {
	GPtrArray *entries; /* NULL: only count */
	SdtConfigFilterState state;
	const gchar *overlay;
	gint type_code;
	gboolean tryboot;
	GPtrArray *stack;   /* file names being walked, to cut include cycles */
	SdtConfigTxt *root; /* the main file: holds the included files */
	guint n_lines;      /* lines met so far, each include counted every time */
	guint n_includes;   /* include lines followed so far */
	gboolean over_budget;
} SdtConfigWalk;

/* the file an include line of @self names, or NULL when it is not attached */
static SdtConfigTxt *
sdt_config_txt_lookup_include(SdtConfigTxt *self, SdtConfigTxt *root, const gchar *name)
{
	SdtConfigTxt *inc = sdt_config_txt_get_include(self, name);
	if (inc == NULL && root != NULL)
		inc = sdt_config_txt_get_include(root, name);
	return inc;
}

/* the entry of one line, with the filter state and overlay scope it meets */
static void
sdt_config_txt_walk_add(SdtConfigTxt *self,
			SdtConfigWalk *walk,
			SdtConfigLine *line,
			guint i,
			gboolean in_include,
			guint main_index)
{
	SdtConfigEntry *entry = g_new0(SdtConfigEntry, 1);

	if (line->kind == SDT_CONFIG_LINE_FILTER)
		sdt_config_filter_state_update(&walk->state, line->filter);
	entry->line = line;
	entry->file = sdt_config_txt_get_name(self);
	entry->lineno = i + 1;
	entry->in_include = in_include;
	entry->index = in_include ? main_index : i;
	entry->state = walk->state;
	entry->applies =
		sdt_config_filter_state_applies(&walk->state, walk->type_code, walk->tryboot);
	/* names point into the model's lines: nothing user-controlled is interned */
	if (line->overlay != NULL && entry->applies != SDT_CONFIG_APPLIES_NO)
		walk->overlay = line->overlay[0] == '\0' ? NULL : line->overlay;
	entry->overlay = walk->overlay;
	g_ptr_array_add(walk->entries, entry);
}

static void
sdt_config_txt_walk(SdtConfigTxt *self, SdtConfigWalk *walk, gboolean in_include, guint main_index)
{
	g_ptr_array_add(walk->stack, (gpointer) sdt_config_txt_get_name(self));
	for (guint i = 0; i < sdt_config_txt_get_lines(self)->len && !walk->over_budget; i++) {
		SdtConfigLine *line = g_ptr_array_index(sdt_config_txt_get_lines(self), i);
		SdtConfigTxt *inc;
		gboolean cycle = FALSE;

		/* the budget bounds the work whatever the include lines say (the main
		 * file is bounded by its size); a model loaded by
		 * sdt_config_includes_load() never reaches it */
		if (in_include && ++walk->n_lines > SDT_CONFIG_TXT_MAX_WALK_LINES) {
			walk->over_budget = TRUE;
			break;
		}
		if (walk->entries != NULL)
			sdt_config_txt_walk_add(self, walk, line, i, in_include, main_index);
		if (line->kind != SDT_CONFIG_LINE_INCLUDE)
			continue;
		inc = sdt_config_txt_lookup_include(self, walk->root, line->value);
		for (guint j = 0; j < walk->stack->len; j++)
			cycle |= g_strcmp0(g_ptr_array_index(walk->stack, j), line->value) == 0;
		if (inc == NULL || cycle || walk->stack->len >= SDT_CONFIG_TXT_MAX_INCLUDE_DEPTH)
			continue;
		if (++walk->n_includes > SDT_CONFIG_TXT_MAX_WALK_INCLUDES) {
			walk->over_budget = TRUE;
			break;
		}
		sdt_config_txt_walk(inc, walk, TRUE, in_include ? main_index : i);
	}
	g_ptr_array_remove_index(walk->stack, walk->stack->len - 1);
}

/**
 * sdt_config_entries_get:
 * @type_code: the board's revision-code type, or %SDT_CONFIG_TYPE_CODE_NONE
 * @tryboot: evaluate as booted with the tryboot flag
 *
 * Returns: (transfer container) (element-type SdtConfigEntry): every line of the
 * file and of its attached includes, in the order the firmware reads them
 */
GPtrArray *
sdt_config_entries_get(SdtConfigTxt *self, gint type_code, gboolean tryboot)
{
	SdtConfigWalk walk = {NULL};
	g_autoptr(GPtrArray) stack = g_ptr_array_new();

	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), NULL);
	walk.entries = g_ptr_array_new_with_free_func(g_free);
	walk.type_code = type_code;
	walk.tryboot = tryboot;
	walk.stack = stack;
	walk.root = self;
	sdt_config_txt_walk(self, &walk, FALSE, 0);
	return walk.entries;
}

/**
 * sdt_config_entries_check_include_budget:
 *
 * Checks that reading the file with its attached includes in place stays
 * within %SDT_CONFIG_TXT_MAX_WALK_LINES lines and
 * %SDT_CONFIG_TXT_MAX_WALK_INCLUDES followed include lines.  The count stops
 * as soon as a budget is exceeded, so the check itself is bounded.
 */
gboolean
sdt_config_entries_check_include_budget(SdtConfigTxt *self, GError **error)
{
	SdtConfigWalk walk = {NULL};
	g_autoptr(GPtrArray) stack = g_ptr_array_new();

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), FALSE);

	walk.stack = stack;
	walk.root = self;
	sdt_config_txt_walk(self, &walk, FALSE, 0);
	if (!walk.over_budget)
		return TRUE;
	if (walk.n_lines > SDT_CONFIG_TXT_MAX_WALK_LINES)
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    ngettext("the files included from config.txt add up to more than "
				     "%u line when every include line is read in place (an "
				     "include line inside an included file reads that file "
				     "again each time): remove the nested include lines by hand",
				     "the files included from config.txt add up to more than "
				     "%u lines when every include line is read in place (an "
				     "include line inside an included file reads that file "
				     "again each time): remove the nested include lines by hand",
				     SDT_CONFIG_TXT_MAX_WALK_LINES),
			    (guint) SDT_CONFIG_TXT_MAX_WALK_LINES);
	else
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    ngettext("config.txt and its included files follow more than %u "
				     "include line (an include line inside an included file "
				     "reads that file again each time): remove the nested "
				     "include lines by hand",
				     "config.txt and its included files follow more than %u "
				     "include lines (an include line inside an included file "
				     "reads that file again each time): remove the nested "
				     "include lines by hand",
				     SDT_CONFIG_TXT_MAX_WALK_INCLUDES),
			    (guint) SDT_CONFIG_TXT_MAX_WALK_INCLUDES);
	return FALSE;
}

GPtrArray *
sdt_config_entries_lines_in_effect(SdtConfigTxt *self, gint type_code)
{
	g_autoptr(GPtrArray) all = sdt_config_entries_get(self, type_code, FALSE);
	GPtrArray *result = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; i < all->len; i++) {
		SdtConfigEntry *entry = g_ptr_array_index(all, i);
		SdtConfigLineKind kind = entry->line->kind;
		if (entry->applies == SDT_CONFIG_APPLIES_NO)
			continue;
		if (kind != SDT_CONFIG_LINE_SETTING && kind != SDT_CONFIG_LINE_INCLUDE &&
		    kind != SDT_CONFIG_LINE_DIRECTIVE)
			continue;
		g_ptr_array_add(result, g_memdup2(entry, sizeof(*entry)));
	}
	return result;
}

const gchar *
sdt_config_entries_get_value(SdtConfigTxt *self, const gchar *key, gint type_code)
{
	g_autoptr(GPtrArray) lines = sdt_config_entries_lines_in_effect(self, type_code);
	const gchar *value = NULL;

	for (guint i = 0; i < lines->len; i++) {
		SdtConfigEntry *entry = g_ptr_array_index(lines, i);
		if (entry->applies == SDT_CONFIG_APPLIES_YES &&
		    entry->line->kind == SDT_CONFIG_LINE_SETTING &&
		    g_strcmp0(entry->line->key, key) == 0)
			value = entry->line->value;
	}
	return value;
}
