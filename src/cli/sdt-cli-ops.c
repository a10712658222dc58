/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <unistd.h>

#if HAVE_POLKIT_AGENT
#define POLKIT_AGENT_I_KNOW_API_IS_SUBJECT_TO_CHANGE
#include <polkitagent/polkitagent.h>
#endif

#include "sdt-check.h"
#include "sdt-cli-ops.h"
#include "sdt-dbus-generated.h"
#include "sdt-error.h"
#include "sdt-health.h"

#define SDT_CLI_BUS_NAME "org.example.SdTuner1"
#define SDT_CLI_PATH     "/org/example/SdTuner1"

/* a password prompt may take a while; a dead helper still fails the call */
#define SDT_CLI_CALL_TIMEOUT_MS (10 * 60 * 1000)

typedef struct {
	SdtManager *manager;
#if HAVE_POLKIT_AGENT
	PolkitAgentListener *agent;
	gpointer agent_handle;
#endif
	gboolean agent_tried;
	gboolean helper_missing; /* the last call found no helper (or no bus) */
} SdtCliBus;

static void
sdt_cli_ops_wrap_error(GError **error, SdtError code)
{
	g_autoptr(GError) wrapped =
		g_error_new(SDT_ERROR,
			    code,
			    /* Translators: %s is an error message */
			    _("Could not reach sd-tuner-helper on the system bus (is SD Tuner "
			      "installed? use --root DIR to read a copy instead): %s"),
			    (*error)->message);
	g_clear_error(error);
	*error = g_steal_pointer(&wrapped);
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
		sdt_cli_ops_wrap_error(error, SDT_ERROR_NOT_SUPPORTED);
		if (cli != NULL && cli->bus != NULL)
			((SdtCliBus *) cli->bus)->helper_missing = TRUE;
		return;
	}
	/* there, but it died or did not answer */
	if (g_strcmp0(remote, "org.freedesktop.DBus.Error.Spawn.ChildExited") == 0 ||
	    g_strcmp0(remote, "org.freedesktop.DBus.Error.NoReply") == 0 ||
	    (*error)->domain == G_IO_ERROR) {
		sdt_cli_ops_wrap_error(error, SDT_ERROR_FAILED);
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
		SDT_CLI_BUS_NAME,
		SDT_CLI_PATH,
		NULL,
		error);
	if (bus->manager == NULL) {
		sdt_cli_ops_fixup_error(cli, error);
		return NULL;
	}
	g_dbus_proxy_set_default_timeout(G_DBUS_PROXY(bus->manager), SDT_CLI_CALL_TIMEOUT_MS);
	return bus;
}

gboolean
sdt_cli_ops_helper_missing(SdtCli *cli)
{
	return cli->ctx == NULL && cli->bus != NULL && ((SdtCliBus *) cli->bus)->helper_missing;
}

JsonNode *
sdt_cli_ops_read(SdtCli *cli, SdtCliOpsFunc ops, SdtCliLocalFunc local, GError **error)
{
	g_autoptr(GError) error_local = NULL;
	g_autoptr(SdtContext) ctx = NULL;
	JsonNode *node = ops(cli, &error_local);

	if (node != NULL)
		return node;
	if (!sdt_cli_ops_helper_missing(cli)) {
		g_propagate_error(error, g_steal_pointer(&error_local));
		return NULL;
	}
	g_printerr(_("sdtunerctl: %s; reading this machine directly\n"), error_local->message);
	ctx = sdt_context_new("/", error);
	if (ctx == NULL)
		return NULL;
	return local(ctx, error);
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

static JsonNode *
sdt_cli_ops_parse(const gchar *json, GError **error)
{
	g_autoptr(GError) error_local = NULL;
	g_autoptr(JsonNode) node = json_from_string(json, &error_local);

	if (node == NULL || !JSON_NODE_HOLDS_OBJECT(node)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    /* Translators: %s is a parser message */
			    _("sd-tuner-helper sent a reply that is not a JSON object: %s"),
			    error_local != NULL ? error_local->message : _("not an object"));
		return NULL;
	}
	return g_steal_pointer(&node);
}

