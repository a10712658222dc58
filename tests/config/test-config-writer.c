/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sdt-config-apply.h"
#include "sdt-config-writer.h"
#include "sdt-config-writer-private.h"
#include "sdt-ops-config.h"
#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-recommend.h"
#include "sdt-state-lock.h"
#include "sdt-test-config.h"

/* sdt_history_append() of an entry of @kind around @doc (its members as given) */
static gboolean
test_history_append(SdtContext *ctx, const gchar *kind, JsonObject *doc, GError **error)
{
	g_autoptr(SdtHistoryEntry) entry = sdt_history_entry_new(kind, NULL, doc);

	return sdt_history_append(ctx, entry, NULL, error);
}

/* the block SD Tuner writes for a board family */
typedef struct {
	gchar *filter;
	const gchar *lines[2];
	SdtConfigBlock block;
} TestBlock;

static void
test_block_init(TestBlock *tb, gint type_code)
{
	const gchar *filter = sdt_recommend_filter_for_type(type_code);

	/* the Pi 4 family gets no recommendation; its block only exercises the writer */
	tb->filter = filter != NULL ? g_strdup(filter)
				    : g_strdup_printf("[board-type=0x%02x]", type_code);
	if (type_code >= 0x17) {
		tb->lines[0] = "dtparam=sd_cqe=2";
		tb->block.id = "sd-cqe-2";
		tb->block.replaces = SDT_CONFIG_SD_CQE;
	} else {
		tb->lines[0] = "dtparam=sd_overclock=100";
		tb->block.id = "sd-overclock-100";
		tb->block.replaces = SDT_CONFIG_SD_OVERCLOCK | SDT_CONFIG_SD_OVERLAY_SDHOST;
	}
	tb->lines[1] = NULL;
	tb->block.filter = tb->filter;
	tb->block.lines = tb->lines;
	tb->block.type_code = type_code;
}

static void
test_block_clear(TestBlock *tb)
{
	g_free(tb->filter);
}

static SdtConfigTxt *
test_parse_bytes(GBytes *bytes)
{
	return sdt_config_txt_new_from_bytes(bytes, "config.txt");
}

static gchar **
test_block_strv(SdtConfigEdit *edit)
{
	gchar **strv = g_new0(gchar *, edit->block->len + 1);
	for (guint i = 0; i < edit->block->len; i++)
		strv[i] = g_strdup(g_ptr_array_index(edit->block, i));
	return strv;
}

/* "text\tapplies" of the model's lines in effect */
static GPtrArray *
test_model_in_effect(GBytes *bytes, gint type_code)
{
	g_autoptr(SdtConfigTxt) cfg = test_parse_bytes(bytes);
	g_autoptr(GPtrArray) lines = sdt_config_entries_lines_in_effect(cfg, type_code);
	GPtrArray *result = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; i < lines->len; i++) {
		SdtConfigEntry *e = g_ptr_array_index(lines, i);
		g_ptr_array_add(result, g_strdup_printf("%s\t%d", e->line->text, e->applies));
	}
	return result;
}

static void
test_assert_same_lines(GPtrArray *a, GPtrArray *b, const gchar *what)
{
	if (a->len != b->len)
		g_error("%s: %u lines before, %u after", what, a->len, b->len);
	for (guint i = 0; i < a->len; i++) {
		if (g_strcmp0(g_ptr_array_index(a, i), g_ptr_array_index(b, i)) != 0)
			g_error("%s: line %u “%s” became “%s”",
				what,
				i,
				(const gchar *) g_ptr_array_index(a, i),
				(const gchar *) g_ptr_array_index(b, i));
	}
}

/* every line of @new_bytes that is not in @old_bytes is at most 98 characters */
static void
test_assert_new_lines_short(GBytes *old_bytes, GBytes *new_bytes, const gchar *eol)
{
	g_autoptr(SdtConfigTxt) a = test_parse_bytes(old_bytes);
	g_autoptr(SdtConfigTxt) b = test_parse_bytes(new_bytes);
	g_autoptr(GHashTable) old_lines = g_hash_table_new(g_str_hash, g_str_equal);
	GPtrArray *la = sdt_config_txt_get_lines(a);
	GPtrArray *lb = sdt_config_txt_get_lines(b);

	for (guint i = 0; i < la->len; i++)
		g_hash_table_add(old_lines, ((SdtConfigLine *) g_ptr_array_index(la, i))->text);
	for (guint i = 0; i < lb->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(lb, i);
		if (g_hash_table_contains(old_lines, line->text))
			continue;
		g_assert_cmpuint(line->text_len, <=, 98);
		if (line->eol[0] != '\0')
			g_assert_cmpstr(line->eol, ==, eol);
	}
}

static GBytes *
test_concat(GBytes *a, const gchar *b)
{
	GString *str = g_string_new_len(g_bytes_get_data(a, NULL), g_bytes_get_size(a));
	g_string_append(str, b);
	return g_string_free_to_bytes(str);
}

static GBytes *
test_revert_bytes(GBytes *bytes, SdtConfigEdit *edit)
{
	g_autoptr(SdtConfigTxt) cfg = test_parse_bytes(bytes);
	g_auto(GStrv) block = test_block_strv(edit);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigEdit) rev = sdt_config_revert(cfg, (const gchar *const *) block, &error);
	g_assert_no_error(error);
	return g_bytes_ref(rev->new_bytes);
}

static void
test_foreign_edits(GBytes *old, SdtConfigEdit *edit, TestBlock *tb, const gchar *path)
{
	g_autoptr(SdtConfigTxt) old_cfg = test_parse_bytes(old);
	const gchar *eol = sdt_config_txt_get_eol_style(old_cfg);
	gsize old_len = g_bytes_get_size(old);
	gsize new_len = 0;
	const gchar *new_data = g_bytes_get_data(edit->new_bytes, &new_len);
	gboolean old_open =
		old_len > 0 && ((const gchar *) g_bytes_get_data(old, NULL))[old_len - 1] != '\n';
	gboolean new_closed = new_len > 0 && new_data[new_len - 1] == '\n';

	/* above: a line at the top */
	{
		g_autofree gchar *top = g_strconcat("# foreign above", eol, NULL);
		GString *s = g_string_new(top);
		g_autoptr(GBytes) edited = NULL;
		g_autoptr(GBytes) got = NULL;
		g_autoptr(GBytes) want = NULL;
		g_string_append_len(s, new_data, new_len);
		edited = g_string_free_to_bytes(s);
		got = test_revert_bytes(edited, edit);
		{
			GString *w = g_string_new(top);
			g_string_append_len(w, g_bytes_get_data(old, NULL), old_len);
			want = g_string_free_to_bytes(w);
		}
		if (!g_bytes_equal(got, want))
			g_error("%s, 0x%02x: an edit above the block was not kept exactly",
				path,
				tb->block.type_code);
	}
	/* below: a line appended after the block, as raspi-config does */
	{
		g_autofree gchar *tail = g_strconcat(new_closed ? "" : eol,
						     "foreign_below=1",
						     new_closed ? eol : "",
						     NULL);
		g_autofree gchar *want_tail = g_strconcat(old_open ? eol : "",
							  "foreign_below=1",
							  new_closed ? eol : "",
							  NULL);
		g_autoptr(GBytes) edited = test_concat(edit->new_bytes, tail);
		g_autoptr(GBytes) got = test_revert_bytes(edited, edit);
		g_autoptr(GBytes) want = test_concat(old, want_tail);
		if (!g_bytes_equal(got, want))
			g_error("%s, 0x%02x: an edit below the block was not kept exactly",
				path,
				tb->block.type_code);
	}
	/* inside: a line after the block's filter; kept, and only for the block's boards */
	{
		g_autofree gchar *needle = g_strconcat(tb->filter, eol, NULL);
		const gchar *pos = g_strstr_len(new_data, new_len, needle);
		GString *s = g_string_new(NULL);
		g_autoptr(GBytes) edited = NULL;
		g_autoptr(GBytes) got = NULL;
		g_autoptr(SdtConfigTxt) got_cfg = NULL;
		g_autofree gchar *fname = g_strndup(tb->filter + 1, strlen(tb->filter) - 2);
		guint n = 0;
		const gint *codes = sdt_config_filter_known_type_codes(&n);

		g_assert_nonnull(pos);
		pos += strlen(needle);
		g_string_append_len(s, new_data, pos - new_data);
		g_string_append_printf(s, "foreign_inside=1%s", eol);
		g_string_append_len(s, pos, new_len - (pos - new_data));
		edited = g_string_free_to_bytes(s);
		got = test_revert_bytes(edited, edit);
		got_cfg = test_parse_bytes(got);
		g_assert_cmpstr(sdt_config_entries_get_value(got_cfg,
							     "foreign_inside",
							     tb->block.type_code),
				==,
				"1");
		for (guint c = 0; c < n; c++) {
			g_autoptr(GPtrArray) a = NULL;
			g_autoptr(GPtrArray) b = NULL;
			if (sdt_config_filter_model_matches(fname, codes[c]))
				continue;
			a = test_model_in_effect(old, codes[c]);
			b = test_model_in_effect(got, codes[c]);
			test_assert_same_lines(a, b, path);
		}
	}
}

