/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the pure edit: SD Tuner's block applied to a model of config.txt, no I/O */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-config-edit.h"
#include "sdt-error.h"
#include "sdt-config-block-private.h"
#include "sdt-config-revert-private.h"
#include "sdt-config-txt-private.h"

/* the type codes a filter state reaches, ignoring run-time filters */
static gboolean
sdt_config_state_reach_within(const SdtConfigFilterState *state, const gchar *filter)
{
	guint n = 0;
	const gint *codes = sdt_config_filter_known_type_codes(&n);

	for (guint i = 0; i < n; i++) {
		if (sdt_config_filter_state_applies(state, codes[i], FALSE) ==
			    SDT_CONFIG_APPLIES_NO &&
		    sdt_config_filter_state_applies(state, codes[i], TRUE) == SDT_CONFIG_APPLIES_NO)
			continue;
		if (!sdt_config_filter_model_matches(filter, codes[i]))
			return FALSE;
	}
	return TRUE;
}

/* an SD line of an included file conflicts: SD Tuner never edits included files */
static void
sdt_config_edit_set_include_conflict(const SdtConfigEntry *entry, GError **error)
{
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    _("line %u “%s” of the included file %s sets the same SD "
		      "option for this board, and SD Tuner never edits included "
		      "files: remove that line by hand, then apply again"),
		    entry->lineno,
		    entry->line->text,
		    entry->file);
}

/* a conflicting line that also reaches other boards stays; the warning says why */
static void
sdt_config_edit_warn_wider(SdtConfigEdit *edit, const SdtConfigEntry *entry, SdtConfigSdKind kinds)
{
	if (kinds & SDT_CONFIG_SD_OVERLAY_SDHOST)
		g_ptr_array_add(edit->warnings,
				g_strdup_printf(_("line %u “%s” also applies to other boards, "
						  "so SD Tuner leaves it; the sdhost overlay "
						  "switches off Wi-Fi on Pi 3, Zero W and "
						  "Zero 2 W: remove it by hand"),
						entry->lineno,
						entry->line->text));
	else
		g_ptr_array_add(edit->warnings,
				g_strdup_printf(_("line %u “%s” also applies to other boards, "
						  "so SD Tuner leaves it; on this board the "
						  "block below overrides it"),
						entry->lineno,
						entry->line->text));
}

/* the entry of line @index of the main file, or NULL */
static const SdtConfigEntry *
sdt_config_edit_main_entry(GPtrArray *entries, guint index)
{
	const SdtConfigEntry *found = NULL;

	for (guint k = 0; k < entries->len; k++) {
		const SdtConfigEntry *e = g_ptr_array_index(entries, k);
		if (!e->in_include && e->index == index)
			found = e;
	}
	return found;
}

/* an overlay switched off takes its parameter lines with it */
static void
sdt_config_edit_disable_overlay_params(GPtrArray *lines,
				       GPtrArray *entries,
				       guint index,
				       const gchar *filter_name,
				       gboolean *disable)
{
	for (guint j = index + 1; j < lines->len; j++) {
		SdtConfigLine *next = g_ptr_array_index(lines, j);
		const SdtConfigEntry *next_entry;
		if (next->kind != SDT_CONFIG_LINE_SETTING)
			continue;
		if (g_strcmp0(next->key, "dtoverlay") == 0)
			break;
		if (g_strcmp0(next->key, "dtparam") != 0)
			continue;
		next_entry = sdt_config_edit_main_entry(entries, j);
		if (next_entry != NULL &&
		    sdt_config_state_reach_within(&next_entry->state, filter_name))
			disable[j] = TRUE;
	}
}

/*
 * Marks in @disable the SD lines of @work that conflict with @block and reach
 * only boards its filter reaches; warns about the others.  FALSE when an
 * included file holds a conflict.
 */
