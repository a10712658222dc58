/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * What every command of sdtunerctl shares: its argument parser, JSON and
 * text output, and the worker thread of the long ones (bench, check, verify).  The dispatcher
 * (sdtunerctl.c) calls the commands; the commands call this file, never the dispatcher.
 */

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <signal.h>
#include <stdio.h>

#include "sdt-cli.h"

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
sdt_cli_set_print_handlers(void)
{
	g_set_print_handler(sdt_cli_print_handler);
	g_set_printerr_handler(sdt_cli_printerr_handler);
}

void
sdt_cli_print_text(SdtCli *cli, const gchar *text)
{
	g_return_if_fail(text != NULL);

	/* JSON is UTF-8 for every reader, never converted to the locale's charset */
	fputs(text, stdout);
	fputc('\n', stdout);
	fflush(stdout);
}

static const GOptionEntry sdt_cli_no_entries[] = {{NULL}};

static GOptionContext *
sdt_cli_option_context(const SdtCliCommand *command,
		       const GOptionEntry *entries,
		       const GOptionEntry *common)
{
	GOptionContext *context =
		g_option_context_new(command->parameters[0] != '\0' ? command->parameters : NULL);

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
	return context;
}

static void
sdt_cli_print_command_help(const SdtCliCommand *command, GOptionContext *context)
{
	g_autofree gchar *prgname = g_strdup(g_get_prgname());
	g_autofree gchar *usage_name = g_strdup_printf("sdtunerctl %s", command->name);
	g_autofree gchar *text = NULL;

	/* the usage line names the command: "sdtunerctl apply [OPTION…] ID" */
	g_set_prgname(usage_name);
	text = g_option_context_get_help(context, TRUE, NULL);
	g_set_prgname(prgname);
	g_print("%s", text);
}

static gboolean
sdt_cli_check_arg_count(const SdtCliCommand *command,
			guint min_args,
			guint max_args,
			gint argc,
			gchar **argv,
			GError **error)
{
	if ((guint) (argc - 1) >= min_args && (guint) (argc - 1) <= max_args)
		return TRUE;
	if (max_args == 0)
		g_set_error(error,
			    G_OPTION_ERROR,
			    G_OPTION_ERROR_BAD_VALUE,
			    /* Translators: a command, then the argument it was given */
			    _("“%s” takes no arguments (got “%s”)"),
			    command->name,
			    argv[1]);
	else
		g_set_error(error,
			    G_OPTION_ERROR,
			    G_OPTION_ERROR_BAD_VALUE,
			    /* Translators: a command, then its arguments, e.g. "ID" */
			    _("“%s” takes the arguments %s"),
			    command->name,
			    command->parameters);
	return FALSE;
}

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
	g_autoptr(GOptionContext) context = NULL;
	gboolean help = FALSE;
	const GOptionEntry common[] = {
		{"json", 'j', 0, G_OPTION_ARG_NONE, &cli->json, N_("Print JSON"), NULL},
		{"help", 'h', 0, G_OPTION_ARG_NONE, &help, N_("Show this help"), NULL},
		{NULL},
	};

	g_return_val_if_fail(cli->command != NULL, FALSE);
	*rc = SDT_CLI_EXIT_USAGE;
	context = sdt_cli_option_context(cli->command, entries, common);
	if (!g_option_context_parse(context, argc, argv, error))
		return FALSE;
	if (help) {
		sdt_cli_print_command_help(cli->command, context);
		*rc = SDT_CLI_EXIT_OK;
		return FALSE;
	}
	if (!sdt_cli_check_arg_count(cli->command, min_args, max_args, *argc, *argv, error))
		return FALSE;
	if (cli->root != NULL && cli->ctx == NULL) {
		cli->ctx = sdt_context_new(cli->root, error);
		if (cli->ctx == NULL)
			return FALSE;
	}
	*rc = SDT_CLI_EXIT_OK;
	return TRUE;
}

gboolean
sdt_cli_no_args(SdtCli *cli, gint argc, gchar **argv, gint *rc, GError **error)
{
	return sdt_cli_parse(cli, NULL, 0, 0, &argc, &argv, rc, error);
}

/* one sdt_cli_run_in_thread() */
typedef struct {
	SdtCliWorkFunc work;
	SdtCliInterruptFunc interrupted;
	gpointer data;
	GMainLoop *loop;
	GCancellable *cancellable;
	gchar *result;
	GError *error;
} SdtCliRun;

static gboolean
sdt_cli_run_signal_cb(gpointer user_data)
{
	SdtCliRun *run = user_data;

	if (run->interrupted != NULL)
		run->interrupted(run->data);
	g_cancellable_cancel(run->cancellable);
	return G_SOURCE_CONTINUE;
}

static void
sdt_cli_run_thread_cb(GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
	SdtCliRun *run = task_data;
	GError *error = NULL;
	gchar *text = run->work(run->data, cancellable, &error);

	if (text == NULL)
		g_task_return_error(task, error);
	else
		g_task_return_pointer(task, text, g_free);
}

static void
sdt_cli_run_done_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtCliRun *run = user_data;

	run->result = g_task_propagate_pointer(G_TASK(res), &run->error);
	g_main_loop_quit(run->loop);
}

gchar *
sdt_cli_run_in_thread(SdtCliWorkFunc work,
		      SdtCliInterruptFunc interrupted,
		      gpointer data,
		      GError **error)
{
	SdtCliRun run = {.work = work, .interrupted = interrupted, .data = data};
	g_autoptr(GTask) task = NULL;
	guint sigint_id;
	guint sigterm_id;

	run.cancellable = g_cancellable_new();
	run.loop = g_main_loop_new(NULL, FALSE);
	sigint_id = g_unix_signal_add(SIGINT, sdt_cli_run_signal_cb, &run);
	sigterm_id = g_unix_signal_add(SIGTERM, sdt_cli_run_signal_cb, &run);
	task = g_task_new(NULL, run.cancellable, sdt_cli_run_done_cb, &run);
	g_task_set_task_data(task, &run, NULL);
	/* the work's own Cancelled error (the engine's, the helper's) is the one to show */
	g_task_set_check_cancellable(task, FALSE);
	g_task_run_in_thread(task, sdt_cli_run_thread_cb);
	g_main_loop_run(run.loop);
	g_source_remove(sigint_id);
	g_source_remove(sigterm_id);
	g_main_loop_unref(run.loop);
	g_object_unref(run.cancellable);
	if (run.error != NULL)
		g_propagate_error(error, run.error);
	return run.result;
}
