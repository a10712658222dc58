/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-board-model.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/* "sdhost", "emmc2", "sdhci-brcmstb" or "unknown" (DESIGN.md board.sd_controller) */
const gchar *sdt_board_sd_controller_to_string(SdtSdController controller);

/* where the identity came from */
typedef enum {
	SDT_BOARD_SOURCE_NONE,
	SDT_BOARD_SOURCE_DT_REVISION, /* /proc/device-tree/system/linux,revision */
	SDT_BOARD_SOURCE_CPUINFO,     /* /proc/cpuinfo Revision */
	SDT_BOARD_SOURCE_COMPATIBLE,  /* /proc/device-tree/compatible */
	SDT_BOARD_SOURCE_MODEL,       /* /proc/device-tree/model */
} SdtBoardSource;

/* a decoded revision code (PLATFORM.md §1.2, §1.5) */
typedef struct {
	guint32 code;
	gboolean new_style;
	guint type_code;    /* new style: bits 11–4; old style: the equivalent type */
	guint revision;     /* bits 3–0, new style only */
	guint memory_mb;    /* 0 if unknown */
	guint processor;    /* bits 15–12, new style only */
	const gchar *maker; /* NULL if unknown */
} SdtRevision;

typedef struct {
	gchar *model;              /* display only; NULL if absent or unreadable */
	gchar **compatible;        /* NULL-terminated; NULL if absent */
	SdtBoardSource source;     /* what identified the board */
	gboolean has_revision;     /* a valid revision code was found */
	SdtRevision revision;      /* valid if has_revision */
	const SdtBoardModel *info; /* NULL for an unknown board */
	const gchar *soc;          /* "BCM2837", NULL if unknown */
} SdtBoard;

/* "unknown" when not identified */
const gchar *sdt_board_get_key(const SdtBoard *board);
SdtSdController sdt_board_get_controller(const SdtBoard *board);

void sdt_board_free(SdtBoard *board);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBoard, sdt_board_free)

G_END_DECLS
