/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <stdio.h>
#include <unistd.h>

#include "sdt-cli-ops.h"
#include "sdt-error.h"
#include "sdt-json.h"
#include "sdt-utf8.h"
#include "sdt-l10n.h"
#include "sdtunerctl.h"
#include "sdtunerctl-bench.h"
#include "sdtunerctl-check.h"
#include "sdtunerctl-config.h"
#include "sdtunerctl-info.h"
#include "sdtunerctl-verify.h"

typedef struct {
	const gchar *name;
	const gchar *args;       /* the synopsis in the command list */
	const gchar *parameters; /* the positional arguments, for its usage line */
	const gchar *description;
	SdtCliCommandFunc func;
} SdtCliCommand;

static const SdtCliCommand commands[] = {
	/* filled in by each command's source file */
	{"bench",
	 "[--profile quick|standard|full|soak] [--dir DIR] [--json]",
	 "",
	 N_("Measure the SD card: sequential and 4k random I/O, A1/A2 verdict"),
	 sdt_cli_bench},
	{"check",
	 "[--full] [--dir DIR] [--json]",
	 "",
	 N_("Check whether the SD card is as large as it claims (a fake)"),
	 sdt_cli_check},
	{"health",
	 "",
	 "",
	 N_("Show how much was written to the card and what the kernel says about it"),
	 sdt_cli_health},
	{"info", "", "", N_("Show the board, the SD card and how its bus runs"), sdt_cli_info},
	{"recommend", "", "", N_("Show the config.txt setting that would help"), sdt_cli_recommend},
	{"apply",
	 "ID [--trial]",
	 "ID",
	 N_("Write a recommendation into config.txt"),
	 sdt_cli_apply},
	{"revert", "", "", N_("Take SD Tuner's change out of config.txt"), sdt_cli_revert},
	{"status", "", "", N_("Show SD Tuner's change and whether it works"), sdt_cli_status},
	{"history", "", "", N_("List config changes and benchmark results"), sdt_cli_history},
	{"verify",
	 "[--evidence FILE]",
	 "",
	 N_("After a reboot: keep, step down or undo the pending change"),
	 sdt_cli_verify},
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

gboolean
sdt_cli_is_tty(void)
{
	return isatty(STDOUT_FILENO);
}

/*
 * Text for people in a locale whose charset is not UTF-8 (the C locale of
 * cron, services and some ssh sessions): GLib would print “ ” × as '?', so
 * the punctuation SD Tuner uses becomes its ASCII equivalent first.
 */
static const gchar *const sdt_cli_ascii[][2] = {
	{"\u201c", "\""}, {"\u201d", "\""},  {"\u201e", "\""}, {"\u2018", "'"},   {"\u2019", "'"},
	{"\u00d7", "x"},  {"\u2026", "..."}, {"\u00b5", "u"},  {"\u03bc", "u"},   {"\u2014", "-"},
	{"\u2013", "-"},  {"\u2212", "-"},   {"\u2192", "->"}, {"\u2265", ">="},  {"\u2264", "<="},
	{"\u00b7", "-"},  {"\u00a0", " "},   {"\u00a7", "S"},  {"\u00b1", "+/-"},
};

static gchar *
sdt_cli_text_for_locale(const gchar *text, const gchar *charset)
{
	g_autoptr(GString) ascii = NULL;
	gchar *local;

	if (charset == NULL)
		g_get_charset(&charset);
	if (g_ascii_strcasecmp(charset, "UTF-8") == 0 || g_ascii_strcasecmp(charset, "utf8") == 0)
		return g_strdup(text);
	ascii = g_string_new(text);
	for (guint i = 0; i < G_N_ELEMENTS(sdt_cli_ascii); i++)
		g_string_replace(ascii, sdt_cli_ascii[i][0], sdt_cli_ascii[i][1], 0);
	/* anything else the charset has (e.g. Latin-1 letters) is kept */
	local = g_convert_with_fallback(ascii->str, -1, charset, "UTF-8", "?", NULL, NULL, NULL);
	return local != NULL ? local : g_strdup(ascii->str);
}

static void
sdt_cli_print_to(FILE *stream, const gchar *text)
{
	g_autofree gchar *local = sdt_cli_text_for_locale(text, NULL);
	fputs(local, stream);
	fflush(stream);
}

static void
sdt_cli_print_handler(const gchar *text)
{
	sdt_cli_print_to(stdout, text);
}

static void
sdt_cli_printerr_handler(const gchar *text)
{
	sdt_cli_print_to(stderr, text);
}

void
sdt_cli_print_json(SdtCli *cli, JsonNode *node)
{
	g_autofree gchar *text = NULL;

	/* JSON is UTF-8: bytes of config.txt that are not become U+FFFD */
	sdt_utf8_sanitize_json(node);
	text = sdt_json_to_string(node, TRUE);
	/* JSON is UTF-8 for every reader, never converted to the locale's charset */
	fputs(text, stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

static const GOptionEntry sdt_cli_no_entries[] = {{NULL}};

gboolean
sdt_cli_parse(SdtCli *cli,
	      const GOptionEntry *entries,
	      guint min_args,
	      guint max_args,
	      gint *argc,
	      gchar ***argv,
	      gint *rc,
	      GError **error)
{
	const SdtCliCommand *command = sdt_cli_find_command((*argv)[0]);
	g_autoptr(GOptionContext) context = NULL;
	gboolean help = FALSE;
	const GOptionEntry common[] = {
		{"json", 'j', 0, G_OPTION_ARG_NONE, &cli->json, N_("Print JSON"), NULL},
		{"help", 'h', 0, G_OPTION_ARG_NONE, &help, N_("Show this help"), NULL},
		{NULL},
	};

	g_return_val_if_fail(command != NULL, FALSE);
	context = g_option_context_new(command->parameters[0] != '\0' ? command->parameters : NULL);
	g_option_context_set_translation_domain(context, GETTEXT_PACKAGE);
	g_option_context_set_summary(context, _(command->description));
	g_option_context_set_description(
		context,
		_("Options of sdtunerctl itself, such as --root DIR, go before the command: "
		  "see “sdtunerctl --help”."));
	/* our own --help/-h: GLib's would exit() and say "Help Options" */
	g_option_context_set_help_enabled(context, FALSE);
	g_option_context_add_main_entries(context,
					  entries != NULL ? entries : sdt_cli_no_entries,
					  GETTEXT_PACKAGE);
	g_option_context_add_main_entries(context, common, GETTEXT_PACKAGE);
	if (!g_option_context_parse(context, argc, argv, error)) {
		*rc = SDT_CLI_EXIT_USAGE;
		return FALSE;
	}
	if (help) {
		g_autofree gchar *prgname = g_strdup(g_get_prgname());
		g_autofree gchar *usage_name = g_strdup_printf("sdtunerctl %s", command->name);
		g_autofree gchar *text = NULL;
		/* the usage line names the command: "sdtunerctl apply [OPTION…] ID" */
		g_set_prgname(usage_name);
		text = g_option_context_get_help(context, TRUE, NULL);
		g_set_prgname(prgname);
		g_print("%s", text);
		*rc = SDT_CLI_EXIT_OK;
		return FALSE;
	}
	if ((guint) (*argc - 1) < min_args || (guint) (*argc - 1) > max_args) {
		if (max_args == 0)
			g_set_error(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    /* Translators: a command, then the argument it was given */
				    _("“%s” takes no arguments (got “%s”)"),
				    command->name,
				    (*argv)[1]);
		else
			g_set_error(error,
				    G_OPTION_ERROR,
				    G_OPTION_ERROR_BAD_VALUE,
				    /* Translators: a command, then its arguments, e.g. "ID" */
				    _("“%s” takes the arguments %s"),
				    command->name,
				    command->parameters);
		*rc = SDT_CLI_EXIT_USAGE;
		return FALSE;
	}
	if (cli->root != NULL && cli->ctx == NULL) {
		cli->ctx = sdt_context_new(cli->root, error);
		if (cli->ctx == NULL) {
			*rc = SDT_CLI_EXIT_USAGE;
			return FALSE;
		}
	}
	return TRUE;
}

gboolean
sdt_cli_no_args(SdtCli *cli, gint argc, gchar **argv, gint *rc, GError **error)
{
	return sdt_cli_parse(cli, NULL, 0, 0, &argc, &argv, rc, error);
}

static void
sdt_cli_print_error(SdtCli *cli, const GError *error_in)
{
	g_autoptr(GError) error = g_error_copy(error_in);

	sdt_utf8_sanitize_error(error);
	g_printerr("sdtunerctl: %s\n", cli->json ? error->message : sdt_l10n_tr(error->message));
	if (cli->json) {
		g_autoptr(JsonBuilder) builder = json_builder_new();
		g_autoptr(JsonNode) root = NULL;
		g_autofree gchar *remote = NULL;

		json_builder_begin_object(builder);
		json_builder_set_member_name(builder, "error");
		json_builder_begin_object(builder);
		json_builder_set_member_name(builder, "name");
		if (error->domain == SDT_ERROR)
			json_builder_add_string_value(builder, sdt_error_to_dbus_name(error->code));
		else if ((remote = g_dbus_error_get_remote_error(error)) != NULL)
			json_builder_add_string_value(builder, remote);
		else
			json_builder_add_string_value(builder, g_quark_to_string(error->domain));
		json_builder_set_member_name(builder, "code");
		json_builder_add_int_value(builder, error->code);
		json_builder_set_member_name(builder, "message");
		json_builder_add_string_value(builder, error->message);
		json_builder_end_object(builder);
		json_builder_end_object(builder);
		root = json_builder_get_root(builder);
		sdt_cli_print_json(cli, root);
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
	return command->func(cli, 2, help_argv, error);
}

int
main(int argc, char *argv[])
{
	SdtCli cli = {NULL};
	g_autoptr(GOptionContext) context = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *summary = NULL;
	const SdtCliCommand *command;
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

	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE,
		       g_getenv("SDTUNER_LOCALEDIR") != NULL ? g_getenv("SDTUNER_LOCALEDIR")
							     : LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);
	g_set_print_handler(sdt_cli_print_handler);
	g_set_printerr_handler(sdt_cli_printerr_handler);

	context = g_option_context_new(_("COMMAND [ARGS…] - tune the SD card of a Raspberry Pi"));
	summary = sdt_cli_summary();
	g_option_context_set_summary(context, summary);
	g_option_context_set_description(
		context,
		_("“sdtunerctl COMMAND --help” or “sdtunerctl help COMMAND” shows a command's "
		  "own options."));
	g_option_context_add_main_entries(context, entries, GETTEXT_PACKAGE);
	g_option_context_set_strict_posix(context, TRUE);
	g_option_context_set_translation_domain(context, GETTEXT_PACKAGE);
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
	/* JSON is for programs: English text and C numbers, in-process (--root) too */
	for (gint i = 1; i < argc && !cli.json; i++)
		cli.json = g_strcmp0(argv[i], "--json") == 0 || g_strcmp0(argv[i], "-j") == 0;
	if (cli.json)
		sdt_l10n_use_c_locale_for_output();
	if (cli.root == NULL && g_getenv("SDTUNER_ROOT") != NULL && g_getenv("SDTUNER_ROOT")[0])
		cli.root = g_strdup(g_getenv("SDTUNER_ROOT"));

	if (g_strcmp0(argv[1], "help") == 0) {
		rc = sdt_cli_help(&cli, context, argc, argv, &error);
	} else if ((command = sdt_cli_find_command(argv[1])) != NULL) {
		/* a copy: the command's option parser rearranges argv */
		cli.argv = g_strdupv(argv + 1);
		rc = command->func(&cli, argc - 1, argv + 1, &error);
	} else {
		g_printerr(_("sdtunerctl: unknown command “%s”\n"), argv[1]);
		g_printerr("%s\n", summary);
		sdt_cli_clear(&cli);
		return SDT_CLI_EXIT_USAGE;
	}
	if (error != NULL) {
		sdt_cli_print_error(&cli, error);
		if (rc == SDT_CLI_EXIT_OK)
			rc = SDT_CLI_EXIT_FAILED;
		if (rc == SDT_CLI_EXIT_USAGE && error->domain == G_OPTION_ERROR &&
		    g_strcmp0(argv[1], "help") == 0)
			g_printerr(_("Try “sdtunerctl --help”.\n"));
		else if (rc == SDT_CLI_EXIT_USAGE && error->domain == G_OPTION_ERROR)
			g_printerr(_("Try “sdtunerctl %s --help”.\n"), argv[1]);
	}
	sdt_cli_clear(&cli);
	return rc;
}
