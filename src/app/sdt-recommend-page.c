/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-l10n.h"
#include "sdt-block-preview.h"
#include "sdt-config-answer.h"
#include "sdt-status-report.h"
#include "sdt-loop-state.h"
#include "sdt-client.h"
#include "sdt-session.h"
#include "sdt-recommend-page.h"
#include "sdt-recommend-report.h"

struct _SdtRecommendPage {
	GtkBox parent_instance;
	GtkWidget *title_label;
	GtkWidget *details_label;
	GtkWidget *file_label;
	GtkWidget *diff_frame;
	GtkWidget *diff_view;
	GtkWidget *status_label;
	GtkWidget *apply_button;
	GtkWidget *apply_plain_button; /* Apply without a trial, where a trial is the default */
	GtkWidget *loop_label;         /* pending, verifying, decided */
	GtkWidget *reboot_button;
	GtkWidget *revert_button;
	GtkWidget *notes_label;
	SdtSession *session;
	SdtManager *manager;
	GCancellable *cancellable;
	gchar *recommendation_id;
	gboolean busy;
	gboolean in_place;        /* SD Tuner has its block in config.txt */
	gboolean trial_ok;        /* the recommendation can be tried once with tryboot first */
	gboolean trial_only;      /* ... and only that way (sd-cqe-2) */
	gboolean pending;         /* a change waits for the restart or its verification */
	gboolean trial_pending;   /* that change is a trial: Reboot Now uses tryboot */
	gchar *change_diff;       /* the diff of this session's Apply, while it is in place */
	SdtRecommendReport *recs; /* the last GetRecommendations answer */
	SdtStatusReport *status;  /* the last GetStatus answer */
};

G_DEFINE_TYPE(SdtRecommendPage, sdt_recommend_page, GTK_TYPE_BOX)

/* lines starting with + or - are coloured like a diff, "@@" lines dimmed */
static void
sdt_recommend_page_set_diff(SdtRecommendPage *self, const gchar *diff)
{
	GtkTextBuffer *buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(self->diff_view));
	g_auto(GStrv) lines = g_strsplit(diff, "\n", -1);
	GtkTextIter iter;

	gtk_text_buffer_set_text(buffer, "", 0);
	gtk_text_buffer_get_start_iter(buffer, &iter);
	for (guint i = 0; lines[i] != NULL; i++) {
		const gchar *tag = NULL;
		if (lines[i][0] == '\0' && lines[i + 1] == NULL)
			break;
		if (g_str_has_prefix(lines[i], "+++") || g_str_has_prefix(lines[i], "---") ||
		    g_str_has_prefix(lines[i], "@@"))
			tag = "header";
		else if (lines[i][0] == '+')
			tag = "added";
		else if (lines[i][0] == '-')
			tag = "removed";
		gtk_text_buffer_insert_with_tags_by_name(buffer, &iter, lines[i], -1, tag, NULL);
		if (lines[i + 1] != NULL && !(lines[i + 1][0] == '\0' && lines[i + 2] == NULL))
			gtk_text_buffer_insert(buffer, &iter, "\n", 1);
	}
}

static void
sdt_recommend_page_update_sensitivity(SdtRecommendPage *self)
{
	gboolean can_apply = !self->busy && !self->in_place && !self->pending &&
			     self->recommendation_id != NULL && self->manager != NULL;

	gtk_widget_set_sensitive(self->apply_button, can_apply);
	gtk_widget_set_sensitive(self->apply_plain_button, can_apply);
	/* the trial is the default where tryboot exists; a plain Apply stays available */
	gtk_widget_set_visible(self->apply_plain_button,
			       self->trial_ok && !self->trial_only && !self->in_place &&
				       !self->pending && self->recommendation_id != NULL);
	gtk_widget_set_tooltip_text(
		self->apply_button,
		self->trial_ok ? _("Try these lines for one start first (asks for an administrator "
				   "password). SD Tuner keeps them only if the card still works "
				   "correctly and got faster.")
			       : _("Write these lines into config.txt (asks for an administrator "
				   "password)"));
	gtk_widget_set_sensitive(self->revert_button, !self->busy && self->manager != NULL);
}

/*
 * Where the firmware supports tryboot: on a Raspberry Pi, whose firmware
 * reads config.txt's [board-type=] filters and, on every model, tryboot.txt
 * (PLATFORM.md §4). The helper says no more than that: the recommendation's
 * filter is a Raspberry Pi board type, or the change is offered as a trial only.
 */
