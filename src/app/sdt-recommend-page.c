/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-l10n.h"
#include "sdt-block-preview.h"
#include "sdt-json-reader.h"
#include "sdt-client-status.h"
#include "sdt-client.h"
#include "sdt-recommend-page.h"
#include "sdt-window.h"

struct _SdtRecommendPage {
	GtkBox parent_instance;
	GtkWidget *title_label;
	GtkWidget *details_label;
	GtkWidget *file_label;
	GtkWidget *diff_frame;
	GtkWidget *diff_view;
	GtkWidget *status_label;
	GtkWidget *apply_button;
	GtkWidget *reboot_button;
	GtkWidget *revert_button;
	GtkWidget *notes_label;
	SdtManager *manager;
	GCancellable *cancellable;
	gchar *recommendation_id;
	gboolean busy;
	gboolean in_place;  /* SD Tuner has its block in config.txt */
	gchar *change_diff; /* the diff of this session's Apply, while it is in place */
	JsonNode *recs;     /* the last GetRecommendations answer */
	JsonNode *status;   /* the last GetStatus answer */
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
	gtk_widget_set_sensitive(self->apply_button,
				 !self->busy && !self->in_place &&
					 self->recommendation_id != NULL && self->manager != NULL);
	gtk_widget_set_sensitive(self->revert_button, !self->busy && self->manager != NULL);
}

/* the block as written, one "+" line each, from the config.txt writer itself */
static gchar *
sdt_recommend_page_block_diff(const gchar *id, const gchar *filter, JsonArray *lines)
{
	g_autoptr(GPtrArray) settings = g_ptr_array_new();
	g_autoptr(GString) diff = g_string_new(NULL);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *block = NULL;

	for (guint i = 0; lines != NULL && i < json_array_get_length(lines); i++) {
		JsonNode *node = json_array_get_element(lines, i);
		if (JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == G_TYPE_STRING)
			g_ptr_array_add(settings, (gpointer) json_node_get_string(node));
	}
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

/*
 * The top of the page from the last GetRecommendations and GetStatus answers
 * (they arrive in any order): SD Tuner's change when one is in place, else the
 * recommendation with the exact block Apply would write, else why there is none.
 */
static void
sdt_recommend_page_render(SdtRecommendPage *self)
{
	JsonObject *obj = self->recs != NULL ? json_node_get_object(self->recs) : NULL;
	JsonObject *status = self->status != NULL ? json_node_get_object(self->status) : NULL;
	JsonArray *recs = sdt_json_reader_get_array(obj, "recommendations");
	JsonArray *notes = sdt_json_reader_get_array(obj, "notes");
	g_autoptr(GString) notes_str = g_string_new(NULL);
	JsonObject *rec = NULL;

	g_clear_pointer(&self->recommendation_id, g_free);
	for (guint i = 0; notes != NULL && i < json_array_get_length(notes); i++) {
		JsonNode *node = json_array_get_element(notes, i);
		if (JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == G_TYPE_STRING)
			g_string_append_printf(notes_str,
					       "%s%s",
					       notes_str->len > 0 ? "\n\n" : "",
					       sdt_l10n_tr(json_node_get_string(node)));
	}
	gtk_label_set_text(GTK_LABEL(self->notes_label), notes_str->str);

	if (recs != NULL && json_array_get_length(recs) > 0 &&
	    JSON_NODE_HOLDS_OBJECT(json_array_get_element(recs, 0)))
		rec = json_node_get_object(json_array_get_element(recs, 0));
	if (rec != NULL)
		self->recommendation_id = g_strdup(sdt_json_reader_get_string(rec, "id"));

	if (self->in_place) {
		const gchar *id = sdt_json_reader_get_string(status, "id");
		g_autofree gchar *title = NULL;
		g_autofree gchar *diff = NULL;

		/* Translators: %s is the id of the setting, e.g. sd-overclock-100 */
		title = g_strdup_printf(_("SD Tuner's setting %s is in config.txt"),
					id != NULL ? id : "");
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
			diff = sdt_recommend_page_block_diff(
				id,
				sdt_json_reader_get_string(status, "filter"),
				sdt_json_reader_get_array(status, "lines"));
			sdt_recommend_page_set_diff(self, diff);
		}
		gtk_widget_show(self->diff_frame);
	} else if (rec == NULL) {
		gtk_label_set_text(GTK_LABEL(self->title_label),
				   obj != NULL ? _("Nothing to change on this board")
					       : _("The recommendations are not available."));
		gtk_label_set_text(GTK_LABEL(self->details_label),
				   obj != NULL ? _("SD Tuner has no setting that would make this "
						   "card faster here. The explanation below says "
						   "why.")
					       : "");
		gtk_label_set_text(GTK_LABEL(self->file_label), "");
		gtk_widget_hide(self->diff_frame);
	} else {
		const gchar *title = sdt_l10n_tr(sdt_json_reader_get_string(rec, "title"));
		const gchar *reason = sdt_l10n_tr(sdt_json_reader_get_string(rec, "reason"));
		const gchar *effect =
			sdt_l10n_tr(sdt_json_reader_get_string(rec, "expected_effect"));
		const gchar *risk = sdt_l10n_tr(sdt_json_reader_get_string(rec, "risk"));
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
		gtk_label_set_text(GTK_LABEL(self->file_label),
				   _("Apply adds these lines at the end of config.txt. Nothing "
				     "else in the file changes, and Revert takes them out again:"));
		diff = sdt_recommend_page_block_diff(self->recommendation_id,
						     sdt_json_reader_get_string(rec, "filter"),
						     sdt_json_reader_get_array(rec, "lines"));
		sdt_recommend_page_set_diff(self, diff);
		gtk_widget_show(self->diff_frame);
	}
	sdt_recommend_page_update_sensitivity(self);
}

