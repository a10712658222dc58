/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-config-writer.h"
#include "sdt-error.h"
#include "sdt-file.h"

#define SDT_CONFIG_TMP_INFIX ".sd-tuner-tmp-"
#define SDT_CONFIG_JOURNAL   "config-journal.json"
#define SDT_TRIAL_JOURNAL    "trial-journal.json"

/* the pure edit ----------------------------------------------------------- */

typedef struct {
	gchar *text;
	gchar *eol;
} SdtEditLine;

static void
sdt_edit_line_free(SdtEditLine *line)
{
	g_free(line->text);
	g_free(line->eol);
	g_free(line);
}

static SdtEditLine *
sdt_edit_line_new(const gchar *text, const gchar *eol)
{
	SdtEditLine *line = g_new0(SdtEditLine, 1);
	line->text = g_strdup(text);
	line->eol = g_strdup(eol);
	return line;
}

void
sdt_config_edit_free(SdtConfigEdit *edit)
{
	if (edit == NULL)
		return;
	g_clear_pointer(&edit->old_bytes, g_bytes_unref);
	g_clear_pointer(&edit->new_bytes, g_bytes_unref);
	g_clear_pointer(&edit->disabled, g_ptr_array_unref);
	g_clear_pointer(&edit->warnings, g_ptr_array_unref);
	g_clear_pointer(&edit->block, g_ptr_array_unref);
	g_clear_pointer(&edit->kept, g_ptr_array_unref);
	g_free(edit);
}

static SdtConfigEdit *
sdt_config_edit_new(void)
{
	SdtConfigEdit *edit = g_new0(SdtConfigEdit, 1);
	edit->disabled = g_ptr_array_new_with_free_func(g_free);
	edit->warnings = g_ptr_array_new_with_free_func(g_free);
	edit->block = g_ptr_array_new_with_free_func(g_free);
	edit->kept = g_ptr_array_new_with_free_func(g_free);
	return edit;
}

static GBytes *
sdt_edit_lines_to_bytes(GPtrArray *lines)
{
	GString *str = g_string_new(NULL);
	for (guint i = 0; i < lines->len; i++) {
		SdtEditLine *line = g_ptr_array_index(lines, i);
		g_string_append(str, line->text);
		g_string_append(str, line->eol);
	}
	return g_string_free_to_bytes(str);
}

gchar **
sdt_config_block_template(const gchar *id, const gchar *filter)
{
	g_autoptr(GPtrArray) lines = NULL;
	const gchar *num;
	const gchar *key;

	if (id == NULL)
		return NULL;
	if (g_str_has_prefix(id, "sd-overclock-")) {
		num = id + strlen("sd-overclock-");
		key = "dtparam=sd_overclock=";
	} else if (g_str_has_prefix(id, "sd-cqe-")) {
		num = id + strlen("sd-cqe-");
		key = "dtparam=sd_cqe=";
	} else {
		return NULL;
	}
	if (num[0] == '\0' || strlen(num) > 3 || strspn(num, "0123456789") != strlen(num))
		return NULL;
	lines = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(lines, g_strdup("[all]"));
	if (filter != NULL)
		g_ptr_array_add(lines, g_strdup(filter));
	g_ptr_array_add(lines, g_strdup("dtoverlay="));
	g_ptr_array_add(lines, g_strconcat(key, num, NULL));
	g_ptr_array_add(lines, g_strdup("[all]"));
	g_ptr_array_add(lines, NULL);
	return (gchar **) g_ptr_array_free(g_steal_pointer(&lines), FALSE);
}

/* without a journal: the lines SD Tuner writes for the id in the begin marker */
static gchar **
sdt_config_block_template_for(SdtConfigTxt *cfg, guint begin, guint end)
{
	GPtrArray *src = sdt_config_txt_get_lines(cfg);
	g_autofree gchar *id = sdt_config_txt_get_block_id(cfg);
	const gchar *filter = NULL;
	gchar **template;

	for (guint i = begin + 1; i < end && filter == NULL; i++) {
		SdtConfigLine *line = g_ptr_array_index(src, i);
		if (line->kind == SDT_CONFIG_LINE_FILTER && g_strcmp0(line->filter, "all") != 0)
			filter = line->text;
	}
	template = sdt_config_block_template(id, filter);
	if (template == NULL) {
		/* an id SD Tuner does not write: only the frame is known to be its own */
		GPtrArray *lines = g_ptr_array_new_with_free_func(g_free);
		g_ptr_array_add(lines, g_strdup("[all]"));
		if (filter != NULL)
			g_ptr_array_add(lines, g_strdup(filter));
		g_ptr_array_add(lines, g_strdup("dtoverlay="));
		g_ptr_array_add(lines, g_strdup("[all]"));
		g_ptr_array_add(lines, NULL);
		template = (gchar **) g_ptr_array_free(lines, FALSE);
	}
	return template;
}

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

/* the reverted lines of @cfg; removes SD Tuner's lines and restores disabled lines */
static GPtrArray *
sdt_config_edit_revert_lines(SdtConfigTxt *cfg,
			     const gchar *const *previous_block,
			     SdtConfigEdit *edit,
			     gboolean *changed)
{
	GPtrArray *src = sdt_config_txt_get_lines(cfg);
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_edit_line_free);
	guint begin = 0;
	guint end = 0;
	gboolean has_block = sdt_config_txt_find_block(cfg, &begin, &end);
	g_autofree gboolean *ours = g_new0(gboolean, src->len + 1);
	gboolean foreign = FALSE;
	gboolean removed_last = FALSE;
	const gchar *last_eol = "";

	*changed = FALSE;
	if (src->len > 0)
		last_eol = ((SdtConfigLine *) g_ptr_array_index(src, src->len - 1))->eol;
	if (has_block) {
		g_auto(GStrv) template = NULL;
		const gchar *const *want = previous_block;

		if (want == NULL) {
			template = sdt_config_block_template_for(cfg, begin, end);
			want = (const gchar *const *) template;
		}
		ours[begin] = TRUE;
		ours[end] = TRUE;
		sdt_config_match_block(src, begin, end, want, ours);
		for (guint i = begin + 1; i < end; i++) {
			if (!ours[i])
				foreign = TRUE;
		}
		/* lines SD Tuner did not write stay, with the block's filter around them */
		if (foreign) {
			g_autoptr(GString) list = g_string_new(NULL);
			guint n_kept = 0;
			for (guint i = begin + 1; i < end; i++) {
				SdtConfigLine *line = g_ptr_array_index(src, i);
				if (!ours[i]) {
					g_autofree gchar *item = NULL;
					/* Translators: one kept line: its number, then its text */
					item = g_strdup_printf(_("line %u “%s”"),
							       i + 1,
							       line->text);
					g_ptr_array_add(
						edit->kept,
						g_strdup_printf("%u: %s", i + 1, line->text));
					if (list->len > 0)
						g_string_append(list, ", ");
					g_string_append(list, item);
					n_kept++;
				}
				if (ours[i] && (line->kind == SDT_CONFIG_LINE_FILTER ||
						g_strcmp0(line->text, "dtoverlay=") == 0))
					ours[i] = FALSE;
			}
			edit->kept_unknown = previous_block == NULL;
			if (previous_block != NULL)
				g_ptr_array_add(
					edit->warnings,
					g_strdup_printf(
						ngettext("kept %u line SD Tuner did not write, "
							 "with the block's filter: %s",
							 "kept %u lines SD Tuner did not write, "
							 "with the block's filter: %s",
							 n_kept),
						n_kept,
						list->str));
			else
				g_ptr_array_add(
					edit->warnings,
					g_strdup_printf(
						ngettext(
							"SD Tuner has no record of the lines it "
							"wrote, so it kept %u line it cannot tell "
							"is its own, with the block's filter: %s",
							"SD Tuner has no record of the lines it "
							"wrote, so it kept %u lines it cannot tell "
							"are its own, with the block's filter: %s",
							n_kept),
						n_kept,
						list->str));
		}
		*changed = TRUE;
	}
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
			g_ptr_array_add(out, sdt_edit_line_new(orig, line->eol));
			*changed = TRUE;
			continue;
		}
		g_ptr_array_add(out, sdt_edit_line_new(line->text, line->eol));
	}
	/* the block ended a file without a final newline: the line before it ends the file now */
	if (removed_last && last_eol[0] == '\0' && out->len > 0) {
		SdtEditLine *last = g_ptr_array_index(out, out->len - 1);
		g_free(last->eol);
		last->eol = g_strdup(last_eol);
	}
	return out;
}

SdtConfigEdit *
sdt_config_edit_revert(SdtConfigTxt *cfg, const gchar *const *previous_block, GError **error)
{
	g_autoptr(SdtConfigEdit) edit = sdt_config_edit_new();
	g_autoptr(GPtrArray) lines = NULL;
	gboolean changed = FALSE;

	if (!sdt_config_txt_check_editable(cfg, error))
		return NULL;
	lines = sdt_config_edit_revert_lines(cfg, previous_block, edit, &changed);
	if (!changed) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_NOT_FOUND,
				    _("SD Tuner has no change in this file: nothing to revert"));
		return NULL;
	}
	edit->old_bytes = sdt_config_txt_to_bytes(cfg);
	edit->new_bytes = sdt_edit_lines_to_bytes(lines);
	return g_steal_pointer(&edit);
}

/* the SD settings at lines [@from, @to) of @cfg, as "line N “text”", or NULL */
static gchar *
sdt_config_sd_lines_between(SdtConfigTxt *cfg, guint from, guint to)
{
	GPtrArray *lines = sdt_config_txt_get_lines(cfg);
	g_autoptr(GString) list = g_string_new(NULL);

	for (guint i = from; i < to && i < lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		g_autofree gchar *item = NULL;
		g_autofree gchar *cqe = NULL;
		gint mhz = 0;
		if (line->kind != SDT_CONFIG_LINE_SETTING ||
		    sdt_config_line_sd_kind(line, NULL, &mhz, &cqe) == SDT_CONFIG_SD_NONE)
			continue;
		item = g_strdup_printf(_("line %u “%s”"), i + 1, line->text);
		if (list->len > 0)
			g_string_append(list, ", ");
		g_string_append(list, item);
	}
	return list->len > 0 ? g_strdup(list->str) : NULL;
}

