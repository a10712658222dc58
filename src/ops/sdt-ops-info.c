/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-ops-private.h"
#include "sdt-ops.h"

/* `info`: the collected facts (sdt-info.c) and what config.txt says about the SD card */

static const gchar *
sdt_ops_config_kind_to_string(SdtConfigSdKind kinds)
{
	if (kinds & SDT_CONFIG_SD_OVERLAY_SDHOST)
		return "sdhost-overlay";
	if (kinds & SDT_CONFIG_SD_OVERLAY_SDTWEAK)
		return "sdtweak-overlay";
	if (kinds & SDT_CONFIG_SD_OVERLAY_SDIO)
		return "sdio-overlay";
	if (kinds & SDT_CONFIG_SD_OVERCLOCK)
		return "overclock";
	if (kinds & SDT_CONFIG_SD_CQE)
		return "cqe";
	return "other";
}

/* the warning of a setting that is wrong on this board, or NULL */
static const gchar *
sdt_ops_info_setting_warning(const SdtConfigSdSetting *s)
{
	if (s->kills_wlan_here)
		return _("the sdhost overlay switches off Wi-Fi on this board: use "
			 "dtparam=sd_overclock instead");
	if (s->kinds & SDT_CONFIG_SD_OVERLAY_SDTWEAK)
		return _("the sdtweak overlay is deprecated: use the sd_* dtparams");
	return NULL;
}

/* one member of "sd_settings" */
static void
sdt_ops_info_setting_to_report(SdtInfoReportConfig *config, const SdtConfigSdSetting *s)
{
	SdtInfoReportSetting *r = sdt_info_report_add_setting(config);

	r->text = g_strdup(s->entry->line->text);
	r->line = s->entry->lineno;
	r->file = g_strdup(s->entry->file);
	r->filter = g_strdup(s->filter_text);
	r->applies = s->entry->applies != SDT_CONFIG_APPLIES_NO;
	r->conditional = s->entry->applies == SDT_CONFIG_APPLIES_MAYBE;
	r->managed = s->managed;
	r->kind = g_strdup(sdt_ops_config_kind_to_string(s->kinds));
	r->warning = g_strdup(sdt_ops_info_setting_warning(s));
}

/* the DESIGN.md "config" member ({path, sd_settings: [...]}) of an info document */
static void
sdt_ops_info_config(SdtContext *ctx, const SdtInfo *info, SdtInfoReport *report)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigTxt) cfg = sdt_ops_facts_load_config(ctx, &writer, &error);
	SdtInfoReportConfig *config = sdt_info_report_ensure_config(report);

	if (writer != NULL)
		config->path = g_strdup(sdt_config_writer_get_display_path(writer));
	if (error != NULL)
		config->error = g_strdup(error->message);
	if (cfg != NULL && sdt_config_sd_find_block(cfg, NULL, NULL))
		config->managed_block = sdt_config_sd_get_block_id(cfg);
	if (cfg != NULL) {
		g_autoptr(GPtrArray) sd =
			sdt_config_sd_settings(cfg, sdt_ops_facts_type_code(info));
		for (guint i = 0; i < sd->len; i++)
			sdt_ops_info_setting_to_report(config, g_ptr_array_index(sd, i));
	}
}

gchar *
sdt_ops_info(SdtContext *ctx, GError **error)
{
	g_autoptr(SdtInfo) info = NULL;
	g_autoptr(SdtInfoReport) report = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	info = sdt_info_collect(ctx, error);
	if (info == NULL)
		return NULL;
	report = sdt_info_to_report(info);
	sdt_ops_info_config(ctx, info, report);
	return sdt_info_report_to_string(report);
}
