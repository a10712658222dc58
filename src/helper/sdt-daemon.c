/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include <sys/stat.h>

#include "sdt-authority.h"
#include "sdt-caller-dir.h"
#include "sdt-check.h"
#include "sdt-daemon.h"
#include "sdt-daemon-jobs.h"
#include "sdt-error.h"
#include "sdt-utf8.h"
#include "sdt-health.h"
#include "sdt-ops.h"
#include "sdt-options.h"
#include "sdt-soak.h"

/* a finished job stays on the bus this long, so a late client can read it */
#define SDT_DAEMON_JOB_LINGER_S 5

struct _SdtDaemon {
	GObject parent_instance;
	SdtContext *ctx;
	gchar *bench_dir;
	SdtManager *manager;
	SdtAuthority *authority;
	GDBusConnection *connection;
	GHashTable *jobs;           /* object path -> SdtBenchmarkJob, exported */
	SdtBenchmarkJob *bench_job; /* the running benchmark, or NULL */
	guint job_counter;
	guint busy;         /* calls in progress + running jobs */
	GMutex config_lock; /* Apply, Revert, GetStatus */
};

G_DEFINE_TYPE(SdtDaemon, sdt_daemon, G_TYPE_OBJECT)

enum { SIGNAL_BUSY_CHANGED, SIGNAL_LAST };
static guint signals[SIGNAL_LAST] = {0};

typedef enum {
	SDT_DAEMON_OP_INFO,
	SDT_DAEMON_OP_RECOMMEND,
	SDT_DAEMON_OP_STATUS,
	SDT_DAEMON_OP_HISTORY,
	SDT_DAEMON_OP_APPLY,
	SDT_DAEMON_OP_REVERT,
	SDT_DAEMON_OP_BENCHMARK,
	SDT_DAEMON_OP_CHECK,
	SDT_DAEMON_OP_HEALTH,
	SDT_DAEMON_OP_DEVICES,
	SDT_DAEMON_OP_SOAK,
	SDT_DAEMON_OP_VERIFY,
} SdtDaemonOp;

/* one method call on its way through validation, polkit and the worker */
typedef struct {
	SdtDaemon *daemon;
	GDBusMethodInvocation *invocation;
	SdtDaemonOp op;
	gchar *arg; /* recommendation id or profile */
	gboolean trial;
	gchar *dir;      /* StartCheck's "dir" option, or NULL */
	gchar *device;   /* StartCheck's, StartBenchmark's "device" option, or NULL */
	gchar *confirm;  /* their "destroy_data_on" option (the same device again), or NULL */
	guint64 size;    /* StartSoak's */
	gdouble seconds; /* StartSoak's, StartVerify's soak_seconds (-1: default) */
} SdtDaemonCall;

static void
sdt_daemon_busy_inc(SdtDaemon *self)
{
	if (self->busy++ == 0)
		g_signal_emit(self, signals[SIGNAL_BUSY_CHANGED], 0);
}

static void
sdt_daemon_busy_dec(SdtDaemon *self)
{
	g_return_if_fail(self->busy > 0);
	if (--self->busy == 0)
		g_signal_emit(self, signals[SIGNAL_BUSY_CHANGED], 0);
}

gboolean
sdt_daemon_is_busy(SdtDaemon *self)
{
	g_return_val_if_fail(SDT_IS_DAEMON(self), FALSE);
	return self->busy > 0;
}

static SdtDaemonCall *
sdt_daemon_call_new(SdtDaemon *self,
		    GDBusMethodInvocation *invocation,
		    SdtDaemonOp op,
		    const gchar *arg)
{
	SdtDaemonCall *call = g_new0(SdtDaemonCall, 1);
	call->daemon = g_object_ref(self);
	call->invocation = g_object_ref(invocation);
	call->op = op;
	call->arg = g_strdup(arg);
	sdt_daemon_busy_inc(self);
	return call;
}

static void
sdt_daemon_call_free(SdtDaemonCall *call)
{
	sdt_daemon_busy_dec(call->daemon);
	g_object_unref(call->daemon);
	g_object_unref(call->invocation);
	g_free(call->arg);
	g_free(call->dir);
	g_free(call->device);
	g_free(call->confirm);
	g_free(call);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtDaemonCall, sdt_daemon_call_free)