gchar *
sdt_config_block_diagnose(SdtConfigTxt *cfg, const gchar *display_path)
{
	GPtrArray *lines = sdt_config_txt_get_lines(cfg);
	guint n_begin = 0;
	guint n_end = 0;
	guint first_begin = 0;
	guint first_end = 0;
	guint second = 0;
	guint first_disabled = 0;
	g_autofree gchar *what = NULL;
	g_autofree gchar *in_effect = NULL;

	for (guint i = 0; i < lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN)) {
			if (n_begin == 0)
				first_begin = i + 1;
			else if (second == 0)
				second = i + 1;
			n_begin++;
		} else if (g_strcmp0(line->text, SDT_CONFIG_BLOCK_END) == 0) {
			if (n_end == 0)
				first_end = i + 1;
			else if (second == 0)
				second = i + 1;
			n_end++;
		} else if (first_disabled == 0 &&
			   g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK)) {
			first_disabled = i + 1;
		}
	}
	if (n_begin == 1 && n_end == 1 && first_begin < first_end)
		return NULL;
	if (n_begin == 0 && n_end == 0) {
		if (first_disabled == 0)
			return NULL;
		return g_strdup_printf(
			_("SD Tuner's block in %s has been removed by hand, but line %u is still "
			  "switched off by SD Tuner (it starts with “%s”). Delete that marker "
			  "to switch the line back on, or delete the line."),
			display_path,
			first_disabled,
			SDT_CONFIG_DISABLED_MARK);
	}
	if (n_begin > 1 || n_end > 1) {
		what = g_strdup_printf(
			_("SD Tuner's block in %s is damaged: a marker line is repeated on line "
			  "%u, "
			  "so SD Tuner cannot tell which lines are its own and changes nothing. "
			  "Delete the repeated marker and anything SD Tuner wrote twice by hand, "
			  "keeping one “%s” and one “%s” line, then run “sdtunerctl revert”."),
			display_path,
			second,
			SDT_CONFIG_BLOCK_BEGIN "…",
			SDT_CONFIG_BLOCK_END);
		in_effect =
			sdt_config_sd_lines_between(cfg, MIN(first_begin, first_end), lines->len);
	} else if (n_begin == 1) {
		/* the end marker is missing (or stands above the begin marker) */
		what = g_strdup_printf(
			_("SD Tuner's block in %s is damaged: the end marker “%s” after line %u is "
			  "missing, so SD Tuner cannot tell where its lines end and changes "
			  "nothing. Put that line back right after the block's closing “[all]”, "
			  "then run “sdtunerctl revert”."),
			display_path,
			SDT_CONFIG_BLOCK_END,
			first_begin);
		in_effect = sdt_config_sd_lines_between(cfg, first_begin, lines->len);
	} else {
		what = g_strdup_printf(
			_("SD Tuner's block in %s is damaged: the begin marker before the end "
			  "marker "
			  "on line %u is missing, so SD Tuner cannot tell where its lines start "
			  "and "
			  "changes nothing. Delete the lines SD Tuner wrote above line %u and that "
			  "line by hand."),
			display_path,
			first_end,
			first_end);
		in_effect = sdt_config_sd_lines_between(cfg,
							first_end > 10 ? first_end - 10 : 0,
							first_end - 1);
	}
	if (in_effect != NULL) {
		g_autofree gchar *extra =
			g_strdup_printf(_("These SD settings may still be in effect: %s."),
					in_effect);
		return g_strconcat(what, " ", extra, NULL);
	}
	return g_steal_pointer(&what);
}

/* the type codes a filter state reaches, ignoring run-time filters */
static gboolean
sdt_config_state_reach_within(const SdtConfigFilterState *state, const gchar *filter)
{
	guint n = 0;
	const gint *codes = sdt_config_known_type_codes(&n);

	for (guint i = 0; i < n; i++) {
		if (sdt_config_filter_state_applies(state, codes[i], FALSE) ==
			    SDT_CONFIG_APPLIES_NO &&
		    sdt_config_filter_state_applies(state, codes[i], TRUE) == SDT_CONFIG_APPLIES_NO)
			continue;
		if (!sdt_config_model_filter_matches(filter, codes[i]))
			return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_config_block_filter_valid(const gchar *filter, gchar **name)
{
	SdtConfigFilterType type = SDT_CONFIG_FILTER_UNKNOWN;
	gsize len = filter != NULL ? strlen(filter) : 0;

	if (len < 3 || filter[0] != '[' || filter[len - 1] != ']')
		return FALSE;
	*name = g_strndup(filter + 1, len - 2);
	if (!sdt_config_filter_parse(*name, &type) || type != SDT_CONFIG_FILTER_MODEL)
		return FALSE;
	return TRUE;
}

SdtConfigEdit *
sdt_config_edit_apply(SdtConfigTxt *cfg,
		      const SdtConfigBlock *block,
		      const gchar *const *previous_block,
		      GError **error)
{
	g_autoptr(SdtConfigEdit) edit = sdt_config_edit_new();
	g_autoptr(SdtConfigEdit) scratch = sdt_config_edit_new();
	g_autoptr(GPtrArray) base = NULL;
	g_autoptr(GBytes) base_bytes = NULL;
	g_autoptr(SdtConfigTxt) work = NULL;
	g_autoptr(GPtrArray) entries = NULL;
	g_autoptr(GPtrArray) out = NULL;
	g_autofree gboolean *disable = NULL;
	g_autofree gchar *filter_name = NULL;
	g_autofree gchar *begin_line = NULL;
	GPtrArray *lines;
	const gchar *eol;
	gboolean changed = FALSE;
	guint nlines;

	g_return_val_if_fail(block != NULL && block->id != NULL && block->lines != NULL, NULL);
	if (!sdt_config_block_filter_valid(block->filter, &filter_name)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    "SD Tuner writes only under a model filter, not under %s",
			    block->filter);
		return NULL;
	}
	if (!sdt_config_txt_check_editable(cfg, error))
		return NULL;

	/* start from the file without SD Tuner's earlier change: applying twice is applying once */
	base = sdt_config_edit_revert_lines(cfg, previous_block, scratch, &changed);
	base_bytes = sdt_edit_lines_to_bytes(base);
	work = sdt_config_txt_new_from_bytes(base_bytes, sdt_config_txt_get_name(cfg));
	sdt_config_txt_copy_includes(work, cfg);
	lines = sdt_config_txt_get_lines(work);
	nlines = lines->len;
	disable = g_new0(gboolean, nlines + 1);
	eol = sdt_config_txt_get_eol_style(work);

	/* conflicting SD lines */
	entries = sdt_config_txt_get_entries(work, block->type_code, FALSE);
	for (guint i = 0; i < entries->len; i++) {
		SdtConfigEntry *entry = g_ptr_array_index(entries, i);
		SdtConfigSdKind kinds;
		gint mhz = 0;
		g_autofree gchar *cqe = NULL;

		if (entry->applies == SDT_CONFIG_APPLIES_NO)
			continue;
		kinds = sdt_config_line_sd_kind(entry->line, entry->overlay, &mhz, &cqe);
		if ((kinds & block->replaces) == 0)
			continue;
		if (entry->in_include) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("line %u “%s” of the included file %s sets the same SD "
				      "option for this board, and SD Tuner never edits included "
				      "files: remove that line by hand, then apply again"),
				    entry->lineno,
				    entry->line->text,
				    entry->file);
			return NULL;
		}
		if (!sdt_config_state_reach_within(&entry->state, filter_name)) {
			if (kinds & SDT_CONFIG_SD_OVERLAY_SDHOST)
				g_ptr_array_add(
					edit->warnings,
					g_strdup_printf(
						_("line %u “%s” also applies to other boards, "
						  "so SD Tuner leaves it; the sdhost overlay "
						  "switches off Wi-Fi on Pi 3, Zero W and "
						  "Zero 2 W: remove it by hand"),
						entry->lineno,
						entry->line->text));
			else
				g_ptr_array_add(
					edit->warnings,
					g_strdup_printf(
						_("line %u “%s” also applies to other boards, "
						  "so SD Tuner leaves it; on this board the "
						  "block below overrides it"),
						entry->lineno,
						entry->line->text));
			continue;
		}
		disable[entry->index] = TRUE;

		/* an overlay switched off takes its parameter lines with it */
		if (kinds & (SDT_CONFIG_SD_OVERLAY_SDHOST | SDT_CONFIG_SD_OVERLAY_SDTWEAK)) {
			for (guint j = entry->index + 1; j < nlines; j++) {
				SdtConfigLine *next = g_ptr_array_index(lines, j);
				SdtConfigEntry *next_entry = NULL;
				if (next->kind != SDT_CONFIG_LINE_SETTING)
					continue;
				if (g_strcmp0(next->key, "dtoverlay") == 0)
					break;
				if (g_strcmp0(next->key, "dtparam") != 0)
					continue;
				for (guint k = 0; k < entries->len; k++) {
					SdtConfigEntry *e = g_ptr_array_index(entries, k);
					if (!e->in_include && e->index == j)
						next_entry = e;
				}
				if (next_entry != NULL &&
				    sdt_config_state_reach_within(&next_entry->state, filter_name))
					disable[j] = TRUE;
			}
		}
	}

	out = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_edit_line_free);
	for (guint i = 0; i < nlines; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (disable[i]) {
			g_autofree gchar *text =
				g_strconcat(SDT_CONFIG_DISABLED_MARK, line->text, NULL);
			if (strlen(text) > SDT_CONFIG_TXT_MAX_LINE_LENGTH) {
				g_set_error(
					error,
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
			g_ptr_array_add(out, sdt_edit_line_new(text, line->eol));
		} else {
			g_ptr_array_add(out, sdt_edit_line_new(line->text, line->eol));
		}
	}

	/* the block */
	begin_line = g_strdup_printf("%s%s (undo: sdtunerctl revert) ---",
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
			    "recommendation id %s is too long",
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
				    "line “%s” is longer than %d characters",
				    text,
				    SDT_CONFIG_TXT_MAX_LINE_LENGTH);
			return NULL;
		}
	}
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
		g_ptr_array_add(out, sdt_edit_line_new(begin_line, eol));
		for (guint i = 0; i < edit->block->len; i++)
			g_ptr_array_add(out,
					sdt_edit_line_new(g_ptr_array_index(edit->block, i), eol));
		g_ptr_array_add(out,
				sdt_edit_line_new(SDT_CONFIG_BLOCK_END, no_final_eol ? "" : eol));
	}

	edit->old_bytes = sdt_config_txt_to_bytes(cfg);
	edit->new_bytes = sdt_edit_lines_to_bytes(out);
	return g_steal_pointer(&edit);
}

/* unified diff ------------------------------------------------------------ */

typedef struct {
	const gchar *text;
	gsize len; /* text + eol */
	gboolean no_eol;
} SdtDiffLine;

static GArray *
sdt_diff_split(GBytes *bytes)
{
	GArray *lines = g_array_new(FALSE, FALSE, sizeof(SdtDiffLine));
	gsize len = 0;
	const gchar *data = g_bytes_get_data(bytes, &len);
	gsize start = 0;

	while (start < len) {
		const gchar *nl = memchr(data + start, '\n', len - start);
		SdtDiffLine line = {data + start, 0, FALSE};
		if (nl == NULL) {
			line.len = len - start;
			line.no_eol = TRUE;
			start = len;
		} else {
			line.len = nl - (data + start) + 1;
			start += line.len;
		}
		g_array_append_val(lines, line);
	}
	return lines;
}

static gboolean
sdt_diff_line_equal(const SdtDiffLine *a, const SdtDiffLine *b)
{
	return a->len == b->len && memcmp(a->text, b->text, a->len) == 0;
}

