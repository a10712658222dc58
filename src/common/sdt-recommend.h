/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-config-txt.h"

G_BEGIN_DECLS

/*
 * The recommendation is a pure function of these facts (PLATFORM.md §2, §3.7,
 * §3.8, §5.5, §7).  The ops layer fills them from the board, card, bus,
 * kernel log and config.txt; tests fill them by hand.
 */
typedef struct {
	/* board */
	const gchar *board_key;     /* DESIGN.md board.key; "unknown" for a non-Pi board */
	gint type_code;             /* revision-code type, -1 if unknown */
	const gchar *controller;    /* "sdhost", "emmc2", "sdhci-brcmstb" or "unknown" */
	guint core_clock_mhz;       /* default core clock of an sdhost board, 0 if unknown */
	gboolean mini_uart;         /* the primary UART is the mini UART (boards with Bluetooth) */
	gboolean enable_uart;       /* enable_uart=1 takes effect in config.txt */
	guint config_core_freq_mhz; /* core_freq=N takes effect in config.txt, 0 if not */
	/* card */
	gboolean card_present;
	guint app_class;  /* 0 none, 1 A1, 2 A2 */
	gint cmd48;       /* SCR: CMD48 (extension registers) supported: 1, 0, -1 unknown */
	gint ext_perf_cq; /* ext_perf bit 4 (command queue): 1, 0, -1 unknown */
	gint cq_depth;    /* -1 unknown */
	/* bus */
	guint64 actual_clock_hz; /* 0 unknown */
	const gchar *timing;     /* DESIGN.md bus.timing */
	const gchar *cqe;        /* "enabled", "host-software-queue", "off" or "unknown" */
	/* kernel log */
	guint64 log_overclock_hz;       /* the last "overclocking to N Hz", 0 if none */
	gboolean log_overclock_reduced; /* "reducing overclock due to errors" */
	gboolean log_cqe_recovery;      /* "running CQE recovery" */
	/* config.txt */
	gint config_overclock_mhz;      /* sd_overclock/overclock_50 in effect, 0 if none */
	const gchar *config_cqe;        /* sd_cqe value in effect, NULL if none */
	const gchar *config_block_id;   /* SD Tuner's block in place, or NULL */
	gboolean config_sdhost_overlay; /* dtoverlay=sdhost in effect on this board */
	gboolean config_sdtweak_overlay;
	/* the kernel's command-queue quirk tables (sdt-cqe-quirks.h): SdtCqeList */
	gint cqe_list;
	const gchar *cqe_list_why; /* the kernel's reason for the match, NULL if none */
} SdtRecommendFacts;

typedef struct {
	gchar *id; /* stable: "sd-overclock-100", "sd-cqe-2", "sd-cqe-0" */
	gchar *title;
	GPtrArray *lines; /* config.txt lines */
	gchar *filter;    /* the line that opens the block, e.g. "[board-type=0x08]" */
	gchar *reason;
	gchar *expected_effect;
	gchar *risk;
	SdtConfigSdKind replaces; /* SD lines that conflict with this setting */
	gint type_code;
	guint64 expected_clock_hz; /* overclock: the clock the driver will use */
	gboolean trial_only; /* applied only as a tryboot trial, verified with the soak test */
} SdtRecommendation;

typedef struct {
	GPtrArray *recommendations; /* of SdtRecommendation */
	GPtrArray *notes;           /* translated plain-text paragraphs */
} SdtRecommendResult;

void sdt_recommend_result_free(SdtRecommendResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtRecommendResult, sdt_recommend_result_free)

SdtRecommendResult *sdt_recommend(const SdtRecommendFacts *facts);
JsonNode *sdt_recommend_result_to_json(const SdtRecommendResult *result);
const SdtRecommendation *sdt_recommend_result_find(const SdtRecommendResult *result,
						   const gchar *id);

/* the block filter for a board: reaches only boards with the same SD controller
 * and core clock; NULL for boards SD Tuner writes nothing for */
const gchar *sdt_recommend_filter_for_type(gint type_code);

/* the core clock an sdhost board runs at: core_freq if set, 250 MHz with
 * enable_uart=1 on a mini-UART board, else the board's default */
guint sdt_recommend_core_clock_mhz(const SdtRecommendFacts *facts);

/* the clock the sdhost driver uses for sd_overclock=@mhz at core clock @core_hz */
guint64 sdt_recommend_sdhost_clock_hz(guint64 core_hz, guint mhz);

G_END_DECLS