static void
sdt_recommend_page_get_recommendations_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtRecommendPage *self;
	SdtWindow *window;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *json = NULL;
	g_autoptr(JsonNode) root = NULL;

	if (!sdt_manager_call_get_recommendations_finish(SDT_MANAGER(source), &json, res, &error) &&
	    g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = SDT_RECOMMEND_PAGE(user_data);
	window = sdt_window_from_widget(GTK_WIDGET(self));
	if (json != NULL)
		root = sdt_json_reader_parse(json, &error);
	if (root == NULL) {
		g_clear_pointer(&self->recs, json_node_unref);
		sdt_recommend_page_render(self);
		if (window != NULL)
			sdt_window_show_error(window, SDT_USER_ACTION_INFO, error);
		return;
	}
	g_clear_pointer(&self->recs, json_node_unref);
	self->recs = g_steal_pointer(&root);
	sdt_recommend_page_render(self);
}

static void
sdt_recommend_page_show_status(SdtRecommendPage *self, JsonObject *status)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtClientStatus) s =
		status != NULL ? sdt_client_status_from_json(status, &error) : NULL;
	gboolean in_place = s != NULL && s->applied;
	gboolean reboot = s != NULL && s->reboot_pending;
	gboolean verified = s != NULL && s->verified;
	gboolean failed = s != NULL && s->failed;
	const gchar *verification = s != NULL ? sdt_l10n_tr(s->verification) : NULL;
	/* a damaged block: the one diagnosis status, apply and revert give */
	gboolean damaged = s != NULL && s->damaged;

	self->in_place = in_place;
	if (!in_place)
		g_clear_pointer(&self->change_diff, g_free);
	sdt_recommend_page_render(self);
	gtk_widget_set_visible(self->revert_button, in_place && !damaged);
	if (reboot)
		gtk_widget_show(self->reboot_button);
	if (damaged)
		gtk_label_set_text(GTK_LABEL(self->status_label),
				   verification != NULL ? verification : "");
	else if (!in_place)
		gtk_label_set_text(GTK_LABEL(self->status_label),
				   _("SD Tuner has not changed config.txt."));
	else if (reboot)
		gtk_label_set_text(GTK_LABEL(self->status_label),
				   _("SD Tuner's change is in config.txt. Restart the computer "
				     "for it to take effect."));
	else if (verified || failed) {
		g_autofree gchar *text = NULL;
		if (verified)
			/* Translators: %s says how SD Tuner checked it, e.g. "the SD clock is 100
			 * MHz" */
			text = g_strdup_printf(
				_("SD Tuner's change is in effect: %s. Run the benchmark "
				  "again and compare under History."),
				verification != NULL ? verification : "");
		else
			/* Translators: %s says what SD Tuner found instead */
			text = g_strdup_printf(
				_("SD Tuner's change is in config.txt but did not take "
				  "effect: %s. Revert it, or check the kernel log."),
				verification != NULL ? verification : "");
		gtk_label_set_text(GTK_LABEL(self->status_label), text);
	} else
		gtk_label_set_text(GTK_LABEL(self->status_label),
				   _("SD Tuner's change is in config.txt."));
	/* a status the app cannot read is said, not shown as "no change" */
	if (error != NULL)
		gtk_label_set_text(GTK_LABEL(self->status_label), error->message);
}