/* every error leaves as org.example.SdTuner1.Error.* */
static void
sdt_daemon_return_error(GDBusMethodInvocation *invocation, const GError *error_in)
{
	/* a message may quote config.txt: a D-Bus string must be valid UTF-8 */
	g_autoptr(GError) error = g_error_copy(error_in);

	sdt_utf8_sanitize_error(error);
	if (error->domain == SDT_ERROR) {
		g_dbus_method_invocation_return_gerror(invocation, error);
		return;
	}
	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
		g_dbus_method_invocation_return_error_literal(invocation,
							      SDT_ERROR,
							      SDT_ERROR_CANCELLED,
							      error->message);
		return;
	}
	g_dbus_method_invocation_return_error_literal(invocation,
						      SDT_ERROR,
						      SDT_ERROR_FAILED,
						      error->message);
}

static gchar *
sdt_daemon_run_op(SdtDaemon *self, SdtDaemonCall *call, GError **error)
{
	switch (call->op) {
	case SDT_DAEMON_OP_INFO:
		return sdt_ops_info(self->ctx, error);
	case SDT_DAEMON_OP_RECOMMEND:
		return sdt_ops_config_recommend(self->ctx, error);
	case SDT_DAEMON_OP_HISTORY:
		return sdt_ops_history(self->ctx, error);
	case SDT_DAEMON_OP_HEALTH:
		return sdt_ops_health(self->ctx, error);
	case SDT_DAEMON_OP_DEVICES:
		return sdt_ops_devices(self->ctx, error);
	case SDT_DAEMON_OP_STATUS: {
		g_autoptr(GMutexLocker) locker G_GNUC_UNUSED =
			g_mutex_locker_new(&self->config_lock);
		return sdt_ops_status(self->ctx, error);
	}
	case SDT_DAEMON_OP_APPLY: {
		g_autoptr(GMutexLocker) locker G_GNUC_UNUSED =
			g_mutex_locker_new(&self->config_lock);
		return sdt_ops_config_apply(self->ctx, call->arg, call->trial, error);
	}
	case SDT_DAEMON_OP_REVERT: {
		g_autoptr(GMutexLocker) locker G_GNUC_UNUSED =
			g_mutex_locker_new(&self->config_lock);
		return sdt_ops_config_revert(self->ctx, error);
	}
	default:
		break;
	}
	g_set_error(error, SDT_ERROR, SDT_ERROR_FAILED, _("operation %d has no worker"), call->op);
	return NULL;
}

static void
sdt_daemon_op_thread(GTask *task, gpointer source_object, gpointer task_data, GCancellable *c)
{
	SdtDaemon *self = SDT_DAEMON(source_object);
	SdtDaemonCall *call = task_data;
	g_autoptr(GError) error = NULL;
	gchar *text = sdt_daemon_run_op(self, call, &error);

	if (text == NULL) {
		sdt_utf8_sanitize_error(error); /* it goes out over D-Bus */
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	g_task_return_pointer(task, text, g_free);
}

static void
sdt_daemon_op_done_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtDaemonCall *call = g_task_get_task_data(G_TASK(res));
	g_autoptr(GError) error = NULL;
	g_autofree gchar *json = g_task_propagate_pointer(G_TASK(res), &error);

	if (json == NULL) {
		g_debug("%s from %s failed: %s",
			g_dbus_method_invocation_get_method_name(call->invocation),
			g_dbus_method_invocation_get_sender(call->invocation),
			error->message);
		sdt_daemon_return_error(call->invocation, error);
		return;
	}
	g_dbus_method_invocation_return_value(call->invocation, g_variant_new("(s)", json));
}

static void
sdt_daemon_run_in_thread(SdtDaemon *self, SdtDaemonCall *call)
{
	g_autoptr(GTask) task = g_task_new(self, NULL, sdt_daemon_op_done_cb, NULL);
	g_task_set_source_tag(task, sdt_daemon_run_in_thread);
	g_task_set_task_data(task, call, (GDestroyNotify) sdt_daemon_call_free);
	g_task_run_in_thread(task, sdt_daemon_op_thread);
}

/* @skeleton off the bus, if it is on it: a helper that never got a bus (none
 * running) exported nothing, and GLib is critical of unexporting that (issue 33) */
static void
sdt_daemon_unexport_skeleton(GDBusInterfaceSkeleton *skeleton)
{
	if (g_dbus_interface_skeleton_get_connection(skeleton) != NULL)
		g_dbus_interface_skeleton_unexport(skeleton);
}