/* data: SDT_TEST_CORPUS_OWN or SDT_TEST_CORPUS_SHARED */
static void
test_config_writer_corpus(gconstpointer which)
{
	g_autoptr(GPtrArray) paths = sdt_test_corpus_files(GPOINTER_TO_INT(which));
	gboolean own = GPOINTER_TO_INT(which) == SDT_TEST_CORPUS_OWN;
	guint n_applied = 0;
	guint n_refused = 0;

	if (paths == NULL)
		return; /* skipped: no shared corpus */
	for (guint i = 0; i < paths->len; i++) {
		const gchar *path = g_ptr_array_index(paths, i);
		g_autofree gchar *data = NULL;
		gsize len = 0;
		g_autoptr(GBytes) old = NULL;
		g_autoptr(SdtConfigTxt) cfg = NULL;

		g_assert_true(g_file_get_contents(path, &data, &len, NULL));
		old = g_bytes_new(data, len);
		cfg = test_parse_bytes(old);
		for (guint f = 0; f < sdt_test_n_families; f++) {
			TestBlock tb = {NULL};
			g_autoptr(GError) error = NULL;
			g_autoptr(SdtConfigEdit) edit = NULL;
			g_autoptr(SdtConfigEdit) again = NULL;
			g_autoptr(SdtConfigEdit) rev = NULL;
			g_autoptr(SdtConfigEdit) rev_nojournal = NULL;
			g_autoptr(SdtConfigTxt) applied = NULL;
			g_autoptr(SdtConfigTxt) applied_model = NULL;
			g_auto(GStrv) block = NULL;
			guint n;
			const gint *codes = sdt_config_filter_known_type_codes(&n);
			gint tc = sdt_test_families[f].type_code;

			test_block_init(&tb, tc);
			edit = sdt_config_edit_apply(cfg, &tb.block, NULL, &error);
			if (edit == NULL) {
				/* only files SD Tuner refuses as a whole, never one of its own */
				g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
				g_assert_false(own);
				n_refused++;
				test_block_clear(&tb);
				continue;
			}
			n_applied++;
			g_assert_true(g_bytes_equal(edit->old_bytes, old));
			test_assert_new_lines_short(old,
						    edit->new_bytes,
						    sdt_config_txt_get_eol_style(cfg));
			applied = test_parse_bytes(edit->new_bytes);
			block = test_block_strv(edit);

			/* apply then revert is byte-identical, with and without the journal */
			rev = sdt_config_revert(applied, (const gchar *const *) block, &error);
			g_assert_no_error(error);
			if (!g_bytes_equal(rev->new_bytes, old))
				g_error("%s: apply+revert for 0x%02x is not byte-identical",
					path,
					tc);
			rev_nojournal = sdt_config_revert(applied, NULL, &error);
			g_assert_no_error(error);
			g_assert_true(g_bytes_equal(rev_nojournal->new_bytes, old));

			/* applying twice is applying once */
			again = sdt_config_edit_apply(applied,
						      &tb.block,
						      (const gchar *const *) block,
						      &error);
			g_assert_no_error(error);
			if (!g_bytes_equal(again->new_bytes, edit->new_bytes))
				g_error("%s: applying twice for 0x%02x differs", path, tc);

			/* foreign edits above, below and inside the block survive revert */
			test_foreign_edits(old, edit, &tb, path);

			/* the block takes effect on its own board */
			applied_model = test_parse_bytes(edit->new_bytes);
			g_assert_cmpstr(sdt_config_entries_get_value(applied_model, "dtparam", tc),
					==,
					tb.lines[0] + strlen("dtparam="));

			/* every other board sees exactly the lines it saw before */
			for (guint c = 0; c < n; c++) {
				g_autoptr(GPtrArray) m_old = NULL;
				g_autoptr(GPtrArray) m_new = NULL;
				g_autoptr(GPtrArray) o_old = NULL;
				g_autoptr(GPtrArray) o_new = NULL;
				g_autofree gchar *what = NULL;
				g_autofree gchar *fname =
					g_strndup(tb.filter + 1, strlen(tb.filter) - 2);
				gsize new_len = 0;
				const gchar *new_data = g_bytes_get_data(edit->new_bytes, &new_len);

				if (sdt_config_filter_model_matches(fname, codes[c]))
					continue;
				what = g_strdup_printf("%s, block for 0x%02x, board 0x%02x",
						       path,
						       tc,
						       codes[c]);
				m_old = test_model_in_effect(old, codes[c]);
				m_new = test_model_in_effect(edit->new_bytes, codes[c]);
				test_assert_same_lines(m_old, m_new, what);
				o_old = sdt_test_oracle_in_effect(data, len, codes[c]);
				o_new = sdt_test_oracle_in_effect(new_data, new_len, codes[c]);
				test_assert_same_lines(o_old, o_new, what);
			}
			test_block_clear(&tb);
		}
	}
	g_test_message("corpus: %u %s files; %u apply/revert cycles, %u refused",
		       paths->len,
		       own ? "own" : "shared",
		       n_applied,
		       n_refused);
	if (own)
		g_assert_cmpuint(n_applied, >=, paths->len * sdt_test_n_families);
	else
		g_assert_cmpuint(n_applied, >, 0);
}

static GBytes *
test_load(const gchar *name)
{
	g_autofree gchar *path = g_test_build_filename(G_TEST_DIST, "data", "config", name, NULL);
	gchar *data = NULL;
	gsize len = 0;
	g_assert_true(g_file_get_contents(path, &data, &len, NULL));
	/* keeps the NUL g_file_get_contents() adds, so the data is also a string */
	return g_bytes_new_take(data, len);
}

static GBytes *
test_bytes(const gchar *text)
{
	return g_bytes_new_take(g_strdup(text), strlen(text));
}

static SdtConfigEdit *
test_apply_text(GBytes *bytes, gint type_code, GError **error)
{
	g_autoptr(SdtConfigTxt) cfg = test_parse_bytes(bytes);
	TestBlock tb = {NULL};
	SdtConfigEdit *edit;

	test_block_init(&tb, type_code);
	edit = sdt_config_edit_apply(cfg, &tb.block, NULL, error);
	test_block_clear(&tb);
	return edit;
}

static const gchar *test_pi3_block =
	"# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n"
	"[all]\n"
	"[board-type=0x08]\n"
	"dtoverlay=\n"
	"dtparam=sd_overclock=100\n"
	"[all]\n"
	"# --- SD Tuner end ---\n";

/* test_pi3_block as the lines a unified diff adds */
#define TEST_PI3_BLOCK_ADDED                                                      \
	"+# --- SD Tuner begin: sd-overclock-100 (undo: sdtunerctl revert) ---\n" \
	"+[all]\n"                                                                \
	"+[board-type=0x08]\n"                                                    \
	"+dtoverlay=\n"                                                           \
	"+dtparam=sd_overclock=100\n"                                             \
	"+[all]\n"                                                                \
	"+# --- SD Tuner end ---\n"

static void
test_config_writer_block_exact(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigEdit) edit = test_apply_text(old, 0x08, &error);
	g_autofree gchar *want = NULL;
	g_autofree gchar *diff = NULL;

	g_assert_no_error(error);
	want = g_strconcat(g_bytes_get_data(old, NULL), test_pi3_block, NULL);
	g_assert_cmpstr(g_bytes_get_data(edit->new_bytes, NULL), ==, want);
	diff = sdt_config_diff_unified("/boot/firmware/config.txt", old, edit->new_bytes);
	g_assert_cmpstr(diff,
			==,
			"--- a/boot/firmware/config.txt\n"
			"+++ b/boot/firmware/config.txt\n"
			"@@ -46,3 +46,10 @@\n"
			" dtoverlay=dwc2,dr_mode=host\n"
			" \n"
			" [all]\n" TEST_PI3_BLOCK_ADDED);
}

/* two hunks, removals first, as diff -u prints them */
static void
test_config_writer_diff_hunks(void)
{
	g_autoptr(GBytes) old = test_bytes("dtparam=audio=on\n"
					   "[board-type=0x08]\n"
					   "dtoverlay=sdhost,overclock_50=100\n"
					   "dtparam=force_pio=off\n"
					   "[all]\n"
					   "a=1\nb=1\nc=1\nd=1\ne=1\nf=1\ng=1\nh=1\n");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigEdit) edit = test_apply_text(old, 0x08, &error);
	g_autofree gchar *diff = NULL;
	g_autoptr(GBytes) a = test_bytes("x\ny");
	g_autoptr(GBytes) b = test_bytes("x\ny\n");
	g_autofree gchar *eol_diff = NULL;

	g_assert_no_error(error);
	diff = sdt_config_diff_unified("/boot/firmware/config.txt", old, edit->new_bytes);
	g_assert_cmpstr(diff,
			==,
			"--- a/boot/firmware/config.txt\n"
			"+++ b/boot/firmware/config.txt\n"
			"@@ -1,7 +1,7 @@\n"
			" dtparam=audio=on\n"
			" [board-type=0x08]\n"
			"-dtoverlay=sdhost,overclock_50=100\n"
			"-dtparam=force_pio=off\n"
			"+#sd-tuner-off: dtoverlay=sdhost,overclock_50=100\n"
			"+#sd-tuner-off: dtparam=force_pio=off\n"
			" [all]\n"
			" a=1\n"
			" b=1\n"
			"@@ -11,3 +11,10 @@\n"
			" f=1\n"
			" g=1\n"
			" h=1\n" TEST_PI3_BLOCK_ADDED);
	/* a missing final newline is shown the way diff -u shows it */
	eol_diff = sdt_config_diff_unified("/f", a, b);
	g_assert_cmpstr(eol_diff,
			==,
			"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n x\n-y\n"
			"\\ No newline at end of file\n+y\n");
	g_clear_pointer(&eol_diff, g_free);
	eol_diff = sdt_config_diff_unified("/f", a, a);
	g_assert_cmpstr(eol_diff, ==, "");
}

static void
test_config_writer_line_endings(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) crlf = test_bytes("a=1\r\nb=2\r\n");
	g_autoptr(GBytes) no_eol = test_bytes("a=1\nb=2");
	g_autoptr(SdtConfigEdit) e1 = test_apply_text(crlf, 0x08, &error);
	g_autoptr(SdtConfigEdit) e2 = NULL;
	g_autofree gchar *want1 = NULL;
	g_autofree gchar *want2 = NULL;
	g_auto(GStrv) block_crlf = g_strsplit(test_pi3_block, "\n", -1);
	g_autofree gchar *joined = g_strjoinv("\r\n", block_crlf);

	g_assert_no_error(error);
	want1 = g_strconcat("a=1\r\nb=2\r\n", joined, NULL);
	g_assert_cmpstr(g_bytes_get_data(e1->new_bytes, NULL), ==, want1);

	/* mostly CRLF, but the last line ends in LF: revert keeps that LF (found by fuzzing) */
	{
		g_autoptr(GBytes) mixed = test_bytes("# x\r\ny=1\r\nz=1\n[all]\r\nlast=1\n");
		g_autoptr(SdtConfigEdit) e = test_apply_text(mixed, 0x08, &error);
		g_autoptr(SdtConfigTxt) applied = NULL;
		g_autoptr(SdtConfigEdit) rev = NULL;
		g_assert_no_error(error);
		applied = test_parse_bytes(e->new_bytes);
		rev = sdt_config_revert(applied, NULL, &error);
		g_assert_no_error(error);
		g_assert_true(g_bytes_equal(rev->new_bytes, mixed));
	}

	/* no final newline before: none after either, and revert restores it */
	e2 = test_apply_text(no_eol, 0x08, &error);
	g_assert_no_error(error);
	want2 = g_strndup(test_pi3_block, strlen(test_pi3_block) - 1);
	{
		g_autofree gchar *full = g_strconcat("a=1\nb=2\n", want2, NULL);
		g_autoptr(SdtConfigTxt) applied = test_parse_bytes(e2->new_bytes);
		g_autoptr(SdtConfigEdit) rev = NULL;
		g_assert_cmpstr(g_bytes_get_data(e2->new_bytes, NULL), ==, full);
		rev = sdt_config_revert(applied, NULL, &error);
		g_assert_no_error(error);
		g_assert_true(g_bytes_equal(rev->new_bytes, no_eol));
	}
}

