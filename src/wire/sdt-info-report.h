/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The info report: the `info --json` document (DESIGN.md "sdtunerctl
 * contract"), the helper's GetInfo answer, and the one C type for it.  The
 * engine collects the facts (sdt-info.c) and fills one in (sdt_info_to_report());
 * ops adds "config" and writes it with sdt_info_report_to_string(); the CLI and
 * the app read it back with sdt_info_report_parse() / _from_json().
 *
 * `info` never fails on bad data: what the engine could not find out is null
 * on the wire and unknown here: NULL for a string, SDT_INFO_REPORT_UNKNOWN for
 * a count, an id or a frequency (all of them >= 0 when known), NaN for a
 * measure, SDT_INFO_REPORT_FLAG_UNKNOWN for a yes/no.  The members that are
 * always written (card.present, kernel_log.read, simulated, the lists and the
 * members of a config.txt setting) read FALSE, 0 or empty when absent.  A
 * member of the wrong type is SDT_ERROR_INVALID_DATA naming it (card.manfid);
 * members this version does not know are ignored.
 */

#define SDT_INFO_REPORT_UNKNOWN (-1)

typedef enum {
	SDT_INFO_REPORT_FLAG_UNKNOWN = -1,
	SDT_INFO_REPORT_FLAG_NO = 0,
	SDT_INFO_REPORT_FLAG_YES = 1,
} SdtInfoReportFlag;

typedef struct {
	gchar *model; /* for display */
	gchar *key;   /* "3", "4", "zero-2-w", ..., "unknown" */
	gchar *revision;
	gint64 type_code;
	gchar *soc;
	gchar *sd_controller;
	gchar *name;   /* "3B", "4B" */
	gchar *filter; /* the config.txt filter of this board */
	gint64 core_clock_hz;
	gint64 memory_mb;
	gchar *source;
	GPtrArray *compatible; /* of gchar* */
} SdtInfoReportBoard;

/* card.emmc.life_time_a, _b: the JEDEC estimate, its state and the share of life used */
typedef struct {
	gint64 value; /* the register byte as the engine read it */
	gchar *state; /* "not-defined", "used", "exceeded", "unknown" */
	gint64 used_min_percent;
	gint64 used_max_percent;
} SdtInfoReportLifeTime;

/* card.emmc (info and health): the chip's own wear report (DESIGN.md "eMMC and the system
 * disk"); null, and NULL here, for an SD card or no card */
typedef struct {
	gchar *wear; /* the verdict: "unknown", "normal", "warning", "urgent" */
	SdtInfoReportLifeTime life_time_a;
	SdtInfoReportLifeTime life_time_b;
	gint64 pre_eol;       /* pre_eol.value */
	gchar *pre_eol_state; /* pre_eol.state: "not-defined", "normal", ..., "unknown" */
	gint64 ext_csd_rev;
	gint64 oemid;
	gchar *raw_life_time; /* raw.life_time: the sysfs text, "0x02 0x03" */
	gchar *raw_pre_eol_info;
	gchar *raw_rev;
} SdtInfoReportEmmc;

SdtInfoReportEmmc *sdt_info_report_emmc_new(void);
void sdt_info_report_emmc_free(SdtInfoReportEmmc *emmc);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtInfoReportEmmc, sdt_info_report_emmc_free)

/* card.ext_perf and card.ext_power: what Linux found out through CMD48, null (present
 * FALSE) when the kernel does not show it */
typedef struct {
	gboolean present;
	gint64 raw;
	gboolean cache;
	gboolean cmd_queue;
	gboolean card_maintenance;
	gboolean host_maintenance;
} SdtInfoReportExtPerf;

typedef struct {
	gboolean present;
	gint64 raw;
	gboolean power_off_notify;
} SdtInfoReportExtPower;

/* card.registers: the registers as hex text */
typedef struct {
	gchar *cid;
	gchar *csd;
	gchar *scr;
	gchar *ssr;
	gchar *ext_perf;
	gchar *ext_power;
} SdtInfoReportRegisters;

