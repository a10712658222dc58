/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * One job of sd-tuner-helper (StartBenchmark, StartCheck), started and
 * followed until its Completed signal, for the app and the CLI alike.
 *
 * Any local user may emit signals on the system bus, and job paths are
 * predictable, so the follower takes the job's signals from the helper's
 * unique name only: it subscribes on that sender before the job exists (so
 * even a very short job's Completed is seen), checks the sender and the path
 * of every signal again (unicast signals reach us whatever the match rules
 * say), and calls the method on that unique name, so the job is that
 * helper's even if another instance replaced it meanwhile.  Progress comes
 * from the job's properties, read from the same name.  If that name leaves
 * the bus while the job runs, the job fails.
 *
 * Asynchronous: every callback runs in the thread-default main context of
 * the thread that called sdt_client_job_start(), which must be iterated (the
 * GTK main loop, or a GMainLoop of the CLI's worker thread).
 */
typedef struct _SdtClientJob SdtClientJob;

/*
 * @phase: a test name of the bench JSON or "prepare" ("" once, when the job
 * exists and has not said yet); @fraction 0..1; @rate MB/s
 */
typedef void (*SdtClientJobProgressFunc)(const gchar *phase,
					 gdouble fraction,
					 gdouble rate,
					 gpointer user_data);

/*
 * Exactly once per job, unless the follower was freed first: @result is the
 * job's JSON text, or @error says why there is none (the D-Bus error of the
 * call or of Completed, mapped to SDT_ERROR where the helper sent one).
 */
typedef void (*SdtClientJobDoneFunc)(const gchar *result, const GError *error, gpointer user_data);

/*
 * @helper: the helper's unique name (":1.42"), or %NULL to activate the
 * helper and ask the bus for it.  @method: "StartBenchmark" or "StartCheck",
 * called with (@arg, @options), or "StartSoak" or "StartVerify", called with
 * (@options) alone when @arg is %NULL; @options may be %NULL (empty) and is
 * consumed if floating.  @timeout_ms: how long the call may wait (a polkit
 * prompt).  @progress may be %NULL.
 */
SdtClientJob *sdt_client_job_start(GDBusConnection *connection,
				   const gchar *helper,
				   const gchar *method,
				   const gchar *arg,
				   GVariant *options,
				   gint timeout_ms,
				   SdtClientJobProgressFunc progress,
				   SdtClientJobDoneFunc done,
				   gpointer user_data);

/* asks the helper to stop the job (now, or once it exists); Completed still ends it */
void sdt_client_job_cancel(SdtClientJob *job);

/* TRUE when the job failed because the helper left the bus */
gboolean sdt_client_job_helper_vanished(SdtClientJob *job);

/* stops following: no callback runs after this; the job itself goes on */
void sdt_client_job_free(SdtClientJob *job);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientJob, sdt_client_job_free)

G_END_DECLS