/* @foreign is inserted at line @at (0-based) of the applied text; revert keeps it */
static void
test_config_writer_foreign_edit(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigEdit) edit = test_apply_text(old, 0x08, &error);
	g_auto(GStrv) block = test_block_strv(edit);
	g_auto(GStrv) old_lines = g_strsplit(g_bytes_get_data(old, NULL), "\n", -1);
	guint n_old = g_strv_length(old_lines) - 1; /* the file ends with a newline */
	const gchar *applied_text = g_bytes_get_data(edit->new_bytes, NULL);

	g_assert_no_error(error);
	/* above the block, at the top of the file */
	{
		g_autofree gchar *text = g_strconcat("# added by hand\n", applied_text, NULL);
		g_autoptr(GBytes) bytes = test_bytes(text);
		g_autoptr(SdtConfigTxt) cfg = test_parse_bytes(bytes);
		g_autoptr(SdtConfigEdit) rev =
			sdt_config_revert(cfg, (const gchar *const *) block, &error);
		g_autofree gchar *want =
			g_strconcat("# added by hand\n", g_bytes_get_data(old, NULL), NULL);
		g_assert_no_error(error);
		g_assert_cmpstr(g_bytes_get_data(rev->new_bytes, NULL), ==, want);
	}
	/* below the block, as raspi-config appends */
	{
		g_autofree gchar *text = g_strconcat(applied_text, "enable_uart=1\n", NULL);
		g_autoptr(GBytes) bytes = test_bytes(text);
		g_autoptr(SdtConfigTxt) cfg = test_parse_bytes(bytes);
		g_autoptr(SdtConfigEdit) rev =
			sdt_config_revert(cfg, (const gchar *const *) block, &error);
		g_autofree gchar *want =
			g_strconcat(g_bytes_get_data(old, NULL), "enable_uart=1\n", NULL);
		g_assert_no_error(error);
		g_assert_cmpstr(g_bytes_get_data(rev->new_bytes, NULL), ==, want);
	}
	/* inside the block: kept, still only for the block's board */
	{
		g_autofree gchar *text = NULL;
		g_autoptr(GBytes) bytes = NULL;
		g_autoptr(SdtConfigTxt) cfg = NULL;
		g_autoptr(SdtConfigEdit) rev = NULL;
		g_autoptr(SdtConfigTxt) reverted = NULL;
		g_autofree gchar *want = NULL;
		g_autofree gchar *needle = g_strdup("dtparam=sd_overclock=100\n");
		const gchar *pos = strstr(applied_text, needle);

		g_assert_nonnull(pos);
		text = g_strdup_printf("%.*sgpu_mem=64\n%s",
				       (gint) (pos - applied_text),
				       applied_text,
				       pos);
		bytes = test_bytes(text);
		cfg = test_parse_bytes(bytes);
		rev = sdt_config_revert(cfg, (const gchar *const *) block, &error);
		g_assert_no_error(error);
		want = g_strconcat(g_bytes_get_data(old, NULL),
				   "[all]\n[board-type=0x08]\ndtoverlay=\ngpu_mem=64\n[all]\n",
				   NULL);
		g_assert_cmpstr(g_bytes_get_data(rev->new_bytes, NULL), ==, want);
		g_assert_cmpuint(rev->warnings->len, ==, 1);
		reverted = test_parse_bytes(rev->new_bytes);
		g_assert_cmpstr(sdt_config_entries_get_value(reverted, "gpu_mem", 0x08), ==, "64");
		g_assert_null(sdt_config_entries_get_value(reverted, "gpu_mem", 0x0d));
	}
	g_assert_cmpuint(n_old, ==, 48);
}

static void
test_config_writer_legacy_lines(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GBytes) own = test_bytes("dtparam=audio=on\n"
					   "[board-type=0x08]\n"
					   "dtoverlay=sdhost,overclock_50=100\n"
					   "dtparam=force_pio=off\n"
					   "dtparam=sd_overclock=90\n"
					   "[all]\n"
					   "dtparam=sd_overclock=80\n");
	g_autoptr(SdtConfigEdit) edit = test_apply_text(own, 0x08, &error);
	g_autoptr(SdtConfigTxt) applied = NULL;
	g_autoptr(SdtConfigEdit) rev = NULL;
	g_autofree gchar *want = NULL;

	g_assert_no_error(error);
	want = g_strconcat("dtparam=audio=on\n"
			   "[board-type=0x08]\n"
			   "#sd-tuner-off: dtoverlay=sdhost,overclock_50=100\n"
			   "#sd-tuner-off: dtparam=force_pio=off\n"
			   "#sd-tuner-off: dtparam=sd_overclock=90\n"
			   "[all]\n"
			   "dtparam=sd_overclock=80\n",
			   test_pi3_block,
			   NULL);
	g_assert_cmpstr(g_bytes_get_data(edit->new_bytes, NULL), ==, want);
	g_assert_cmpuint(edit->disabled->len, ==, 3);
	/* the [all] line reaches every board: left alone, reported */
	g_assert_cmpuint(edit->warnings->len, ==, 1);
	g_assert_nonnull(strstr(g_ptr_array_index(edit->warnings, 0), "line 7"));
	applied = test_parse_bytes(edit->new_bytes);
	rev = sdt_config_revert(applied, NULL, &error);
	g_assert_no_error(error);
	g_assert_true(g_bytes_equal(rev->new_bytes, own));
	g_assert_cmpuint(rev->disabled->len, ==, 3);

	/* the corpus file: [pi3] sdhost overlay is wider than the Pi 3B block */
	{
		g_autoptr(GBytes) legacy = test_load("legacy-sd-lines.txt");
		g_autoptr(SdtConfigEdit) e = test_apply_text(legacy, 0x08, &error);
		g_assert_no_error(error);
		g_assert_cmpuint(e->disabled->len, ==, 1);
		g_assert_cmpstr(g_ptr_array_index(e->disabled, 0), ==, "dtparam=sd_overclock=90");
		g_assert_cmpuint(e->warnings->len, ==, 1);
		g_assert_nonnull(strstr(g_ptr_array_index(e->warnings, 0), "Wi-Fi"));
	}
	/* Pi 5: a [pi5]-only sd_cqe reaches more than [board-type=0x17] ([pi5] sees CM5, 500) */
	{
		g_autoptr(GBytes) cqe = test_bytes("[board-type=0x17]\ndtparam=sd_cqe=1\n[all]\n");
		g_autoptr(SdtConfigEdit) e = test_apply_text(cqe, 0x17, &error);
		g_assert_no_error(error);
		g_assert_cmpuint(e->disabled->len, ==, 1);
		g_assert_nonnull(strstr(g_bytes_get_data(e->new_bytes, NULL),
					"#sd-tuner-off: dtparam=sd_cqe=1\n"));
	}
}

static void
test_config_writer_refusals(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *xs = g_strnfill(80, 'x');
	g_autofree gchar *long_legacy =
		g_strdup_printf("[board-type=0x08]\ndtparam=sd_overclock=100,%s\n", xs);
	g_autoptr(GBytes) b1 = test_bytes(long_legacy);
	g_autoptr(SdtConfigEdit) e1 = test_apply_text(b1, 0x08, &error);
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtConfigTxt) inc = NULL;
	g_autoptr(SdtConfigEdit) e2 = NULL;
	g_autoptr(GBytes) main_bytes = test_bytes("a=1\ninclude extra.txt\n");
	g_autoptr(GBytes) inc_bytes = test_bytes("dtparam=sd_overclock=80\n");
	g_autoptr(GBytes) plain = test_bytes("a=1\n");
	g_autoptr(SdtConfigEdit) e3 = NULL;
	g_autoptr(SdtConfigTxt) plain_cfg = NULL;
	const gchar *lines[] = {"dtparam=sd_overclock=100", NULL};
	SdtConfigBlock all_block = {"x", "[all]", lines, 0x08, SDT_CONFIG_SD_OVERCLOCK};

	g_assert_null(e1);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "by hand"));
	g_clear_error(&error);

	/* a conflicting line in an included file is never edited */
	cfg = sdt_config_txt_new_from_bytes(main_bytes, "config.txt");
	inc = sdt_config_txt_new_from_bytes(inc_bytes, "extra.txt");
	sdt_config_txt_set_include(cfg, "extra.txt", inc);
	{
		TestBlock tb = {NULL};
		test_block_init(&tb, 0x08);
		e2 = sdt_config_edit_apply(cfg, &tb.block, NULL, &error);
		test_block_clear(&tb);
	}
	g_assert_null(e2);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "extra.txt"));
	g_clear_error(&error);

	/* never [all] */
	plain_cfg = test_parse_bytes(plain);
	e3 = sdt_config_edit_apply(plain_cfg, &all_block, NULL, &error);
	g_assert_null(e3);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_ARGUMENT);
	g_clear_error(&error);

	/* nothing to revert */
	g_assert_null(sdt_config_revert(plain_cfg, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
}

/* the file system side ---------------------------------------------------- */

typedef enum { OP_OPEN, OP_WRITE, OP_FSYNC, OP_CLOSE, OP_RENAME, OP_UNLINK, OP_LAST } TestOp;

typedef struct {
	guint calls;
	guint count[OP_LAST];
	TestOp fail_op;
	guint fail_at; /* 1-based call of fail_op; 0: never */
	gint fail_errno;
	const gchar *fail_open_prefix; /* only opens of paths under this fail */
	guint kill_at;                 /* 1-based call of any op: SIGKILL before it; 0: never */
	/* another program: rewrites modify_path when a temporary file in modify_dir is opened */
	const gchar *modify_dir;
	const gchar *modify_path;
	GBytes *modify_content;
	gboolean modified;
} TestIo;

static gboolean
test_io_step(TestIo *t, TestOp op)
{
	t->calls++;
	t->count[op]++;
	if (t->kill_at != 0 && t->calls == t->kill_at)
		raise(SIGKILL);
	if (t->fail_at != 0 && op == t->fail_op && t->count[op] == t->fail_at) {
		errno = t->fail_errno;
		return FALSE;
	}
	return TRUE;
}

static gint
test_io_open(const gchar *path, gint flags, mode_t mode, gpointer user_data)
{
	TestIo *t = user_data;
	if (t->fail_open_prefix != NULL && t->fail_op == OP_OPEN &&
	    g_str_has_prefix(path, t->fail_open_prefix)) {
		errno = t->fail_errno;
		return -1;
	}
	if (!test_io_step(t, OP_OPEN))
		return -1;
	if (t->modify_dir != NULL && !t->modified && g_str_has_prefix(path, t->modify_dir) &&
	    strstr(path, ".sd-tuner-tmp-") != NULL) {
		g_assert_true(g_file_set_contents(t->modify_path,
						  g_bytes_get_data(t->modify_content, NULL),
						  g_bytes_get_size(t->modify_content),
						  NULL));
		t->modified = TRUE;
	}
	return open(path, flags, mode);
}

static gssize
test_io_write(gint fd, const void *buf, gsize count, gpointer user_data)
{
	if (!test_io_step(user_data, OP_WRITE))
		return -1;
	/* short writes, to exercise the loop */
	return write(fd, buf, MIN(count, 512));
}

static gint
test_io_fsync(gint fd, gpointer user_data)
{
	if (!test_io_step(user_data, OP_FSYNC))
		return -1;
	return fsync(fd);
}

static gint
test_io_close(gint fd, gpointer user_data)
{
	gint rc = close(fd);
	if (!test_io_step(user_data, OP_CLOSE))
		return -1;
	return rc;
}

static gint
test_io_rename(const gchar *from, const gchar *to, gpointer user_data)
{
	TestIo *t = user_data;
	if (!test_io_step(t, OP_RENAME))
		return -1;
	return rename(from, to);
}

static gint
test_io_unlink(const gchar *path, gpointer user_data)
{
	if (!test_io_step(user_data, OP_UNLINK))
		return -1;
	return unlink(path);
}

static void
test_writer_set_io(SdtConfigWriter *writer, TestIo *t)
{
	SdtConfigWriterIo io = {test_io_open,
				test_io_write,
				test_io_fsync,
				test_io_close,
				test_io_rename,
				test_io_unlink,
				t};
	sdt_config_writer_set_io(writer, &io);
}

typedef struct {
	gchar *root;
	gchar *boot;
	gchar *config;
	gchar *state;
	gchar *backups;
	gchar *tryboot;
	SdtContext *ctx;
} TestRoot;

static void
test_root_init(TestRoot *r, GBytes *content)
{
	g_autoptr(GError) error = NULL;
	r->root = sdt_test_mkdtemp("sdt-writer-XXXXXX");
	r->boot = g_build_filename(r->root, "boot", "firmware", NULL);
	r->config = g_build_filename(r->boot, "config.txt", NULL);
	r->state = g_build_filename(r->root, "var", "lib", "sd-tuner", NULL);
	r->backups = g_build_filename(r->state, "backups", NULL);
	r->tryboot = g_build_filename(r->boot, "tryboot.txt", NULL);
	g_assert_cmpint(g_mkdir_with_parents(r->boot, 0755), ==, 0);
	if (content != NULL)
		g_assert_true(g_file_set_contents(r->config,
						  g_bytes_get_data(content, NULL),
						  g_bytes_get_size(content),
						  NULL));
	r->ctx = sdt_context_new(r->root, &error);
	g_assert_no_error(error);
}

static void
test_root_clear(TestRoot *r)
{
	sdt_test_rm_rf(r->root);
	g_free(r->root);
	g_free(r->boot);
	g_free(r->config);
	g_free(r->state);
	g_free(r->backups);
	g_free(r->tryboot);
	g_clear_object(&r->ctx);
}

static GBytes *
test_read(const gchar *path)
{
	gchar *data = NULL;
	gsize len = 0;
	if (!g_file_get_contents(path, &data, &len, NULL))
		return NULL;
	return g_bytes_new_take(data, len);
}

/* @path holds exactly @want */
static void
test_assert_file_is(const gchar *path, GBytes *want)
{
	g_autoptr(GBytes) now = test_read(path);

	g_assert_nonnull(now);
	g_assert_true(g_bytes_equal(now, want));
}

/* no temporary file anywhere under @dir */
static guint
test_count_tmp(const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const gchar *name;
	guint n = 0;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree gchar *path = g_build_filename(dir, name, NULL);
		if (strstr(name, ".sd-tuner-tmp-") != NULL)
			n++;
		if (g_file_test(path, G_FILE_TEST_IS_DIR))
			n += test_count_tmp(path);
	}
	return n;
}