static gboolean
sdt_recommend_page_tryboot_supported(const SdtRecommendReportItem *rec)
{
	return rec->trial_only ||
	       (rec->filter != NULL && g_str_has_prefix(rec->filter, "[board-type="));
}

/* the block as written, one "+" line each, from the config.txt writer itself */
static gchar *
sdt_recommend_page_block_diff(const gchar *id, const gchar *filter, GPtrArray *lines)
{
	g_autoptr(GPtrArray) settings = g_ptr_array_new();
	g_autoptr(GString) diff = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *block = NULL;

	for (guint i = 0; lines != NULL && i < lines->len; i++)
		g_ptr_array_add(settings, g_ptr_array_index(lines, i));
	g_ptr_array_add(settings, NULL);
	if (id != NULL && filter != NULL)
		block = sdt_block_preview(id,
					  filter,
					  (const gchar *const *) settings->pdata,
					  &error);
	if (block == NULL) {
		/* show the settings themselves rather than nothing */
		g_debug("no block preview: %s", error != NULL ? error->message : "no filter");
		for (guint i = 0; settings->pdata[i] != NULL; i++)
			g_string_append_printf(diff, "+%s\n", (gchar *) settings->pdata[i]);
	} else {
		g_auto(GStrv) block_lines = g_strsplit(block, "\n", -1);
		for (guint i = 0; block_lines[i] != NULL; i++) {
			if (block_lines[i][0] == '\0' && block_lines[i + 1] == NULL)
				break;
			g_string_append_printf(diff, "+%s\n", block_lines[i]);
		}
	}
	return g_string_free(g_steal_pointer(&diff), FALSE);
}

static void
sdt_recommend_page_render_notes(SdtRecommendPage *self, GPtrArray *notes)
{
	g_autoptr(GString) notes_str = g_string_new(NULL);

	for (guint i = 0; notes != NULL && i < notes->len; i++)
		g_string_append_printf(notes_str,
				       "%s%s",
				       notes_str->len > 0 ? "\n\n" : "",
				       sdt_l10n_tr(g_ptr_array_index(notes, i)));
	gtk_label_set_text(GTK_LABEL(self->notes_label), notes_str->str);
}

/* SD Tuner's change in config.txt: what changed, or its lines */
static void
sdt_recommend_page_render_in_place(SdtRecommendPage *self, const SdtStatusReport *status)
{
	const gchar *id = status != NULL ? status->id : NULL;
	g_autofree gchar *title = NULL;
	g_autofree gchar *diff = NULL;

	/* Translators: %s is the id of the setting, e.g. sd-overclock-100 */
	title = g_strdup_printf(_("SD Tuner's setting %s is in config.txt"), id != NULL ? id : "");
	gtk_label_set_text(GTK_LABEL(self->title_label), title);
	gtk_label_set_text(GTK_LABEL(self->details_label),
			   _("Revert takes out exactly what SD Tuner wrote and keeps any "
			     "other change made to the file since."));
	if (self->change_diff != NULL) {
		gtk_label_set_text(GTK_LABEL(self->file_label),
				   _("This is what changed in the file:"));
		sdt_recommend_page_set_diff(self, self->change_diff);
	} else {
		gtk_label_set_text(GTK_LABEL(self->file_label),
				   _("SD Tuner's lines in config.txt:"));
		diff = sdt_recommend_page_block_diff(id,
						     status != NULL ? status->filter : NULL,
						     status != NULL ? status->lines : NULL);
		sdt_recommend_page_set_diff(self, diff);
	}
	gtk_widget_show(self->diff_frame);
}