static void
sdt_diff_print_line(GString *out, gchar sign, const SdtDiffLine *line)
{
	gsize n = line->len;
	g_string_append_c(out, sign);
	if (!line->no_eol)
		n--;
	if (n > 0 && line->text[n - 1] == '\r' && !line->no_eol)
		n--;
	g_string_append_len(out, line->text, n);
	g_string_append_c(out, '\n');
	if (line->no_eol)
		g_string_append(out, "\\ No newline at end of file\n");
}

typedef enum { SDT_DIFF_EQ, SDT_DIFF_DEL, SDT_DIFF_INS } SdtDiffOp;

static void
sdt_diff_range(GString *out, gsize start, gsize len)
{
	if (len == 1)
		g_string_append_printf(out, "%" G_GSIZE_FORMAT, start + 1);
	else
		g_string_append_printf(out,
				       "%" G_GSIZE_FORMAT ",%" G_GSIZE_FORMAT,
				       len == 0 ? start : start + 1,
				       len);
}

gchar *
sdt_config_diff_unified(const gchar *label, GBytes *old_bytes, GBytes *new_bytes)
{
	g_autoptr(GArray) a = sdt_diff_split(old_bytes);
	g_autoptr(GArray) b = sdt_diff_split(new_bytes);
	g_autoptr(GArray) ops = g_array_new(FALSE, FALSE, sizeof(guint8));
	GString *out = g_string_new(NULL);
	gsize pre = 0;
	gsize suf = 0;
	gsize n;
	gsize m;

	if (g_bytes_equal(old_bytes, new_bytes))
		return g_string_free(out, FALSE);
	while (pre < a->len && pre < b->len &&
	       sdt_diff_line_equal(&g_array_index(a, SdtDiffLine, pre),
				   &g_array_index(b, SdtDiffLine, pre)))
		pre++;
	while (suf < a->len - pre && suf < b->len - pre &&
	       sdt_diff_line_equal(&g_array_index(a, SdtDiffLine, a->len - 1 - suf),
				   &g_array_index(b, SdtDiffLine, b->len - 1 - suf)))
		suf++;
	n = a->len - pre - suf;
	m = b->len - pre - suf;
	for (gsize i = 0; i < pre; i++) {
		guint8 op = SDT_DIFF_EQ;
		g_array_append_val(ops, op);
	}
	if ((guint64) (n + 1) * (m + 1) <= 4 * 1000 * 1000) {
		/* longest common subsequence of the middle */
		g_autofree guint32 *t = g_new0(guint32, (n + 1) * (m + 1));
		gsize i = 0;
		gsize j = 0;
		for (gsize x = n; x-- > 0;) {
			for (gsize y = m; y-- > 0;) {
				if (sdt_diff_line_equal(&g_array_index(a, SdtDiffLine, pre + x),
							&g_array_index(b, SdtDiffLine, pre + y)))
					t[x * (m + 1) + y] = t[(x + 1) * (m + 1) + y + 1] + 1;
				else
					t[x * (m + 1) + y] = MAX(t[(x + 1) * (m + 1) + y],
								 t[x * (m + 1) + y + 1]);
			}
		}
		while (i < n || j < m) {
			guint8 op;
			if (i < n && j < m &&
			    sdt_diff_line_equal(&g_array_index(a, SdtDiffLine, pre + i),
						&g_array_index(b, SdtDiffLine, pre + j))) {
				op = SDT_DIFF_EQ;
				i++;
				j++;
			} else if (i < n &&
				   (j == m || t[(i + 1) * (m + 1) + j] >= t[i * (m + 1) + j + 1])) {
				/* removals before additions, as diff -u prints them */
				op = SDT_DIFF_DEL;
				i++;
			} else {
				op = SDT_DIFF_INS;
				j++;
			}
			g_array_append_val(ops, op);
		}
	} else {
		for (gsize i = 0; i < n + m; i++) {
			guint8 op = i < n ? SDT_DIFF_DEL : SDT_DIFF_INS;
			g_array_append_val(ops, op);
		}
	}
	for (gsize i = 0; i < suf; i++) {
		guint8 op = SDT_DIFF_EQ;
		g_array_append_val(ops, op);
	}

	g_string_append_printf(out, "--- a%s\n+++ b%s\n", label, label);
	for (gsize k = 0; k < ops->len;) {
		gsize hs;
		gsize he;
		gsize ai = 0;
		gsize bi = 0;
		gsize a_start;
		gsize b_start;
		gsize a_len = 0;
		gsize b_len = 0;

		if (g_array_index(ops, guint8, k) == SDT_DIFF_EQ) {
			k++;
			continue;
		}
		/* a hunk: changes with at most 2 × 3 equal lines between them join */
		{
			gsize j = k;
			gsize end_change;
			for (;;) {
				gsize eq = 0;
				while (j < ops->len && g_array_index(ops, guint8, j) != SDT_DIFF_EQ)
					j++;
				end_change = j;
				while (j + eq < ops->len &&
				       g_array_index(ops, guint8, j + eq) == SDT_DIFF_EQ)
					eq++;
				if (j + eq < ops->len && eq <= 6) {
					j += eq;
					continue;
				}
				break;
			}
			hs = k >= 3 ? k - 3 : 0;
			he = MIN(ops->len, end_change + 3);
		}
		for (gsize x = 0; x < hs; x++) {
			guint8 op = g_array_index(ops, guint8, x);
			if (op != SDT_DIFF_INS)
				ai++;
			if (op != SDT_DIFF_DEL)
				bi++;
		}
		a_start = ai;
		b_start = bi;
		for (gsize x = hs; x < he; x++) {
			guint8 op = g_array_index(ops, guint8, x);
			if (op != SDT_DIFF_INS)
				a_len++;
			if (op != SDT_DIFF_DEL)
				b_len++;
		}
		g_string_append(out, "@@ -");
		sdt_diff_range(out, a_start, a_len);
		g_string_append(out, " +");
		sdt_diff_range(out, b_start, b_len);
		g_string_append(out, " @@\n");
		for (gsize x = hs; x < he; x++) {
			guint8 op = g_array_index(ops, guint8, x);
			if (op == SDT_DIFF_EQ)
				sdt_diff_print_line(out, ' ', &g_array_index(a, SdtDiffLine, ai++));
			else if (op == SDT_DIFF_DEL)
				sdt_diff_print_line(out, '-', &g_array_index(a, SdtDiffLine, ai++));
			if (op == SDT_DIFF_EQ)
				bi++;
			else if (op == SDT_DIFF_INS)
				sdt_diff_print_line(out, '+', &g_array_index(b, SdtDiffLine, bi++));
		}
		k = he;
	}
	return g_string_free(out, FALSE);
}

/* the writer -------------------------------------------------------------- */

struct _SdtConfigWriter {
	GObject parent_instance;
	gchar *path;         /* config.txt as found under the root (may be a symlink) */
	gchar *display_path; /* as seen on the Pi */
	gchar *state_dir;
	gchar *real_path;    /* after following a symlink inside the boot partition */
	gchar *boot_id_path; /* <root>/proc/sys/kernel/random/boot_id, NULL for explicit paths */
	SdtConfigWriterIo io;
	gint lock_fd;
	SdtContext *ctx; /* the clock; %NULL: the real time */
};

G_DEFINE_TYPE(SdtConfigWriter, sdt_config_writer, G_TYPE_OBJECT)

static gint
sdt_io_open(const gchar *path, gint flags, mode_t mode, gpointer user_data)
{
	return open(path, flags, mode);
}

static gssize
sdt_io_write(gint fd, const void *buf, gsize count, gpointer user_data)
{
	return write(fd, buf, count);
}

static gint
sdt_io_fsync(gint fd, gpointer user_data)
{
	return fsync(fd);
}

static gint
sdt_io_close(gint fd, gpointer user_data)
{
	return close(fd);
}

static gint
sdt_io_rename(const gchar *from, const gchar *to, gpointer user_data)
{
	return rename(from, to);
}

static gint
sdt_io_unlink(const gchar *path, gpointer user_data)
{
	return unlink(path);
}

static const SdtConfigWriterIo sdt_io_default = {
	sdt_io_open,
	sdt_io_write,
	sdt_io_fsync,
	sdt_io_close,
	sdt_io_rename,
	sdt_io_unlink,
	NULL,
};

static void
sdt_config_writer_finalize(GObject *object)
{
	SdtConfigWriter *self = SDT_CONFIG_WRITER(object);
	if (self->lock_fd >= 0)
		close(self->lock_fd);
	g_free(self->path);
	g_free(self->display_path);
	g_free(self->state_dir);
	g_free(self->real_path);
	g_clear_object(&self->ctx);
	g_free(self->boot_id_path);
	G_OBJECT_CLASS(sdt_config_writer_parent_class)->finalize(object);
}

static void
sdt_config_writer_class_init(SdtConfigWriterClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = sdt_config_writer_finalize;
}

static void
sdt_config_writer_init(SdtConfigWriter *self)
{
	self->io = sdt_io_default;
	self->lock_fd = -1;
}

static gboolean
sdt_config_is_stub(const gchar *path)
{
	g_autofree gchar *text = NULL;
	gsize len = 0;

	if (!sdt_file_read_bounded(path, 64 * 1024, &text, &len, NULL))
		return FALSE;
	return strstr(text, "DO NOT EDIT THIS FILE") != NULL &&
	       strstr(text, "/boot/firmware/config.txt") != NULL;
}

gchar *
sdt_config_writer_locate(SdtContext *ctx, gchar **display_path, GError **error)
{
	g_autofree gchar *fw = sdt_context_build_path(ctx, "/boot/firmware/config.txt");
	g_autofree gchar *legacy = sdt_context_build_path(ctx, "/boot/config.txt");
	g_autofree gchar *fw_dir = sdt_context_build_path(ctx, "/boot/firmware");
	GStatBuf st;

	if (g_lstat(fw, &st) == 0) {
		if (display_path != NULL)
			*display_path = g_strdup("/boot/firmware/config.txt");
		return g_steal_pointer(&fw);
	}
	if (g_lstat(legacy, &st) == 0) {
		if (sdt_config_is_stub(legacy)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_NOT_FOUND,
				    _("%s says the configuration has moved to "
				      "/boot/firmware/config.txt, but %s %s: mount the boot "
				      "partition at /boot/firmware, then try again"),
				    legacy,
				    g_file_test(fw_dir, G_FILE_TEST_IS_DIR) ? fw : fw_dir,
				    _("does not exist"));
			return NULL;
		}
		if (display_path != NULL)
			*display_path = g_strdup("/boot/config.txt");
		return g_steal_pointer(&legacy);
	}
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_NOT_FOUND,
		    _("neither %s nor %s exists: mount the boot partition at /boot/firmware, "
		      "then try again"),
		    fw,
		    legacy);
	return NULL;
}

SdtConfigWriter *
sdt_config_writer_new_for_paths(const gchar *config_path,
				const gchar *display_path,
				const gchar *state_dir)
{
	SdtConfigWriter *self = g_object_new(SDT_TYPE_CONFIG_WRITER, NULL);
	self->path = g_strdup(config_path);
	self->display_path = g_strdup(display_path != NULL ? display_path : config_path);
	self->state_dir = g_strdup(state_dir);
	return self;
}

