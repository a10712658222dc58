/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the SD-related lines of config.txt (PLATFORM.md §3.7) and SD Tuner's block in it */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "sdt-config-txt.h"
#include "sdt-config-txt-private.h"

static gchar *
sdt_config_filter_state_to_string(const SdtConfigFilterState *state)
{
	GString *str = g_string_new(NULL);

	for (guint i = 0; i < SDT_CONFIG_FILTER_LAST; i++) {
		if (state->active[i] == NULL)
			continue;
		if (str->len > 0)
			g_string_append_c(str, ' ');
		g_string_append_printf(str, "[%s]", state->active[i]);
	}
	if (str->len == 0)
		g_string_append(str, "[all]");
	return g_string_free(str, FALSE);
}

static gboolean
sdt_config_str_in(const gchar *str, const gchar *const *list)
{
	return str != NULL && g_strv_contains(list, str);
}

static void
sdt_config_param_classify(const gchar *overlay,
			  const gchar *param,
			  SdtConfigSdKind *kinds,
			  gint *overclock_mhz,
			  gchar **cqe)
{
	static const gchar *const tweak_params[] = {"force_pio",
						    "pio_limit",
						    "debug",
						    "poll_once",
						    NULL};
	static const gchar *const base_params[] = {"sd_force_pio",
						   "sd_pio_limit",
						   "sd_poll_once",
						   "sd_debug",
						   NULL};
	static const gchar *const sdio_params[] = {"sdio_overclock",
						   "poll_once",
						   "bus_width",
						   "gpios_22_25",
						   "gpios_34_37",
						   "gpios_34_39",
						   NULL};
	const gchar *eq = strchr(param, '=');
	g_autofree gchar *name = eq != NULL ? g_strndup(param, eq - param) : g_strdup(param);
	const gchar *value = eq != NULL ? eq + 1 : NULL;

	g_strstrip(name);
	if (g_strcmp0(overlay, "sdtweak") == 0 || g_strcmp0(overlay, "sdhost") == 0) {
		if (g_strcmp0(name, "overclock_50") == 0) {
			*kinds |= SDT_CONFIG_SD_OVERCLOCK;
			if (value != NULL && overclock_mhz != NULL)
				*overclock_mhz = atoi(value);
			return;
		}
		if (sdt_config_str_in(name, tweak_params)) {
			*kinds |= SDT_CONFIG_SD_OTHER_PARAM;
			return;
		}
	}
	if (g_strcmp0(overlay, "sdio") == 0 && sdt_config_str_in(name, sdio_params)) {
		*kinds |= SDT_CONFIG_SD_OVERLAY_SDIO;
		return;
	}
	if (g_strcmp0(name, "sd_overclock") == 0) {
		*kinds |= SDT_CONFIG_SD_OVERCLOCK;
		if (value != NULL && overclock_mhz != NULL)
			*overclock_mhz = atoi(value);
	} else if (g_strcmp0(name, "sd_cqe") == 0) {
		*kinds |= SDT_CONFIG_SD_CQE;
		if (cqe != NULL) {
			g_free(*cqe);
			*cqe = g_strdup(value != NULL ? value : "");
			g_strstrip(*cqe);
		}
	} else if (sdt_config_str_in(name, base_params)) {
		*kinds |= SDT_CONFIG_SD_OTHER_PARAM;
	}
}

/**
 * sdt_config_sd_line_kind:
 * @overlay: (nullable): for dtparam lines, the overlay in scope
 *
 * Returns: what the line does to the SD interface, %SDT_CONFIG_SD_NONE if nothing
 */
SdtConfigSdKind
sdt_config_sd_line_kind(const SdtConfigLine *line,
			const gchar *overlay,
			gint *overclock_mhz,
			gchar **cqe)
{
	SdtConfigSdKind kinds = SDT_CONFIG_SD_NONE;
	g_auto(GStrv) params = NULL;
	const gchar *scope = overlay;
	guint start = 0;

	if (line->kind != SDT_CONFIG_LINE_SETTING)
		return SDT_CONFIG_SD_NONE;
	if (g_strcmp0(line->key, "dtoverlay") == 0) {
		params = g_strsplit(line->value, ",", -1);
		if (params[0] == NULL)
			return SDT_CONFIG_SD_NONE;
		g_strstrip(params[0]);
		if (g_strcmp0(params[0], "sdtweak") == 0)
			kinds |= SDT_CONFIG_SD_OVERLAY_SDTWEAK;
		else if (g_strcmp0(params[0], "sdhost") == 0)
			kinds |= SDT_CONFIG_SD_OVERLAY_SDHOST;
		else if (g_strcmp0(params[0], "sdio") == 0)
			kinds |= SDT_CONFIG_SD_OVERLAY_SDIO;
		else
			return SDT_CONFIG_SD_NONE;
		scope = params[0];
		start = 1;
	} else if (g_strcmp0(line->key, "dtparam") == 0 ||
		   g_strcmp0(line->key, "device_tree_param") == 0) {
		params = g_strsplit(line->value, ",", -1);
	} else {
		return SDT_CONFIG_SD_NONE;
	}
	for (guint i = start; params[i] != NULL; i++)
		sdt_config_param_classify(scope, params[i], &kinds, overclock_mhz, cqe);
	return kinds;
}

