/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-config-writer.h"
#include "sdt-cqe-quirks.h"
#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-history.h"
#include "sdt-ops-config.h"
#include "sdt-ops.h"
#include "sdt-verify.h"

#define SDT_MHZ G_GUINT64_CONSTANT(1000000)

gint
sdt_ops_config_type_code(const SdtInfo *info)
{
	if (info == NULL || info->board == NULL)
		return -1;
	if (info->board->info != NULL)
		return (gint) info->board->info->type_code;
	if (info->board->has_revision)
		return (gint) info->board->revision.type_code;
	return -1;
}

/* the id of SD Tuner's block if its filter reaches board @type_code, else NULL */
static gchar *
sdt_ops_config_block_id_here(SdtConfigTxt *cfg, gint type_code)
{
	GPtrArray *lines = sdt_config_txt_get_lines(cfg);
	guint begin = 0;
	guint end = 0;

	if (!sdt_config_txt_find_block(cfg, &begin, &end))
		return NULL;
	for (guint i = begin + 1; i < end; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (line->kind != SDT_CONFIG_LINE_FILTER || g_strcmp0(line->filter, "all") == 0)
			continue;
		if (!sdt_config_model_filter_matches(line->filter, type_code))
			return NULL;
		return sdt_config_txt_get_block_id(cfg);
	}
	return NULL;
}

/* a static string for an sd_cqe value: never intern what a file says */
static const gchar *
sdt_ops_config_cqe_value(const gchar *value)
{
	static const gchar *const known[] = {"0", "1", "2", "off", "on", "", NULL};
	for (guint i = 0; known[i] != NULL; i++) {
		if (g_strcmp0(value, known[i]) == 0)
			return known[i];
	}
	return "other";
}

/* only ids SD Tuner writes are interned (a bounded set); anything else is unknown */
static const gchar *
sdt_ops_config_block_id_static(const gchar *id)
{
	const gchar *num;
	if (id == NULL)
		return NULL;
	if (g_str_has_prefix(id, "sd-overclock-"))
		num = id + strlen("sd-overclock-");
	else if (g_str_has_prefix(id, "sd-cqe-"))
		num = id + strlen("sd-cqe-");
	else
		return "unknown";
	if (num[0] == '\0' || strlen(num) > 3 || strspn(num, "0123456789") != strlen(num))
		return "unknown";
	return g_intern_string(id);
}