SdtConfigWriter *
sdt_config_writer_new(SdtContext *ctx, GError **error)
{
	g_autofree gchar *display = NULL;
	g_autofree gchar *path = sdt_config_writer_locate(ctx, &display, error);
	g_autofree gchar *state = NULL;
	SdtConfigWriter *self;

	if (path == NULL)
		return NULL;

	state = sdt_context_get_state_dir(ctx);
	self = sdt_config_writer_new_for_paths(path, display, state);
	self->ctx = g_object_ref(ctx);
	self->boot_id_path = sdt_context_build_path(ctx, "/proc/sys/kernel/random/boot_id");
	return self;
}

static GDateTime *
sdt_config_writer_now(SdtConfigWriter *self)
{
	return self->ctx != NULL ? sdt_context_get_now(self->ctx) : g_date_time_new_now_utc();
}

void
sdt_config_writer_set_io(SdtConfigWriter *self, const SdtConfigWriterIo *io)
{
	g_return_if_fail(SDT_IS_CONFIG_WRITER(self));
	self->io = io != NULL ? *io : sdt_io_default;
}

const gchar *
sdt_config_writer_get_path(SdtConfigWriter *self)
{
	return self->path;
}

const gchar *
sdt_config_writer_get_display_path(SdtConfigWriter *self)
{
	return self->display_path;
}

/* follows a symlink only when it stays inside the folder of config.txt (the boot partition) */
static gboolean
sdt_config_writer_resolve(SdtConfigWriter *self, GError **error)
{
	GStatBuf st;
	GStatBuf st_dir;
	g_autofree gchar *dir = g_path_get_dirname(self->path);
	g_autofree gchar *dir_real = NULL;
	g_autofree gchar *target = NULL;
	g_autofree gchar *prefix = NULL;

	if (g_lstat(self->path, &st) != 0)
		return sdt_error_set_from_errno(error, errno, _("cannot read %s"), self->path);
	g_clear_pointer(&self->real_path, g_free);
	if (!S_ISLNK(st.st_mode)) {
		if (!S_ISREG(st.st_mode)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("%s is not a regular file: replace it with the boot "
				      "configuration file"),
				    self->path);
			return FALSE;
		}
		self->real_path = g_strdup(self->path);
		return TRUE;
	}
	dir_real = realpath(dir, NULL);
	target = realpath(self->path, NULL);
	if (dir_real == NULL || target == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("%s is a symbolic link to a file that does not exist: replace the "
			      "link with the real config.txt"),
			    self->path);
		return FALSE;
	}
	prefix = g_strconcat(dir_real, "/", NULL);
	if (!g_str_has_prefix(target, prefix) || g_stat(target, &st) != 0 ||
	    g_stat(dir_real, &st_dir) != 0 || st.st_dev != st_dir.st_dev || !S_ISREG(st.st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("%s is a symbolic link to %s, outside the boot partition %s; the "
			      "firmware cannot follow it and SD Tuner will not edit a file "
			      "elsewhere: replace the link with the real file"),
			    self->path,
			    target,
			    dir_real);
		return FALSE;
	}
	self->real_path = g_steal_pointer(&target);
	return TRUE;
}

/*
 * Reads a file SD Tuner does not own (config.txt, an include, tryboot.txt, a
 * backup) with sdt_file_read_bounded(): never blocks on a FIFO, never follows
 * a link, refuses anything but a regular file of at most 1 MiB.
 */
static GBytes *
sdt_config_read_limited(const gchar *path, GError **error)
{
	g_autoptr(GError) local = NULL;
	gchar *data = NULL;
	gsize len = 0;
	GStatBuf st;

	if (sdt_file_read_bounded(path, SDT_CONFIG_TXT_MAX_SIZE, &data, &len, &local))
		return g_bytes_new_take(data, len);
	if (g_error_matches(local, SDT_ERROR, SDT_ERROR_INVALID_DATA) && g_lstat(path, &st) == 0) {
		if (S_ISREG(st.st_mode) && st.st_size > SDT_CONFIG_TXT_MAX_SIZE) {
			g_set_error(
				error,
				SDT_ERROR,
				SDT_ERROR_INVALID_DATA,
				_("the file is %" PRId64 " bytes long; a boot configuration "
				  "is a few kilobytes and SD Tuner edits files up to 1 MiB: check "
				  "that it is the right file and shrink it by hand"),
				(gint64) st.st_size);
			return NULL;
		}
		if (!S_ISREG(st.st_mode)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("%s is not a regular file (it is a pipe, socket, device, "
				      "folder or link), so SD Tuner does not read it: replace it "
				      "with a regular file or remove it"),
				    path);
			return NULL;
		}
	}
	g_propagate_error(error, g_steal_pointer(&local));
	return NULL;
}

SdtConfigTxt *
sdt_config_writer_load(SdtConfigWriter *self, GBytes **bytes_out, GError **error)
{
	g_autoptr(GBytes) bytes = NULL;
	SdtConfigTxt *cfg;

	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);
	if (!sdt_config_writer_resolve(self, error))
		return NULL;
	bytes = sdt_config_read_limited(self->real_path, error);
	if (bytes == NULL || !sdt_config_txt_check_bytes(bytes, error)) {
		g_prefix_error(error, _("cannot edit %s: "), self->path);
		return NULL;
	}
	cfg = sdt_config_txt_new_from_bytes(bytes, "config.txt");
	/* bounded: each include read once, within the include budget */
	{
		g_autofree gchar *dir = g_path_get_dirname(self->real_path);
		if (!sdt_config_txt_load_includes(cfg, dir, error)) {
			g_prefix_error(error, _("cannot read %s: "), self->path);
			g_object_unref(cfg);
			return NULL;
		}
	}
	if (bytes_out != NULL)
		*bytes_out = g_steal_pointer(&bytes);
	return cfg;
}

static gchar *
sdt_config_hash(GBytes *bytes)
{
	return g_compute_checksum_for_bytes(G_CHECKSUM_SHA256, bytes);
}

/* adds what to do to an errno error of a write */
static gboolean
sdt_config_writer_set_write_error(GError **error, gint errsv, const gchar *path)
{
	const gchar *hint;

	switch (errsv) {
	case ENOSPC:
	case EDQUOT:
		hint = _("free some space on that file system, then try again");
		break;
	case EROFS:
		hint = _("the file system is mounted read-only: remount it read-write "
			 "(sudo mount -o remount,rw /boot/firmware), then try again");
		break;
	case EIO:
		hint = _("the card reported a write error: check the card, then try again");
		break;
	case EACCES:
	case EPERM:
		hint = _("SD Tuner needs root for this: use sdtunerctl without --root, which asks "
			 "sd-tuner-helper");
		break;
	default:
		hint = _("nothing was changed; fix the cause, then try again");
		break;
	}
	g_set_error(error,
		    SDT_ERROR,
		    sdt_error_from_errno(errsv),
		    _("cannot write %s: %s; %s"),
		    path,
		    g_strerror(errsv),
		    hint);
	return FALSE;
}

static gboolean
sdt_config_writer_lock(SdtConfigWriter *self, GError **error)
{
	g_autofree gchar *lock = g_build_filename(self->state_dir, "lock", NULL);

	if (self->lock_fd >= 0)
		return TRUE;
	if (g_mkdir_with_parents(self->state_dir, 0755) != 0)
		return sdt_error_set_from_errno(error,
						errno,
						_("cannot create the state folder %s"),
						self->state_dir);
	self->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (self->lock_fd < 0)
		return sdt_error_set_from_errno(error, errno, _("cannot open %s"), lock);
	if (flock(self->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		gint errsv = errno;
		close(self->lock_fd);
		self->lock_fd = -1;
		if (errsv == EWOULDBLOCK) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_BUSY,
				    _("another SD Tuner process is changing %s: wait until it has "
				      "finished, then try again"),
				    self->path);
			return FALSE;
		}
		return sdt_error_set_from_errno(error, errsv, _("cannot lock %s"), lock);
	}
	return TRUE;
}

static void
sdt_config_writer_unlock(SdtConfigWriter *self)
{
	if (self->lock_fd < 0)
		return;
	flock(self->lock_fd, LOCK_UN);
	close(self->lock_fd);
	self->lock_fd = -1;
}

/*
 * Replaces @path atomically: a temporary file in the same folder, fsync,
 * rename over @path, fsync of the folder.  With @expect_hash, @path must
 * still have that content just before the rename.
 */
static gboolean
sdt_config_writer_write_atomic(SdtConfigWriter *self,
			       const gchar *path,
			       GBytes *bytes,
			       const gchar *expect_hash,
			       GError **error)
{
	g_autofree gchar *dir = g_path_get_dirname(path);
	g_autofree gchar *base = g_path_get_basename(path);
	g_autofree gchar *tmp = NULL;
	gsize len = 0;
	const guint8 *data = g_bytes_get_data(bytes, &len);
	gsize done = 0;
	GStatBuf st;
	mode_t mode = 0644;
	gint fd;
	gint dfd;

	if (g_stat(path, &st) == 0)
		mode = st.st_mode & 0777;
	tmp = g_strdup_printf("%s/.%s%s%d-%08x",
			      dir,
			      base,
			      SDT_CONFIG_TMP_INFIX,
			      (gint) getpid(),
			      g_random_int());
	fd = self->io.open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode, self->io.user_data);
	if (fd < 0)
		return sdt_config_writer_set_write_error(error, errno, path);
	while (done < len) {
		gssize w = self->io.write(fd, data + done, len - done, self->io.user_data);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			gint errsv = w < 0 ? errno : EIO;
			self->io.close(fd, self->io.user_data);
			self->io.unlink(tmp, self->io.user_data);
			return sdt_config_writer_set_write_error(error, errsv, path);
		}
		done += w;
	}
	if (self->io.fsync(fd, self->io.user_data) != 0) {
		gint errsv = errno;
		self->io.close(fd, self->io.user_data);
		self->io.unlink(tmp, self->io.user_data);
		return sdt_config_writer_set_write_error(error, errsv, path);
	}
	if (self->io.close(fd, self->io.user_data) != 0) {
		gint errsv = errno;
		self->io.unlink(tmp, self->io.user_data);
		return sdt_config_writer_set_write_error(error, errsv, path);
	}
	if (expect_hash != NULL) {
		g_autoptr(GBytes) now = sdt_config_read_limited(path, NULL);
		g_autofree gchar *hash = now != NULL ? sdt_config_hash(now) : NULL;
		if (g_strcmp0(hash, expect_hash) != 0) {
			self->io.unlink(tmp, self->io.user_data);
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_CONFIG_CHANGED,
				    _("%s was changed by another program while SD Tuner was "
				      "editing it; SD Tuner changed nothing: try again"),
				    path);
			return FALSE;
		}
	}
	if (self->io.rename(tmp, path, self->io.user_data) != 0) {
		gint errsv = errno;
		self->io.unlink(tmp, self->io.user_data);
		return sdt_config_writer_set_write_error(error, errsv, path);
	}
	dfd = self->io.open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, self->io.user_data);
	if (dfd < 0 || self->io.fsync(dfd, self->io.user_data) != 0) {
		gint errsv = errno;
		if (dfd >= 0)
			self->io.close(dfd, self->io.user_data);
		g_set_error(error,
			    SDT_ERROR,
			    sdt_error_from_errno(errsv),
			    _("%s was replaced, but its folder could not be flushed to the "
			      "card (%s): check the file before you reboot"),
			    path,
			    g_strerror(errsv));
		return FALSE;
	}
	self->io.close(dfd, self->io.user_data);
	return TRUE;
}

