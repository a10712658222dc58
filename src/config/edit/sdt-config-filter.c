/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the filters of config.txt (PLATFORM.md §3.3) and the board table they name */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sdt-board-model.h"
#include "sdt-config-txt.h"
#include "sdt-config-txt-private.h"

typedef struct {
	const gchar *name;
	gint codes[6];
} SdtConfigModelFilter;

/* PLATFORM.md §3.3; -1 ends a list.  [pi5] is taken to reach the whole BCM2712
 * family as [pi4] reaches the BCM2711 family ([UNVERIFIED] for 500 and CM5). */
static const SdtConfigModelFilter sdt_config_model_filters[] = {
	{"pi1", {0x00, 0x01, 0x02, 0x03, 0x06, -1}},
	{"pi2", {0x04, -1}},
	{"pi3", {0x08, 0x0a, 0x0d, 0x0e, 0x10, -1}},
	{"pi3+", {0x0d, 0x0e, -1}},
	{"pi4", {0x11, 0x13, 0x14, 0x15, -1}},
	{"pi400", {0x13, -1}},
	{"cm4", {0x14, -1}},
	{"cm4s", {0x15, -1}},
	{"pi5", {0x17, 0x18, 0x19, 0x1a, -1}},
	{"cm5", {0x18, 0x1a, -1}},
	{"pi500", {0x19, -1}},
	{"pi0", {0x09, 0x0c, 0x12, -1}},
	{"pi0w", {0x0c, 0x12, -1}},
	{"pi02", {0x12, -1}},
};

/* the type codes of the board table (sdt-board-model.c) */
const gint *
sdt_config_filter_known_type_codes(guint *n_codes)
{
	static gint codes[64];
	static gsize n_once = 0;

	if (g_once_init_enter(&n_once)) {
		guint n_models = 0;
		const SdtBoardModel *models = sdt_board_model_table(&n_models);
		gsize n = 0;
		for (guint i = 0; i < n_models && n < G_N_ELEMENTS(codes); i++)
			codes[n++] = (gint) models[i].type_code;
		g_once_init_leave(&n_once, n);
	}
	if (n_codes != NULL)
		*n_codes = (guint) n_once;
	return codes;
}

static gboolean
sdt_config_parse_board_type(const gchar *name, gint *type_code)
{
	const gchar *v;
	gchar *endptr = NULL;
	guint64 val;

	if (!g_str_has_prefix(name, "board-type="))
		return FALSE;
	v = name + strlen("board-type=");
	if (v[0] == '\0')
		return FALSE;
	if (g_str_has_prefix(v, "0x")) {
		if (v[2] == '\0')
			return FALSE;
		val = g_ascii_strtoull(v + 2, &endptr, 16);
	} else {
		val = g_ascii_strtoull(v, &endptr, 10);
	}
	if (endptr == NULL || *endptr != '\0' || val > 0xff)
		return FALSE;
	*type_code = (gint) val;
	return TRUE;
}

/**
 * sdt_config_filter_parse:
 * @name: the text between [ and ]
 * @type: (out): the filter type
 *
 * Returns: %FALSE for [all], which is no filter but clears them all
 */
gboolean
sdt_config_filter_parse(const gchar *name, SdtConfigFilterType *type)
{
	gint code;

	if (g_strcmp0(name, "all") == 0)
		return FALSE;
	if (g_strcmp0(name, "none") == 0)
		*type = SDT_CONFIG_FILTER_NONE;
	else if (g_strcmp0(name, "tryboot") == 0)
		*type = SDT_CONFIG_FILTER_TRYBOOT;
	else if (g_str_has_prefix(name, "EDID="))
		*type = SDT_CONFIG_FILTER_EDID;
	else if (g_str_has_prefix(name, "HDMI:"))
		*type = SDT_CONFIG_FILTER_HDMI;
	else if (g_str_has_prefix(name, "gpio") && g_ascii_isdigit(name[4]))
		*type = SDT_CONFIG_FILTER_GPIO;
	else if (g_str_has_prefix(name, "boot_partition=") || g_str_has_prefix(name, "partition="))
		*type = SDT_CONFIG_FILTER_PARTITION;
	else if (g_str_has_prefix(name, "0x") && name[2] != '\0' &&
		 strspn(name + 2, "0123456789abcdefABCDEF") == strlen(name + 2))
		*type = SDT_CONFIG_FILTER_SERIAL;
	else if (sdt_config_parse_board_type(name, &code))
		*type = SDT_CONFIG_FILTER_MODEL;
	else if ((g_str_has_prefix(name, "pi") || g_str_has_prefix(name, "cm")) &&
		 g_ascii_isdigit(name[2]))
		/* [pi6] and other model names the firmware may not know: a model
		 * filter that matches none of the documented boards */
		*type = SDT_CONFIG_FILTER_MODEL;
	else
		*type = SDT_CONFIG_FILTER_UNKNOWN;
	return TRUE;
}

gboolean
sdt_config_filter_model_matches(const gchar *filter, gint type_code)
{
	gint code;

	if (type_code < 0)
		return FALSE;
	if (sdt_config_parse_board_type(filter, &code))
		return code == type_code;
	for (guint i = 0; i < G_N_ELEMENTS(sdt_config_model_filters); i++) {
		if (g_strcmp0(sdt_config_model_filters[i].name, filter) != 0)
			continue;
		for (guint j = 0; sdt_config_model_filters[i].codes[j] >= 0; j++) {
			if (sdt_config_model_filters[i].codes[j] == type_code)
				return TRUE;
		}
		return FALSE;
	}
	return FALSE;
}

SdtConfigApplies
sdt_config_filter_state_applies(const SdtConfigFilterState *state, gint type_code, gboolean tryboot)
{
	SdtConfigApplies result = SDT_CONFIG_APPLIES_YES;

	if (state->active[SDT_CONFIG_FILTER_NONE] != NULL)
		return SDT_CONFIG_APPLIES_NO;
	if (state->active[SDT_CONFIG_FILTER_MODEL] != NULL &&
	    !sdt_config_filter_model_matches(state->active[SDT_CONFIG_FILTER_MODEL], type_code))
		return SDT_CONFIG_APPLIES_NO;
	if (state->active[SDT_CONFIG_FILTER_TRYBOOT] != NULL && !tryboot)
		return SDT_CONFIG_APPLIES_NO;
	for (guint i = SDT_CONFIG_FILTER_EDID; i < SDT_CONFIG_FILTER_LAST; i++) {
		if (state->active[i] != NULL)
			result = SDT_CONFIG_APPLIES_MAYBE;
	}
	return result;
}

/* boards with Wi-Fi and Bluetooth: WLAN on the controller the sdhost overlay
 * disables, and the mini UART as primary UART (PLATFORM.md §2.1, §2.3) */
gboolean
sdt_config_filter_board_has_wireless(gint type_code)
{
	return type_code == 0x08 || type_code == 0x0c || type_code == 0x0d || type_code == 0x0e ||
	       type_code == 0x12;
}
