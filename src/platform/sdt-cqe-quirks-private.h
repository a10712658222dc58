/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-cqe-quirks.h"

G_BEGIN_DECLS

/*
 * What src/platform shares of sdt-cqe-quirks only among its own files and its tests
 * (the public interface is sdt-cqe-quirks.h).  Private to src/platform:
 * tests/check-shape.py fails any other file that includes it.
 */

/* "none", "allow", "deny" */
const gchar *sdt_cqe_quirks_list_to_string(SdtCqeList list);

G_END_DECLS