static guint
sdt_config_cleanup_dir(SdtConfigWriter *self, const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const gchar *name;
	guint n = 0;

	if (d == NULL)
		return 0;
	while ((name = g_dir_read_name(d)) != NULL) {
		g_autofree gchar *path = NULL;
		if (strstr(name, SDT_CONFIG_TMP_INFIX) == NULL)
			continue;
		path = g_build_filename(dir, name, NULL);
		if (g_unlink(path) == 0)
			n++;
	}
	return n;
}

guint
sdt_config_writer_cleanup(SdtConfigWriter *self)
{
	g_autofree gchar *dir =
		g_path_get_dirname(self->real_path != NULL ? self->real_path : self->path);
	g_autofree gchar *backups = g_build_filename(self->state_dir, "backups", NULL);
	guint n = 0;

	n += sdt_config_cleanup_dir(self, dir);
	n += sdt_config_cleanup_dir(self, self->state_dir);
	n += sdt_config_cleanup_dir(self, backups);
	return n;
}

static gchar *
sdt_config_writer_backup(SdtConfigWriter *self, GBytes *bytes, const gchar *stem, GError **error)
{
	g_autofree gchar *dir = g_build_filename(self->state_dir, "backups", NULL);
	g_autoptr(GDateTime) now = sdt_config_writer_now(self);
	g_autofree gchar *stamp = g_date_time_format(now, "%Y%m%dT%H%M%S");
	g_autofree gchar *path = NULL;

	if (g_mkdir_with_parents(dir, 0700) != 0)
		return sdt_error_set_from_errno(error, errno, _("cannot create %s"), dir), NULL;
	for (guint i = 0; i < 1000; i++) {
		g_autofree gchar *suffix = i > 0 ? g_strdup_printf("-%u", i) : g_strdup("");
		g_free(path);
		path = g_strdup_printf("%s/%s.%s.%06dZ%s",
				       dir,
				       stem,
				       stamp,
				       g_date_time_get_microsecond(now),
				       suffix);
		if (!g_file_test(path, G_FILE_TEST_EXISTS))
			break;
	}
	if (!sdt_config_writer_write_atomic(self, path, bytes, NULL, error)) {
		g_prefix_error(error, _("cannot save a backup: "));
		return NULL;
	}
	return g_steal_pointer(&path);
}

/* the journals: schema-checked before use ----------------------------------- */

typedef enum {
	SDT_JSON_STRING,
	SDT_JSON_STRING_OR_NULL,
	SDT_JSON_INT,
	SDT_JSON_STRV,
} SdtJsonType;

typedef struct {
	const gchar *name;
	SdtJsonType type;
	gboolean required;
} SdtJsonMember;

static const SdtJsonMember sdt_journal_schema[] = {
	{"version", SDT_JSON_INT, FALSE},
	{"id", SDT_JSON_STRING, TRUE},
	{"path", SDT_JSON_STRING, TRUE},
	{"filter", SDT_JSON_STRING, TRUE},
	{"type_code", SDT_JSON_INT, TRUE},
	{"block", SDT_JSON_STRV, TRUE},
	{"disabled", SDT_JSON_STRV, TRUE},
	{"backup", SDT_JSON_STRING, TRUE},
	{"sha256_before", SDT_JSON_STRING, TRUE},
	{"sha256_after", SDT_JSON_STRING, TRUE},
	{"time", SDT_JSON_STRING, TRUE},
	{"boot_id", SDT_JSON_STRING_OR_NULL, FALSE},
};

static const SdtJsonMember sdt_trial_journal_schema[] = {
	{"version", SDT_JSON_INT, FALSE},
	{"id", SDT_JSON_STRING, TRUE},
	{"path", SDT_JSON_STRING, TRUE},
	{"config_sha256", SDT_JSON_STRING, TRUE},
	{"tryboot_sha256", SDT_JSON_STRING, TRUE},
	{"previous_backup", SDT_JSON_STRING_OR_NULL, TRUE},
	{"time", SDT_JSON_STRING, TRUE},
	{"boot_id", SDT_JSON_STRING_OR_NULL, FALSE},
};

#define SDT_CONFIG_JOURNAL_MAX (256 * 1024)

static gboolean
sdt_json_node_is(JsonNode *node, GType type)
{
	return node != NULL && JSON_NODE_HOLDS_VALUE(node) &&
	       json_node_get_value_type(node) == type;
}

static gboolean
sdt_json_member_valid(JsonNode *node, SdtJsonType type)
{
	switch (type) {
	case SDT_JSON_STRING:
		return sdt_json_node_is(node, G_TYPE_STRING);
	case SDT_JSON_STRING_OR_NULL:
		return JSON_NODE_HOLDS_NULL(node) || sdt_json_node_is(node, G_TYPE_STRING);
	case SDT_JSON_INT:
		return sdt_json_node_is(node, G_TYPE_INT64);
	case SDT_JSON_STRV: {
		JsonArray *array;
		if (!JSON_NODE_HOLDS_ARRAY(node))
			return FALSE;
		array = json_node_get_array(node);
		for (guint i = 0; i < json_array_get_length(array); i++) {
			if (!sdt_json_node_is(json_array_get_element(array, i), G_TYPE_STRING))
				return FALSE;
		}
		return TRUE;
	}
	}
	return FALSE;
}

static JsonObject *
sdt_json_parse_with_schema(const gchar *data,
			   gsize len,
			   const SdtJsonMember *schema,
			   guint n_members,
			   GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new_immutable();
	g_autoptr(GError) local = NULL;
	JsonNode *root;
	JsonObject *obj;

	if (len > SDT_CONFIG_JOURNAL_MAX) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("it is %" PRIu64 " bytes long, far more than SD Tuner writes"),
			    (guint64) len);
		return NULL;
	}
	if (!json_parser_load_from_data(parser, data, (gssize) len, &local)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("it is not valid JSON (%s)"),
			    local->message);
		return NULL;
	}
	root = json_parser_get_root(parser);
	if (root == NULL || !JSON_NODE_HOLDS_OBJECT(root)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("it is not a JSON object"));
		return NULL;
	}
	obj = json_node_get_object(root);
	for (guint i = 0; i < n_members; i++) {
		JsonNode *node = json_object_get_member(obj, schema[i].name);
		if (node == NULL && !schema[i].required)
			continue;
		if (node == NULL) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("the member “%s” is missing"),
				    schema[i].name);
			return NULL;
		}
		if (!sdt_json_member_valid(node, schema[i].type)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("the member “%s” has the wrong type"),
				    schema[i].name);
			return NULL;
		}
	}
	return json_object_ref(obj);
}

JsonObject *
sdt_config_journal_parse(const gchar *data, gsize len, GError **error)
{
	return sdt_json_parse_with_schema(data,
					  len,
					  sdt_journal_schema,
					  G_N_ELEMENTS(sdt_journal_schema),
					  error);
}

JsonObject *
sdt_config_trial_journal_parse(const gchar *data, gsize len, GError **error)
{
	return sdt_json_parse_with_schema(data,
					  len,
					  sdt_trial_journal_schema,
					  G_N_ELEMENTS(sdt_trial_journal_schema),
					  error);
}

static gboolean
sdt_config_writer_read_json(SdtConfigWriter *self,
			    const gchar *name,
			    JsonObject *(*parse)(const gchar *, gsize, GError **),
			    JsonObject **out,
			    GError **error)
{
	g_autofree gchar *path = g_build_filename(self->state_dir, name, NULL);
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;
	GStatBuf st;

	*out = NULL;
	if (g_lstat(path, &st) != 0 && errno == ENOENT)
		return TRUE;
	if (!sdt_file_read_bounded(path, SDT_CONFIG_JOURNAL_MAX, &data, &len, &local) ||
	    (*out = parse(data, len, &local)) == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: the journal's path, then what is wrong with it */
			    _("SD Tuner's record of its change, %s, is damaged: %s"),
			    path,
			    local->message);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_config_writer_read_journal(SdtConfigWriter *self, JsonObject **journal, GError **error)
{
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), FALSE);
	return sdt_config_writer_read_json(self,
					   SDT_CONFIG_JOURNAL,
					   sdt_config_journal_parse,
					   journal,
					   error);
}

gboolean
sdt_config_writer_read_trial_journal(SdtConfigWriter *self, JsonObject **journal, GError **error)
{
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), FALSE);
	return sdt_config_writer_read_json(self,
					   SDT_TRIAL_JOURNAL,
					   sdt_config_trial_journal_parse,
					   journal,
					   error);
}

JsonObject *
sdt_config_writer_get_journal(SdtConfigWriter *self)
{
	JsonObject *journal = NULL;

	if (!sdt_config_writer_read_journal(self, &journal, NULL))
		return NULL;
	return journal;
}

gchar *
sdt_config_writer_get_boot_id(SdtConfigWriter *self)
{
	gchar buf[65];
	gssize n;
	struct stat st;
	gint fd;

	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);
	if (self->boot_id_path == NULL)
		return NULL;
	/* a procfs file reports size 0, so sdt_file_read_bounded() cannot read it */
	fd = open(self->boot_id_path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return NULL;
	}
	do
		n = read(fd, buf, sizeof(buf) - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	g_strstrip(buf);
	if (buf[0] == '\0' || strspn(buf, "0123456789abcdefABCDEF-") != strlen(buf))
		return NULL;
	return g_strdup(buf);
}

gchar *
sdt_config_writer_hash_config(SdtConfigWriter *self)
{
	g_autoptr(GBytes) bytes = NULL;

	if (!sdt_config_writer_resolve(self, NULL))
		return NULL;
	bytes = sdt_config_read_limited(self->real_path, NULL);
	return bytes != NULL ? sdt_config_hash(bytes) : NULL;
}

static JsonArray *
sdt_json_array_from_strings(GPtrArray *strings)
{
	JsonArray *array = json_array_new();
	for (guint i = 0; i < strings->len; i++)
		json_array_add_string_element(array, g_ptr_array_index(strings, i));
	return array;
}

static gchar **
sdt_json_array_to_strv(JsonArray *array)
{
	gchar **strv = g_new0(gchar *, json_array_get_length(array) + 1);
	for (guint i = 0; i < json_array_get_length(array); i++)
		strv[i] = g_strdup(json_array_get_string_element(array, i));
	return strv;
}

static gboolean
sdt_config_writer_write_json(SdtConfigWriter *self,
			     const gchar *name,
			     JsonObject *obj,
			     GError **error)
{
	g_autofree gchar *path = g_build_filename(self->state_dir, name, NULL);
	g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
	g_autofree gchar *text = NULL;
	g_autoptr(GBytes) bytes = NULL;

	json_node_set_object(node, obj);
	text = json_to_string(node, TRUE);
	bytes = g_bytes_new(text, strlen(text));
	return sdt_config_writer_write_atomic(self, path, bytes, NULL, error);
}

