/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sdt-l10n-record.h"
#include "sdt-recommend.h"
#include "sdt-verify.h"
#include "sdt-verify-private.h"

#define SDT_VERIFY_MHZ G_GUINT64_CONSTANT(1000000)
/* the card's own high-speed clock: stepping down to it is undoing the overclock */
#define SDT_VERIFY_BASE_HZ (50 * SDT_VERIFY_MHZ)

const gchar *
sdt_verify_decision_to_string(SdtVerifyDecision decision)
{
	switch (decision) {
	case SDT_VERIFY_WAIT:
		return "wait";
	case SDT_VERIFY_KEEP:
		return "keep";
	case SDT_VERIFY_STEP_DOWN:
		return "step-down";
	case SDT_VERIFY_UNDO:
	default:
		return "undo";
	}
}

void
sdt_verify_result_free(SdtVerifyResult *result)
{
	if (result == NULL)
		return;
	sdt_l10n_record_reason_free(result->reason);
	g_free(result->next_id);
	g_ptr_array_unref(result->improved);
	g_ptr_array_unref(result->worse);
	g_free(result);
}

/* the change ---------------------------------------------------------------- */

/* "N" of an id: 1 to 3 decimal digits */
static gboolean
sdt_verify_id_number(const gchar *num, guint *value)
{
	gsize n = strlen(num);
	if (n == 0 || n > 3 || strspn(num, "0123456789") != n)
		return FALSE;
	*value = (guint) g_ascii_strtoull(num, NULL, 10);
	return TRUE;
}

gboolean
sdt_verify_change_parse(const gchar *id, SdtVerifyChange *change)
{
	guint n = 0;

	memset(change, 0, sizeof(*change));
	if (id == NULL)
		return FALSE;
	if (g_str_has_prefix(id, "sd-overclock-") &&
	    sdt_verify_id_number(id + strlen("sd-overclock-"), &n) && n > 0) {
		change->kind = SDT_VERIFY_CHANGE_OVERCLOCK;
		change->overclock_mhz = n;
		return TRUE;
	}
	if (g_str_has_prefix(id, "sd-cqe-") && strlen(id) == strlen("sd-cqe-") + 1 &&
	    sdt_verify_id_number(id + strlen("sd-cqe-"), &n) && n <= 2) {
		change->kind = SDT_VERIFY_CHANGE_CQE;
		change->cqe_value = n;
		return TRUE;
	}
	return FALSE;
}

SdtCqeState
sdt_verify_change_expected_cqe(const SdtVerifyChange *change)
{
	if (change->kind != SDT_VERIFY_CHANGE_CQE)
		return SDT_CQE_UNKNOWN;
	if (change->cqe_value == 2)
		return SDT_CQE_ENABLED;
	if (change->cqe_value == 0)
		return SDT_CQE_OFF;
	return SDT_CQE_UNKNOWN;
}

gboolean
sdt_verify_change_is_safety(const SdtVerifyChange *change)
{
	return change->kind == SDT_VERIFY_CHANGE_CQE && change->cqe_value == 0;
}

/* the decision ------------------------------------------------------------ */

guint
sdt_verify_next_step_mhz(guint64 core_hz, guint mhz)
{
	guint64 now = sdt_recommend_sdhost_clock_hz(core_hz, mhz);
	guint64 n;
	guint64 next;

	if (now == 0)
		return 0;
	n = core_hz / now;
	/* core / n rounds down: the divisor is the one that gives exactly @now */
	while (n > 1 && core_hz / (n - 1) <= now)
		n--;
	next = core_hz / (n + 1);
	if (next <= SDT_VERIFY_BASE_HZ)
		return 0;
	return (guint) (next / SDT_VERIFY_MHZ);
}

static gchar *
sdt_verify_mhz_string(guint64 hz)
{
	gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

	/* C numbers whatever the locale: an argument of a stored reason */
	return g_strdup(g_ascii_formatd(buf, sizeof buf, "%.1f", (gdouble) hz / 1e6));
}

