/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/*
 * A byte-exact model of a Raspberry Pi config.txt (PLATFORM.md §3).
 *
 * The parser is pure: it takes bytes and never touches the file system.
 * Every line keeps its exact text and its own line ending ("\n", "\r\n" or ""
 * for a last line without one), so serialising an unmodified model returns
 * the input bytes exactly.  `include` lines are followed only when the caller
 * attaches the included files (sdt_config_txt_set_include()); included files
 * are read, never edited.
 */

#define SDT_TYPE_CONFIG_TXT (sdt_config_txt_get_type())
G_DECLARE_FINAL_TYPE(SdtConfigTxt, sdt_config_txt, SDT, CONFIG_TXT, GObject)

/* the firmware ignores the characters of a line past this (PLATFORM.md §3.2) */
#define SDT_CONFIG_TXT_MAX_LINE_LENGTH 98
/* SD Tuner refuses to edit files larger than this */
#define SDT_CONFIG_TXT_MAX_SIZE (1024 * 1024)
/* a longer line is refused for editing: no real config.txt has one */
#define SDT_CONFIG_TXT_MAX_RAW_LINE 1024

/* the include budget: the firmware reads a small, flat set of files
 * (PLATFORM.md §3.2), so a config.txt past these is refused, not walked */
#define SDT_CONFIG_TXT_MAX_INCLUDE_FILES 32           /* different files read */
#define SDT_CONFIG_TXT_MAX_INCLUDE_BYTES (256 * 1024) /* their total size */
#define SDT_CONFIG_TXT_MAX_WALK_LINES    20000        /* included lines met, in place */
#define SDT_CONFIG_TXT_MAX_WALK_INCLUDES 256          /* include lines followed */
/* nesting deeper than this is not followed (and a cycle is cut at once) */
#define SDT_CONFIG_TXT_MAX_INCLUDE_DEPTH 4

/* the no-board value for @type_code arguments: only unfiltered lines apply */
#define SDT_CONFIG_TYPE_CODE_NONE (-1)

typedef enum {
	SDT_CONFIG_LINE_BLANK,
	SDT_CONFIG_LINE_COMMENT,
	SDT_CONFIG_LINE_FILTER,     /* [name] */
	SDT_CONFIG_LINE_FILTER_BAD, /* a '[' that is never closed */
	SDT_CONFIG_LINE_SETTING,    /* key=value */
	SDT_CONFIG_LINE_INCLUDE,    /* include FILE */
	SDT_CONFIG_LINE_DIRECTIVE,  /* key value..., e.g. "initramfs initrd.img followkernel" */
	SDT_CONFIG_LINE_UNKNOWN,    /* anything else: kept, never interpreted */
} SdtConfigLineKind;

/* the filter types of PLATFORM.md §3.3: same type replaces, different types AND */
typedef enum {
	SDT_CONFIG_FILTER_MODEL, /* [pi3], [cm4], [board-type=0x08], ... */
	SDT_CONFIG_FILTER_NONE,  /* [none] */
	SDT_CONFIG_FILTER_TRYBOOT,
	SDT_CONFIG_FILTER_EDID,
	SDT_CONFIG_FILTER_SERIAL, /* [0x12345678] */
	SDT_CONFIG_FILTER_GPIO,
	SDT_CONFIG_FILTER_HDMI,
	SDT_CONFIG_FILTER_PARTITION, /* [boot_partition=N] */
	SDT_CONFIG_FILTER_UNKNOWN,   /* a name the firmware documentation does not list */
	SDT_CONFIG_FILTER_LAST
} SdtConfigFilterType;

/* whether a line takes effect on a board */
typedef enum {
	SDT_CONFIG_APPLIES_NO,
	SDT_CONFIG_APPLIES_YES,
	SDT_CONFIG_APPLIES_MAYBE, /* depends on a run-time filter: [HDMI:1], [gpio4=1], ... */
} SdtConfigApplies;

/* the active filters at a line; each slot points to a filter line's text, or is NULL */
typedef struct {
	const gchar *active[SDT_CONFIG_FILTER_LAST];
} SdtConfigFilterState;

/* what an SD-related line does (PLATFORM.md §3.7) */
typedef enum {
	SDT_CONFIG_SD_NONE = 0,
	SDT_CONFIG_SD_OVERCLOCK = 1 << 0,   /* sd_overclock, or overclock_50 of sdtweak/sdhost */
	SDT_CONFIG_SD_CQE = 1 << 1,         /* sd_cqe */
	SDT_CONFIG_SD_OTHER_PARAM = 1 << 2, /* sd_force_pio, sd_pio_limit, sd_poll_once, ... */
	SDT_CONFIG_SD_OVERLAY_SDTWEAK = 1 << 3, /* deprecated */
	SDT_CONFIG_SD_OVERLAY_SDHOST = 1 << 4,  /* disables WLAN on Pi 3 / Zero W / Zero 2 W */
	SDT_CONFIG_SD_OVERLAY_SDIO = 1 << 5,
} SdtConfigSdKind;

