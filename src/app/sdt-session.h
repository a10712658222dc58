/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-client-job.h"
#include "sdt-dbus-generated.h"
#include "sdt-user-error.h"

G_BEGIN_DECLS

/*
 * What the pages share, so that no page needs the window: the app's own
 * system-bus connection, the Manager proxy, the helper's Simulated flag and
 * the board's model.  The window owns the session (its template builds it
 * before the pages, which get it as their construct-only "session" property)
 * and listens to it.
 *
 * Properties: "manager" (NULL while not connected), "simulated",
 * "board-model"; each notifies when it is set.
 * Signals:
 *   changed           the helper's state may have changed: read it again
 *   service-vanished  the helper or the bus went away: a running job failed
 *   error             (SdtUserAction action, GError *error) something failed
 *   notice            (GtkMessageType type, gchar *text) tell the user
 *   dismiss           the last error or notice is no longer true
 */
#define SDT_TYPE_SESSION (sdt_session_get_type())
G_DECLARE_FINAL_TYPE(SdtSession, sdt_session, SDT, SESSION, GObject)

/*
 * What a page does when the session changes, the same way on every page; a
 * member may be NULL.  Each gets the page as its first argument.
 */
typedef struct {
	/* "notify::manager": the Manager proxy, NULL while not connected */
	void (*set_manager)(gpointer page, SdtManager *manager);
	/* "notify::simulated": the helper runs on a simulated board, or not */
	void (*set_simulated)(gpointer page, gboolean simulated);
	/* "changed": read the helper's state again */
	void (*refresh)(gpointer page);
	/* "service-vanished": the helper or the bus went away, a running job failed */
	void (*service_vanished)(gpointer page);
} SdtSessionCallbacks;

/*
 * The pages' "session" property, construct-only so a page has it from the
 * start: installs it on @klass with the class's set_property, which keeps the
 * session in the page's own SdtSession * member at @session_offset
 * (G_STRUCT_OFFSET) and connects @callbacks (static) to it.
 */
void sdt_session_install_page_property(GObjectClass *klass,
				       gsize session_offset,
				       const SdtSessionCallbacks *callbacks);
/* in the page's dispose: the page stops listening to *@session, which is cleared */
void sdt_session_detach(SdtSession **session, gpointer page);

SdtManager *sdt_session_get_manager(SdtSession *self);
gboolean sdt_session_get_simulated(SdtSession *self);
const gchar *sdt_session_get_board_model(SdtSession *self);
void sdt_session_set_board_model(SdtSession *self, const gchar *model);

/* emit "changed" when connected: every page reads the helper's state again */
void sdt_session_refresh(SdtSession *self);
/* connect when there is no connection (or it closed), else refresh */
void sdt_session_reload(SdtSession *self);

/* a generated sdt_manager_call_* pair for a method that takes only options
 * and answers one JSON text: GetInfo, GetRecommendations, GetStatus,
 * GetHistory, GetHealth */
typedef void (*SdtSessionCallFunc)(SdtManager *proxy,
				   GVariant *arg_options,
				   GCancellable *cancellable,
				   GAsyncReadyCallback callback,
				   gpointer user_data);
typedef gboolean (*SdtSessionFinishFunc)(SdtManager *proxy,
					 gchar **out_json,
					 GAsyncResult *res,
					 GError **error);
/*
 * Calls such a method of @manager with no options; @done gets the answer's text
 * (a document the page reads with its codec, src/wire) or the error, unless the
 * call was cancelled through @cancellable, the page's own, which it cancels
 * before it goes away.
 */
typedef void (*SdtSessionTextFunc)(gpointer page, const gchar *text, const GError *error);
void sdt_session_call_text(SdtManager *manager,
			   SdtSessionCallFunc call,
			   SdtSessionFinishFunc finish,
			   GCancellable *cancellable,
			   SdtSessionTextFunc done,
			   gpointer page);

/*
 * Starts @method (StartBenchmark, StartCheck) with @arg on the helper that
 * answers @manager (none: the call activates it) and follows the job
 * (sdt-client-job.h) with the app's call timeout.
 */
SdtClientJob *sdt_session_start_job(SdtManager *manager,
				    const gchar *method,
				    const gchar *arg,
				    SdtClientJobProgressFunc progress,
				    SdtClientJobDoneFunc done,
				    gpointer page);
/* the same with @options (a{sv}, e.g. StartCheck's "device"; consumed if floating) */
SdtClientJob *sdt_session_start_job_with_options(SdtManager *manager,
						 const gchar *method,
						 const gchar *arg,
						 GVariant *options,
						 SdtClientJobProgressFunc progress,
						 SdtClientJobDoneFunc done,
						 gpointer page);

void sdt_session_report_error(SdtSession *self, SdtUserAction action, const GError *error);
void sdt_session_report_notice(SdtSession *self, GtkMessageType type, const gchar *text);
void sdt_session_dismiss(SdtSession *self);

G_END_DECLS