void
sdt_ops_config_facts(SdtRecommendFacts *facts, const SdtInfo *info, SdtConfigTxt *cfg)
{
	const SdtCard *card = info->card;
	const SdtKmsgFacts *klog = &info->kernel_log;
	gint tc = sdt_ops_config_type_code(info);

	memset(facts, 0, sizeof(*facts));
	facts->board_key = sdt_board_get_key(info->board);
	facts->type_code = tc;
	facts->controller = sdt_sd_controller_to_string(sdt_board_get_controller(info->board));
	if (info->board != NULL && info->board->info != NULL)
		facts->core_clock_mhz = info->board->info->core_clock_hz / 1000000;
	facts->mini_uart = sdt_config_board_has_wireless(tc);
	/* the running system's reading wins over the config.txt rules */
	if (info->core_clock_hz > 0) {
		facts->running_core_clock_mhz = (guint) ((info->core_clock_hz + 500000) / 1000000);
		facts->running_core_clock_source = info->core_clock_source;
	}

	facts->card_present = card != NULL && card->present;
	facts->cqe_list = SDT_CQE_LIST_NONE;
	if (facts->card_present && card->cid_valid)
		facts->cqe_list = (gint) sdt_cqe_quirks_lookup(&card->cid, &facts->cqe_list_why);
	facts->cmd48 = -1;
	facts->ext_perf_cq = -1;
	facts->cq_depth = -1;
	if (facts->card_present) {
		if (card->ssr_valid) {
			facts->app_class =
				card->ssr.app_class > 0 ? (guint) card->ssr.app_class : 0;
			facts->cq_depth = (gint) card->ssr.cq_depth;
		}
		if (card->scr_valid)
			facts->cmd48 = card->scr.cmd48 ? 1 : 0;
		if (card->ext_perf >= 0)
			facts->ext_perf_cq = (card->ext_perf & SDT_EXT_PERF_CMD_QUEUE) ? 1 : 0;
	}
	if (info->bus.ios.actual_clock_hz > 0)
		facts->actual_clock_hz = (guint64) info->bus.ios.actual_clock_hz;
	else if (info->bus.ios.clock_hz > 0)
		facts->actual_clock_hz = (guint64) info->bus.ios.clock_hz;
	facts->timing = sdt_timing_to_string(info->bus.ios.timing);
	facts->cqe = sdt_cqe_state_to_string(info->bus.cqe);

	if (info->kernel_log_read) {
		if (klog->overclock_current_hz > 0)
			facts->log_overclock_hz = (guint64) klog->overclock_current_hz;
		else if (klog->overclock_hz > 0)
			facts->log_overclock_hz = (guint64) klog->overclock_hz;
		facts->log_overclock_reduced = klog->overclock_reduced > 0;
		facts->log_cqe_recovery = klog->cqe_recovery > 0;
	}

	if (cfg != NULL) {
		g_autoptr(GPtrArray) sd = sdt_config_txt_sd_settings_in_effect(cfg, tc);
		sdt_recommend_facts_from_config(facts, cfg, tc);
		for (guint i = 0; i < sd->len; i++) {
			SdtConfigSdSetting *s = g_ptr_array_index(sd, i);
			if (s->overclock_mhz > 0)
				facts->config_overclock_mhz = s->overclock_mhz;
			if (s->cqe != NULL)
				facts->config_cqe = sdt_ops_config_cqe_value(s->cqe);
			if (s->kinds & SDT_CONFIG_SD_OVERLAY_SDHOST)
				facts->config_sdhost_overlay = TRUE;
			if (s->kinds & SDT_CONFIG_SD_OVERLAY_SDTWEAK)
				facts->config_sdtweak_overlay = TRUE;
		}
		{
			g_autofree gchar *id = sdt_ops_config_block_id_here(cfg, tc);
			facts->config_block_id = sdt_ops_config_block_id_static(id);
		}
	}
}

/* config.txt of the context with its includes, or NULL with @error */
static SdtConfigTxt *
sdt_ops_config_load(SdtContext *ctx, SdtConfigWriter **writer_out, GError **error)
{
	g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(ctx, error);
	SdtConfigTxt *cfg;

	if (writer == NULL)
		return NULL;
	cfg = sdt_config_writer_load(writer, NULL, error);
	if (cfg != NULL && writer_out != NULL)
		*writer_out = g_steal_pointer(&writer);
	return cfg;
}

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

void
sdt_ops_config_add_info(SdtContext *ctx, const SdtInfo *info, JsonObject *info_obj)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigTxt) cfg = sdt_ops_config_load(ctx, &writer, &error);
	g_autoptr(JsonBuilder) b = json_builder_new();
	gint tc = sdt_ops_config_type_code(info);

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
	if (cfg != NULL && sdt_config_txt_find_block(cfg, NULL, NULL)) {
		g_autofree gchar *id = sdt_config_txt_get_block_id(cfg);
		json_builder_add_string_value(b, id);
	} else {
		json_builder_add_null_value(b);
	}
	json_builder_set_member_name(b, "sd_settings");
	json_builder_begin_array(b);
	if (cfg != NULL) {
		g_autoptr(GPtrArray) sd = sdt_config_txt_sd_settings(cfg, tc);
		for (guint i = 0; i < sd->len; i++) {
			SdtConfigSdSetting *s = g_ptr_array_index(sd, i);
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
			json_builder_add_boolean_value(b,
						       s->entry->applies != SDT_CONFIG_APPLIES_NO);
			json_builder_set_member_name(b, "conditional");
			json_builder_add_boolean_value(b,
						       s->entry->applies ==
							       SDT_CONFIG_APPLIES_MAYBE);
			json_builder_set_member_name(b, "managed");
			json_builder_add_boolean_value(b, s->managed);
			json_builder_set_member_name(b, "kind");
			json_builder_add_string_value(b, sdt_ops_config_kind_to_string(s->kinds));
			json_builder_set_member_name(b, "warning");
			if (s->kills_wlan_here)
				json_builder_add_string_value(b,
							      _("the sdhost overlay switches off "
								"Wi-Fi on this board: use "
								"dtparam=sd_overclock instead"));
			else if (s->kinds & SDT_CONFIG_SD_OVERLAY_SDTWEAK)
				json_builder_add_string_value(
					b,
					_("the sdtweak overlay is deprecated: use the sd_* "
					  "dtparams"));
			else
				json_builder_add_null_value(b);
			json_builder_end_object(b);
		}
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
	json_object_set_member(info_obj, "config", json_builder_get_root(b));
}