static gboolean
sdt_daemon_unexport_job_cb(gpointer user_data)
{
	SdtBenchmarkJob *job = SDT_BENCHMARK_JOB(user_data);
	SdtDaemon *self = g_object_get_data(G_OBJECT(job), "sdt-daemon");
	g_autofree gchar *path =
		g_strdup(g_dbus_interface_skeleton_get_object_path(G_DBUS_INTERFACE_SKELETON(job)));

	sdt_daemon_unexport_skeleton(G_DBUS_INTERFACE_SKELETON(job));
	if (self != NULL && path != NULL)
		g_hash_table_remove(self->jobs, path);
	return G_SOURCE_REMOVE;
}

static void
sdt_daemon_job_finished_cb(SdtBenchmarkJob *job, SdtDaemon *self)
{
	if (self->bench_job == job)
		self->bench_job = NULL;
	g_timeout_add_seconds_full(G_PRIORITY_DEFAULT,
				   SDT_DAEMON_JOB_LINGER_S,
				   sdt_daemon_unexport_job_cb,
				   g_object_ref(job),
				   g_object_unref);
	sdt_daemon_busy_dec(self);
}

/* the job of @call: a benchmark or a check, or one of issue 32 (sdt-daemon-jobs.c) */
static SdtBenchmarkJob *
sdt_daemon_job_new(SdtDaemon *self, SdtDaemonCall *call, const gchar *sender)
{
	switch (call->op) {
	case SDT_DAEMON_OP_SOAK:
		return sdt_daemon_jobs_soak(self->ctx,
					    self->bench_dir,
					    sender,
					    call->size,
					    call->seconds);
	case SDT_DAEMON_OP_VERIFY:
		return sdt_daemon_jobs_verify(self->ctx, sender, call->seconds);
	case SDT_DAEMON_OP_CHECK:
		if (call->device != NULL)
			return sdt_daemon_jobs_check_device(self->ctx,
							    call->arg,
							    call->device,
							    call->confirm,
							    sender);
		if (call->dir != NULL)
			return sdt_daemon_jobs_check_dir(
				self->ctx,
				call->arg,
				call->dir,
				sender,
				g_object_get_data(G_OBJECT(call->invocation), "sdt-check-dir"));
		return sdt_benchmark_job_new(self->ctx,
					     call->arg,
					     self->bench_dir,
					     sender,
					     sdt_ops_check);
	default:
		return sdt_daemon_jobs_bench(self->ctx,
					     call->arg,
					     self->bench_dir,
					     call->device,
					     call->confirm,
					     sender);
	}
}

static void
sdt_daemon_start_benchmark(SdtDaemon *self, SdtDaemonCall *call)
{
	const gchar *sender = g_dbus_method_invocation_get_sender(call->invocation);
	g_autoptr(SdtBenchmarkJob) job = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *path = NULL;

	/* one job writes to the card at a time: a benchmark or a check */
	if (self->bench_job != NULL) {
		const gchar *running = g_dbus_interface_skeleton_get_object_path(
			G_DBUS_INTERFACE_SKELETON(self->bench_job));
		if (call->op != SDT_DAEMON_OP_BENCHMARK)
			g_dbus_method_invocation_return_error(
				call->invocation,
				SDT_ERROR,
				SDT_ERROR_BUSY,
				/* Translators: %s is a D-Bus object path */
				_("A benchmark or check of the card is already running (%s); wait "
				  "until it has finished"),
				running);
		else
			g_dbus_method_invocation_return_error(
				call->invocation,
				SDT_ERROR,
				SDT_ERROR_BUSY,
				/* Translators: %s is a D-Bus object path */
				_("A benchmark is already running (%s); wait until it has "
				  "finished"),
				running);
		return;
	}
	job = sdt_daemon_job_new(self, call, sender);
	path = g_strdup_printf("%s/%u", SDT_JOBS_PATH, ++self->job_counter);
	if (!g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(job),
					      self->connection,
					      path,
					      &error)) {
		g_prefix_error(&error, _("could not export %s: "), path);
		sdt_daemon_return_error(call->invocation, error);
		return;
	}
	g_object_set_data(G_OBJECT(job), "sdt-daemon", self);
	g_hash_table_insert(self->jobs, g_strdup(path), g_object_ref(job));
	self->bench_job = job;
	sdt_daemon_busy_inc(self);
	g_signal_connect(job, "finished", G_CALLBACK(sdt_daemon_job_finished_cb), self);
	g_debug("job %s (%s%s%s) started for %s",
		path,
		call->arg,
		call->dir != NULL ? " in " : "",
		call->dir != NULL ? call->dir : "",
		sender);
	/* the reply goes out before any signal of the job */
	if (call->op == SDT_DAEMON_OP_CHECK)
		sdt_manager_complete_start_check(self->manager, call->invocation, path);
	else if (call->op == SDT_DAEMON_OP_SOAK)
		sdt_manager_complete_start_soak(self->manager, call->invocation, path);
	else if (call->op == SDT_DAEMON_OP_VERIFY)
		sdt_manager_complete_start_verify(self->manager, call->invocation, path);
	else
		sdt_manager_complete_start_benchmark(self->manager, call->invocation, path);
	sdt_benchmark_job_start(job, self->connection);
}

