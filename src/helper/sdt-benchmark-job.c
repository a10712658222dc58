/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-benchmark-job.h"
#include "sdt-check.h"
#include "sdt-error.h"
#include "sdt-inhibit.h"
#include "sdt-utf8.h"

/* property updates reach the bus at most this often (plus one per phase) */
#define SDT_BENCHMARK_JOB_UPDATE_INTERVAL_US (100 * G_TIME_SPAN_MILLISECOND)

struct _SdtBenchmarkJob {
	SdtJobSkeleton parent_instance;
	SdtContext *ctx;
	gchar *profile;
	gchar *bench_dir;
	gchar *starter;
	SdtOpsJobFunc func;
	SdtBenchmarkJobRunFunc run; /* instead of func, with run_data */
	gpointer run_data;
	GDestroyNotify run_destroy;
	const gchar *why;
	GCancellable *cancellable;
	GMainContext *main_ctx;
	guint watch_id;
	SdtInhibit *inhibit; /* logind's, from start to the end, cancel or dispose */
	gboolean started;
	gboolean finished;

	/* written by the worker, read in main_ctx */
	GMutex lock;
	gchar *pending_phase;
	gdouble pending_fraction;
	gdouble pending_rate;
	gboolean update_queued;
	gint64 last_update_us;
	gchar *last_phase;
};

enum { SIGNAL_FINISHED, SIGNAL_LAST };
static guint signals[SIGNAL_LAST] = {0};

static void sdt_benchmark_job_iface_init(SdtJobIface *iface);

G_DEFINE_TYPE_WITH_CODE(SdtBenchmarkJob,
			sdt_benchmark_job,
			SDT_TYPE_JOB_SKELETON,
			G_IMPLEMENT_INTERFACE(SDT_TYPE_JOB, sdt_benchmark_job_iface_init))

const gchar *
sdt_benchmark_job_get_starter(SdtBenchmarkJob *self)
{
	g_return_val_if_fail(SDT_IS_BENCHMARK_JOB(self), NULL);
	return self->starter;
}

gboolean
sdt_benchmark_job_is_finished(SdtBenchmarkJob *self)
{
	g_return_val_if_fail(SDT_IS_BENCHMARK_JOB(self), TRUE);
	return self->finished;
}

void
sdt_benchmark_job_cancel(SdtBenchmarkJob *self)
{
	g_return_if_fail(SDT_IS_BENCHMARK_JOB(self));
	g_cancellable_cancel(self->cancellable);
}

static gboolean
sdt_benchmark_job_update_cb(gpointer user_data)
{
	SdtBenchmarkJob *self = SDT_BENCHMARK_JOB(user_data);
	g_autofree gchar *phase = NULL;
	gdouble fraction;
	gdouble rate;

	g_mutex_lock(&self->lock);
	phase = g_steal_pointer(&self->pending_phase);
	fraction = self->pending_fraction;
	rate = self->pending_rate;
	self->update_queued = FALSE;
	g_mutex_unlock(&self->lock);

	/* a late update must not overwrite the final state */
	if (self->finished)
		return G_SOURCE_REMOVE;
	if (phase != NULL && g_strcmp0(phase, sdt_job_get_phase(SDT_JOB(self))) != 0)
		sdt_job_set_phase(SDT_JOB(self), phase);
	sdt_job_set_progress(SDT_JOB(self), CLAMP(fraction, 0.0, 1.0));
	sdt_job_set_rate(SDT_JOB(self), MAX(rate, 0.0));
	return G_SOURCE_REMOVE;
}

/* runs in the worker thread */
static void
sdt_benchmark_job_progress_cb(const gchar *phase,
			      gdouble fraction,
			      gdouble rate_mb_s,
			      gpointer user_data)
{
	SdtBenchmarkJob *self = SDT_BENCHMARK_JOB(user_data);
	gint64 now = g_get_monotonic_time();
	gboolean new_phase;

	g_mutex_lock(&self->lock);
	new_phase = g_strcmp0(phase, self->last_phase) != 0;
	if (new_phase) {
		g_free(self->last_phase);
		self->last_phase = g_strdup(phase);
	}
	if (new_phase || now - self->last_update_us >= SDT_BENCHMARK_JOB_UPDATE_INTERVAL_US) {
		if (new_phase || self->pending_phase == NULL) {
			g_free(self->pending_phase);
			self->pending_phase = g_strdup(phase);
		}
		self->pending_fraction = fraction;
		self->pending_rate = rate_mb_s;
		self->last_update_us = now;
		if (!self->update_queued) {
			g_autoptr(GSource) source = g_idle_source_new();
			self->update_queued = TRUE;
			g_source_set_priority(source, G_PRIORITY_DEFAULT);
			g_source_set_callback(source,
					      sdt_benchmark_job_update_cb,
					      g_object_ref(self),
					      g_object_unref);
			g_source_attach(source, self->main_ctx);
		}
	}
	g_mutex_unlock(&self->lock);
}