/* the reason as stored: its code (sdt-l10n-record.c), its arguments (taken; NULL: none)
 * and its English */
static void
sdt_verify_result_set_reason(SdtVerifyResult *r, const gchar *code, GPtrArray *args)
{
	sdt_l10n_record_reason_free(r->reason);
	r->reason = sdt_l10n_record_reason_new(code, args);
}

/* @code: the reason's code; @args (taken; NULL: none) its arguments */
static SdtVerifyResult *
sdt_verify_result_new(SdtVerifyDecision decision, const gchar *code, GPtrArray *args)
{
	SdtVerifyResult *r = g_new0(SdtVerifyResult, 1);
	r->decision = decision;
	r->improved = g_ptr_array_new_with_free_func(g_free);
	r->worse = g_ptr_array_new_with_free_func(g_free);
	if (code != NULL)
		sdt_verify_result_set_reason(r, code, args);
	return r;
}

/* arguments: the values given, up to a NULL */
static GPtrArray *
sdt_verify_args(const gchar *first, ...)
{
	GPtrArray *args = sdt_l10n_record_reason_args_new();
	va_list ap;

	va_start(ap, first);
	for (const gchar *s = first; s != NULL; s = va_arg(ap, const gchar *))
		sdt_l10n_record_reason_args_add(args, s);
	va_end(ap);
	return args;
}

/* arguments: @list (of gchar*) as one list argument */
static GPtrArray *
sdt_verify_args_list(GPtrArray *list)
{
	GPtrArray *args = sdt_l10n_record_reason_args_new();

	sdt_l10n_record_reason_args_add_list(args, list);
	return args;
}

/* "seq-write: 20.1 → 38.9 MB/s (+94%, spread ±0.4/±0.6)" */
static gchar *
sdt_verify_figure_text(const SdtVerifyFigure *f)
{
	gdouble pct = f->before > 0 ? (f->after - f->before) * 100.0 / f->before : 0;
	return g_strdup_printf("%s: %.1f → %.1f %s (%+.0f%%, ±%.1f/±%.1f)",
			       f->name,
			       f->before,
			       f->after,
			       f->unit != NULL ? f->unit : "",
			       pct,
			       f->before_spread,
			       f->after_spread);
}

static gboolean
sdt_verify_figure_valid(const SdtVerifyFigure *f)
{
	return f->name != NULL && isfinite(f->before) && isfinite(f->after) &&
	       isfinite(f->before_spread) && isfinite(f->after_spread) && f->before >= 0 &&
	       f->after >= 0 && f->before_spread >= 0 && f->after_spread >= 0;
}

/* what the kernel log showed, a list of quotes and counts (English) */
static GPtrArray *
sdt_verify_log_summary(const SdtVerifyLog *log)
{
	GPtrArray *parts = g_ptr_array_new_with_free_func(g_free);

	/* Translators: the next three are messages of the kernel log, quoted: the
	 * log itself stays English, so keep the English words recognisable; they are
	 * stored in English and shown in the reader's language (sdt-l10n-record.c) */
	if (log->overclock_reduced > 0)
		g_ptr_array_add(parts, g_strdup(N_("“reducing overclock due to errors”")));
	if (log->overclock_cancelled > 0)
		g_ptr_array_add(parts, g_strdup(N_("“cancelling overclock”")));
	if (log->cqe_recovery > 0)
		g_ptr_array_add(parts, g_strdup(N_("“running CQE recovery”")));
	if (log->timeouts > 0)
		g_ptr_array_add(parts,
				g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
							    "%u time-out",
							    "%u time-outs",
							    log->timeouts),
						log->timeouts));
	if (log->io_errors > 0)
		g_ptr_array_add(parts,
				g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
							    "%u I/O error",
							    "%u I/O errors",
							    log->io_errors),
						log->io_errors));
	return parts;
}

