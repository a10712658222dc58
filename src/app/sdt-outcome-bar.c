/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>

#include "sdt-file.h"
#include "sdt-l10n.h"
#include "sdt-loop-state.h"
#include "sdt-outcome-bar.h"
#include "sdt-session.h"
#include "sdt-status-report.h"

struct _SdtOutcomeBar {
	GtkInfoBar parent_instance;
	GtkWidget *label;
	GCancellable *cancellable;
	gchar *shown; /* "TIME ID" of the decision on show, written when dismissed */
};

G_DEFINE_TYPE(SdtOutcomeBar, sdt_outcome_bar, GTK_TYPE_INFO_BAR)

static gchar *
sdt_outcome_bar_seen_path(void)
{
	return g_build_filename(g_get_user_config_dir(), "sd-tuner", "seen-verification", NULL);
}

/* the decision the user last dismissed, "TIME ID", or NULL */
static gchar *
sdt_outcome_bar_read_seen(void)
{
	g_autofree gchar *path = sdt_outcome_bar_seen_path();
	gchar *text = NULL;
	gsize len = 0;

	if (!sdt_file_read_bounded(path, 4096, &text, &len, NULL))
		return NULL;
	return g_strchomp(text);
}

static void
sdt_outcome_bar_write_seen(const gchar *key)
{
	g_autofree gchar *path = sdt_outcome_bar_seen_path();
	g_autofree gchar *dir = g_path_get_dirname(path);
	g_autofree gchar *text = g_strconcat(key, "\n", NULL);
	g_autoptr(GError) error = NULL;

	if (g_mkdir_with_parents(dir, 0700) != 0 || !g_file_set_contents(path, text, -1, &error))
		g_warning("cannot remember the verification as seen in %s: %s",
			  path,
			  error != NULL ? error->message : g_strerror(errno));
}

static void
sdt_outcome_bar_show_state(SdtOutcomeBar *self, const SdtLoopState *state)
{
	g_autofree gchar *key = NULL;
	g_autofree gchar *seen = NULL;
	g_autofree gchar *what = sdt_loop_state_outcome_text(state);
	g_autofree gchar *when = NULL;
	g_autofree gchar *text = NULL;

	if (what == NULL || state->time == NULL)
		return;
	key = g_strdup_printf("%s %s", state->time, state->decided_id ? state->decided_id : "");
	seen = sdt_outcome_bar_read_seen();
	if (g_strcmp0(seen, key) == 0)
		return;
	when = sdt_l10n_time(state->time);
	/* Translators: the time of the check, then what SD Tuner decided and why */
	text = g_strdup_printf(_("After the restart on %s: %s"), when, what);
	gtk_label_set_text(GTK_LABEL(self->label), text);
	atk_object_set_name(gtk_widget_get_accessible(GTK_WIDGET(self)), text);
	gtk_info_bar_set_message_type(GTK_INFO_BAR(self),
				      g_strcmp0(state->decision, "keep") == 0 &&
						      state->failure == NULL
					      ? GTK_MESSAGE_INFO
					      : GTK_MESSAGE_WARNING);
	g_free(self->shown);
	self->shown = g_steal_pointer(&key);
	gtk_widget_show(GTK_WIDGET(self));
	gtk_info_bar_set_revealed(GTK_INFO_BAR(self), TRUE);
	if (g_getenv("SDTUNER_DEBUG_MESSAGES") != NULL)
		g_printerr("sd-tuner: outcome: %s\n", text);
}

static void
sdt_outcome_bar_status_done(gpointer bar, const gchar *text, const GError *call_error)
{
	g_autoptr(GError) error = call_error != NULL ? g_error_copy(call_error) : NULL;
	g_autoptr(SdtStatusReport) status = NULL;
	g_autoptr(SdtLoopState) state = NULL;

	if (text != NULL)
		status = sdt_status_report_parse(text, &error);
	if (status == NULL) {
		g_debug("no status for the verification message: %s", error->message);
		return;
	}
	state = sdt_loop_state_new(status);
	sdt_outcome_bar_show_state(SDT_OUTCOME_BAR(bar), state);
}

void
sdt_outcome_bar_set_manager(SdtOutcomeBar *self, SdtManager *manager)
{
	g_return_if_fail(SDT_IS_OUTCOME_BAR(self));
	if (manager == NULL)
		return;
	sdt_session_call_text(manager,
			      sdt_manager_call_get_status,
			      sdt_manager_call_get_status_finish,
			      self->cancellable,
			      sdt_outcome_bar_status_done,
			      self);
}

static void
sdt_outcome_bar_response(GtkInfoBar *bar, gint response)
{
	SdtOutcomeBar *self = SDT_OUTCOME_BAR(bar);

	if (self->shown != NULL)
		sdt_outcome_bar_write_seen(self->shown);
	g_clear_pointer(&self->shown, g_free);
	gtk_info_bar_set_revealed(bar, FALSE);
	gtk_widget_hide(GTK_WIDGET(bar));
}

static void
sdt_outcome_bar_dispose(GObject *object)
{
	SdtOutcomeBar *self = SDT_OUTCOME_BAR(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_pointer(&self->shown, g_free);
	G_OBJECT_CLASS(sdt_outcome_bar_parent_class)->dispose(object);
}

static void
sdt_outcome_bar_init(SdtOutcomeBar *self)
{
	GtkWidget *content = gtk_info_bar_get_content_area(GTK_INFO_BAR(self));

	self->cancellable = g_cancellable_new();
	self->label = gtk_label_new(NULL);
	gtk_label_set_line_wrap(GTK_LABEL(self->label), TRUE);
	gtk_label_set_xalign(GTK_LABEL(self->label), 0);
	gtk_label_set_selectable(GTK_LABEL(self->label), TRUE);
	gtk_label_set_max_width_chars(GTK_LABEL(self->label), 80);
	gtk_widget_set_hexpand(self->label, TRUE);
	gtk_widget_show(self->label);
	gtk_container_add(GTK_CONTAINER(content), self->label);
	gtk_info_bar_add_button(GTK_INFO_BAR(self), _("_OK"), GTK_RESPONSE_CLOSE);
	gtk_info_bar_set_revealed(GTK_INFO_BAR(self), FALSE);
	gtk_widget_set_no_show_all(GTK_WIDGET(self), TRUE);
	gtk_widget_hide(GTK_WIDGET(self));
}

static void
sdt_outcome_bar_class_init(SdtOutcomeBarClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkInfoBarClass *bar_class = GTK_INFO_BAR_CLASS(klass);

	object_class->dispose = sdt_outcome_bar_dispose;
	bar_class->response = sdt_outcome_bar_response;
}
