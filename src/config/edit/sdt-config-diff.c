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

static void
sdt_diff_push(GArray *ops, guint8 op, gsize count)
{
	for (gsize i = 0; i < count; i++)
		g_array_append_val(ops, op);
}

#define SDT_DIFF_A(k) (&g_array_index(a, SdtDiffLine, (k)))
#define SDT_DIFF_B(k) (&g_array_index(b, SdtDiffLine, (k)))

/*
 * The edit script of the middle, @n lines of @a and @m lines of @b from
 * @pre on: a longest common subsequence, or all removals then all additions
 * when the table would be too large.
 */
static void
sdt_diff_middle(GArray *ops, GArray *a, GArray *b, gsize pre, gsize n, gsize m)
{
	g_autofree guint32 *t = NULL;
	gsize i = 0;
	gsize j = 0;

	if ((guint64) (n + 1) * (m + 1) > 4 * 1000 * 1000) {
		sdt_diff_push(ops, SDT_DIFF_DEL, n);
		sdt_diff_push(ops, SDT_DIFF_INS, m);
		return;
	}
	t = g_new0(guint32, (n + 1) * (m + 1));
	for (gsize x = n; x-- > 0;) {
		for (gsize y = m; y-- > 0;) {
			if (sdt_diff_line_equal(SDT_DIFF_A(pre + x), SDT_DIFF_B(pre + y)))
				t[x * (m + 1) + y] = t[(x + 1) * (m + 1) + y + 1] + 1;
			else
				t[x * (m + 1) + y] =
					MAX(t[(x + 1) * (m + 1) + y], t[x * (m + 1) + y + 1]);
		}
	}
	while (i < n || j < m) {
		guint8 op;
		if (i < n && j < m &&
		    sdt_diff_line_equal(SDT_DIFF_A(pre + i), SDT_DIFF_B(pre + j))) {
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
}

/* the edit script from @a to @b: equal prefix and suffix, then the middle */
static GArray *
sdt_diff_ops(GArray *a, GArray *b)
{
	GArray *ops = g_array_new(FALSE, FALSE, sizeof(guint8));
	gsize pre = 0;
	gsize suf = 0;

	while (pre < a->len && pre < b->len &&
	       sdt_diff_line_equal(SDT_DIFF_A(pre), SDT_DIFF_B(pre)))
		pre++;
	while (suf < a->len - pre && suf < b->len - pre &&
	       sdt_diff_line_equal(SDT_DIFF_A(a->len - 1 - suf), SDT_DIFF_B(b->len - 1 - suf)))
		suf++;
	sdt_diff_push(ops, SDT_DIFF_EQ, pre);
	sdt_diff_middle(ops, a, b, pre, a->len - pre - suf, b->len - pre - suf);
	sdt_diff_push(ops, SDT_DIFF_EQ, suf);
	return ops;
}

/*
 * The end of the hunk that starts with the change at @k: changes with at
 * most 2 × 3 equal lines between them join; 3 lines of context after.
 */
static gsize
sdt_diff_hunk_end(GArray *ops, gsize k)
{
	gsize j = k;
	gsize end_change;

	for (;;) {
		gsize eq = 0;
		while (j < ops->len && g_array_index(ops, guint8, j) != SDT_DIFF_EQ)
			j++;
		end_change = j;
		while (j + eq < ops->len && g_array_index(ops, guint8, j + eq) == SDT_DIFF_EQ)
			eq++;
		if (j + eq < ops->len && eq <= 6) {
			j += eq;
			continue;
		}
		break;
	}
	return MIN(ops->len, end_change + 3);
}

/* how many lines of the old (@old TRUE) or new file the ops [@from, @to) span */
static gsize
sdt_diff_count(GArray *ops, gsize from, gsize to, gboolean old)
{
	gsize n = 0;

	for (gsize x = from; x < to; x++) {
		guint8 op = g_array_index(ops, guint8, x);
		if (op != (old ? SDT_DIFF_INS : SDT_DIFF_DEL))
			n++;
	}
	return n;
}

/* one hunk: the ops [@hs, @he), with its header */
static void
sdt_diff_print_hunk(GString *out, GArray *ops, GArray *a, GArray *b, gsize hs, gsize he)
{
	gsize ai = sdt_diff_count(ops, 0, hs, TRUE);
	gsize bi = sdt_diff_count(ops, 0, hs, FALSE);

	g_string_append(out, "@@ -");
	sdt_diff_range(out, ai, sdt_diff_count(ops, hs, he, TRUE));
	g_string_append(out, " +");
	sdt_diff_range(out, bi, sdt_diff_count(ops, hs, he, FALSE));
	g_string_append(out, " @@\n");
	for (gsize x = hs; x < he; x++) {
		guint8 op = g_array_index(ops, guint8, x);
		if (op == SDT_DIFF_EQ)
			sdt_diff_print_line(out, ' ', SDT_DIFF_A(ai++));
		else if (op == SDT_DIFF_DEL)
			sdt_diff_print_line(out, '-', SDT_DIFF_A(ai++));
		if (op == SDT_DIFF_EQ)
			bi++;
		else if (op == SDT_DIFF_INS)
			sdt_diff_print_line(out, '+', SDT_DIFF_B(bi++));
	}
}

gchar *
sdt_config_diff_unified(const gchar *label, GBytes *old_bytes, GBytes *new_bytes)
{
	g_autoptr(GArray) a = NULL;
	g_autoptr(GArray) b = NULL;
	g_autoptr(GArray) ops = NULL;
	GString *out = g_string_new(NULL);

	if (g_bytes_equal(old_bytes, new_bytes))
		return g_string_free(out, FALSE);
	a = sdt_diff_split(old_bytes);
	b = sdt_diff_split(new_bytes);
	ops = sdt_diff_ops(a, b);
	g_string_append_printf(out, "--- a%s\n+++ b%s\n", label, label);
	for (gsize k = 0; k < ops->len;) {
		gsize he;
		if (g_array_index(ops, guint8, k) == SDT_DIFF_EQ) {
			k++;
			continue;
		}
		he = sdt_diff_hunk_end(ops, k);
		sdt_diff_print_hunk(out, ops, a, b, k >= 3 ? k - 3 : 0, he);
		k = he;
	}
	return g_string_free(out, FALSE);
}