static GVariant *
sdt_cli_ops_options(gboolean trial)
{
	g_auto(GVariantBuilder) builder = G_VARIANT_BUILDER_INIT(G_VARIANT_TYPE_VARDICT);
	if (trial)
		g_variant_builder_add(&builder, "{sv}", "trial", g_variant_new_boolean(TRUE));
	return g_variant_builder_end(&builder);
}

typedef gboolean (*SdtCliCallFunc)(SdtManager *proxy,
				   GVariant *arg_options,
				   gchar **out,
				   GCancellable *cancellable,
				   GError **error);

static JsonNode *
sdt_cli_ops_call_bus(SdtCli *cli, SdtCliCallFunc func, GError **error)
{
	SdtCliBus *bus = sdt_cli_ops_bus(cli, error);
	g_autofree gchar *json = NULL;

	if (bus == NULL)
		return NULL;
	if (!func(bus->manager, sdt_cli_ops_options(FALSE), &json, NULL, error)) {
		sdt_cli_ops_fixup_error(cli, error);
		return NULL;
	}
	return sdt_cli_ops_parse(json, error);
}

JsonNode *
sdt_cli_ops_info(SdtCli *cli, GError **error)
{
	if (cli->ctx != NULL)
		return sdt_ops_info(cli->ctx, error);
	return sdt_cli_ops_call_bus(cli, sdt_manager_call_get_info_sync, error);
}

JsonNode *
sdt_cli_ops_recommend(SdtCli *cli, GError **error)
{
	if (cli->ctx != NULL)
		return sdt_ops_recommend(cli->ctx, error);
	return sdt_cli_ops_call_bus(cli, sdt_manager_call_get_recommendations_sync, error);
}

JsonNode *
sdt_cli_ops_status(SdtCli *cli, GError **error)
{
	if (cli->ctx != NULL)
		return sdt_ops_status(cli->ctx, error);
	return sdt_cli_ops_call_bus(cli, sdt_manager_call_get_status_sync, error);
}

JsonNode *
sdt_cli_ops_history(SdtCli *cli, GError **error)
{
	if (cli->ctx != NULL)
		return sdt_ops_history(cli->ctx, error);
	return sdt_cli_ops_call_bus(cli, sdt_manager_call_get_history_sync, error);
}

JsonNode *
sdt_cli_ops_health(SdtCli *cli, GError **error)
{
	if (cli->ctx != NULL)
		return sdt_ops_health(cli->ctx, error);
	return sdt_cli_ops_call_bus(cli, sdt_manager_call_get_health_sync, error);
}

JsonNode *
sdt_cli_ops_revert(SdtCli *cli, GError **error)
{
	SdtCliBus *bus;
	g_autofree gchar *json = NULL;

	if (cli->ctx != NULL)
		return sdt_ops_revert(cli->ctx, error);
	bus = sdt_cli_ops_bus(cli, error);
	if (bus == NULL)
		return NULL;
	sdt_cli_ops_ensure_agent(bus);
	if (!sdt_manager_call_revert_sync(bus->manager,
					  sdt_cli_ops_options(FALSE),
					  &json,
					  NULL,
					  error)) {
		sdt_cli_ops_fixup_error(cli, error);
		return NULL;
	}
	return sdt_cli_ops_parse(json, error);
}

JsonNode *
sdt_cli_ops_apply(SdtCli *cli, const gchar *id, gboolean trial, GError **error)
{
	SdtCliBus *bus;
	g_autofree gchar *json = NULL;

	if (cli->ctx != NULL)
		return sdt_ops_apply(cli->ctx, id, trial, error);
	bus = sdt_cli_ops_bus(cli, error);
	if (bus == NULL)
		return NULL;
	sdt_cli_ops_ensure_agent(bus);
	if (!sdt_manager_call_apply_sync(bus->manager,
					 id,
					 sdt_cli_ops_options(trial),
					 &json,
					 NULL,
					 error)) {
		sdt_cli_ops_fixup_error(cli, error);
		return NULL;
	}
	return sdt_cli_ops_parse(json, error);
}

/* one benchmark followed over the bus */
typedef struct {
	GMainContext *context;
	GMainLoop *loop;
	SdtJob *job;
	gchar *job_path;
	SdtBenchProgressFunc progress;
	gpointer user_data;
	gboolean done;
	gchar *result;
	GError *error;
	gboolean cancel_sent;
} SdtCliBench;

static void
sdt_cli_bench_finish(SdtCliBench *b)
{
	b->done = TRUE;
	g_main_loop_quit(b->loop);
}