static void
sdt_recommend_page_render_none(SdtRecommendPage *self, gboolean answered)
{
	const gchar *not_tuned = self->recs != NULL ? self->recs->not_tuned : NULL;

	if (answered && not_tuned != NULL) {
		/* eMMC, or a card that is not the system disk: said as plainly as possible */
		gtk_label_set_text(GTK_LABEL(self->title_label),
				   g_strcmp0(not_tuned, "emmc") == 0
					   ? _("Nothing to tune: this board runs from eMMC, not "
					       "from an SD card")
					   : _("Nothing to tune: the system does not run from "
					       "this SD card"));
		gtk_label_set_text(
			GTK_LABEL(self->details_label),
			g_strcmp0(not_tuned, "emmc") == 0
				? _("The SD card settings of config.txt do not apply to "
				    "eMMC. You can still benchmark it; its wear is on the "
				    "Health page.")
				: _("SD Tuner changes nothing for a card that is not the "
				    "system disk. You can still benchmark and check the "
				    "card."));
		gtk_label_set_text(GTK_LABEL(self->file_label), "");
		gtk_widget_hide(self->diff_frame);
		return;
	}
	gtk_label_set_text(GTK_LABEL(self->title_label),
			   answered ? _("Nothing to change on this board")
				    : _("The recommendations are not available."));
	gtk_label_set_text(GTK_LABEL(self->details_label),
			   answered ? _("SD Tuner has no setting that would make this card "
					"faster here. The explanation below says why.")
				    : "");
	gtk_label_set_text(GTK_LABEL(self->file_label), "");
	gtk_widget_hide(self->diff_frame);
}

/* the recommendation: why, what it does, the risk, and the exact block */
static void
sdt_recommend_page_render_rec(SdtRecommendPage *self, const SdtRecommendReportItem *rec)
{
	const gchar *title = sdt_l10n_tr(rec->title);
	const gchar *reason = sdt_l10n_tr(rec->reason);
	const gchar *effect = sdt_l10n_tr(rec->expected_effect);
	const gchar *risk = sdt_l10n_tr(rec->risk);
	g_autoptr(GString) details = g_string_new(NULL);
	g_autofree gchar *diff = NULL;

	gtk_label_set_text(GTK_LABEL(self->title_label),
			   title != NULL ? title : _("Recommended change"));
	if (reason != NULL)
		g_string_append(details, reason);
	if (effect != NULL)
		/* Translators: what the change will do */
		g_string_append_printf(details, _("\n\nWhat it does: %s"), effect);
	if (risk != NULL)
		/* Translators: what could go wrong */
		g_string_append_printf(details, _("\n\nRisk: %s"), risk);
	gtk_label_set_text(GTK_LABEL(self->details_label), details->str);
	gtk_label_set_text(
		GTK_LABEL(self->file_label),
		self->trial_ok ? _("Apply writes these lines into a copy of config.txt that "
				   "the next start uses once. After that start SD Tuner checks "
				   "the card and writes them into config.txt only if it works "
				   "correctly and got faster:")
			       : _("Apply adds these lines at the end of config.txt. Nothing "
				   "else in the file changes, and Revert takes them out again:"));
	diff = sdt_recommend_page_block_diff(self->recommendation_id, rec->filter, rec->lines);
	sdt_recommend_page_set_diff(self, diff);
	gtk_widget_show(self->diff_frame);
}

/*
 * The top of the page from the last GetRecommendations and GetStatus answers
 * (they arrive in any order): SD Tuner's change when one is in place, else the
 * recommendation with the exact block Apply would write, else why there is none.
 */
static void
sdt_recommend_page_render(SdtRecommendPage *self)
{
	SdtRecommendReport *recs = self->recs;
	const SdtRecommendReportItem *rec = NULL;

	g_clear_pointer(&self->recommendation_id, g_free);
	sdt_recommend_page_render_notes(self, recs != NULL ? recs->notes : NULL);
	if (recs != NULL && recs->recommendations->len > 0)
		rec = g_ptr_array_index(recs->recommendations, 0);
	if (rec != NULL)
		self->recommendation_id = g_strdup(rec->id);
	self->trial_ok = rec != NULL && sdt_recommend_page_tryboot_supported(rec);
	self->trial_only = rec != NULL && rec->trial_only;

	if (self->in_place)
		sdt_recommend_page_render_in_place(self, self->status);
	else if (rec == NULL)
		sdt_recommend_page_render_none(self, recs != NULL);
	else
		sdt_recommend_page_render_rec(self, rec);
	sdt_recommend_page_update_sensitivity(self);
}

static void
sdt_recommend_page_recommendations_done(gpointer page, const gchar *text, const GError *call_error)
{
	SdtRecommendPage *self = SDT_RECOMMEND_PAGE(page);
	g_autoptr(GError) error = call_error != NULL ? g_error_copy(call_error) : NULL;

	g_clear_pointer(&self->recs, sdt_recommend_report_free);
	if (text != NULL)
		self->recs = sdt_recommend_report_parse(text, &error);
	sdt_recommend_page_render(self);
	if (self->recs == NULL)
		sdt_session_report_error(self->session, SDT_USER_ACTION_INFO, error);
}