/* the recommendation for this board, card and config.txt */
static SdtRecommendResult *
sdt_ops_config_recommend(SdtContext *ctx, GPtrArray *warnings, GError **error)
{
	g_autoptr(SdtInfo) info = sdt_info_collect(ctx, error);
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(GError) error_cfg = NULL;
	SdtRecommendFacts facts;
	SdtRecommendResult *result;

	if (info == NULL)
		return NULL;
	cfg = sdt_ops_config_load(ctx, NULL, &error_cfg);
	if (cfg == NULL && warnings != NULL)
		g_ptr_array_add(warnings, g_strdup(error_cfg->message));
	sdt_ops_config_facts(&facts, info, cfg);
	result = sdt_recommend(&facts);
	return result;
}

JsonNode *
sdt_ops_recommend(SdtContext *ctx, GError **error)
{
	g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(SdtRecommendResult) result = sdt_ops_config_recommend(ctx, warnings, error);
	JsonNode *node;
	JsonArray *notes;

	if (result == NULL)
		return NULL;
	node = sdt_recommend_result_to_json(result);
	/* without a readable config.txt nothing can be applied: say why first */
	notes = json_object_get_array_member(json_node_get_object(node), "notes");
	for (guint i = 0; i < warnings->len; i++)
		json_array_add_string_element(notes, g_ptr_array_index(warnings, i));
	return node;
}

static JsonNode *
sdt_ops_config_node(JsonObject *obj)
{
	JsonNode *node = json_node_new(JSON_NODE_OBJECT);
	json_node_take_object(node, obj);
	return node;
}

static void
sdt_ops_config_history(SdtContext *ctx, const gchar *kind, JsonObject *result)
{
	g_autoptr(JsonObject) entry = json_object_new();
	g_autoptr(GError) error = NULL;
	const gchar *members[] = {"id", "path", "backup", "trial", "changed"};

	for (guint i = 0; i < G_N_ELEMENTS(members); i++) {
		JsonNode *m = json_object_get_member(result, members[i]);
		if (m != NULL)
			json_object_set_member(entry, members[i], json_node_copy(m));
	}
	/* the change is made; a history that cannot be written is not worth failing it */
	if (!sdt_history_append(ctx, kind, entry, &error))
		g_warning("%s", error->message);
}

