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
