/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the one diagnosis of a damaged block of SD Tuner's */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-config-diagnose.h"

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