/* the caller's folder, now that polkit said yes: whose is it (the bus says who
 * the caller is), and may the caller have root write in it */
static void
sdt_daemon_check_dir_uid_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(SdtDaemonCall) call = user_data;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply = NULL;
	SdtDaemonJobsCheckDir *checked;
	struct stat st;
	guint32 uid;

	reply = g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &error);
	if (reply == NULL) {
		g_dbus_error_strip_remote_error(error);
		g_prefix_error(&error, _("Cannot tell who the caller is: "));
		sdt_daemon_return_error(call->invocation, error);
		return;
	}
	g_variant_get(reply, "(u)", &uid);
	if (!sdt_caller_dir_check(call->dir, (uid_t) uid, &st, &error)) {
		g_debug("StartCheck from %s (uid %u): %s refused: %s",
			g_dbus_method_invocation_get_sender(call->invocation),
			uid,
			call->dir,
			error->message);
		sdt_daemon_return_error(call->invocation, error);
		return;
	}
	checked = g_new0(SdtDaemonJobsCheckDir, 1);
	checked->uid = (uid_t) uid;
	checked->dev = st.st_dev;
	checked->ino = st.st_ino;
	g_object_set_data_full(G_OBJECT(call->invocation), "sdt-check-dir", checked, g_free);
	sdt_daemon_start_benchmark(call->daemon, call);
}

static void
sdt_daemon_check_dir_caller(SdtDaemon *self, SdtDaemonCall *call)
{
	g_dbus_connection_call(
		g_dbus_method_invocation_get_connection(call->invocation),
		"org.freedesktop.DBus",
		"/org/freedesktop/DBus",
		"org.freedesktop.DBus",
		"GetConnectionUnixUser",
		g_variant_new("(s)", g_dbus_method_invocation_get_sender(call->invocation)),
		G_VARIANT_TYPE("(u)"),
		G_DBUS_CALL_FLAGS_NONE,
		-1,
		NULL,
		sdt_daemon_check_dir_uid_cb,
		call);
}

static void
sdt_daemon_authorized_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(SdtDaemonCall) call = user_data;
	SdtDaemon *self = call->daemon;
	g_autoptr(GError) error = NULL;

	if (!sdt_authority_check_finish(SDT_AUTHORITY(source), res, &error)) {
		g_debug("%s refused for %s: %s",
			g_dbus_method_invocation_get_method_name(call->invocation),
			g_dbus_method_invocation_get_sender(call->invocation),
			error->message);
		sdt_daemon_return_error(call->invocation, error);
		return;
	}
	if (call->op == SDT_DAEMON_OP_CHECK && call->dir != NULL) {
		sdt_daemon_check_dir_caller(self, g_steal_pointer(&call));
		return;
	}
	if (call->op == SDT_DAEMON_OP_BENCHMARK || call->op == SDT_DAEMON_OP_CHECK ||
	    call->op == SDT_DAEMON_OP_SOAK || call->op == SDT_DAEMON_OP_VERIFY) {
		sdt_daemon_start_benchmark(self, call);
		return;
	}
	sdt_daemon_run_in_thread(self, g_steal_pointer(&call));
}

