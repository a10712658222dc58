/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

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
	gboolean pl011_primary;     /* dtoverlay=disable-bt/miniuart-bt (or pi3-…) takes effect */
	gboolean force_turbo;       /* force_turbo=1 takes effect in config.txt */
	guint config_core_freq_mhz; /* core_freq=N takes effect in config.txt, 0 if not */
	guint running_core_clock_mhz; /* the core clock the running system reports, 0 if not */
	const gchar *running_core_clock_source; /* where that reading came from (a file) */
	/* card */
	gboolean card_present;
	gboolean card_emmc;         /* the mmc device is eMMC soldered to the board, not SD */
	gboolean system_elsewhere;  /* known: / and /boot/firmware are not on the card */
	const gchar *system_device; /* where / is then ("nvme0n1p2", "sda2"), or NULL */
	guint app_class;            /* 0 none, 1 A1, 2 A2 */
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

/* where the core clock figure comes from (JSON core_clock.source) */
typedef enum {
	SDT_CORE_CLOCK_BOARD_DEFAULT,    /* "board-default": the board table */
	SDT_CORE_CLOCK_RUNNING,          /* "running-system": read from the running system */
	SDT_CORE_CLOCK_UART_FIXED,       /* "enable-uart": mini UART primary fixes it at 250 MHz */
	SDT_CORE_CLOCK_UART_TURBO,       /* "enable-uart-force-turbo": fixed at the turbo clock */
	SDT_CORE_CLOCK_CONFIG_CORE_FREQ, /* "core-freq": core_freq= in config.txt */
} SdtCoreClockSource;

const gchar *sdt_recommend_core_clock_source_to_string(SdtCoreClockSource source);

typedef struct {
	GPtrArray *recommendations; /* of SdtRecommendation */
	GPtrArray *notes;           /* translated plain-text paragraphs */
	/* sdhost boards: the core clock the advice is computed for, 0 otherwise */
	guint core_clock_mhz;
	SdtCoreClockSource core_clock_source;
	gchar *core_clock_detail; /* English: the file read or the config.txt lines */
	/* why nothing is tuned whatever the card does (JSON not_tuned): "emmc" (the SD settings
	 * do not apply), "not-system-disk" (/ is on NVMe or USB), NULL otherwise */
	const gchar *not_tuned;
} SdtRecommendResult;

void sdt_recommend_result_free(SdtRecommendResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtRecommendResult, sdt_recommend_result_free)

SdtRecommendResult *sdt_recommend(const SdtRecommendFacts *facts);
const SdtRecommendation *sdt_recommend_result_find(const SdtRecommendResult *result,
						   const gchar *id);

/* the block filter for a board: reaches only boards with the same SD controller
 * and core clock; NULL for boards SD Tuner writes nothing for */
const gchar *sdt_recommend_filter_for_type(gint type_code);

/*
 * The core clock an sdhost board runs at (docs/PLATFORM.md §2.3): the running
 * system's reading when there is one; else, with enable_uart=1 while the mini
 * UART is the primary UART (a board with Bluetooth and no disable-bt or
 * miniuart-bt overlay), 250 MHz, or the turbo clock (core_freq, else the
 * board's default) with force_turbo=1; else core_freq if set; else the
 * board's default.  @source (optional) says which rule gave the figure.
 */
guint sdt_recommend_core_clock_mhz(const SdtRecommendFacts *facts);

/* the config.txt facts of the clock rules: enable_uart, force_turbo, core_freq
 * and the overlays that make the PL011 the primary UART, as in effect on
 * @type_code */
void sdt_recommend_facts_from_config(SdtRecommendFacts *facts, SdtConfigTxt *cfg, gint type_code);

/* the clock the sdhost driver uses for sd_overclock=@mhz at core clock @core_hz */
guint64 sdt_recommend_sdhost_clock_hz(guint64 core_hz, guint mhz);

G_END_DECLS