/* every backup holds exactly @content; returns how many there are */
static guint
test_check_backups(TestRoot *r, GBytes *content)
{
	const gchar *dir = r->backups;
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const gchar *name;
	guint n = 0;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		g_autofree gchar *path = g_build_filename(dir, name, NULL);
		g_autoptr(GBytes) b = NULL;
		if (strstr(name, ".sd-tuner-tmp-") != NULL)
			continue;
		b = test_read(path);
		g_assert_nonnull(b);
		g_assert_true(g_bytes_equal(b, content));
		n++;
	}
	return n;
}

/* the answer of an apply as `apply --json` has it, as an object */
static JsonObject *
test_apply_object(const SdtConfigApplyResult *done)
{
	g_autoptr(SdtConfigAnswerApply) answer = sdt_ops_config_apply_answer(done);
	g_autoptr(JsonNode) node = sdt_config_answer_apply_to_json(answer);

	return json_node_dup_object(node);
}

/* the answer of a revert as `revert --json` has it, as an object */
static JsonObject *
test_revert_object(const SdtConfigApplyRevert *done)
{
	g_autoptr(SdtConfigAnswerRevert) answer = sdt_ops_config_revert_answer(done);
	g_autoptr(JsonNode) node = sdt_config_answer_revert_to_json(answer);

	return json_node_dup_object(node);
}

static JsonObject *
test_writer_apply(TestRoot *r, gint type_code, gboolean trial, TestIo *t, GError **error)
{
	g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(r->ctx, error);
	TestBlock tb = {NULL};
	g_autoptr(SdtConfigApplyResult) done = NULL;

	if (writer == NULL)
		return NULL;
	if (t != NULL)
		test_writer_set_io(writer, t);
	test_block_init(&tb, type_code);
	done = sdt_config_apply(writer, &tb.block, trial, error);
	test_block_clear(&tb);
	/* the answer the ops layer composes of the typed result */
	return done != NULL ? test_apply_object(done) : NULL;
}

/* test_writer_apply() that must succeed */
static JsonObject *
test_writer_apply_ok(TestRoot *r, gint type_code, gboolean trial)
{
	g_autoptr(GError) error = NULL;
	JsonObject *result = test_writer_apply(r, type_code, trial, NULL, &error);

	g_assert_no_error(error);
	g_assert_nonnull(result);
	return result;
}

/* a writer for @r that must be made */
static SdtConfigWriter *
test_writer_new_ok(TestRoot *r)
{
	g_autoptr(GError) error = NULL;
	SdtConfigWriter *writer = sdt_config_writer_new(r->ctx, &error);

	g_assert_no_error(error);
	g_assert_nonnull(writer);
	return writer;
}

static JsonObject *
test_writer_revert(TestRoot *r, TestIo *t, GError **error)
{
	g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(r->ctx, error);
	g_autoptr(SdtConfigApplyRevert) done = NULL;

	if (writer == NULL)
		return NULL;
	if (t != NULL)
		test_writer_set_io(writer, t);
	done = sdt_config_apply_revert(writer, error);
	return done != NULL ? test_revert_object(done) : NULL;
}

/* a change made past 2038 (32-bit time_t runs out): the journal and the backup keep the time */
static void
test_config_writer_journal_past_2038(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(JsonObject) res = NULL;
	g_autoptr(SdtConfigJournalDoc) journal = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(GDateTime) when =
		g_date_time_new_from_iso8601("2040-02-29T12:34:56.789012Z", NULL);
	g_autoptr(GDateTime) got = NULL;
	g_autofree gchar *backup_name = NULL;
	TestRoot r = {NULL};

	test_root_init(&r, old);
	sdt_context_set_now(r.ctx, when);
	res = test_writer_apply_ok(&r, 0x08, FALSE);
	g_assert_true(json_object_get_boolean_member(res, "changed"));
	backup_name = g_path_get_basename(json_object_get_string_member(res, "backup"));
	g_assert_cmpstr(backup_name, ==, "config.txt.20400229T123456.789012Z");

	writer = test_writer_new_ok(&r);
	journal = sdt_config_journal_get(writer);
	g_assert_nonnull(journal);
	got = g_date_time_new_from_iso8601(journal->time, NULL);
	g_assert_nonnull(got);
	g_assert_true(g_date_time_equal(got, when));
	g_assert_cmpint(g_date_time_to_unix(got), ==, G_GINT64_CONSTANT(2214131696));
	test_root_clear(&r);
}

static void
test_config_writer_apply_revert_files(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) res = NULL;
	g_autoptr(JsonObject) res2 = NULL;
	g_autoptr(JsonObject) rev = NULL;
	g_autoptr(GBytes) now = NULL;
	g_autoptr(GBytes) backup = NULL;
	g_autofree gchar *journal = NULL;
	TestRoot r = {NULL};

	test_root_init(&r, old);
	res = test_writer_apply_ok(&r, 0x08, FALSE);
	g_assert_cmpstr(json_object_get_string_member(res, "id"), ==, "sd-overclock-100");
	g_assert_cmpstr(json_object_get_string_member(res, "path"),
			==,
			"/boot/firmware/config.txt");
	g_assert_true(json_object_get_boolean_member(res, "reboot_required"));
	g_assert_true(g_str_has_prefix(json_object_get_string_member(res, "diff"),
				       "--- a/boot/firmware/config.txt\n"));
	backup = test_read(json_object_get_string_member(res, "backup"));
	g_assert_true(g_bytes_equal(backup, old));
	journal = g_build_filename(r.state, "config-journal.json", NULL);
	g_assert_true(g_file_test(journal, G_FILE_TEST_EXISTS));
	now = test_read(r.config);
	g_assert_nonnull(strstr(g_bytes_get_data(now, NULL), "dtparam=sd_overclock=100\n"));

	/* twice: no change, no new backup */
	res2 = test_writer_apply_ok(&r, 0x08, FALSE);
	g_assert_false(json_object_get_boolean_member(res2, "changed"));
	g_assert_cmpstr(json_object_get_string_member(res2, "diff"), ==, "");
	g_assert_cmpuint(test_check_backups(&r, old), ==, 1);

	rev = test_writer_revert(&r, NULL, &error);
	g_assert_no_error(error);
	test_assert_file_is(r.config, old);
	g_assert_false(g_file_test(journal, G_FILE_TEST_EXISTS));
	g_assert_cmpuint(test_count_tmp(r.root), ==, 0);

	/* nothing left to revert */
	g_assert_null(test_writer_revert(&r, NULL, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	test_root_clear(&r);
}

static void
test_config_writer_trial(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(JsonObject) res = NULL;
	g_autoptr(GBytes) tryboot = NULL;
	g_autofree gchar *want = NULL;
	TestRoot r = {NULL};

	test_root_init(&r, old);
	res = test_writer_apply_ok(&r, 0x08, TRUE);
	g_assert_cmpstr(json_object_get_string_member(res, "path"),
			==,
			"/boot/firmware/tryboot.txt");
	g_assert_true(json_object_get_boolean_member(res, "trial"));
	tryboot = test_read(r.tryboot);
	want = g_strconcat(g_bytes_get_data(old, NULL), test_pi3_block, NULL);
	g_assert_cmpstr(g_bytes_get_data(tryboot, NULL), ==, want);
	test_assert_file_is(r.config, old);
	test_root_clear(&r);
}

/* @path has @mode and belongs to @uid:@gid */
static void
test_assert_mode(const gchar *path, guint mode, guint uid, guint gid)
{
	GStatBuf st;

	g_assert_cmpint(g_stat(path, &st), ==, 0);
	if ((st.st_mode & 07777) != mode || st.st_uid != uid || st.st_gid != gid)
		g_error("%s: mode %04o owner %u:%u, want %04o %u:%u",
			path,
			(guint) (st.st_mode & 07777),
			(guint) st.st_uid,
			(guint) st.st_gid,
			mode,
			uid,
			gid);
}

/*
 * Issue 26 item 6: under the helper's UMask=0077 an apply made a 0644
 * config.txt 0600 (root's), a new tryboot.txt too; the state folders were
 * 0700 from the helper but 0755 from `sdtunerctl --root /`.  Every write
 * keeps the original's mode and owner, a new tryboot.txt takes config.txt's,
 * and the state folders are SDT_STATE_DIR_MODE under any umask.
 */
static void
test_config_writer_modes(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	const guint modes[] = {0644, 0640};
	/* a non-root owner where the test may give one (root): a user's ext4 /boot */
	const guint uid = geteuid() == 0 ? 1000 : geteuid();
	const guint gid = geteuid() == 0 ? 1000 : getegid();
	const mode_t umasks[] = {077, 022};

	if (geteuid() != 0)
		g_test_message("not root: the owner part runs with the test's own user");
	for (guint m = 0; m < G_N_ELEMENTS(modes); m++) {
		for (guint u = 0; u < G_N_ELEMENTS(umasks); u++) {
			g_autoptr(GError) error = NULL;
			g_autoptr(JsonObject) res = NULL;
			g_autoptr(JsonObject) rev = NULL;
			g_autoptr(JsonObject) trial = NULL;
			g_autoptr(JsonObject) entry = json_object_new();
			g_autofree gchar *history = NULL;
			TestRoot r = {NULL};
			mode_t saved;

			test_root_init(&r, old);
			g_assert_cmpint(chmod(r.config, modes[m]), ==, 0);
			g_assert_cmpint(chown(r.config, uid, gid), ==, 0);
			saved = umask(umasks[u]);
			res = test_writer_apply_ok(&r, 0x08, FALSE);
			test_assert_mode(r.config, modes[m], uid, gid);
			test_assert_mode(r.state, SDT_STATE_DIR_MODE, geteuid(), getegid());
			test_assert_mode(r.backups, SDT_STATE_DIR_MODE, geteuid(), getegid());
			rev = test_writer_revert(&r, NULL, &error);
			g_assert_no_error(error);
			test_assert_mode(r.config, modes[m], uid, gid);
			/* a new tryboot.txt: config.txt's mode and owner; kept by a second trial */
			trial = test_writer_apply_ok(&r, 0x08, TRUE);
			test_assert_mode(r.tryboot, modes[m], uid, gid);
			g_clear_pointer(&trial, json_object_unref);
			trial = test_writer_apply_ok(&r, 0x0a, TRUE);
			test_assert_mode(r.tryboot, modes[m], uid, gid);
			test_assert_mode(r.config, modes[m], uid, gid);
			/* the history folder, made by sdt_history_append() */
			g_assert_true(test_history_append(r.ctx, "apply", entry, &error));
			g_assert_no_error(error);
			history = g_build_filename(r.state, "history", NULL);
			test_assert_mode(history, SDT_STATE_DIR_MODE, geteuid(), getegid());
			umask(saved);
			test_root_clear(&r);
		}
	}
}

/* a bad input: an error naming the file, saying what to do, and the file untouched */
static void
test_assert_refused(TestRoot *r, GBytes *content, gint code, const gchar *needle, GError *error)
{
	g_autoptr(GBytes) now = test_read(r->config);
	g_assert_nonnull(error);
	if (error->domain != SDT_ERROR || error->code != code)
		g_error("want code %d, got %s", code, error->message);
	g_assert_nonnull(strstr(error->message, r->config));
	if (strstr(error->message, needle) == NULL)
		g_error("“%s” not in “%s”", needle, error->message);
	if (content != NULL)
		g_assert_true(g_bytes_equal(now, content));
	g_assert_cmpuint(test_count_tmp(r->root), ==, 0);
}

static void
test_config_writer_bad_input(void)
{
	struct {
		const gchar *what;
		GBytes *content;
		const gchar *needle;
	} cases[5] = {{NULL}};
	g_autofree gchar *big = g_malloc(2 * 1000 * 1000);
	g_autofree gchar *long_line = g_strnfill(10000, 'x');
	const gchar nul[] = "dtparam=audio=on\n\0\n";

	memset(big, '#', 2 * 1000 * 1000);
	big[999] = '\n';
	cases[0].content = g_bytes_new(nul, sizeof(nul) - 1);
	cases[0].needle = "NUL byte";
	cases[1].content = g_bytes_new(big, 2 * 1000 * 1000);
	cases[1].needle = "1 MiB";
	cases[2].content = g_bytes_new(long_line, 10000);
	cases[2].needle = "10000 characters";
	cases[3].content = test_bytes("a=1\n[pi4\nb=1\n");
	cases[3].needle = "never closes it";
	cases[4].content = test_bytes("[none]\n");
	cases[4].needle = "[none]";
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		TestRoot r = {NULL};
		test_root_init(&r, cases[i].content);
		res = test_writer_apply(&r, 0x08, FALSE, NULL, &error);
		g_assert_null(res);
		test_assert_refused(&r,
				    cases[i].content,
				    SDT_ERROR_INVALID_DATA,
				    cases[i].needle,
				    error);
		test_root_clear(&r);
		g_bytes_unref(cases[i].content);
	}
}