static void
sdt_benchmark_job_thread(GTask *task,
			 gpointer source_object,
			 gpointer task_data,
			 GCancellable *cancellable)
{
	SdtBenchmarkJob *self = SDT_BENCHMARK_JOB(source_object);
	g_autoptr(GError) error = NULL;
	gchar *result = NULL;

	if (self->run != NULL)
		result = self->run(self->ctx,
				   self->profile,
				   self->bench_dir,
				   self->run_data,
				   sdt_benchmark_job_progress_cb,
				   self,
				   cancellable,
				   &error);
	else
		result = self->func(self->ctx,
				    self->profile,
				    self->bench_dir,
				    sdt_benchmark_job_progress_cb,
				    self,
				    cancellable,
				    &error);

	/* the document's text from its codec, or the error with a valid UTF-8 message */
	if (result == NULL) {
		sdt_utf8_sanitize_error(error);
		g_task_return_error(task, g_steal_pointer(&error));
		return;
	}
	g_task_return_pointer(task, result, g_free);
}

static void
sdt_benchmark_job_done_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtBenchmarkJob *self = SDT_BENCHMARK_JOB(source);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *result = g_task_propagate_pointer(G_TASK(res), &error);
	const gchar *error_name = "";
	const gchar *error_message = "";

	self->finished = TRUE;
	g_clear_pointer(&self->inhibit, sdt_inhibit_release);
	if (self->watch_id != 0) {
		g_bus_unwatch_name(self->watch_id);
		self->watch_id = 0;
	}
	sdt_job_set_phase(SDT_JOB(self), "");
	if (result != NULL) {
		sdt_job_set_progress(SDT_JOB(self), 1.0);
		sdt_job_set_state(SDT_JOB(self), "completed");
	} else if (g_error_matches(error, SDT_ERROR, SDT_ERROR_CANCELLED) ||
		   g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
		sdt_job_set_state(SDT_JOB(self), "cancelled");
		error_name = sdt_error_to_dbus_name(SDT_ERROR_CANCELLED);
		error_message = error->message;
	} else {
		sdt_job_set_state(SDT_JOB(self), "failed");
		error_name = sdt_error_to_dbus_name(error->domain == SDT_ERROR ? error->code
									       : SDT_ERROR_FAILED);
		error_message = error->message;
	}
	g_debug("job %s: %s %s",
		g_dbus_interface_skeleton_get_object_path(G_DBUS_INTERFACE_SKELETON(self)),
		sdt_job_get_state(SDT_JOB(self)),
		error_message);
	sdt_job_emit_completed(SDT_JOB(self),
			       result != NULL ? result : "",
			       error_name,
			       error_message);
	g_signal_emit(self, signals[SIGNAL_FINISHED], 0);
}

static void
sdt_benchmark_job_starter_vanished_cb(GDBusConnection *connection,
				      const gchar *name,
				      gpointer user_data)
{
	SdtBenchmarkJob *self = SDT_BENCHMARK_JOB(user_data);
	g_debug("%s left the bus: cancelling its benchmark", name);
	g_cancellable_cancel(self->cancellable);
}

/* the inhibitor's reason (systemd-inhibit --list; logind keeps it in English) */
static const gchar *
sdt_benchmark_job_why(SdtBenchmarkJob *self)
{
	if (self->why != NULL)
		return self->why;
	if (self->func == sdt_ops_check)
		return "checking the SD card: a shutdown in the middle of its writes could "
		       "damage the data on the card";
	if (g_strcmp0(self->profile, "soak") == 0)
		return "soak-testing the SD card: a shutdown now would cut the test";
	return "benchmarking the SD card: a shutdown now would cut the measurement and "
	       "leave its test file behind";
}

void
sdt_benchmark_job_start(SdtBenchmarkJob *self, GDBusConnection *connection)
{
	g_autoptr(GTask) task = NULL;

	g_return_if_fail(SDT_IS_BENCHMARK_JOB(self));
	g_return_if_fail(!self->started);

	self->started = TRUE;
	self->inhibit = sdt_inhibit_take(connection, sdt_benchmark_job_why(self));
	if (connection != NULL && self->starter != NULL) {
		self->watch_id =
			g_bus_watch_name_on_connection(connection,
						       self->starter,
						       G_BUS_NAME_WATCHER_FLAGS_NONE,
						       NULL,
						       sdt_benchmark_job_starter_vanished_cb,
						       self,
						       NULL);
	}
	task = g_task_new(self, self->cancellable, sdt_benchmark_job_done_cb, NULL);
	g_task_set_source_tag(task, sdt_benchmark_job_start);
	/* the engine reports cancellation itself, so it must see the cancellable */
	g_task_set_check_cancellable(task, FALSE);
	g_task_run_in_thread(task, sdt_benchmark_job_thread);
}

