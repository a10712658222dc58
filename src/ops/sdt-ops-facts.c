/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-cqe-quirks.h"
#include "sdt-history.h"
#include "sdt-ops-private.h"

gint
sdt_ops_facts_type_code(const SdtInfo *info)
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
sdt_ops_config_block_id_for(SdtConfigTxt *cfg, gint type_code)
{
	GPtrArray *lines = sdt_config_txt_get_lines(cfg);
	guint begin = 0;
	guint end = 0;

	if (!sdt_config_sd_find_block(cfg, &begin, &end))
		return NULL;
	for (guint i = begin + 1; i < end; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (line->kind != SDT_CONFIG_LINE_FILTER || g_strcmp0(line->filter, "all") == 0)
			continue;
		if (!sdt_config_filter_model_matches(line->filter, type_code))
			return NULL;
		return sdt_config_sd_get_block_id(cfg);
	}
	return NULL;
}

gchar *
sdt_ops_facts_block_id_here(SdtConfigTxt *cfg, const SdtInfo *info)
{
	return sdt_ops_config_block_id_for(cfg, sdt_ops_facts_type_code(info));
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
sdt_ops_facts_recommend(SdtRecommendFacts *facts, const SdtInfo *info, SdtConfigTxt *cfg)
{
	const SdtCard *card = info->card;
	const SdtKmsgFacts *klog = &info->kernel_log;
	gint tc = sdt_ops_facts_type_code(info);

	memset(facts, 0, sizeof(*facts));
	facts->board_key = sdt_board_get_key(info->board);
	facts->type_code = tc;
	facts->controller =
		sdt_board_sd_controller_to_string(sdt_board_get_controller(info->board));
	if (info->board != NULL && info->board->info != NULL)
		facts->core_clock_mhz = info->board->info->core_clock_hz / 1000000;
	facts->mini_uart = sdt_config_filter_board_has_wireless(tc);
	/* the running system's reading wins over the config.txt rules */
	if (info->core_clock_hz > 0) {
		facts->running_core_clock_mhz = (guint) ((info->core_clock_hz + 500000) / 1000000);
		facts->running_core_clock_source = info->core_clock_source;
	}

	facts->card_present = card != NULL && card->present;
	facts->card_emmc = facts->card_present && card->kind == SDT_CARD_KIND_EMMC;
	facts->system_elsewhere = facts->card_present && card->mounts_known && !card->holds_system;
	facts->system_device = facts->card_present ? card->system_device : NULL;
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
	facts->timing = sdt_sd_bus_timing_to_string(info->bus.ios.timing);
	facts->cqe = sdt_info_cqe_state_to_string(info->bus.cqe);

	if (info->kernel_log_read) {
		if (klog->overclock_current_hz > 0)
			facts->log_overclock_hz = (guint64) klog->overclock_current_hz;
		else if (klog->overclock_hz > 0)
			facts->log_overclock_hz = (guint64) klog->overclock_hz;
		facts->log_overclock_reduced = klog->overclock_reduced > 0;
		facts->log_cqe_recovery = klog->cqe_recovery > 0;
	}

	if (cfg != NULL) {
		g_autoptr(GPtrArray) sd = sdt_config_sd_settings_in_effect(cfg, tc);
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
			g_autofree gchar *id = sdt_ops_config_block_id_for(cfg, tc);
			facts->config_block_id = sdt_ops_config_block_id_static(id);
		}
	}
}

/* config.txt of the context with its includes, or NULL with @error */
SdtConfigTxt *
sdt_ops_facts_load_config(SdtContext *ctx, SdtConfigWriter **writer_out, GError **error)
{
	g_autoptr(SdtConfigWriter) writer = NULL;
	SdtConfigTxt *cfg;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	writer = sdt_config_writer_new(ctx, error);
	if (writer == NULL)
		return NULL;
	cfg = sdt_config_writer_load(writer, NULL, error);
	if (cfg != NULL && writer_out != NULL)
		*writer_out = g_steal_pointer(&writer);
	return cfg;
}