static void
test_config_writer_read_only(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GError) error = NULL;
	TestRoot r = {NULL};
	/* a read-only mount cannot be made in every test sandbox: the open of the
	 * temporary file fails with EROFS as it would on one */
	TestIo t = {0};

	test_root_init(&r, old);
	t.fail_op = OP_OPEN;
	t.fail_errno = EROFS;
	t.fail_open_prefix = r.boot;
	g_assert_null(test_writer_apply(&r, 0x08, FALSE, &t, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_READ_ONLY);
	test_assert_refused(&r, old, SDT_ERROR_READ_ONLY, "remount", error);
	test_root_clear(&r);
}

static void
test_config_writer_locate(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *display = NULL;
	g_autofree gchar *path = NULL;
	g_autofree gchar *legacy = NULL;
	TestRoot r = {NULL};

	/* missing /boot/firmware with the Bookworm stub in /boot */
	test_root_init(&r, NULL);
	g_assert_cmpint(g_rmdir(r.boot), ==, 0);
	legacy = g_build_filename(r.root, "boot", "config.txt", NULL);
	g_assert_true(g_file_set_contents(legacy,
					  "DO NOT EDIT THIS FILE\n\n"
					  "The file you are looking for has moved to "
					  "/boot/firmware/config.txt\n",
					  -1,
					  NULL));
	path = sdt_config_writer_locate(r.ctx, &display, &error);
	g_assert_null(path);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_assert_nonnull(strstr(error->message, legacy));
	g_assert_nonnull(strstr(error->message, "mount the boot partition"));
	g_clear_error(&error);

	/* a Bullseye layout: /boot/config.txt is the real file */
	g_assert_true(g_file_set_contents(legacy, "dtparam=audio=on\n", -1, NULL));
	path = sdt_config_writer_locate(r.ctx, &display, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(path, ==, legacy);
	g_assert_cmpstr(display, ==, "/boot/config.txt");
	g_clear_pointer(&path, g_free);
	g_clear_pointer(&display, g_free);

	/* /boot/firmware/config.txt wins when it exists */
	g_assert_cmpint(g_mkdir_with_parents(r.boot, 0755), ==, 0);
	g_assert_true(g_file_set_contents(r.config, "a=1\n", -1, NULL));
	path = sdt_config_writer_locate(r.ctx, &display, &error);
	g_assert_no_error(error);
	g_assert_cmpstr(path, ==, r.config);
	g_assert_cmpstr(display, ==, "/boot/firmware/config.txt");
	g_clear_pointer(&path, g_free);
	g_clear_pointer(&display, g_free);
	test_root_clear(&r);

	/* nothing at all */
	test_root_init(&r, NULL);
	g_assert_null(sdt_config_writer_locate(r.ctx, &display, &error));
	g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
	g_assert_nonnull(strstr(error->message, r.config));
	test_root_clear(&r);
}

/* issue 32: Raspberry Pi OS's get_fw_loc (a stand-in script in the root) names the
 * boot partition's folder; where it fails, is untrusted or names nothing, the fixed
 * places as before */
static void
test_config_writer_locate_get_fw_loc(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *display = NULL;
	g_autofree gchar *path = NULL;
	g_autofree gchar *tool_dir = NULL;
	g_autofree gchar *tool = NULL;
	g_autofree gchar *other = NULL;
	g_autofree gchar *other_config = NULL;
	TestRoot r = {NULL};
	const struct {
		const gchar *script;
		guint mode;
		gboolean used;
	} cases[] = {
		{"#!/bin/sh\necho /boot/fw-elsewhere\n", 0755, TRUE},
		{"#!/bin/sh\nprintf '/boot/fw-elsewhere'\n", 0700, TRUE},
		/* writable by others: never run */
		{"#!/bin/sh\necho /boot/fw-elsewhere\n", 0777, FALSE},
		/* fails, says nothing, names a relative or a climbing path, a missing folder */
		{"#!/bin/sh\necho /boot/fw-elsewhere\nexit 1\n", 0755, FALSE},
		{"#!/bin/sh\n", 0755, FALSE},
		{"#!/bin/sh\necho boot/fw-elsewhere\n", 0755, FALSE},
		{"#!/bin/sh\necho /boot/../boot/fw-elsewhere\n", 0755, FALSE},
		{"#!/bin/sh\necho /boot/nowhere\n", 0755, FALSE},
	};

	test_root_init(&r, NULL);
	g_assert_true(g_file_set_contents(r.config, "a=1\n", -1, NULL));
	other = g_build_filename(r.root, "boot", "fw-elsewhere", NULL);
	g_assert_cmpint(g_mkdir_with_parents(other, 0755), ==, 0);
	other_config = g_build_filename(other, "config.txt", NULL);
	g_assert_true(g_file_set_contents(other_config, "b=2\n", -1, NULL));
	tool_dir = g_build_filename(r.root, "usr", "lib", "raspberrypi-sys-mods", NULL);
	g_assert_cmpint(g_mkdir_with_parents(tool_dir, 0755), ==, 0);
	tool = g_build_filename(tool_dir, "get_fw_loc", NULL);

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_test_message("get_fw_loc case %u", i);
		g_assert_true(g_file_set_contents(tool, cases[i].script, -1, NULL));
		g_assert_cmpint(g_chmod(tool, (gint) cases[i].mode), ==, 0);
		path = sdt_config_writer_locate(r.ctx, &display, &error);
		g_assert_no_error(error);
		g_assert_cmpstr(path, ==, cases[i].used ? other_config : r.config);
		g_assert_cmpstr(display,
				==,
				cases[i].used ? "/boot/fw-elsewhere/config.txt"
					      : "/boot/firmware/config.txt");
		g_clear_pointer(&path, g_free);
		g_clear_pointer(&display, g_free);
	}
	test_root_clear(&r);
}

static void
test_config_writer_symlinks(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GError) error = NULL;
	g_autofree gchar *outside = NULL;
	g_autofree gchar *inside = NULL;
	g_autoptr(GBytes) now = NULL;
	g_autoptr(JsonObject) res = NULL;
	TestRoot r = {NULL};

	/* leading out of the boot partition: refused */
	test_root_init(&r, NULL);
	outside = g_build_filename(r.root, "elsewhere.txt", NULL);
	g_assert_true(g_file_set_contents(outside, g_bytes_get_data(old, NULL), -1, NULL));
	g_assert_cmpint(symlink(outside, r.config), ==, 0);
	g_assert_null(test_writer_apply(&r, 0x08, FALSE, NULL, &error));
	test_assert_refused(&r, old, SDT_ERROR_INVALID_DATA, "outside the boot partition", error);
	g_clear_error(&error);
	test_assert_file_is(outside, old);

	/* inside it: the real file is edited and the link stays */
	g_assert_cmpint(g_unlink(r.config), ==, 0);
	inside = g_build_filename(r.boot, "config-real.txt", NULL);
	g_assert_true(g_file_set_contents(inside, g_bytes_get_data(old, NULL), -1, NULL));
	g_assert_cmpint(symlink("config-real.txt", r.config), ==, 0);
	res = test_writer_apply_ok(&r, 0x08, FALSE);
	g_assert_true(g_file_test(r.config, G_FILE_TEST_IS_SYMLINK));
	now = test_read(inside);
	g_assert_nonnull(strstr(g_bytes_get_data(now, NULL), "sd_overclock=100"));
	test_root_clear(&r);
}

static void
test_config_writer_concurrent(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GBytes) theirs = test_bytes("written by someone else\n");
	g_autoptr(GError) error = NULL;
	g_autofree gchar *lock = NULL;
	gint fd;
	TestRoot r = {NULL};
	TestIo t = {0};

	/* a second SD Tuner writer holds the lock */
	test_root_init(&r, old);
	g_assert_cmpint(g_mkdir_with_parents(r.state, 0755), ==, 0);
	lock = g_build_filename(r.state, "lock", NULL);
	fd = open(lock, O_RDWR | O_CREAT, 0600);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(flock(fd, LOCK_EX), ==, 0);
	g_assert_null(test_writer_apply(&r, 0x08, FALSE, NULL, &error));
	test_assert_refused(&r, old, SDT_ERROR_BUSY, "wait until", error);
	g_clear_error(&error);
	close(fd);

	/* another program rewrites config.txt after SD Tuner read it, before the rename */
	t.modify_dir = r.boot;
	t.modify_path = r.config;
	t.modify_content = theirs;
	g_assert_null(test_writer_apply(&r, 0x08, FALSE, &t, &error));
	test_assert_refused(&r, theirs, SDT_ERROR_CONFIG_CHANGED, "another program", error);
	g_assert_true(t.modified);
	test_root_clear(&r);
}

