/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-config-txt.h"
#include "sdt-info.h"
#include "sdt-recommend.h"

G_BEGIN_DECLS

/*
 * The glue between the collected facts (SdtInfo), config.txt and the pure
 * recommendation: sdt_ops_recommend(), sdt_ops_apply(), sdt_ops_revert() and
 * sdt_ops_status() (declared in sdt-ops.h) live in sdt-ops-config.c.
 */

/* the revision-code type of the board, -1 if unknown */
gint sdt_ops_config_type_code(const SdtInfo *info);

/* fills @facts from @info and @cfg (may be NULL); strings point into @info and @cfg */
void sdt_ops_config_facts(SdtRecommendFacts *facts, const SdtInfo *info, SdtConfigTxt *cfg);

/* adds the DESIGN.md "config" member ({path, sd_settings: [...]}) to an info document */
void sdt_ops_config_add_info(SdtContext *ctx, const SdtInfo *info, JsonObject *info_obj);

/* this boot used tryboot.txt (/proc/device-tree/chosen/bootloader/tryboot = 1) */
gboolean sdt_ops_config_tryboot_active(SdtContext *ctx);

G_END_DECLS
