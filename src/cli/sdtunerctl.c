/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "sdt-cli-ops.h"
#include "sdt-error.h"
#include "sdt-error-report.h"
#include "sdt-cli.h"
#include "sdt-l10n.h"
#include "sdt-utf8.h"
#include "sdtunerctl-bench.h"
#include "sdtunerctl-check.h"
#include "sdtunerctl-config.h"
#include "sdtunerctl-info.h"
#include "sdtunerctl-metrics.h"
#include "sdtunerctl-verify.h"
#include "sdtunerctl-devices.h"

static const SdtCliCommand commands[] = {
	/* filled in by each command's source file */
	{"bench",
	 "[--profile quick|standard|full|soak] [--dir DIR] [--json]",
	 "",
	 N_("Measure the SD card: sequential and 4k random I/O, A1/A2 verdict"),
	 sdtunerctl_bench},
	{"check",
	 "[--full] [--dir DIR] [--json]",
	 "",
	 N_("Check whether the SD card is as large as it claims (a fake)"),
	 sdtunerctl_check},
	{"health",
	 "",
	 "",
	 N_("Show how much was written to the card and what the kernel says about it"),
	 sdtunerctl_check_health},
	{"info", "", "", N_("Show the board, the SD card and how its bus runs"), sdtunerctl_info},
	{"metrics",
	 "[--output FILE]",
	 "",
	 N_("Print the card's state for Prometheus (reads only, never benchmarks)"),
	 sdtunerctl_metrics},
	{"recommend",
	 "",
	 "",
	 N_("Show the config.txt setting that would help"),
	 sdtunerctl_config_recommend},
	{"apply",
	 "ID [--trial]",
	 "ID",
	 N_("Write a recommendation into config.txt"),
	 sdtunerctl_config_apply},
	{"revert",
	 "",
	 "",
	 N_("Take SD Tuner's change out of config.txt"),
	 sdtunerctl_config_revert},
	{"status",
	 "",
	 "",
	 N_("Show SD Tuner's change and whether it works"),
	 sdtunerctl_config_status},
	{"history",
	 "",
	 "",
	 N_("List config changes and benchmark results"),
	 sdtunerctl_config_history},
	{"verify",
	 "[--evidence FILE]",
	 "",
	 N_("After a reboot: keep, step down or undo the pending change"),
	 sdtunerctl_verify},
	{"devices",
	 "",
	 "",
	 N_("List the cards in readers and other slots, and which can be checked"),
	 sdtunerctl_devices},
	{NULL, NULL, NULL, NULL, NULL},
};

static const SdtCliCommand *
sdt_cli_find_command(const gchar *name)
{
	for (guint i = 0; commands[i].name != NULL; i++) {
		if (g_strcmp0(commands[i].name, name) == 0)
			return &commands[i];
	}
	return NULL;
}

static void
sdt_cli_print_error(SdtCli *cli, const GError *error_in)
{
	g_autoptr(GError) error = g_error_copy(error_in);

	sdt_utf8_sanitize_error(error);
	g_printerr("sdtunerctl: %s\n", cli->json ? error->message : sdt_l10n_tr(error->message));
	if (cli->json) {
		g_autofree gchar *remote = g_dbus_error_get_remote_error(error);
		const gchar *name = error->domain == SDT_ERROR ? sdt_error_to_dbus_name(error->code)
				    : remote != NULL           ? remote
							       : g_quark_to_string(error->domain);
		g_autoptr(SdtErrorReport) report =
			sdt_error_report_new(name, error->code, error->message);
		g_autofree gchar *text = sdt_error_report_to_string(report);

		sdt_cli_print_text(cli, text);
	}
}

static gchar *
sdt_cli_summary(void)
{
	GString *str = g_string_new(_("Commands:"));
	for (guint i = 0; commands[i].name != NULL; i++) {
		g_autofree gchar *left = g_strdup_printf("%s%s%s",
							 commands[i].name,
							 commands[i].args[0] != '\0' ? " " : "",
							 commands[i].args);
		/* a long synopsis gets its description on the next line, aligned */
		if (g_utf8_strlen(left, -1) > 22)
			g_string_append_printf(str,
					       "\n  %s\n  %-22s %s",
					       left,
					       "",
					       _(commands[i].description));
		else
			g_string_append_printf(str,
					       "\n  %-22s %s",
					       left,
					       _(commands[i].description));
	}
	g_string_append_printf(str, "\n  %-22s %s", "help [COMMAND]", _("Show a command's usage"));
	return g_string_free(str, FALSE);
}

static void
sdt_cli_clear(SdtCli *cli)
{
	sdt_cli_ops_shutdown(cli);
	g_clear_object(&cli->ctx);
	g_clear_pointer(&cli->root, g_free);
	g_clear_pointer(&cli->argv, g_strfreev);
}

/* `sdtunerctl help [COMMAND]` */
static gint
sdt_cli_help(SdtCli *cli, GOptionContext *context, gint argc, gchar **argv, GError **error)
{
	const SdtCliCommand *command;
	gchar *help_argv[] = {NULL, (gchar *) "--help", NULL};

	if (argc < 3) {
		g_autofree gchar *text = g_option_context_get_help(context, TRUE, NULL);
		g_print("%s", text);
		return SDT_CLI_EXIT_OK;
	}
	command = sdt_cli_find_command(argv[2]);
	if (command == NULL || argc > 3) {
		g_set_error(
			error,
			G_OPTION_ERROR,
			G_OPTION_ERROR_BAD_VALUE,
			_("“help” takes one command name, e.g. “sdtunerctl help apply” (got “%s”)"),
			argv[argc > 3 ? 3 : 2]);
		return SDT_CLI_EXIT_USAGE;
	}
	help_argv[0] = (gchar *) command->name;
	cli->command = command;
	return command->func(cli, 2, help_argv, error);
}