/* whether the change named @id works now, from the bus and kernel-log facts */
static gboolean
sdt_ops_config_verify(const gchar *id,
		      const SdtRecommendFacts *facts,
		      gchar **explanation,
		      gboolean *failed)
{
	*failed = FALSE;
	if (g_str_has_prefix(id, "sd-overclock-")) {
		guint mhz = (guint) atoi(id + strlen("sd-overclock-"));
		guint core = sdt_recommend_core_clock_mhz(facts);
		guint64 want;
		guint64 now = facts->actual_clock_hz;
		g_autofree gchar *want_str = NULL;
		want = sdt_recommend_sdhost_clock_hz((guint64) core * SDT_MHZ, mhz);
		want_str = g_strdup_printf("%.1f", (gdouble) want / 1e6);
		if (facts->log_overclock_reduced) {
			*failed = TRUE;
			*explanation = g_strdup(_("the kernel log shows “reducing overclock due to "
						  "errors”: the card cannot keep this clock; run "
						  "“sdtunerctl recommend” for a slower step"));
			return FALSE;
		}
		if (now > 0 && now + 1000 >= want && now <= want + 1000) {
			*explanation =
				g_strdup_printf(_("the SD clock is %s MHz, as expected"), want_str);
			return TRUE;
		}
		if (facts->log_overclock_hz > 0 && facts->log_overclock_hz + 1000 >= want &&
		    facts->log_overclock_hz <= want + 1000) {
			*explanation = g_strdup_printf(_("the kernel log shows “overclocking to” "
							 "%s MHz, as expected"),
						       want_str);
			return TRUE;
		}
		*explanation = g_strdup_printf(_("the SD clock is not %s MHz yet: reboot to use "
						 "the new setting"),
					       want_str);
		return FALSE;
	}
	if (g_strcmp0(id, "sd-cqe-2") == 0) {
		if (facts->log_cqe_recovery) {
			*failed = TRUE;
			*explanation = g_strdup(_("the kernel log shows “running CQE recovery”: "
						  "this card mishandles command queueing; revert"));
			return FALSE;
		}
		if (g_strcmp0(facts->cqe, "enabled") == 0) {
			*explanation = g_strdup(_("command queueing is on"));
			return TRUE;
		}
		*explanation = g_strdup(_("command queueing is not on yet: reboot to use the new "
					  "setting"));
		return FALSE;
	}
	if (g_strcmp0(id, "sd-cqe-0") == 0) {
		if (g_strcmp0(facts->cqe, "enabled") != 0 &&
		    g_strcmp0(facts->cqe, "unknown") != 0) {
			*explanation = g_strdup(_("command queueing is off"));
			return TRUE;
		}
		*explanation = g_strdup(_("command queueing is still on: reboot to use the new "
					  "setting"));
		return FALSE;
	}
	*explanation = g_strdup(_("SD Tuner cannot check this setting"));
	return FALSE;
}

/* /proc/device-tree/chosen/bootloader/tryboot = 1: booted in tryboot mode (PLATFORM.md §4) */
gboolean
sdt_ops_config_tryboot_active(SdtContext *ctx)
{
	g_autofree gchar *path =
		sdt_context_build_path(ctx, "/proc/device-tree/chosen/bootloader/tryboot");
	g_autofree gchar *data = NULL;
	gsize len = 0;

	if (!sdt_file_read_bounded(path, 64, &data, &len, NULL) || len != 4)
		return FALSE;
	return ((guint8) data[0] | (guint8) data[1] | (guint8) data[2]) == 0 &&
	       (guint8) data[3] == 1;
}