/* /proc/device-tree/chosen/bootloader/tryboot = 1: booted in tryboot mode (PLATFORM.md §4) */
gboolean
sdt_ops_facts_tryboot_active(SdtContext *ctx)
{
	g_autofree gchar *data = NULL;
	gsize len = 0;

	if (!sdt_context_read_kernel_file(ctx,
					  "/proc/device-tree/chosen/bootloader/tryboot",
					  64,
					  &data,
					  &len,
					  NULL) ||
	    len != 4)
		return FALSE;
	return ((guint8) data[0] | (guint8) data[1] | (guint8) data[2]) == 0 &&
	       (guint8) data[3] == 1;
}

void
sdt_ops_facts_status(SdtVerifyStatusFacts *status,
		     const gchar *id,
		     const SdtRecommendFacts *facts,
		     const SdtInfo *info)
{
	guint64 core = (guint64) sdt_recommend_core_clock_mhz(facts) * SDT_MHZ;

	memset(status, 0, sizeof(*status));
	sdt_verify_change_parse(id, &status->change);
	if (status->change.kind == SDT_VERIFY_CHANGE_OVERCLOCK)
		status->expected_clock_hz =
			sdt_recommend_sdhost_clock_hz(core, status->change.overclock_mhz);
	status->observed_clock_hz = facts->actual_clock_hz;
	status->log_overclock_hz = facts->log_overclock_hz;
	status->log_overclock_reduced = facts->log_overclock_reduced;
	status->log_cqe_recovery = facts->log_cqe_recovery;
	status->observed_cqe = info->bus.cqe;
	status->for_this_board = TRUE;
}

gchar *
sdt_ops_facts_history_lost_warning(const gchar *why)
{
	/* Translators: why the history entry could not be saved */
	return g_strdup_printf(_("This was done, but SD Tuner's history could not record it "
				 "(%s): the history and status do not show it. Free some space "
				 "in /var/lib/sd-tuner."),
			       why);
}

/* SD Tuner changed config.txt (apply, revert, verify) since boot @boot_id, says @history */
static gboolean
sdt_ops_config_changed_this_boot(GPtrArray *history, const gchar *boot_id)
{
	static const gchar *const kinds[] = {SDT_HISTORY_ENTRY_KIND_APPLY,
					     SDT_HISTORY_ENTRY_KIND_REVERT,
					     SDT_HISTORY_ENTRY_KIND_VERIFY,
					     NULL};

	for (guint i = 0; history != NULL && i < history->len; i++) {
		const SdtHistoryEntry *e = g_ptr_array_index(history, i);
		if (g_strv_contains(kinds, e->kind) &&
		    g_strcmp0(sdt_history_entry_get_boot_id(e), boot_id) == 0)
			return TRUE;
	}
	return FALSE;
}

/* config.txt is what this boot runs (the boot id and the history as read) */
static gboolean
sdt_ops_facts_config_runs(SdtContext *ctx, const SdtOpsApplyReads *reads)
{
	return reads->boot_id != NULL && !sdt_ops_facts_tryboot_active(ctx) &&
	       !sdt_ops_config_changed_this_boot(reads->history, reads->boot_id);
}

gchar *
sdt_ops_facts_running_sha256(SdtContext *ctx)
{
	g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(ctx, NULL);
	g_autofree gchar *boot_id = NULL;
	g_autoptr(GPtrArray) history = NULL;

	if (writer == NULL)
		return NULL;
	boot_id = sdt_context_get_boot_id(ctx, NULL);
	if (boot_id == NULL || sdt_ops_facts_tryboot_active(ctx))
		return NULL;
	history = sdt_history_entries(ctx, NULL, NULL);
	if (sdt_ops_config_changed_this_boot(history, boot_id))
		return NULL;
	return sdt_config_writer_hash_config(writer);
}

gchar *
sdt_ops_facts_running_sha256_of(SdtContext *ctx, GBytes *config, const SdtOpsApplyReads *reads)
{
	g_return_val_if_fail(config != NULL, NULL);
	g_return_val_if_fail(reads != NULL, NULL);
	if (!sdt_ops_facts_config_runs(ctx, reads))
		return NULL;
	return sdt_config_writer_hash(config);
}