/* errors at an overclock: the next step while there is one, else undo */
static SdtVerifyResult *
sdt_verify_errors(const SdtVerifyFacts *facts, GPtrArray *what)
{
	guint mhz = facts->change.overclock_mhz;
	guint next = facts->step < SDT_VERIFY_MAX_STEPS
			     ? sdt_verify_next_step_mhz(facts->core_clock_hz, mhz)
			     : 0;
	SdtVerifyResult *r;

	if (next > 0) {
		g_autofree gchar *next_hz = sdt_verify_mhz_string(
			sdt_recommend_sdhost_clock_hz(facts->core_clock_hz, next));
		g_autofree gchar *next_id = g_strdup_printf("sd-overclock-%u", next);
		GPtrArray *args = sdt_verify_args_list(what);

		sdt_l10n_record_reason_args_add(args, next_id);
		sdt_l10n_record_reason_args_add(args, next_hz);
		r = sdt_verify_result_new(SDT_VERIFY_STEP_DOWN, "errors-step-down", args);
		r->next_id = g_steal_pointer(&next_id);
		return r;
	}
	return sdt_verify_result_new(SDT_VERIFY_UNDO,
				     "errors-lowest-step",
				     sdt_verify_args_list(what));
}

/* the decision, step by step: each returns the result when it decides, else NULL */

/* 1. not restarted yet: nothing to decide */
static SdtVerifyResult *
sdt_verify_check_boot(const SdtVerifyFacts *facts)
{
	if (facts->boot_id_then != NULL && facts->boot_id_now != NULL &&
	    g_ascii_strcasecmp(facts->boot_id_then, facts->boot_id_now) == 0)
		return sdt_verify_result_new(SDT_VERIFY_WAIT, "not-restarted", NULL);
	if (facts->boot_id_now == NULL)
		return sdt_verify_result_new(SDT_VERIFY_UNDO, "no-boot-id", NULL);
	return NULL;
}

/* 2. a crash, a power loss or a reboot loop during verification */
static SdtVerifyResult *
sdt_verify_check_tries(const SdtVerifyFacts *facts)
{
	SdtVerifyResult *r;
	g_autofree gchar *n = NULL;

	if (facts->attempts < SDT_VERIFY_MAX_TRIES)
		return NULL;
	n = g_strdup_printf("%u", facts->attempts);
	r = sdt_verify_result_new(SDT_VERIFY_UNDO, "interrupted", sdt_verify_args(n, NULL));
	r->stop = TRUE;
	return r;
}

/*
 * 2b. the pending record and the file disagree (issue 23 item 7): never a
 * step computed from an id that is not the block's, which could raise the
 * clock; SD Tuner's block goes and verifying stops.
 */
static SdtVerifyResult *
sdt_verify_check_block(const SdtVerifyFacts *facts)
{
	SdtVerifyResult *r;

	if (g_strcmp0(facts->block_id, facts->id) == 0)
		return NULL;
	if (facts->block_id == NULL)
		r = sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			"block-missing",
			sdt_verify_args(facts->id != NULL ? facts->id : "?", NULL));
	else
		r = sdt_verify_result_new(SDT_VERIFY_UNDO,
					  "block-other",
					  sdt_verify_args(facts->id != NULL ? facts->id : "?",
							  facts->block_id,
							  NULL));
	r->stop = TRUE;
	return r;
}

/* 3. somebody else changed the file meanwhile */
static SdtVerifyResult *
sdt_verify_check_config_edited(const SdtVerifyFacts *facts)
{
	SdtVerifyResult *r;

	if (!facts->config_edited)
		return NULL;
	r = sdt_verify_result_new(SDT_VERIFY_UNDO, "config-edited", NULL);
	r->foreign_change = TRUE;
	return r;
}

/* 4. a trial that did not boot: the firmware fell back to config.txt */
static SdtVerifyResult *
sdt_verify_check_trial_booted(const SdtVerifyFacts *facts)
{
	if (!facts->trial || facts->tryboot_active)
		return NULL;
	return sdt_verify_result_new(SDT_VERIFY_UNDO, "trial-not-booted", NULL);
}

