/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * Register plausibility rules on real register dumps (the fixtures here and
 * the public dumps in $SDTUNER_SHARED_DIR/docs/card-registers-public.tsv) and
 * on crafted fakes.
 */

#include "config.h"

#include <string.h>

#include "sdt-card-plausible-private.h"

typedef struct {
	const gchar *cid;
	const gchar *csd;
	const gchar *scr;
	const gchar *ssr;
	gdouble seq_write;
} TestRegs;

static GDateTime *
test_now(void)
{
	return g_date_time_new_utc(2026, 12, 1, 0, 0, 0);
}

/* the verdict and the rules found, as "verdict:rule,rule", at the time @now */
static gchar *
test_run_at(const TestRegs *r, GDateTime *now)
{
	SdtCid cid;
	SdtCsd csd;
	SdtScr scr;
	SdtSsr ssr;
	gboolean have_csd = r->csd != NULL && sdt_card_regs_csd_parse(r->csd, &csd, NULL);
	gboolean have_scr = r->scr != NULL && sdt_card_regs_scr_parse(r->scr, &scr, NULL);
	gboolean have_ssr = r->ssr != NULL && sdt_card_regs_ssr_parse(r->ssr, &ssr, NULL);
	g_autoptr(SdtHealthReportRegisters) judged = NULL;
	GString *out;

	g_assert_true(sdt_card_regs_cid_parse(r->cid, &cid, NULL));
	judged = sdt_card_plausible_judge(&cid,
					  have_csd ? &csd : NULL,
					  have_scr ? &scr : NULL,
					  have_ssr ? &ssr : NULL,
					  r->seq_write,
					  now);
	out = g_string_new(judged->verdict);
	g_string_append_c(out, ':');
	for (guint i = 0; i < judged->findings->len; i++) {
		const SdtHealthReportFinding *f = g_ptr_array_index(judged->findings, i);
		g_string_append_printf(out, "%s%s", i > 0 ? "," : "", f->rule);
		g_assert_cmpstr(f->message, !=, "");
	}
	return g_string_free(out, FALSE);
}

static gchar *
test_run(const TestRegs *r)
{
	g_autoptr(GDateTime) now = test_now();
	return test_run_at(r, now);
}

/* SanDisk Extreme 64 GB A2 (PLATFORM.md examples, the pi4/pi5 fixtures) */
#define SANDISK_CID "035344534e363447867e650771016b8d"
#define SANDISK_CSD "400e0032db790001dbd37f800a4040f9"
#define SANDISK_SCR "0245848700000000"

static void
test_plausible_real_sandisk(void)
{
	TestRegs r = {SANDISK_CID, SANDISK_CSD, SANDISK_SCR, NULL, -1};
	g_autofree gchar *got = test_run(&r);
	g_assert_cmpstr(got, ==, "plausible:");
}

static void
test_plausible_crafted_fakes(void)
{
	struct {
		TestRegs regs;
		const gchar *want;
	} cases[] = {
		/* manufacturer 0x00 (f3 #15's fake) */
		{{"004e4f4e414d45100000000100f10100", SANDISK_CSD, NULL, NULL, -1},
		 "suspicious:manfid-zero"},
		/* an id nobody uses */
		{{"574e4f4e414d45100000000100f10100", SANDISK_CSD, NULL, NULL, -1},
		 "suspicious:unknown-manufacturer"},
		/* SanDisk's id with another maker's OEM id */
		{{"03534d534e363447867e650771016b8d", SANDISK_CSD, NULL, NULL, -1},
		 "suspicious:unknown-oem-pair"},
		/* a "2 TB" card: C_SIZE 0x3a3000 -> 1,953,497,088 KiB, 2.0 TB but not a real size
		 */
		{{SANDISK_CID, "400e0032db790022ecb27f800a4040f9", NULL, NULL, -1},
		 "suspicious:capacity-unusual"},
		/* a v2 (SDHC) CSD that claims 1 GiB (C_SIZE 0x7ff): below SDHC's 2 GB */
		{{SANDISK_CID, "400e0032db79000007ff7f800a4040f9", NULL, NULL, -1},
		 "suspicious:capacity-limit,capacity-unusual"},
		/* made in 2031 */
		{{"035344534e363447867e6507711f1b8d", SANDISK_CSD, NULL, NULL, -1},
		 "suspicious:date-future"},
		/* made in 2005 with an SDXC capacity and a 3.0x SCR */
		{{"035344534e363447867e650771005b8d", SANDISK_CSD, SANDISK_SCR, NULL, -1},
		 "suspicious:date-before-spec"},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree gchar *got = test_run(&cases[i].regs);
		g_test_message("case %u: %s", i, got);
		g_assert_cmpstr(got, ==, cases[i].want);
	}
}

