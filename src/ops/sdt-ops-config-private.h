/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-ops-config.h"

G_BEGIN_DECLS

/*
 * What src/ops shares of sdt-ops-config only among its own files and its tests (the
 * public interface is sdt-ops-config.h).  Private to src/ops: tests/check-shape.py
 * fails any other file that includes it.
 */

/* {"tryboot_backup"?, "tryboot_restored"?, "trial_cancelled", "warnings": [...]} */
JsonObject *sdt_ops_config_end_trial_reply(const SdtConfigApplyTrialEnd *end);

G_END_DECLS
