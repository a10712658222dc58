/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-answer.h"
#include "sdt-config-apply.h"

G_BEGIN_DECLS

/*
 * The answers of apply and revert (sdt-config-answer.h, encoded by its codec)
 * of the config writer's typed results (sdt-config-apply.h); the tests read
 * them as the commands print them.
 */

/*
 * {"id", "path", "diff", "backup", "reboot_required", "changed", "disabled":
 * [...], "warnings": [...]}; for a trial "path" is tryboot.txt, "trial" is
 * true and "reboot_command" says how to boot it once.
 */
SdtConfigAnswerApply *sdt_ops_config_apply_answer(const SdtConfigApplyResult *result);
/*
 * {"id", "path", "diff", "backup", "backup_before_change", "reboot_required",
 * "trial_cancelled", "restored": [...], "kept": [...], "warnings": [...]},
 * after "tryboot_backup" and "tryboot_restored" when a trial was cancelled so.
 */
SdtConfigAnswerRevert *sdt_ops_config_revert_answer(const SdtConfigApplyRevert *revert);

G_END_DECLS