/* one sentence on config.txt: untouched, waiting for a restart, in effect, or not */
static gchar *
sdt_recommend_page_status_text(const SdtStatusReport *status, gboolean trial)
{
	gboolean in_place = status->applied;
	const gchar *verification = sdt_l10n_tr(status->verification);

	if (verification == NULL)
		verification = "";
	if (status->damaged)
		/* a damaged block: the one diagnosis status, apply and revert give */
		return g_strdup(verification);
	if (!in_place && trial)
		return g_strdup(_("config.txt is unchanged: the trial is in tryboot.txt."));
	if (!in_place)
		return g_strdup(_("SD Tuner has not changed config.txt."));
	if (status->reboot_pending)
		return g_strdup(_("SD Tuner's change is in config.txt. Restart the computer for "
				  "it to take effect."));
	if (status->verified)
		/* Translators: %s says how SD Tuner checked it, e.g. "the SD clock is 100 MHz" */
		return g_strdup_printf(_("SD Tuner's change is in effect: %s. Run the benchmark "
					 "again and compare under History."),
				       verification);
	if (status->failed)
		/* Translators: %s says what SD Tuner found instead */
		return g_strdup_printf(_("SD Tuner's change is in config.txt but did not take "
					 "effect: %s. Revert it, or check the kernel log."),
				       verification);
	return g_strdup(_("SD Tuner's change is in config.txt."));
}

/* the closed loop: pending (restart needed), verifying, and the last decision */
static void
sdt_recommend_page_show_loop(SdtRecommendPage *self, const SdtLoopState *state)
{
	g_autofree gchar *phase = sdt_loop_state_phase_text(state);
	/* a decision before a newer change is history, unless it made that change */
	g_autofree gchar *outcome =
		state->phase == SDT_LOOP_IDLE || g_strcmp0(state->decision, "step-down") == 0
			? sdt_loop_state_outcome_text(state)
			: NULL;
	g_autofree gchar *text = NULL;

	self->pending = state->phase != SDT_LOOP_IDLE;
	self->trial_pending = state->phase == SDT_LOOP_PENDING && state->trial;
	if (phase != NULL && outcome != NULL)
		text = g_strdup_printf("%s\n%s", outcome, phase);
	else
		text = g_strdup(phase != NULL ? phase : outcome);
	gtk_label_set_text(GTK_LABEL(self->loop_label), text != NULL ? text : "");
	gtk_widget_set_visible(self->loop_label, text != NULL);
}

static void
sdt_recommend_page_show_status(SdtRecommendPage *self, const SdtStatusReport *status)
{
	g_autoptr(SdtLoopState) state = sdt_loop_state_new(status);
	gboolean in_place = status->applied;
	gboolean damaged = status->damaged;
	gboolean trial = status->trial != NULL;
	g_autofree gchar *text = NULL;

	self->in_place = in_place;
	if (!in_place)
		g_clear_pointer(&self->change_diff, g_free);
	sdt_recommend_page_show_loop(self, state);
	sdt_recommend_page_render(self);
	gtk_widget_set_visible(self->revert_button, (in_place || trial) && !damaged);
	if (status->reboot_pending || state->phase == SDT_LOOP_PENDING)
		gtk_widget_show(self->reboot_button);
	text = sdt_recommend_page_status_text(status, trial);
	gtk_label_set_text(GTK_LABEL(self->status_label), text);
}

static void
sdt_recommend_page_status_done(gpointer page, const gchar *text, const GError *call_error)
{
	SdtRecommendPage *self = SDT_RECOMMEND_PAGE(page);
	g_autoptr(GError) error = call_error != NULL ? g_error_copy(call_error) : NULL;
	SdtStatusReport *status = NULL;

	if (text != NULL)
		status = sdt_status_report_parse(text, &error);
	if (status == NULL) {
		/* GetInfo already reports a missing helper; keep this quiet */
		g_debug("no status: %s", error->message);
		gtk_widget_hide(self->revert_button);
		return;
	}
	g_clear_pointer(&self->status, sdt_status_report_free);
	self->status = status;
	sdt_recommend_page_show_status(self, status);
}

