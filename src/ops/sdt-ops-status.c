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

/* the lines between SD Tuner's markers that are settings, into @lines */
static void
sdt_ops_config_block_lines(SdtConfigTxt *cfg, GPtrArray *out, gchar **filter)
{
	GPtrArray *lines = sdt_config_txt_get_lines(cfg);
	guint begin = 0;
	guint end = 0;

	if (!sdt_config_sd_find_block(cfg, &begin, &end))
		return;
	for (guint i = begin + 1; i < end; i++) {
		SdtConfigLine *line = g_ptr_array_index(lines, i);
		if (line->kind == SDT_CONFIG_LINE_FILTER && g_strcmp0(line->filter, "all") != 0 &&
		    *filter == NULL)
			*filter = g_strdup_printf("[%s]", line->filter);
		if (line->kind == SDT_CONFIG_LINE_SETTING &&
		    g_strcmp0(line->text, "dtoverlay=") != 0)
			g_ptr_array_add(out, g_strdup(line->text));
	}
}

/* the lines SD Tuner commented out ("#sd-tuner-disabled# ..."), without the mark */
static void
sdt_ops_status_disabled_lines(SdtConfigTxt *cfg, GPtrArray *disabled)
{
	GPtrArray *all = sdt_config_txt_get_lines(cfg);

	for (guint i = 0; i < all->len; i++) {
		SdtConfigLine *line = g_ptr_array_index(all, i);
		if (g_str_has_prefix(line->text, SDT_CONFIG_DISABLED_MARK))
			g_ptr_array_add(disabled,
					g_strdup(line->text + strlen(SDT_CONFIG_DISABLED_MARK)));
	}
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
sdt_ops_status_unreadable(SdtContext *ctx, SdtStatusReport *s, const GError *error_cfg)
{
	g_autofree gchar *display = NULL;

	/* only the path as seen on the Pi is wanted */
	g_free(sdt_config_writer_locate(ctx, &display, NULL));
	s->path = g_steal_pointer(&display);
	s->error = g_strdup(error_cfg->message);
	s->tryboot_active = sdt_ops_facts_tryboot_active(ctx);
}

/* a damaged block: the same text as apply and revert give, and the app shows */
static void
sdt_ops_status_damaged(SdtStatusReport *s, SdtConfigTxt *cfg, const gchar *damage)
{
	s->error = g_strdup(damage);
	s->applied = TRUE;
	s->id = sdt_ops_status_damaged_id(cfg);
	s->verified_known = TRUE;
	s->failed = TRUE;
	s->verification = g_strdup(damage);
}

/* the boot id recorded with the change @id (its journal), or NULL */
static gchar *
sdt_ops_status_boot_id_then(SdtConfigWriter *writer, const gchar *id)
{
	g_autoptr(SdtConfigJournalDoc) journal = sdt_config_journal_get(writer);

	if (journal == NULL || g_strcmp0(journal->id, id) != 0)
		return NULL;
	return g_strdup(journal->boot_id);
}

/* SD Tuner's block @id: its lines and whether it is in effect (sdt_verify_status_decide()) */
static void
sdt_ops_status_block(SdtStatusReport *s,
		     SdtConfigTxt *cfg,
		     SdtConfigWriter *writer,
		     const SdtInfo *info,
		     const gchar *id)
{
	g_autofree gchar *id_here = sdt_ops_facts_block_id_here(cfg, info);
	g_autofree gchar *boot_then = sdt_ops_status_boot_id_then(writer, id);
	g_autofree gchar *boot_now =
		boot_then != NULL ? sdt_config_writer_get_boot_id(writer) : NULL;
	SdtRecommendFacts facts;
	SdtVerifyStatusFacts sf;
	SdtVerifyStatus status;

	sdt_ops_config_block_lines(cfg, s->lines, &s->filter);
	sdt_ops_facts_recommend(&facts, info, cfg);
	sdt_ops_facts_status(&sf, id, &facts, info);
	sf.for_this_board = id_here != NULL;
	sf.filter = s->filter;
	sf.boot_id_then = boot_then;
	sf.boot_id_now = boot_now;
	sdt_verify_status_decide(&sf, &status);
	s->applied = TRUE;
	s->id = g_strdup(id);
	sdt_ops_status_disabled_lines(cfg, s->disabled);
	s->members |= SDT_STATUS_REPORT_FOR_THIS_BOARD;
	s->for_this_board = sf.for_this_board;
	s->verified_known = TRUE;
	s->verified = status.verified;
	s->failed = status.failed;
	s->reboot_pending = !status.verified && !status.failed;
	s->verification = status.explanation;
}

/*
 * SD Tuner's block, and what a revert of it would say when it would refuse:
 * the same diagnosis as `revert` (issue 23 item 2), never "will be verified".
 */
static void
sdt_ops_status_revertible(SdtStatusReport *s,
			  SdtConfigTxt *cfg,
			  SdtConfigWriter *writer,
			  const SdtInfo *info,
			  const gchar *id)
{
	g_autoptr(GError) diagnosis = NULL;

	sdt_ops_status_block(s, cfg, writer, info, id);
	if (sdt_config_apply_diagnose_revert(writer, &diagnosis))
		return;
	s->error = g_strdup(diagnosis->message);
	s->verified = FALSE;
	s->failed = TRUE;
	s->reboot_pending = FALSE;
	g_free(s->verification);
	s->verification = g_strdup(diagnosis->message);
}

/* a trial boot file of SD Tuner's, waiting for `reboot '0 tryboot'`, and when the block came */
static void
sdt_ops_status_trial(SdtContext *ctx, SdtConfigWriter *writer, SdtStatusReport *s, const gchar *id)
{
	g_autoptr(GError) error_trial = NULL;
	g_autoptr(SdtConfigJournalDoc) journal = NULL;
	g_autoptr(SdtConfigTrialState) trial = sdt_config_trial_get(writer, &error_trial);

	if (trial != NULL) {
		SdtStatusReportTrial *t = s->trial = sdt_status_report_trial_new();
		t->id = g_steal_pointer(&trial->id);
		t->path = g_steal_pointer(&trial->path);
		t->reboot_command = g_steal_pointer(&trial->reboot_command);
		t->stale = trial->stale;
		t->note = g_steal_pointer(&trial->note);
	}
	if (error_trial != NULL) {
		s->members |= SDT_STATUS_REPORT_TRIAL_ERROR;
		s->trial_error = g_strdup(error_trial->message);
	}
	s->tryboot_active = sdt_ops_facts_tryboot_active(ctx);

	journal = sdt_config_journal_get(writer);
	if (journal == NULL || id == NULL || g_strcmp0(journal->id, id) != 0)
		return;
	s->members |= SDT_STATUS_REPORT_APPLIED_AT;
	s->applied_at = g_strdup(journal->time);
	s->backup = g_strdup(journal->backup);
}

gchar *
sdt_ops_status(SdtContext *ctx, GError **error)
{
	g_autoptr(SdtInfo) info = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(GError) error_cfg = NULL;
	g_autoptr(SdtStatusReport) s = NULL;
	g_autofree gchar *id = NULL;
	g_autofree gchar *damage = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	info = sdt_info_collect(ctx, error);
	if (info == NULL)
		return NULL;
	s = sdt_status_report_new();
	cfg = sdt_ops_facts_load_config(ctx, &writer, &error_cfg);
	if (cfg == NULL) {
		sdt_ops_status_unreadable(ctx, s, error_cfg);
	} else {
		s->members |= SDT_STATUS_REPORT_BLOCK;
		id = sdt_config_sd_get_block_id(cfg);
		s->path = g_strdup(sdt_config_writer_get_display_path(writer));
		damage = sdt_config_diagnose_block(cfg, sdt_config_writer_get_display_path(writer));
		s->damaged = damage != NULL;
		if (damage != NULL)
			sdt_ops_status_damaged(s, cfg, damage);
		else if (id != NULL)
			sdt_ops_status_revertible(s, cfg, writer, info, id);
		sdt_ops_status_trial(ctx, writer, s, id);
	}
	sdt_ops_verify_record_add_status(ctx, s);
	s->check_journal_damaged = sdt_ops_check_journal_damaged_path(ctx);
	return sdt_status_report_to_string(s);
}
