/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * Errors raised deep in the library arrive in the user's language (issue 24).
 *
 * Each case raises a real error of the library the way the helper does, under
 * the C locale (English on the bus), then shows it the way the app and
 * sdtunerctl do: sdt_l10n_translate() under the pseudo-locale "qps" of
 * tests/i18n/make-pseudo.sh, whose catalogue is extracted afresh from the
 * sources (every msgstr is its msgid in ⟦…⟧, plural forms n != 1). The shown
 * text may hold nothing outside ⟦…⟧ but the values the case names (a path,
 * a JSON member); a value that is itself text of the library stands inside
 * the sentence's ⟦…⟧, so each case checks it has its own ⟦…⟧ there. A text the library raises
 * without _() is not in the catalogue, nor in the generated table of printf-style msgids, and stays
 * English here. Also the plurals: the English text says "1 byte" and
 * "2 bytes", and the client picks the matching plural form.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "sdt-card-regs.h"
#include "sdt-cqe-quirks.h"
#include "sdt-file.h"
#include "sdt-history.h"
#include "sdt-l10n.h"
#include "sdt-recommend.h"
#include "sdt-verify.h"

static const gchar timeout_log[] = "3,9,9000000,-;mmc0: Timeout waiting for hardware interrupt.\n"
				   "3,10,9000001,-;mmcblk0: error -110 transferring data, sector "
				   "1234, nr 8, cmd response 0x900, card status 0xc00\n";

/* the library's text as the helper sends it: English */
static void
as_helper(void)
{
	sdt_l10n_use_c_locale_for_output();
}

/* back to the user's language (LANGUAGE=qps), as the app and sdtunerctl run */
static void
as_client(void)
{
	setlocale(LC_MESSAGES, g_getenv("SDTUNER_TEST_LOCALE") ?: "C.UTF-8");
}

/* @shown with every ⟦…⟧ (nested too) and then every @allowed value taken out */
static gchar *
outside_markers(const gchar *shown, const gchar *const *allowed)
{
	g_autoptr(GRegex) marked = g_regex_new("⟦[^⟦⟧]*⟧", 0, 0, NULL);
	gchar *rest = g_strdup(shown);
	gchar *prev = NULL;

	while (g_strcmp0(prev, rest) != 0) {
		g_free(prev);
		prev = rest;
		rest = g_regex_replace_literal(marked, prev, -1, 0, " ", 0, NULL);
	}
	g_free(prev);
	for (guint i = 0; allowed != NULL && allowed[i] != NULL; i++) {
		g_auto(GStrv) parts = g_strsplit(rest, allowed[i], -1);
		g_free(rest);
		rest = g_strjoinv(" ", parts);
	}
	return rest;
}

/* @english shown to the user: every word of it translated */
static gchar *
assert_shown_translated(const gchar *english, const gchar *const *allowed)
{
	gchar *shown = sdt_l10n_translate(english);
	g_autofree gchar *rest = outside_markers(shown, allowed);

	g_test_message("English: %s\nshown:   %s", english, shown);
	g_assert_true(g_str_has_prefix(shown, "⟦"));
	for (const gchar *p = rest; *p != '\0'; p++) {
		if (g_ascii_isalpha(*p))
			g_error("“%s” shows untranslated text: “%s”", shown, rest);
	}
	return shown;
}

