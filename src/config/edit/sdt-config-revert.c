/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the pure revert: SD Tuner's block taken out of a model of config.txt, no I/O */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-config-revert.h"
#include "sdt-config-revert-private.h"
#include "sdt-error.h"
#include "sdt-config-block-private.h"

/*
 * Marks in @ours the lines between @begin and @end that are byte-identical to
 * a line of @want, in order (a longest common subsequence, so a line changed
 * by hand does not hide the lines after it).
 */
static void
sdt_config_match_block(GPtrArray *src,
		       guint begin,
		       guint end,
		       const gchar *const *want,
		       gboolean *ours)
{
	guint n = end - begin - 1;
	guint m = g_strv_length((gchar **) want);
	g_autofree guint32 *t = NULL;
	guint i = 0;
	guint j = 0;

	if ((guint64) (n + 1) * (m + 1) > 4 * 1000 * 1000) {
		/* a block grown by hand to thousands of lines: in-order greedy matching */
		for (guint x = 0, k = 0; x < n && k < m; x++) {
			SdtConfigLine *line = g_ptr_array_index(src, begin + 1 + x);
			if (g_strcmp0(line->text, want[k]) == 0) {
				ours[begin + 1 + x] = TRUE;
				k++;
			}
		}
		return;
	}
	t = g_new0(guint32, (gsize) (n + 1) * (m + 1));
	for (guint x = n; x-- > 0;) {
		SdtConfigLine *line = g_ptr_array_index(src, begin + 1 + x);
		for (guint y = m; y-- > 0;) {
			if (g_strcmp0(line->text, want[y]) == 0)
				t[x * (m + 1) + y] = t[(x + 1) * (m + 1) + y + 1] + 1;
			else
				t[x * (m + 1) + y] =
					MAX(t[(x + 1) * (m + 1) + y], t[x * (m + 1) + y + 1]);
		}
	}
	while (i < n && j < m) {
		SdtConfigLine *line = g_ptr_array_index(src, begin + 1 + i);
		if (g_strcmp0(line->text, want[j]) == 0) {
			ours[begin + 1 + i] = TRUE;
			i++;
			j++;
		} else if (t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1]) {
			i++;
		} else {
			j++;
		}
	}
}

/*
 * Marks SD Tuner's lines of the block at [@begin, @end] in @ours: the markers
 * and the lines of @previous_block (or, without it, of the block's template).
 * TRUE when the block holds a line SD Tuner did not write.
 */
static gboolean
sdt_config_revert_mark_block(SdtConfigTxt *cfg,
			     const gchar *const *previous_block,
			     guint begin,
			     guint end,
			     gboolean *ours)
{
	g_auto(GStrv) template = NULL;
	const gchar *const *want = previous_block;
	gboolean foreign = FALSE;

	if (want == NULL) {
		template = sdt_config_block_template_for(cfg, begin, end);
		want = (const gchar *const *) template;
	}
	ours[begin] = TRUE;
	ours[end] = TRUE;
	sdt_config_match_block(sdt_config_txt_get_lines(cfg), begin, end, want, ours);
	for (guint i = begin + 1; i < end; i++) {
		if (!ours[i])
			foreign = TRUE;
	}
	return foreign;
}

/* the warning about the @n_kept lines of @list that stay */
static void
sdt_config_revert_warn_kept(SdtConfigEdit *edit, guint n_kept, const gchar *list, gboolean known)
{
	if (known)
		g_ptr_array_add(edit->warnings,
				g_strdup_printf(ngettext("kept %u line SD Tuner did not write, "
							 "with the block's filter: %s",
							 "kept %u lines SD Tuner did not write, "
							 "with the block's filter: %s",
							 n_kept),
						n_kept,
						list));
	else
		g_ptr_array_add(
			edit->warnings,
			g_strdup_printf(ngettext("SD Tuner has no record of the lines it "
						 "wrote, so it kept %u line it cannot tell "
						 "is its own, with the block's filter: %s",
						 "SD Tuner has no record of the lines it "
						 "wrote, so it kept %u lines it cannot tell "
						 "are its own, with the block's filter: %s",
						 n_kept),
					n_kept,
					list));
}

/*
 * Lines SD Tuner did not write stay, with the block's filter around them: the
 * block's filter and `dtoverlay=` lines are no longer counted as its own.
 */
