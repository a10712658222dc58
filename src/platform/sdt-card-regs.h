/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * Pure decoders of the SD card registers as the kernel prints them in sysfs
 * (hex, most significant byte first; PLATFORM.md §5.3, §6).  Each returns
 * FALSE with SDT_ERROR_INVALID_DATA for a string of the wrong length, with a
 * non-hex character, or with a reserved structure version.  Trailing
 * whitespace (the sysfs newline) is ignored.  The CRC byte is never used.
 */

typedef struct {
	guint manfid;   /* MID */
	gchar oemid[3]; /* OID, two characters; non-printable ones become '?' */
	gchar name[24]; /* PNM, trailing spaces and NULs trimmed, other bytes escaped \xNN */
	guint hwrev;    /* PRV high nibble */
	guint fwrev;    /* PRV low nibble */
	guint32 serial; /* PSN */
	guint year;     /* 2000–2255 */
	guint month;    /* 1–12, 0 if the card stores an invalid month */
} SdtCid;

gboolean sdt_card_regs_cid_parse(const gchar *hex, SdtCid *cid, GError **error);

typedef struct {
	guint structure;    /* 0 = v1 (SDSC), 1 = v2 (SDHC/SDXC), 2 = v3 (SDUC) */
	guint tran_speed;   /* raw TRAN_SPEED byte */
	guint64 max_dtr_hz; /* decoded TRAN_SPEED, 0 if reserved */
	guint ccc;          /* card command classes */
	guint read_bl_len;
	guint32 c_size;
	guint c_size_mult; /* v1 only */
	guint64 capacity_bytes;
	gboolean perm_write_protect;
	gboolean tmp_write_protect;
} SdtCsd;

gboolean sdt_card_regs_csd_parse(const gchar *hex, SdtCsd *csd, GError **error);

typedef struct {
	guint structure;
	guint sd_spec;
	gboolean sd_spec3;
	gboolean sd_spec4;
	guint sd_specx;
	gboolean data_stat_after_erase;
	guint security;    /* SD_SECURITY */
	guint bus_widths;  /* bit 0: 1-bit, bit 2: 4-bit */
	guint cmd_support; /* as the kernel reads it: 4 bits with SPEC4, 2 bits with SPEC3 */
	gboolean cmd20;    /* speed class control */
	gboolean cmd23;    /* set block count */
	gboolean cmd48;    /* read extension register single block */
	gboolean cmd58;    /* extension register multi block */
} SdtScr;

gboolean sdt_card_regs_scr_parse(const gchar *hex, SdtScr *scr, GError **error);
/* "1.0x", "1.10", "2.00", "3.0x", "4.xx" … "9.xx" */
const gchar *sdt_card_regs_scr_get_spec_version(const SdtScr *scr);

typedef struct {
	guint dat_bus_width; /* raw: 0 = 1 bit, 2 = 4 bits */
	guint card_type;     /* 0 regular, 1 ROM, 2 OTP */
	guint speed_class_raw;
	gint speed_class;       /* 0, 2, 4, 6, 10; -1 for a reserved value */
	guint performance_move; /* MB/s, 0 = not defined */
	guint au_size_raw;
	guint64 au_size_bytes; /* 0 if not defined */
	guint erase_size;
	guint erase_timeout;
	guint erase_offset;
	guint uhs_grade_raw;
	gint uhs_grade; /* 0, 1, 3; -1 for a reserved value */
	guint video_class_raw;
	gint video_class; /* 0, 6, 10, 30, 60, 90; -1 for a reserved value */
	guint app_class_raw;
	gint app_class;            /* 0, 1 (A1), 2 (A2); -1 for a reserved value */
	guint performance_enhance; /* raw byte, layout PLATFORM.md §6.5 */
	gboolean card_maintenance;
	gboolean host_maintenance;
	gboolean cache;
	guint cq_depth; /* 0 = no command queue */
	gboolean discard;
	gboolean fule;
} SdtSsr;

/* an all-zero SSR (the emulated card, or an SSR read before init) is an error too */
gboolean sdt_card_regs_ssr_parse(const gchar *hex, SdtSsr *ssr, GError **error);

/* sysfs ext_perf bits (Linux's view after CMD48; PLATFORM.md §6.6) */
#define SDT_EXT_PERF_FX_EVENT   (1u << 0)
#define SDT_EXT_PERF_CARD_MAINT (1u << 1)
#define SDT_EXT_PERF_HOST_MAINT (1u << 2)
#define SDT_EXT_PERF_CACHE      (1u << 3)
#define SDT_EXT_PERF_CMD_QUEUE  (1u << 4)
/* sysfs ext_power bits */
#define SDT_EXT_POWER_OFF_NOTIFY (1u << 0)
#define SDT_EXT_POWER_SUSTENANCE (1u << 1)
#define SDT_EXT_POWER_DOWN_MODE  (1u << 2)

/* one byte as two hex digits ("1f") */
gboolean sdt_card_regs_ext_byte_parse(const gchar *hex, guint8 *value, GError **error);

/* the likely maker behind an SD manufacturer id, NULL if not in the table (PLATFORM.md §8) */
const gchar *sdt_card_regs_manufacturer_name(guint manfid);

G_END_DECLS
