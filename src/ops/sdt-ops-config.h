/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-config-apply.h"

G_BEGIN_DECLS

/*
 * The replies of the config writer's results as objects, for the verify unit's
 * evidence of what it did (sdt-ops-verify-act.c): the members of the answers of
 * apply and revert (sdt-config-answer.h), which the writer returns as typed
 * results (sdt-config-apply.h).
 */

/*
 * {"id", "path", "diff", "backup", "reboot_required", "changed", "disabled":
 * [...], "warnings": [...]}; for a trial "path" is tryboot.txt, "trial" is
 * true and "reboot_command" says how to boot it once.
 */
JsonObject *sdt_ops_config_apply_reply(const SdtConfigApplyResult *result);
/*
 * {"id", "path", "diff", "backup", "backup_before_change", "reboot_required",
 * "trial_cancelled", "restored": [...], "kept": [...], "warnings": [...]},
 * after "tryboot_backup" and "tryboot_restored" when a trial was cancelled so.
 */
JsonObject *sdt_ops_config_revert_reply(const SdtConfigApplyRevert *revert);

G_END_DECLS
