/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <unistd.h>

#if HAVE_POLKIT_AGENT
#define POLKIT_AGENT_I_KNOW_API_IS_SUBJECT_TO_CHANGE
#include <polkitagent/polkitagent.h>
#endif

#include "sdt-check.h"
#include "sdt-cli-ops.h"
#include "sdt-cli-ops-private.h"
#include "sdt-l10n.h"
#include "sdt-soak.h"
#include "sdt-client-job.h"
#include "sdt-client.h"
#include "sdt-dbus-generated.h"
#include "sdt-error.h"
#include "sdt-verify-report.h"
#include "sdt-utf8.h"
#include "sdt-health.h"

typedef struct {
	SdtManager *manager;
#if HAVE_POLKIT_AGENT
	PolkitAgentListener *agent;
	gpointer agent_handle;
#endif
	gboolean agent_tried;
	gboolean helper_missing; /* the last call found no helper (or no bus) */
} SdtCliBus;

/*
 * TRUE when the last bus-mode call failed (SDT_ERROR_NOT_SUPPORTED) because
 * no helper is installed or there is no system bus: a command that only
 * reads may then read this machine in-process instead.
 */
static gboolean
sdt_cli_ops_helper_missing(SdtCli *cli)
{
	return cli->ctx == NULL && cli->bus != NULL && ((SdtCliBus *) cli->bus)->helper_missing;
}

/* a result made in this process (its codec's text, valid UTF-8): the error's message
 * is too, as over the bus */
gchar *
sdt_cli_ops_local(gchar *text, GError **error)
{
	if (text == NULL && error != NULL)
		sdt_utf8_sanitize_error(*error);
	return text;
}

/*
 * A job's result (@text, its document's compact text: the helper's answer, or one made
 * in this process) as `--json` prints it: read back by the document's codec, so an
 * answer is checked, and written by it.  The document is the job's: StartCheck a check
 * result, StartVerify a verify report, StartSoak and the profile "soak" a soak report,
 * StartBenchmark a bench record.
 */
static gchar *
sdt_cli_ops_job_text(const gchar *method, const gchar *arg, const gchar *text, GError **error)
{
	if (g_strcmp0(method, "StartCheck") == 0) {
		g_autoptr(SdtCheckResult) r = sdt_check_result_parse(text, error);
		return r != NULL ? sdt_check_result_to_string(r, TRUE) : NULL;
	}
	if (g_strcmp0(method, "StartVerify") == 0) {
		g_autoptr(SdtVerifyReport) r = sdt_verify_report_parse(text, error);
		return r != NULL ? sdt_verify_report_to_string(r) : NULL;
	}
	if (g_strcmp0(method, "StartSoak") == 0 || g_strcmp0(arg, "soak") == 0) {
		g_autoptr(SdtSoakReport) r = sdt_soak_report_parse(text, error);
		return r != NULL ? sdt_soak_report_to_string(r, TRUE) : NULL;
	}
	{
		g_autoptr(SdtBenchRecord) r = sdt_bench_record_parse(text, error);
		return r != NULL ? sdt_bench_record_to_string(r, TRUE) : NULL;
	}
}

/*
 * In-process, the library speaks as the helper does: English and C numbers
 * (sdt_l10n_english_begin()), so what it stores in the history and returns is
 * the same whatever the locale, and is translated where sdtunerctl shows it,
 * over the bus and with --root alike (docs/ARCHITECTURE.md).
 */
/* a reading operation run in this process: its text (its codec's UTF-8) */
static gchar *
sdt_cli_ops_read_local_text(SdtCliTextFunc local, SdtContext *ctx, GError **error)
{
	gpointer before = sdt_l10n_english_begin();
	gchar *text = local(ctx, error);

	sdt_l10n_english_end(before);
	if (text == NULL && error != NULL)
		sdt_utf8_sanitize_error(*error);
	return text;
}