/* polkit first, then the work; @call is consumed */
static void
sdt_daemon_authorize(SdtDaemon *self,
		     SdtDaemonCall *call,
		     const gchar *action_id,
		     GVariant *options)
{
	g_autoptr(GError) error = NULL;
	gboolean no_interaction = FALSE;

	if (!sdt_options_lookup_boolean(options,
					SDT_OPTION_NO_USER_INTERACTION,
					FALSE,
					&no_interaction,
					&error)) {
		sdt_daemon_return_error(call->invocation, error);
		sdt_daemon_call_free(call);
		return;
	}
	sdt_authority_check_async(self->authority,
				  g_dbus_method_invocation_get_sender(call->invocation),
				  action_id,
				  !no_interaction,
				  NULL,
				  sdt_daemon_authorized_cb,
				  call);
}

/* the read-only methods: no authorization, the operation in a worker thread */
#define SDT_DAEMON_HANDLE_READ(name, op)                                                         \
	static gboolean sdt_daemon_handle_##name(SdtManager *manager,                            \
						 GDBusMethodInvocation *invocation,              \
						 GVariant *options,                              \
						 SdtDaemon *self)                                \
	{                                                                                        \
		sdt_daemon_run_in_thread(self, sdt_daemon_call_new(self, invocation, op, NULL)); \
		return G_DBUS_METHOD_INVOCATION_HANDLED;                                         \
	}

SDT_DAEMON_HANDLE_READ(get_info, SDT_DAEMON_OP_INFO)
SDT_DAEMON_HANDLE_READ(get_recommendations, SDT_DAEMON_OP_RECOMMEND)
SDT_DAEMON_HANDLE_READ(get_status, SDT_DAEMON_OP_STATUS)
SDT_DAEMON_HANDLE_READ(get_history, SDT_DAEMON_OP_HISTORY)
SDT_DAEMON_HANDLE_READ(get_health, SDT_DAEMON_OP_HEALTH)
SDT_DAEMON_HANDLE_READ(get_devices, SDT_DAEMON_OP_DEVICES)

static gboolean
sdt_daemon_handle_start_benchmark(SdtManager *manager,
				  GDBusMethodInvocation *invocation,
				  const gchar *profile,
				  GVariant *options,
				  SdtDaemon *self)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *device = NULL;
	g_autofree gchar *confirm = NULL;
	SdtDaemonCall *call;

	if (!sdt_options_check_profile(profile, &error) ||
	    !sdt_options_lookup_device(options, &device, &confirm, &error)) {
		sdt_daemon_return_error(invocation, error);
		return G_DBUS_METHOD_INVOCATION_HANDLED;
	}
	call = sdt_daemon_call_new(self, invocation, SDT_DAEMON_OP_BENCHMARK, profile);
	call->device = g_steal_pointer(&device);
	call->confirm = g_steal_pointer(&confirm);
	/* issue 34: a whole card is not the system's: check-device's admin, docs/DESIGN.md */
	sdt_daemon_authorize(self,
			     call,
			     call->device != NULL ? SDT_ACTION_CHECK_DEVICE : SDT_ACTION_BENCHMARK,
			     options);
	return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
