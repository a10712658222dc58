/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-check-result.h"
#include <inttypes.h>

#include "sdt-cli-ops.h"
#include "sdt-cli-table.h"
#include "sdt-client-history.h"
#include "sdt-config-answer.h"
#include "sdt-status-report.h"
#include "sdt-error.h"
#include "sdt-l10n-record.h"
#include "sdt-l10n.h"
#include "sdt-ops.h"
#include "sdt-recommend-report.h"
#include "sdtunerctl-config.h"

static void
sdt_cli_config_print_wrapped(const gchar *label, const gchar *text)
{
	g_print("    %s %s\n", label, text);
}

static void
sdt_cli_recommend_print(const SdtRecommendReport *recs)
{
	if (recs->recommendations->len == 0)
		g_print("%s\n", _("Nothing to change in config.txt."));
	for (guint i = 0; i < recs->recommendations->len; i++) {
		const SdtRecommendReportItem *rec = g_ptr_array_index(recs->recommendations, i);
		g_print("%s  %s\n", rec->id, sdt_l10n_tr(rec->title));
		/* Translators: followed by config.txt lines */
		g_print(_("    adds under %s:\n"), rec->filter);
		for (guint j = 0; j < rec->lines->len; j++)
			g_print("      %s\n", (const gchar *) g_ptr_array_index(rec->lines, j));
		sdt_cli_config_print_wrapped(_("Why:"), sdt_l10n_tr(rec->reason));
		sdt_cli_config_print_wrapped(_("Effect:"), sdt_l10n_tr(rec->expected_effect));
		sdt_cli_config_print_wrapped(_("Risk:"), sdt_l10n_tr(rec->risk));
		/* Translators: %s is a recommendation id */
		g_print(_("    Apply with: sdtunerctl apply %s\n"), rec->id);
	}
	if (recs->notes->len > 0) {
		g_print("\n%s\n", _("Notes"));
		for (guint i = 0; i < recs->notes->len; i++)
			g_print("  - %s\n", sdt_l10n_tr(g_ptr_array_index(recs->notes, i)));
	}
}

gint
sdtunerctl_config_recommend(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autofree gchar *text = NULL;
	g_autoptr(SdtRecommendReport) recs = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	text = sdt_cli_ops_read_text(cli,
				     sdt_ops_config_recommend,
				     sdt_manager_call_get_recommendations_sync,
				     error);
	if (text == NULL)
		return SDT_CLI_EXIT_FAILED;
	recs = sdt_recommend_report_parse(text, error);
	if (recs == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_text(cli, text);
		return SDT_CLI_EXIT_OK;
	}
	sdt_cli_recommend_print(recs);
	return SDT_CLI_EXIT_OK;
}

/* the diff, the warnings (@warnings may be NULL) and the backup of an apply or a revert */
static void
sdt_cli_config_print_result(const gchar *diff, const gchar *backup, GPtrArray *warnings)
{
	if (diff != NULL)
		g_print("%s", diff);
	for (guint i = 0; warnings != NULL && i < warnings->len; i++)
		g_printerr(_("sdtunerctl: note: %s\n"),
			   sdt_l10n_tr(g_ptr_array_index(warnings, i)));
	if (backup != NULL)
		g_printerr(_("Backup of the previous file: %s\n"), backup);
}