static void
sdt_config_writer_remove_state(SdtConfigWriter *self, const gchar *name)
{
	g_autofree gchar *path = g_build_filename(self->state_dir, name, NULL);
	self->io.unlink(path, self->io.user_data);
}

gchar *
sdt_config_writer_get_tryboot_path(SdtConfigWriter *self)
{
	g_autofree gchar *dir = g_path_get_dirname(self->path);
	return g_build_filename(dir, "tryboot.txt", NULL);
}

static gchar *
sdt_config_writer_get_tryboot_display(SdtConfigWriter *self)
{
	g_autofree gchar *dir = g_path_get_dirname(self->display_path);
	return g_build_filename(dir, "tryboot.txt", NULL);
}

/* before any lock, backup or temporary file: can config.txt's folder be written at all? */
static gboolean
sdt_config_writer_check_writable(SdtConfigWriter *self, GError **error)
{
	g_autofree gchar *dir = NULL;

	if (!sdt_config_writer_resolve(self, error))
		return FALSE;
	dir = g_path_get_dirname(self->real_path);
	if (access(dir, W_OK) != 0)
		return sdt_config_writer_set_write_error(error, errno, self->path);
	return TRUE;
}

/* checks, locks and reads config.txt; the lock is held when a model is returned */
static SdtConfigTxt *
sdt_config_writer_begin(SdtConfigWriter *self, GBytes **old, GError **error)
{
	SdtConfigTxt *cfg;
	g_autofree gchar *damage = NULL;

	if (!sdt_config_writer_check_writable(self, error))
		return NULL;
	if (!sdt_config_writer_lock(self, error))
		return NULL;
	sdt_config_writer_cleanup(self);
	cfg = sdt_config_writer_load(self, old, error);
	if (cfg == NULL) {
		sdt_config_writer_unlock(self);
		return NULL;
	}
	/* one diagnosis of a damaged block for every command */
	damage = sdt_config_block_diagnose(cfg, self->display_path);
	if (damage != NULL) {
		g_set_error_literal(error, SDT_ERROR, SDT_ERROR_INVALID_DATA, damage);
		g_object_unref(cfg);
		sdt_config_writer_unlock(self);
		return NULL;
	}
	return cfg;
}

/* what tells SD Tuner's lines from the user's ------------------------------ */

typedef struct {
	JsonObject *journal; /* validated, and about the block in the file */
	gchar **block;       /* the journal's lines of the block */
	GBytes *backup;      /* the file before the apply, checked against the journal */
	gchar *backup_path;
	gboolean own_state; /* config.txt is exactly as SD Tuner's apply left it */
} SdtConfigEvidence;

static void
sdt_config_evidence_clear(SdtConfigEvidence *ev)
{
	g_clear_pointer(&ev->journal, json_object_unref);
	g_clear_pointer(&ev->block, g_strfreev);
	g_clear_pointer(&ev->backup, g_bytes_unref);
	g_clear_pointer(&ev->backup_path, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(SdtConfigEvidence, sdt_config_evidence_clear)

static gboolean
sdt_config_writer_corrupt(SdtConfigWriter *self, GError **error, const gchar *reason)
{
	g_autofree gchar *journal = g_build_filename(self->state_dir, SDT_CONFIG_JOURNAL, NULL);
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    _("%s, so SD Tuner cannot trust it to tell its lines in %s from yours and "
		      "changes nothing. Delete %s, then run the command again: SD Tuner then "
		      "removes only the lines it recognises as its own and keeps any other."),
		    reason,
		    self->display_path,
		    journal);
	return FALSE;
}

/* a backup SD Tuner made: a file directly in <state>/backups */
static gboolean
sdt_config_writer_is_backup_path(SdtConfigWriter *self, const gchar *path)
{
	g_autofree gchar *dir = g_build_filename(self->state_dir, "backups", NULL);
	g_autofree gchar *parent = g_path_get_dirname(path);
	return g_strcmp0(dir, parent) == 0 && strstr(path, "/../") == NULL;
}

/* the newest backup of config.txt, or NULL */
static gchar *
sdt_config_writer_newest_backup(SdtConfigWriter *self)
{
	g_autofree gchar *dir = g_build_filename(self->state_dir, "backups", NULL);
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	g_autofree gchar *best = NULL;
	const gchar *name;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		if (!g_str_has_prefix(name, "config.txt.") ||
		    strstr(name, SDT_CONFIG_TMP_INFIX) != NULL)
			continue;
		if (best == NULL || strcmp(name, best) > 0) {
			g_free(best);
			best = g_strdup(name);
		}
	}
	return best != NULL ? g_build_filename(dir, best, NULL) : NULL;
}

/*
 * Gathers the evidence of which lines are SD Tuner's: the journal, checked
 * against its schema, the markers in the file and the backup it names.  A
 * journal about another change (a kill between the rename and the journal
 * write) is set aside; one that contradicts the markers or its backup is
 * corrupt state and an error.
 */
static gboolean
sdt_config_writer_evidence(SdtConfigWriter *self,
			   SdtConfigTxt *cfg,
			   GBytes *old,
			   SdtConfigEvidence *ev,
			   GError **error)
{
	g_autoptr(JsonObject) journal = NULL;
	g_autoptr(GError) local = NULL;
	g_autofree gchar *id = sdt_config_txt_get_block_id(cfg);
	g_autofree gchar *hash = NULL;
	g_auto(GStrv) block = NULL;
	g_auto(GStrv) template = NULL;
	g_autofree gchar *filter_name = NULL;
	const gchar *backup_path;

	if (!sdt_config_writer_read_journal(self, &journal, &local))
		return sdt_config_writer_corrupt(self, error, local->message);
	if (journal == NULL || id == NULL ||
	    g_strcmp0(json_object_get_string_member(journal, "id"), id) != 0 ||
	    g_strcmp0(json_object_get_string_member(journal, "path"), self->display_path) != 0)
		return TRUE;

	block = sdt_json_array_to_strv(json_object_get_array_member(journal, "block"));
	template = sdt_config_block_template(id, json_object_get_string_member(journal, "filter"));
	/* the filter too: SD Tuner writes only under a model filter */
	if (!sdt_config_block_filter_valid(json_object_get_string_member(journal, "filter"),
					   &filter_name) ||
	    template == NULL ||
	    !g_strv_equal((const gchar *const *) template, (const gchar *const *) block)) {
		g_autofree gchar *reason = g_strdup_printf(
			_("SD Tuner's record of its change does not list the lines SD Tuner "
			  "writes for %s"),
			id);
		return sdt_config_writer_corrupt(self, error, reason);
	}
	hash = sdt_config_hash(old);
	ev->own_state =
		g_strcmp0(hash, json_object_get_string_member(journal, "sha256_after")) == 0;
	backup_path = json_object_get_string_member(journal, "backup");
	if (sdt_config_writer_is_backup_path(self, backup_path)) {
		g_autoptr(GBytes) bytes = sdt_config_read_limited(backup_path, NULL);
		g_autofree gchar *bhash = bytes != NULL ? sdt_config_hash(bytes) : NULL;
		if (bhash != NULL &&
		    g_strcmp0(bhash, json_object_get_string_member(journal, "sha256_before")) !=
			    0) {
			g_autofree gchar *reason = g_strdup_printf(
				_("the backup %s no longer holds the file SD Tuner's record of "
				  "its change describes"),
				backup_path);
			return sdt_config_writer_corrupt(self, error, reason);
		}
		if (bytes != NULL) {
			ev->backup = g_steal_pointer(&bytes);
			ev->backup_path = g_strdup(backup_path);
		}
	}
	ev->journal = g_steal_pointer(&journal);
	ev->block = g_steal_pointer(&block);
	return TRUE;
}

/* how often each line text occurs in @lines, outside [@skip_from, @skip_to] */
static guint
sdt_config_count_text(GPtrArray *lines, const gchar *text, guint skip_from, guint skip_to)
{
	guint n = 0;
	for (guint i = 0; i < lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (i >= skip_from && i <= skip_to)
			continue;
		if (g_strcmp0(line->text, text) == 0)
			n++;
	}
	return n;
}

/*
 * Re-parses the reverted file: no marker may be left, and no setting SD Tuner
 * wrote may occur more often than it did outside the block before (or as a
 * line SD Tuner had switched off).  Never report success otherwise.
 */
static gboolean
sdt_config_writer_verify_revert(SdtConfigWriter *self,
				SdtConfigTxt *cfg,
				SdtConfigEdit *edit,
				const gchar *const *ours,
				SdtConfigEvidence *ev,
				GError **error)
{
	g_autoptr(SdtConfigTxt) result =
		sdt_config_txt_new_from_bytes(edit->new_bytes, "config.txt");
	GPtrArray *after = sdt_config_txt_get_lines(result);
	GPtrArray *before = sdt_config_txt_get_lines(cfg);
	guint begin = 0;
	guint end = 0;
	const gchar *left = NULL;

	sdt_config_txt_find_block(cfg, &begin, &end);
	for (guint i = 0; i < after->len && left == NULL; i++) {
		SdtConfigLine *line = g_ptr_array_index(after, i);
		if (g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN) ||
		    g_strcmp0(line->text, SDT_CONFIG_BLOCK_END) == 0 ||
		    g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK))
			left = line->text;
	}
	for (guint k = 0; ours != NULL && ours[k] != NULL && left == NULL; k++) {
		guint allowed;
		if (g_str_has_prefix(ours[k], "[") || g_strcmp0(ours[k], "dtoverlay=") == 0)
			continue;
		allowed = sdt_config_count_text(before, ours[k], begin, end);
		for (guint j = 0; j < edit->disabled->len; j++)
			allowed += g_strcmp0(g_ptr_array_index(edit->disabled, j), ours[k]) == 0;
		for (guint j = 0; j < edit->kept->len; j++) {
			const gchar *kept = g_ptr_array_index(edit->kept, j);
			const gchar *text = strstr(kept, ": ");
			allowed += text != NULL && g_strcmp0(text + 2, ours[k]) == 0;
		}
		if (sdt_config_count_text(after, ours[k], G_MAXUINT, G_MAXUINT) > allowed)
			left = ours[k];
	}
	if (left != NULL) {
		g_set_error(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			_("SD Tuner could not take back its change to %s: the line “%s” would "
			  "still be there afterwards, so it changes nothing. Restore the backup "
			  "from before the change by hand (see “sdtunerctl history”)."),
			self->display_path,
			left);
		return FALSE;
	}
	/* untouched since the apply: the result must be the backup from before it */
	if (ev->own_state && ev->backup != NULL && !g_bytes_equal(ev->backup, edit->new_bytes)) {
		g_autofree gchar *reason = g_strdup_printf(
			_("taking back SD Tuner's lines does not give the backup %s from before "
			  "the change"),
			ev->backup_path);
		return sdt_config_writer_corrupt(self, error, reason);
	}
	return TRUE;
}

