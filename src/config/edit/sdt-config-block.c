/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* SD Tuner's block: the lines it writes, and the edited lines of a file */

#include "config.h"

#include <string.h>

#include "sdt-config-block.h"
#include "sdt-config-block-private.h"

void
sdt_config_block_line_free(SdtEditLine *line)
{
	g_free(line->text);
	g_free(line->eol);
	g_free(line);
}

SdtEditLine *
sdt_config_block_line_new(const gchar *text, const gchar *eol)
{
	SdtEditLine *line = g_new0(SdtEditLine, 1);
	line->text = g_strdup(text);
	line->eol = g_strdup(eol);
	return line;
}

void
sdt_config_block_edit_free(SdtConfigEdit *edit)
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

SdtConfigEdit *
sdt_config_block_edit_new(void)
{
	SdtConfigEdit *edit = g_new0(SdtConfigEdit, 1);
	edit->disabled = g_ptr_array_new_with_free_func(g_free);
	edit->warnings = g_ptr_array_new_with_free_func(g_free);
	edit->block = g_ptr_array_new_with_free_func(g_free);
	edit->kept = g_ptr_array_new_with_free_func(g_free);
	return edit;
}

GBytes *
sdt_config_block_lines_to_bytes(GPtrArray *lines)
{
	GString *str = g_string_new(NULL);
	for (guint i = 0; i < lines->len; i++) {
		SdtEditLine *line = g_ptr_array_index(lines, i);
		g_string_append(str, line->text);
		g_string_append(str, line->eol);
	}
	return g_string_free_to_bytes(str);
}

gboolean
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
gchar **
sdt_config_block_template_for(SdtConfigTxt *cfg, guint begin, guint end)
{
	GPtrArray *src = sdt_config_txt_get_lines(cfg);
	g_autofree gchar *id = sdt_config_sd_get_block_id(cfg);
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
