/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-inhibit.h"
#include "sdt-logind.h"

/* the helper's policy: one "shutdown:sleep" block inhibitor, as root; the call, the
 * fd and what logind's answer means are sdt-logind.c's */
struct _SdtInhibit {
	SdtLogindInhibitor *logind; /* NULL without a bus */
};

static void
sdt_inhibit_answer_cb(SdtLogindInhibitor *logind,
		      SdtLogindAnswer answer,
		      const GError *error,
		      gpointer user_data)
{
	if (answer == SDT_LOGIND_ANSWER_HELD)
		g_message("logind inhibitor held (shutdown:sleep, block): %s",
			  sdt_logind_inhibitor_get_why(logind));
	else if (answer == SDT_LOGIND_ANSWER_NO_FD)
		g_message("logind sent no inhibitor: a shutdown or suspend is not "
			  "held off while this runs");
	else
		g_message("no logind inhibitor: a shutdown or suspend is not held off while "
			  "this runs (%s); the job goes on",
			  error->message);
}

SdtInhibit *
sdt_inhibit_take(GDBusConnection *bus, const gchar *why)
{
	SdtInhibit *self = g_new0(SdtInhibit, 1);
	SdtLogindRequest request = {"shutdown:sleep", "SD Tuner", why, "block", 10 * 1000};

	if (bus != NULL)
		self->logind = sdt_logind_inhibitor_new(bus, &request, sdt_inhibit_answer_cb, NULL);
	return self;
}

void
sdt_inhibit_release(SdtInhibit *self)
{
	if (self == NULL)
		return;
	if (self->logind != NULL && sdt_logind_inhibitor_get_fd(self->logind) >= 0)
		g_message("logind inhibitor released: %s",
			  sdt_logind_inhibitor_get_why(self->logind));
	g_clear_pointer(&self->logind, sdt_logind_inhibitor_release);
	g_free(self);
}
