/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-trial-state.h"

G_BEGIN_DECLS

/*
 * The functions of the sdt-config-trial-state codec that no other folder calls yet: the
 * codec has them all, and its golden test (tests/wire) runs them; one moves to
 * sdt-config-trial-state.h with its first caller outside src/wire (docs/ARCHITECTURE.md,
 * "The wire layer").  Private to src/wire: tests/check-shape.py fails any other file that
 * includes it.
 */

SdtConfigTrialState *sdt_config_trial_state_from_json(JsonObject *obj, GError **error);
SdtConfigTrialState *sdt_config_trial_state_parse(const gchar *text, GError **error);
JsonNode *sdt_config_trial_state_to_json(const SdtConfigTrialState *state);
/* pretty */
gchar *sdt_config_trial_state_to_string(const SdtConfigTrialState *state);

G_END_DECLS
