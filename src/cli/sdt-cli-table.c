/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-cli-table.h"
#include "sdt-l10n.h"

struct _SdtCliTable {
	guint n_columns;
	SdtCliTableAlign *align;
	glong *width;
	gchar *gap;
	GPtrArray *rows; /* of GStrv */
};

SdtCliTable *
sdt_cli_table_new(guint n_columns,
		  const SdtCliTableAlign *align,
		  const glong *min_width,
		  const gchar *gap)
{
	SdtCliTable *table = g_new0(SdtCliTable, 1);

	table->n_columns = n_columns;
	table->align = g_memdup2(align, n_columns * sizeof(*align));
	table->width = g_memdup2(min_width, n_columns * sizeof(*min_width));
	table->gap = g_strdup(gap);
	table->rows = g_ptr_array_new_with_free_func((GDestroyNotify) g_strfreev);
	return table;
}

void
sdt_cli_table_free(SdtCliTable *table)
{
	if (table == NULL)
		return;
	g_free(table->align);
	g_free(table->width);
	g_free(table->gap);
	g_ptr_array_unref(table->rows);
	g_free(table);
}

void
sdt_cli_table_add(SdtCliTable *table, const gchar *const *cells)
{
	gchar **row = g_new0(gchar *, table->n_columns + 1);

	for (guint i = 0; i < table->n_columns; i++) {
		row[i] = g_strdup(cells[i] != NULL ? cells[i] : "");
		table->width[i] = MAX(table->width[i], sdt_l10n_columns(row[i]));
	}
	g_ptr_array_add(table->rows, row);
}

gchar *
sdt_cli_table_format(const SdtCliTable *table)
{
	GString *out = g_string_new(NULL);

	for (guint r = 0; r < table->rows->len; r++) {
		gchar **row = g_ptr_array_index(table->rows, r);
		gsize start = out->len;

		for (guint i = 0; i < table->n_columns; i++) {
			glong fill = table->width[i] - sdt_l10n_columns(row[i]);

			if (i > 0)
				g_string_append(out, table->gap);
			if (table->align[i] == SDT_CLI_TABLE_END)
				for (glong k = 0; k < fill; k++)
					g_string_append_c(out, ' ');
			g_string_append(out, row[i]);
			if (table->align[i] == SDT_CLI_TABLE_START)
				for (glong k = 0; k < fill; k++)
					g_string_append_c(out, ' ');
		}
		/* no trailing spaces */
		while (out->len > start && out->str[out->len - 1] == ' ')
			g_string_truncate(out, out->len - 1);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}
