/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* what the app was doing when an error arrived; picks the advice */
typedef enum {
	SDT_USER_ACTION_CONNECT,
	SDT_USER_ACTION_INFO,
	SDT_USER_ACTION_BENCHMARK,
	SDT_USER_ACTION_APPLY,
	SDT_USER_ACTION_REVERT,
	SDT_USER_ACTION_REBOOT,
	SDT_USER_ACTION_CHECK,
} SdtUserAction;

/*
 * A message for the window's info bar: what went wrong and what to do, in
 * plain words.  @error may come from GDBus (the helper is missing, the bus is
 * gone), from the helper (SDT_ERROR codes arrive as such because the domain is
 * registered with D-Bus) or from parsing its results.
 */
gchar *sdt_user_error_describe(SdtUserAction action, const GError *error);

/* TRUE when @error means the helper or the bus went away, not a refusal */
gboolean sdt_user_error_is_service_gone(const GError *error);

G_END_DECLS
