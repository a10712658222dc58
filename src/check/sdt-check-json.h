/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-check-block.h"

G_BEGIN_DECLS

/* the verdict ("genuine", "fake", "undetermined") with its reason, and the
 * figures: the check's result (sdt-check-result.h) as the JSON of
 * `sdtunerctl check --json` (docs/DESIGN.md), written by its codec */
JsonNode *sdt_check_json_build(SdtCheck *self);

G_END_DECLS
