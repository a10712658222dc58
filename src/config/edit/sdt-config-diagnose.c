/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the one diagnosis of a damaged block of SD Tuner's */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-config-diagnose.h"
#include "sdt-config-txt-private.h"

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
		    sdt_config_sd_line_kind(line, NULL, &mhz, &cqe) == SDT_CONFIG_SD_NONE)
			continue;
		item = g_strdup_printf(_("line %u “%s”"), i + 1, line->text);
		if (list->len > 0)
			/* Translators: what goes between the items of a list (“reducing
			 * overclock due to errors”, 3 time-outs); the app and sdtunerctl
			 * split the helper's English list at ", " and join the translated
			 * items with this */
			g_string_append(list, C_("list separator", ", "));
		g_string_append(list, item);
	}
	return list->len > 0 ? g_strdup(list->str) : NULL;
}

/* where SD Tuner's marks are in a file (1-based line numbers, 0: none) */
typedef struct {
	guint n_begin;
	guint n_end;
	guint first_begin;
	guint first_end;
	guint second; /* the first repeated marker */
	guint first_disabled;
} SdtConfigMarks;

static void
sdt_config_marks_find(GPtrArray *lines, SdtConfigMarks *m)
{
	for (guint i = 0; i < lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN)) {
			if (m->n_begin == 0)
				m->first_begin = i + 1;
			else if (m->second == 0)
				m->second = i + 1;
			m->n_begin++;
		} else if (g_strcmp0(line->text, SDT_CONFIG_BLOCK_END) == 0) {
			if (m->n_end == 0)
				m->first_end = i + 1;
			else if (m->second == 0)
				m->second = i + 1;
			m->n_end++;
		} else if (m->first_disabled == 0 &&
			   g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK)) {
			m->first_disabled = i + 1;
		}
	}
}

/* a marker is repeated */
static gchar *
sdt_config_diagnose_repeated(SdtConfigTxt *cfg,
			     const gchar *display_path,
			     const SdtConfigMarks *m,
			     gchar **in_effect)
{
	*in_effect = sdt_config_sd_lines_between(cfg,
						 MIN(m->first_begin, m->first_end),
						 sdt_config_txt_get_lines(cfg)->len);
	return g_strdup_printf(
		_("SD Tuner's block in %s is damaged: a marker line is repeated on line "
		  "%u, "
		  "so SD Tuner cannot tell which lines are its own and changes nothing. "
		  "Delete the repeated marker and anything SD Tuner wrote twice by hand, "
		  "keeping one “%s” and one “%s” line, then run “sdtunerctl revert”."),
		display_path,
		m->second,
		SDT_CONFIG_BLOCK_BEGIN "…",
		SDT_CONFIG_BLOCK_END);
}

/* the end marker is missing (or stands above the begin marker) */
static gchar *
sdt_config_diagnose_no_end(SdtConfigTxt *cfg,
			   const gchar *display_path,
			   const SdtConfigMarks *m,
			   gchar **in_effect)
{
	*in_effect = sdt_config_sd_lines_between(cfg,
						 m->first_begin,
						 sdt_config_txt_get_lines(cfg)->len);
	return g_strdup_printf(
		_("SD Tuner's block in %s is damaged: the end marker “%s” after line %u is "
		  "missing, so SD Tuner cannot tell where its lines end and changes "
		  "nothing. Put that line back right after the block's closing “[all]”, "
		  "then run “sdtunerctl revert”."),
		display_path,
		SDT_CONFIG_BLOCK_END,
		m->first_begin);
}

/* the begin marker is missing */
static gchar *
sdt_config_diagnose_no_begin(SdtConfigTxt *cfg,
			     const gchar *display_path,
			     const SdtConfigMarks *m,
			     gchar **in_effect)
{
	*in_effect = sdt_config_sd_lines_between(cfg,
						 m->first_end > 10 ? m->first_end - 10 : 0,
						 m->first_end - 1);
	return g_strdup_printf(
		_("SD Tuner's block in %s is damaged: the begin marker before the end "
		  "marker "
		  "on line %u is missing, so SD Tuner cannot tell where its lines start "
		  "and "
		  "changes nothing. Delete the lines SD Tuner wrote above line %u and that "
		  "line by hand."),
		display_path,
		m->first_end,
		m->first_end);
}

gchar *
sdt_config_diagnose_block(SdtConfigTxt *cfg, const gchar *display_path)
{
	SdtConfigMarks m = {0};
	g_autofree gchar *what = NULL;
	g_autofree gchar *in_effect = NULL;

	sdt_config_marks_find(sdt_config_txt_get_lines(cfg), &m);
	if (m.n_begin == 1 && m.n_end == 1 && m.first_begin < m.first_end)
		return NULL;
	if (m.n_begin == 0 && m.n_end == 0) {
		if (m.first_disabled == 0)
			return NULL;
		return g_strdup_printf(
			_("SD Tuner's block in %s has been removed by hand, but line %u is still "
			  "switched off by SD Tuner (it starts with “%s”). Delete that marker "
			  "to switch the line back on, or delete the line."),
			display_path,
			m.first_disabled,
			SDT_CONFIG_DISABLED_MARK);
	}
	if (m.n_begin > 1 || m.n_end > 1)
		what = sdt_config_diagnose_repeated(cfg, display_path, &m, &in_effect);
	else if (m.n_begin == 1)
		what = sdt_config_diagnose_no_end(cfg, display_path, &m, &in_effect);
	else
		what = sdt_config_diagnose_no_begin(cfg, display_path, &m, &in_effect);
	if (in_effect != NULL) {
		g_autofree gchar *extra =
			g_strdup_printf(_("These SD settings may still be in effect: %s."),
					in_effect);
		return g_strconcat(what, " ", extra, NULL);
	}
	return g_steal_pointer(&what);
}
