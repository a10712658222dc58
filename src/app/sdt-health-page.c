/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-check-result.h"
#include "sdt-check-words.h"
#include "sdt-disk-words.h"
#include "sdt-health-page.h"
#include "sdt-health-report.h"
#include "sdt-app-inhibit.h"
#include "sdt-l10n.h"
#include "sdt-client-job.h"
#include "sdt-session.h"
#include "sdt-user-error.h"

struct _SdtHealthPage {
	GtkBox parent_instance;
	GtkWidget *registers_label;
	GtkWidget *quick_button;
	GtkWidget *full_button;
	GtkWidget *stop_button;
	GtkWidget *progress_bar;
	GtkWidget *result_label;
	GtkWidget *wear_label;
	SdtSession *session;
	SdtManager *manager;
	SdtClientJob *job; /* the check followed (sdt-client-job.h) */
	GCancellable *cancellable;
	gboolean running;
	SdtAppInhibit *inhibit; /* while a check runs (sdt-app-inhibit.h) */
};

G_DEFINE_TYPE(SdtHealthPage, sdt_health_page, GTK_TYPE_BOX)

static void
sdt_health_page_set_running(SdtHealthPage *self, gboolean running)
{
	self->running = running;
	gtk_widget_set_sensitive(self->quick_button, !running && self->manager != NULL);
	gtk_widget_set_sensitive(self->full_button, !running && self->manager != NULL);
	gtk_widget_set_visible(self->stop_button, running);
	gtk_widget_set_visible(self->progress_bar, running);
	if (running && self->inhibit == NULL) {
		GtkWidget *top = gtk_widget_get_toplevel(GTK_WIDGET(self));

		self->inhibit = sdt_app_inhibit_new(GTK_IS_WINDOW(top) ? GTK_WINDOW(top) : NULL,
						    _("The SD card check is running"));
	} else if (!running) {
		g_clear_pointer(&self->inhibit, sdt_app_inhibit_free);
	}
}

/* a size of the report in GB ("12.3"), or NULL when unknown */
static gchar *
sdt_health_page_gb(gint64 bytes)
{
	return bytes >= 0 ? g_strdup_printf("%.1f", (gdouble) bytes / 1e9) : NULL;
}

/* what the card's registers say about whether it is genuine */
static void
sdt_health_page_show_registers(SdtHealthPage *self, const SdtHealthReportRegisters *registers)
{
	g_autoptr(GString) text = g_string_new(NULL);

	if (registers == NULL) {
		gtk_label_set_text(GTK_LABEL(self->registers_label),
				   _("The card's registers cannot be read."));
		return;
	}
	if (registers->findings->len == 0)
		g_string_append(text,
				_("Registers: plausible. Nothing in what the card says "
				  "about itself is suspicious."));
	else
		g_string_append(text,
				_("Registers: suspicious. This alone does not prove a "
				  "fake; run the check below."));
	for (guint i = 0; i < registers->findings->len; i++) {
		const SdtHealthReportFinding *f = g_ptr_array_index(registers->findings, i);
		/* the helper sends English (docs/ARCHITECTURE.md): shown in the user's */
		g_string_append_printf(text, "\n• %s", sdt_l10n_tr(f->message));
	}
	gtk_label_set_text(GTK_LABEL(self->registers_label), text->str);
}

/* under the registers: the card checked before in a reader or another slot */
static void
sdt_health_page_show_checked_before(SdtHealthPage *self, const SdtHealthReportCheckedBefore *before)
{
	g_autofree gchar *said = before != NULL ? sdt_check_words_checked_before(before->match,
										 before->time,
										 before->verdict)
						: NULL;
	g_autofree gchar *text = NULL;

	if (said == NULL)
		return;
	text = g_strdup_printf("%s\n%s",
			       gtk_label_get_text(GTK_LABEL(self->registers_label)),
			       said);
	gtk_label_set_text(GTK_LABEL(self->registers_label), text);
}