static void
test_plausible_speed(void)
{
	/* the pi4 fixture's SSR: class 10, U3, V30, A2 */
	const gchar *ssr = "00000000080000000400a00100fd3a1e000a00000002fc0003000000000000000000000"
			   "000000000000000000000000000000000000000000000000000000000";
	TestRegs ok = {SANDISK_CID, SANDISK_CSD, SANDISK_SCR, ssr, 45.0};
	TestRegs slow = {SANDISK_CID, SANDISK_CSD, SANDISK_SCR, ssr, 6.0};
	TestRegs unmeasured = {SANDISK_CID, SANDISK_CSD, SANDISK_SCR, ssr, -1};
	g_autofree gchar *a = test_run(&ok);
	g_autofree gchar *b = test_run(&slow);
	g_autofree gchar *c = test_run(&unmeasured);

	g_assert_cmpstr(a, ==, "plausible:");
	g_assert_cmpstr(b, ==, "suspicious:speed-contradicted");
	g_assert_cmpstr(c, ==, "plausible:");
}

static void
test_plausible_public_dumps(void)
{
	const gchar *shared = g_getenv("SDTUNER_SHARED_DIR");
	g_autofree gchar *path = NULL;
	g_autofree gchar *text = NULL;
	g_auto(GStrv) lines = NULL;
	guint rows = 0;

	if (shared == NULL) {
		g_test_skip("SDTUNER_SHARED_DIR is not set");
		return;
	}
	path = g_build_filename(shared, "docs", "card-registers-public.tsv", NULL);
	if (!g_file_get_contents(path, &text, NULL, NULL)) {
		g_test_skip("no card-registers-public.tsv in SDTUNER_SHARED_DIR");
		return;
	}
	lines = g_strsplit(text, "\n", -1);
	for (guint i = 1; lines[i] != NULL; i++) {
		g_auto(GStrv) f = g_strsplit(lines[i], "\t", -1);
		TestRegs r = {NULL};
		g_autofree gchar *got = NULL;
		SdtCid cid;
		if (g_strv_length(f) < 10 || !sdt_card_regs_cid_parse(f[6], &cid, NULL))
			continue;
		r.cid = f[6];
		r.csd = f[7][0] != '\0' ? f[7] : NULL;
		r.scr = f[8][0] != '\0' ? f[8] : NULL;
		r.ssr = f[9][0] != '\0' ? f[9] : NULL;
		r.seq_write = -1;
		got = test_run(&r);
		g_test_message("%s (%s): %s", f[1], f[4], got);
		/* manufacturer 0x00 is always suspicious; a known maker with its own
		 * OEM id and a real size is not suspicious for who made it or its size */
		if (cid.manfid == 0)
			g_assert_true(strstr(got, "manfid-zero") != NULL);
		else
			g_assert_null(strstr(got, "manfid-zero"));
		g_assert_null(strstr(got, "capacity-limit"));
		/* real cards, some a little over their label (Samsung 128 GB) */
		g_assert_null(strstr(got, "capacity-unusual"));
		g_assert_null(strstr(got, "date-future"));
		rows++;
	}
	g_assert_cmpuint(rows, >=, 10);
}

/* a Pi without a real-time clock at 1970 (the real-kernel tier's guest, QEMU's card made
 * in 2006-02): the card is not "made in the future"; at a real time the rule still holds */
static void
test_plausible_clock_not_set(void)
{
	TestRegs qemu = {"aa585951454d552101deadbeef006219",
			 "400e00325b5900001fff7f800a4000c3",
			 "0225000000000000",
			 NULL,
			 -1};
	g_autoptr(GDateTime) epoch = g_date_time_new_utc(1970, 1, 1, 0, 0, 30);
	g_autoptr(GDateTime) real = test_now();
	g_autofree gchar *at_epoch = test_run_at(&qemu, epoch);
	g_autofree gchar *at_real = test_run_at(&qemu, real);
	TestRegs future = qemu;
	g_autofree gchar *made_later = NULL;

	g_assert_null(strstr(at_epoch, "date-future"));
	g_assert_null(strstr(at_real, "date-future"));
	/* CID date 2027-12 (year 27, month 12) at 2026-12 */
	future.cid = "aa585951454d552101deadbeef01bc19";
	made_later = test_run_at(&future, real);
	g_assert_nonnull(strstr(made_later, "date-future"));
}

int
main(int argc, char *argv[])
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/plausible/real-sandisk", test_plausible_real_sandisk);
	g_test_add_func("/plausible/crafted-fakes", test_plausible_crafted_fakes);
	g_test_add_func("/plausible/speed", test_plausible_speed);
	g_test_add_func("/plausible/public-dumps", test_plausible_public_dumps);
	g_test_add_func("/plausible/clock-not-set", test_plausible_clock_not_set);
	return g_test_run();
}
