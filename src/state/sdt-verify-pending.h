/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sdt-context.h"
#include "sdt-verify-pending-state.h"
#include "sdt-verify.h"

G_BEGIN_DECLS

/* pending.json, the record of a change waiting for its verification (SdtVerifyPendingState,
 * its codec in src/wire/sdt-verify-pending-state.c) */

/* the settings SD Tuner writes for @id ("dtparam=sd_overclock=80"), or NULL */
gchar *sdt_verify_pending_setting_line(const gchar *id);

/* schema-checked (the codec's rules and an id SD Tuner writes); NULL with
 * SDT_ERROR_INVALID_DATA for anything else */
SdtVerifyPendingState *sdt_verify_pending_parse(const gchar *data, gsize len, GError **error);

/*
 * Reads <state>/pending.json: TRUE with *@pending NULL when there is none,
 * FALSE with @error when it cannot be read or is not valid.
 */
gboolean sdt_verify_pending_load(SdtContext *ctx, SdtVerifyPendingState **pending, GError **error);
/* writes it atomically and durably (temporary file, fsync, rename) */
gboolean
sdt_verify_pending_save(SdtContext *ctx, const SdtVerifyPendingState *pending, GError **error);
/* removes it; TRUE when it is gone (or was never there) */
gboolean sdt_verify_pending_remove(SdtContext *ctx, GError **error);
/* its bytes as they are (damaged or not), or NULL when there is none */
GBytes *sdt_verify_pending_read_raw(SdtContext *ctx);
/* puts @raw back (NULL: removes it): an apply that failed after recording its change */
gboolean sdt_verify_pending_restore_raw(SdtContext *ctx, GBytes *raw, GError **error);

G_END_DECLS
