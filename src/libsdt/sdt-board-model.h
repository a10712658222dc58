/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* the controller behind the SD slot (PLATFORM.md §2.1) */
typedef enum {
	SDT_SD_CONTROLLER_UNKNOWN,
	SDT_SD_CONTROLLER_SDHOST,        /* Pi 0–3, CM1, CM3: bcm2835-sdhost */
	SDT_SD_CONTROLLER_EMMC2,         /* Pi 4, 400, CM4, CM4S: sdhci-iproc */
	SDT_SD_CONTROLLER_SDHCI_BRCMSTB, /* Pi 5, 500, CM5: sdio1, sdhci-brcmstb + CQHCI */
} SdtSdController;

/*
 * One board model, by revision-code type field.  Several type codes share a
 * DESIGN.md key (1A/1B/1A+/1B+ are all "1"; CM3 and CM3+ are "cm3"; CM4 and
 * CM4S "cm4"; CM5 and CM5 Lite "cm5").
 */
typedef struct {
	const gchar *key;           /* DESIGN.md board key */
	guint type_code;            /* revision-code bits 11–4 */
	const gchar *name;          /* "3B", "Zero 2 W", ... */
	const gchar *soc;           /* "BCM2837"; the usual SoC of the model */
	const gchar *compatible;    /* device-tree board string, NULL if none documented */
	const gchar *model_prefix;  /* /proc/device-tree/model without " Rev x.y" */
	SdtSdController controller; /* the SD slot's controller */
	guint core_clock_hz;        /* default core clock on sdhost boards, else 0 */
	const gchar *filter;        /* config.txt filter that targets exactly this family */
} SdtBoardModel;

/* every known model, in type-code order; @n_models is set to the count */
const SdtBoardModel *sdt_board_model_table(guint *n_models);
const SdtBoardModel *sdt_board_model_lookup_type(guint type_code);
/* the first model with this DESIGN.md key, NULL for "unknown" or a bad key */
const SdtBoardModel *sdt_board_model_lookup_key(const gchar *key);

G_END_DECLS
