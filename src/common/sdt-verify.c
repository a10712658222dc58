/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sdt-l10n.h"
#include "sdt-recommend.h"
#include "sdt-verify.h"

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
	g_free(result->reason);
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
	return g_strdup_printf("%.1f", (gdouble) hz / 1e6);
}

static SdtVerifyResult *
sdt_verify_result_new(SdtVerifyDecision decision, gchar *reason)
{
	SdtVerifyResult *r = g_new0(SdtVerifyResult, 1);
	r->decision = decision;
	r->reason = reason;
	r->improved = g_ptr_array_new_with_free_func(g_free);
	r->worse = g_ptr_array_new_with_free_func(g_free);
	return r;
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

/* one finding more in a list of them, joined the way the user's language joins a list */
static void
sdt_verify_list_add(GString *list, gchar *item)
{
	if (list->len > 0)
		/* Translators: what goes between the items of a list (“reducing overclock
		 * due to errors”, 3 time-outs); the app and sdtunerctl split the helper's
		 * English list at ", " and join the translated items with this */
		g_string_append(list, C_("list separator", ", "));
	g_string_append(list, item);
	g_free(item);
}

static gchar *
sdt_verify_log_summary(const SdtVerifyLog *log)
{
	GString *list = g_string_new(NULL);

	/* Translators: the next three are messages of the kernel log, quoted: the
	 * log itself stays English, so keep the English words recognisable */
	if (log->overclock_reduced > 0)
		sdt_verify_list_add(list, g_strdup(_("“reducing overclock due to errors”")));
	if (log->overclock_cancelled > 0)
		sdt_verify_list_add(list, g_strdup(_("“cancelling overclock”")));
	if (log->cqe_recovery > 0)
		sdt_verify_list_add(list, g_strdup(_("“running CQE recovery”")));
	if (log->timeouts > 0)
		sdt_verify_list_add(list,
				    g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
								"%u time-out",
								"%u time-outs",
								log->timeouts),
						    log->timeouts));
	if (log->io_errors > 0)
		sdt_verify_list_add(list,
				    g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
								"%u I/O error",
								"%u I/O errors",
								log->io_errors),
						    log->io_errors));
	return g_string_free(list, FALSE);
}

/* errors at an overclock: the next step while there is one, else undo */
static SdtVerifyResult *
sdt_verify_errors(const SdtVerifyFacts *facts, const gchar *what)
{
	guint mhz = facts->change.overclock_mhz;
	guint next = facts->step < SDT_VERIFY_MAX_STEPS
			     ? sdt_verify_next_step_mhz(facts->core_clock_hz, mhz)
			     : 0;
	SdtVerifyResult *r;

	if (next > 0) {
		g_autofree gchar *next_hz = sdt_verify_mhz_string(
			sdt_recommend_sdhost_clock_hz(facts->core_clock_hz, next));
		r = sdt_verify_result_new(SDT_VERIFY_STEP_DOWN, NULL);
		r->next_id = g_strdup_printf("sd-overclock-%u", next);
		/* Translators: the first %s is what the kernel log showed, e.g. “reducing
		 * overclock due to errors”; then the id to try next and its clock in MHz */
		r->reason = g_strdup_printf(_("The kernel log shows %s at this clock, so SD Tuner "
					      "prepared the next slower step, %s (%s MHz): restart "
					      "the Pi to try it."),
					    what,
					    r->next_id,
					    next_hz);
		return r;
	}
	return sdt_verify_result_new(
		SDT_VERIFY_UNDO,
		g_strdup_printf(_("The kernel log shows %s even at the lowest step SD "
				  "Tuner tries, so the change was undone."),
				what));
}

/* the decision, step by step: each returns the result when it decides, else NULL */

/* 1. not restarted yet: nothing to decide */
static SdtVerifyResult *
sdt_verify_check_boot(const SdtVerifyFacts *facts)
{
	if (facts->boot_id_then != NULL && facts->boot_id_now != NULL &&
	    g_ascii_strcasecmp(facts->boot_id_then, facts->boot_id_now) == 0)
		return sdt_verify_result_new(
			SDT_VERIFY_WAIT,
			g_strdup(_("The Pi has not restarted since the change: restart it "
				   "to verify the change.")));
	if (facts->boot_id_now == NULL)
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup(_("Verification could not run: the boot id of this system "
				   "cannot be read, so SD Tuner cannot tell whether the Pi "
				   "restarted; the change was undone.")));
	return NULL;
}

