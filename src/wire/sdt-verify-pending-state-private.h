/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-verify-pending-state.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-verify-pending-state codec that no other folder calls yet: the codec
 * has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-verify-pending-state.h with its first caller outside src/wire (docs/ARCHITECTURE.md, "The
 * wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

SdtVerifyPendingState *sdt_verify_pending_state_from_json(JsonObject *obj, GError **error);

G_END_DECLS