JsonNode *
sdt_ops_apply(SdtContext *ctx, const gchar *id, gboolean trial, GError **error)
{
	g_autoptr(SdtInfo) info = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtRecommendResult) result = NULL;
	g_autoptr(JsonObject) res = NULL;
	g_autofree gchar *current = NULL;
	const SdtRecommendation *rec;
	SdtConfigBlock block = {NULL};
	SdtRecommendFacts facts;
	g_autofree const gchar **lines = NULL;

	g_return_val_if_fail(id != NULL, NULL);
	writer = sdt_config_writer_new(ctx, error);
	if (writer == NULL)
		return NULL;
	cfg = sdt_config_writer_load(writer, NULL, error);
	if (cfg == NULL)
		return NULL;
	/* a damaged block: the one diagnosis status and revert give too */
	{
		g_autofree gchar *damage =
			sdt_config_block_diagnose(cfg, sdt_config_writer_get_display_path(writer));
		if (damage != NULL) {
			g_set_error_literal(error, SDT_ERROR, SDT_ERROR_INVALID_DATA, damage);
			return NULL;
		}
	}

	info = sdt_info_collect(ctx, error);
	if (info == NULL)
		return NULL;
	sdt_ops_config_facts(&facts, info, cfg);

	/* the same change again: nothing to write; a reboot is still needed until it works */
	current = sdt_ops_config_block_id_here(cfg, sdt_ops_config_type_code(info));
	if (!trial && g_strcmp0(current, id) == 0) {
		g_autofree gchar *explanation = NULL;
		gboolean failed = FALSE;
		gboolean verified = sdt_ops_config_verify(id, &facts, &explanation, &failed);

		res = json_object_new();
		json_object_set_string_member(res, "id", id);
		json_object_set_string_member(res,
					      "path",
					      sdt_config_writer_get_display_path(writer));
		json_object_set_string_member(res, "diff", "");
		json_object_set_null_member(res, "backup");
		json_object_set_boolean_member(res, "reboot_required", !verified && !failed);
		json_object_set_boolean_member(res, "changed", FALSE);
		return sdt_ops_config_node(g_steal_pointer(&res));
	}

	result = sdt_recommend(&facts);
	rec = sdt_recommend_result_find(result, id);
	if (rec == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("“%s” is not a recommendation for this board and card: run "
			      "“sdtunerctl recommend” to see what applies"),
			    id);
		return NULL;
	}
	if (rec->trial_only && !trial) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("“%s” is applied only as a one-boot trial, verified by a soak test "
			      "after the reboot: run “sdtunerctl apply %s --trial”"),
			    id,
			    id);
		return NULL;
	}
	lines = g_new0(const gchar *, rec->lines->len + 1);
	for (guint i = 0; i < rec->lines->len; i++)
		lines[i] = g_ptr_array_index(rec->lines, i);
	block.id = rec->id;
	block.filter = rec->filter;
	block.lines = lines;
	block.type_code = rec->type_code;
	block.replaces = rec->replaces;
	res = sdt_config_writer_apply(writer, &block, trial, error);
	if (res == NULL)
		return NULL;
	if (json_object_get_boolean_member(res, "changed") || trial) {
		sdt_ops_config_history(ctx, "apply", res);
		/* verified after the next boot (sdt_ops_verify()) */
		sdt_ops_verify_record_apply(ctx,
					    res,
					    block.type_code,
					    block.filter,
					    block.replaces);
	}
	return sdt_ops_config_node(g_steal_pointer(&res));
}

JsonNode *
sdt_ops_revert(SdtContext *ctx, GError **error)
{
	g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(ctx, error);
	g_autoptr(JsonObject) res = NULL;

	if (writer == NULL)
		return NULL;
	res = sdt_config_writer_revert(writer, error);
	if (res == NULL)
		return NULL;
	sdt_ops_config_history(ctx, "revert", res);
	/* nothing of SD Tuner's left to verify */
	{
		g_autoptr(GError) local = NULL;
		if (!sdt_verify_pending_remove(ctx, &local))
			g_warning("%s", local->message);
	}
	return sdt_ops_config_node(g_steal_pointer(&res));
}

/* the lines between SD Tuner's markers that are settings */
static JsonArray *
sdt_ops_config_block_lines(SdtConfigTxt *cfg, gchar **filter)
{
	JsonArray *array = json_array_new();
	GPtrArray *lines = sdt_config_txt_get_lines(cfg);
	guint begin = 0;
	guint end = 0;

	if (!sdt_config_txt_find_block(cfg, &begin, &end))
		return array;
	for (guint i = begin + 1; i < end; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (line->kind == SDT_CONFIG_LINE_FILTER && g_strcmp0(line->filter, "all") != 0 &&
		    *filter == NULL)
			*filter = g_strdup_printf("[%s]", line->filter);
		if (line->kind == SDT_CONFIG_LINE_SETTING &&
		    g_strcmp0(line->text, "dtoverlay=") != 0)
			json_array_add_string_element(array, line->text);
	}
	return array;
}

/*
 * 1 if the system booted since the change @id, 0 if not, -1 if unknown (no
 * journal for it, or no boot id recorded or readable).  Decided by the boot
 * id recorded with the change, never by the wall clock: a Pi without a
 * real-time clock may set its clock back after the change (NTP).
 */