/* 5. the data: any mismatch is the end, whatever else is true */
static SdtVerifyResult *
sdt_verify_check_soak_data(const SdtVerifyFacts *facts)
{
	g_autofree gchar *bytes = NULL;
	g_autofree gchar *offset = NULL;

	if (!facts->soak.ran || facts->soak.mismatches == 0)
		return NULL;
	bytes = g_strdup_printf("%" PRIu64, (uint64_t) facts->soak.mismatches);
	offset = g_strdup_printf("%" PRId64, (int64_t) facts->soak.first_bad_offset);
	return sdt_verify_result_new(SDT_VERIFY_UNDO,
				     "soak-mismatch",
				     sdt_verify_args(bytes, offset, NULL));
}

/* 6. errors in the kernel log since boot: a step down at an overclock, else undo */
static SdtVerifyResult *
sdt_verify_check_log(const SdtVerifyFacts *facts)
{
	g_autoptr(GPtrArray) what = NULL;

	if (facts->log == NULL || sdt_verify_log_errors(facts->log) == 0)
		return NULL;
	what = sdt_verify_log_summary(facts->log);
	if (facts->change.kind == SDT_VERIFY_CHANGE_OVERCLOCK && facts->log->cqe_recovery == 0)
		return sdt_verify_errors(facts, what);
	return sdt_verify_result_new(SDT_VERIFY_UNDO, "log-errors", sdt_verify_args_list(what));
}

/* 7a. took effect: the SD clock is the one the overclock gives */
static SdtVerifyResult *
sdt_verify_check_clock(const SdtVerifyFacts *facts)
{
	g_autofree gchar *want = NULL;
	g_autofree gchar *seen = NULL;

	if (facts->expected_clock_hz == 0 || facts->observed_clock_hz == 0)
		return sdt_verify_result_new(SDT_VERIFY_UNDO, "clock-unreadable", NULL);
	if (facts->observed_clock_hz + 1000 >= facts->expected_clock_hz &&
	    facts->observed_clock_hz <= facts->expected_clock_hz + 1000)
		return NULL;
	want = sdt_verify_mhz_string(facts->expected_clock_hz);
	seen = sdt_verify_mhz_string(facts->observed_clock_hz);
	return sdt_verify_result_new(SDT_VERIFY_UNDO,
				     "clock-wrong",
				     sdt_verify_args(seen, want, NULL));
}

/* 7b. took effect: the queueing state is the one asked for; one sentence per state */
static SdtVerifyResult *
sdt_verify_check_cqe(const SdtVerifyFacts *facts)
{
	const gchar *reason;

	if (facts->expected_cqe == SDT_CQE_UNKNOWN)
		reason = "cannot-verify";
	else if (facts->observed_cqe == facts->expected_cqe)
		return NULL;
	/* the host's software queue is no command queueing on the card: off, as status says */
	else if (facts->expected_cqe == SDT_CQE_OFF &&
		 facts->observed_cqe == SDT_CQE_HOST_SOFTWARE_QUEUE)
		return NULL;
	else if (facts->observed_cqe == SDT_CQE_ENABLED)
		reason = "cqe-still-on";
	else if (facts->observed_cqe == SDT_CQE_OFF)
		reason = "cqe-off";
	else if (facts->observed_cqe == SDT_CQE_HOST_SOFTWARE_QUEUE)
		reason = "cqe-host-queue";
	else
		reason = "cqe-unknown";
	return sdt_verify_result_new(SDT_VERIFY_UNDO, reason, NULL);
}

/* 7. took effect */
static SdtVerifyResult *
sdt_verify_check_effect(const SdtVerifyFacts *facts)
{
	if (facts->change.kind == SDT_VERIFY_CHANGE_OVERCLOCK)
		return sdt_verify_check_clock(facts);
	if (facts->change.kind == SDT_VERIFY_CHANGE_CQE)
		return sdt_verify_check_cqe(facts);
	return sdt_verify_result_new(SDT_VERIFY_UNDO, "cannot-verify", NULL);
}