/* the trial ---------------------------------------------------------------- */

/* tryboot.txt's bytes; NULL with no error when it does not exist */
static GBytes *
sdt_config_writer_read_tryboot(SdtConfigWriter *self, gboolean *exists, GError **error)
{
	g_autofree gchar *path = sdt_config_writer_get_tryboot_path(self);
	GStatBuf st;

	*exists = g_lstat(path, &st) == 0;
	if (!*exists)
		return NULL;
	return sdt_config_read_limited(path, error);
}

static gboolean
sdt_config_has_block_text(GBytes *bytes)
{
	return bytes != NULL && g_bytes_get_size(bytes) > 0 &&
	       g_strstr_len(g_bytes_get_data(bytes, NULL),
			    g_bytes_get_size(bytes),
			    SDT_CONFIG_BLOCK_BEGIN) != NULL;
}

JsonObject *
sdt_config_writer_get_trial(SdtConfigWriter *self, GError **error)
{
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(SdtConfigTxt) t = NULL;
	g_autoptr(JsonObject) journal = NULL;
	g_autoptr(JsonObject) trial = NULL;
	g_autofree gchar *id = NULL;
	g_autofree gchar *display = NULL;
	gboolean exists = FALSE;

	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);
	bytes = sdt_config_writer_read_tryboot(self, &exists, error);
	if (bytes == NULL)
		return NULL;
	t = sdt_config_txt_new_from_bytes(bytes, "tryboot.txt");
	id = sdt_config_txt_get_block_id(t);
	if (id == NULL)
		return NULL;
	display = sdt_config_writer_get_tryboot_display(self);
	trial = json_object_new();
	json_object_set_string_member(trial, "id", id);
	json_object_set_string_member(trial, "path", display);
	json_object_set_string_member(trial, "reboot_command", "sudo reboot '0 tryboot'");
	json_object_set_boolean_member(trial, "stale", FALSE);
	json_object_set_null_member(trial, "note");
	if (sdt_config_writer_read_trial_journal(self, &journal, NULL) && journal != NULL) {
		g_autofree gchar *now = sdt_config_writer_hash_config(self);
		if (now != NULL &&
		    g_strcmp0(now, json_object_get_string_member(journal, "config_sha256")) != 0) {
			g_autofree gchar *note = g_strdup_printf(
				_("%s has changed since the trial was prepared, and the trial boot "
				  "would not have those changes: run “sdtunerctl apply %s --trial” "
				  "again to rebuild %s from it."),
				self->display_path,
				id,
				display);
			json_object_set_boolean_member(trial, "stale", TRUE);
			json_object_set_string_member(trial, "note", note);
		}
	}
	return g_steal_pointer(&trial);
}

/*
 * Puts tryboot.txt for a trial of @bytes in place.  An existing tryboot.txt
 * that is not SD Tuner's own earlier trial is backed up first, whatever its
 * size; one that cannot be read (too large, not a regular file) is refused.
 */
static gboolean
sdt_config_writer_write_trial(SdtConfigWriter *self,
			      const gchar *id,
			      GBytes *bytes,
			      const gchar *config_hash,
			      gchar **previous_backup,
			      GError **error)
{
	g_autofree gchar *tryboot = sdt_config_writer_get_tryboot_path(self);
	g_autofree gchar *display = sdt_config_writer_get_tryboot_display(self);
	g_autoptr(JsonObject) old_journal = NULL;
	g_autoptr(JsonObject) journal = json_object_new();
	g_autoptr(GBytes) prev = NULL;
	g_autoptr(GError) local = NULL;
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();
	g_autofree gchar *iso = g_date_time_format_iso8601(now);
	g_autofree gchar *boot_id = sdt_config_writer_get_boot_id(self);
	g_autofree gchar *backup = NULL;
	g_autofree gchar *hash = sdt_config_hash(bytes);
	gboolean exists = FALSE;

	/* a damaged trial journal only means the old tryboot.txt is backed up */
	if (!sdt_config_writer_read_trial_journal(self, &old_journal, NULL))
		old_journal = NULL;
	prev = sdt_config_writer_read_tryboot(self, &exists, &local);
	if (exists && prev == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    local->code,
			    _("%s already exists and SD Tuner cannot keep a copy of it (%s), so "
			      "it does not replace it: move it away by hand, then try again"),
			    display,
			    local->message);
		return FALSE;
	}
	if (prev != NULL) {
		g_autofree gchar *prev_hash = sdt_config_hash(prev);
		if (old_journal != NULL &&
		    g_strcmp0(prev_hash,
			      json_object_get_string_member(old_journal, "tryboot_sha256")) == 0) {
			/* SD Tuner's own trial: the user's file from before it is already saved */
			if (json_object_get_string_member(old_journal, "previous_backup") != NULL)
				backup = g_strdup(json_object_get_string_member(old_journal,
										"previous_backup"));
		} else {
			backup = sdt_config_writer_backup(self, prev, "tryboot.txt", error);
			if (backup == NULL)
				return FALSE;
		}
	}
	if (!sdt_config_writer_write_atomic(self, tryboot, bytes, NULL, error))
		return FALSE;
	json_object_set_int_member(journal, "version", 1);
	json_object_set_string_member(journal, "id", id);
	json_object_set_string_member(journal, "path", display);
	json_object_set_string_member(journal, "config_sha256", config_hash);
	json_object_set_string_member(journal, "tryboot_sha256", hash);
	if (backup != NULL)
		json_object_set_string_member(journal, "previous_backup", backup);
	else
		json_object_set_null_member(journal, "previous_backup");
	json_object_set_string_member(journal, "time", iso);
	if (boot_id != NULL)
		json_object_set_string_member(journal, "boot_id", boot_id);
	else
		json_object_set_null_member(journal, "boot_id");
	if (!sdt_config_writer_write_json(self, SDT_TRIAL_JOURNAL, journal, error)) {
		g_prefix_error(error,
			       _("%s was written, but SD Tuner's record of it could not be "
				 "saved: "),
			       display);
		return FALSE;
	}
	*previous_backup = g_steal_pointer(&backup);
	return TRUE;
}

/*
 * Cancels a pending trial: SD Tuner's tryboot.txt goes, or the user's earlier
 * one comes back from its backup.  A tryboot.txt edited since SD Tuner wrote
 * it is backed up first.  *@cancelled says whether there was a trial.
 */
static gboolean
sdt_config_writer_cancel_trial(SdtConfigWriter *self,
			       JsonObject *result,
			       GPtrArray *warnings,
			       gboolean *cancelled,
			       GError **error)
{
	g_autofree gchar *tryboot = sdt_config_writer_get_tryboot_path(self);
	g_autofree gchar *display = sdt_config_writer_get_tryboot_display(self);
	g_autoptr(JsonObject) journal = NULL;
	g_autoptr(GBytes) bytes = NULL;
	g_autoptr(GBytes) previous = NULL;
	g_autoptr(GError) local = NULL;
	const gchar *previous_path = NULL;
	gboolean exists = FALSE;

	*cancelled = FALSE;
	if (!sdt_config_writer_read_trial_journal(self, &journal, NULL))
		journal = NULL;
	bytes = sdt_config_writer_read_tryboot(self, &exists, &local);
	if (exists && bytes == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    local->code,
			    _("SD Tuner cannot read %s (%s), so it cannot tell whether a trial is "
			      "pending: move that file away by hand, then try again"),
			    display,
			    local->message);
		return FALSE;
	}
	if (!sdt_config_has_block_text(bytes)) {
		/* no trial of SD Tuner's in tryboot.txt: a leftover record goes */
		if (journal != NULL)
			sdt_config_writer_remove_state(self, SDT_TRIAL_JOURNAL);
		return TRUE;
	}
	if (journal != NULL && json_object_get_string_member(journal, "previous_backup") != NULL) {
		previous_path = json_object_get_string_member(journal, "previous_backup");
		if (sdt_config_writer_is_backup_path(self, previous_path))
			previous = sdt_config_read_limited(previous_path, NULL);
		if (previous == NULL) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_NOT_FOUND,
				    _("the trial in %s replaced an earlier tryboot.txt, but its "
				      "backup %s cannot be read, so SD Tuner leaves the trial in "
				      "place: restore that file or delete %s by hand"),
				    display,
				    previous_path,
				    display);
			return FALSE;
		}
	}
	{
		g_autofree gchar *hash = sdt_config_hash(bytes);
		gboolean own =
			journal != NULL &&
			g_strcmp0(hash, json_object_get_string_member(journal, "tryboot_sha256")) ==
				0;
		if (!own) {
			/* edited since SD Tuner wrote it, or no record of it: keep a copy */
			g_autofree gchar *backup =
				sdt_config_writer_backup(self, bytes, "tryboot.txt", error);
			if (backup == NULL)
				return FALSE;
			json_object_set_string_member(result, "tryboot_backup", backup);
		}
	}
	if (previous != NULL) {
		if (!sdt_config_writer_write_atomic(self, tryboot, previous, NULL, error))
			return FALSE;
		json_object_set_string_member(result, "tryboot_restored", previous_path);
		g_ptr_array_add(warnings,
				g_strdup_printf(_("the trial was cancelled: %s is the one from "
						  "before the trial again"),
						display));
	} else {
		if (self->io.unlink(tryboot, self->io.user_data) != 0 && errno != ENOENT)
			return sdt_config_writer_set_write_error(error, errno, tryboot);
		g_ptr_array_add(warnings,
				g_strdup_printf(_("the trial was cancelled: SD Tuner's %s was "
						  "removed"),
						display));
	}
	sdt_config_writer_remove_state(self, SDT_TRIAL_JOURNAL);
	*cancelled = TRUE;
	return TRUE;
}

/* apply and revert ---------------------------------------------------------- */

static gchar *
sdt_config_writer_replace(SdtConfigWriter *self,
			  SdtConfigEdit *edit,
			  const gchar *hash_before,
			  GError **error)
{
	g_autofree gchar *backup =
		sdt_config_writer_backup(self, edit->old_bytes, "config.txt", error);

	if (backup == NULL)
		return NULL;
	if (!sdt_config_writer_write_atomic(self,
					    self->real_path,
					    edit->new_bytes,
					    hash_before,
					    error))
		return NULL;
	return g_steal_pointer(&backup);
}