static gint
sdt_ops_config_booted_since_change(SdtConfigWriter *writer, const gchar *id)
{
	g_autoptr(JsonObject) journal = sdt_config_writer_get_journal(writer);
	g_autofree gchar *now = NULL;
	const gchar *then;

	if (journal == NULL || g_strcmp0(json_object_get_string_member(journal, "id"), id) != 0)
		return -1;
	then = json_object_get_string_member_with_default(journal, "boot_id", NULL);
	now = sdt_config_writer_get_boot_id(writer);
	if (then == NULL || now == NULL)
		return -1;
	return g_ascii_strcasecmp(then, now) != 0 ? 1 : 0;
}

JsonNode *
sdt_ops_status(SdtContext *ctx, GError **error)
{
	g_autoptr(SdtInfo) info = sdt_info_collect(ctx, error);
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(JsonObject) obj = json_object_new();
	g_autoptr(JsonObject) journal = NULL;
	g_autoptr(GError) error_cfg = NULL;
	g_autofree gchar *id = NULL;
	g_autofree gchar *filter = NULL;
	g_autofree gchar *damage = NULL;
	SdtRecommendFacts facts;

	if (info == NULL)
		return NULL;
	cfg = sdt_ops_config_load(ctx, &writer, &error_cfg);
	if (cfg == NULL) {
		/* nothing SD Tuner can have changed: say why instead of failing */
		g_autofree gchar *display = NULL;
		/* only the path as seen on the Pi is wanted */
		g_free(sdt_config_writer_locate(ctx, &display, NULL));
		if (display != NULL)
			json_object_set_string_member(obj, "path", display);
		else
			json_object_set_null_member(obj, "path");
		json_object_set_string_member(obj, "error", error_cfg->message);
		json_object_set_boolean_member(obj, "damaged", FALSE);
		json_object_set_boolean_member(obj, "applied", FALSE);
		json_object_set_null_member(obj, "id");
		json_object_set_boolean_member(obj, "reboot_pending", FALSE);
		json_object_set_null_member(obj, "verified");
		json_object_set_null_member(obj, "trial");
		json_object_set_boolean_member(obj,
					       "tryboot_active",
					       sdt_ops_config_tryboot_active(ctx));
		sdt_ops_verify_add_status(ctx, obj);
		return sdt_ops_config_node(g_steal_pointer(&obj));
	}
	sdt_ops_config_facts(&facts, info, cfg);
	id = sdt_config_txt_get_block_id(cfg);
	json_object_set_string_member(obj, "path", sdt_config_writer_get_display_path(writer));
	damage = sdt_config_block_diagnose(cfg, sdt_config_writer_get_display_path(writer));
	json_object_set_boolean_member(obj, "damaged", damage != NULL);
	if (damage != NULL) {
		/* the same text as apply and revert give, and the app shows */
		GPtrArray *all = sdt_config_txt_get_lines(cfg);
		g_autofree gchar *damaged_id = NULL;
		for (guint i = 0; i < all->len && damaged_id == NULL; i++) {
			SdtConfigLine *line = g_ptr_array_index(all, i);
			if (g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN)) {
				const gchar *p = line->text + strlen(SDT_CONFIG_BLOCK_BEGIN);
				damaged_id = g_strndup(p, strcspn(p, " \t"));
			}
		}
		json_object_set_string_member(obj, "error", damage);
		json_object_set_boolean_member(obj, "applied", TRUE);
		if (damaged_id != NULL)
			json_object_set_string_member(obj, "id", damaged_id);
		else
			json_object_set_null_member(obj, "id");
		json_object_set_array_member(obj, "lines", json_array_new());
		json_object_set_null_member(obj, "filter");
		json_object_set_array_member(obj, "disabled", json_array_new());
		json_object_set_boolean_member(obj, "verified", FALSE);
		json_object_set_boolean_member(obj, "failed", TRUE);
		json_object_set_boolean_member(obj, "reboot_pending", FALSE);
		json_object_set_string_member(obj, "verification", damage);
	} else if (id != NULL) {
		g_autofree gchar *explanation = NULL;
		gboolean failed = FALSE;
		gboolean verified = sdt_ops_config_verify(id, &facts, &explanation, &failed);
		JsonArray *lines = sdt_ops_config_block_lines(cfg, &filter);
		g_autofree gchar *id_here =
			sdt_ops_config_block_id_here(cfg, sdt_ops_config_type_code(info));
		gboolean here = id_here != NULL;
		g_autoptr(JsonArray) disabled = json_array_new();
		GPtrArray *all = sdt_config_txt_get_lines(cfg);

		for (guint i = 0; i < all->len; i++) {
			SdtConfigLine *line = g_ptr_array_index(all, i);
			if (g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK))
				json_array_add_string_element(
					disabled,
					line->text + strlen(SDT_CONFIG_DISABLED_MARK));
		}
		json_object_set_null_member(obj, "error");
		json_object_set_boolean_member(obj, "applied", TRUE);
		json_object_set_string_member(obj, "id", id);
		json_object_set_array_member(obj, "lines", lines);
		if (filter != NULL)
			json_object_set_string_member(obj, "filter", filter);
		else
			json_object_set_null_member(obj, "filter");
		json_object_set_array_member(obj, "disabled", g_steal_pointer(&disabled));
		if (!here) {
			g_clear_pointer(&explanation, g_free);
			/* Translators: %s is a config.txt filter such as [board-type=0x08] */
			explanation =
				g_strdup_printf(_("the block is for the boards of %s, not for "
						  "this one"),
						filter != NULL ? filter : "?");
			verified = FALSE;
			failed = TRUE;
		}
		/* restarted since the change and still not in effect: it did not work */
		if (here && !verified && !failed &&
		    sdt_ops_config_booted_since_change(writer, id) == 1) {
			g_autofree gchar *before = g_steal_pointer(&explanation);
			/* Translators: %s says what SD Tuner found, e.g. "the SD clock is not
			 * 100.0 MHz yet: reboot to use the new setting" */
			explanation =
				g_strdup_printf(_("the Pi has restarted since the change, but "
						  "it is not in effect (%s)"),
						before);
			failed = TRUE;
		}
		json_object_set_boolean_member(obj, "for_this_board", here);
		json_object_set_boolean_member(obj, "verified", verified);
		json_object_set_boolean_member(obj, "failed", failed);
		json_object_set_boolean_member(obj, "reboot_pending", !verified && !failed);
		json_object_set_string_member(obj, "verification", explanation);
	} else {
		json_object_set_null_member(obj, "error");
		json_object_set_boolean_member(obj, "applied", FALSE);
		json_object_set_null_member(obj, "id");
		json_object_set_array_member(obj, "lines", json_array_new());
		json_object_set_null_member(obj, "filter");
		json_object_set_array_member(obj, "disabled", json_array_new());
		json_object_set_null_member(obj, "verified");
		json_object_set_boolean_member(obj, "failed", FALSE);
		json_object_set_boolean_member(obj, "reboot_pending", FALSE);
		json_object_set_null_member(obj, "verification");
	}

	/* a trial boot file of SD Tuner's, waiting for `reboot '0 tryboot'` */
	{
		g_autoptr(GError) error_trial = NULL;
		JsonObject *trial = sdt_config_writer_get_trial(writer, &error_trial);
		if (trial != NULL)
			json_object_set_object_member(obj, "trial", trial);
		if (error_trial != NULL)
			json_object_set_string_member(obj, "trial_error", error_trial->message);
	}
	if (!json_object_has_member(obj, "trial"))
		json_object_set_null_member(obj, "trial");
	json_object_set_boolean_member(obj, "tryboot_active", sdt_ops_config_tryboot_active(ctx));

	journal = sdt_config_writer_get_journal(writer);
	if (journal != NULL && id != NULL &&
	    g_strcmp0(json_object_get_string_member_with_default(journal, "id", ""), id) == 0) {
		json_object_set_string_member(
			obj,
			"applied_at",
			json_object_get_string_member_with_default(journal, "time", ""));
		json_object_set_string_member(
			obj,
			"backup",
			json_object_get_string_member_with_default(journal, "backup", ""));
	}
	sdt_ops_verify_add_status(ctx, obj);
	return sdt_ops_config_node(g_steal_pointer(&obj));
}