void
sdt_cli_ops_user_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer data)
{
	SdtCliUserProgress *p = data;
	gpointer before;

	if (p->progress == NULL)
		return;
	before = sdt_l10n_user_begin();
	p->progress(phase, fraction, rate, p->user_data);
	sdt_l10n_english_end(before);
}

static void
sdt_cli_ops_wrap_error(GError **error, SdtError code, gboolean missing)
{
	g_autoptr(GError) wrapped = NULL;

	if (missing)
		wrapped = g_error_new(
			SDT_ERROR,
			code,
			/* Translators: %s is the D-Bus error message */
			_("SD Tuner's system service (sd-tuner-helper) is not installed "
			  "or could not be started (%s)"),
			(*error)->message);
	else
		wrapped =
			g_error_new(SDT_ERROR,
				    code,
				    /* Translators: %s is the D-Bus error message */
				    _("SD Tuner's system service (sd-tuner-helper) did not answer "
				      "(%s)"),
				    (*error)->message);
	g_clear_error(error);
	*error = g_steal_pointer(&wrapped);
}

/* the command as typed, for a hint the user can copy */
static gchar *
sdt_cli_ops_command_line(SdtCli *cli)
{
	g_autoptr(GString) str = g_string_new(NULL);

	for (guint i = 0; cli->argv != NULL && cli->argv[i] != NULL; i++) {
		const gchar *arg = cli->argv[i];
		gboolean plain = arg[0] != '\0';
		for (const gchar *p = arg; *p != '\0'; p++) {
			if (!g_ascii_isalnum(*p) && strchr("-_./=,:", *p) == NULL)
				plain = FALSE;
		}
		if (str->len > 0)
			g_string_append_c(str, ' ');
		if (plain) {
			g_string_append(str, arg);
		} else {
			g_autofree gchar *quoted = g_shell_quote(arg);
			g_string_append(str, quoted);
		}
	}
	return g_string_free(g_steal_pointer(&str), FALSE);
}

/*
 * bench, apply and revert need the helper, or root in-process: say what to
 * install, or the exact command that works without the service
 */
void
sdt_cli_ops_privileged_hint(SdtCli *cli, GError **error)
{
	g_autofree gchar *command = NULL;
	g_autoptr(GError) hinted = NULL;

	if (error == NULL || *error == NULL || !sdt_cli_ops_helper_missing(cli))
		return;
	command = sdt_cli_ops_command_line(cli);
	if (geteuid() == 0)
		hinted =
			g_error_new(SDT_ERROR,
				    (*error)->code,
				    /* Translators: the first %s says why the service is missing,
				     * the second is the command the user typed, e.g. "apply
				     * sd-overclock-100" */
				    _("%s. Install the sd-tuner package, which brings the service, "
				      "or run the command on this machine without the service: "
				      "“sdtunerctl --root / %s”."),
				    (*error)->message,
				    command);
	else
		hinted =
			g_error_new(SDT_ERROR,
				    (*error)->code,
				    /* Translators: the first %s says why the service is missing,
				     * the second is the command the user typed, e.g. "apply
				     * sd-overclock-100" */
				    _("%s. Install the sd-tuner package, which brings the service, "
				      "or run the command as root on this machine without the "
				      "service: “sudo sdtunerctl --root / %s”."),
				    (*error)->message,
				    command);
	g_clear_error(error);
	*error = g_steal_pointer(&hinted);
}

