/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "sdt-error.h"
#include "sdt-test-config.h"
#include "sdt-verify.h"
#include "sdt-verify-private.h"
#include "sdt-verify-pending.h"

/* the simulated matrix, at the level of the pure decision */

#define BOOT_A "0b6f8a52-2a4e-4a55-9a43-6a5f0d3b1c11"
#define BOOT_B "5d0e7c1a-9f3b-4c2d-8e1f-2b3c4d5e6f70"
#define CORE   (400 * G_GUINT64_CONSTANT(1000000))
#define MHZ(x) ((guint64) ((x) *1000000.0))

static const gchar clean_log[] = "6,3,1500000,-;mmc0: sdhost-bcm2835 loaded - DMA enabled (>1)\n"
				 "6,4,1512345,-;mmc0: overclocking to 100000000Hz\n"
				 "6,6,1537035,-;mmc0: new high speed SDHC card at address 0001\n";
static const gchar reduced_log[] =
	"6,4,1512345,-;mmc0: overclocking to 100000000Hz\n"
	"4,9,9000000,-;mmc0: reducing overclock due to errors\n"
	"6,10,9100000,-;mmc0: overclocking to 80000000Hz\n"
	"3,11,9200000,-;I/O error, dev mmcblk0, sector 123456 op 0x0:(READ) flags 0x80700\n";
static const gchar cqe_log[] = "6,5,1524690,-;mmc0: Command Queue Engine enabled, 31 tags\n"
			       "4,9,9000000,-;mmc0: running CQE recovery\n";
static const gchar timeout_log[] = "3,9,9000000,-;mmc0: Timeout waiting for hardware interrupt.\n"
				   "3,10,9000001,-;mmcblk0: error -110 transferring data, sector "
				   "1234, nr 8, cmd response 0x900, card status 0xc00\n";

static const SdtVerifyFigure faster[] = {
	{"seq-write", "MB/s", 18.0, 0.4, 21.5, 0.5},
	{"seq-read", "MB/s", 22.0, 0.3, 41.0, 0.6},
	{"rand-4k-read-qd32", "IOPS", 2000, 40, 2400, 50},
};
static const SdtVerifyFigure within_spread[] = {
	{"seq-write", "MB/s", 18.0, 1.0, 19.5, 1.0},
	{"seq-read", "MB/s", 22.0, 2.0, 23.0, 2.0},
};
/* the Kingston card: reads faster, writes 9.24 → 8.17 MB/s */
static const SdtVerifyFigure kingston[] = {
	{"seq-write", "MB/s", 9.24, 0.1, 8.17, 0.1},
	{"seq-read", "MB/s", 22.0, 0.3, 41.0, 0.6},
};

typedef struct {
	SdtVerifyFacts facts;
	SdtVerifyLog log;
} Case;

static void
case_init(Case *c, const gchar *id, const gchar *kmsg, guint64 observed)
{
	memset(c, 0, sizeof(*c));
	sdt_verify_log_init(&c->log);
	sdt_verify_log_scan(&c->log, kmsg, strlen(kmsg));
	c->facts.id = id;
	c->facts.block_id = id;
	sdt_verify_change_parse(id, &c->facts.change);
	c->facts.expected_cqe = sdt_verify_change_expected_cqe(&c->facts.change);
	c->facts.boot_id_then = BOOT_A;
	c->facts.boot_id_now = BOOT_B;
	c->facts.core_clock_hz = CORE;
	if (g_str_has_prefix(id, "sd-overclock-")) {
		guint mhz = (guint) g_ascii_strtoull(id + strlen("sd-overclock-"), NULL, 10);
		c->facts.expected_clock_hz = CORE / (CORE / MHZ(mhz));
		c->facts.expected_clock_hz = mhz == 66 ? CORE / 6 : c->facts.expected_clock_hz;
	}
	c->facts.observed_clock_hz = observed;
	c->facts.log = &c->log;
	c->facts.soak = (SdtVerifySoak){TRUE, 64 << 20, 64 << 20, 0, -1};
	c->facts.figures = faster;
	c->facts.n_figures = G_N_ELEMENTS(faster);
}

static void
case_clear(Case *c)
{
	sdt_verify_log_clear(&c->log);
}

