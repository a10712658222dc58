/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-check.h"
#include "sdt-ops-private.h"
#include "sdt-ops.h"

/* `status`: SD Tuner's block in config.txt, a pending trial, verification after reboot */

/* the lines between SD Tuner's markers that are settings */
static JsonArray *
sdt_ops_config_block_lines(SdtConfigTxt *cfg, gchar **filter)
{
	JsonArray *array = json_array_new();
	GPtrArray *lines = sdt_config_txt_get_lines(cfg);
	guint begin = 0;
	guint end = 0;

	if (!sdt_config_sd_find_block(cfg, &begin, &end))
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

/* the lines SD Tuner commented out ("#sd-tuner-disabled# ..."), without the mark */
static JsonArray *
sdt_ops_status_disabled_lines(SdtConfigTxt *cfg)
{
	JsonArray *disabled = json_array_new();
	GPtrArray *all = sdt_config_txt_get_lines(cfg);

	for (guint i = 0; i < all->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(all, i);
		if (g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK))
			json_array_add_string_element(disabled,
						      line->text +
							      strlen(SDT_CONFIG_DISABLED_MARK));
	}
	return disabled;
}

/* the id in the first begin marker of a damaged block, or NULL */
static gchar *
sdt_ops_status_damaged_id(SdtConfigTxt *cfg)
{
	GPtrArray *all = sdt_config_txt_get_lines(cfg);

	for (guint i = 0; i < all->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(all, i);
		if (g_str_has_prefix(line->text, SDT_CONFIG_BLOCK_BEGIN)) {
			const gchar *p = line->text + strlen(SDT_CONFIG_BLOCK_BEGIN);
			return g_strndup(p, strcspn(p, " \t"));
		}
	}
	return NULL;
}

/* config.txt cannot be read: nothing SD Tuner can have changed; say why instead of failing */
static void
sdt_ops_status_unreadable(SdtContext *ctx, JsonObject *obj, const GError *error_cfg)
{
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
	json_object_set_boolean_member(obj, "tryboot_active", sdt_ops_facts_tryboot_active(ctx));
}

/* a damaged block: the same text as apply and revert give, and the app shows */
static void
sdt_ops_status_damaged(JsonObject *obj, SdtConfigTxt *cfg, const gchar *damage)
{
	g_autofree gchar *damaged_id = sdt_ops_status_damaged_id(cfg);

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
}

/* the boot id recorded with the change @id (its journal), or NULL */
static gchar *
sdt_ops_status_boot_id_then(SdtConfigWriter *writer, const gchar *id)
{
	g_autoptr(JsonObject) journal = sdt_config_journal_get(writer);

	if (journal == NULL || g_strcmp0(json_object_get_string_member(journal, "id"), id) != 0)
		return NULL;
	return g_strdup(json_object_get_string_member_with_default(journal, "boot_id", NULL));
}

/* SD Tuner's block @id: its lines and whether it is in effect (sdt_verify_status_decide()) */
static void
sdt_ops_status_block(JsonObject *obj,
		     SdtConfigTxt *cfg,
		     SdtConfigWriter *writer,
		     const SdtInfo *info,
		     const gchar *id)
{
	g_autofree gchar *filter = NULL;
	g_autofree gchar *id_here = sdt_ops_facts_block_id_here(cfg, info);
	g_autofree gchar *boot_then = sdt_ops_status_boot_id_then(writer, id);
	g_autofree gchar *boot_now =
		boot_then != NULL ? sdt_config_writer_get_boot_id(writer) : NULL;
	JsonArray *lines = sdt_ops_config_block_lines(cfg, &filter);
	SdtRecommendFacts facts;
	SdtVerifyStatusFacts sf;
	SdtVerifyStatus status;

	sdt_ops_facts_recommend(&facts, info, cfg);
	sdt_ops_facts_status(&sf, id, &facts, info);
	sf.for_this_board = id_here != NULL;
	sf.filter = filter;
	sf.boot_id_then = boot_then;
	sf.boot_id_now = boot_now;
	sdt_verify_status_decide(&sf, &status);
	json_object_set_null_member(obj, "error");
	json_object_set_boolean_member(obj, "applied", TRUE);
	json_object_set_string_member(obj, "id", id);
	json_object_set_array_member(obj, "lines", lines);
	if (filter != NULL)
		json_object_set_string_member(obj, "filter", filter);
	else
		json_object_set_null_member(obj, "filter");
	json_object_set_array_member(obj, "disabled", sdt_ops_status_disabled_lines(cfg));
	json_object_set_boolean_member(obj, "for_this_board", sf.for_this_board);
	json_object_set_boolean_member(obj, "verified", status.verified);
	json_object_set_boolean_member(obj, "failed", status.failed);
	json_object_set_boolean_member(obj, "reboot_pending", !status.verified && !status.failed);
	json_object_set_string_member(obj, "verification", status.explanation);
	g_free(status.explanation);
}