/* fault injection: every write, fsync and rename fails once, with ENOSPC and with EIO */
static void
test_config_writer_fault_injection(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GBytes) new_bytes = NULL;
	const TestOp ops[] = {OP_WRITE, OP_FSYNC, OP_RENAME};
	const gint errnos[] = {ENOSPC, EIO};
	guint counts[2][OP_LAST] = {{0}};
	guint n_runs = 0;
	guint n_old = 0;
	guint n_new = 0;

	/* count the calls of a clean apply and of a clean revert */
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) rev = NULL;
		TestRoot r = {NULL};
		TestIo ta = {0};
		TestIo tr = {0};
		test_root_init(&r, old);
		res = test_writer_apply(&r, 0x08, FALSE, &ta, &error);
		g_assert_no_error(error);
		new_bytes = test_read(r.config);
		rev = test_writer_revert(&r, &tr, &error);
		g_assert_no_error(error);
		g_assert_nonnull(rev);
		memcpy(counts[0], ta.count, sizeof(counts[0]));
		memcpy(counts[1], tr.count, sizeof(counts[1]));
		test_root_clear(&r);
	}
	/* apply: backup, config.txt, journal; revert: config.txt only, since the
	 * backup taken before the apply already holds the old bytes */
	g_assert_cmpuint(counts[0][OP_RENAME], ==, 3);
	g_assert_cmpuint(counts[1][OP_RENAME], ==, 1);
	g_assert_cmpuint(counts[0][OP_FSYNC], ==, 6);
	g_assert_cmpuint(counts[1][OP_FSYNC], ==, 2);

	for (guint revert = 0; revert < 2; revert++) {
		GBytes *before = revert ? new_bytes : old;
		GBytes *after = revert ? old : new_bytes;
		for (guint o = 0; o < G_N_ELEMENTS(ops); o++) {
			for (guint k = 1; k <= counts[revert][ops[o]]; k++) {
				for (guint e = 0; e < G_N_ELEMENTS(errnos); e++) {
					g_autoptr(GError) error = NULL;
					g_autoptr(JsonObject) res = NULL;
					g_autoptr(GBytes) now = NULL;
					TestRoot r = {NULL};
					TestIo t = {0};

					test_root_init(&r, old);
					if (revert) {
						g_autoptr(JsonObject) a = test_writer_apply(&r,
											    0x08,
											    FALSE,
											    NULL,
											    &error);
						g_assert_nonnull(a);
						g_assert_no_error(error);
					}
					t.fail_op = ops[o];
					t.fail_at = k;
					t.fail_errno = errnos[e];
					res = revert ? test_writer_revert(&r, &t, &error)
						     : test_writer_apply(&r,
									 0x08,
									 FALSE,
									 &t,
									 &error);
					now = test_read(r.config);
					if (g_bytes_equal(now, before)) {
						/* refused before the rename: an error that says why
						 */
						g_assert_null(res);
						gint want = errnos[e] == ENOSPC ? SDT_ERROR_NO_SPACE
										: SDT_ERROR_IO;
						g_assert_error(error, SDT_ERROR, want);
						n_old++;
					} else {
						g_assert_true(g_bytes_equal(now, after));
						n_new++;
					}
					/* the failure really happened, and was reported */
					g_assert_cmpuint(t.count[ops[o]], >=, k);
					g_assert_nonnull(error);
					/* the only backup is the one from before the apply */
					g_assert_cmpuint(test_check_backups(&r, old), <=, 1);
					g_assert_cmpuint(test_count_tmp(r.root), ==, 0);
					/* and the next run gets to the goal */
					g_clear_error(&error);
					g_clear_pointer(&res, json_object_unref);
					res = revert ? test_writer_revert(&r, NULL, &error)
						     : test_writer_apply(&r,
									 0x08,
									 FALSE,
									 NULL,
									 &error);
					if (error != NULL)
						g_assert_error(error,
							       SDT_ERROR,
							       SDT_ERROR_NOT_FOUND);
					test_assert_file_is(r.config, after);
					test_root_clear(&r);
					n_runs++;
				}
			}
		}
	}
	g_test_message("fault injection: apply has %u write, %u fsync and %u rename calls, "
		       "revert %u, %u and %u; each failed with ENOSPC and with EIO: %u runs, "
		       "%u kept the old content, %u had the new one (a failure after the "
		       "rename), every one reported",
		       counts[0][OP_WRITE],
		       counts[0][OP_FSYNC],
		       counts[0][OP_RENAME],
		       counts[1][OP_WRITE],
		       counts[1][OP_FSYNC],
		       counts[1][OP_RENAME],
		       n_runs,
		       n_old,
		       n_new);
}

/* replaces the first @from in @path's content with @to */
static void
test_file_replace(const gchar *path, const gchar *from, const gchar *to)
{
	g_autoptr(GBytes) now = test_read(path);
	const gchar *data = g_bytes_get_data(now, NULL);
	const gchar *pos = strstr(data, from);
	g_autofree gchar *text = NULL;

	g_assert_nonnull(pos);
	text = g_strdup_printf("%.*s%s%s", (gint) (pos - data), data, to, pos + strlen(from));
	g_assert_true(g_file_set_contents(path, text, -1, NULL));
}

static gchar *
test_journal_path(TestRoot *r)
{
	return g_build_filename(r->state, "config-journal.json", NULL);
}

/* issue 9 item 1: a line SD Tuner did not write survives revert, with or without journal */
static void
test_config_writer_user_lines(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	const gchar *kept = "[all]\n[board-type=0x08]\ndtoverlay=\ngpu_mem=64\n"
			    "dtparam=sd_overclock=80\n[all]\n";

	for (guint with_journal = 0; with_journal < 2; with_journal++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) rev = NULL;
		g_autoptr(GBytes) now = NULL;
		g_autofree gchar *want = g_strconcat(g_bytes_get_data(old, NULL), kept, NULL);
		g_autofree gchar *journal = NULL;
		JsonArray *kept_lines;
		JsonArray *warnings;
		TestRoot r = {NULL};

		test_root_init(&r, old);
		journal = test_journal_path(&r);
		res = test_writer_apply_ok(&r, 0x08, FALSE);
		/* edited by hand: a line added inside the block, SD Tuner's line changed */
		test_file_replace(r.config,
				  "dtparam=sd_overclock=100\n",
				  "gpu_mem=64\ndtparam=sd_overclock=80\n");
		if (!with_journal)
			g_assert_cmpint(g_unlink(journal), ==, 0);
		rev = test_writer_revert(&r, NULL, &error);
		g_assert_no_error(error);
		now = test_read(r.config);
		g_assert_cmpstr(g_bytes_get_data(now, NULL), ==, want);
		kept_lines = json_object_get_array_member(rev, "kept");
		g_assert_cmpuint(json_array_get_length(kept_lines), ==, 2);
		g_assert_cmpstr(json_array_get_string_element(kept_lines, 0), ==, "53: gpu_mem=64");
		g_assert_cmpstr(json_array_get_string_element(kept_lines, 1),
				==,
				"54: dtparam=sd_overclock=80");
		warnings = json_object_get_array_member(rev, "warnings");
		g_assert_cmpuint(json_array_get_length(warnings), >=, 1);
		g_assert_nonnull(strstr(json_array_get_string_element(warnings, 0),
					with_journal ? "kept 2 lines SD Tuner did not write"
						     : "cannot tell are its own"));
		g_assert_nonnull(
			strstr(json_array_get_string_element(warnings, 0), "“gpu_mem=64”"));
		test_root_clear(&r);
	}
}

/* writes @text as the journal */
static void
test_journal_set(TestRoot *r, const gchar *text)
{
	g_autofree gchar *journal = test_journal_path(r);
	g_assert_true(g_file_set_contents(journal, text, -1, NULL));
}

/* the journal with member @name replaced by the JSON @value */
static gchar *
test_journal_with(TestRoot *r, const gchar *name, const gchar *value)
{
	g_autofree gchar *journal = test_journal_path(r);
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(JsonParser) vparser = json_parser_new();
	g_autoptr(JsonNode) root = NULL;
	JsonObject *obj;

	g_assert_true(json_parser_load_from_file(parser, journal, NULL));
	g_assert_true(json_parser_load_from_data(vparser, value, -1, NULL));
	root = json_node_copy(json_parser_get_root(parser));
	obj = json_node_get_object(root);
	json_object_set_member(obj, name, json_node_copy(json_parser_get_root(vparser)));
	return json_to_string(root, FALSE);
}

/* issue 9 item 2: a tampered journal is corrupt state, never a "successful" revert */
static void
test_config_writer_tampered_journal(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	const struct {
		const gchar *member;
		const gchar *value; /* NULL: the whole journal is @member */
	} cases[] = {
		{"block", "[\"[all]\"]"},
		{"block",
		 "[\"[all]\", \"[board-type=0x08]\", \"dtoverlay=\", \"gpu_mem=64\", \"[all]\"]"},
		{"block", "5"},
		{"block", "[1, 2]"},
		{"id", "7"},
		{"type_code", "\"eight\""},
		{"sha256_after", "null"},
		{"backup", "{}"},
		{"{\"id\": \"sd-overclock-100\"}", NULL},
		{"not json", NULL},
		{"[1, 2, 3]", NULL},
	};

	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) rev = NULL;
		g_autoptr(GBytes) applied = NULL;
		g_autofree gchar *text = NULL;
		g_autofree gchar *journal = NULL;
		TestRoot r = {NULL};

		test_root_init(&r, old);
		journal = test_journal_path(&r);
		res = test_writer_apply_ok(&r, 0x08, FALSE);
		applied = test_read(r.config);
		text = cases[c].value != NULL
			       ? test_journal_with(&r, cases[c].member, cases[c].value)
			       : g_strdup(cases[c].member);
		test_journal_set(&r, text);
		rev = test_writer_revert(&r, NULL, &error);
		g_assert_null(rev);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, "changes nothing"));
		g_assert_nonnull(strstr(error->message, journal));
		test_assert_file_is(r.config, applied);
		/* the way out the message gives works */
		g_clear_error(&error);
		g_assert_cmpint(g_unlink(journal), ==, 0);
		rev = test_writer_revert(&r, NULL, &error);
		g_assert_no_error(error);
		test_assert_file_is(r.config, old);
		test_root_clear(&r);
	}

	/* a "filter" that is no model filter, with a block to match it: it must not make
	 * the user's own gpu_mem=64 inside the block look like SD Tuner's */
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) rev = NULL;
		g_autofree gchar *text = NULL;
		g_autofree gchar *text2 = NULL;
		TestRoot r = {NULL};

		test_root_init(&r, old);
		res = test_writer_apply_ok(&r, 0x08, FALSE);
		test_file_replace(r.config, "dtoverlay=\n", "dtoverlay=\ngpu_mem=64\n");
		text = test_journal_with(&r, "filter", "\"gpu_mem=64\"");
		test_journal_set(&r, text);
		text2 = test_journal_with(&r,
					  "block",
					  "[\"[all]\", \"gpu_mem=64\", \"dtoverlay=\", "
					  "\"dtparam=sd_overclock=100\", \"[all]\"]");
		test_journal_set(&r, text2);
		rev = test_writer_revert(&r, NULL, &error);
		g_assert_null(rev);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		test_root_clear(&r);
	}
	/* a backup that no longer holds the file the journal describes */
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) rev = NULL;
		TestRoot r = {NULL};

		test_root_init(&r, old);
		res = test_writer_apply_ok(&r, 0x08, FALSE);
		g_assert_true(g_file_set_contents(json_object_get_string_member(res, "backup"),
						  "dtparam=sd_overclock=100\n",
						  -1,
						  NULL));
		rev = test_writer_revert(&r, NULL, &error);
		g_assert_null(rev);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, "no longer holds"));
		test_root_clear(&r);
	}
}