gint
sdtunerctl_config_apply(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autofree gchar *text = NULL;
	g_autoptr(SdtConfigAnswerApply) res = NULL;
	gboolean trial = FALSE;
	gint rc;
	const GOptionEntry entries[] = {
		{"trial",
		 0,
		 0,
		 G_OPTION_ARG_NONE,
		 &trial,
		 N_("Write tryboot.txt for one trial boot instead of config.txt"),
		 NULL},
		{NULL},
	};

	if (!sdt_cli_parse(cli, entries, 1, 1, &argc, &argv, &rc, error)) {
		if (rc == SDT_CLI_EXIT_USAGE &&
		    g_error_matches(*error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE)) {
			g_clear_error(error);
			g_set_error_literal(
				error,
				G_OPTION_ERROR,
				G_OPTION_ERROR_BAD_VALUE,
				_("“apply” needs one recommendation id, e.g. "
				  "“sdtunerctl apply sd-overclock-100” (see “sdtunerctl "
				  "recommend”)"));
		}
		return rc;
	}
	text = sdt_cli_ops_apply(cli, argv[1], trial, error);
	if (text == NULL)
		return SDT_CLI_EXIT_FAILED;
	res = sdt_config_answer_apply_parse(text, error);
	if (res == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_text(cli, text);
		return SDT_CLI_EXIT_OK;
	}
	sdt_cli_config_print_result(res->diff, res->backup, res->warnings);
	if (res->trial) {
		/* Translators: %s is the tryboot.txt path, then the reboot command */
		g_printerr(_("Wrote %s. Boot it once with: %s\nIf the Pi does not come up, "
			     "switch it off and on: it boots the unchanged config.txt.\n"),
			   res->path,
			   res->reboot_command);
	} else if (!res->changed) {
		g_printerr("%s\n", _("Already applied: nothing changed."));
	} else if (res->reboot_required) {
		g_printerr("%s\n", _("Reboot to use the new setting."));
	}
	return SDT_CLI_EXIT_OK;
}

/* a revert that only cancelled a trial: tryboot.txt went, config.txt is as it was */
static gboolean
sdt_cli_revert_trial_only(const SdtConfigAnswerRevert *res)
{
	return res->trial_cancelled && (res->diff == NULL || *res->diff == '\0');
}

gint
sdtunerctl_config_revert(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autofree gchar *text = NULL;
	g_autoptr(SdtConfigAnswerRevert) res = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	text = sdt_cli_ops_revert(cli, error);
	if (text == NULL)
		return SDT_CLI_EXIT_FAILED;
	res = sdt_config_answer_revert_parse(text, error);
	if (res == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_text(cli, text);
		return SDT_CLI_EXIT_OK;
	}
	sdt_cli_config_print_result(res->diff, res->backup, res->warnings);
	if (sdt_cli_revert_trial_only(res))
		g_printerr("%s\n",
			   _("The trial is cancelled; config.txt was not changed by it, so "
			     "nothing changes at the next restart."));
	else
		g_printerr("%s\n", _("Reboot to go back to the previous setting."));
	return SDT_CLI_EXIT_OK;
}

/* what a verification decided, as one sentence per decision (the JSON's
 * "decision" stays English for scripts), with its reason in the user's language */
static gchar *
sdt_cli_verify_outcome(const SdtVerifyReport *v)
{
	const gchar *id = v->id != NULL ? v->id : "?";
	const gchar *reason = sdt_verify_report_reason(v);
	const gchar *done = v->action != NULL ? v->action->what : NULL;
	const gchar *failure =
		v->action != NULL && v->action->error != NULL ? sdt_l10n_tr(v->action->error) : "";

	/* a decision that could not be carried out is never told as done (issue 33) */
	if (g_strcmp0(done, "failed") == 0 && g_strcmp0(v->decision, "step-down") == 0)
		/* Translators: a recommendation id, then why the step-down failed with
		 * what to do (the decision's reason is left out: it says the next step
		 * was prepared, which it was not) */
		return g_strdup_printf(_("could not step %s down after verification (the kernel "
					 "log showed card errors at its clock): the setting is "
					 "still in place. %s"),
				       id,
				       failure);
	if (g_strcmp0(done, "failed") == 0 && g_strcmp0(v->decision, "undo") == 0)
		/* Translators: a recommendation id, why the undo failed with what to do,
		 * then the reason for undoing */
		return g_strdup_printf(_("could not undo %s after verification: the setting is "
					 "still in place. %s Why it was to be undone: %s"),
				       id,
				       failure,
				       reason);
	if (g_strcmp0(done, "failed") == 0)
		/* Translators: a recommendation id, the decision (keep, ...), why it
		 * failed with what to do, then the reason for the decision */
		return g_strdup_printf(_("could not carry out “%s” for %s after verification. "
					 "%s Why: %s"),
				       sdt_l10n_record_decision(v->decision),
				       id,
				       failure,
				       reason);
	if (g_strcmp0(v->decision, "keep") == 0)
		/* Translators: a recommendation id, then the reason */
		return g_strdup_printf(_("kept %s after verification. %s"), id, reason);
	if (g_strcmp0(v->decision, "step-down") == 0)
		/* Translators: a recommendation id, then the reason */
		return g_strdup_printf(_("stepped %s down after verification. %s"), id, reason);
	if (g_strcmp0(v->decision, "undo") == 0)
		/* Translators: a recommendation id, then the reason */
		return g_strdup_printf(_("undid %s after verification. %s"), id, reason);
	/* Translators: a recommendation id, then where its verification stands */
	return g_strdup_printf(_("verification of %s: %s"), id, reason);
}