/* how much was written, and how long the card may last at that rate */
static void
sdt_health_page_append_writes(GString *wear, const SdtHealthReport *r)
{
	g_autofree gchar *lifetime = sdt_health_page_gb(r->lifetime_write_bytes);
	g_autofree gchar *since_boot = sdt_health_page_gb(r->written_bytes);
	g_autofree gchar *per_day = isnan(r->writes_per_day_bytes)
					    ? NULL
					    : sdt_health_page_gb((gint64) r->writes_per_day_bytes);

	if (lifetime != NULL) {
		/* Translators: %s is a number of GB */
		g_string_append_printf(wear,
				       _("Written over the file system's lifetime: %s GB"),
				       lifetime);
		g_string_append_c(wear, '\n');
	}
	if (since_boot != NULL) {
		/* Translators: %s is a number of GB */
		g_string_append_printf(wear,
				       _("Written since the computer started: %s GB"),
				       since_boot);
		g_string_append_c(wear, '\n');
	}
	if (per_day != NULL) {
		/* Translators: %s is a number of GB */
		g_string_append_printf(wear, _("Writes per day: %s GB"), per_day);
		g_string_append_c(wear, '\n');
	}
	if (r->projection != NULL && !isnan(r->projection->years)) {
		gdouble v = r->projection->years;

		/* Translators: %.0f is a whole number of years */
		g_string_append_printf(
			wear,
			ngettext("At this rate the card may last about %.0f more year.",
				 "At this rate the card may last about %.0f more years.",
				 sdt_l10n_plural_count(v)),
			v);
		g_string_append_printf(wear, "\n%s\n", sdt_l10n_tr(r->projection->assumption));
	}
}

/* kernel errors, a read-only mount and slower benchmarks: signs of a worn card */
static void
sdt_health_page_append_warnings(GString *wear, const SdtHealthReport *r)
{
	GPtrArray *alerts = r->trend != NULL ? r->trend->alerts : NULL;

	if (r->kernel_errors_since_boot >= 0) {
		gdouble v = (gdouble) r->kernel_errors_since_boot;

		g_string_append_printf(wear,
				       ngettext("The kernel reported %.0f card error since the "
						"computer started.",
						"The kernel reported %.0f card errors since the "
						"computer started.",
						(gulong) v),
				       v);
		g_string_append_c(wear, '\n');
	}
	if (r->read_only)
		g_string_append(wear,
				_("A file system on the card is mounted read-only: the kernel may "
				  "have stopped writing to it after errors.\n"));
	if (r->state_error != NULL)
		/* Translators: why SD Tuner refuses its state folder, with what to do */
		g_string_append_printf(wear,
				       _("SD Tuner cannot read its state folder, so the benchmark "
					 "trend leaves out its history until it is fixed: %s\n"),
				       sdt_l10n_tr(r->state_error));
	if (r->check_journal_damaged != NULL) {
		g_autofree gchar *words =
			sdt_check_result_damaged_journal_words(r->check_journal_damaged);
		g_string_append_printf(wear, "%s\n", words);
	}
	for (guint i = 0; alerts != NULL && i < alerts->len; i++) {
		const gchar *metric = g_ptr_array_index(alerts, i);
		if (g_strcmp0(metric, "seq_write_mb_s") == 0)
			g_string_append(wear,
					_("Alert: sequential writes got clearly slower over the "
					  "benchmark history.\n"));
		else
			g_string_append(wear,
					_("Alert: small writes got clearly slower over the "
					  "benchmark history.\n"));
	}
}

/* eMMC and its own wear report, or a card that is not the system disk: said first */
static gboolean
sdt_health_page_append_disk(GString *wear, const SdtHealthReportCard *card)
{
	g_autofree gchar *elsewhere = NULL;

	if (card->emmc != NULL) {
		g_autofree gchar *words = sdt_disk_words_emmc_wear(card->emmc);
		g_string_append_printf(wear, "%s\n", words);
	}
	elsewhere = sdt_disk_words_system(card->holds_system == SDT_INFO_REPORT_FLAG_NO
						  ? SDT_INFO_REPORT_FLAG_NO
						  : SDT_INFO_REPORT_FLAG_UNKNOWN,
					  card->system_device);
	if (elsewhere != NULL)
		g_string_append_printf(wear, "%s\n", elsewhere);
	return card->emmc != NULL;
}