static void
sdt_cli_bench_completed_cb(GDBusConnection *connection,
			   const gchar *sender,
			   const gchar *path,
			   const gchar *iface,
			   const gchar *signal,
			   GVariant *params,
			   gpointer user_data)
{
	SdtCliBench *b = user_data;
	const gchar *result;
	const gchar *error_name;
	const gchar *error_message;

	if (b->done || g_strcmp0(path, b->job_path) != 0 ||
	    !g_variant_is_of_type(params, G_VARIANT_TYPE("(sss)")))
		return;
	g_variant_get(params, "(&s&s&s)", &result, &error_name, &error_message);
	if (error_name[0] != '\0') {
		b->error = g_dbus_error_new_for_dbus_error(error_name, error_message);
		sdt_cli_ops_fixup_error(NULL, &b->error);
	} else {
		b->result = g_strdup(result);
	}
	sdt_cli_bench_finish(b);
}

static void
sdt_cli_bench_properties_cb(GDBusProxy *proxy,
			    GVariant *changed,
			    const gchar *const *invalidated,
			    gpointer user_data)
{
	SdtCliBench *b = user_data;
	const gchar *phase = sdt_job_get_phase(b->job);

	if (b->done || b->progress == NULL || phase == NULL || phase[0] == '\0')
		return;
	b->progress(phase, sdt_job_get_progress(b->job), sdt_job_get_rate(b->job), b->user_data);
}

static void
sdt_cli_bench_owner_cb(GObject *object, GParamSpec *pspec, gpointer user_data)
{
	SdtCliBench *b = user_data;
	g_autofree gchar *owner = g_dbus_proxy_get_name_owner(G_DBUS_PROXY(object));

	if (owner != NULL || b->done)
		return;
	g_set_error_literal(&b->error,
			    SDT_ERROR,
			    SDT_ERROR_FAILED,
			    _("sd-tuner-helper stopped while its job ran; nothing was left "
			      "on the card"));
	sdt_cli_bench_finish(b);
}

static void
sdt_cli_bench_cancel_done_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	/* Completed says how it ended; a failed Cancel only means it had ended */
	if (!sdt_job_call_cancel_finish(SDT_JOB(source), res, &error))
		g_debug("Cancel: %s", error->message);
}

static gboolean
sdt_cli_bench_send_cancel_cb(gpointer user_data)
{
	SdtCliBench *b = user_data;
	if (b->job != NULL && !b->done && !b->cancel_sent) {
		b->cancel_sent = TRUE;
		sdt_job_call_cancel(b->job, NULL, sdt_cli_bench_cancel_done_cb, NULL);
	}
	return G_SOURCE_REMOVE;
}

/* may run in any thread */
static void
sdt_cli_bench_cancelled_cb(GCancellable *cancellable, gpointer user_data)
{
	SdtCliBench *b = user_data;
	g_main_context_invoke(b->context, sdt_cli_bench_send_cancel_cb, b);
}

/* StartBenchmark or StartCheck */
typedef gboolean (*SdtCliStartJobFunc)(SdtManager *proxy,
				       const gchar *arg,
				       GVariant *options,
				       gchar **out_job,
				       GCancellable *cancellable,
				       GError **error);