/* SD Tuner's block in config.txt and where its verification stands */
static void
sdt_cli_status_print_change(const SdtStatusReport *s)
{
	/* Translators: recommendation id, then the config.txt path */
	g_print(_("SD Tuner's change %s is in %s:\n"), s->id, s->path);
	if (s->filter != NULL)
		g_print("  %s\n", s->filter);
	for (guint i = 0; i < s->lines->len; i++)
		g_print("  %s\n", (const gchar *) g_ptr_array_index(s->lines, i));
	for (guint i = 0; i < s->disabled->len; i++)
		g_print(_("  switched off: %s\n"),
			(const gchar *) g_ptr_array_index(s->disabled, i));
	if (s->verified)
		g_print(_("Verified: %s\n"), sdt_l10n_tr(s->verification));
	else if (s->failed)
		g_print(_("Problem: %s\n"), sdt_l10n_tr(s->verification));
	else
		g_print(_("Pending: %s\n"), sdt_l10n_tr(s->verification));
}

/* a verification that decided and did not finish what it decided (issue 23 item 2) */
static void
sdt_cli_status_print_decided(const SdtStatusReport *s)
{
	const SdtStatusReportPending *p = s->pending_verification;
	const gchar *reason = sdt_status_report_pending_reason(s);
	const gchar *id = p->id != NULL ? p->id : "?";

	if (g_strcmp0(p->decision, "undo") == 0)
		/* Translators: a recommendation id, then the reason */
		g_print(_("Undo needed: the verification of %s decided to undo it. %s\n"),
			id,
			reason);
	else
		/* Translators: a recommendation id, the decision (keep, step-down), the reason */
		g_print(_("The verification of %s decided “%s” and has not finished it. %s\n"),
			id,
			sdt_l10n_record_decision(p->decision),
			reason);
	if (p->error != NULL)
		/* Translators: why the action failed, with what to do */
		g_print(_("It could not be carried out: %s\n"), sdt_l10n_tr(p->error));
}

/* a trial boot, and the verification after a reboot */
static void
sdt_cli_status_print_trial(const SdtStatusReport *s)
{
	if (s->trial != NULL)
		/* Translators: recommendation id, tryboot.txt path, reboot command */
		g_print(_("A trial of %s is ready in %s: boot it once with %s\n"),
			s->trial->id,
			s->trial->path,
			s->trial->reboot_command);
	if (s->tryboot_active)
		g_print("%s\n", _("This boot is a tryboot trial."));
	if (s->state_error != NULL)
		/* Translators: why SD Tuner refuses its state folder, with what to do */
		g_print(_("SD Tuner cannot use its state folder, so it verifies, applies and "
			  "reverts nothing until it is fixed: %s\n"),
			sdt_l10n_tr(s->state_error));
	if (s->pending_verification_error != NULL)
		/* Translators: why the record cannot be read */
		g_print(_("SD Tuner's record of the pending change is damaged (%s): the next "
			  "verification undoes the change.\n"),
			sdt_l10n_tr(s->pending_verification_error));
	if (s->pending_verification != NULL && s->pending_verification->decision != NULL)
		sdt_cli_status_print_decided(s);
	else if (s->pending_verification != NULL)
		/* Translators: a recommendation id */
		g_print(_("%s will be verified after the next restart.\n"),
			s->pending_verification->id != NULL ? s->pending_verification->id : "?");
	if (s->last_verification != NULL) {
		g_autofree gchar *when = sdt_l10n_time(s->last_verification->time);
		g_autofree gchar *what = sdt_cli_verify_outcome(s->last_verification);
		/* Translators: the time of the last verification, then what it did
		 * and why */
		g_print(_("Last verification (%s): %s\n"), when, what);
	}
}