static void
sdt_recommend_page_refresh(gpointer page)
{
	SdtRecommendPage *self = SDT_RECOMMEND_PAGE(page);

	if (self->manager == NULL)
		return;
	sdt_session_call_text(self->manager,
			      sdt_manager_call_get_recommendations,
			      sdt_manager_call_get_recommendations_finish,
			      self->cancellable,
			      sdt_recommend_page_recommendations_done,
			      self);
	sdt_session_call_text(self->manager,
			      sdt_manager_call_get_status,
			      sdt_manager_call_get_status_finish,
			      self->cancellable,
			      sdt_recommend_page_status_done,
			      self);
}

/* what the page shows of an Apply or Revert answer (sdt-config-answer.h), pointing into it */
typedef struct {
	const gchar *diff;
	const gchar *path;
	gboolean reboot;
	gboolean trial;
	gboolean trial_cancelled;
	GPtrArray *warnings; /* may be NULL */
} SdtRecommendPageChange;

/* the warnings the helper adds (a history entry it could not save, issue 33; no
 * benchmark from before) after @text, said as sdtunerctl says them */
static void
sdt_recommend_page_say_change(SdtRecommendPage *self,
			      const gchar *text,
			      const SdtRecommendPageChange *c)
{
	g_autoptr(GString) all = g_string_new(text);
	guint n = c->warnings != NULL ? c->warnings->len : 0;

	for (guint i = 0; i < n; i++)
		g_string_append_printf(all, "\n%s", sdt_l10n_tr(g_ptr_array_index(c->warnings, i)));
	sdt_session_report_notice(self->session,
				  n > 0 ? GTK_MESSAGE_WARNING : GTK_MESSAGE_INFO,
				  all->str);
	gtk_label_set_text(GTK_LABEL(self->status_label), all->str);
}

static void
sdt_recommend_page_show_changed(SdtRecommendPage *self,
				const SdtRecommendPageChange *c,
				gboolean applied)
{
	const gchar *diff = c->diff;
	const gchar *path = c->path;
	gboolean trial = applied && c->trial;
	g_autofree gchar *text = NULL;

	g_clear_pointer(&self->change_diff, g_free);
	if (applied && !trial && diff != NULL && diff[0] != '\0')
		self->change_diff = g_strdup(diff);
	if (trial) {
		/* Translators: %s is the path of tryboot.txt */
		text = g_strdup_printf(_("Prepared a trial in %s. Press Reboot Now to start once "
					 "with the new setting."),
				       path != NULL ? path : "tryboot.txt");
	} else if (applied) {
		/* Translators: %s is the path of config.txt */
		text = g_strdup_printf(_("Applied to %s. A restart is needed for the change to "
					 "take effect."),
				       path != NULL ? path : "config.txt");
	} else if (c->trial_cancelled && (diff == NULL || diff[0] == '\0')) {
		/* Translators: %s is the path of config.txt; only tryboot.txt had the trial */
		text = g_strdup_printf(_("Cancelled the trial: tryboot.txt is as it was before "
					 "it, and %s, which the trial did not change, stays as it "
					 "is."),
				       path != NULL ? path : "config.txt");
	} else {
		/* Translators: %s is the path of config.txt */
		text = g_strdup_printf(_("Reverted: %s is as it was before SD Tuner changed "
					 "it. A restart brings back the old setting."),
				       path != NULL ? path : "config.txt");
	}
	sdt_recommend_page_say_change(self, text, c);
	gtk_widget_set_visible(self->reboot_button, c->reboot || trial);
	gtk_widget_set_visible(self->revert_button, applied);
	self->in_place = applied && !trial;
	self->pending = applied;
	self->trial_pending = trial;
	sdt_recommend_page_render(self);
	sdt_session_refresh(self->session);
}

/* Apply and Revert return {"path", "diff", "backup", "reboot_required", ...} */
static void
sdt_recommend_page_show_change(SdtRecommendPage *self, const gchar *json, gboolean applied)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtConfigAnswerApply) apply = NULL;
	g_autoptr(SdtConfigAnswerRevert) revert = NULL;
	SdtRecommendPageChange c = {NULL};

	if (applied)
		apply = sdt_config_answer_apply_parse(json, &error);
	else
		revert = sdt_config_answer_revert_parse(json, &error);
	if (apply == NULL && revert == NULL) {
		sdt_session_report_error(self->session,
					 applied ? SDT_USER_ACTION_APPLY : SDT_USER_ACTION_REVERT,
					 error);
		return;
	}
	if (apply != NULL) {
		c = (SdtRecommendPageChange){apply->diff,
					     apply->path,
					     apply->reboot_required,
					     apply->trial,
					     FALSE,
					     apply->warnings};
	} else {
		c = (SdtRecommendPageChange){revert->diff,
					     revert->path,
					     revert->reboot_required,
					     FALSE,
					     revert->trial_cancelled,
					     revert->warnings};
	}
	sdt_recommend_page_show_changed(self, &c, applied);
}

