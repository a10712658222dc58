/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-client-check-map.h"

G_BEGIN_DECLS

/*
 * What src/client shares of sdt-client-check-map only among its own files and its
 * tests (the public interface is sdt-client-check-map.h).  Private to src/client:
 * tests/check-shape.py fails any other file that includes it.
 */

/* "ok", "wrap", "lost-writes", "io-error", "corrupted", "untested"; anything else OTHER */
SdtClientMapState sdt_client_check_map_state_from_string(const gchar *state);

G_END_DECLS