static void
test_card_register(void)
{
	SdtCid cid;
	guint8 byte;
	g_autoptr(GError) one = NULL;
	g_autoptr(GError) four = NULL;
	g_autoptr(GError) missing = NULL;
	g_autofree gchar *shown_one = NULL;
	g_autofree gchar *shown_four = NULL;
	g_autofree gchar *shown_missing = NULL;
	const gchar *const names[] = {"CID", NULL};

	as_helper();
	g_assert_false(sdt_card_regs_cid_parse("0\n", &cid, &one));
	g_assert_false(sdt_card_regs_cid_parse("0123", &cid, &four));
	g_assert_false(sdt_card_regs_ext_byte_parse(NULL, &byte, &missing));
	as_client();
	/* one digit, four digits: the English plural and the form the client picks */
	g_assert_cmpstr(one->message, ==, "CID has 1 hex digit instead of 32");
	g_assert_cmpstr(four->message, ==, "CID has 4 hex digits instead of 32");
	shown_one = assert_shown_translated(one->message, names);
	shown_four = assert_shown_translated(four->message, names);
	g_assert_nonnull(strstr(shown_one, "1 hex digit instead"));
	g_assert_nonnull(strstr(shown_four, "4 hex digits instead"));
	/* the register's name in a sentence: itself translated (a value inside the
	 * translated sentence is inside its ⟦…⟧, so it is looked for as such) */
	shown_missing = assert_shown_translated(missing->message, NULL);
	g_assert_true(g_str_has_prefix(shown_missing, "⟦⟦extension register byte⟧"));
}

static void
test_file(void)
{
	g_autofree gchar *dir = g_dir_make_tmp("sdt-l10n-errors-XXXXXX", NULL);
	g_autofree gchar *path = g_build_filename(dir, "big", NULL);
	g_autofree gchar *text = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;
	const gchar *allowed[] = {path, NULL};

	g_assert_true(g_file_set_contents(path, "0123456789abcdef", 16, NULL));
	as_helper();
	g_assert_false(sdt_file_read_bounded(path, 8, &text, &len, &error));
	as_client();
	g_assert_nonnull(strstr(error->message, "is too large (16 bytes, at most 8)"));
	g_free(assert_shown_translated(error->message, allowed));
	g_unlink(path);
	g_rmdir(dir);
}

static void
test_history_entry(void)
{
	g_autoptr(GError) nul = NULL;
	g_autoptr(GError) member = NULL;
	g_autoptr(SdtHistoryEntry) a = NULL;
	g_autoptr(SdtHistoryEntry) b = NULL;
	const gchar *allowed[] = {"kind", NULL};

	as_helper();
	a = sdt_history_entry_parse_data("{\0}", 3, &nul);
	b = sdt_history_entry_parse_data("{}", 2, &member);
	as_client();
	g_assert_null(a);
	g_assert_null(b);
	/* the reason in parentheses of "History entry %s is damaged (%s)" */
	g_free(assert_shown_translated(nul->message, NULL));
	g_free(assert_shown_translated(member->message, allowed));
}

static void
verify_case(SdtVerifyFacts *f, SdtVerifyLog *log, const gchar *kmsg)
{
	memset(f, 0, sizeof(*f));
	sdt_verify_log_init(log);
	sdt_verify_log_scan(log, kmsg, strlen(kmsg));
	f->id = "sd-overclock-66";
	f->block_id = f->id;
	sdt_verify_change_parse(f->id, &f->change);
	f->expected_cqe = sdt_verify_change_expected_cqe(&f->change);
	f->boot_id_then = "0d6f2a8e-3b1c-4a5e-9f70-1c2d3e4f5a6b";
	f->boot_id_now = "5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70";
	f->core_clock_hz = 400 * G_GUINT64_CONSTANT(1000000);
	f->expected_clock_hz = f->core_clock_hz / 6;
	f->observed_clock_hz = f->expected_clock_hz;
	f->step = 2;
	f->log = log;
	f->soak = (SdtVerifySoak){TRUE, 64 << 20, 64 << 20, 0, -1};
}

static void
test_kernel_log_findings(void)
{
	SdtVerifyFacts f;
	SdtVerifyLog log;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autofree gchar *shown = NULL;

	verify_case(&f, &log, timeout_log);
	as_helper();
	r = sdt_verify_decide(&f);
	as_client();
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	/* two findings in a list: each one and the separator translated */
	g_assert_nonnull(strstr(r->reason->text, "1 time-out, 1 I/O error even"));
	shown = assert_shown_translated(r->reason->text, NULL);
	g_assert_nonnull(strstr(shown, "⟦1 time-out⟧⟦, ⟧⟦1 I/O error⟧"));
	sdt_verify_log_clear(&log);
}