static void
test_next_step(void)
{
	/* 100 → 80 → 66.7 MHz on a 400 MHz core, then nothing above 50 MHz but 57.1 */
	g_assert_cmpuint(sdt_verify_next_step_mhz(CORE, 100), ==, 80);
	g_assert_cmpuint(sdt_verify_next_step_mhz(CORE, 80), ==, 66);
	g_assert_cmpuint(sdt_verify_next_step_mhz(CORE, 66), ==, 57);
	g_assert_cmpuint(sdt_verify_next_step_mhz(CORE, 57), ==, 0);
	/* 250 MHz core (Pi Zero, 1, 2): 62.5 → 50 is no overclock */
	g_assert_cmpuint(sdt_verify_next_step_mhz(250 * G_GUINT64_CONSTANT(1000000), 62), ==, 0);
	g_assert_cmpuint(sdt_verify_next_step_mhz(250 * G_GUINT64_CONSTANT(1000000), 83), ==, 62);
}

static void
test_log_scan(void)
{
	SdtVerifyLog log;
	sdt_verify_log_init(&log);
	sdt_verify_log_scan(&log, clean_log, strlen(clean_log));
	g_assert_cmpuint(sdt_verify_log_errors(&log), ==, 0);
	sdt_verify_log_scan(&log, reduced_log, strlen(reduced_log));
	g_assert_cmpuint(log.overclock_reduced, ==, 1);
	g_assert_cmpuint(log.io_errors, ==, 1);
	sdt_verify_log_scan(&log, timeout_log, strlen(timeout_log));
	g_assert_cmpuint(log.timeouts, ==, 1);
	g_assert_cmpuint(log.io_errors, ==, 2);
	sdt_verify_log_scan(&log, cqe_log, strlen(cqe_log));
	g_assert_cmpuint(log.cqe_recovery, ==, 1);
	g_assert_cmpuint(log.lines->len, ==, 5);
	g_assert_cmpstr(g_ptr_array_index(log.lines, 0),
			==,
			"mmc0: reducing overclock due to errors");
	sdt_verify_log_clear(&log);
}

static void
test_faster_clean_keep(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpstr(sdt_verify_decision_to_string(r->decision), ==, "keep");
	g_assert_cmpuint(r->improved->len, ==, 3);
	g_assert_nonnull(strstr(r->reason->text, "seq-read: 22.0 → 41.0 MB/s (+86%"));
	case_clear(&c);
}

static void
test_step_down_then_keep(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r1 = NULL;
	g_autoptr(SdtVerifyResult) r2 = NULL;
	case_init(&c, "sd-overclock-100", reduced_log, MHZ(80));
	r1 = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r1->decision, ==, SDT_VERIFY_STEP_DOWN);
	g_assert_cmpstr(r1->next_id, ==, "sd-overclock-80");
	g_assert_nonnull(strstr(r1->reason->text, "reducing overclock due to errors"));
	g_assert_nonnull(strstr(r1->reason->text, "80.0 MHz"));
	case_clear(&c);

	case_init(&c, "sd-overclock-80", clean_log, MHZ(80));
	c.facts.step = 1;
	r2 = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r2->decision, ==, SDT_VERIFY_KEEP);
	case_clear(&c);
}

/* issue 23 item 7: a pending id that is not the block's never gives a step (200 → 133 MHz) */
static void
test_pending_id_not_the_block(void)
{
	const gchar *blocks[] = {"sd-overclock-100", NULL};

	for (guint i = 0; i < G_N_ELEMENTS(blocks); i++) {
		Case c;
		g_autoptr(SdtVerifyResult) r = NULL;
		case_init(&c, "sd-overclock-200", reduced_log, MHZ(100));
		c.facts.block_id = blocks[i];
		r = sdt_verify_decide(&c.facts);
		g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
		g_assert_null(r->next_id);
		g_assert_true(r->stop);
		g_assert_nonnull(strstr(r->reason->text, "sd-overclock-200"));
		if (blocks[i] != NULL)
			g_assert_nonnull(strstr(r->reason->text, "inconsistent"));
		case_clear(&c);
	}
}