static gboolean
sdt_benchmark_job_handle_cancel(SdtJob *job, GDBusMethodInvocation *invocation)
{
	SdtBenchmarkJob *self = SDT_BENCHMARK_JOB(job);

	if (g_strcmp0(g_dbus_method_invocation_get_sender(invocation), self->starter) != 0) {
		g_dbus_method_invocation_return_error_literal(
			invocation,
			SDT_ERROR,
			SDT_ERROR_NOT_AUTHORIZED,
			_("Only the program that started this benchmark may cancel it"));
		return G_DBUS_METHOD_INVOCATION_HANDLED;
	}
	if (self->finished) {
		g_dbus_method_invocation_return_error_literal(
			invocation,
			SDT_ERROR,
			SDT_ERROR_FAILED,
			_("The benchmark has already finished"));
		return G_DBUS_METHOD_INVOCATION_HANDLED;
	}
	g_cancellable_cancel(self->cancellable);
	sdt_job_complete_cancel(job, invocation);
	return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
sdt_benchmark_job_iface_init(SdtJobIface *iface)
{
	iface->handle_cancel = sdt_benchmark_job_handle_cancel;
}

static void
sdt_benchmark_job_dispose(GObject *object)
{
	SdtBenchmarkJob *self = SDT_BENCHMARK_JOB(object);
	g_clear_pointer(&self->inhibit, sdt_inhibit_release);
	if (self->watch_id != 0) {
		g_bus_unwatch_name(self->watch_id);
		self->watch_id = 0;
	}
	G_OBJECT_CLASS(sdt_benchmark_job_parent_class)->dispose(object);
}

static void
sdt_benchmark_job_finalize(GObject *object)
{
	SdtBenchmarkJob *self = SDT_BENCHMARK_JOB(object);
	g_clear_object(&self->ctx);
	g_clear_object(&self->cancellable);
	g_main_context_unref(self->main_ctx);
	if (self->run_destroy != NULL)
		self->run_destroy(self->run_data);
	g_free(self->profile);
	g_free(self->bench_dir);
	g_free(self->starter);
	g_free(self->pending_phase);
	g_free(self->last_phase);
	g_mutex_clear(&self->lock);
	G_OBJECT_CLASS(sdt_benchmark_job_parent_class)->finalize(object);
}

static void
sdt_benchmark_job_class_init(SdtBenchmarkJobClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	object_class->dispose = sdt_benchmark_job_dispose;
	object_class->finalize = sdt_benchmark_job_finalize;
	signals[SIGNAL_FINISHED] = g_signal_new("finished",
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
sdt_benchmark_job_init(SdtBenchmarkJob *self)
{
	g_mutex_init(&self->lock);
	self->cancellable = g_cancellable_new();
	self->main_ctx = g_main_context_ref_thread_default();
}

SdtBenchmarkJob *
sdt_benchmark_job_new(SdtContext *ctx,
		      const gchar *profile,
		      const gchar *bench_dir,
		      const gchar *starter,
		      SdtOpsJobFunc func)
{
	SdtBenchmarkJob *self = g_object_new(SDT_TYPE_BENCHMARK_JOB, NULL);

	self->ctx = g_object_ref(ctx);
	self->profile = g_strdup(profile);
	self->bench_dir = g_strdup(bench_dir);
	self->starter = g_strdup(starter);
	self->func = func;
	sdt_job_set_profile(SDT_JOB(self), profile);
	sdt_job_set_state(SDT_JOB(self), "running");
	sdt_job_set_phase(SDT_JOB(self), "prepare");
	sdt_job_set_progress(SDT_JOB(self), 0.0);
	sdt_job_set_rate(SDT_JOB(self), 0.0);
	return self;
}

SdtBenchmarkJob *
sdt_benchmark_job_new_full(SdtContext *ctx,
			   const gchar *profile,
			   const gchar *dir,
			   const gchar *starter,
			   SdtBenchmarkJobRunFunc run,
			   gpointer data,
			   GDestroyNotify destroy,
			   const gchar *why)
{
	SdtBenchmarkJob *self = sdt_benchmark_job_new(ctx, profile, dir, starter, NULL);

	self->run = run;
	self->run_data = data;
	self->run_destroy = destroy;
	self->why = why;
	return self;
}
