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
sdt_ops_info_setting_to_json(JsonBuilder *b, const SdtConfigSdSetting *s)
{
	const gchar *warning = sdt_ops_info_setting_warning(s);

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "text");
	json_builder_add_string_value(b, s->entry->line->text);
	json_builder_set_member_name(b, "line");
	json_builder_add_int_value(b, s->entry->lineno);
	json_builder_set_member_name(b, "file");
	json_builder_add_string_value(b, s->entry->file);
	json_builder_set_member_name(b, "filter");
	json_builder_add_string_value(b, s->filter_text);
	json_builder_set_member_name(b, "applies");
	json_builder_add_boolean_value(b, s->entry->applies != SDT_CONFIG_APPLIES_NO);
	json_builder_set_member_name(b, "conditional");
	json_builder_add_boolean_value(b, s->entry->applies == SDT_CONFIG_APPLIES_MAYBE);
	json_builder_set_member_name(b, "managed");
	json_builder_add_boolean_value(b, s->managed);
	json_builder_set_member_name(b, "kind");
	json_builder_add_string_value(b, sdt_ops_config_kind_to_string(s->kinds));
	json_builder_set_member_name(b, "warning");
	if (warning != NULL)
		json_builder_add_string_value(b, warning);
	else
		json_builder_add_null_value(b);
	json_builder_end_object(b);
}

/* the DESIGN.md "config" member ({path, sd_settings: [...]}) of an info document */
static JsonNode *
sdt_ops_info_config(SdtContext *ctx, const SdtInfo *info)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigTxt) cfg = sdt_ops_facts_load_config(ctx, &writer, &error);
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autofree gchar *id = NULL;

	if (cfg != NULL && sdt_config_sd_find_block(cfg, NULL, NULL))
		id = sdt_config_sd_get_block_id(cfg);
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "path");
	if (writer != NULL)
		json_builder_add_string_value(b, sdt_config_writer_get_display_path(writer));
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "error");
	if (error != NULL)
		json_builder_add_string_value(b, error->message);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "managed_block");
	if (id != NULL)
		json_builder_add_string_value(b, id);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "sd_settings");
	json_builder_begin_array(b);
	if (cfg != NULL) {
		g_autoptr(GPtrArray) sd =
			sdt_config_sd_settings(cfg, sdt_ops_facts_type_code(info));
		for (guint i = 0; i < sd->len; i++)
			sdt_ops_info_setting_to_json(b, g_ptr_array_index(sd, i));
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

JsonNode *
sdt_ops_info(SdtContext *ctx, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtInfo) info = sdt_info_collect(ctx, error);
	JsonNode *node;

	if (info == NULL)
		return NULL;
	node = sdt_info_to_json(info);
	json_object_set_member(json_node_get_object(node),
			       "config",
			       sdt_ops_info_config(ctx, info));
	return node;
}
