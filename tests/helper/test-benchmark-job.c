/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * The job's thread handling: progress from the worker reaches the properties
 * in the main context, coalesced; Completed carries the result or the error.
 * The engine is replaced by functions that report progress on a schedule
 * this test controls (the real engine's timing depends on the disk, so it
 * cannot show the coalescing); tests/integration runs the real one.
 */

#include "config.h"

#include "sdt-benchmark-job.h"
#include "sdt-error.h"

typedef struct {
	GMainLoop *loop;
	guint progress_notifies;
	GPtrArray *phases;
	gchar *result;
	gchar *error_name;
	gchar *error_message;
	gboolean finished;
	GThread *main_thread;
	gboolean notified_off_main_thread;
} TestJob;

/* 2000 callbacks in about 1 s over three phases */
static gchar *
test_engine_ok(SdtContext *ctx,
	       const gchar *profile,
	       const gchar *dir,
	       SdtBenchProgressFunc progress,
	       gpointer user_data,
	       GCancellable *cancellable,
	       GError **error)
{
	const gchar *phases[] = {"prepare", "seq-write", "seq-read"};

	for (guint i = 0; i < 2000; i++) {
		progress(phases[i * 3 / 2000], i / 2000.0, (gdouble) i, user_data);
		g_usleep(500);
	}
	/* the document's text, as the ops give it */
	return g_strdup_printf("{\"profile\":\"%s\"}", profile);
}

static gchar *
test_engine_until_cancelled(SdtContext *ctx,
			    const gchar *profile,
			    const gchar *dir,
			    SdtBenchProgressFunc progress,
			    gpointer user_data,
			    GCancellable *cancellable,
			    GError **error)
{
	for (guint i = 0; i < 10000; i++) {
		if (g_cancellable_is_cancelled(cancellable)) {
			g_set_error_literal(error,
					    SDT_ERROR,
					    SDT_ERROR_CANCELLED,
					    "benchmark cancelled");
			return NULL;
		}
		progress("seq-write", 0.1, 1.0, user_data);
		g_usleep(1000);
	}
	g_set_error_literal(error, SDT_ERROR, SDT_ERROR_FAILED, "never cancelled");
	return NULL;
}

static gchar *
test_engine_no_card(SdtContext *ctx,
		    const gchar *profile,
		    const gchar *dir,
		    SdtBenchProgressFunc progress,
		    gpointer user_data,
		    GCancellable *cancellable,
		    GError **error)
{
	g_set_error_literal(error, SDT_ERROR, SDT_ERROR_NOT_FOUND, "no SD card found");
	return NULL;
}

static void
test_job_notify_cb(GObject *object, GParamSpec *pspec, TestJob *t)
{
	if (g_thread_self() != t->main_thread)
		t->notified_off_main_thread = TRUE;
	if (g_strcmp0(pspec->name, "progress") == 0)
		t->progress_notifies++;
	/* GObject notifies on every set; record the changes */
	if (g_strcmp0(pspec->name, "phase") == 0) {
		const gchar *phase = sdt_job_get_phase(SDT_JOB(object));
		if (t->phases->len == 0 ||
		    g_strcmp0(g_ptr_array_index(t->phases, t->phases->len - 1), phase) != 0)
			g_ptr_array_add(t->phases, g_strdup(phase));
	}
}

static void
test_job_completed_cb(SdtJob *job,
		      const gchar *result,
		      const gchar *error_name,
		      const gchar *error_message,
		      TestJob *t)
{
	t->result = g_strdup(result);
	t->error_name = g_strdup(error_name);
	t->error_message = g_strdup(error_message);
}

static void
test_job_finished_cb(SdtBenchmarkJob *job, TestJob *t)
{
	t->finished = TRUE;
	g_main_loop_quit(t->loop);
}

static gboolean
test_job_cancel_cb(gpointer user_data)
{
	sdt_benchmark_job_cancel(SDT_BENCHMARK_JOB(user_data));
	return G_SOURCE_REMOVE;
}