static void
sdt_recommend_page_get_status_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtRecommendPage *self;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *json = NULL;
	g_autoptr(JsonNode) root = NULL;

	if (!sdt_manager_call_get_status_finish(SDT_MANAGER(source), &json, res, &error) &&
	    g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = SDT_RECOMMEND_PAGE(user_data);
	if (json != NULL)
		root = sdt_json_reader_parse(json, &error);
	if (root == NULL) {
		/* GetInfo already reports a missing helper; keep this quiet */
		g_debug("no status: %s", error->message);
		gtk_widget_hide(self->revert_button);
		return;
	}
	g_clear_pointer(&self->status, json_node_unref);
	self->status = json_node_ref(root);
	sdt_recommend_page_show_status(self, json_node_get_object(root));
}

void
sdt_recommend_page_refresh(SdtRecommendPage *self)
{
	g_return_if_fail(SDT_IS_RECOMMEND_PAGE(self));
	if (self->manager == NULL)
		return;
	sdt_manager_call_get_recommendations(self->manager,
					     sdt_client_no_options(),
					     self->cancellable,
					     sdt_recommend_page_get_recommendations_cb,
					     self);
	sdt_manager_call_get_status(self->manager,
				    sdt_client_no_options(),
				    self->cancellable,
				    sdt_recommend_page_get_status_cb,
				    self);
}

/* Apply and Revert return {"path", "diff", "backup", "reboot_required", ...} */
static void
sdt_recommend_page_show_change(SdtRecommendPage *self, const gchar *json, gboolean applied)
{
	SdtWindow *window = sdt_window_from_widget(GTK_WIDGET(self));
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonNode) root = sdt_json_reader_parse(json, &error);
	JsonObject *obj;
	const gchar *diff;
	const gchar *path;
	gboolean reboot;
	g_autofree gchar *text = NULL;

	if (root == NULL) {
		if (window != NULL)
			sdt_window_show_error(window,
					      applied ? SDT_USER_ACTION_APPLY
						      : SDT_USER_ACTION_REVERT,
					      error);
		return;
	}
	obj = json_node_get_object(root);
	diff = sdt_json_reader_get_string(obj, "diff");
	path = sdt_json_reader_get_string(obj, "path");
	reboot = sdt_json_reader_get_bool(obj, "reboot_required", TRUE);
	g_clear_pointer(&self->change_diff, g_free);
	if (applied && diff != NULL && diff[0] != '\0')
		self->change_diff = g_strdup(diff);
	if (applied) {
		/* Translators: %s is the path of config.txt */
		text = g_strdup_printf(_("Applied to %s. A restart is needed for the change to "
					 "take effect."),
				       path != NULL ? path : "config.txt");
	} else {
		/* Translators: %s is the path of config.txt */
		text = g_strdup_printf(_("Reverted: %s is as it was before SD Tuner changed "
					 "it. A restart brings back the old setting."),
				       path != NULL ? path : "config.txt");
	}
	if (window != NULL)
		sdt_window_show_notice(window, GTK_MESSAGE_INFO, text);
	gtk_label_set_text(GTK_LABEL(self->status_label), text);
	gtk_widget_set_visible(self->reboot_button, reboot);
	gtk_widget_set_visible(self->revert_button, applied);
	self->in_place = applied;
	sdt_recommend_page_render(self);
	if (window != NULL)
		sdt_window_refresh(window);
}