static void
test_errors_every_step_undo(void)
{
	const gchar *ids[] = {"sd-overclock-100", "sd-overclock-80", "sd-overclock-66"};
	for (guint step = 0; step < 3; step++) {
		Case c;
		g_autoptr(SdtVerifyResult) r = NULL;
		case_init(&c, ids[step], timeout_log, 0);
		c.facts.observed_clock_hz = c.facts.expected_clock_hz;
		c.facts.step = step;
		r = sdt_verify_decide(&c.facts);
		if (step < 2) {
			g_assert_cmpint(r->decision, ==, SDT_VERIFY_STEP_DOWN);
			g_assert_cmpstr(r->next_id,
					==,
					step == 0 ? "sd-overclock-80" : "sd-overclock-66");
		} else {
			g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
			g_assert_null(r->next_id);
			g_assert_nonnull(strstr(r->reason->text, "lowest step"));
			g_assert_nonnull(strstr(r->reason->text, "1 time-out, 1 I/O error"));
		}
		case_clear(&c);
	}
}

static void
test_no_gain_undo(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	c.facts.figures = within_spread;
	c.facts.n_figures = G_N_ELEMENTS(within_spread);
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	g_assert_cmpuint(r->improved->len, ==, 0);
	g_assert_nonnull(strstr(r->reason->text, "combined spread"));
	case_clear(&c);
}

static void
test_kingston_undo(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	c.facts.figures = kingston;
	c.facts.n_figures = G_N_ELEMENTS(kingston);
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	g_assert_cmpuint(r->worse->len, ==, 1);
	g_assert_nonnull(strstr(r->reason->text, "seq-write: 9.2 → 8.2 MB/s (-12%"));
	case_clear(&c);
}

static void
test_pi5_cqe_recovery_undo(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	case_init(&c, "sd-cqe-2", cqe_log, 0);
	c.facts.expected_cqe = SDT_CQE_ENABLED;
	c.facts.observed_cqe = SDT_CQE_ENABLED;
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	g_assert_null(r->next_id);
	g_assert_nonnull(strstr(r->reason->text, "running CQE recovery"));
	case_clear(&c);

	/* the same without the recovery line: kept */
	{
		g_autoptr(SdtVerifyResult) ok = NULL;
		case_init(&c, "sd-cqe-2", clean_log, 0);
		c.facts.expected_cqe = SDT_CQE_ENABLED;
		c.facts.observed_cqe = SDT_CQE_ENABLED;
		ok = sdt_verify_decide(&c.facts);
		g_assert_cmpint(ok->decision, ==, SDT_VERIFY_KEEP);
		case_clear(&c);
	}
}

static void
test_soak_mismatch_undo(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	c.facts.soak.mismatches = 4096;
	c.facts.soak.first_bad_offset = 12582912;
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	g_assert_nonnull(strstr(r->reason->text, "offset 12582912"));
	case_clear(&c);

	/* a mismatch with errors at an overclock is no step down: wrong data ends it */
	{
		g_autoptr(SdtVerifyResult) r2 = NULL;
		case_init(&c, "sd-overclock-100", reduced_log, MHZ(80));
		c.facts.soak.mismatches = 1;
		c.facts.soak.first_bad_offset = 0;
		r2 = sdt_verify_decide(&c.facts);
		g_assert_cmpint(r2->decision, ==, SDT_VERIFY_UNDO);
		g_assert_null(r2->next_id);
		case_clear(&c);
	}
}

static void
test_soak_not_run_undo(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autoptr(SdtVerifyResult) r2 = NULL;
	g_autoptr(SdtVerifyResult) r3 = NULL;
	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	c.facts.soak.ran = FALSE;
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	g_assert_nonnull(strstr(r->reason->text, "could not run"));
	/* checked less than it wrote */
	c.facts.soak = (SdtVerifySoak){TRUE, 100, 99, 0, -1};
	r2 = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r2->decision, ==, SDT_VERIFY_UNDO);
	/* no benchmark */
	c.facts.soak = (SdtVerifySoak){TRUE, 100, 100, 0, -1};
	c.facts.n_figures = 0;
	r3 = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r3->decision, ==, SDT_VERIFY_UNDO);
	g_assert_nonnull(strstr(r3->reason->text, "no benchmark"));
	case_clear(&c);
}

static void
test_not_in_effect_undo(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autoptr(SdtVerifyResult) r2 = NULL;
	/* the kernel silently runs the card at 50 MHz (the 133 MHz case) */
	case_init(&c, "sd-overclock-100", clean_log, MHZ(50));
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	g_assert_nonnull(strstr(r->reason->text, "50.0 MHz, not the expected 100.0 MHz"));
	c.facts.observed_clock_hz = 0;
	r2 = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r2->decision, ==, SDT_VERIFY_UNDO);
	case_clear(&c);
}