static void
sdt_cli_init_locale(void)
{
	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE,
		       g_getenv("SDTUNER_LOCALEDIR") != NULL ? g_getenv("SDTUNER_LOCALEDIR")
							     : LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);
	sdt_cli_set_print_handlers();
}

static GOptionContext *
sdt_cli_main_context(const GOptionEntry *entries, const gchar *summary)
{
	GOptionContext *context =
		g_option_context_new(_("COMMAND [ARGS…] - tune the SD card of a Raspberry Pi"));

	g_option_context_set_summary(context, summary);
	g_option_context_set_description(
		context,
		_("“sdtunerctl COMMAND --help” or “sdtunerctl help COMMAND” shows a command's "
		  "own options."));
	g_option_context_add_main_entries(context, entries, GETTEXT_PACKAGE);
	g_option_context_set_strict_posix(context, TRUE);
	g_option_context_set_translation_domain(context, GETTEXT_PACKAGE);
	return context;
}

/* --json anywhere, and $SDTUNER_ROOT when --root is not given */
static void
sdt_cli_settle_mode(SdtCli *cli, gint argc, gchar **argv)
{
	/* JSON is for programs: English text and C numbers, in-process (--root) too */
	for (gint i = 1; i < argc && !cli->json; i++)
		cli->json = g_strcmp0(argv[i], "--json") == 0 || g_strcmp0(argv[i], "-j") == 0;
	if (cli->json)
		sdt_l10n_use_c_locale_for_output();
	if (cli->root == NULL && g_getenv("SDTUNER_ROOT") != NULL && g_getenv("SDTUNER_ROOT")[0])
		cli->root = g_strdup(g_getenv("SDTUNER_ROOT"));
}

/* prints a command's error, with a hint after bad usage; returns the exit status */
static gint
sdt_cli_report(SdtCli *cli, const gchar *name, gint rc, const GError *error)
{
	if (error == NULL)
		return rc;
	sdt_cli_print_error(cli, error);
	if (rc == SDT_CLI_EXIT_OK)
		rc = SDT_CLI_EXIT_FAILED;
	if (rc == SDT_CLI_EXIT_USAGE && error->domain == G_OPTION_ERROR &&
	    g_strcmp0(name, "help") == 0)
		g_printerr(_("Try “sdtunerctl --help”.\n"));
	else if (rc == SDT_CLI_EXIT_USAGE && error->domain == G_OPTION_ERROR)
		g_printerr(_("Try “sdtunerctl %s --help”.\n"), name);
	return rc;
}

/* runs argv[1]: `help`, or a command of the table */
static gint
sdt_cli_dispatch(SdtCli *cli,
		 GOptionContext *context,
		 const gchar *summary,
		 gint argc,
		 gchar **argv)
{
	g_autoptr(GError) error = NULL;
	gint rc;

	if (g_strcmp0(argv[1], "help") == 0) {
		rc = sdt_cli_help(cli, context, argc, argv, &error);
	} else if ((cli->command = sdt_cli_find_command(argv[1])) != NULL) {
		/* a copy: the command's option parser rearranges argv */
		cli->argv = g_strdupv(argv + 1);
		rc = cli->command->func(cli, argc - 1, argv + 1, &error);
	} else {
		g_printerr(_("sdtunerctl: unknown command “%s”\n"), argv[1]);
		g_printerr("%s\n", summary);
		return SDT_CLI_EXIT_USAGE;
	}
	return sdt_cli_report(cli, argv[1], rc, error);
}

int
main(int argc, char *argv[])
{
	SdtCli cli = {NULL};
	g_autoptr(GOptionContext) context = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *summary = NULL;
	gboolean version = FALSE;
	gint rc;
	const GOptionEntry entries[] = {
		{"root",
		 'r',
		 0,
		 G_OPTION_ARG_FILENAME,
		 &cli.root,
		 N_("Read everything under DIR instead of this machine (no helper, no polkit)"),
		 N_("DIR")},
		{"json", 'j', 0, G_OPTION_ARG_NONE, &cli.json, N_("Print JSON"), NULL},
		{"version", 0, 0, G_OPTION_ARG_NONE, &version, N_("Print the version"), NULL},
		{NULL},
	};

	sdt_cli_init_locale();
	summary = sdt_cli_summary();
	context = sdt_cli_main_context(entries, summary);
	if (!g_option_context_parse(context, &argc, &argv, &error)) {
		g_printerr("sdtunerctl: %s\n", error->message);
		g_printerr(_("Try “sdtunerctl --help”.\n"));
		return SDT_CLI_EXIT_USAGE;
	}
	if (version) {
		g_print("sdtunerctl %s\n", PACKAGE_VERSION);
		return SDT_CLI_EXIT_OK;
	}
	if (argc < 2) {
		g_printerr(_("sdtunerctl: no command given\n"));
		g_printerr("%s\n", summary);
		return SDT_CLI_EXIT_USAGE;
	}
	sdt_cli_settle_mode(&cli, argc, argv);
	rc = sdt_cli_dispatch(&cli, context, summary, argc, argv);
	sdt_cli_clear(&cli);
	return rc;
}
