/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include "sdt-board.h"
#include "sdt-sd-bus.h"
#include "sdt-card.h"
#include "sdt-context.h"
#include "sdt-info-report.h"
#include "sdt-kmsg.h"

G_BEGIN_DECLS

/* DESIGN.md bus.cqe */
typedef enum {
	SDT_CQE_UNKNOWN,
	SDT_CQE_ENABLED,
	SDT_CQE_HOST_SOFTWARE_QUEUE,
	SDT_CQE_OFF,
} SdtCqeState;

const gchar *sdt_info_cqe_state_to_string(SdtCqeState state);

typedef enum {
	SDT_SD_BUS_SOURCE_NONE,
	SDT_SD_BUS_SOURCE_DEBUGFS,    /* /sys/kernel/debug/mmcN/ios */
	SDT_SD_BUS_SOURCE_KERNEL_LOG, /* "new … card" and "overclocking to" lines */
} SdtSdBusSource;

typedef struct {
	SdtSdBusIos ios; /* clock, actual clock, width, timing, voltage; -1 = unknown */
	SdtSdBusSource source;
	gchar *ios_path;      /* the debugfs file looked at, NULL without a card */
	gdouble ceiling_mb_s; /* 10^6 bytes/s, < 0 when unknown */
	SdtCqeState cqe;
} SdtSdBusState;

typedef struct {
	gboolean simulated; /* sdt_context_is_simulated() */
	SdtBoard *board;
	SdtCard *card;
	SdtSdBusState bus;
	gboolean kernel_log_read; /* FALSE: /dev/kmsg missing or unreadable */
	SdtKmsgFacts kernel_log;  /* facts about the card's host and disk */
	GPtrArray *mounts;        /* SdtMount, empty if mountinfo is unreadable */
	guint64 core_clock_hz;    /* sdhost boards: the running core clock, 0 if unknown */
	gchar *core_clock_source; /* the file it was read from, NULL if unknown */
	GPtrArray *warnings;      /* translated strings */
} SdtInfo;

void sdt_info_free(SdtInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtInfo, sdt_info_free)

/*
 * Collects everything `info` shows.  Missing or bad files become unknown
 * values plus warnings; the only error is a context that cannot be used.
 */
SdtInfo *sdt_info_collect(SdtContext *ctx, GError **error);

/* the DESIGN.md `info` document (without its "config", which ops adds) */
SdtInfoReport *sdt_info_to_report(const SdtInfo *info);

/* the member "emmc" (card.emmc in info, health): the chip's own wear report, NULL for an
 * SD card or no card (DESIGN.md "eMMC and the system disk") */
SdtInfoReportEmmc *sdt_info_emmc_to_report(const SdtCard *card);

G_END_DECLS