/*
 * SD Tuner's block, and what a revert of it would say when it would refuse:
 * the same diagnosis as `revert` (issue 23 item 2), never "will be verified".
 */
static void
sdt_ops_status_revertible(JsonObject *obj,
			  SdtConfigTxt *cfg,
			  SdtConfigWriter *writer,
			  const SdtInfo *info,
			  const gchar *id)
{
	g_autoptr(GError) diagnosis = NULL;

	sdt_ops_status_block(obj, cfg, writer, info, id);
	if (sdt_config_apply_diagnose_revert(writer, &diagnosis))
		return;
	json_object_set_string_member(obj, "error", diagnosis->message);
	json_object_set_boolean_member(obj, "verified", FALSE);
	json_object_set_boolean_member(obj, "failed", TRUE);
	json_object_set_boolean_member(obj, "reboot_pending", FALSE);
	json_object_set_string_member(obj, "verification", diagnosis->message);
}

/* no block of SD Tuner's */
static void
sdt_ops_status_none(JsonObject *obj)
{
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

/* a trial boot file of SD Tuner's, waiting for `reboot '0 tryboot'`, and when the block came */
static void
sdt_ops_status_trial(SdtContext *ctx, SdtConfigWriter *writer, JsonObject *obj, const gchar *id)
{
	g_autoptr(GError) error_trial = NULL;
	g_autoptr(JsonObject) journal = NULL;
	JsonObject *trial = sdt_config_trial_get(writer, &error_trial);

	if (trial != NULL)
		json_object_set_object_member(obj, "trial", trial);
	if (error_trial != NULL)
		json_object_set_string_member(obj, "trial_error", error_trial->message);
	if (!json_object_has_member(obj, "trial"))
		json_object_set_null_member(obj, "trial");
	json_object_set_boolean_member(obj, "tryboot_active", sdt_ops_facts_tryboot_active(ctx));

	journal = sdt_config_journal_get(writer);
	if (journal == NULL || id == NULL ||
	    g_strcmp0(json_object_get_string_member_with_default(journal, "id", ""), id) != 0)
		return;
	json_object_set_string_member(
		obj,
		"applied_at",
		json_object_get_string_member_with_default(journal, "time", ""));
	json_object_set_string_member(
		obj,
		"backup",
		json_object_get_string_member_with_default(journal, "backup", ""));
}

JsonNode *
sdt_ops_status(SdtContext *ctx, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtInfo) info = sdt_info_collect(ctx, error);
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(GError) error_cfg = NULL;
	g_autofree gchar *id = NULL;
	g_autofree gchar *damage = NULL;
	JsonObject *obj;
	JsonNode *node;

	if (info == NULL)
		return NULL;
	obj = json_object_new();
	cfg = sdt_ops_facts_load_config(ctx, &writer, &error_cfg);
	if (cfg == NULL) {
		sdt_ops_status_unreadable(ctx, obj, error_cfg);
	} else {
		id = sdt_config_sd_get_block_id(cfg);
		json_object_set_string_member(obj,
					      "path",
					      sdt_config_writer_get_display_path(writer));
		damage = sdt_config_diagnose_block(cfg, sdt_config_writer_get_display_path(writer));
		json_object_set_boolean_member(obj, "damaged", damage != NULL);
		if (damage != NULL)
			sdt_ops_status_damaged(obj, cfg, damage);
		else if (id != NULL)
			sdt_ops_status_revertible(obj, cfg, writer, info, id);
		else
			sdt_ops_status_none(obj);
		sdt_ops_status_trial(ctx, writer, obj, id);
	}
	sdt_ops_verify_record_add_status(ctx, obj);
	sdt_ops_check_journal_damaged(ctx, obj);
	node = json_node_new(JSON_NODE_OBJECT);
	json_node_take_object(node, obj);
	return node;
}