sdt_daemon_handle_start_check(SdtManager *manager,
			      GDBusMethodInvocation *invocation,
			      const gchar *mode,
			      GVariant *options,
			      SdtDaemon *self)
{
	g_autoptr(GError) error = NULL;
	SdtCheckMode check_mode;

	g_autofree gchar *dir = NULL;
	g_autofree gchar *device = NULL;
	g_autofree gchar *confirm = NULL;
	SdtDaemonCall *call;

	if (!sdt_check_config_mode_from_string(mode, &check_mode, &error) ||
	    !sdt_options_lookup_path(options, SDT_OPTION_DIR, &dir, &error) ||
	    !sdt_options_lookup_device(options, &device, &confirm, &error)) {
		sdt_daemon_return_error(invocation, error);
		return G_DBUS_METHOD_INVOCATION_HANDLED;
	}
	if (dir != NULL && device != NULL) {
		g_set_error_literal(&error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("Name a folder or a device to check, not both"));
		sdt_daemon_return_error(invocation, error);
		return G_DBUS_METHOD_INVOCATION_HANDLED;
	}
	call = sdt_daemon_call_new(self, invocation, SDT_DAEMON_OP_CHECK, mode);
	call->dir = g_steal_pointer(&dir);
	call->device = g_steal_pointer(&device);
	call->confirm = g_steal_pointer(&confirm);
	/* a whole card in a reader: an action of its own (the admin, kept a while) */
	sdt_daemon_authorize(self,
			     call,
			     call->device != NULL ? SDT_ACTION_CHECK_DEVICE : SDT_ACTION_CHECK,
			     options);
	return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* issue 32: `sdtunerctl bench -p soak` for a user, a benchmark to polkit */
static gboolean
sdt_daemon_handle_start_soak(SdtManager *manager,
			     GDBusMethodInvocation *invocation,
			     GVariant *options,
			     SdtDaemon *self)
{
	g_autoptr(GError) error = NULL;
	SdtDaemonCall *call;
	guint64 size;
	gdouble seconds;

	if (!sdt_options_lookup_uint64(options,
				       SDT_OPTION_SIZE,
				       SDT_SOAK_DEFAULT_SIZE,
				       &size,
				       &error) ||
	    !sdt_options_lookup_double(options,
				       SDT_OPTION_SECONDS,
				       SDT_SOAK_DEFAULT_SECONDS,
				       &seconds,
				       &error) ||
	    !sdt_soak_check_args(size, seconds, &error)) {
		sdt_daemon_return_error(invocation, error);
		return G_DBUS_METHOD_INVOCATION_HANDLED;
	}
	call = sdt_daemon_call_new(self, invocation, SDT_DAEMON_OP_SOAK, "soak");
	call->size = size;
	call->seconds = seconds;
	sdt_daemon_authorize(self, call, SDT_ACTION_BENCHMARK, options);
	return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* issue 32: `sdtunerctl verify` for a user; it may rewrite config.txt */
static gboolean
sdt_daemon_handle_start_verify(SdtManager *manager,
			       GDBusMethodInvocation *invocation,
			       GVariant *options,
			       SdtDaemon *self)
{
	g_autoptr(GError) error = NULL;
	SdtDaemonCall *call;
	gdouble seconds;

	if (!sdt_options_lookup_double(options, SDT_OPTION_SOAK_SECONDS, -1, &seconds, &error)) {
		sdt_daemon_return_error(invocation, error);
		return G_DBUS_METHOD_INVOCATION_HANDLED;
	}
	/* absent: the default; given: as `verify --soak-seconds` takes it */
	if (seconds != -1 && !(seconds >= 0 && seconds <= 24 * 3600)) {
		g_set_error_literal(&error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("Option “soak_seconds” must be from 0 to 86400"));
		sdt_daemon_return_error(invocation, error);
		return G_DBUS_METHOD_INVOCATION_HANDLED;
	}
	call = sdt_daemon_call_new(self, invocation, SDT_DAEMON_OP_VERIFY, "verify");
	call->seconds = seconds;
	sdt_daemon_authorize(self, call, SDT_ACTION_MODIFY_BOOT_CONFIG, options);
	return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
sdt_daemon_handle_apply(SdtManager *manager,
			GDBusMethodInvocation *invocation,
			const gchar *id,
			GVariant *options,
			SdtDaemon *self)
{
	g_autoptr(GError) error = NULL;
	SdtDaemonCall *call;
	gboolean trial = FALSE;

	if (!sdt_options_check_id(id, &error) ||
	    !sdt_options_lookup_boolean(options, SDT_OPTION_TRIAL, FALSE, &trial, &error)) {
		sdt_daemon_return_error(invocation, error);
		return G_DBUS_METHOD_INVOCATION_HANDLED;
	}
	call = sdt_daemon_call_new(self, invocation, SDT_DAEMON_OP_APPLY, id);
	call->trial = trial;
	sdt_daemon_authorize(self, call, SDT_ACTION_MODIFY_BOOT_CONFIG, options);
	return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
sdt_daemon_handle_revert(SdtManager *manager,
			 GDBusMethodInvocation *invocation,
			 GVariant *options,
			 SdtDaemon *self)
{
	sdt_daemon_authorize(self,
			     sdt_daemon_call_new(self, invocation, SDT_DAEMON_OP_REVERT, NULL),
			     SDT_ACTION_MODIFY_BOOT_CONFIG,
			     options);
	return G_DBUS_METHOD_INVOCATION_HANDLED;
}

gboolean
sdt_daemon_export(SdtDaemon *self, GDBusConnection *connection, GError **error)
{
	g_return_val_if_fail(SDT_IS_DAEMON(self), FALSE);
	g_set_object(&self->connection, connection);
	if (!g_dbus_interface_skeleton_export(G_DBUS_INTERFACE_SKELETON(self->manager),
					      connection,
					      SDT_MANAGER_PATH,
					      error)) {
		g_prefix_error(error, _("could not export %s: "), SDT_MANAGER_PATH);
		return FALSE;
	}
	return TRUE;
}

void
sdt_daemon_unexport(SdtDaemon *self)
{
	GHashTableIter iter;
	gpointer job;

	g_return_if_fail(SDT_IS_DAEMON(self));
	if (self->bench_job != NULL)
		sdt_benchmark_job_cancel(self->bench_job);
	g_hash_table_iter_init(&iter, self->jobs);
	while (g_hash_table_iter_next(&iter, NULL, &job))
		sdt_daemon_unexport_skeleton(G_DBUS_INTERFACE_SKELETON(job));
	sdt_daemon_unexport_skeleton(G_DBUS_INTERFACE_SKELETON(self->manager));
}

static void
sdt_daemon_finalize(GObject *object)
{
	SdtDaemon *self = SDT_DAEMON(object);
	GHashTableIter iter;
	gpointer job;

	g_hash_table_iter_init(&iter, self->jobs);
	while (g_hash_table_iter_next(&iter, NULL, &job)) {
		g_signal_handlers_disconnect_by_data(job, self);
		g_object_set_data(G_OBJECT(job), "sdt-daemon", NULL);
	}
	g_hash_table_unref(self->jobs);
	g_clear_object(&self->manager);
	g_clear_object(&self->authority);
	g_clear_object(&self->connection);
	g_clear_object(&self->ctx);
	g_free(self->bench_dir);
	g_mutex_clear(&self->config_lock);
	G_OBJECT_CLASS(sdt_daemon_parent_class)->finalize(object);
}

static void
sdt_daemon_class_init(SdtDaemonClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = sdt_daemon_finalize;
	signals[SIGNAL_BUSY_CHANGED] = g_signal_new("busy-changed",
						    G_TYPE_FROM_CLASS(klass),
						    G_SIGNAL_RUN_LAST,
						    0,
						    NULL,
						    NULL,
						    NULL,
						    G_TYPE_NONE,
						    0);
}

static void
sdt_daemon_init(SdtDaemon *self)
{
	g_mutex_init(&self->config_lock);
	self->jobs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_object_unref);
	self->authority = sdt_authority_new();
	self->manager = sdt_manager_skeleton_new();
}

SdtDaemon *
sdt_daemon_new(SdtContext *ctx, const gchar *bench_dir)
{
	SdtDaemon *self = g_object_new(SDT_TYPE_DAEMON, NULL);

	self->ctx = g_object_ref(ctx);
	self->bench_dir = g_strdup(bench_dir);
	sdt_manager_set_version(self->manager, PACKAGE_VERSION);
	sdt_manager_set_simulated(self->manager, sdt_context_is_simulated(ctx));
	g_signal_connect(self->manager,
			 "handle-get-info",
			 G_CALLBACK(sdt_daemon_handle_get_info),
			 self);
	g_signal_connect(self->manager,
			 "handle-get-recommendations",
			 G_CALLBACK(sdt_daemon_handle_get_recommendations),
			 self);
	g_signal_connect(self->manager,
			 "handle-get-status",
			 G_CALLBACK(sdt_daemon_handle_get_status),
			 self);
	g_signal_connect(self->manager,
			 "handle-get-history",
			 G_CALLBACK(sdt_daemon_handle_get_history),
			 self);
	g_signal_connect(self->manager,
			 "handle-start-benchmark",
			 G_CALLBACK(sdt_daemon_handle_start_benchmark),
			 self);
	g_signal_connect(self->manager,
			 "handle-get-health",
			 G_CALLBACK(sdt_daemon_handle_get_health),
			 self);
	g_signal_connect(self->manager,
			 "handle-start-check",
			 G_CALLBACK(sdt_daemon_handle_start_check),
			 self);
	g_signal_connect(self->manager,
			 "handle-start-soak",
			 G_CALLBACK(sdt_daemon_handle_start_soak),
			 self);
	g_signal_connect(self->manager,
			 "handle-start-verify",
			 G_CALLBACK(sdt_daemon_handle_start_verify),
			 self);
	g_signal_connect(self->manager, "handle-apply", G_CALLBACK(sdt_daemon_handle_apply), self);
	g_signal_connect(self->manager,
			 "handle-revert",
			 G_CALLBACK(sdt_daemon_handle_revert),
			 self);
	g_signal_connect(self->manager,
			 "handle-get-devices",
			 G_CALLBACK(sdt_daemon_handle_get_devices),
			 self);
	return self;
}