static void
test_soak_mismatch_plural(void)
{
	const guint64 counts[] = {1, 2};
	const gchar *english[] = {"1 byte differed", "2 bytes differed"};

	for (guint i = 0; i < G_N_ELEMENTS(counts); i++) {
		SdtVerifyFacts f;
		SdtVerifyLog log;
		g_autoptr(SdtVerifyResult) r = NULL;
		g_autofree gchar *shown = NULL;

		verify_case(&f, &log, "");
		f.soak.mismatches = counts[i];
		f.soak.first_bad_offset = 4096;
		as_helper();
		r = sdt_verify_decide(&f);
		as_client();
		g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
		g_assert_nonnull(strstr(r->reason->text, english[i]));
		shown = assert_shown_translated(r->reason->text, NULL);
		g_assert_nonnull(strstr(shown, english[i]));
		sdt_verify_log_clear(&log);
	}
}

static void
test_cqe_quirk_reason(void)
{
	SdtCid cid = {0x1b, "SM", "EB1QT", 3, 0, 1, 2023, 5};
	SdtRecommendFacts f = {0};
	g_autoptr(SdtRecommendResult) res = NULL;
	const gchar *note = NULL;
	g_autofree gchar *shown = NULL;
	const gchar *allowed[] = {"dtparam=sd_cqe=2", NULL};

	as_helper();
	f.board_key = "5";
	f.type_code = 0x17;
	f.controller = "sdhci-brcmstb";
	f.card_present = TRUE;
	f.app_class = 2;
	f.cmd48 = 1;
	f.ext_perf_cq = 1;
	f.cq_depth = 32;
	f.actual_clock_hz = 200000000;
	f.timing = "uhs-sdr104";
	f.cqe = "host-software-queue";
	f.cqe_list = (gint) sdt_cqe_quirks_lookup(&cid, &f.cqe_list_why);
	g_assert_cmpint(f.cqe_list, ==, SDT_CQE_LIST_DENY);
	res = sdt_recommend(&f);
	as_client();
	for (guint i = 0; i < res->notes->len && note == NULL; i++) {
		const gchar *n = g_ptr_array_index(res->notes, i);
		if (strstr(n, "known-bad") != NULL)
			note = n;
	}
	g_assert_nonnull(note);
	g_assert_nonnull(strstr(note, "(Samsung PRO Plus"));
	shown = assert_shown_translated(note, allowed);
	/* the kernel's reason, a value inside the sentence: translated itself */
	g_assert_nonnull(strstr(shown, "(⟦Samsung PRO Plus"));
}

int
main(int argc, char **argv)
{
	const gchar *localedir = g_getenv("SDTUNER_LOCALEDIR");

	g_setenv("LANGUAGE", "qps", TRUE);
	/* a locale that is not C: glibc 2.41 ignores LANGUAGE under C.UTF-8 (tests/meson.build) */
	g_assert_nonnull(setlocale(LC_ALL, g_getenv("SDTUNER_TEST_LOCALE") ?: "C.UTF-8"));
	g_test_init(&argc, &argv, NULL);
	if (localedir == NULL) {
		/* meson test sets it; under CI a test that cannot run fails */
		if (g_strcmp0(g_getenv("CI"), "true") == 0)
			g_error("SDTUNER_LOCALEDIR is not set: run through meson test");
		g_test_skip("SDTUNER_LOCALEDIR is not set (meson test sets it)");
		return g_test_run();
	}
	bindtextdomain(GETTEXT_PACKAGE, localedir);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	g_test_add_func("/l10n-errors/card-register", test_card_register);
	g_test_add_func("/l10n-errors/file", test_file);
	g_test_add_func("/l10n-errors/history-entry", test_history_entry);
	g_test_add_func("/l10n-errors/kernel-log-findings", test_kernel_log_findings);
	g_test_add_func("/l10n-errors/soak-mismatch-plural", test_soak_mismatch_plural);
	g_test_add_func("/l10n-errors/cqe-quirk-reason", test_cqe_quirk_reason);
	return g_test_run();
}
