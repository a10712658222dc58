/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-emmc.h"

G_BEGIN_DECLS

/*
 * The `info --json` document (DESIGN.md "sdtunerctl contract"), the members
 * the app and `sdtunerctl info` show.  `info` never fails on bad data: what
 * the helper could not find out is null, which is "unknown" here: NULL for a
 * string, SDT_CLIENT_INFO_UNKNOWN for a count or a frequency, NaN for a
 * measure, SDT_CLIENT_FLAG_UNKNOWN for a yes/no.
 */

#define SDT_CLIENT_INFO_UNKNOWN (-1)

typedef enum {
	SDT_CLIENT_FLAG_UNKNOWN = -1,
	SDT_CLIENT_FLAG_NO = 0,
	SDT_CLIENT_FLAG_YES = 1,
} SdtClientFlag;

typedef struct {
	gchar *model; /* for display */
	gchar *key;   /* "3", "4", "zero-2-w", ..., "unknown" */
	gchar *name;  /* "3B", "4B" */
	gchar *revision;
	gint64 type_code;
	gchar *soc;
	gchar *sd_controller;
	gchar *filter; /* the config.txt filter of this board */
	gint64 core_clock_hz;
} SdtClientInfoBoard;

typedef struct {
	gboolean present;
	gchar *device; /* "mmcblk0" */
	gchar *mmc_device;
	gchar *host_device;
	gchar *host_driver;
	gint64 manfid;
	gchar *manufacturer; /* a guess from manfid, NULL when not in the table */
	gchar *oemid;
	gchar *name;
	gchar *serial;
	gchar *date; /* "YYYY-MM" */
	gint64 capacity_bytes;
	gchar *spec_version;
	gint64 speed_class; /* 0: none */
	gint64 uhs_grade;
	gint64 video_class;
	gint64 app_class;
	gint64 cq_depth; /* 0: not supported */
	SdtClientFlag cache;
	SdtClientFlag cmd48;
	SdtClientFlag holds_system;
	gchar *system_device;    /* where / is when not on the card: "nvme0n1p2", "sda2" */
	GPtrArray *mount_points; /* of gchar* */
	gboolean emmc;           /* card.kind "emmc": eMMC soldered to the board, not SD */
	gboolean has_emmc_wear;  /* card.emmc was an object */
	SdtEmmcWear emmc_wear;   /* its life_time_a/b and pre_eol values, -1 unknown */
	/* what Linux found out through CMD48, when the kernel shows it */
	gboolean has_ext_perf;
	gboolean ext_perf_cache;
	gboolean ext_perf_cmd_queue;
	gboolean has_ext_power;
	gboolean ext_power_off_notify;
} SdtClientInfoCard;

typedef struct {
	gboolean present; /* the document had a bus object */
	gint64 clock_hz;
	gint64 actual_clock_hz;
	gchar *timing; /* "sd-high-speed", ..., "unknown" */
	gint64 bus_width;
	gdouble signal_voltage;
	gdouble ceiling_mb_s;
	gchar *cqe;    /* "enabled", "host-software-queue", "off", "unknown" */
	gchar *source; /* "debugfs", "kernel-log" */
} SdtClientInfoBus;

typedef struct {
	gboolean present; /* the document had a kernel_log object */
	gboolean read;
	gint64 overclock_hz;
	gint64 overclock_reduced; /* 0 when not said */
	gboolean overclock_cancelled;
	gboolean cqe_enabled;
	gint64 cqe_tags;
	gboolean host_software_queue;
	gint64 cqe_recovery; /* 0 when not said */
	gchar *quirks;
} SdtClientInfoKernelLog;

/* one SD setting found in config.txt */
typedef struct {
	gchar *text;
	gint64 line; /* 0 when not said */
	gchar *filter;
	gboolean applies;
	gboolean managed;
	gchar *warning; /* English */
} SdtClientInfoSetting;

typedef struct {
	gboolean present; /* the document had a config object */
	gchar *path;
	gchar *error; /* English: config.txt could not be read */
	gchar *managed_block;
	GPtrArray *settings; /* of SdtClientInfoSetting */
} SdtClientInfoConfig;

typedef struct {
	SdtClientInfoBoard board;
	SdtClientInfoCard card;
	SdtClientInfoBus bus;
	SdtClientInfoKernelLog kernel_log;
	SdtClientInfoConfig config;
	gboolean simulated;
	GPtrArray *warnings; /* of gchar*, English */
} SdtClientInfo;

void sdt_client_info_free(SdtClientInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtClientInfo, sdt_client_info_free)

/* card.emmc of @card (info or health, DESIGN.md): @present FALSE and every value -1 when
 * it is null or absent; a value out of 0..255 is unknown (-1) */
gboolean sdt_client_info_read_emmc_wear(JsonObject *card,
					const gchar *where,
					gboolean *present,
					SdtEmmcWear *wear,
					GError **error);

/* a member of the wrong type is SDT_ERROR_INVALID_DATA naming it (card.manfid) */
SdtClientInfo *sdt_client_info_from_json(JsonObject *obj, GError **error);

G_END_DECLS