static void
test_tryboot_fell_back_undo(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autoptr(SdtVerifyResult) ok = NULL;
	case_init(&c, "sd-overclock-100", clean_log, MHZ(50));
	c.facts.trial = TRUE;
	c.facts.tryboot_active = FALSE;
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	g_assert_nonnull(strstr(r->reason->text, "did not use the trial"));
	/* the trial boot that did come up is judged on its facts */
	c.facts.tryboot_active = TRUE;
	c.facts.observed_clock_hz = MHZ(100);
	ok = sdt_verify_decide(&c.facts);
	g_assert_cmpint(ok->decision, ==, SDT_VERIFY_KEEP);
	case_clear(&c);
}

static void
test_killed_twice_undo_stop(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r1 = NULL;
	g_autoptr(SdtVerifyResult) r2 = NULL;
	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	c.facts.attempts = 1;
	r1 = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r1->decision, ==, SDT_VERIFY_KEEP);
	c.facts.attempts = 2;
	r2 = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r2->decision, ==, SDT_VERIFY_UNDO);
	g_assert_true(r2->stop);
	g_assert_nonnull(strstr(r2->reason->text, "interrupted 2 times"));
	case_clear(&c);
}

static void
test_hand_edit_undo(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	c.facts.trial = TRUE;
	c.facts.tryboot_active = TRUE;
	c.facts.config_edited = TRUE;
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	g_assert_true(r->foreign_change);
	g_assert_nonnull(strstr(r->reason->text, "edited by hand"));
	case_clear(&c);
}

static void
test_same_boot_waits(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autoptr(SdtVerifyResult) r2 = NULL;
	case_init(&c, "sd-overclock-100", reduced_log, MHZ(50));
	c.facts.boot_id_now = BOOT_A;
	c.facts.attempts = 5;
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_WAIT);
	/* no boot id: cannot tell, undo */
	c.facts.boot_id_now = NULL;
	r2 = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r2->decision, ==, SDT_VERIFY_UNDO);
	case_clear(&c);
}

static void
test_figures_invalid_ignored(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	SdtVerifyFigure bad[] = {
		{"seq-write", "MB/s", NAN, 0, 40, 0},
		{"seq-read", "MB/s", 20, -1, 40, 0},
	};
	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	c.facts.figures = bad;
	c.facts.n_figures = G_N_ELEMENTS(bad);
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	case_clear(&c);
}

/* verify runs the benchmark and the soak test only when nothing before them decides */
static void
test_evidence_needed(void)
{
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autoptr(SdtVerifyResult) r2 = NULL;

	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	c.facts.soak.ran = FALSE;
	c.facts.n_figures = 0;
	g_assert_true(sdt_verify_evidence_needed(&c.facts));
	/* not restarted: wait */
	c.facts.boot_id_now = BOOT_A;
	g_assert_false(sdt_verify_evidence_needed(&c.facts));
	c.facts.boot_id_now = BOOT_B;
	/* interrupted twice, edited by hand, a trial that did not boot */
	c.facts.attempts = SDT_VERIFY_MAX_TRIES;
	g_assert_false(sdt_verify_evidence_needed(&c.facts));
	c.facts.attempts = 1;
	g_assert_true(sdt_verify_evidence_needed(&c.facts));
	c.facts.config_edited = TRUE;
	g_assert_false(sdt_verify_evidence_needed(&c.facts));
	c.facts.config_edited = FALSE;
	c.facts.trial = TRUE;
	g_assert_false(sdt_verify_evidence_needed(&c.facts));
	c.facts.tryboot_active = TRUE;
	g_assert_true(sdt_verify_evidence_needed(&c.facts));
	/* not in effect: the kernel runs the card at 50 MHz */
	c.facts.observed_clock_hz = MHZ(50);
	g_assert_false(sdt_verify_evidence_needed(&c.facts));
	case_clear(&c);
	/* errors in the log decide (step down) without them */
	case_init(&c, "sd-overclock-100", reduced_log, MHZ(80));
	c.facts.soak.ran = FALSE;
	g_assert_false(sdt_verify_evidence_needed(&c.facts));
	case_clear(&c);

	/* no benchmark of the card from before: undone with that reason, whatever the soak says */
	case_init(&c, "sd-overclock-100", clean_log, MHZ(100));
	c.facts.no_before = TRUE;
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
	g_assert_nonnull(
		strstr(r->reason->text, "no benchmark of the SD card from before the change"));
	/* the benchmark or the soak test failed or ran out of time */
	c.facts.no_before = FALSE;
	c.facts.evidence_error = "Not enough free space";
	r2 = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r2->decision, ==, SDT_VERIFY_UNDO);
	g_assert_cmpstr(
		r2->reason->text,
		==,
		"Verification could not run: Not enough free space; the change was undone.");
	case_clear(&c);
}