/* D-Bus and connection errors become SDT_ERROR with a hint */
static void
sdt_cli_ops_fixup_error(SdtCli *cli, GError **error)
{
	g_autofree gchar *remote = NULL;

	if (error == NULL || *error == NULL)
		return;
	remote = g_dbus_error_get_remote_error(*error);
	g_dbus_error_strip_remote_error(*error);
	if ((*error)->domain == SDT_ERROR)
		return;
	if (g_error_matches(*error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
		(*error)->domain = SDT_ERROR;
		(*error)->code = SDT_ERROR_CANCELLED;
		return;
	}
	/* no helper installed or no system bus: NotSupported, so that a
	 * command that changes nothing may read this machine itself instead */
	if (g_strcmp0(remote, "org.freedesktop.DBus.Error.ServiceUnknown") == 0 ||
	    g_strcmp0(remote, "org.freedesktop.DBus.Error.NameHasNoOwner") == 0 ||
	    g_error_matches(*error, G_DBUS_ERROR, G_DBUS_ERROR_FILE_NOT_FOUND) ||
	    g_error_matches(*error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND)) {
		sdt_cli_ops_wrap_error(error, SDT_ERROR_NOT_SUPPORTED, TRUE);
		if (cli != NULL && cli->bus != NULL)
			((SdtCliBus *) cli->bus)->helper_missing = TRUE;
		return;
	}
	/* there, but it died or did not answer */
	if (g_strcmp0(remote, "org.freedesktop.DBus.Error.Spawn.ChildExited") == 0 ||
	    g_strcmp0(remote, "org.freedesktop.DBus.Error.NoReply") == 0 ||
	    (*error)->domain == G_IO_ERROR) {
		sdt_cli_ops_wrap_error(error, SDT_ERROR_FAILED, FALSE);
		return;
	}
	(*error)->domain = SDT_ERROR;
	(*error)->code = SDT_ERROR_FAILED;
}

static SdtCliBus *
sdt_cli_ops_bus(SdtCli *cli, GError **error)
{
	SdtCliBus *bus;

	if (cli->bus == NULL)
		cli->bus = g_new0(SdtCliBus, 1);
	bus = cli->bus;
	bus->helper_missing = FALSE;
	if (bus->manager != NULL)
		return bus;
	/* registers org.example.SdTuner1.Error.* so replies map to SDT_ERROR */
	(void) SDT_ERROR;
	bus->manager = sdt_manager_proxy_new_for_bus_sync(
		G_BUS_TYPE_SYSTEM,
		G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
			G_DBUS_PROXY_FLAGS_DO_NOT_CONNECT_SIGNALS,
		SDT_BUS_NAME,
		SDT_MANAGER_PATH,
		NULL,
		error);
	if (bus->manager == NULL) {
		sdt_cli_ops_fixup_error(cli, error);
		return NULL;
	}
	g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(bus->manager), SDT_TERMINAL_CALL_TIMEOUT_MS);
	return bus;
}

/* like udisksctl: a text agent for this process when a person is typing */
static void
sdt_cli_ops_ensure_agent(SdtCliBus *bus)
{
#if HAVE_POLKIT_AGENT
	g_autoptr(GError) error = NULL;
	g_autoptr(PolkitSubject) subject = NULL;

	if (bus->agent_tried)
		return;
	bus->agent_tried = TRUE;
	if (!isatty(STDIN_FILENO))
		return;
	bus->agent = polkit_agent_text_listener_new(NULL, &error);
	if (bus->agent == NULL) {
		g_debug("no text authentication agent: %s", error->message);
		return;
	}
	subject = polkit_unix_process_new_for_owner(getpid(), 0, getuid());
	bus->agent_handle =
		polkit_agent_listener_register(bus->agent,
					       POLKIT_AGENT_REGISTER_FLAGS_RUN_IN_THREAD,
					       subject,
					       NULL,
					       NULL,
					       &error);
	if (bus->agent_handle == NULL) {
		/* e.g. a desktop agent already serves this session: it asks instead */
		g_debug("text authentication agent not registered: %s", error->message);
		g_clear_object(&bus->agent);
	}
#endif
}

void
sdt_cli_ops_shutdown(SdtCli *cli)
{
	SdtCliBus *bus = cli->bus;

	if (bus == NULL)
		return;
#if HAVE_POLKIT_AGENT
	if (bus->agent_handle != NULL)
		polkit_agent_listener_unregister(bus->agent_handle);
	g_clear_object(&bus->agent);
#endif
	g_clear_object(&bus->manager);
	g_free(bus);
	cli->bus = NULL;
}