/* 8. the evidence: a "before" to compare with, and a soak test that checked every byte */
static SdtVerifyResult *
sdt_verify_check_evidence(const SdtVerifyFacts *facts)
{
	/* a safety change is not there to be faster: it needs no "before" */
	if (facts->no_before && !sdt_verify_change_is_safety(&facts->change))
		return sdt_verify_result_new(SDT_VERIFY_UNDO, "no-before", NULL);
	if (facts->evidence_error != NULL)
		return sdt_verify_result_new(SDT_VERIFY_UNDO,
					     "evidence-failed",
					     sdt_verify_args(facts->evidence_error, NULL));
	if (!facts->soak.ran || facts->soak.bytes_written == 0 ||
	    facts->soak.bytes_checked < facts->soak.bytes_written)
		return sdt_verify_result_new(SDT_VERIFY_UNDO, "soak-unchecked", NULL);
	return NULL;
}

/* sorts every figure into improved (gain above the combined spread), worse or neither */
static void
sdt_verify_compare_figures(const SdtVerifyFacts *facts, SdtVerifyResult *r)
{
	for (guint i = 0; i < facts->n_figures; i++) {
		const SdtVerifyFigure *f = &facts->figures[i];
		gdouble margin;
		if (!sdt_verify_figure_valid(f))
			continue;
		margin = f->before_spread + f->after_spread;
		if (f->after - f->before > margin)
			g_ptr_array_add(r->improved, sdt_verify_figure_text(f));
		else if (f->before - f->after > margin)
			g_ptr_array_add(r->worse, sdt_verify_figure_text(f));
	}
}

/* 9. it helped: every figure compared with the combined spread */
static SdtVerifyResult *
sdt_verify_judge_figures(const SdtVerifyFacts *facts)
{
	SdtVerifyResult *r = sdt_verify_result_new(SDT_VERIFY_KEEP, NULL, NULL);

	sdt_verify_compare_figures(facts, r);
	if (sdt_verify_change_is_safety(&facts->change)) {
		sdt_verify_result_set_reason(r, "safety-kept", NULL);
		return r;
	}
	if (r->worse->len > 0) {
		r->decision = SDT_VERIFY_UNDO;
		sdt_verify_result_set_reason(r, "figure-worse", sdt_verify_args_list(r->worse));
		return r;
	}
	if (r->improved->len == 0) {
		r->decision = SDT_VERIFY_UNDO;
		sdt_verify_result_set_reason(r,
					     facts->n_figures == 0 ? "no-figures"
								   : "no-improvement",
					     NULL);
		return r;
	}
	sdt_verify_result_set_reason(r, "works", sdt_verify_args_list(r->improved));
	return r;
}

typedef SdtVerifyResult *(*SdtVerifyStep)(const SdtVerifyFacts *facts);

/* the steps that decide before the soak test and the benchmark, in order */
static const SdtVerifyStep sdt_verify_steps[] = {
	sdt_verify_check_boot,
	sdt_verify_check_tries,
	sdt_verify_check_block,
	sdt_verify_check_config_edited,
	sdt_verify_check_trial_booted,
	sdt_verify_check_soak_data,
	sdt_verify_check_log,
	sdt_verify_check_effect,
};

static SdtVerifyResult *
sdt_verify_decide_full(const SdtVerifyFacts *facts, gboolean *at_evidence)
{
	SdtVerifyResult *r;

	for (guint i = 0; i < G_N_ELEMENTS(sdt_verify_steps); i++) {
		r = sdt_verify_steps[i](facts);
		if (r != NULL)
			return r;
	}
	*at_evidence = TRUE;
	r = sdt_verify_check_evidence(facts);
	return r != NULL ? r : sdt_verify_judge_figures(facts);
}

SdtVerifyResult *
sdt_verify_decide(const SdtVerifyFacts *facts)
{
	gboolean at_evidence = FALSE;
	return sdt_verify_decide_full(facts, &at_evidence);
}

gboolean
sdt_verify_evidence_needed(const SdtVerifyFacts *facts)
{
	gboolean at_evidence = FALSE;
	g_autoptr(SdtVerifyResult) r = sdt_verify_decide_full(facts, &at_evidence);
	return at_evidence;
}

