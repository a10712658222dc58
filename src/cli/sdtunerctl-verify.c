/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <unistd.h>

#include "sdt-cli-ops.h"
#include "sdt-error.h"
#include "sdt-verify-report.h"
#include "sdt-l10n.h"
#include "sdt-ops.h"
#include "sdtunerctl-verify.h"

typedef struct {
	SdtCli *cli;
	SdtOpsVerifyOptions options;
} SdtCliVerify;

/* the stages on stderr: on a terminal one line kept up to date, else (the boot
 * service's journal) a line per stage */
typedef struct {
	gint stage; /* the last one printed, -1 for none */
	guint percent;
	gboolean tty;
} SdtCliVerifyProgress;

static void
sdt_cli_verify_progress_cb(SdtOpsVerifyStage stage, gdouble fraction, gpointer user_data)
{
	SdtCliVerifyProgress *p = user_data;
	guint percent = (guint) (CLAMP(fraction, 0.0, 1.0) * 100 + 0.5);
	g_autofree gchar *line = NULL;
	gpointer before;

	if ((gint) stage == p->stage && (!p->tty || percent == p->percent))
		return;
	/* the library runs in English (sdt_cli_verify_work); this line is for people */
	before = sdt_l10n_user_begin();
	line = sdt_ops_verify_stage_describe(stage, fraction);
	sdt_l10n_english_end(before);
	if (p->tty) {
		/* covers the previous line: 60 terminal columns, not 60 bytes */
		g_autofree gchar *padded = sdt_l10n_pad(line, 60);
		g_printerr("\r%s", padded);
	} else {
		g_printerr("%s\n", line);
	}
	p->stage = (gint) stage;
	p->percent = percent;
}

static gchar *
sdt_cli_verify_work(gpointer data, GCancellable *cancellable, GError **error)
{
	SdtCliVerify *self = data;
	gchar *text;
	gpointer before;

	/* a user: the helper's StartVerify job, behind polkit (issue 32) */
	if (self->cli->ctx == NULL)
		return sdt_cli_ops_verify(self->cli,
					  self->options.soak_seconds,
					  self->options.progress,
					  self->options.progress_data,
					  cancellable,
					  error);
	before = sdt_l10n_english_begin();
	/* what the decision stores (history, pending.json) is the same in every locale:
	 * English with its reason's code and arguments, shown in the reader's language */
	text = sdt_ops_verify(self->cli->ctx, &self->options, cancellable, error);
	sdt_l10n_english_end(before);
	/* one path for both: the codec's text, as the bus job's answer is printed */
	return text;
}

/* --evidence only in-process (--root); --soak-seconds within a day.  Without
 * --root, verify is the helper's job, which asks polkit (modify-boot-config) */
static gint
sdt_cli_verify_check_options(SdtCli *cli,
			     const gchar *evidence,
			     gdouble soak_seconds,
			     GError **error)
{
	if (cli->ctx == NULL && evidence != NULL) {
		g_set_error_literal(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    _("verify: --evidence is accepted only with --root"));
		return SDT_CLI_EXIT_USAGE;
	}
	if (soak_seconds != -1 && !(soak_seconds >= 0 && soak_seconds <= 24 * 3600)) {
		g_set_error_literal(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    _("verify: --soak-seconds must be from 0 to 86400"));
		return SDT_CLI_EXIT_USAGE;
	}
	return SDT_CLI_EXIT_OK;
}

/* what the decision was, for people */
static void
sdt_cli_verify_print(const SdtVerifyReport *r)
{
	const gchar *decision = r->decision;
	/* a damaged record names no change (an undo of "record-damaged") */
	const gchar *id = r->id;
	const gchar *next_id = r->next_id;

	if (decision == NULL) {
		/* nothing decided: the reason says why */
	} else if (g_strcmp0(decision, "undo") == 0 && id == NULL) {
		g_print(_("Undid the pending change.\n"));
	} else if (id == NULL) {
		/* no change to name: the reason alone says what happened */
	} else if (g_strcmp0(decision, "keep") == 0) {
		/* Translators: a recommendation id */
		g_print(_("Kept %s.\n"), id);
	} else if (g_strcmp0(decision, "step-down") == 0 && next_id != NULL) {
		/* Translators: two recommendation ids */
		g_print(_("Stepped down from %s to %s.\n"), id, next_id);
	} else if (g_strcmp0(decision, "undo") == 0) {
		/* Translators: a recommendation id */
		g_print(_("Undid %s.\n"), id);
	} else if (g_strcmp0(decision, "wait") == 0) {
		/* Translators: a recommendation id */
		g_print(_("%s is waiting for a restart.\n"), id);
	}
	g_print("%s\n", sdt_verify_report_reason(r));
	/* what the action met (hand edits of tryboot.txt, a history entry lost) */
	for (guint i = 0; r->action != NULL && i < r->action->warnings->len; i++)
		g_printerr(_("sdtunerctl: note: %s\n"),
			   sdt_l10n_tr(g_ptr_array_index(r->action->warnings, i)));
}

gint
sdtunerctl_verify(SdtCli *cli, gint argc, gchar **argv, GError **error)
{
	g_autofree gchar *text = NULL;
	g_autoptr(SdtVerifyReport) report = NULL;
	g_autofree gchar *evidence = NULL;
	gdouble soak_seconds = -1;
	SdtOpsVerifyOptions options = {0};
	SdtCliVerify verify;
	SdtCliVerifyProgress progress = {-1, 0, isatty(STDERR_FILENO)};
	gint rc;
	const GOptionEntry entries[] = {
		{"evidence",
		 0,
		 0,
		 G_OPTION_ARG_FILENAME,
		 &evidence,
		 N_("Take the soak and benchmark results from FILE (only with --root, for "
		    "tests)"),
		 N_("FILE")},
		{"soak-seconds",
		 0,
		 0,
		 G_OPTION_ARG_DOUBLE,
		 &soak_seconds,
		 N_("Run the soak test for SECONDS instead of 120 (for tests; the service "
		    "uses the default)"),
		 N_("SECONDS")},
		{NULL},
	};

	if (!sdt_cli_parse(cli, entries, 0, 0, &argc, &argv, &rc, error))
		return rc;
	rc = sdt_cli_verify_check_options(cli, evidence, soak_seconds, error);
	if (rc != SDT_CLI_EXIT_OK)
		return rc;
	options.evidence_path = evidence;
	options.soak_seconds = soak_seconds;
	/* tests only (the service does not set it): a shorter time bound, in seconds */
	if (g_getenv("SDTUNER_VERIFY_MAX_SECONDS") != NULL)
		options.max_seconds = g_ascii_strtod(g_getenv("SDTUNER_VERIFY_MAX_SECONDS"), NULL);
	options.progress = sdt_cli_verify_progress_cb;
	options.progress_data = &progress;
	/* in a worker thread, so that SIGTERM (systemd stopping the unit) and SIGINT cancel it */
	verify.cli = cli;
	verify.options = options;
	text = sdt_cli_run_in_thread(sdt_cli_verify_work, NULL, &verify, error);
	if (progress.tty && progress.stage >= 0)
		g_printerr("\n");
	if (text == NULL)
		return SDT_CLI_EXIT_FAILED;
	if (cli->json) {
		sdt_cli_print_text(cli, text);
		return SDT_CLI_EXIT_OK;
	}
	report = sdt_verify_report_parse(text, error);
	if (report == NULL)
		return SDT_CLI_EXIT_FAILED;
	sdt_cli_verify_print(report);
	return SDT_CLI_EXIT_OK;
}