static GVariant *
sdt_cli_ops_options(gboolean trial)
{
	g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT(G_VARIANT_TYPE_VARDICT);
	if (trial)
		g_variant_builder_add(&builder, "{sv}", "trial", g_variant_new_boolean(TRUE));
	return g_variant_builder_end(&builder);
}

/* the helper's answer as it sent it: the reader parses it with the document's codec */
static gchar *
sdt_cli_ops_call_bus_text(SdtCli *cli, SdtCliCallFunc func, GError **error)
{
	SdtCliBus *bus = sdt_cli_ops_bus(cli, error);
	gchar *json = NULL;

	if (bus == NULL)
		return NULL;
	if (!func(bus->manager, sdt_cli_ops_options(FALSE), &json, NULL, error)) {
		sdt_cli_ops_fixup_error(cli, error);
		return NULL;
	}
	return json;
}

static gchar *
sdt_cli_ops_read_any(SdtCli *cli, SdtCliTextFunc local, SdtCliCallFunc call, GError **error)
{
	g_autoptr(GError) error_local = NULL;
	g_autoptr(SdtContext) ctx = NULL;
	gchar *text;

	if (cli->ctx != NULL)
		return sdt_cli_ops_read_local_text(local, cli->ctx, error);
	text = sdt_cli_ops_call_bus_text(cli, call, &error_local);
	if (text != NULL)
		return text;
	if (!sdt_cli_ops_helper_missing(cli)) {
		g_propagate_error(error, g_steal_pointer(&error_local));
		return NULL;
	}
	g_printerr(_("sdtunerctl: %s; reading this machine directly\n"), error_local->message);
	ctx = sdt_context_new("/", error);
	if (ctx == NULL)
		return NULL;
	return sdt_cli_ops_read_local_text(local, ctx, error);
}

gchar *
sdt_cli_ops_read_text(SdtCli *cli, SdtCliTextFunc local, SdtCliCallFunc call, GError **error)
{
	return sdt_cli_ops_read_any(cli, local, call, error);
}

/* Apply (@apply_id) or Revert (NULL) through the helper, which asks polkit */
static gchar *
sdt_cli_ops_change(SdtCli *cli, const gchar *apply_id, gboolean trial, GError **error)
{
	SdtCliBus *bus = sdt_cli_ops_bus(cli, error);
	g_autofree gchar *json = NULL;
	gboolean ok;

	if (bus == NULL) {
		sdt_cli_ops_privileged_hint(cli, error);
		return NULL;
	}
	sdt_cli_ops_ensure_agent(bus);
	if (apply_id != NULL)
		ok = sdt_manager_call_apply_sync(bus->manager,
						 apply_id,
						 sdt_cli_ops_options(trial),
						 &json,
						 NULL,
						 error);
	else
		ok = sdt_manager_call_revert_sync(bus->manager,
						  sdt_cli_ops_options(FALSE),
						  &json,
						  NULL,
						  error);
	if (!ok) {
		sdt_cli_ops_fixup_error(cli, error);
		sdt_cli_ops_privileged_hint(cli, error);
		return NULL;
	}
	return g_steal_pointer(&json);
}

gchar *
sdt_cli_ops_revert(SdtCli *cli, GError **error)
{
	if (cli->ctx != NULL)
		return sdt_cli_ops_read_local_text(sdt_ops_config_revert, cli->ctx, error);
	return sdt_cli_ops_change(cli, NULL, FALSE, error);
}

gchar *
sdt_cli_ops_apply(SdtCli *cli, const gchar *id, gboolean trial, GError **error)
{
	g_return_val_if_fail(id != NULL, NULL);
	if (cli->ctx != NULL) {
		gpointer before = sdt_l10n_english_begin();
		gchar *text = sdt_ops_config_apply(cli->ctx, id, trial, error);

		sdt_l10n_english_end(before);
		if (text == NULL)
			sdt_cli_ops_local(NULL, error);
		return text;
	}
	return sdt_cli_ops_change(cli, id, trial, error);
}

