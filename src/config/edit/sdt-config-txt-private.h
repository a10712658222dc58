/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-config-txt.h"

G_BEGIN_DECLS

/*
 * What src/config/edit shares of sdt-config-txt only among its own files and its tests
 * (the public interface is sdt-config-txt.h).  Private to src/config/edit:
 * tests/check-shape.py fails any other file that includes it.
 */

/* the attached file of an include line, or NULL */
SdtConfigTxt *sdt_config_txt_get_include(SdtConfigTxt *self, const gchar *name);
void sdt_config_txt_copy_includes(SdtConfigTxt *self, SdtConfigTxt *from);

/* filters */
SdtConfigApplies sdt_config_filter_state_applies(const SdtConfigFilterState *state,
						 gint type_code,
						 gboolean tryboot);

/* classifies one dtparam/dtoverlay line; @overlay is the overlay in scope */
SdtConfigSdKind sdt_config_sd_line_kind(const SdtConfigLine *line,
					const gchar *overlay,
					gint *overclock_mhz,
					gchar **cqe);

G_END_DECLS
