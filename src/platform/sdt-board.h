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

const gchar *sdt_board_source_to_string(SdtBoardSource source);

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

/* FALSE for 0, an unlisted old-style code, or a new-style code with a reserved field */
gboolean sdt_board_revision_decode(guint32 code, SdtRevision *rev);

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
/* "a02082", or NULL without a revision code */
gchar *sdt_board_get_revision_string(const SdtBoard *board);

/*
 * Pure detection from the raw bytes of the files (each may be %NULL when the
 * file is missing; lengths are byte counts, the bytes need no terminator).
 * Problems become translated strings appended to @warnings.
 */
SdtBoard *sdt_board_new_from_data(const guint8 *dt_revision,
				  gsize dt_revision_len,
				  const gchar *cpuinfo,
				  gsize cpuinfo_len,
				  const gchar *compatible,
				  gsize compatible_len,
				  const gchar *model,
				  gsize model_len,
				  GPtrArray *warnings);

/* reads the files under the context's root; never fails, an unknown board is a result */
SdtBoard *sdt_board_detect(SdtContext *ctx, GPtrArray *warnings);

void sdt_board_free(SdtBoard *board);

/*
 * The core clock the running system reports, in Hz, or 0 when no reading is
 * available: the rate of the firmware core clock in debugfs
 * (/sys/kernel/debug/clk/fw-clk-core/clk_rate, older kernels "vpu"), the clock
 * the sdhost controller divides (docs/PLATFORM.md §2.3).  @source is set to
 * the file read, as given (under the context's root prefix in tests).
 */
guint64 sdt_board_read_core_clock_hz(SdtContext *ctx, gchar **source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBoard, sdt_board_free)

G_END_DECLS
