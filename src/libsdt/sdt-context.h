/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SDT_TYPE_CONTEXT (sdt_context_get_type())
G_DECLARE_FINAL_TYPE(SdtContext, sdt_context, SDT, CONTEXT, GObject)

/*
 * SdtContext holds the one root prefix under which every non-udev path is
 * resolved (DESIGN.md "Test root"): /proc/device-tree, /proc/cpuinfo,
 * /boot/firmware, /var/lib/sd-tuner, /sys/kernel/debug and /dev/kmsg.
 * Device data (mmc host, card, block devices) always comes from libudev.
 */
SdtContext *sdt_context_new(const gchar *root, GError **error);
gboolean sdt_context_is_simulated(SdtContext *self);
gchar *sdt_context_build_path(SdtContext *self, const gchar *abs_path);
gchar *sdt_context_get_state_dir(SdtContext *self);

/*
 * A kernel file (procfs, sysfs, debugfs: @abs_path as on the Pi) under the
 * root, with sdt_file_read_kernel(): bounded by @max_len, never blocking, never
 * following a link out of the root.  Every read of /proc, /sys and /dev under
 * the root goes through it (docs/KERNEL-INTERFACES.md).
 */
/* sdt_file_open_in_root() under the root: -1 with @error set */
gint sdt_context_open(SdtContext *self, const gchar *abs_path, gint flags, GError **error);
gboolean sdt_context_read_kernel_file(SdtContext *self,
				      const gchar *abs_path,
				      gsize max_len,
				      gchar **contents,
				      gsize *len,
				      GError **error);

/*
 * The boot id of the running system, `/proc/sys/kernel/random/boot_id` under
 * the root (a UUID the kernel makes at boot), or %NULL with @error set when it
 * cannot be read or is not a UUID.  The one reader of it: the journal of apply,
 * verify and the running-config fingerprint all compare what it returns.
 */
gchar *sdt_context_get_boot_id(SdtContext *self, GError **error);

/*
 * A kernel log kept in memory: sd-tuner-helper reads <root>/dev/kmsg once when
 * it starts and sets what it keeps here, and sdt_kmsg_read() then returns it
 * instead of reading again.  Set it before any thread uses the context.
 */
void sdt_context_set_kernel_log(SdtContext *self, GBytes *kernel_log);

/*
 * The wall clock in UTC (transfer full) for history entries, backups and the
 * journal: the real time, or the one set with sdt_context_set_now() (tests;
 * %NULL goes back to the real time). Times are GDateTime/gint64 throughout,
 * so they stay right past 2038 where time_t is 32 bits wide.
 */
GDateTime *sdt_context_get_now(SdtContext *self);
void sdt_context_set_now(SdtContext *self, GDateTime *now);
GBytes *sdt_context_get_kernel_log(SdtContext *self);

G_END_DECLS