/* 2. a crash, a power loss or a reboot loop during verification */
static SdtVerifyResult *
sdt_verify_check_tries(const SdtVerifyFacts *facts)
{
	SdtVerifyResult *r;

	if (facts->attempts < SDT_VERIFY_MAX_TRIES)
		return NULL;
	r = sdt_verify_result_new(
		SDT_VERIFY_UNDO,
		g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
					    "Verification was interrupted %u time "
					    "(a crash, a power loss or a reboot loop), so "
					    "the change was undone and SD Tuner stops trying.",
					    "Verification was interrupted %u times "
					    "(a crash, a power loss or a reboot loop), so "
					    "the change was undone and SD Tuner stops trying.",
					    facts->attempts),
				facts->attempts));
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
			/* Translators: a recommendation id */
			g_strdup_printf(_("SD Tuner's record says %s is pending, but its block is "
					  "not in the file it was written to (a crash before it "
					  "was written, or removed by hand): nothing of it is left "
					  "to verify, so SD Tuner took back what remained and "
					  "stops verifying."),
					facts->id));
	else
		r = sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			/* Translators: two recommendation ids */
			g_strdup_printf(_("SD Tuner's record says %s is pending, but its block in "
					  "the file is %s: the state is inconsistent, so SD Tuner "
					  "took its change out instead of stepping the clock "
					  "anywhere, and stops verifying."),
					facts->id,
					facts->block_id));
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
	r = sdt_verify_result_new(
		SDT_VERIFY_UNDO,
		g_strdup(_("config.txt was edited by hand while SD Tuner's change was "
			   "pending, so SD Tuner cannot vouch for what this boot ran: "
			   "it took out only its own lines and left every edit that is "
			   "not its own.")));
	r->foreign_change = TRUE;
	return r;
}

/* 4. a trial that did not boot: the firmware fell back to config.txt */
static SdtVerifyResult *
sdt_verify_check_trial_booted(const SdtVerifyFacts *facts)
{
	if (!facts->trial || facts->tryboot_active)
		return NULL;
	return sdt_verify_result_new(
		SDT_VERIFY_UNDO,
		g_strdup(_("This boot did not use the trial: the trial boot failed "
			   "and the firmware started the old config.txt, or the Pi was "
			   "restarted without “reboot '0 tryboot'”. The trial was "
			   "cancelled.")));
}

/* 5. the data: any mismatch is the end, whatever else is true */
static SdtVerifyResult *
sdt_verify_check_soak_data(const SdtVerifyFacts *facts)
{
	if (!facts->soak.ran || facts->soak.mismatches == 0)
		return NULL;
	return sdt_verify_result_new(
		SDT_VERIFY_UNDO,
		/* Translators: a count of bytes, then a byte offset */
		g_strdup_printf(
			g_dngettext(GETTEXT_PACKAGE,
				    "The soak test read back wrong data: %" PRIu64
				    " byte differed, the first at byte offset %" PRId64
				    " of the test file. The card does not store data "
				    "correctly with this setting; the change was undone.",
				    "The soak test read back wrong data: %" PRIu64
				    " bytes differed, the first at byte offset %" PRId64
				    " of the test file. The card does not store data "
				    "correctly with this setting; the change was undone.",
				    sdt_l10n_plural_count((gdouble) facts->soak.mismatches)),
			(uint64_t) facts->soak.mismatches,
			(int64_t) facts->soak.first_bad_offset));
}

/* 6. errors in the kernel log since boot: a step down at an overclock, else undo */
static SdtVerifyResult *
sdt_verify_check_log(const SdtVerifyFacts *facts)
{
	g_autofree gchar *what = NULL;

	if (facts->log == NULL || sdt_verify_log_errors(facts->log) == 0)
		return NULL;
	what = sdt_verify_log_summary(facts->log);
	if (facts->change.kind == SDT_VERIFY_CHANGE_OVERCLOCK && facts->log->cqe_recovery == 0)
		return sdt_verify_errors(facts, what);
	return sdt_verify_result_new(SDT_VERIFY_UNDO,
				     g_strdup_printf(_("The kernel log shows %s with this "
						       "setting, so the change was undone."),
						     what));
}

/* 7a. took effect: the SD clock is the one the overclock gives */
static SdtVerifyResult *
sdt_verify_check_clock(const SdtVerifyFacts *facts)
{
	g_autofree gchar *want = NULL;
	g_autofree gchar *seen = NULL;

	if (facts->expected_clock_hz == 0 || facts->observed_clock_hz == 0)
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup(_("Verification could not run: the SD clock cannot be "
				   "read (no debugfs “ios” and no “overclocking to” line), "
				   "so the change was undone.")));
	if (facts->observed_clock_hz + 1000 >= facts->expected_clock_hz &&
	    facts->observed_clock_hz <= facts->expected_clock_hz + 1000)
		return NULL;
	want = sdt_verify_mhz_string(facts->expected_clock_hz);
	seen = sdt_verify_mhz_string(facts->observed_clock_hz);
	/* Translators: clocks in MHz */
	return sdt_verify_result_new(SDT_VERIFY_UNDO,
				     g_strdup_printf(_("The change did not take effect: the SD "
						       "clock is %s MHz, not the expected %s MHz; "
						       "the change was undone."),
						     seen,
						     want));
}

