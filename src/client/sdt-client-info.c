/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include "sdt-client-info.h"
#include "sdt-json-strict.h"

#define UNKNOWN SDT_CLIENT_INFO_UNKNOWN

static void
sdt_client_info_setting_free(SdtClientInfoSetting *s)
{
	g_free(s->text);
	g_free(s->filter);
	g_free(s->warning);
	g_free(s);
}

void
sdt_client_info_free(SdtClientInfo *info)
{
	if (info == NULL)
		return;
	g_free(info->board.model);
	g_free(info->board.key);
	g_free(info->board.name);
	g_free(info->board.revision);
	g_free(info->board.soc);
	g_free(info->board.sd_controller);
	g_free(info->board.filter);
	g_free(info->card.device);
	g_free(info->card.mmc_device);
	g_free(info->card.host_device);
	g_free(info->card.host_driver);
	g_free(info->card.manufacturer);
	g_free(info->card.oemid);
	g_free(info->card.name);
	g_free(info->card.serial);
	g_free(info->card.date);
	g_free(info->card.spec_version);
	g_ptr_array_unref(info->card.mount_points);
	g_free(info->card.system_device);
	g_free(info->bus.timing);
	g_free(info->bus.cqe);
	g_free(info->bus.source);
	g_free(info->kernel_log.quirks);
	g_free(info->config.path);
	g_free(info->config.error);
	g_free(info->config.managed_block);
	g_ptr_array_unref(info->config.settings);
	g_ptr_array_unref(info->warnings);
	g_free(info);
}

/* a yes/no that may be null */
static gboolean
sdt_client_info_read_flag(JsonObject *obj,
			  const gchar *where,
			  const gchar *member,
			  SdtClientFlag *value,
			  GError **error)
{
	gboolean v; /* TRUE, FALSE, or the fallback for null */

	if (!sdt_json_strict_bool(obj, where, member, SDT_CLIENT_FLAG_UNKNOWN, &v, error))
		return FALSE;
	*value = v == SDT_CLIENT_FLAG_UNKNOWN ? SDT_CLIENT_FLAG_UNKNOWN
		 : v                          ? SDT_CLIENT_FLAG_YES
					      : SDT_CLIENT_FLAG_NO;
	return TRUE;
}

static gboolean
sdt_client_info_read_board(JsonObject *obj, SdtClientInfoBoard *b, GError **error)
{
	const gchar *at = "board";
	JsonObject *board;

	if (!sdt_json_strict_object(obj, NULL, at, &board, error))
		return FALSE;
	return sdt_json_strict_string(board, at, "model", &b->model, error) &&
	       sdt_json_strict_string(board, at, "key", &b->key, error) &&
	       sdt_json_strict_string(board, at, "name", &b->name, error) &&
	       sdt_json_strict_string(board, at, "revision", &b->revision, error) &&
	       sdt_json_strict_int(board, at, "type_code", UNKNOWN, &b->type_code, error) &&
	       sdt_json_strict_string(board, at, "soc", &b->soc, error) &&
	       sdt_json_strict_string(board, at, "sd_controller", &b->sd_controller, error) &&
	       sdt_json_strict_string(board, at, "filter", &b->filter, error) &&
	       sdt_json_strict_int(board, at, "core_clock_hz", UNKNOWN, &b->core_clock_hz, error);
}

/* which device, made by whom, when, how large */
static gboolean
sdt_client_info_read_card_identity(JsonObject *card, SdtClientInfoCard *c, GError **error)
{
	const gchar *at = "card";

	return sdt_json_strict_bool(card, at, "present", FALSE, &c->present, error) &&
	       sdt_json_strict_string(card, at, "device", &c->device, error) &&
	       sdt_json_strict_string(card, at, "mmc_device", &c->mmc_device, error) &&
	       sdt_json_strict_string(card, at, "host_device", &c->host_device, error) &&
	       sdt_json_strict_string(card, at, "host_driver", &c->host_driver, error) &&
	       sdt_json_strict_int(card, at, "manfid", UNKNOWN, &c->manfid, error) &&
	       sdt_json_strict_string(card, at, "manufacturer", &c->manufacturer, error) &&
	       sdt_json_strict_string(card, at, "oemid", &c->oemid, error) &&
	       sdt_json_strict_string(card, at, "name", &c->name, error) &&
	       sdt_json_strict_string(card, at, "serial", &c->serial, error) &&
	       sdt_json_strict_string(card, at, "date", &c->date, error) &&
	       sdt_json_strict_int(card, at, "capacity_bytes", UNKNOWN, &c->capacity_bytes, error);
}

