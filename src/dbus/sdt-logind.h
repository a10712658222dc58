/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * A logind inhibitor lock (org.freedesktop.login1.Manager.Inhibit), the part the helper
 * (sdt-inhibit.c) and the app (sdt-app-inhibit.c) share: the asynchronous call with its
 * file descriptor list, the descriptor logind returns (held while it is open: released
 * by sdt_logind_inhibitor_release(), or by the kernel when the process dies; one that
 * comes after the release is closed at once), and what logind's answer means.  What
 * to ask for and what to do with a refusal are the callers' (docs/ARCHITECTURE.md,
 * "Shutdown inhibitor").  Never prompts: the call does not allow interaction.
 */
typedef struct _SdtLogindInhibitor SdtLogindInhibitor;

/* what became of the request */
typedef enum {
	SDT_LOGIND_ANSWER_HELD,    /* logind holds the inhibitor while the fd is open */
	SDT_LOGIND_ANSWER_REFUSED, /* logind (or the bus's policy) answered no: polkit's
				    * AccessDenied or InteractiveAuthorizationRequired,
				    * LimitsExceeded, InvalidArgs */
	SDT_LOGIND_ANSWER_ABSENT,  /* no logind: no system bus, or nobody owns
				    * org.freedesktop.login1 (no systemd, a container) */
	SDT_LOGIND_ANSWER_NO_FD,   /* logind answered without a file descriptor */
	SDT_LOGIND_ANSWER_FAILED,  /* the call failed: a timeout, logind gone mid-call */
} SdtLogindAnswer;

/* what to ask logind for: the arguments of Manager.Inhibit */
typedef struct {
	const gchar *what; /* "shutdown", "sleep", "shutdown:sleep", ... */
	const gchar *who;  /* the program, as `systemd-inhibit --list` shows it */
	const gchar *why;  /* the reason, as a desktop's shutdown dialog shows it */
	const gchar *mode; /* "block" or "delay" */
	gint timeout_msec; /* of the call; -1: GDBus's default (25 s) */
} SdtLogindRequest;

/* called once, in the thread-default main context of sdt_logind_inhibitor_new(), when
 * logind answered, unless @inhibitor was released before: @error is NULL when
 * @answer is SDT_LOGIND_ANSWER_HELD, else what went wrong.  It may release
 * @inhibitor. */
typedef void (*SdtLogindAnswerFunc)(SdtLogindInhibitor *inhibitor,
				    SdtLogindAnswer answer,
				    const GError *error,
				    gpointer user_data);

/* asks logind on @bus (NULL: the system bus, connected asynchronously) for @request,
 * without D-Bus activation; @request's strings are copied */
SdtLogindInhibitor *sdt_logind_inhibitor_new(GDBusConnection *bus,
					     const SdtLogindRequest *request,
					     SdtLogindAnswerFunc func,
					     gpointer user_data);
/* the inhibitor's file descriptor while logind holds it, else -1 */
gint sdt_logind_inhibitor_get_fd(SdtLogindInhibitor *self);
const gchar *sdt_logind_inhibitor_get_what(SdtLogindInhibitor *self);
const gchar *sdt_logind_inhibitor_get_mode(SdtLogindInhibitor *self);
const gchar *sdt_logind_inhibitor_get_why(SdtLogindInhibitor *self);
/* closes the descriptor (a call in flight is cancelled and a late descriptor closed),
 * never calls the answer function after, and frees @self */
void sdt_logind_inhibitor_release(SdtLogindInhibitor *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtLogindInhibitor, sdt_logind_inhibitor_release)

G_END_DECLS