static void
sdt_config_revert_keep_foreign(GPtrArray *src,
			       guint begin,
			       guint end,
			       gboolean *ours,
			       gboolean known,
			       SdtConfigEdit *edit)
{
	g_autoptr(GString) list = g_string_new(NULL);
	guint n_kept = 0;

	for (guint i = begin + 1; i < end; i++) {
		SdtConfigLine *line = g_ptr_array_index(src, i);
		if (!ours[i]) {
			g_autofree gchar *item = NULL;
			/* Translators: one kept line: its number, then its text */
			item = g_strdup_printf(_("line %u “%s”"), i + 1, line->text);
			g_ptr_array_add(edit->kept, g_strdup_printf("%u: %s", i + 1, line->text));
			if (list->len > 0)
				/* Translators: what goes between the items of a list
				 * (“reducing overclock due to errors”, 3 time-outs); the app
				 * and sdtunerctl split the helper's English list at ", " and
				 * join the translated items with this */
				g_string_append(list, C_("list separator", ", "));
			g_string_append(list, item);
			n_kept++;
		}
		if (ours[i] && (line->kind == SDT_CONFIG_LINE_FILTER ||
				g_strcmp0(line->text, "dtoverlay=") == 0))
			ours[i] = FALSE;
	}
	edit->kept_unknown = !known;
	sdt_config_revert_warn_kept(edit, n_kept, list->str, known);
}

/* the lines not in @ours, with the lines SD Tuner switched off back on */
static GPtrArray *
sdt_config_revert_copy(GPtrArray *src, const gboolean *ours, SdtConfigEdit *edit, gboolean *changed)
{
	GPtrArray *out =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_config_block_line_free);
	const gchar *last_eol = "";
	gboolean removed_last = FALSE;

	if (src->len > 0)
		last_eol = ((SdtConfigLine *) g_ptr_array_index(src, src->len - 1))->eol;
	for (guint i = 0; i < src->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(src, i);
		if (ours[i]) {
			if (i == src->len - 1)
				removed_last = TRUE;
			continue;
		}
		if (g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK)) {
			const gchar *orig = line->text + strlen(SDT_CONFIG_DISABLED_MARK);
			g_ptr_array_add(edit->disabled, g_strdup(orig));
			g_ptr_array_add(out, sdt_config_block_line_new(orig, line->eol));
			*changed = TRUE;
			continue;
		}
		g_ptr_array_add(out, sdt_config_block_line_new(line->text, line->eol));
	}
	/* the block ended a file without a final newline: the line before it ends the file now */
	if (removed_last && last_eol[0] == '\0' && out->len > 0) {
		SdtEditLine *last = g_ptr_array_index(out, out->len - 1);
		g_free(last->eol);
		last->eol = g_strdup(last_eol);
	}
	return out;
}

/* the reverted lines of @cfg; removes SD Tuner's lines and restores disabled lines */
GPtrArray *
sdt_config_revert_lines(SdtConfigTxt *cfg,
			const gchar *const *previous_block,
			SdtConfigEdit *edit,
			gboolean *changed)
{
	GPtrArray *src = sdt_config_txt_get_lines(cfg);
	g_autofree gboolean *ours = g_new0(gboolean, src->len + 1);
	guint begin = 0;
	guint end = 0;

	*changed = FALSE;
	if (sdt_config_sd_find_block(cfg, &begin, &end)) {
		if (sdt_config_revert_mark_block(cfg, previous_block, begin, end, ours))
			sdt_config_revert_keep_foreign(src,
						       begin,
						       end,
						       ours,
						       previous_block != NULL,
						       edit);
		*changed = TRUE;
	}
	return sdt_config_revert_copy(src, ours, edit, changed);
}

SdtConfigEdit *
sdt_config_revert(SdtConfigTxt *cfg, const gchar *const *previous_block, GError **error)
{
	g_autoptr(SdtConfigEdit) edit = sdt_config_block_edit_new();
	g_autoptr(GPtrArray) lines = NULL;
	gboolean changed = FALSE;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (!sdt_config_editable_check(cfg, error))
		return NULL;
	lines = sdt_config_revert_lines(cfg, previous_block, edit, &changed);
	if (!changed) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_NOT_FOUND,
				    _("SD Tuner has no change in this file: nothing to revert"));
		return NULL;
	}
	edit->old_bytes = sdt_config_txt_to_bytes(cfg);
	edit->new_bytes = sdt_config_block_lines_to_bytes(lines);
	return g_steal_pointer(&edit);
}