static gboolean
sdt_config_edit_mark_conflicts(SdtConfigTxt *work,
			       const SdtConfigBlock *block,
			       const gchar *filter_name,
			       SdtConfigEdit *edit,
			       gboolean *disable,
			       GError **error)
{
	g_autoptr(GPtrArray) entries = sdt_config_entries_get(work, block->type_code, FALSE);
	GPtrArray *lines = sdt_config_txt_get_lines(work);

	for (guint i = 0; i < entries->len; i++) {
		SdtConfigEntry *entry = g_ptr_array_index(entries, i);
		SdtConfigSdKind kinds;
		gint mhz = 0;
		g_autofree gchar *cqe = NULL;

		if (entry->applies == SDT_CONFIG_APPLIES_NO)
			continue;
		kinds = sdt_config_sd_line_kind(entry->line, entry->overlay, &mhz, &cqe);
		if ((kinds & block->replaces) == 0)
			continue;
		if (entry->in_include) {
			sdt_config_edit_set_include_conflict(entry, error);
			return FALSE;
		}
		if (!sdt_config_state_reach_within(&entry->state, filter_name)) {
			sdt_config_edit_warn_wider(edit, entry, kinds);
			continue;
		}
		disable[entry->index] = TRUE;
		if (kinds & (SDT_CONFIG_SD_OVERLAY_SDHOST | SDT_CONFIG_SD_OVERLAY_SDTWEAK))
			sdt_config_edit_disable_overlay_params(lines,
							       entries,
							       entry->index,
							       filter_name,
							       disable);
	}
	return TRUE;
}

/* the lines of @work, those in @disable switched off with SD Tuner's mark */
static GPtrArray *
sdt_config_edit_switch_off(SdtConfigTxt *work,
			   const gboolean *disable,
			   SdtConfigEdit *edit,
			   GError **error)
{
	GPtrArray *lines = sdt_config_txt_get_lines(work);
	g_autoptr(GPtrArray) out =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_config_block_line_free);

	for (guint i = 0; i < lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		g_autofree gchar *text = NULL;
		if (!disable[i]) {
			g_ptr_array_add(out, sdt_config_block_line_new(line->text, line->eol));
			continue;
		}
		text = g_strconcat(SDT_CONFIG_DISABLED_MARK, line->text, NULL);
		if (strlen(text) > SDT_CONFIG_TXT_MAX_LINE_LENGTH) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("line %u “%s” must be switched off, but with SD Tuner's "
				      "marker it would be longer than %d characters: put a "
				      "“#” in front of it by hand, then apply again"),
				    i + 1,
				    line->text,
				    SDT_CONFIG_TXT_MAX_LINE_LENGTH);
			return NULL;
		}
		g_ptr_array_add(edit->disabled, g_strdup(line->text));
		g_ptr_array_add(out, sdt_config_block_line_new(text, line->eol));
	}
	return g_steal_pointer(&out);
}

/* the begin marker and, in @edit->block, the lines between the markers; checked */
static gchar *
sdt_config_edit_block_lines(const SdtConfigBlock *block, SdtConfigEdit *edit, GError **error)
{
	g_autofree gchar *begin_line = g_strdup_printf("%s%s (undo: sdtunerctl revert) ---",
						       SDT_CONFIG_BLOCK_BEGIN,
						       block->id);

	g_ptr_array_add(edit->block, g_strdup("[all]"));
	g_ptr_array_add(edit->block, g_strdup(block->filter));
	g_ptr_array_add(edit->block, g_strdup("dtoverlay="));
	for (guint i = 0; block->lines[i] != NULL; i++)
		g_ptr_array_add(edit->block, g_strdup(block->lines[i]));
	g_ptr_array_add(edit->block, g_strdup("[all]"));
	if (strlen(begin_line) > SDT_CONFIG_TXT_MAX_LINE_LENGTH) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("recommendation id %s is too long"),
			    block->id);
		return NULL;
	}
	for (guint i = 0; i < edit->block->len; i++) {
		const gchar *text = g_ptr_array_index(edit->block, i);
		if (strlen(text) > SDT_CONFIG_TXT_MAX_LINE_LENGTH ||
		    strpbrk(text, "\r\n") != NULL) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("line “%s” is longer than %d characters"),
				    text,
				    SDT_CONFIG_TXT_MAX_LINE_LENGTH);
			return NULL;
		}
	}
	return g_steal_pointer(&begin_line);
}