/* the end of an Apply (@applied) or Revert call: the new state or the error */
static void
sdt_recommend_page_change_done(SdtRecommendPage *self,
			       const gchar *json,
			       const GError *error,
			       gboolean applied)
{
	SdtWindow *window = sdt_window_from_widget(GTK_WIDGET(self));

	self->busy = FALSE;
	sdt_recommend_page_update_sensitivity(self);
	if (json == NULL) {
		if (window != NULL)
			sdt_window_show_error(window,
					      applied ? SDT_USER_ACTION_APPLY
						      : SDT_USER_ACTION_REVERT,
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

static void
sdt_recommend_page_apply_clicked_cb(SdtRecommendPage *self)
{
	SdtWindow *window = sdt_window_from_widget(GTK_WIDGET(self));

	if (self->manager == NULL || self->recommendation_id == NULL || self->busy)
		return;
	self->busy = TRUE;
	sdt_recommend_page_update_sensitivity(self);
	if (window != NULL)
		sdt_window_hide_message(window);
	gtk_label_set_text(GTK_LABEL(self->status_label), _("Waiting for permission…"));
	sdt_manager_call_apply(self->manager,
			       self->recommendation_id,
			       sdt_client_no_options(),
			       self->cancellable,
			       sdt_recommend_page_apply_cb,
			       self);
}

static void
sdt_recommend_page_revert_clicked_cb(SdtRecommendPage *self)
{
	SdtWindow *window = sdt_window_from_widget(GTK_WIDGET(self));

	if (self->manager == NULL || self->busy)
		return;
	self->busy = TRUE;
	sdt_recommend_page_update_sensitivity(self);
	if (window != NULL)
		sdt_window_hide_message(window);
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
	g_autoptr(GError) error = NULL;
	g_autoptr(GVariant) reply =
		g_dbus_connection_call_finish(G_DBUS_CONNECTION(source), res, &error);
	SdtWindow *window;

	if (reply != NULL || g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	window = sdt_window_from_widget(GTK_WIDGET(user_data));
	if (window != NULL)
		sdt_window_show_error(window, SDT_USER_ACTION_REBOOT, error);
}

static void
sdt_recommend_page_reboot_clicked_cb(SdtRecommendPage *self)
{
	SdtWindow *window = sdt_window_from_widget(GTK_WIDGET(self));

	if (window == NULL || self->manager == NULL)
		return;
	/* a simulated board lives on someone's computer: never restart that */
	if (sdt_window_get_simulated(window)) {
		const gchar *model = sdt_window_get_board_model(window);
		g_autofree gchar *text = g_strdup_printf(
			/* Translators: %s is the board's model, e.g. "Raspberry Pi 3 Model B
			   Rev 1.2" */
			_("This is a simulated %s, so SD Tuner does not restart this computer. On "
			  "a "
			  "real Raspberry Pi it restarts now, and the new setting takes effect."),
			model != NULL ? model : _("Raspberry Pi"));
		sdt_window_show_notice(window, GTK_MESSAGE_INFO, text);
		return;
	}
	g_dbus_connection_call(g_dbus_proxy_get_connection(G_DBUS_PROXY(self->manager)),
			       "org.freedesktop.login1",
			       "/org/freedesktop/login1",
			       "org.freedesktop.login1.Manager",
			       "Reboot",
			       g_variant_new("(b)", TRUE),
			       NULL,
			       G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION,
			       SDT_CALL_TIMEOUT_MS,
			       self->cancellable,
			       sdt_recommend_page_reboot_cb,
			       self);
}

void
sdt_recommend_page_set_manager(SdtRecommendPage *self, SdtManager *manager)
{
	g_return_if_fail(SDT_IS_RECOMMEND_PAGE(self));
	g_set_object(&self->manager, manager);
	sdt_recommend_page_update_sensitivity(self);
}

static void
sdt_recommend_page_dispose(GObject *object)
{
	SdtRecommendPage *self = SDT_RECOMMEND_PAGE(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	g_clear_pointer(&self->recommendation_id, g_free);
	g_clear_pointer(&self->change_diff, g_free);
	g_clear_pointer(&self->recs, json_node_unref);
	g_clear_pointer(&self->status, json_node_unref);
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
	gtk_widget_class_set_template_from_resource(widget_class,
						    "/org/example/SdTuner/sdt-recommend-page.ui");
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, title_label);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, details_label);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, file_label);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, diff_frame);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, diff_view);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, status_label);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, apply_button);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, reboot_button);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, revert_button);
	gtk_widget_class_bind_template_child(widget_class, SdtRecommendPage, notes_label);
	gtk_widget_class_bind_template_callback(widget_class, sdt_recommend_page_apply_clicked_cb);
	gtk_widget_class_bind_template_callback(widget_class, sdt_recommend_page_revert_clicked_cb);
	gtk_widget_class_bind_template_callback(widget_class, sdt_recommend_page_reboot_clicked_cb);
}