/* the end of an Apply (@applied) or Revert call: the new state or the error */
static void
sdt_recommend_page_change_done(SdtRecommendPage *self,
			       const gchar *json,
			       const GError *error,
			       gboolean applied)
{
	self->busy = FALSE;
	sdt_recommend_page_update_sensitivity(self);
	if (json == NULL) {
		sdt_session_report_error(self->session,
					 applied ? SDT_USER_ACTION_APPLY : SDT_USER_ACTION_REVERT,
					 error);
		return;
	}
	sdt_recommend_page_show_change(self, json, applied);
}

static void
sdt_recommend_page_apply_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *json = NULL;

	if (!sdt_manager_call_apply_finish(SDT_MANAGER(source), &json, res, &error) &&
	    g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	sdt_recommend_page_change_done(SDT_RECOMMEND_PAGE(user_data), json, error, TRUE);
}

static void
sdt_recommend_page_revert_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autofree gchar *json = NULL;

	if (!sdt_manager_call_revert_finish(SDT_MANAGER(source), &json, res, &error) &&
	    g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	sdt_recommend_page_change_done(SDT_RECOMMEND_PAGE(user_data), json, error, FALSE);
}

/* Apply: a one-boot trial where tryboot exists (@trial), else straight into config.txt */
static void
sdt_recommend_page_apply(SdtRecommendPage *self, gboolean trial)
{
	GVariantBuilder options;

	if (self->manager == NULL || self->recommendation_id == NULL || self->busy)
		return;
	g_variant_builder_init(&options, G_VARIANT_TYPE_VARDICT);
	if (trial)
		g_variant_builder_add(&options, "{sv}", "trial", g_variant_new_boolean(TRUE));
	self->busy = TRUE;
	sdt_recommend_page_update_sensitivity(self);
	sdt_session_dismiss(self->session);
	gtk_label_set_text(GTK_LABEL(self->status_label), _("Waiting for permission…"));
	sdt_manager_call_apply(self->manager,
			       self->recommendation_id,
			       g_variant_builder_end(&options),
			       self->cancellable,
			       sdt_recommend_page_apply_cb,
			       self);
}

static void
sdt_recommend_page_apply_clicked_cb(SdtRecommendPage *self)
{
	sdt_recommend_page_apply(self, self->trial_ok);
}

static void
sdt_recommend_page_apply_plain_clicked_cb(SdtRecommendPage *self)
{
	sdt_recommend_page_apply(self, FALSE);
}

static void
sdt_recommend_page_revert_clicked_cb(SdtRecommendPage *self)
{
	if (self->manager == NULL || self->busy)
		return;
	self->busy = TRUE;
	sdt_recommend_page_update_sensitivity(self);
	sdt_session_dismiss(self->session);
	gtk_label_set_text(GTK_LABEL(self->status_label), _("Waiting for permission…"));
	sdt_manager_call_revert(self->manager,
				sdt_client_no_options(),
				self->cancellable,
				sdt_recommend_page_revert_cb,
				self);
}

static void
sdt_recommend_page_reboot_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtRecommendPage *self;
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
		g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &error);

	if (reply != NULL || g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = SDT_RECOMMEND_PAGE(user_data);
	sdt_session_report_error(self->session, SDT_USER_ACTION_REBOOT, error);
}

static void
sdt_recommend_page_login1(SdtRecommendPage *self,
			  const gchar *method,
			  GVariant *parameters,
			  GAsyncReadyCallback callback)
{
	g_dbus_connection_call(g_dbus_proxy_get_connection(G_DBUS_PROXY(self->manager)),
			       "org.freedesktop.login1",
			       "/org/freedesktop/login1",
			       "org.freedesktop.login1.Manager",
			       method,
			       parameters,
			       NULL,
			       G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION,
			       SDT_CALL_TIMEOUT_MS,
			       self->cancellable,
			       callback,
			       self);
}

