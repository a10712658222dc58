/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sdt-dbus-generated.h"
#include "sdt-dbus-names.h"

G_BEGIN_DECLS

/*
 * How long a call may wait: Apply, Revert, StartBenchmark and StartCheck may
 * sit behind a polkit password prompt.  The app's dialog times out sooner than
 * a person typing at a terminal; a dead helper fails the call at once anyway.
 */
#define SDT_CALL_TIMEOUT_MS          (5 * 60 * 1000)
#define SDT_TERMINAL_CALL_TIMEOUT_MS (10 * 60 * 1000)

/* an empty a{sv} for the options argument (floating) */
GVariant *sdt_client_no_options(void);

G_END_DECLS