/* one job of the helper, waited for in a private main context */
typedef struct {
	GMainContext *context;
	GMainLoop *loop;
	SdtClientJob *job;
	SdtBenchProgressFunc progress;
	gpointer user_data;
	gboolean done;
	gchar *result;
	GError *error;
} SdtCliJobWait;

static void
sdt_cli_job_wait_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer user_data)
{
	SdtCliJobWait *w = user_data;

	if (w->progress != NULL)
		w->progress(phase, fraction, rate, w->user_data);
}

static void
sdt_cli_job_wait_done_cb(const gchar *result, const GError *error, gpointer user_data)
{
	SdtCliJobWait *w = user_data;

	w->done = TRUE;
	w->result = g_strdup(result);
	if (error != NULL)
		w->error = g_error_copy(error);
	g_main_loop_quit(w->loop);
}

static gboolean
sdt_cli_job_wait_send_cancel_cb(gpointer user_data)
{
	SdtCliJobWait *w = user_data;

	if (w->job != NULL && !w->done)
		sdt_client_job_cancel(w->job);
	return G_SOURCE_REMOVE;
}

/* may run in any thread */
static void
sdt_cli_job_wait_cancelled_cb(GCancellable *cancellable, gpointer user_data)
{
	SdtCliJobWait *w = user_data;
	g_main_context_invoke(w->context, sdt_cli_job_wait_send_cancel_cb, w);
}

/* follows the job (sdt-client-job.h) until it ends; @w->context is the thread's default */
static void
sdt_cli_job_wait_run(SdtCliJobWait *w,
		     GDBusConnection *connection,
		     const gchar *method,
		     const gchar *arg,
		     GVariant *options,
		     GCancellable *cancellable)
{
	gulong cancel_id = 0;

	w->job = sdt_client_job_start(connection,
				      NULL,
				      method,
				      arg,
				      options,
				      SDT_TERMINAL_CALL_TIMEOUT_MS,
				      sdt_cli_job_wait_progress_cb,
				      sdt_cli_job_wait_done_cb,
				      w);
	if (cancellable != NULL)
		cancel_id = g_cancellable_connect(cancellable,
						  G_CALLBACK(sdt_cli_job_wait_cancelled_cb),
						  w,
						  NULL);
	if (!w->done)
		g_main_loop_run(w->loop);
	if (cancel_id != 0)
		g_cancellable_disconnect(cancellable, cancel_id);
	g_clear_pointer(&w->job, sdt_client_job_free);
	/* what the follower let go of is released in this context */
	for (guint i = 0; i < 100 && g_main_context_iteration(w->context, FALSE); i++)
		;
}

/*
 * Starts a job of the helper (StartBenchmark or StartCheck, with @arg;
 * StartSoak or StartVerify, @arg %NULL) with @options (floating, may be %NULL)
 * and follows it until Completed, from the helper's unique name only: the
 * system bus lets any user emit a Completed for our job's predictable path.
 */
gchar *
sdt_cli_ops_run_job(SdtCli *cli,
		    const gchar *method,
		    const gchar *arg,
		    GVariant *options,
		    SdtBenchProgressFunc progress,
		    gpointer user_data,
		    GCancellable *cancellable,
		    GError **error)
{
	SdtCliBus *bus = sdt_cli_ops_bus(cli, error);
	SdtCliJobWait w = {.progress = progress, .user_data = user_data};
	gchar *text = NULL;

	if (bus == NULL) {
		if (options != NULL)
			g_variant_unref(g_variant_ref_sink(options));
		return NULL;
	}
	sdt_cli_ops_ensure_agent(bus);
	/* a private context: the caller may be a worker thread while its main
	 * thread runs a loop (e.g. for SIGINT) on the default one */
	w.context = g_main_context_new();
	w.loop = g_main_loop_new(w.context, FALSE);
	g_main_context_push_thread_default(w.context);
	sdt_cli_job_wait_run(&w,
			     g_dbus_proxy_get_connection(G_DBUS_PROXY(bus->manager)),
			     method,
			     arg,
			     options,
			     cancellable);
	g_main_context_pop_thread_default(w.context);
	if (w.error != NULL) {
		sdt_cli_ops_fixup_error(cli, &w.error);
		g_propagate_error(error, g_steal_pointer(&w.error));
	} else {
		/* checked, and printed as a result made in this process is */
		text = sdt_cli_ops_job_text(method, arg, w.result, error);
	}
	g_free(w.result);
	g_main_loop_unref(w.loop);
	g_main_context_unref(w.context);
	return text;
}