/* what `status` says ---------------------------------------------------------- */

static gboolean
sdt_verify_clock_near(guint64 hz, guint64 want)
{
	return hz > 0 && hz + 1000 >= want && hz <= want + 1000;
}

/* in effect: the clock of an overclock */
static void
sdt_verify_status_clock(const SdtVerifyStatusFacts *f, SdtVerifyStatus *s)
{
	g_autofree gchar *want = sdt_verify_mhz_string(f->expected_clock_hz);

	if (f->log_overclock_reduced) {
		s->failed = TRUE;
		s->explanation = g_strdup(_("the kernel log shows “reducing overclock due to "
					    "errors”: the card cannot keep this clock; run "
					    "“sdtunerctl recommend” for a slower step"));
	} else if (sdt_verify_clock_near(f->observed_clock_hz, f->expected_clock_hz)) {
		s->verified = TRUE;
		s->explanation = g_strdup_printf(_("the SD clock is %s MHz, as expected"), want);
	} else if (sdt_verify_clock_near(f->log_overclock_hz, f->expected_clock_hz)) {
		s->verified = TRUE;
		s->explanation = g_strdup_printf(_("the kernel log shows “overclocking to” "
						   "%s MHz, as expected"),
						 want);
	} else {
		s->explanation = g_strdup_printf(_("the SD clock is not %s MHz yet: reboot to use "
						   "the new setting"),
						 want);
	}
}

/* in effect: command queueing on (sd_cqe=2) or off (sd_cqe=0) */
static void
sdt_verify_status_cqe(const SdtVerifyStatusFacts *f, SdtVerifyStatus *s)
{
	SdtCqeState want = sdt_verify_change_expected_cqe(&f->change);

	if (want == SDT_CQE_ENABLED && f->log_cqe_recovery) {
		s->failed = TRUE;
		s->explanation = g_strdup(_("the kernel log shows “running CQE recovery”: "
					    "this card mishandles command queueing; revert"));
	} else if (want == SDT_CQE_ENABLED) {
		s->verified = f->observed_cqe == SDT_CQE_ENABLED;
		s->explanation = g_strdup(s->verified ? _("command queueing is on")
						      : _("command queueing is not on yet: reboot "
							  "to use the new setting"));
	} else if (want == SDT_CQE_OFF) {
		s->verified =
			f->observed_cqe != SDT_CQE_ENABLED && f->observed_cqe != SDT_CQE_UNKNOWN;
		s->explanation = g_strdup(s->verified ? _("command queueing is off")
						      : _("command queueing is still on: reboot "
							  "to use the new setting"));
	} else {
		s->explanation = g_strdup(_("SD Tuner cannot check this setting"));
	}
}

void
sdt_verify_status_decide(const SdtVerifyStatusFacts *f, SdtVerifyStatus *s)
{
	memset(s, 0, sizeof(*s));
	if (f->change.kind == SDT_VERIFY_CHANGE_OVERCLOCK)
		sdt_verify_status_clock(f, s);
	else
		sdt_verify_status_cqe(f, s);
	if (!f->for_this_board) {
		g_free(s->explanation);
		/* Translators: %s is a config.txt filter such as [board-type=0x08] */
		s->explanation = g_strdup_printf(_("the block is for the boards of %s, not for "
						   "this one"),
						 f->filter != NULL ? f->filter : "?");
		s->verified = FALSE;
		s->failed = TRUE;
		return;
	}
	/* restarted since the change and still not in effect: it did not work */
	if (!s->verified && !s->failed && f->boot_id_then != NULL && f->boot_id_now != NULL &&
	    g_ascii_strcasecmp(f->boot_id_then, f->boot_id_now) != 0) {
		g_autofree gchar *before = s->explanation;
		/* Translators: %s says what SD Tuner found, e.g. "the SD clock is not
		 * 100.0 MHz yet: reboot to use the new setting" */
		s->explanation = g_strdup_printf(_("the Pi has restarted since the change, but "
						   "it is not in effect (%s)"),
						 before);
		s->failed = TRUE;
	}
}
