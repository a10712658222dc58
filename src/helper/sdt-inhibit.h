/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/*
 * A logind inhibitor (org.freedesktop.login1.Manager.Inhibit, "shutdown:sleep",
 * mode "block") held while a benchmark, a check or a soak runs: a shutdown
 * or a suspend in the middle of a check's write is when the card's data is at
 * risk (docs/ARCHITECTURE.md, "Shutdown inhibitor").  logind keeps it while
 * the file descriptor it returned is open: sdt_inhibit_release() closes it,
 * and so does the kernel when the helper dies.  Without logind (no systemd,
 * a container, the tests' private bus) the job goes on; the journal says so.
 */
typedef struct _SdtInhibit SdtInhibit;

/* asks logind on @bus for the inhibitor, asynchronously; @why is what
 * `systemd-inhibit --list` and a desktop's shutdown dialog show */
SdtInhibit *sdt_inhibit_take(GDBusConnection *bus, const gchar *why);
/* closes the inhibitor (or drops it when logind answers later) and frees @self */
void sdt_inhibit_release(SdtInhibit *self);

G_END_DECLS
