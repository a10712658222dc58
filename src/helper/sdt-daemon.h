/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-benchmark-job.h"
#include "sdt-dbus-names.h" /* the bus names it owns: SDT_BUS_NAME, SDT_MANAGER_PATH, SDT_JOBS_PATH */
#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * The Manager object of sd-tuner-helper.  Every method runs its work in a
 * GTask worker thread, never on the bus thread; privileged ones (StartBenchmark,
 * Apply, Revert) first validate their arguments, then ask polkit about the
 * caller's unique bus name, and only then touch anything.  Apply, Revert and
 * GetStatus hold one lock, so config.txt changes are serialized; one
 * benchmark runs at a time (a second one is Busy).
 *
 * "busy-changed" is emitted when the daemon goes from idle to busy (a call
 * in progress or a job running) or back; the helper's idle timer uses it.
 */
#define SDT_TYPE_DAEMON (sdt_daemon_get_type())
G_DECLARE_FINAL_TYPE(SdtDaemon, sdt_daemon, SDT, DAEMON, GObject)

SdtDaemon *sdt_daemon_new(SdtContext *ctx, const gchar *bench_dir);
gboolean sdt_daemon_export(SdtDaemon *self, GDBusConnection *connection, GError **error);
void sdt_daemon_unexport(SdtDaemon *self);
gboolean sdt_daemon_is_busy(SdtDaemon *self);

G_END_DECLS
