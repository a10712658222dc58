/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* whether SD Tuner may edit a config.txt: the checks of the bytes and of the model */

#include "config.h"

#include <inttypes.h>
#include <glib/gi18n.h>
#include <string.h>

#include "sdt-config-txt.h"
#include "sdt-error.h"

gboolean
sdt_config_editable_check_bytes(GBytes *bytes, GError **error)
{
	gsize len = 0;
	const gchar *data;
	const gchar *nul;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	data = g_bytes_get_data(bytes, &len);
	if (len > SDT_CONFIG_TXT_MAX_SIZE) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("the file is %zu bytes long; a boot configuration "
			      "is a few kilobytes and SD Tuner edits files up to 1 MiB: check that "
			      "it is the right file and shrink it by hand"),
			    len);
		return FALSE;
	}
	nul = len > 0 ? memchr(data, '\0', len) : NULL;
	if (nul != NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("the file contains a NUL byte at offset %lu, so it is damaged or not "
			      "a text file: restore it from a backup before changing it"),
			    (gulong) (nul - data));
		return FALSE;
	}
	return TRUE;
}

/* what the whole-file checks need to know, gathered in one pass */
typedef struct {
	gboolean has_setting;
	gboolean has_none;
	guint n_begin;
	guint n_end;
	guint first_disabled;
} SdtConfigEditableScan;

/* one line: not longer than any real config.txt has, no unclosed filter */
static gboolean
sdt_config_editable_line(const SdtConfigLine *line, guint i, GError **error)
{
	if (line->text_len > SDT_CONFIG_TXT_MAX_RAW_LINE) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: the firmware reads only 98 characters */
			    _("line %u is %lu characters long; the firmware "
			      "reads only the first %d characters of a line: shorten or "
			      "remove that line by hand"),
			    i + 1,
			    (gulong) line->text_len,
			    SDT_CONFIG_TXT_MAX_LINE_LENGTH);
		return FALSE;
	}
	if (line->kind == SDT_CONFIG_LINE_FILTER_BAD) {
		g_autofree gchar *shown = g_strstrip(g_strdup(line->text));
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("line %u “%s” opens a filter with “[” but never closes it "
			      "with “]”, so it is unclear which boards the lines after it "
			      "apply to: fix that line by hand"),
			    i + 1,
			    shown);
		return FALSE;
	}
	return TRUE;
}

static void
sdt_config_editable_count(const SdtConfigLine *line, guint i, SdtConfigEditableScan *scan)
{
	if (line->kind == SDT_CONFIG_LINE_SETTING || line->kind == SDT_CONFIG_LINE_INCLUDE ||
	    line->kind == SDT_CONFIG_LINE_DIRECTIVE)
		scan->has_setting = TRUE;
	if (line->kind == SDT_CONFIG_LINE_FILTER && g_strcmp0(line->filter, "none") == 0)
		scan->has_none = TRUE;
	if (g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN))
		scan->n_begin++;
	if (g_strcmp0(line->text, SDT_CONFIG_BLOCK_END) == 0)
		scan->n_end++;
	if (scan->first_disabled == 0 && g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK))
		scan->first_disabled = i + 1;
}

/* "…\r" at the very end: a line feed after it would turn it into a CRLF ending */
static gboolean
sdt_config_editable_ends_with_cr(GPtrArray *lines)
{
	SdtConfigLine *last;

	if (lines->len == 0)
		return FALSE;
	last = g_ptr_array_index(lines, lines->len - 1);
	return last->eol[0] == '\0' && last->text_len > 0 && last->text[last->text_len - 1] == '\r';
}

/* the checks of the whole file, in order */
static gboolean
sdt_config_editable_file(SdtConfigTxt *self, const SdtConfigEditableScan *scan, GError **error)
{
	if (scan->has_none && !scan->has_setting) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("the file holds no settings, only a [none] filter that "
				      "switches everything off; this is not a usable boot "
				      "configuration: check that the right boot partition is "
				      "mounted"));
		return FALSE;
	}
	if (scan->n_begin > 1 || scan->n_end > 1 || scan->n_begin != scan->n_end ||
	    (scan->n_begin == 1 && !sdt_config_sd_find_block(self, NULL, NULL))) {
		g_set_error_literal(
			error,
			SDT_ERROR,
			SDT_ERROR_INVALID_DATA,
			_("SD Tuner's marked block is damaged (a begin or end marker "
			  "is missing or repeated): remove the SD Tuner lines by hand or "
			  "restore a backup from /var/lib/sd-tuner/backups"));
		return FALSE;
	}
	if (sdt_config_editable_ends_with_cr(sdt_config_txt_get_lines(self))) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("the file ends with a carriage return (CR) but no line "
				      "feed, so a line cannot be added after it without "
				      "changing that line: end the file with a normal line "
				      "break, then try again"));
		return FALSE;
	}
	/* a line SD Tuner switched off, but its block was removed by hand */
	if (scan->first_disabled > 0 && scan->n_begin == 0) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("line %u was switched off by SD Tuner (it starts with “%s”), but "
			      "SD Tuner's block has been removed by hand: delete that marker to "
			      "switch the line back on, or delete the line, then try again"),
			    scan->first_disabled,
			    SDT_CONFIG_DISABLED_MARK);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_config_editable_check(SdtConfigTxt *self, GError **error)
{
	SdtConfigEditableScan scan = {0};
	GPtrArray *lines;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), FALSE);

	lines = sdt_config_txt_get_lines(self);
	for (guint i = 0; i < lines->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (!sdt_config_editable_line(line, i, error))
			return FALSE;
		sdt_config_editable_count(line, i, &scan);
	}
	return sdt_config_editable_file(self, &scan, error);
}