static void
test_pending_roundtrip(void)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *root = sdt_test_mkdtemp("sdt-verify-XXXXXX");
	g_autoptr(SdtContext) ctx = sdt_context_new(root, &error);
	g_autoptr(SdtVerifyPendingState) p = sdt_verify_pending_state_new();
	g_autoptr(SdtVerifyPendingState) back = NULL;
	g_autofree gchar *state = NULL;
	g_autofree gchar *path = NULL;
	const gchar *const tries[] = {BOOT_B, NULL};

	g_assert_no_error(error);
	g_assert_true(sdt_verify_pending_load(ctx, &back, &error));
	g_assert_null(back);
	p->id = g_strdup("sd-overclock-80");
	p->original_id = g_strdup("sd-overclock-100");
	p->step = 1;
	p->trial = TRUE;
	p->boot_id = g_strdup(BOOT_A);
	p->attempts = 1;
	g_strfreev(p->tries);
	p->tries = g_strdupv((gchar **) tries);
	p->time = g_strdup("2026-12-01T09:00:00Z");
	p->filter = g_strdup("[board-type=0x08]");
	p->type_code = 8;
	p->replaces = 17;
	g_assert_true(sdt_verify_pending_save(ctx, p, &error));
	g_assert_no_error(error);
	g_assert_true(sdt_verify_pending_load(ctx, &back, &error));
	g_assert_no_error(error);
	g_assert_cmpstr(back->id, ==, "sd-overclock-80");
	g_assert_cmpstr(back->original_id, ==, "sd-overclock-100");
	g_assert_cmpuint(back->step, ==, 1);
	g_assert_true(back->trial);
	g_assert_cmpstr(back->boot_id, ==, BOOT_A);
	g_assert_cmpuint(back->attempts, ==, 1);
	g_assert_cmpstr(back->tries[0], ==, BOOT_B);
	g_assert_null(back->tries[1]);
	g_assert_null(back->config_sha256);
	g_assert_null(back->before);
	g_assert_cmpstr(back->filter, ==, "[board-type=0x08]");
	g_assert_cmpint(back->type_code, ==, 8);
	g_assert_cmpuint(back->replaces, ==, 17);

	/* a damaged file is an error that names the member, never a crash */
	state = sdt_context_get_state_dir(ctx);
	path = g_build_filename(state, "pending.json", NULL);
	{
		const gchar *bad[] = {
			"[]",
			"{\"version\": 1}",
			"{\"version\": 2, \"id\": \"sd-overclock-100\"}",
			"not json",
		};
		for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
			g_autoptr(SdtVerifyPendingState) none = NULL;
			g_autoptr(GError) err = NULL;
			g_assert_true(g_file_set_contents(path, bad[i], -1, NULL));
			g_assert_false(sdt_verify_pending_load(ctx, &none, &err));
			g_assert_error(err, SDT_ERROR, SDT_ERROR_INVALID_DATA);
			g_assert_null(none);
		}
	}
	{
		g_autoptr(JsonNode) node = sdt_verify_pending_state_to_json(p);
		g_autofree gchar *text = NULL;
		g_autoptr(SdtVerifyPendingState) none = NULL;
		g_autoptr(GError) err = NULL;
		json_object_set_string_member(json_node_get_object(node), "id", "../../etc");
		text = json_to_string(node, FALSE);
		none = sdt_verify_pending_parse(text, strlen(text), &err);
		g_assert_null(none);
		g_assert_nonnull(strstr(err->message, "“id”"));
	}
	/* a FIFO is refused without blocking */
	g_assert_true(sdt_verify_pending_remove(ctx, &error));
	g_assert_cmpint(mkfifo(path, 0600), ==, 0);
	{
		g_autoptr(SdtVerifyPendingState) none = NULL;
		g_autoptr(GError) err = NULL;
		g_assert_false(sdt_verify_pending_load(ctx, &none, &err));
		g_assert_nonnull(err);
	}
	g_assert_true(sdt_verify_pending_remove(ctx, &error));
	g_assert_true(sdt_verify_pending_remove(ctx, &error));
	g_assert_no_error(error);
	sdt_test_rm_rf(root);
}