typedef struct {
	SdtConfigLineKind kind;
	gchar *text; /* the exact bytes of the line, without its line ending */
	gsize text_len;
	gchar *eol; /* "\n", "\r\n" or "" */
	gchar *key; /* setting/include/directive: the key without leading blanks */
	gchar *value;
	gchar *filter;  /* FILTER: the text between [ and ] */
	gchar *overlay; /* dtoverlay=: the overlay name, "" for an empty dtoverlay= */
} SdtConfigLine;

/* one line as the firmware meets it, after includes are inlined */
typedef struct {
	const SdtConfigLine *line;
	const gchar *file;   /* the file name as given ("config.txt" or the include) */
	guint lineno;        /* 1-based, within @file */
	gboolean in_include; /* from an included file: never edited */
	SdtConfigFilterState state;
	SdtConfigApplies applies; /* for the board of the query */
	const gchar *overlay;     /* dtparam lines: the overlay in scope, NULL for the base DT */
	guint index; /* index in the main file's lines (the include line for includes) */
} SdtConfigEntry;

/* one SD-related line, anywhere in the file or its includes */
typedef struct {
	const SdtConfigEntry *entry;
	SdtConfigSdKind kinds;
	gint overclock_mhz;       /* > 0 when the line sets an overclock */
	gchar *cqe;               /* the sd_cqe value as written ("" for a bare sd_cqe), or NULL */
	gboolean managed;         /* inside SD Tuner's block */
	gboolean kills_wlan_here; /* sdhost overlay on a board with WLAN on the other controller */
	gchar *filter_text;       /* the active filters, e.g. "[pi3]", "[all]", "[pi4] [HDMI:1]" */
} SdtConfigSdSetting;

SdtConfigTxt *sdt_config_txt_new_from_bytes(GBytes *bytes, const gchar *name);
GBytes *sdt_config_txt_to_bytes(SdtConfigTxt *self);
const gchar *sdt_config_txt_get_name(SdtConfigTxt *self);
GPtrArray *sdt_config_txt_get_lines(SdtConfigTxt *self);
const gchar *sdt_config_txt_get_eol_style(SdtConfigTxt *self);

/* the file names of the `include` lines, in order (duplicates removed) */
GPtrArray *sdt_config_txt_get_include_names(SdtConfigTxt *self);
void sdt_config_txt_set_include(SdtConfigTxt *self, const gchar *name, SdtConfigTxt *included);
/* FALSE with a clear error when the attached includes exceed the walk budget */
gboolean sdt_config_entries_check_include_budget(SdtConfigTxt *self, GError **error);

/* checks that SD Tuner can edit the bytes: no NUL, size, line length, unclosed [ ... */
gboolean sdt_config_editable_check_bytes(GBytes *bytes, GError **error);
gboolean sdt_config_editable_check(SdtConfigTxt *self, GError **error);

/* filters */
gboolean sdt_config_filter_parse(const gchar *name, SdtConfigFilterType *type);
gboolean sdt_config_filter_model_matches(const gchar *filter, gint type_code);
/* boards with Wi-Fi/Bluetooth: 3B, 3B+, 3A+, Zero W, Zero 2 W */
gboolean sdt_config_filter_board_has_wireless(gint type_code);
/* every type code of the board table, for reach computations */
const gint *sdt_config_filter_known_type_codes(guint *n_codes);

/* every line as the firmware meets it (includes inlined), with @type_code's view */
GPtrArray *sdt_config_entries_get(SdtConfigTxt *self, gint type_code, gboolean tryboot);
/* the setting, include and directive lines that take effect on @type_code */
GPtrArray *sdt_config_entries_lines_in_effect(SdtConfigTxt *self, gint type_code);
/* every SD-related line, with whether it applies to @type_code; free with g_ptr_array_unref */
GPtrArray *sdt_config_sd_settings(SdtConfigTxt *self, gint type_code);
/* SD settings that take effect on @type_code (applies YES or MAYBE) */
GPtrArray *sdt_config_sd_settings_in_effect(SdtConfigTxt *self, gint type_code);

/* the value of the last setting @key in effect on @type_code, or NULL */
const gchar *sdt_config_entries_get_value(SdtConfigTxt *self, const gchar *key, gint type_code);

/* SD Tuner's own marks */
#define SDT_CONFIG_BLOCK_BEGIN   "# --- SD Tuner begin: "
#define SDT_CONFIG_BLOCK_END     "# --- SD Tuner end ---"
#define SDT_CONFIG_DISABLED_MARK "#sd-tuner-off: "

gboolean sdt_config_sd_find_block(SdtConfigTxt *self, guint *begin, guint *end);
gchar *sdt_config_sd_get_block_id(SdtConfigTxt *self);

G_END_DECLS