typedef struct {
	gboolean present;
	gchar *device; /* "mmcblk0" */
	gint64 manfid;
	gchar *manufacturer; /* a guess from manfid, NULL when not in the table */
	gchar *oemid;
	gchar *name;
	gchar *date; /* "YYYY-MM" */
	gint64 capacity_bytes;
	gchar *spec_version;
	gint64 speed_class; /* 0: none */
	gint64 uhs_grade;
	gint64 video_class;
	gint64 app_class;
	gint64 cq_depth; /* 0: not supported */
	SdtInfoReportFlag cache;
	/* extras: where the card sits */
	gchar *type;
	gchar *kind; /* "sd", "emmc" */
	gchar *mmc_device;
	gchar *host;
	gchar *host_device;
	gchar *host_driver;
	SdtInfoReportFlag holds_system;
	gchar *system_device;    /* where / is when not on the card: "nvme0n1p2", "sda2" */
	GPtrArray *mount_points; /* of gchar* */
	gint64 size_bytes;
	/* extras: the register fields */
	gchar *serial;
	gint64 hwrev;
	gint64 fwrev;
	gint64 csd_version;
	gint64 max_dtr_hz;
	SdtInfoReportFlag cmd23;
	SdtInfoReportFlag cmd48;
	gint64 performance_move;
	gint64 au_size_bytes;
	SdtInfoReportFlag discard;
	SdtInfoReportFlag card_maintenance;
	SdtInfoReportFlag host_maintenance;
	SdtInfoReportExtPerf ext_perf;
	SdtInfoReportExtPower ext_power;
	SdtInfoReportRegisters registers;
	SdtInfoReportEmmc *emmc; /* NULL: null */
} SdtInfoReportCard;

typedef struct {
	gint64 clock_hz;
	gint64 actual_clock_hz;
	gchar *timing; /* "sd-high-speed", ..., "unknown" */
	gint64 bus_width;
	gdouble ceiling_mb_s; /* one decimal */
	gchar *cqe;           /* "enabled", "host-software-queue", "off", "unknown" */
	gdouble signal_voltage;
	gchar *timing_text;
	gchar *source; /* "debugfs", "kernel-log" */
} SdtInfoReportBus;

typedef struct {
	gboolean read; /* FALSE: the kernel log could not be read (every fact unknown) */
	gint64 overclock_hz;
	gint64 overclock_current_hz;
	gint64 overclock_reduced;
	SdtInfoReportFlag overclock_cancelled;
	SdtInfoReportFlag cqe_enabled;
	gint64 cqe_tags;
	SdtInfoReportFlag host_software_queue;
	SdtInfoReportFlag cmdq_failed;
	gint64 cqe_recovery;
	gchar *quirks; /* "0x00004000" */
	gchar *card_timing;
	gchar *card_type;
} SdtInfoReportKernelLog;

/* one SD setting found in config.txt (config.sd_settings[]) */
typedef struct {
	gchar *text;
	gint64 line;
	gchar *file;
	gchar *filter;
	gboolean applies;
	gboolean conditional;
	gboolean managed;
	gchar *kind;    /* "sdhost-overlay", "sdtweak-overlay", "sdio-overlay", "overclock", ... */
	gchar *warning; /* English, or NULL */
} SdtInfoReportSetting;

/* "config": what config.txt says about the SD card (added by ops) */
typedef struct {
	gchar *path;
	gchar *error; /* English: config.txt could not be read */
	gchar *managed_block;
	GPtrArray *sd_settings; /* of SdtInfoReportSetting */
} SdtInfoReportConfig;

typedef struct {
	SdtInfoReportBoard board;
	SdtInfoReportCard card;
	SdtInfoReportBus bus;
	SdtInfoReportKernelLog kernel_log;
	gboolean simulated;
	GPtrArray *warnings;         /* of gchar*, English */
	SdtInfoReportConfig *config; /* NULL: not written */
} SdtInfoReport;

/* a report with every value unknown, no card, empty lists and no config */
SdtInfoReport *sdt_info_report_new(void);
void sdt_info_report_free(SdtInfoReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtInfoReport, sdt_info_report_free)

/* @report's config, made empty when it has none */
SdtInfoReportConfig *sdt_info_report_ensure_config(SdtInfoReport *report);
/* a new empty setting, appended to @config's sd_settings */
SdtInfoReportSetting *sdt_info_report_add_setting(SdtInfoReportConfig *config);

/* the document as sdtunerctl prints it (pretty, valid UTF-8) */
gchar *sdt_info_report_to_string(const SdtInfoReport *report);
SdtInfoReport *sdt_info_report_parse(const gchar *text, GError **error);

G_END_DECLS