/* appends the block at the end of @out; a file without a final newline stays so */
static void
sdt_config_edit_append_block(GPtrArray *out,
			     const gchar *begin_line,
			     GPtrArray *block,
			     const gchar *eol)
{
	gboolean no_final_eol = FALSE;

	if (out->len > 0) {
		SdtEditLine *last = g_ptr_array_index(out, out->len - 1);
		if (last->eol[0] == '\0') {
			no_final_eol = TRUE;
			g_free(last->eol);
			last->eol = g_strdup(eol);
		}
	}
	g_ptr_array_add(out, sdt_config_block_line_new(begin_line, eol));
	for (guint i = 0; i < block->len; i++)
		g_ptr_array_add(out, sdt_config_block_line_new(g_ptr_array_index(block, i), eol));
	g_ptr_array_add(out,
			sdt_config_block_line_new(SDT_CONFIG_BLOCK_END, no_final_eol ? "" : eol));
}

/* @cfg without SD Tuner's earlier change: applying twice is applying once */
static SdtConfigTxt *
sdt_config_edit_base(SdtConfigTxt *cfg, const gchar *const *previous_block)
{
	g_autoptr(SdtConfigEdit) scratch = sdt_config_block_edit_new();
	g_autoptr(GPtrArray) base = NULL;
	g_autoptr(GBytes) base_bytes = NULL;
	SdtConfigTxt *work;
	gboolean changed = FALSE;

	base = sdt_config_revert_lines(cfg, previous_block, scratch, &changed);
	base_bytes = sdt_config_block_lines_to_bytes(base);
	work = sdt_config_txt_new_from_bytes(base_bytes, sdt_config_txt_get_name(cfg));
	sdt_config_txt_copy_includes(work, cfg);
	return work;
}

SdtConfigEdit *
sdt_config_edit_apply(SdtConfigTxt *cfg,
		      const SdtConfigBlock *block,
		      const gchar *const *previous_block,
		      GError **error)
{
	g_autoptr(SdtConfigEdit) edit = sdt_config_block_edit_new();
	g_autoptr(SdtConfigTxt) work = NULL;
	g_autoptr(GPtrArray) out = NULL;
	g_autofree gboolean *disable = NULL;
	g_autofree gchar *filter_name = NULL;
	g_autofree gchar *begin_line = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(block != NULL && block->id != NULL && block->lines != NULL, NULL);

	if (!sdt_config_block_filter_valid(block->filter, &filter_name)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("SD Tuner writes only under a model filter, not under %s"),
			    block->filter);
		return NULL;
	}
	if (!sdt_config_editable_check(cfg, error))
		return NULL;
	work = sdt_config_edit_base(cfg, previous_block);
	disable = g_new0(gboolean, sdt_config_txt_get_lines(work)->len + 1);
	if (!sdt_config_edit_mark_conflicts(work, block, filter_name, edit, disable, error))
		return NULL;
	out = sdt_config_edit_switch_off(work, disable, edit, error);
	if (out == NULL)
		return NULL;
	begin_line = sdt_config_edit_block_lines(block, edit, error);
	if (begin_line == NULL)
		return NULL;
	sdt_config_edit_append_block(out,
				     begin_line,
				     edit->block,
				     sdt_config_txt_get_eol_style(work));
	edit->old_bytes = sdt_config_txt_to_bytes(cfg);
	edit->new_bytes = sdt_config_block_lines_to_bytes(out);
	return g_steal_pointer(&edit);
}