/* the trial's reboot parameter is set: now restart */
static void
sdt_recommend_page_reboot_parameter_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
		g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &error);
	SdtRecommendPage *self;

	if (g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = SDT_RECOMMEND_PAGE(user_data);
	if (reply != NULL) {
		sdt_recommend_page_login1(self,
					  "Reboot",
					  g_variant_new("(b)", TRUE),
					  sdt_recommend_page_reboot_cb);
		return;
	}
	sdt_session_report_error(self->session, SDT_USER_ACTION_REBOOT, error);
}

static void
sdt_recommend_page_reboot_clicked_cb(SdtRecommendPage *self)
{
	if (self->manager == NULL)
		return;
	/* a simulated board lives on someone's computer: never restart that */
	if (sdt_session_get_simulated(self->session)) {
		const gchar *model = sdt_session_get_board_model(self->session);
		g_autofree gchar *text = g_strdup_printf(
			/* Translators: %s is the board's model, e.g. "Raspberry Pi 3 Model B
			   Rev 1.2" */
			_("This is a simulated %s, so SD Tuner does not restart this computer. On "
			  "a "
			  "real Raspberry Pi it restarts now, and the new setting takes effect."),
			model != NULL ? model : _("Raspberry Pi"));
		sdt_session_report_notice(self->session, GTK_MESSAGE_INFO, text);
		return;
	}
	if (self->trial_pending)
		/* `reboot '0 tryboot'`: the next start, once, uses tryboot.txt */
		sdt_recommend_page_login1(self,
					  "SetRebootParameter",
					  g_variant_new("(s)", "0 tryboot"),
					  sdt_recommend_page_reboot_parameter_cb);
	else
		sdt_recommend_page_login1(self,
					  "Reboot",
					  g_variant_new("(b)", TRUE),
					  sdt_recommend_page_reboot_cb);
}

static void
sdt_recommend_page_set_manager(gpointer page, SdtManager *manager)
{
	SdtRecommendPage *self = SDT_RECOMMEND_PAGE(page);

	g_set_object(&self->manager, manager);
	sdt_recommend_page_update_sensitivity(self);
}

static const SdtSessionCallbacks sdt_recommend_page_session_callbacks = {
	.set_manager = sdt_recommend_page_set_manager,
	.refresh = sdt_recommend_page_refresh,
};

static void
sdt_recommend_page_dispose(GObject *object)
{
	SdtRecommendPage *self = SDT_RECOMMEND_PAGE(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	g_clear_pointer(&self->recommendation_id, g_free);
	g_clear_pointer(&self->change_diff, g_free);
	g_clear_pointer(&self->recs, sdt_recommend_report_free);
	g_clear_pointer(&self->status, sdt_status_report_free);
	sdt_session_detach(&self->session, self);
	G_OBJECT_CLASS(sdt_recommend_page_parent_class)->dispose(object);
}

static void
sdt_recommend_page_init(SdtRecommendPage *self)
{
	GtkTextBuffer *buffer;

	gtk_widget_init_template(GTK_WIDGET(self));
	self->cancellable = g_cancellable_new();
	buffer = gtk_text_view_get_buffer(GTK_TEXT_VIEW(self->diff_view));
	gtk_text_buffer_create_tag(buffer, "added", "foreground", "#26a269", NULL);
	gtk_text_buffer_create_tag(buffer, "removed", "foreground", "#c01c28", NULL);
	gtk_text_buffer_create_tag(buffer, "header", "foreground", "#77767b", NULL);
}

static void
sdt_recommend_page_class_init(SdtRecommendPageClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = sdt_recommend_page_dispose;
	sdt_session_install_page_property(object_class,
					  G_STRUCT_OFFSET(SdtRecommendPage, session),
					  &sdt_recommend_page_session_callbacks);
	gtk_widget_class_set_template_from_resource(widget_class,
						    "/org/example/SdTuner/sdt-recommend-page.ui");
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, title_label);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, details_label);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, file_label);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, diff_frame);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, diff_view);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, status_label);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, apply_button);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, apply_plain_button);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, loop_label);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, reboot_button);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, revert_button);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, notes_label);
	gtk_widget_class_bind_template_callback(widget_class, sdt_recommend_page_apply_clicked_cb);
	gtk_widget_class_bind_template_callback(widget_class,
						sdt_recommend_page_apply_plain_clicked_cb);
	gtk_widget_class_bind_template_callback(widget_class, sdt_recommend_page_revert_clicked_cb);
	gtk_widget_class_bind_template_callback(widget_class, sdt_recommend_page_reboot_clicked_cb);
}