static SdtBenchmarkJob *
test_job_run(TestJob *t, SdtOpsJobFunc func, gboolean cancel_soon)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtContext) ctx = sdt_context_new("/", &error);
	SdtBenchmarkJob *job = sdt_benchmark_job_new(ctx, "quick", NULL, ":1.42", func);

	g_assert_no_error(error);
	t->loop = g_main_loop_new(NULL, FALSE);
	t->phases = g_ptr_array_new_with_free_func(g_free);
	t->main_thread = g_thread_self();
	g_assert_cmpstr(sdt_job_get_state(SDT_JOB(job)), ==, "running");
	g_assert_cmpstr(sdt_job_get_profile(SDT_JOB(job)), ==, "quick");
	g_assert_cmpstr(sdt_benchmark_job_get_starter(job), ==, ":1.42");
	g_signal_connect(job, "notify", G_CALLBACK(test_job_notify_cb), t);
	g_signal_connect(job, "completed", G_CALLBACK(test_job_completed_cb), t);
	g_signal_connect(job, "finished", G_CALLBACK(test_job_finished_cb), t);
	sdt_benchmark_job_start(job, NULL);
	if (cancel_soon)
		g_timeout_add(50, test_job_cancel_cb, job);
	g_main_loop_run(t->loop);
	g_assert_true(t->finished);
	g_assert_true(sdt_benchmark_job_is_finished(job));
	return job;
}

static void
test_job_clear(TestJob *t)
{
	g_main_loop_unref(t->loop);
	g_ptr_array_unref(t->phases);
	g_free(t->result);
	g_free(t->error_name);
	g_free(t->error_message);
}

static void
test_benchmark_job_progress_is_coalesced(void)
{
	TestJob t = {NULL};
	g_autoptr(SdtBenchmarkJob) job = test_job_run(&t, test_engine_ok, FALSE);

	g_assert_false(t.notified_off_main_thread);
	/* 2000 callbacks over ~1 s at most every 100 ms, plus phase changes: the
	 * bound leaves room for a slow machine (the run takes longer there) */
	g_assert_cmpuint(t.progress_notifies, >=, 3);
	g_assert_cmpuint(t.progress_notifies, <, 100);
	/* every phase change is seen, in order, then "" at the end ("prepare"
	 * was already set when the job was made) */
	g_assert_cmpuint(t.phases->len, ==, 3);
	g_assert_cmpstr(g_ptr_array_index(t.phases, 0), ==, "seq-write");
	g_assert_cmpstr(g_ptr_array_index(t.phases, 1), ==, "seq-read");
	g_assert_cmpstr(g_ptr_array_index(t.phases, 2), ==, "");
	g_assert_cmpstr(sdt_job_get_state(SDT_JOB(job)), ==, "completed");
	g_assert_cmpfloat(sdt_job_get_progress(SDT_JOB(job)), ==, 1.0);
	g_assert_cmpstr(t.result, ==, "{\"profile\":\"quick\"}");
	g_assert_cmpstr(t.error_name, ==, "");
	g_assert_cmpstr(t.error_message, ==, "");
	test_job_clear(&t);
}

static void
test_benchmark_job_cancel(void)
{
	TestJob t = {NULL};
	g_autoptr(SdtBenchmarkJob) job = test_job_run(&t, test_engine_until_cancelled, TRUE);

	g_assert_cmpstr(sdt_job_get_state(SDT_JOB(job)), ==, "cancelled");
	g_assert_cmpstr(sdt_job_get_phase(SDT_JOB(job)), ==, "");
	g_assert_cmpstr(t.result, ==, "");
	g_assert_cmpstr(t.error_name, ==, "org.example.SdTuner1.Error.Cancelled");
	g_assert_cmpstr(t.error_message, ==, "benchmark cancelled");
	test_job_clear(&t);
}

static void
test_benchmark_job_failure_keeps_error_name(void)
{
	TestJob t = {NULL};
	g_autoptr(SdtBenchmarkJob) job = test_job_run(&t, test_engine_no_card, FALSE);

	g_assert_cmpstr(sdt_job_get_state(SDT_JOB(job)), ==, "failed");
	g_assert_cmpstr(t.error_name, ==, "org.example.SdTuner1.Error.NotFound");
	g_assert_cmpstr(t.error_message, ==, "no SD card found");
	g_assert_cmpuint(t.progress_notifies, ==, 0);
	test_job_clear(&t);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/sdtuner/benchmark-job/progress-is-coalesced",
			test_benchmark_job_progress_is_coalesced);
	g_test_add_func("/sdtuner/benchmark-job/cancel", test_benchmark_job_cancel);
	g_test_add_func("/sdtuner/benchmark-job/failure-keeps-error-name",
			test_benchmark_job_failure_keeps_error_name);
	return g_test_run();
}