JsonObject *
sdt_config_writer_apply(SdtConfigWriter *self,
			const SdtConfigBlock *block,
			gboolean trial,
			GError **error)
{
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtConfigEdit) edit = NULL;
	g_auto(SdtConfigEvidence) ev = {NULL};
	g_autofree gchar *diff = NULL;
	g_autofree gchar *backup = NULL;
	g_autofree gchar *hash_before = NULL;
	g_autofree gchar *hash_after = NULL;
	g_autoptr(JsonObject) result = json_object_new();
	gboolean changed;

	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);
	cfg = sdt_config_writer_begin(self, &old, error);
	if (cfg == NULL)
		return NULL;
	if (!sdt_config_writer_evidence(self, cfg, old, &ev, error)) {
		sdt_config_writer_unlock(self);
		return NULL;
	}
	edit = sdt_config_edit_apply(cfg, block, (const gchar *const *) ev.block, error);
	if (edit == NULL) {
		g_prefix_error(error, _("cannot edit %s: "), self->path);
		sdt_config_writer_unlock(self);
		return NULL;
	}
	diff = sdt_config_diff_unified(self->display_path, edit->old_bytes, edit->new_bytes);
	changed = !g_bytes_equal(edit->old_bytes, edit->new_bytes);
	hash_before = sdt_config_hash(edit->old_bytes);
	hash_after = sdt_config_hash(edit->new_bytes);

	if (trial) {
		/* a one-time boot: tryboot.txt = the whole new config.txt (PLATFORM.md §4),
		 * built from config.txt as it is now */
		g_autofree gchar *tryboot_display = sdt_config_writer_get_tryboot_display(self);
		if (!sdt_config_writer_write_trial(self,
						   block->id,
						   edit->new_bytes,
						   hash_before,
						   &backup,
						   error)) {
			sdt_config_writer_unlock(self);
			return NULL;
		}
		json_object_set_string_member(result, "path", tryboot_display);
		json_object_set_boolean_member(result, "trial", TRUE);
		json_object_set_string_member(result, "reboot_command", "sudo reboot '0 tryboot'");
	} else {
		if (changed) {
			g_autoptr(JsonObject) journal = json_object_new();
			g_autoptr(GDateTime) now = sdt_config_writer_now(self);
			g_autofree gchar *iso = g_date_time_format_iso8601(now);
			g_autofree gchar *boot_id = sdt_config_writer_get_boot_id(self);
			backup = sdt_config_writer_replace(self, edit, hash_before, error);
			if (backup == NULL) {
				sdt_config_writer_unlock(self);
				return NULL;
			}
			json_object_set_int_member(journal, "version", 2);
			json_object_set_string_member(journal, "id", block->id);
			json_object_set_string_member(journal, "path", self->display_path);
			json_object_set_string_member(journal, "filter", block->filter);
			json_object_set_int_member(journal, "type_code", block->type_code);
			json_object_set_array_member(journal,
						     "block",
						     sdt_json_array_from_strings(edit->block));
			json_object_set_array_member(journal,
						     "disabled",
						     sdt_json_array_from_strings(edit->disabled));
			/* a block of SD Tuner's replaced in a file as SD Tuner left it (a
			 * step down, a card moved between boards): the file before SD
			 * Tuner's first change stays the one revert gives back */
			if (ev.own_state && ev.backup != NULL && ev.backup_path != NULL) {
				g_autofree gchar *first = sdt_config_hash(ev.backup);
				json_object_set_string_member(journal, "backup", ev.backup_path);
				json_object_set_string_member(journal, "sha256_before", first);
			} else {
				json_object_set_string_member(journal, "backup", backup);
				json_object_set_string_member(journal,
							      "sha256_before",
							      hash_before);
			}
			json_object_set_string_member(journal, "sha256_after", hash_after);
			json_object_set_string_member(journal, "time", iso);
			/* "has it rebooted since": compared by boot id, never by the clock */
			if (boot_id != NULL)
				json_object_set_string_member(journal, "boot_id", boot_id);
			else
				json_object_set_null_member(journal, "boot_id");
			/* the file is already right; revert works from the markers alone */
			if (!sdt_config_writer_write_json(self,
							  SDT_CONFIG_JOURNAL,
							  journal,
							  error)) {
				g_prefix_error(error,
					       _("%s was changed, but the journal could not be "
						 "saved: "),
					       self->path);
				sdt_config_writer_unlock(self);
				return NULL;
			}
		}
		json_object_set_string_member(result, "path", self->display_path);
	}
	json_object_set_string_member(result, "id", block->id);
	json_object_set_string_member(result, "diff", diff);
	if (backup != NULL)
		json_object_set_string_member(result, "backup", backup);
	else
		json_object_set_null_member(result, "backup");
	json_object_set_boolean_member(result, "reboot_required", changed || trial);
	json_object_set_boolean_member(result, "changed", changed);
	json_object_set_array_member(result,
				     "disabled",
				     sdt_json_array_from_strings(edit->disabled));
	json_object_set_array_member(result,
				     "warnings",
				     sdt_json_array_from_strings(edit->warnings));
	sdt_config_writer_unlock(self);
	return g_steal_pointer(&result);
}

/* an error of a backup SD Tuner may go on without: the state dir is full or read-only */
static gboolean
sdt_config_backup_error_is_space(const GError *error)
{
	return g_error_matches(error, SDT_ERROR, SDT_ERROR_NO_SPACE) ||
	       g_error_matches(error, SDT_ERROR, SDT_ERROR_READ_ONLY);
}

JsonObject *
sdt_config_writer_revert(SdtConfigWriter *self, GError **error)
{
	g_autoptr(GBytes) old = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtConfigEdit) edit = NULL;
	g_auto(SdtConfigEvidence) ev = {NULL};
	g_auto(GStrv) template = NULL;
	g_autofree gchar *diff = NULL;
	g_autofree gchar *backup = NULL;
	g_autofree gchar *hash_before = NULL;
	g_autofree gchar *id = NULL;
	g_autoptr(JsonObject) result = json_object_new();
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	gboolean has_block;
	gboolean cancelled = FALSE;

	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);
	cfg = sdt_config_writer_begin(self, &old, error);
	if (cfg == NULL)
		return NULL;
	id = sdt_config_txt_get_block_id(cfg);
	has_block = sdt_config_txt_find_block(cfg, NULL, NULL);
	if (!sdt_config_writer_evidence(self, cfg, old, &ev, error)) {
		sdt_config_writer_unlock(self);
		return NULL;
	}
	/* a tryboot.txt that cannot be read: refused before anything changes */
	{
		g_autoptr(GError) local = NULL;
		g_autoptr(GBytes) tryboot = NULL;
		gboolean exists = FALSE;
		tryboot = sdt_config_writer_read_tryboot(self, &exists, &local);
		if (exists && tryboot == NULL) {
			g_autofree gchar *display = sdt_config_writer_get_tryboot_display(self);
			g_set_error(
				error,
				SDT_ERROR,
				local->code,
				_("SD Tuner cannot read %s (%s), so it cannot tell whether a "
				  "trial is pending and changes nothing: move that file away by "
				  "hand, then try again"),
				display,
				local->message);
			sdt_config_writer_unlock(self);
			return NULL;
		}
	}
	if (has_block) {
		const gchar *const *ours = (const gchar *const *) ev.block;
		edit = sdt_config_edit_revert(cfg, ours, error);
		if (edit == NULL) {
			g_prefix_error(error, "%s: ", self->path);
			sdt_config_writer_unlock(self);
			return NULL;
		}
		if (ours == NULL) {
			guint begin = 0;
			guint end = 0;
			sdt_config_txt_find_block(cfg, &begin, &end);
			template = sdt_config_block_template_for(cfg, begin, end);
			ours = (const gchar *const *) template;
		}
		/* without a journal: the newest backup with exactly these bytes shows the
		 * file is as SD Tuner's apply left it */
		if (ev.journal == NULL && edit->kept->len == 0) {
			g_autofree gchar *newest = sdt_config_writer_newest_backup(self);
			g_autoptr(GBytes) bytes =
				newest != NULL ? sdt_config_read_limited(newest, NULL) : NULL;
			if (bytes != NULL && g_bytes_equal(bytes, edit->new_bytes)) {
				ev.own_state = TRUE;
				ev.backup_path = g_steal_pointer(&newest);
			}
		}
		if (!sdt_config_writer_verify_revert(self, cfg, edit, ours, &ev, error)) {
			sdt_config_writer_unlock(self);
			return NULL;
		}
		for (guint i = 0; i < edit->warnings->len; i++)
			g_ptr_array_add(warnings, g_strdup(g_ptr_array_index(edit->warnings, i)));
		diff = sdt_config_diff_unified(self->display_path,
					       edit->old_bytes,
					       edit->new_bytes);
		hash_before = sdt_config_hash(edit->old_bytes);
		if (ev.own_state && ev.backup_path != NULL) {
			/* SD Tuner's own state: the backup from before the apply has the old bytes
			 */
			g_ptr_array_add(
				warnings,
				g_strdup_printf(_("no new backup was needed: %s was exactly as "
						  "SD Tuner's change left it, and %s holds it as "
						  "it was before the change"),
						self->display_path,
						ev.backup_path));
		} else {
			g_autoptr(GError) local = NULL;
			backup = sdt_config_writer_backup(self,
							  edit->old_bytes,
							  "config.txt",
							  &local);
			if (backup == NULL && !sdt_config_backup_error_is_space(local)) {
				g_propagate_error(error, g_steal_pointer(&local));
				sdt_config_writer_unlock(self);
				return NULL;
			}
			if (backup == NULL)
				g_ptr_array_add(
					warnings,
					g_strdup_printf(_("the file as it was before this revert "
							  "could not be saved (%s); only SD "
							  "Tuner's lines were removed, so nothing "
							  "you wrote is lost"),
							local->message));
		}
		if (!sdt_config_writer_write_atomic(self,
						    self->real_path,
						    edit->new_bytes,
						    hash_before,
						    error)) {
			sdt_config_writer_unlock(self);
			return NULL;
		}
		sdt_config_writer_remove_state(self, SDT_CONFIG_JOURNAL);
	}

	/* a pending trial goes too: it would bring the change back */
	if (!sdt_config_writer_cancel_trial(self, result, warnings, &cancelled, error)) {
		if (edit != NULL)
			g_prefix_error(error,
				       _("%s was reverted, but the trial could not be cancelled: "),
				       self->display_path);
		sdt_config_writer_unlock(self);
		return NULL;
	}
	if (edit == NULL && !cancelled) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_NOT_FOUND,
				    _("SD Tuner has no change in this file: nothing to revert"));
		g_prefix_error(error, "%s: ", self->path);
		sdt_config_writer_unlock(self);
		return NULL;
	}

	if (id != NULL)
		json_object_set_string_member(result, "id", id);
	else
		json_object_set_null_member(result, "id");
	json_object_set_string_member(result, "path", self->display_path);
	json_object_set_string_member(result, "diff", diff != NULL ? diff : "");
	if (backup != NULL)
		json_object_set_string_member(result, "backup", backup);
	else
		json_object_set_null_member(result, "backup");
	if (ev.backup_path != NULL)
		json_object_set_string_member(result, "backup_before_change", ev.backup_path);
	else
		json_object_set_null_member(result, "backup_before_change");
	json_object_set_boolean_member(result, "reboot_required", edit != NULL);
	json_object_set_boolean_member(result, "trial_cancelled", cancelled);
	json_object_set_array_member(result,
				     "restored",
				     edit != NULL ? sdt_json_array_from_strings(edit->disabled)
						  : json_array_new());
	json_object_set_array_member(result,
				     "kept",
				     edit != NULL ? sdt_json_array_from_strings(edit->kept)
						  : json_array_new());
	json_object_set_array_member(result, "warnings", sdt_json_array_from_strings(warnings));
	sdt_config_writer_unlock(self);
	return g_steal_pointer(&result);
}