gboolean
sdt_config_sd_find_block(SdtConfigTxt *self, guint *begin, guint *end)
{
	g_return_val_if_fail(SDT_IS_CONFIG_TXT(self), FALSE);
	for (guint i = 0; i < sdt_config_txt_get_lines(self)->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(sdt_config_txt_get_lines(self), i);
		if (!g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN))
			continue;
		for (guint j = i + 1; j < sdt_config_txt_get_lines(self)->len; j++) {
			SdtConfigLine *line2 = g_ptr_array_index(sdt_config_txt_get_lines(self), j);
			if (g_strcmp0(line2->text, SDT_CONFIG_BLOCK_END) == 0) {
				if (begin != NULL)
					*begin = i;
				if (end != NULL)
					*end = j;
				return TRUE;
			}
		}
		return FALSE;
	}
	return FALSE;
}

/* the recommendation id named by the begin marker, or NULL */
gchar *
sdt_config_sd_get_block_id(SdtConfigTxt *self)
{
	guint begin = 0;
	const gchar *p;
	SdtConfigLine *line;

	if (!sdt_config_sd_find_block(self, &begin, NULL))
		return NULL;
	line = g_ptr_array_index(sdt_config_txt_get_lines(self), begin);
	p = line->text + strlen(SDT_CONFIG_BLOCK_BEGIN);
	return g_strndup(p, strcspn(p, " \t"));
}

static void
sdt_config_sd_setting_free(SdtConfigSdSetting *setting)
{
	g_free((gpointer) setting->entry);
	g_free(setting->cqe);
	g_free(setting->filter_text);
	g_free(setting);
}

GPtrArray *
sdt_config_sd_settings(SdtConfigTxt *self, gint type_code)
{
	g_autoptr(GPtrArray) entries = sdt_config_entries_get(self, type_code, FALSE);
	GPtrArray *result =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_config_sd_setting_free);
	guint begin = 0;
	guint end = 0;
	gboolean has_block = sdt_config_sd_find_block(self, &begin, &end);

	for (guint i = 0; i < entries->len; i++) {
		SdtConfigEntry *entry = g_ptr_array_index(entries, i);
		SdtConfigSdSetting *setting;
		gint mhz = 0;
		gchar *cqe = NULL;
		SdtConfigSdKind kinds =
			sdt_config_sd_line_kind(entry->line, entry->overlay, &mhz, &cqe);

		if (kinds == SDT_CONFIG_SD_NONE) {
			g_free(cqe);
			continue;
		}
		setting = g_new0(SdtConfigSdSetting, 1);
		setting->entry = g_memdup2(entry, sizeof(*entry));
		setting->kinds = kinds;
		setting->overclock_mhz = mhz;
		setting->cqe = cqe;
		setting->managed = has_block && !entry->in_include && entry->index > begin &&
				   entry->index < end;
		setting->kills_wlan_here = (kinds & SDT_CONFIG_SD_OVERLAY_SDHOST) != 0 &&
					   entry->applies != SDT_CONFIG_APPLIES_NO &&
					   sdt_config_filter_board_has_wireless(type_code);
		setting->filter_text = sdt_config_filter_state_to_string(&entry->state);
		g_ptr_array_add(result, setting);
	}
	return result;
}

GPtrArray *
sdt_config_sd_settings_in_effect(SdtConfigTxt *self, gint type_code)
{
	GPtrArray *all = sdt_config_sd_settings(self, type_code);
	for (guint i = all->len; i > 0; i--) {
		SdtConfigSdSetting *setting = g_ptr_array_index(all, i - 1);
		if (setting->entry->applies == SDT_CONFIG_APPLIES_NO)
			g_ptr_array_remove_index(all, i - 1);
	}
	return all;
}

/* validation -------------------------------------------------------------- */
