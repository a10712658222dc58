/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * A table of text for the terminal, its columns aligned by display width
 * (sdt_l10n_columns(): a wide CJK character takes two columns, a combining
 * mark none), not by bytes as printf's "%-20s" does: in Japanese, German,
 * French or Spanish a byte count misaligns every column after a non-ASCII cell.
 * Each column is as wide as its widest cell, at least its minimum.
 */
typedef struct _SdtCliTable SdtCliTable;

typedef enum {
	SDT_CLI_TABLE_START, /* left-aligned (in a left-to-right language) */
	SDT_CLI_TABLE_END,   /* right-aligned: figures */
} SdtCliTableAlign;

/* @n_columns columns, each with its alignment and minimum width in columns */
SdtCliTable *sdt_cli_table_new(guint n_columns,
			       const SdtCliTableAlign *align,
			       const glong *min_width,
			       const gchar *gap);
void sdt_cli_table_free(SdtCliTable *table);
/* one row: @cells holds n_columns texts (NULL is an empty cell) */
void sdt_cli_table_add(SdtCliTable *table, const gchar *const *cells);
/* every row, each ending with a line break; no trailing spaces */
gchar *sdt_cli_table_format(const SdtCliTable *table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtCliTable, sdt_cli_table_free)

G_END_DECLS