/* the status decision on typed values: the clock in Hz, the queueing state, the boot ids */
static void
test_status_decide(void)
{
	SdtVerifyStatusFacts f = {0};
	SdtVerifyStatus st;

	g_assert_true(sdt_verify_change_parse("sd-overclock-100", &f.change));
	g_assert_cmpuint(f.change.overclock_mhz, ==, 100);
	g_assert_false(sdt_verify_change_parse("sd-overclock-1000", &f.change));
	g_assert_false(sdt_verify_change_parse("sd-cqe-3", &f.change));
	g_assert_true(sdt_verify_change_parse("sd-overclock-100", &f.change));
	f.expected_clock_hz = MHZ(100);
	f.observed_clock_hz = MHZ(100);
	f.for_this_board = TRUE;
	sdt_verify_status_decide(&f, &st);
	g_assert_true(st.verified && !st.failed);
	g_assert_cmpstr(st.explanation, ==, "the SD clock is 100.0 MHz, as expected");
	g_free(st.explanation);

	/* not in effect in the same boot: a reboot is pending; after one: failed */
	f.observed_clock_hz = MHZ(50);
	f.boot_id_then = BOOT_A;
	f.boot_id_now = BOOT_A;
	sdt_verify_status_decide(&f, &st);
	g_assert_true(!st.verified && !st.failed);
	g_free(st.explanation);
	f.boot_id_now = BOOT_B;
	sdt_verify_status_decide(&f, &st);
	g_assert_true(!st.verified && st.failed);
	g_assert_true(g_str_has_prefix(st.explanation, "the Pi has restarted since the change"));
	g_free(st.explanation);

	/* a block for other boards */
	f.for_this_board = FALSE;
	f.filter = "[board-type=0x0d]";
	sdt_verify_status_decide(&f, &st);
	g_assert_true(!st.verified && st.failed);
	g_assert_cmpstr(st.explanation,
			==,
			"the block is for the boards of [board-type=0x0d], not for this one");
	g_free(st.explanation);

	/* queueing off: the host's software queue is off too */
	memset(&f, 0, sizeof(f));
	g_assert_true(sdt_verify_change_parse("sd-cqe-0", &f.change));
	f.for_this_board = TRUE;
	f.observed_cqe = SDT_CQE_HOST_SOFTWARE_QUEUE;
	sdt_verify_status_decide(&f, &st);
	g_assert_true(st.verified);
	g_free(st.explanation);
}

/* issue 10: a queueing state that did not take effect is one whole sentence per state */
static void
test_cqe_not_in_effect_sentences(void)
{
	const struct {
		const gchar *id;
		SdtCqeState observed;
		const gchar *reason;
	} cases[] = {
		{"sd-cqe-2",
		 SDT_CQE_OFF,
		 "The change did not take effect: command queueing is off; the change was undone."},
		{"sd-cqe-0",
		 SDT_CQE_ENABLED,
		 "The change did not take effect: command queueing is still on; the change was "
		 "undone."},
		{"sd-cqe-2",
		 SDT_CQE_HOST_SOFTWARE_QUEUE,
		 "The change did not take effect: the card runs with the host's software queue, "
		 "not as "
		 "asked; the change was undone."},
		{"sd-cqe-2",
		 SDT_CQE_UNKNOWN,
		 "The change did not take effect: the kernel log does not show whether command "
		 "queueing is on or off; the change was undone."},
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		Case c;
		g_autoptr(SdtVerifyResult) r = NULL;
		case_init(&c, cases[i].id, clean_log, 0);
		c.facts.observed_cqe = cases[i].observed;
		r = sdt_verify_decide(&c.facts);
		g_assert_cmpint(r->decision, ==, SDT_VERIFY_UNDO);
		g_assert_cmpstr(r->reason->text, ==, cases[i].reason);
		case_clear(&c);
	}
}