/* the journal reader: members of the wrong type are errors, never Json-CRITICAL */
static void
test_config_writer_journal_schema(void)
{
	const gchar *bad[] = {
		"",
		"null",
		"\"x\"",
		"{}",
		"{\"id\": \"a\", \"path\": \"/p\", \"filter\": \"[pi3]\", \"type_code\": 8, "
		"\"block\": [\"x\", null], \"disabled\": [], \"backup\": \"b\", "
		"\"sha256_before\": \"h\", \"sha256_after\": \"h\", \"time\": \"t\"}",
		"{\"id\": \"a\", \"path\": \"/p\", \"filter\": \"[pi3]\", \"type_code\": 8.5, "
		"\"block\": [], \"disabled\": [], \"backup\": \"b\", "
		"\"sha256_before\": \"h\", \"sha256_after\": \"h\", \"time\": \"t\"}",
		"{\"id\": \"a\", \"path\": \"/p\", \"filter\": \"[pi3]\", \"type_code\": 8, "
		"\"block\": [], \"disabled\": {}, \"backup\": \"b\", "
		"\"sha256_before\": \"h\", \"sha256_after\": \"h\", \"time\": \"t\", "
		"\"boot_id\": null}",
		"{\"id\": \"a\", \"path\": \"/p\", \"filter\": \"[pi3]\", \"type_code\": 8, "
		"\"block\": [], \"disabled\": [], \"backup\": \"b\", "
		"\"sha256_before\": \"h\", \"sha256_after\": \"h\", \"time\": \"t\", "
		"\"boot_id\": 5}",
	};
	const gchar *good = "{\"id\": \"a\", \"path\": \"/p\", \"filter\": \"[pi3]\", "
			    "\"type_code\": 8, \"block\": [\"x\"], \"disabled\": [], "
			    "\"backup\": \"b\", \"sha256_before\": \"h\", \"sha256_after\": "
			    "\"h\", \"time\": \"t\", \"boot_id\": null}";

	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtConfigJournalDoc) obj =
			sdt_config_journal_doc_parse(bad[i], strlen(bad[i]), &error);
		g_assert_null(obj);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	}
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(SdtConfigJournalDoc) obj =
			sdt_config_journal_doc_parse(good, strlen(good), &error);
		g_assert_no_error(error);
		g_assert_nonnull(obj);
	}
}

/* issue 9 item 5: the boot id is recorded with the change */
static void
test_config_writer_boot_id(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) res = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigJournalDoc) journal = NULL;
	g_autofree gchar *boot_id = NULL;
	TestRoot r = {NULL};

	test_root_init(&r, old);
	boot_id = g_build_filename(r.root, "proc", "sys", "kernel", "random", "boot_id", NULL);
	g_assert_cmpint(g_mkdir_with_parents(g_path_get_dirname(boot_id), 0755), ==, 0);
	g_assert_true(
		g_file_set_contents(boot_id, "3f1c9b2e-6a4d-4e8f-9b1a-0c2d3e4f5a6b\n", -1, NULL));
	res = test_writer_apply_ok(&r, 0x08, FALSE);
	writer = test_writer_new_ok(&r);
	g_assert_true(sdt_config_journal_read(writer, &journal, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(journal->boot_id, ==, "3f1c9b2e-6a4d-4e8f-9b1a-0c2d3e4f5a6b");
	test_root_clear(&r);
}

/* issue 9 item 3: revert cancels a trial; an existing tryboot.txt is never lost */
static void
test_config_writer_trial_cancel(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");

	/* apply --trial, then revert: tryboot.txt goes, config.txt is untouched */
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) rev = NULL;
		g_autoptr(SdtConfigTrialState) trial = NULL;
		g_autoptr(SdtConfigWriter) writer = NULL;
		TestRoot r = {NULL};

		test_root_init(&r, old);
		res = test_writer_apply_ok(&r, 0x08, TRUE);
		writer = sdt_config_writer_new(r.ctx, &error);
		trial = sdt_config_trial_get(writer, &error);
		g_assert_no_error(error);
		g_assert_nonnull(trial);
		g_assert_false(trial->stale);
		rev = test_writer_revert(&r, NULL, &error);
		g_assert_no_error(error);
		g_assert_true(json_object_get_boolean_member(rev, "trial_cancelled"));
		g_assert_false(g_file_test(r.tryboot, G_FILE_TEST_EXISTS));
		test_assert_file_is(r.config, old);
		g_clear_pointer(&trial, sdt_config_trial_state_free);
		trial = sdt_config_trial_get(writer, &error);
		g_assert_no_error(error);
		g_assert_null(trial);
		g_clear_pointer(&rev, json_object_unref);
		rev = test_writer_revert(&r, NULL, &error);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
		test_root_clear(&r);
	}
	/* a tryboot.txt of the user's: backed up, kept across a second trial, put back */
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) res2 = NULL;
		g_autoptr(JsonObject) rev = NULL;
		g_autoptr(GBytes) now = NULL;
		const gchar *mine = "# my own trial\narm_freq=1000\n";
		TestRoot r = {NULL};

		test_root_init(&r, old);
		g_assert_true(g_file_set_contents(r.tryboot, mine, -1, NULL));
		res = test_writer_apply_ok(&r, 0x08, TRUE);
		g_assert_false(json_object_get_null_member(res, "backup"));
		res2 = test_writer_apply_ok(&r, 0x08, TRUE);
		g_assert_cmpstr(json_object_get_string_member(res2, "backup"),
				==,
				json_object_get_string_member(res, "backup"));
		rev = test_writer_revert(&r, NULL, &error);
		g_assert_no_error(error);
		now = test_read(r.tryboot);
		g_assert_cmpstr(g_bytes_get_data(now, NULL), ==, mine);
		test_root_clear(&r);
	}
	/* a tryboot.txt over 1 MiB is not overwritten: refused, untouched */
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autofree gchar *big = g_strnfill(2 * 1024 * 1024, '#');
		g_autoptr(GBytes) now = NULL;
		TestRoot r = {NULL};

		test_root_init(&r, old);
		g_assert_true(g_file_set_contents(r.tryboot, big, -1, NULL));
		res = test_writer_apply(&r, 0x08, TRUE, NULL, &error);
		g_assert_null(res);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_nonnull(strstr(error->message, "move it away"));
		now = test_read(r.tryboot);
		g_assert_cmpstr(g_bytes_get_data(now, NULL), ==, big);
		test_root_clear(&r);
	}
	/* config.txt edited after the trial was prepared: stale, and rebuilt by a new trial */
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) res2 = NULL;
		g_autoptr(SdtConfigTrialState) trial = NULL;
		g_autoptr(SdtConfigWriter) writer = NULL;
		g_autoptr(GBytes) now = NULL;
		g_autoptr(GBytes) edited = NULL;
		g_autofree gchar *want = NULL;
		TestRoot r = {NULL};

		test_root_init(&r, old);
		res = test_writer_apply_ok(&r, 0x08, TRUE);
		edited = test_concat(old, "enable_uart=1\n");
		g_assert_true(g_file_set_contents(r.config,
						  g_bytes_get_data(edited, NULL),
						  g_bytes_get_size(edited),
						  NULL));
		writer = sdt_config_writer_new(r.ctx, &error);
		trial = sdt_config_trial_get(writer, &error);
		g_assert_no_error(error);
		g_assert_true(trial->stale);
		g_assert_nonnull(strstr(trial->note, "--trial"));
		res2 = test_writer_apply_ok(&r, 0x08, TRUE);
		now = test_read(r.tryboot);
		want = g_strconcat(g_bytes_get_data(edited, NULL), test_pi3_block, NULL);
		g_assert_cmpstr(g_bytes_get_data(now, NULL), ==, want);
		test_root_clear(&r);
	}
}

/* issue 9 item 7: one diagnosis of a damaged block, the same for apply and revert */
static void
test_config_writer_damaged_block(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	const gchar *markers[] = {"# --- SD Tuner end ---\n", "# --- SD Tuner begin: "};

	for (guint m = 0; m < G_N_ELEMENTS(markers); m++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(GError) error2 = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) res2 = NULL;
		g_autoptr(JsonObject) rev = NULL;
		g_autoptr(GBytes) damaged = NULL;
		g_autoptr(SdtConfigTxt) cfg = NULL;
		g_autofree gchar *diag = NULL;
		TestRoot r = {NULL};

		test_root_init(&r, old);
		res = test_writer_apply_ok(&r, 0x08, FALSE);
		if (m == 0)
			test_file_replace(r.config, markers[m], "");
		else
			test_file_replace(r.config,
					  "# --- SD Tuner begin: sd-overclock-100 (undo: "
					  "sdtunerctl revert) ---\n",
					  "");
		damaged = test_read(r.config);
		cfg = test_parse_bytes(damaged);
		diag = sdt_config_diagnose_block(cfg, "/boot/firmware/config.txt");
		g_assert_nonnull(diag);
		g_assert_nonnull(strstr(diag, "/boot/firmware/config.txt"));
		g_assert_nonnull(strstr(diag, "dtparam=sd_overclock=100"));
		res2 = test_writer_apply(&r, 0x08, FALSE, NULL, &error);
		g_assert_null(res2);
		g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_cmpstr(error->message, ==, diag);
		rev = test_writer_revert(&r, NULL, &error2);
		g_assert_null(rev);
		g_assert_error(error2, SDT_ERROR, SDT_ERROR_INVALID_DATA);
		g_assert_cmpstr(error2->message, ==, diag);
		test_assert_file_is(r.config, damaged);
		test_root_clear(&r);
	}
	/* a whole block: no diagnosis */
	{
		g_autoptr(GBytes) whole = test_concat(old, test_pi3_block);
		g_autoptr(SdtConfigTxt) cfg = test_parse_bytes(whole);
		g_autofree gchar *diag =
			sdt_config_diagnose_block(cfg, "/boot/firmware/config.txt");
		g_assert_null(diag);
	}
}