/* `bench` and `check`: the same way, each with its own names */
typedef struct {
	SdtOpsJobFunc local;      /* in-process (--root) */
	const gchar *method;      /* the helper's job */
	const gchar *dir_refused; /* --dir in bus mode */
} SdtCliOpsJob;

/* in-process (--root: root, the tests' loop devices) a disk that is not removable too */
static gchar *
sdt_cli_ops_check_device_local(SdtContext *ctx,
			       const gchar *mode,
			       const gchar *device,
			       SdtBenchProgressFunc progress,
			       gpointer user_data,
			       GCancellable *cancellable,
			       GError **error)
{
	g_autoptr(SdtCheckResult) result = sdt_ops_check_device(ctx,
								mode,
								device,
								NULL,
								TRUE,
								progress,
								user_data,
								cancellable,
								error);

	return result != NULL ? sdt_check_result_to_string(result, FALSE) : NULL;
}

static const SdtCliOpsJob sdt_cli_ops_jobs[] = {
	[SDT_CLI_JOB_BENCH] = {sdt_ops_bench,
			       "StartBenchmark",
			       N_("--dir is only for --root mode: the helper always "
				  "benchmarks the file system on the SD card")},
	[SDT_CLI_JOB_CHECK] = {sdt_ops_check, "StartCheck", NULL},
	[SDT_CLI_JOB_CHECK_DEVICE] = {sdt_cli_ops_check_device_local, "StartCheck", NULL},
};

gchar *
sdt_cli_ops_job(SdtCli *cli,
		SdtCliJob job,
		const gchar *arg,
		const gchar *dir,
		SdtBenchProgressFunc progress,
		gpointer user_data,
		GCancellable *cancellable,
		GError **error)
{
	const SdtCliOpsJob *how;
	GVariant *options = NULL;
	gchar *text;

	g_return_val_if_fail((guint) job < G_N_ELEMENTS(sdt_cli_ops_jobs), NULL);
	how = &sdt_cli_ops_jobs[job];
	if (cli->ctx != NULL) {
		SdtCliUserProgress user = {progress, user_data};
		gpointer before = sdt_l10n_english_begin();

		g_autofree gchar *compact = how->local(cli->ctx,
						       arg,
						       dir,
						       sdt_cli_ops_user_progress_cb,
						       &user,
						       cancellable,
						       error);

		sdt_l10n_english_end(before);
		if (compact == NULL)
			return sdt_cli_ops_local(NULL, error);
		return sdt_cli_ops_job_text(how->method, arg, compact, error);
	}
	if (dir != NULL && how->dir_refused != NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _(how->dir_refused));
		return NULL;
	}
	if (dir != NULL) {
		/* issue 32: the helper checks a folder of the caller's, named absolutely;
		 * issue 34: or a whole card, a device node or a link to one */
		g_autofree gchar *absolute = g_canonicalize_filename(dir, NULL);
		g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT(G_VARIANT_TYPE_VARDICT);

		g_variant_builder_add(&builder,
				      "{sv}",
				      job == SDT_CLI_JOB_CHECK_DEVICE ? "device" : "dir",
				      g_variant_new_bytestring(absolute));
		options = g_variant_builder_end(&builder);
	}
	text = sdt_cli_ops_run_job(cli,
				   how->method,
				   arg,
				   options,
				   progress,
				   user_data,
				   cancellable,
				   error);
	if (text == NULL)
		sdt_cli_ops_privileged_hint(cli, error);
	return text;
}

