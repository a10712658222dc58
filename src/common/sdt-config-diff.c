/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* a unified diff of two versions of a file, as `diff -u` prints it */

#include "config.h"

#include <string.h>

#include "sdt-config-diff.h"

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