/* the classes it claims and what it supports */
static gboolean
sdt_client_info_read_card_features(JsonObject *card, SdtClientInfoCard *c, GError **error)
{
	const gchar *at = "card";

	return sdt_json_strict_string(card, at, "spec_version", &c->spec_version, error) &&
	       sdt_json_strict_int(card, at, "speed_class", UNKNOWN, &c->speed_class, error) &&
	       sdt_json_strict_int(card, at, "uhs_grade", UNKNOWN, &c->uhs_grade, error) &&
	       sdt_json_strict_int(card, at, "video_class", UNKNOWN, &c->video_class, error) &&
	       sdt_json_strict_int(card, at, "app_class", UNKNOWN, &c->app_class, error) &&
	       sdt_json_strict_int(card, at, "cq_depth", UNKNOWN, &c->cq_depth, error) &&
	       sdt_client_info_read_flag(card, at, "cache", &c->cache, error) &&
	       sdt_client_info_read_flag(card, at, "cmd48", &c->cmd48, error) &&
	       sdt_client_info_read_flag(card, at, "holds_system", &c->holds_system, error) &&
	       sdt_json_strict_string(card, at, "system_device", &c->system_device, error) &&
	       sdt_json_strict_strings(card, at, "mount_points", c->mount_points, error);
}

/* one register value of card.emmc: @member.value, -1 when null or out of range */
static gboolean
sdt_json_strict_emmc_value(JsonObject *emmc,
			   const gchar *where,
			   const gchar *member,
			   gint *value,
			   GError **error)
{
	g_autofree gchar *at = g_strdup_printf("%s.emmc", where);
	g_autofree gchar *at_member = g_strdup_printf("%s.emmc.%s", where, member);
	JsonObject *obj = NULL;
	gint64 v = -1;

	*value = SDT_EMMC_VALUE_UNKNOWN;
	if (!sdt_json_strict_object(emmc, at, member, &obj, error) ||
	    !sdt_json_strict_int(obj, at_member, "value", -1, &v, error))
		return FALSE;
	if (v >= 0 && v <= 0xff)
		*value = (gint) v;
	return TRUE;
}

gboolean
sdt_client_info_read_emmc_wear(JsonObject *card,
			       const gchar *where,
			       gboolean *present,
			       SdtEmmcWear *wear,
			       GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	JsonObject *emmc = NULL;

	sdt_emmc_wear_init(wear);
	*present = FALSE;
	if (!sdt_json_strict_object(card, where, "emmc", &emmc, error))
		return FALSE;
	*present = emmc != NULL;
	return emmc == NULL ||
	       (sdt_json_strict_emmc_value(emmc, where, "life_time_a", &wear->life_time_a, error) &&
		sdt_json_strict_emmc_value(emmc, where, "life_time_b", &wear->life_time_b, error) &&
		sdt_json_strict_emmc_value(emmc, where, "pre_eol", &wear->pre_eol, error));
}

/* eMMC or SD, and the eMMC's own wear report */
static gboolean
sdt_client_info_read_card_kind(JsonObject *card, SdtClientInfoCard *c, GError **error)
{
	g_autofree gchar *kind = NULL;

	if (!sdt_json_strict_string(card, "card", "kind", &kind, error))
		return FALSE;
	c->emmc = g_strcmp0(kind, "emmc") == 0;
	return sdt_client_info_read_emmc_wear(card,
					      "card",
					      &c->has_emmc_wear,
					      &c->emmc_wear,
					      error);
}

/* ext_perf and ext_power: objects, or null when the kernel does not show them */
static gboolean
sdt_client_info_read_card_extensions(JsonObject *card, SdtClientInfoCard *c, GError **error)
{
	JsonObject *perf;
	JsonObject *power;

	if (!sdt_json_strict_object(card, "card", "ext_perf", &perf, error) ||
	    !sdt_json_strict_object(card, "card", "ext_power", &power, error))
		return FALSE;
	c->has_ext_perf = perf != NULL;
	c->has_ext_power = power != NULL;
	return sdt_json_strict_bool(perf,
				    "card.ext_perf",
				    "cache",
				    FALSE,
				    &c->ext_perf_cache,
				    error) &&
	       sdt_json_strict_bool(perf,
				    "card.ext_perf",
				    "cmd_queue",
				    FALSE,
				    &c->ext_perf_cmd_queue,
				    error) &&
	       sdt_json_strict_bool(power,
				    "card.ext_power",
				    "power_off_notify",
				    FALSE,
				    &c->ext_power_off_notify,
				    error);
}

static gboolean
sdt_client_info_read_card(JsonObject *obj, SdtClientInfoCard *c, GError **error)
{
	JsonObject *card;

	return sdt_json_strict_object(obj, NULL, "card", &card, error) &&
	       sdt_client_info_read_card_identity(card, c, error) &&
	       sdt_client_info_read_card_features(card, c, error) &&
	       sdt_client_info_read_card_kind(card, c, error) &&
	       sdt_client_info_read_card_extensions(card, c, error);
}

static gboolean
sdt_client_info_read_bus(JsonObject *obj, SdtClientInfoBus *b, GError **error)
{
	const gchar *at = "bus";
	JsonObject *bus;

	if (!sdt_json_strict_object(obj, NULL, at, &bus, error))
		return FALSE;
	b->present = bus != NULL;
	return sdt_json_strict_int(bus, at, "clock_hz", UNKNOWN, &b->clock_hz, error) &&
	       sdt_json_strict_int(bus,
				   at,
				   "actual_clock_hz",
				   UNKNOWN,
				   &b->actual_clock_hz,
				   error) &&
	       sdt_json_strict_string(bus, at, "timing", &b->timing, error) &&
	       sdt_json_strict_int(bus, at, "bus_width", UNKNOWN, &b->bus_width, error) &&
	       sdt_json_strict_number(bus, at, "signal_voltage", &b->signal_voltage, error) &&
	       sdt_json_strict_number(bus, at, "ceiling_mb_s", &b->ceiling_mb_s, error) &&
	       sdt_json_strict_string(bus, at, "cqe", &b->cqe, error) &&
	       sdt_json_strict_string(bus, at, "source", &b->source, error);
}