/* issue 9 item 9: a FIFO as tryboot.txt is an error, never a hang */
static void
test_config_writer_fifo(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) res = NULL;
	g_autoptr(SdtConfigTrialState) trial = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	TestRoot r = {NULL};

	test_root_init(&r, old);
	g_assert_cmpint(mkfifo(r.tryboot, 0644), ==, 0);
	/* a hang fails the test instead of blocking the suite */
	alarm(20);
	res = test_writer_apply(&r, 0x08, TRUE, NULL, &error);
	g_assert_null(res);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_assert_nonnull(strstr(error->message, "not a regular file"));
	g_clear_error(&error);
	writer = sdt_config_writer_new(r.ctx, &error);
	trial = sdt_config_trial_get(writer, &error);
	g_assert_null(trial);
	g_assert_error(error, SDT_ERROR, SDT_ERROR_INVALID_DATA);
	g_clear_error(&error);
	/* issue 23 item 5: with a change in config.txt, a FIFO SD Tuner has no record of
	 * writing does not block the way back: config.txt is reverted, the FIFO is left
	 * (never opened for reading) and named in a warning */
	g_clear_pointer(&res, json_object_unref);
	res = test_writer_apply_ok(&r, 0x08, FALSE);
	g_clear_pointer(&res, json_object_unref);
	res = test_writer_revert(&r, NULL, &error);
	g_assert_no_error(error);
	g_assert_nonnull(res);
	alarm(0);
	test_assert_file_is(r.config, old);
	g_assert_false(json_object_get_boolean_member(res, "trial_cancelled"));
	{
		g_autofree gchar *warnings =
			json_to_string(json_object_get_member(res, "warnings"), FALSE);
		g_assert_nonnull(strstr(warnings, "tryboot.txt"));
	}
	g_assert_true(g_file_test(r.tryboot, G_FILE_TEST_EXISTS));
	g_assert_false(g_file_test(r.tryboot, G_FILE_TEST_IS_REGULAR));
	test_root_clear(&r);
}

/* issue 23 item 5: a 300 MB tryboot.txt of the user's is not read and does not block revert */
static void
test_config_writer_huge_tryboot(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonObject) res = NULL;
	g_autofree gchar *warnings = NULL;
	TestRoot r = {NULL};
	gint fd;

	test_root_init(&r, old);
	res = test_writer_apply_ok(&r, 0x08, FALSE);
	g_clear_pointer(&res, json_object_unref);
	fd = open(r.tryboot, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	g_assert_cmpint(fd, >=, 0);
	g_assert_cmpint(ftruncate(fd, (off_t) 300 * 1024 * 1024), ==, 0);
	close(fd);
	res = test_writer_revert(&r, NULL, &error);
	g_assert_no_error(error);
	test_assert_file_is(r.config, old);
	warnings = json_to_string(json_object_get_member(res, "warnings"), FALSE);
	g_assert_nonnull(strstr(warnings, "tryboot.txt"));
	g_assert_nonnull(strstr(warnings, "no record of writing it"));
	g_assert_true(g_file_test(r.tryboot, G_FILE_TEST_IS_REGULAR));
	test_root_clear(&r);
}

/* issue 9 item 10: revert does not depend on space for a backup */
static void
test_config_writer_revert_no_space(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	const gint errnos[] = {ENOSPC, EIO};

	for (guint e = 0; e < G_N_ELEMENTS(errnos); e++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) rev = NULL;
		g_autoptr(GBytes) edited = NULL;
		g_autoptr(GBytes) now = NULL;
		TestRoot r = {NULL};
		TestIo t = {0};

		test_root_init(&r, old);
		res = test_writer_apply_ok(&r, 0x08, FALSE);
		/* edited by hand since: not SD Tuner's own state, so a backup is tried */
		test_file_replace(r.config, "[cm4]\n", "# my note\n[cm4]\n");
		edited = test_read(r.config);
		t.fail_open_prefix = r.backups;
		t.fail_op = OP_OPEN;
		t.fail_errno = errnos[e];
		rev = test_writer_revert(&r, &t, &error);
		now = test_read(r.config);
		if (errnos[e] == ENOSPC) {
			JsonArray *warnings;
			gboolean said = FALSE;
			g_assert_no_error(error);
			g_assert_true(json_object_get_null_member(rev, "backup"));
			warnings = json_object_get_array_member(rev, "warnings");
			for (guint i = 0; i < json_array_get_length(warnings); i++)
				said |= strstr(json_array_get_string_element(warnings, i),
					       "could not be saved") != NULL;
			g_assert_true(said);
			g_assert_null(strstr(g_bytes_get_data(now, NULL), "sd_overclock"));
			g_assert_nonnull(strstr(g_bytes_get_data(now, NULL), "# my note\n"));
		} else {
			g_assert_null(rev);
			g_assert_error(error, SDT_ERROR, SDT_ERROR_IO);
			g_assert_true(g_bytes_equal(now, edited));
		}
		test_root_clear(&r);
	}
	/* not edited since: no backup at all, and the result says which one has the old bytes */
	{
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		g_autoptr(JsonObject) rev = NULL;
		TestRoot r = {NULL};
		TestIo t = {0};

		test_root_init(&r, old);
		res = test_writer_apply_ok(&r, 0x08, FALSE);
		t.fail_open_prefix = r.backups;
		t.fail_op = OP_OPEN;
		t.fail_errno = ENOSPC;
		rev = test_writer_revert(&r, &t, &error);
		g_assert_no_error(error);
		g_assert_cmpstr(json_object_get_string_member(rev, "backup_before_change"),
				==,
				json_object_get_string_member(res, "backup"));
		test_assert_file_is(r.config, old);
		g_assert_cmpuint(test_check_backups(&r, old), ==, 1);
		test_root_clear(&r);
	}
}

/* SIGKILL before every file system call of apply and of revert */
static void
test_config_writer_kill(void)
{
	g_autoptr(GBytes) old = test_load("rpios-bookworm.txt");
	g_autoptr(GBytes) new_bytes = NULL;
	guint total[2] = {0, 0};
	guint n_runs = 0;
	guint n_old = 0;
	guint n_new = 0;

	for (guint revert = 0; revert < 2; revert++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(JsonObject) res = NULL;
		TestRoot r = {NULL};
		TestIo t = {0};
		test_root_init(&r, old);
		res = test_writer_apply(&r, 0x08, FALSE, revert ? NULL : &t, &error);
		g_assert_no_error(error);
		if (revert) {
			g_autoptr(JsonObject) rev = test_writer_revert(&r, &t, &error);
			g_assert_nonnull(rev);
			g_assert_no_error(error);
		} else {
			new_bytes = test_read(r.config);
		}
		total[revert] = t.calls;
		test_root_clear(&r);
	}

	for (guint revert = 0; revert < 2; revert++) {
		GBytes *before = revert ? new_bytes : old;
		GBytes *after = revert ? old : new_bytes;
		for (guint k = 1; k <= total[revert]; k++) {
			g_autoptr(GError) error = NULL;
			g_autoptr(GBytes) now = NULL;
			g_autoptr(JsonObject) res = NULL;
			g_autoptr(SdtConfigWriter) cleaner = NULL;
			TestRoot r = {NULL};
			gint status = 0;
			pid_t pid;

			test_root_init(&r, old);
			if (revert) {
				g_autoptr(JsonObject) a =
					test_writer_apply(&r, 0x08, FALSE, NULL, &error);
				g_assert_nonnull(a);
				g_assert_no_error(error);
				/* keep the journal; only the revert's backup is checked */
				sdt_test_rm_rf(r.backups);
			}
			pid = fork();
			g_assert_cmpint(pid, >=, 0);
			if (pid == 0) {
				TestIo t = {0};
				g_autoptr(GError) child_error = NULL;
				t.kill_at = k;
				if (revert)
					test_writer_revert(&r, &t, &child_error);
				else
					test_writer_apply(&r, 0x08, FALSE, &t, &child_error);
				_exit(0);
			}
			g_assert_cmpint(waitpid(pid, &status, 0), ==, pid);
			g_assert_true(WIFSIGNALED(status));
			g_assert_cmpint(WTERMSIG(status), ==, SIGKILL);
			now = test_read(r.config);
			if (g_bytes_equal(now, before))
				n_old++;
			else if (g_bytes_equal(now, after))
				n_new++;
			else
				g_error("kill before call %u left a file that is neither old nor "
					"new",
					k);
			test_check_backups(&r, before);

			/* the next writer removes what the killed one left, and finishes the job */
			cleaner = sdt_config_writer_new(r.ctx, &error);
			g_assert_no_error(error);
			if (revert) {
				g_autoptr(SdtConfigApplyRevert) done =
					sdt_config_apply_revert(cleaner, &error);
				res = done != NULL ? test_revert_object(done) : NULL;
			} else {
				res = test_writer_apply(&r, 0x08, FALSE, NULL, &error);
			}
			if (error != NULL)
				g_assert_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND);
			g_assert_cmpuint(test_count_tmp(r.root), ==, 0);
			test_assert_file_is(r.config, after);
			test_root_clear(&r);
			n_runs++;
		}
	}
	g_test_message("SIGKILL: %u kill points in apply + %u in revert = %u runs; %u left the "
		       "old content, %u the new one",
		       total[0],
		       total[1],
		       n_runs,
		       n_old,
		       n_new);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_data_func("/sdtuner/config-writer/corpus",
			     GINT_TO_POINTER(SDT_TEST_CORPUS_OWN),
			     test_config_writer_corpus);
	g_test_add_data_func("/sdtuner/config-writer/shared-corpus",
			     GINT_TO_POINTER(SDT_TEST_CORPUS_SHARED),
			     test_config_writer_corpus);
	g_test_add_func("/sdtuner/config-writer/block-exact", test_config_writer_block_exact);
	g_test_add_func("/sdtuner/config-writer/line-endings", test_config_writer_line_endings);
	g_test_add_func("/sdtuner/config-writer/diff-hunks", test_config_writer_diff_hunks);
	g_test_add_func("/sdtuner/config-writer/foreign-edit", test_config_writer_foreign_edit);
	g_test_add_func("/sdtuner/config-writer/legacy-lines", test_config_writer_legacy_lines);
	g_test_add_func("/sdtuner/config-writer/refusals", test_config_writer_refusals);
	g_test_add_func("/sdtuner/config-writer/apply-revert-files",
			test_config_writer_apply_revert_files);
	g_test_add_func("/sdtuner/config-writer/journal-past-2038",
			test_config_writer_journal_past_2038);
	g_test_add_func("/sdtuner/config-writer/trial", test_config_writer_trial);
	g_test_add_func("/sdtuner/config-writer/modes", test_config_writer_modes);
	g_test_add_func("/sdtuner/config-writer/bad-input", test_config_writer_bad_input);
	g_test_add_func("/sdtuner/config-writer/read-only", test_config_writer_read_only);
	g_test_add_func("/sdtuner/config-writer/locate", test_config_writer_locate);
	g_test_add_func("/sdtuner/config-writer/locate-get-fw-loc",
			test_config_writer_locate_get_fw_loc);
	g_test_add_func("/sdtuner/config-writer/symlinks", test_config_writer_symlinks);
	g_test_add_func("/sdtuner/config-writer/concurrent", test_config_writer_concurrent);
	g_test_add_func("/sdtuner/config-writer/fault-injection",
			test_config_writer_fault_injection);
	g_test_add_func("/sdtuner/config-writer/kill", test_config_writer_kill);
	g_test_add_func("/sdtuner/config-writer/user-lines", test_config_writer_user_lines);
	g_test_add_func("/sdtuner/config-writer/tampered-journal",
			test_config_writer_tampered_journal);
	g_test_add_func("/sdtuner/config-writer/journal-schema", test_config_writer_journal_schema);
	g_test_add_func("/sdtuner/config-writer/boot-id", test_config_writer_boot_id);
	g_test_add_func("/sdtuner/config-writer/trial-cancel", test_config_writer_trial_cancel);
	g_test_add_func("/sdtuner/config-writer/damaged-block", test_config_writer_damaged_block);
	g_test_add_func("/sdtuner/config-writer/fifo", test_config_writer_fifo);
	g_test_add_func("/sdtuner/config-writer/huge-tryboot", test_config_writer_huge_tryboot);
	g_test_add_func("/sdtuner/config-writer/revert-no-space",
			test_config_writer_revert_no_space);
	return g_test_run();
}