gchar *
sdt_cli_ops_soak(SdtCli *cli,
		 const gchar *dir,
		 guint64 size,
		 gdouble seconds,
		 SdtBenchProgressFunc progress,
		 gpointer user_data,
		 GCancellable *cancellable,
		 GError **error)
{
	SdtCliUserProgress user = {progress, user_data};
	g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT(G_VARIANT_TYPE_VARDICT);
	g_autoptr(SdtSoakReport) report = NULL;
	gpointer before;
	gchar *text;

	if (cli->ctx == NULL) {
		/* issue 32: a job of the helper, a benchmark to polkit */
		if (dir != NULL) {
			g_set_error_literal(error,
					    SDT_ERROR,
					    SDT_ERROR_INVALID_ARGUMENT,
					    _(sdt_cli_ops_jobs[SDT_CLI_JOB_BENCH].dir_refused));
			return NULL;
		}
		g_variant_builder_add(&builder, "{sv}", "size", g_variant_new_uint64(size));
		g_variant_builder_add(&builder, "{sv}", "seconds", g_variant_new_double(seconds));
		text = sdt_cli_ops_run_job(cli,
					   "StartSoak",
					   NULL,
					   g_variant_builder_end(&builder),
					   progress,
					   user_data,
					   cancellable,
					   error);
		if (text == NULL)
			sdt_cli_ops_privileged_hint(cli, error);
		return text;
	}
	before = sdt_l10n_english_begin();
	report = sdt_ops_bench_soak(cli->ctx,
				    dir,
				    size,
				    seconds,
				    sdt_cli_ops_user_progress_cb,
				    &user,
				    cancellable,
				    error);
	sdt_l10n_english_end(before);
	return sdt_cli_ops_local(report != NULL ? sdt_soak_report_to_string(report, TRUE) : NULL,
				 error);
}

/* a verify job's Phase back to its stage */
typedef struct {
	SdtOpsVerifyProgressFunc progress;
	gpointer user_data;
} SdtCliVerifyProgress;

static void
sdt_cli_ops_verify_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer data)
{
	SdtCliVerifyProgress *p = data;

	if (p->progress == NULL)
		return;
	if (g_strcmp0(phase, "log") == 0)
		p->progress(SDT_OPS_VERIFY_STAGE_LOG, fraction, p->user_data);
	else if (g_strcmp0(phase, "benchmark") == 0)
		p->progress(SDT_OPS_VERIFY_STAGE_BENCHMARK, fraction, p->user_data);
	else if (g_strcmp0(phase, "soak") == 0)
		p->progress(SDT_OPS_VERIFY_STAGE_SOAK, fraction, p->user_data);
}

gchar *
sdt_cli_ops_verify(SdtCli *cli,
		   gdouble soak_seconds,
		   SdtOpsVerifyProgressFunc progress,
		   gpointer user_data,
		   GCancellable *cancellable,
		   GError **error)
{
	SdtCliVerifyProgress p = {progress, user_data};
	g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT(G_VARIANT_TYPE_VARDICT);
	gchar *text;

	g_return_val_if_fail(cli->ctx == NULL, NULL);
	if (soak_seconds != -1)
		g_variant_builder_add(&builder,
				      "{sv}",
				      "soak_seconds",
				      g_variant_new_double(soak_seconds));
	text = sdt_cli_ops_run_job(cli,
				   "StartVerify",
				   NULL,
				   g_variant_builder_end(&builder),
				   sdt_cli_ops_verify_progress_cb,
				   &p,
				   cancellable,
				   error);
	if (text == NULL)
		sdt_cli_ops_privileged_hint(cli, error);
	return text;
}