gint
sdtunerctl_config_status(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autofree gchar *text = NULL;
	g_autoptr(SdtStatusReport) s = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	text = sdt_cli_ops_read_text(cli, sdt_ops_status, sdt_manager_call_get_status_sync, error);
	if (text == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_text(cli, text);
		return SDT_CLI_EXIT_OK;
	}
	s = sdt_status_report_parse(text, error);
	if (s == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (s->error != NULL)
		g_print("%s\n", sdt_l10n_tr(s->error));
	else if (s->applied)
		sdt_cli_status_print_change(s);
	else
		g_print(_("SD Tuner has no change in %s.\n"), s->path);
	sdt_cli_status_print_trial(s);
	if (s->check_journal_damaged != NULL) {
		g_autofree gchar *words =
			sdt_check_result_damaged_journal_words(s->check_journal_damaged);
		g_print("%s\n", words);
	}
	return SDT_CLI_EXIT_OK;
}

/* one line of `history` for people */
static gchar *
sdt_cli_history_summary(const SdtClientHistoryEntry *e)
{
	const gchar *id = e->id != NULL ? e->id : "?";

	if (g_strcmp0(e->kind, "bench") == 0) {
		const gchar *profile = e->profile != NULL ? e->profile : "?";
		if (e->stand_in)
			/* Translators: benchmark profile, then the directory it used */
			return g_strdup_printf(
				_("benchmark (%s) of a stand-in, not the SD card: %s"),
				profile,
				e->target_path != NULL ? e->target_path : "?");
		/* Translators: benchmark profile: quick, standard or full */
		return g_strdup_printf(_("benchmark (%s)"), profile);
	}
	if (g_strcmp0(e->kind, "apply") == 0)
		return e->trial ? g_strdup_printf(_("trial of %s"), id)
				: g_strdup_printf(_("applied %s"), id);
	if (g_strcmp0(e->kind, "revert") == 0 && e->trial_cancelled && !e->changed)
		/* Translators: a history line; the trial was only in tryboot.txt */
		return g_strdup(_("cancelled a trial (config.txt unchanged)"));
	if (g_strcmp0(e->kind, "revert") == 0 && e->trial_cancelled)
		/* Translators: a recommendation id */
		return g_strdup_printf(_("reverted %s and cancelled a trial"), id);
	if (g_strcmp0(e->kind, "revert") == 0)
		return g_strdup_printf(_("reverted %s"), id);
	if (g_strcmp0(e->kind, "verify") == 0)
		return sdt_cli_verify_outcome(e->verification);
	if (g_strcmp0(e->kind, "check") == 0 && e->checked_device != NULL)
		/* Translators: a device (sdb), then the check's verdict (genuine, fake, ...) */
		return g_strdup_printf(_("authenticity check of the card in %s: %s"),
				       e->checked_device,
				       sdt_l10n_record_check_verdict(e->verdict));
	if (g_strcmp0(e->kind, "check") == 0)
		/* Translators: the check's verdict (genuine, fake, ...) */
		return g_strdup_printf(_("authenticity check: %s"),
				       sdt_l10n_record_check_verdict(e->verdict));
	if (g_strcmp0(e->kind, "soak") == 0 && e->soak_mismatches == 0)
		return g_strdup(_("soak test: every byte read back intact"));
	if (g_strcmp0(e->kind, "soak") == 0 && e->soak_mismatches > 0)
		return g_strdup_printf(ngettext("soak test: %" PRId64 " byte read back wrong",
						"soak test: %" PRId64 " bytes read back wrong",
						(gulong) MIN(e->soak_mismatches, G_MAXLONG)),
				       (int64_t) e->soak_mismatches);
	/* another version's kind, or a soak test without its result */
	return g_strdup(sdt_l10n_record_history_kind(e->kind));
}

/* one line per entry: the time, then what happened; the times aligned by display
 * width (a Japanese date's length varies with the day and is twice as wide) */
static void
sdt_cli_history_print(const SdtClientHistory *history)
{
	static const SdtCliTableAlign align[] = {SDT_CLI_TABLE_START, SDT_CLI_TABLE_START};
	static const glong width[] = {0, 0};
	g_autoptr(SdtCliTable) table = sdt_cli_table_new(2, align, width, "  ");
	g_autofree gchar *text = NULL;

	for (guint i = 0; i < history->entries->len; i++) {
		const SdtClientHistoryEntry *e = g_ptr_array_index(history->entries, i);
		g_autofree gchar *when = sdt_l10n_time(e->time != NULL ? e->time : "?");
		g_autofree gchar *summary = sdt_cli_history_summary(e);
		const gchar *row[] = {when, summary};

		if (e->error != NULL)
			g_debug("%s", e->error->message);
		sdt_cli_table_add(table, row);
	}
	text = sdt_cli_table_format(table);
	g_print("%s", text);
}

static gchar *
sdt_cli_history_figure(gdouble value, const gchar *unit)
{
	return g_strdup_printf(value >= 100 ? "%.0f %s" : "%.1f %s", value, unit);
}

/* one test of the card over time: how many runs, the first, the latest and the range */
static void
sdt_cli_history_print_test(const SdtClientSeriesTest *t)
{
	gdouble lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
	const SdtClientPoint *first = NULL, *last = NULL;
	guint n = 0;
	g_autofree gchar *first_s = NULL, *last_s = NULL, *lo_s = NULL, *hi_s = NULL;

	for (guint i = 0; i < t->points->len; i++) {
		const SdtClientPoint *p = g_ptr_array_index(t->points, i);
		if (!isfinite(p->value))
			continue;
		first = first != NULL ? first : p;
		last = p;
		lo = MIN(lo, p->value);
		hi = MAX(hi, p->value);
		n++;
	}
	if (n == 0)
		return;
	first_s = sdt_cli_history_figure(first->value, t->unit);
	last_s = sdt_cli_history_figure(last->value, t->unit);
	lo_s = sdt_cli_history_figure(lo, t->unit);
	hi_s = sdt_cli_history_figure(hi, t->unit);
	/* Translators: a benchmark test, the number of runs, then figures with their
	 * units: the first run's, the latest run's, the lowest and the highest */
	g_print(ngettext("  %1$s: %2$u run, first %3$s, latest %4$s (lowest %5$s, highest %6$s)\n",
			 "  %1$s: %2$u runs, first %3$s, latest %4$s (lowest %5$s, highest %6$s)\n",
			 n),
		sdt_l10n_bench_test(t->name),
		n,
		first_s,
		last_s,
		lo_s,
		hi_s);
}

/* the card in the slot's figures over time (the JSON's "series"), after the entries */
static void
sdt_cli_history_print_series(const SdtClientHistory *history)
{
	gboolean unidentified = FALSE;
	const SdtClientSeries *s = sdt_client_series_for_slot(history->series, &unidentified);

	if (s == NULL)
		return;
	g_print("\n");
	if (unidentified)
		g_print("%s\n",
			_("Benchmarks that did not record which card they measured, over time:"));
	else
		/* Translators: the card's product name, then its serial number */
		g_print(_("The card in the slot (%s, serial %s) over time:\n"),
			s->card_name != NULL ? s->card_name : "?",
			s->card_serial != NULL ? s->card_serial : "?");
	for (guint i = 0; i < s->tests->len; i++)
		sdt_cli_history_print_test(g_ptr_array_index(s->tests, i));
}

gint
sdtunerctl_config_history(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autofree gchar *text = NULL;
	g_autoptr(SdtClientHistory) history = NULL;
	gint rc;

	if (!sdt_cli_no_args(cli, argc, argv, &rc, error))
		return rc;
	text = sdt_cli_ops_read_text(cli,
				     sdt_ops_history,
				     sdt_manager_call_get_history_sync,
				     error);
	if (text == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_text(cli, text);
		return SDT_CLI_EXIT_OK;
	}
	history = sdt_history_report_parse(text, error);
	if (history == NULL)
		return SDT_CLI_EXIT_FAILED;
	for (guint i = 0; i < history->warnings->len; i++)
		g_printerr(_("sdtunerctl: note: %s\n"),
			   sdt_l10n_tr(g_ptr_array_index(history->warnings, i)));
	if (history->entries->len == 0)
		g_print("%s\n", _("No history yet."));
	else
		sdt_cli_history_print(history);
	sdt_cli_history_print_series(history);
	return SDT_CLI_EXIT_OK;
}