/* starts a job of the helper and follows it until Completed */
static JsonNode *
sdt_cli_ops_run_job(SdtCli *cli,
		    SdtCliStartJobFunc start,
		    const gchar *arg,
		    SdtBenchProgressFunc progress,
		    gpointer user_data,
		    GCancellable *cancellable,
		    GError **error)
{
	SdtCliBus *bus;
	GDBusConnection *connection;
	SdtCliBench b = {NULL};
	g_autoptr(GError) error_local = NULL;
	g_autoptr(JsonNode) node = NULL;
	guint subscription;
	gulong cancel_id = 0;

	bus = sdt_cli_ops_bus(cli, error);
	if (bus == NULL)
		return NULL;
	sdt_cli_ops_ensure_agent(bus);
	connection = g_dbus_proxy_get_connection(G_DBUS_PROXY(bus->manager));
	/* a private context: the caller may be a worker thread while its main
	 * thread runs a loop (e.g. for SIGINT) on the default one */
	b.context = g_main_context_new();
	g_main_context_push_thread_default(b.context);
	b.loop = g_main_loop_new(b.context, FALSE);
	b.progress = progress;
	b.user_data = user_data;

	/* subscribed before the job exists, so even a very short job's
	 * Completed (sent after the StartBenchmark reply) is seen */
	subscription = g_dbus_connection_signal_subscribe(connection,
							  NULL,
							  "org.example.SdTuner1.Job",
							  "Completed",
							  NULL,
							  NULL,
							  G_DBUS_SIGNAL_FLAGS_NONE,
							  sdt_cli_bench_completed_cb,
							  &b,
							  NULL);
	if (!start(bus->manager,
		   arg,
		   sdt_cli_ops_options(FALSE),
		   &b.job_path,
		   cancellable,
		   &error_local)) {
		sdt_cli_ops_fixup_error(cli, &error_local);
	} else {
		b.job = sdt_job_proxy_new_sync(connection,
					       G_DBUS_PROXY_FLAGS_NONE,
					       SDT_CLI_BUS_NAME,
					       b.job_path,
					       NULL,
					       &error_local);
		if (b.job == NULL) {
			sdt_cli_ops_fixup_error(cli, &error_local);
		} else {
			g_signal_connect(b.job,
					 "g-properties-changed",
					 G_CALLBACK(sdt_cli_bench_properties_cb),
					 &b);
			g_signal_connect(b.job,
					 "notify::g-name-owner",
					 G_CALLBACK(sdt_cli_bench_owner_cb),
					 &b);
			if (cancellable != NULL)
				cancel_id = g_cancellable_connect(
					cancellable,
					G_CALLBACK(sdt_cli_bench_cancelled_cb),
					&b,
					NULL);
			if (!b.done)
				g_main_loop_run(b.loop);
			if (cancel_id != 0)
				g_cancellable_disconnect(cancellable, cancel_id);
			g_signal_handlers_disconnect_by_data(b.job, &b);
		}
	}
	g_dbus_connection_signal_unsubscribe(connection, subscription);
	/* the unsubscription completes in b.context */
	for (guint i = 0; i < 100 && g_main_context_iteration(b.context, FALSE); i++)
		;
	g_main_context_pop_thread_default(b.context);

	if (error_local == NULL && b.error != NULL)
		error_local = g_steal_pointer(&b.error);
	if (error_local == NULL && b.result != NULL)
		node = sdt_cli_ops_parse(b.result, &error_local);
	g_clear_error(&b.error);
	g_clear_object(&b.job);
	g_free(b.job_path);
	g_free(b.result);
	g_main_loop_unref(b.loop);
	g_main_context_unref(b.context);
	if (node == NULL) {
		g_propagate_error(error, g_steal_pointer(&error_local));
		return NULL;
	}
	return g_steal_pointer(&node);
}

JsonNode *
sdt_cli_ops_bench(SdtCli *cli,
		  const gchar *profile,
		  const gchar *dir,
		  SdtBenchProgressFunc progress,
		  gpointer user_data,
		  GCancellable *cancellable,
		  GError **error)
{
	if (cli->ctx != NULL)
		return sdt_ops_bench(cli->ctx,
				     profile,
				     dir,
				     progress,
				     user_data,
				     cancellable,
				     error);
	if (dir != NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("--dir is only for --root mode: the helper always "
				      "benchmarks the file system on the SD card"));
		return NULL;
	}
	return sdt_cli_ops_run_job(cli,
				   sdt_manager_call_start_benchmark_sync,
				   profile,
				   progress,
				   user_data,
				   cancellable,
				   error);
}

JsonNode *
sdt_cli_ops_check(SdtCli *cli,
		  const gchar *mode,
		  const gchar *dir,
		  SdtBenchProgressFunc progress,
		  gpointer user_data,
		  GCancellable *cancellable,
		  GError **error)
{
	if (cli->ctx != NULL)
		return sdt_ops_check(cli->ctx, mode, dir, progress, user_data, cancellable, error);
	if (dir != NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("--dir is only for in-process mode (--root): the helper "
				      "always checks the file system on the SD card"));
		return NULL;
	}
	return sdt_cli_ops_run_job(cli,
				   sdt_manager_call_start_check_sync,
				   mode,
				   progress,
				   user_data,
				   cancellable,
				   error);
}