/* 7b. took effect: the queueing state is the one asked for; one sentence per state */
static SdtVerifyResult *
sdt_verify_check_cqe(const SdtVerifyFacts *facts)
{
	const gchar *reason;

	if (facts->expected_cqe == SDT_CQE_UNKNOWN)
		reason = _("SD Tuner cannot verify this setting, so the change was undone.");
	else if (facts->observed_cqe == facts->expected_cqe)
		return NULL;
	/* the host's software queue is no command queueing on the card: off, as status says */
	else if (facts->expected_cqe == SDT_CQE_OFF &&
		 facts->observed_cqe == SDT_CQE_HOST_SOFTWARE_QUEUE)
		return NULL;
	else if (facts->observed_cqe == SDT_CQE_ENABLED)
		reason = _("The change did not take effect: command queueing is still on; the "
			   "change was undone.");
	else if (facts->observed_cqe == SDT_CQE_OFF)
		reason = _("The change did not take effect: command queueing is off; the change "
			   "was undone.");
	else if (facts->observed_cqe == SDT_CQE_HOST_SOFTWARE_QUEUE)
		reason = _("The change did not take effect: the card runs with the host's "
			   "software queue, not as asked; the change was undone.");
	else
		reason = _("The change did not take effect: the kernel log does not show whether "
			   "command queueing is on or off; the change was undone.");
	return sdt_verify_result_new(SDT_VERIFY_UNDO, g_strdup(reason));
}

/* 7. took effect */
static SdtVerifyResult *
sdt_verify_check_effect(const SdtVerifyFacts *facts)
{
	if (facts->change.kind == SDT_VERIFY_CHANGE_OVERCLOCK)
		return sdt_verify_check_clock(facts);
	if (facts->change.kind == SDT_VERIFY_CHANGE_CQE)
		return sdt_verify_check_cqe(facts);
	return sdt_verify_result_new(SDT_VERIFY_UNDO,
				     g_strdup(_("SD Tuner cannot verify this setting, so "
						"the change was undone.")));
}

/* 8. the evidence: a "before" to compare with, and a soak test that checked every byte */
static SdtVerifyResult *
sdt_verify_check_evidence(const SdtVerifyFacts *facts)
{
	/* a safety change is not there to be faster: it needs no "before" */
	if (facts->no_before && !sdt_verify_change_is_safety(&facts->change))
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup(_("Verification could not run: there is no benchmark of the SD "
				   "card from before the change, so SD Tuner cannot show that it "
				   "helped; the change was undone.")));
	if (facts->evidence_error != NULL)
		/* Translators: %s is why the soak test or the benchmark failed */
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup_printf(_("Verification could not run: %s; the change was undone."),
					facts->evidence_error));
	if (!facts->soak.ran || facts->soak.bytes_written == 0 ||
	    facts->soak.bytes_checked < facts->soak.bytes_written)
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup(_("Verification could not run: the soak test did not "
				   "check the data it wrote, so SD Tuner cannot show that the "
				   "card stores data correctly; the change was undone.")));
	return NULL;
}

/* the figure texts of @list joined by "; " */
static gchar *
sdt_verify_join(GPtrArray *list)
{
	gchar *text;
	g_ptr_array_add(list, NULL);
	text = g_strjoinv("; ", (gchar **) list->pdata);
	g_ptr_array_remove_index(list, list->len - 1);
	return text;
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
	SdtVerifyResult *r = sdt_verify_result_new(SDT_VERIFY_KEEP, NULL);
	g_autofree gchar *list = NULL;

	sdt_verify_compare_figures(facts, r);
	if (sdt_verify_change_is_safety(&facts->change)) {
		r->reason = g_strdup(_("Command queueing is off, the kernel log shows no "
				       "errors and the soak test checked every byte: the "
				       "change makes the card safer, not faster, so it was "
				       "kept whatever the benchmark says."));
		return r;
	}
	if (r->worse->len > 0) {
		list = sdt_verify_join(r->worse);
		r->decision = SDT_VERIFY_UNDO;
		r->reason = g_strdup_printf(_("A figure got worse by more than its spread "
					      "(%s), so the change was undone."),
					    list);
		return r;
	}
	if (r->improved->len == 0) {
		r->decision = SDT_VERIFY_UNDO;
		r->reason = facts->n_figures == 0
				    ? g_strdup(_("Verification could not run: there is no "
						 "benchmark from before and after the change, so "
						 "SD Tuner cannot show that it helped; the change "
						 "was undone."))
				    : g_strdup(_("No figure improved by more than the combined "
						 "spread of the runs before and after, so the "
						 "change was undone."));
		return r;
	}
	list = sdt_verify_join(r->improved);
	r->reason = g_strdup_printf(_("The change works: no errors, the soak test "
				      "checked every byte, and it is faster (%s). It "
				      "was kept."),
				    list);
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