/* issue 10: sd-cqe-0 is for safety: kept when clean whatever the figures, never without the soak */
static void
test_safety_change_kept_when_clean(void)
{
	static const SdtVerifyFigure slower[] = {
		{"rand-4k-read-qd32", "IOPS", 2000, 40, 1500, 40},
	};
	Case c;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autoptr(SdtVerifyResult) none = NULL;
	g_autoptr(SdtVerifyResult) unsoaked = NULL;

	case_init(&c, "sd-cqe-0", clean_log, 0);
	g_assert_true(sdt_verify_change_is_safety(&c.facts.change));
	c.facts.observed_cqe = SDT_CQE_OFF;
	c.facts.figures = slower;
	c.facts.n_figures = G_N_ELEMENTS(slower);
	r = sdt_verify_decide(&c.facts);
	g_assert_cmpint(r->decision, ==, SDT_VERIFY_KEEP);
	g_assert_cmpuint(r->worse->len, ==, 1);
	g_assert_nonnull(strstr(r->reason->text, "safer"));

	/* no benchmark from before: the soak test alone decides */
	c.facts.no_before = TRUE;
	c.facts.n_figures = 0;
	none = sdt_verify_decide(&c.facts);
	g_assert_cmpint(none->decision, ==, SDT_VERIFY_KEEP);

	/* but never without a soak test that checked every byte */
	c.facts.soak.ran = FALSE;
	unsoaked = sdt_verify_decide(&c.facts);
	g_assert_cmpint(unsoaked->decision, ==, SDT_VERIFY_UNDO);
	case_clear(&c);

	/* a speed change with the same figures is undone */
	{
		g_autoptr(SdtVerifyResult) speed = NULL;
		case_init(&c, "sd-cqe-2", clean_log, 0);
		c.facts.observed_cqe = SDT_CQE_ENABLED;
		c.facts.figures = slower;
		c.facts.n_figures = G_N_ELEMENTS(slower);
		speed = sdt_verify_decide(&c.facts);
		g_assert_cmpint(speed->decision, ==, SDT_VERIFY_UNDO);
		case_clear(&c);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/verify/next-step", test_next_step);
	g_test_add_func("/verify/log-scan", test_log_scan);
	g_test_add_func("/verify/matrix/faster-clean-keep", test_faster_clean_keep);
	g_test_add_func("/verify/matrix/step-down-then-keep", test_step_down_then_keep);
	g_test_add_func("/verify/matrix/errors-every-step-undo", test_errors_every_step_undo);
	g_test_add_func("/verify/matrix/pending-id-not-the-block", test_pending_id_not_the_block);
	g_test_add_func("/verify/matrix/no-gain-undo", test_no_gain_undo);
	g_test_add_func("/verify/matrix/kingston-undo", test_kingston_undo);
	g_test_add_func("/verify/matrix/pi5-cqe-recovery-undo", test_pi5_cqe_recovery_undo);
	g_test_add_func("/verify/matrix/soak-mismatch-undo", test_soak_mismatch_undo);
	g_test_add_func("/verify/matrix/tryboot-fell-back-undo", test_tryboot_fell_back_undo);
	g_test_add_func("/verify/matrix/killed-twice-undo-stop", test_killed_twice_undo_stop);
	g_test_add_func("/verify/matrix/hand-edit-undo", test_hand_edit_undo);
	g_test_add_func("/verify/soak-not-run-undo", test_soak_not_run_undo);
	g_test_add_func("/verify/not-in-effect-undo", test_not_in_effect_undo);
	g_test_add_func("/verify/same-boot-waits", test_same_boot_waits);
	g_test_add_func("/verify/figures-invalid-ignored", test_figures_invalid_ignored);
	g_test_add_func("/verify/evidence-needed", test_evidence_needed);
	g_test_add_func("/verify/pending-roundtrip", test_pending_roundtrip);
	g_test_add_func("/verify/status-decide", test_status_decide);
	g_test_add_func("/verify/cqe-not-in-effect-sentences", test_cqe_not_in_effect_sentences);
	g_test_add_func("/verify/safety-change-kept-when-clean",
			test_safety_change_kept_when_clean);
	return g_test_run();
}