static void
sdt_health_page_show_health(SdtHealthPage *self, const SdtHealthReport *r)
{
	g_autoptr(GString) wear = g_string_new(NULL);

	if (sdt_health_page_append_disk(wear, &r->card)) {
		gtk_label_set_text(GTK_LABEL(self->registers_label),
				   _("This is eMMC, not an SD card: the SD register checks do "
				     "not apply to it."));
		sdt_health_page_append_writes(wear, r);
		sdt_health_page_append_warnings(wear, r);
		gtk_label_set_text(GTK_LABEL(self->wear_label), g_strchomp(wear->str));
		return;
	}
	sdt_health_page_show_registers(self, r->registers);
	sdt_health_page_show_checked_before(self, r->checked_before);
	sdt_health_page_append_writes(wear, r);
	sdt_health_page_append_warnings(wear, r);
	if (wear->len == 0)
		g_string_append(wear, _("The card's write counters are not available."));
	gtk_label_set_text(GTK_LABEL(self->wear_label), g_strchomp(wear->str));
}

static void
sdt_health_page_health_done(gpointer page, const gchar *text, const GError *error_call)
{
	SdtHealthPage *self = SDT_HEALTH_PAGE(page);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtHealthReport) report =
		text != NULL ? sdt_health_report_parse(text, &error) : NULL;

	if (report == NULL) {
		gtk_label_set_text(GTK_LABEL(self->wear_label),
				   _("The card's health is not available."));
		g_debug("no health: %s", error != NULL ? error->message : error_call->message);
		return;
	}
	sdt_health_page_show_health(self, report);
}

static void
sdt_health_page_refresh(gpointer page)
{
	SdtHealthPage *self = SDT_HEALTH_PAGE(page);

	if (self->manager == NULL)
		return;
	sdt_session_call_text(self->manager,
			      sdt_manager_call_get_health,
			      sdt_manager_call_get_health_finish,
			      self->cancellable,
			      sdt_health_page_health_done,
			      self);
}

static void
sdt_health_page_show_result(SdtHealthPage *self, const SdtCheckResult *r)
{
	g_autofree gchar *text = sdt_check_words_result(r);

	gtk_label_set_text(GTK_LABEL(self->result_label), text);
	gtk_widget_set_name(self->result_label, r->verdict != NULL ? r->verdict : "undetermined");
}

static void
sdt_health_page_end_job(SdtHealthPage *self)
{
	g_clear_pointer(&self->job, sdt_client_job_free);
	sdt_health_page_set_running(self, FALSE);
}

static void
sdt_health_page_show_error(SdtHealthPage *self, const GError *error_in)
{
	g_autoptr(GError) error = g_error_copy(error_in);
	g_autofree gchar *msg = NULL;

	g_dbus_error_strip_remote_error(error);
	msg = sdt_user_error_describe(SDT_USER_ACTION_CHECK, error);
	gtk_label_set_text(GTK_LABEL(self->result_label), msg);
	gtk_widget_set_name(self->result_label, "error");
}

static void sdt_health_page_service_vanished(gpointer page);

static void
sdt_health_page_done_cb(const gchar *result, const GError *error, gpointer user_data)
{
	SdtHealthPage *self = SDT_HEALTH_PAGE(user_data);

	if (self->job != NULL && sdt_client_job_helper_vanished(self->job)) {
		sdt_health_page_service_vanished(self);
		return;
	}
	if (error != NULL) {
		sdt_health_page_show_error(self, error);
	} else {
		g_autoptr(GError) error_local = NULL;
		g_autoptr(SdtCheckResult) check = sdt_check_result_parse(result, &error_local);
		if (check != NULL)
			sdt_health_page_show_result(self, check);
		else
			gtk_label_set_text(GTK_LABEL(self->result_label), error_local->message);
	}
	sdt_health_page_end_job(self);
	sdt_health_page_refresh(self);
}

static void
sdt_health_page_progress_cb(const gchar *phase, gdouble fraction, gdouble rate, gpointer user_data)
{
	SdtHealthPage *self = SDT_HEALTH_PAGE(user_data);

	if (!self->running || phase == NULL || phase[0] == '\0')
		return;
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress_bar), fraction);
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar),
				  sdt_check_result_phase_label(phase));
}