static gboolean
sdt_client_info_read_kernel_log(JsonObject *obj, SdtClientInfoKernelLog *k, GError **error)
{
	const gchar *at = "kernel_log";
	JsonObject *klog;

	if (!sdt_json_strict_object(obj, NULL, at, &klog, error))
		return FALSE;
	k->present = klog != NULL;
	return sdt_json_strict_bool(klog, at, "read", FALSE, &k->read, error) &&
	       sdt_json_strict_int(klog, at, "overclock_hz", UNKNOWN, &k->overclock_hz, error) &&
	       sdt_json_strict_int(klog,
				   at,
				   "overclock_reduced",
				   0,
				   &k->overclock_reduced,
				   error) &&
	       sdt_json_strict_bool(klog,
				    at,
				    "overclock_cancelled",
				    FALSE,
				    &k->overclock_cancelled,
				    error) &&
	       sdt_json_strict_bool(klog, at, "cqe_enabled", FALSE, &k->cqe_enabled, error) &&
	       sdt_json_strict_int(klog, at, "cqe_tags", UNKNOWN, &k->cqe_tags, error) &&
	       sdt_json_strict_bool(klog,
				    at,
				    "host_software_queue",
				    FALSE,
				    &k->host_software_queue,
				    error) &&
	       sdt_json_strict_int(klog, at, "cqe_recovery", 0, &k->cqe_recovery, error) &&
	       sdt_json_strict_string(klog, at, "quirks", &k->quirks, error);
}

static SdtClientInfoSetting *
sdt_client_info_read_setting(JsonNode *node, guint index, GError **error)
{
	g_autofree gchar *at = sdt_json_strict_element("config", "sd_settings", index);
	SdtClientInfoSetting *s;
	JsonObject *o = sdt_json_strict_element_object(node, at, error);

	if (o == NULL)
		return NULL;
	s = g_new0(SdtClientInfoSetting, 1);
	if (!sdt_json_strict_string(o, at, "text", &s->text, error) ||
	    !sdt_json_strict_int(o, at, "line", 0, &s->line, error) ||
	    !sdt_json_strict_string(o, at, "filter", &s->filter, error) ||
	    !sdt_json_strict_bool(o, at, "applies", FALSE, &s->applies, error) ||
	    !sdt_json_strict_bool(o, at, "managed", FALSE, &s->managed, error) ||
	    !sdt_json_strict_string(o, at, "warning", &s->warning, error)) {
		sdt_client_info_setting_free(s);
		return NULL;
	}
	return s;
}

static gboolean
sdt_client_info_read_config(JsonObject *obj, SdtClientInfoConfig *c, GError **error)
{
	const gchar *at = "config";
	JsonObject *config;
	JsonArray *settings;

	if (!sdt_json_strict_object(obj, NULL, at, &config, error))
		return FALSE;
	c->present = config != NULL;
	if (!sdt_json_strict_string(config, at, "path", &c->path, error) ||
	    !sdt_json_strict_string(config, at, "error", &c->error, error) ||
	    !sdt_json_strict_string(config, at, "managed_block", &c->managed_block, error) ||
	    !sdt_json_strict_array(config, at, "sd_settings", &settings, error))
		return FALSE;
	for (guint i = 0; settings != NULL && i < json_array_get_length(settings); i++) {
		SdtClientInfoSetting *s =
			sdt_client_info_read_setting(json_array_get_element(settings, i), i, error);
		if (s == NULL)
			return FALSE;
		g_ptr_array_add(c->settings, s);
	}
	return TRUE;
}

SdtClientInfo *
sdt_client_info_from_json(JsonObject *obj, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtClientInfo) info = g_new0(SdtClientInfo, 1);

	info->card.mount_points = g_ptr_array_new_with_free_func(g_free);
	info->config.settings =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_client_info_setting_free);
	info->warnings = g_ptr_array_new_with_free_func(g_free);
	if (!sdt_client_info_read_board(obj, &info->board, error) ||
	    !sdt_client_info_read_card(obj, &info->card, error) ||
	    !sdt_client_info_read_bus(obj, &info->bus, error) ||
	    !sdt_client_info_read_kernel_log(obj, &info->kernel_log, error) ||
	    !sdt_client_info_read_config(obj, &info->config, error) ||
	    !sdt_json_strict_bool(obj, NULL, "simulated", FALSE, &info->simulated, error) ||
	    !sdt_json_strict_strings(obj, NULL, "warnings", info->warnings, error))
		return NULL;
	return g_steal_pointer(&info);
}