static void
sdt_health_page_start(SdtHealthPage *self, const gchar *mode)
{
	if (self->manager == NULL || self->running)
		return;
	sdt_health_page_set_running(self, TRUE);
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress_bar), 0.0);
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar),
				  sdt_check_result_phase_label("prepare"));
	gtk_label_set_text(GTK_LABEL(self->result_label),
			   _("Checking… Your files are safe: the check only writes inside "
			     "space it reserves, and removes it afterwards."));
	gtk_widget_set_name(self->result_label, "running");
	self->job = sdt_session_start_job(self->manager,
					  "StartCheck",
					  mode,
					  sdt_health_page_progress_cb,
					  sdt_health_page_done_cb,
					  self);
}

static void
sdt_health_page_quick_clicked(GtkButton *button, SdtHealthPage *self)
{
	sdt_health_page_start(self, "quick");
}

static void
sdt_health_page_full_clicked(GtkButton *button, SdtHealthPage *self)
{
	sdt_health_page_start(self, "full");
}

static void
sdt_health_page_stop_clicked(GtkButton *button, SdtHealthPage *self)
{
	/* now, or once StartCheck has answered; Completed ends the check */
	if (self->job != NULL)
		sdt_client_job_cancel(self->job);
}

static void
sdt_health_page_service_vanished(gpointer page)
{
	SdtHealthPage *self = SDT_HEALTH_PAGE(page);

	if (!self->running)
		return;
	gtk_label_set_text(GTK_LABEL(self->result_label),
			   _("The SD Tuner service stopped during the check; its reserved "
			     "space was released."));
	gtk_widget_set_name(self->result_label, "error");
	sdt_health_page_end_job(self);
}

static void
sdt_health_page_set_manager(gpointer page, SdtManager *manager)
{
	SdtHealthPage *self = SDT_HEALTH_PAGE(page);

	sdt_health_page_end_job(self);
	g_set_object(&self->manager, manager);
	sdt_health_page_set_running(self, FALSE);
}

static const SdtSessionCallbacks sdt_health_page_session_callbacks = {
	.set_manager = sdt_health_page_set_manager,
	.refresh = sdt_health_page_refresh,
	.service_vanished = sdt_health_page_service_vanished,
};

static void
sdt_health_page_dispose(GObject *object)
{
	SdtHealthPage *self = SDT_HEALTH_PAGE(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_pointer(&self->job, sdt_client_job_free);
	g_clear_pointer(&self->inhibit, sdt_app_inhibit_free);
	g_clear_object(&self->manager);
	sdt_session_detach(&self->session, self);
	G_OBJECT_CLASS(sdt_health_page_parent_class)->dispose(object);
}

static void
sdt_health_page_init(SdtHealthPage *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	self->cancellable = g_cancellable_new();
	sdt_health_page_set_running(self, FALSE);
}

static void
sdt_health_page_class_init(SdtHealthPageClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = sdt_health_page_dispose;
	sdt_session_install_page_property(object_class,
					  G_STRUCT_OFFSET(SdtHealthPage, session),
					  &sdt_health_page_session_callbacks);
	gtk_widget_class_set_template_from_resource(widget_class,
						    "/org/example/SdTuner/sdt-health-page.ui");
	gtk_widget_class_bind_template_child(widget_class, SdtHealthPage, registers_label);
	gtk_widget_class_bind_template_child(widget_class, SdtHealthPage, quick_button);
	gtk_widget_class_bind_template_child(widget_class, SdtHealthPage, full_button);
	gtk_widget_class_bind_template_child(widget_class, SdtHealthPage, stop_button);
	gtk_widget_class_bind_template_child(widget_class, SdtHealthPage, progress_bar);
	gtk_widget_class_bind_template_child(widget_class, SdtHealthPage, result_label);
	gtk_widget_class_bind_template_child(widget_class, SdtHealthPage, wear_label);
	gtk_widget_class_bind_template_callback(widget_class, sdt_health_page_quick_clicked);
	gtk_widget_class_bind_template_callback(widget_class, sdt_health_page_full_clicked);
	gtk_widget_class_bind_template_callback(widget_class, sdt_health_page_stop_clicked);
}
