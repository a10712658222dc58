/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-l10n.h"
#include "sdt-bench-words.h"
#include "sdt-benchmark-page.h"
#include "sdt-bench-record.h"
#include "sdt-client-job.h"
#include "sdt-error.h"
#include "sdt-app-inhibit.h"
#include "sdt-rate-graph.h"
#include "sdt-run-compare.h"
#include "sdt-session.h"

struct _SdtBenchmarkPage {
	GtkBox parent_instance;
	GtkWidget *profile_combo;
	GtkWidget *start_button;
	GtkWidget *cancel_button;
	GtkWidget *progress_bar;
	GtkWidget *rate_graph;
	GtkWidget *verdict_label;
	GtkWidget *results_grid;
	GtkWidget *run_compare; /* the last run beside the one before (sdt-run-compare.c) */
	SdtSession *session;
	SdtManager *manager;
	GCancellable *cancellable; /* the page's lifetime */
	gboolean running;
	SdtClientJob *job; /* the run followed (sdt-client-job.h) */
	SdtAppInhibit *inhibit;
	gint64 started_us; /* when the job began: the rate graph's time 0 */
};

G_DEFINE_TYPE(SdtBenchmarkPage, sdt_benchmark_page, GTK_TYPE_BOX)

static void
sdt_benchmark_page_add_cell(SdtBenchmarkPage *self,
			    const gchar *text,
			    const gchar *description,
			    const gchar *style_class,
			    gint column,
			    gint row)
{
	GtkWidget *label = gtk_label_new(text);

	gtk_label_set_xalign(GTK_LABEL(label), column == 0 ? 0.0 : 1.0);
	if (column == 0)
		gtk_label_set_line_wrap(GTK_LABEL(label), TRUE);
	if (style_class != NULL)
		gtk_style_context_add_class(gtk_widget_get_style_context(label), style_class);
	if (description != NULL)
		atk_object_set_description(gtk_widget_get_accessible(label), description);
	gtk_widget_show(label);
	gtk_grid_attach(GTK_GRID(self->results_grid), label, column, row, 1, 1);
}

static const gchar *
sdt_benchmark_page_target_text(SdtTarget target)
{
	switch (target) {
	case SDT_TARGET_PASS:
		return _("✓ meets");
	case SDT_TARGET_FAIL:
		return _("✗ below");
	default:
		return "—";
	}
}

static const gchar *
sdt_benchmark_page_target_class(SdtTarget target)
{
	switch (target) {
	case SDT_TARGET_PASS:
		return "sdt-pass";
	case SDT_TARGET_FAIL:
		return "sdt-fail";
	default:
		return "dim-label";
	}
}

static void
sdt_benchmark_page_clear_results(SdtBenchmarkPage *self)
{
	g_autoptr(GList) children = gtk_container_get_children(GTK_CONTAINER(self->results_grid));
	for (GList *l = children; l != NULL; l = l->next)
		gtk_widget_destroy(GTK_WIDGET(l->data));
	gtk_label_set_text(GTK_LABEL(self->verdict_label), "");
	/* an empty selectable label would be an unnamed focus stop */
	gtk_label_set_selectable(GTK_LABEL(self->verdict_label), FALSE);
}

/* one row of the results table: the test, its figures and its A1/A2 marks */
static void
sdt_benchmark_page_add_row(SdtBenchmarkPage *self, SdtBenchRecordTest *row, gint r)
{
	const gchar *title = sdt_l10n_bench_test(row->name);
	g_autofree gchar *mb_s = NULL;
	g_autofree gchar *iops = NULL;
	g_autofree gchar *pct = NULL;
	g_autofree gchar *spread = sdt_bench_words_spread_text(
		row->valid && isfinite(row->ci_percent) ? row->ci_percent : -1);
	/* Translators: accessible descriptions of result cells */
	g_autofree gchar *mb_s_desc = g_strdup_printf(_("%s, MB/s"), title);
	g_autofree gchar *iops_desc = g_strdup_printf(_("%s, IOPS"), title);
	g_autofree gchar *pct_desc = g_strdup_printf(_("%s, percent of the bus ceiling"), title);
	g_autofree gchar *spread_desc = g_strdup_printf(_("%s, spread"), title);
	g_autofree gchar *a1_desc = g_strdup_printf(_("%s, A1 target"), title);
	g_autofree gchar *a2_desc = g_strdup_printf(_("%s, A2 target"), title);

	if (row->valid) {
		mb_s = g_strdup_printf("%.1f", row->mb_s);
		iops = g_strdup_printf("%.0f", row->iops);
		pct = row->ceiling_pct >= 0 && g_str_has_prefix(row->name, "seq-")
			      ? g_strdup_printf("%.0f %%", row->ceiling_pct)
			      : g_strdup("—");
	} else {
		/* Translators: a result the helper reported with no usable duration */
		mb_s = g_strdup(_("invalid"));
		iops = g_strdup("—");
		pct = g_strdup("—");
	}
	sdt_benchmark_page_add_cell(self, title, NULL, NULL, 0, r);
	sdt_benchmark_page_add_cell(self, mb_s, mb_s_desc, "sdt-number", 1, r);
	sdt_benchmark_page_add_cell(self, iops, iops_desc, "sdt-number", 2, r);
	sdt_benchmark_page_add_cell(self, pct, pct_desc, "sdt-number", 3, r);
	sdt_benchmark_page_add_cell(self, spread, spread_desc, "sdt-number", 4, r);
	sdt_benchmark_page_add_cell(self,
				    sdt_benchmark_page_target_text(row->a1),
				    a1_desc,
				    sdt_benchmark_page_target_class(row->a1),
				    5,
				    r);
	sdt_benchmark_page_add_cell(self,
				    sdt_benchmark_page_target_text(row->a2),
				    a2_desc,
				    sdt_benchmark_page_target_class(row->a2),
				    6,
				    r);
}

/* the verdict on the card, the bus ceiling and how much the figures spread */
static gchar *
sdt_benchmark_page_verdict_text(SdtBenchRecord *summary)
{
	g_autoptr(GString) text = g_string_new(NULL);
	gdouble spread = isfinite(summary->verdict.spread_percent) ? summary->verdict.spread_percent
								   : summary->spread_percent;

	if (summary->stand_in)
		/* Translators: the folder and the device of a benchmark that did not run
		 * on the SD card */
		g_string_printf(text,
				_("Stand-in: the test file was in %s on %s, not on the SD card. "
				  "These figures are that device's, so there is no A1 or A2 "
				  "verdict on the card."),
				summary->path != NULL ? summary->path : "?",
				summary->device != NULL ? summary->device : "?");
	else if (summary->a1 == SDT_TARGET_PASS && summary->a2 == SDT_TARGET_PASS)
		g_string_assign(text, _("This card reaches the A2 targets on this board."));
	else if (summary->a1 == SDT_TARGET_PASS)
		g_string_assign(text,
				_("This card reaches the A1 targets on this board, not the A2 "
				  "targets."));
	else if (summary->a1 == SDT_TARGET_FAIL)
		g_string_assign(text, _("This card does not reach the A1 targets on this board."));
	else
		g_string_assign(text, _("No verdict: some figures are missing."));
	if (summary->ceiling_mb_s > 0) {
		g_string_append(text, sdt_l10n_sentence_gap(text->str));
		/* Translators: the bus ceiling in MB/s; follows the verdict */
		g_string_append_printf(text,
				       _("The bus allows at most %.1f MB/s."),
				       summary->ceiling_mb_s);
	}
	if (isfinite(spread) && spread >= 0) {
		g_string_append(text, sdt_l10n_sentence_gap(text->str));
		/* Translators: how much repeated measurements differed, in percent */
		g_string_append_printf(text,
				       _("The repeats of the verdict's tests differed by up to "
					 "±%.1f %%."),
				       spread);
	}
	return g_string_free(g_steal_pointer(&text), FALSE);
}

static void
sdt_benchmark_page_show_summary(SdtBenchmarkPage *self, SdtBenchRecord *summary)
{
	const gchar *headers[] = {N_("Test"),
				  N_("MB/s"),
				  N_("IOPS"),
				  /* xgettext:no-c-format */
				  /* Translators: column head: the rate as a percentage of the
				   * bus ceiling */
				  N_("% of bus"),
				  /* Translators: column head: how much the repeats of a test
				   * differed, e.g. "±1.2 %" */
				  N_("Spread"),
				  N_("A1 target"),
				  N_("A2 target")};
	g_autofree gchar *verdict = sdt_benchmark_page_verdict_text(summary);
	g_autoptr(GString) text = g_string_new(verdict);
	g_autoptr(GString) details = g_string_new(NULL);

	sdt_benchmark_page_clear_results(self);
	for (guint i = 0; i < G_N_ELEMENTS(headers); i++)
		sdt_benchmark_page_add_cell(self, _(headers[i]), NULL, "sdt-column-title", i, 0);
	for (guint i = 0; i < summary->tests->len; i++)
		sdt_benchmark_page_add_row(self,
					   g_ptr_array_index(summary->tests, i),
					   (gint) i + 1);

	/* the engine's notes in plain words; its own words in the tooltip */
	for (guint i = 0; i < summary->notes->len; i++) {
		const gchar *note = g_ptr_array_index(summary->notes, i);
		g_autofree gchar *plain = sdt_bench_words_note_plain(note);
		const gchar *translated = sdt_l10n_tr(note);
		g_string_append_printf(text, "\n%s", plain);
		if (!g_str_equal(plain, translated))
			g_string_append_printf(details,
					       "%s%s",
					       details->len > 0 ? "\n" : "",
					       translated);
	}
	gtk_label_set_text(GTK_LABEL(self->verdict_label), text->str);
	gtk_label_set_selectable(GTK_LABEL(self->verdict_label), text->len > 0);
	gtk_widget_set_tooltip_text(self->verdict_label, details->len > 0 ? details->str : NULL);
}

static void
sdt_benchmark_page_set_running(SdtBenchmarkPage *self, gboolean running)
{
	GtkWidget *toplevel = gtk_widget_get_toplevel(GTK_WIDGET(self));
	GtkWindow *window = GTK_IS_WINDOW(toplevel) ? GTK_WINDOW(toplevel) : NULL;

	self->running = running;
	gtk_widget_set_sensitive(self->start_button, !running);
	gtk_widget_set_sensitive(self->profile_combo, !running);
	gtk_widget_set_sensitive(self->cancel_button, running);

	/* no suspend, shutdown or logout in the middle of a measurement */
	if (running && self->inhibit == NULL)
		self->inhibit = sdt_app_inhibit_new(window, _("The SD card benchmark is running"));
	else if (!running)
		g_clear_pointer(&self->inhibit, sdt_app_inhibit_free);
}

static void
sdt_benchmark_page_reset_job(SdtBenchmarkPage *self)
{
	g_clear_pointer(&self->job, sdt_client_job_free);
}

static void
sdt_benchmark_page_finish(SdtBenchmarkPage *self, const gchar *result, const GError *error)
{
	g_autoptr(GError) error_local = NULL;
	g_autoptr(SdtBenchRecord) summary = NULL;

	sdt_benchmark_page_reset_job(self);
	sdt_benchmark_page_set_running(self, FALSE);

	if (error != NULL) {
		gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar),
					  g_error_matches(error, SDT_ERROR, SDT_ERROR_CANCELLED)
						  ? _("Stopped")
						  : _("Failed"));
		sdt_session_report_error(self->session, SDT_USER_ACTION_BENCHMARK, error);
		return;
	}
	summary = sdt_bench_record_parse(result, &error_local);
	if (summary == NULL) {
		gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar), _("Failed"));
		sdt_session_report_error(self->session, SDT_USER_ACTION_BENCHMARK, error_local);
		return;
	}
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress_bar), 1.0);
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar), _("Finished"));
	sdt_benchmark_page_show_summary(self, summary);
	if (self->session != NULL) {
		if (summary->invalid_rows > 0) {
			g_autofree gchar *text = g_strdup_printf(
				ngettext(
					"The service reported %u result with a zero duration or a "
					"value that is not a number, so it is not shown. Run the "
					"benchmark again; if it happens again, the card may be "
					"failing.",
					"The service reported %u results with a zero duration or a "
					"value that is not a number, so they are not shown. Run "
					"the "
					"benchmark again; if it happens again, the card may be "
					"failing.",
					summary->invalid_rows),
				summary->invalid_rows);
			sdt_session_report_notice(self->session, GTK_MESSAGE_WARNING, text);
		} else {
			sdt_session_dismiss(self->session);
		}
		sdt_session_refresh(self->session);
	}
}

static void
sdt_benchmark_page_progress_cb(const gchar *phase,
			       gdouble progress,
			       gdouble rate,
			       gpointer user_data)
{
	SdtBenchmarkPage *self = SDT_BENCHMARK_PAGE(user_data);
	g_autofree gchar *text = NULL;

	if (!self->running)
		return;
	if (!isfinite(progress))
		progress = 0;
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress_bar),
				      CLAMP(progress, 0.0, 1.0));
	if (phase != NULL && phase[0] != '\0' && g_strcmp0(phase, "prepare") != 0) {
		/* Translators: the running test and its current rate */
		text = g_strdup_printf(_("%s: %.1f MB/s"),
				       sdt_l10n_bench_test(phase),
				       isfinite(rate) ? rate : 0.0);
		sdt_rate_graph_add_sample(SDT_RATE_GRAPH(self->rate_graph),
					  (gdouble) (g_get_monotonic_time() - self->started_us) /
						  G_USEC_PER_SEC,
					  rate,
					  phase);
	} else {
		text = g_strdup(_("Preparing the test file…"));
	}
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar), text);
}

static void sdt_benchmark_page_service_vanished(gpointer page);

static void
sdt_benchmark_page_done_cb(const gchar *result, const GError *error, gpointer user_data)
{
	SdtBenchmarkPage *self = SDT_BENCHMARK_PAGE(user_data);

	/* the helper left: said the same way as when the window sees it go */
	if (self->job != NULL && sdt_client_job_helper_vanished(self->job)) {
		sdt_benchmark_page_service_vanished(self);
		return;
	}
	sdt_benchmark_page_finish(self, result, error);
}

static void
sdt_benchmark_page_start_clicked_cb(SdtBenchmarkPage *self)
{
	const gchar *profile = gtk_combo_box_get_active_id(GTK_COMBO_BOX(self->profile_combo));

	if (self->running)
		return;
	if (self->manager == NULL) {
		g_autoptr(GError) error =
			g_error_new_literal(G_DBUS_ERROR,
					    G_DBUS_ERROR_SERVICE_UNKNOWN,
					    _("Not connected to the SD Tuner service"));
		sdt_session_report_error(self->session, SDT_USER_ACTION_BENCHMARK, error);
		return;
	}
	sdt_benchmark_page_reset_job(self);
	sdt_benchmark_page_clear_results(self);
	sdt_rate_graph_clear(SDT_RATE_GRAPH(self->rate_graph));
	sdt_session_dismiss(self->session);

	sdt_benchmark_page_set_running(self, TRUE);
	self->started_us = g_get_monotonic_time();
	gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(self->progress_bar), 0.0);
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar),
				  _("Waiting for permission…"));
	self->job = sdt_session_start_job(self->manager,
					  "StartBenchmark",
					  profile != NULL ? profile : "quick",
					  sdt_benchmark_page_progress_cb,
					  sdt_benchmark_page_done_cb,
					  self);
}

static void
sdt_benchmark_page_cancel_clicked_cb(SdtBenchmarkPage *self)
{
	if (!self->running || self->job == NULL)
		return;
	/* now, or once StartBenchmark has answered; Completed(Cancelled) ends the run */
	sdt_client_job_cancel(self->job);
	gtk_progress_bar_set_text(GTK_PROGRESS_BAR(self->progress_bar), _("Stopping…"));
}

static void
sdt_benchmark_page_service_vanished(gpointer page)
{
	SdtBenchmarkPage *self = SDT_BENCHMARK_PAGE(page);
	g_autoptr(GError) error = NULL;

	if (!self->running)
		return;
	error = g_error_new_literal(G_DBUS_ERROR,
				    G_DBUS_ERROR_NO_REPLY,
				    _("sd-tuner-helper stopped in the middle of the benchmark"));
	sdt_benchmark_page_finish(self, NULL, error);
}

static void
sdt_benchmark_page_set_manager(gpointer page, SdtManager *manager)
{
	SdtBenchmarkPage *self = SDT_BENCHMARK_PAGE(page);

	if (manager == self->manager)
		return;
	sdt_benchmark_page_service_vanished(self);
	sdt_benchmark_page_reset_job(self);
	g_set_object(&self->manager, manager);
}

/* the helper's state read again (after a run too): the last run beside the one before */
static void
sdt_benchmark_page_refresh(gpointer page)
{
	SdtBenchmarkPage *self = SDT_BENCHMARK_PAGE(page);

	sdt_run_compare_refresh(SDT_RUN_COMPARE(self->run_compare), self->manager);
}

static const SdtSessionCallbacks sdt_benchmark_page_session_callbacks = {
	.set_manager = sdt_benchmark_page_set_manager,
	.refresh = sdt_benchmark_page_refresh,
	.service_vanished = sdt_benchmark_page_service_vanished,
};

static void
sdt_benchmark_page_dispose(GObject *object)
{
	SdtBenchmarkPage *self = SDT_BENCHMARK_PAGE(object);

	sdt_benchmark_page_reset_job(self);
	sdt_benchmark_page_set_running(self, FALSE);
	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	sdt_session_detach(&self->session, self);
	G_OBJECT_CLASS(sdt_benchmark_page_parent_class)->dispose(object);
}

/* GTK 3 gives the focus to the combo's own toggle button (inside a box), which has
 * no name of its own */
static void
sdt_benchmark_page_name_combo_button(GtkWidget *child, gpointer name)
{
	if (GTK_IS_TOGGLE_BUTTON(child))
		atk_object_set_name(gtk_widget_get_accessible(child), name);
	else if (GTK_IS_CONTAINER(child))
		gtk_container_forall(GTK_CONTAINER(child),
				     sdt_benchmark_page_name_combo_button,
				     name);
}

static void
sdt_benchmark_page_init(SdtBenchmarkPage *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	self->cancellable = g_cancellable_new();
	gtk_container_forall(
		GTK_CONTAINER(self->profile_combo),
		sdt_benchmark_page_name_combo_button,
		(gpointer) atk_object_get_name(gtk_widget_get_accessible(self->profile_combo)));
}

static void
sdt_benchmark_page_class_init(SdtBenchmarkPageClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = sdt_benchmark_page_dispose;
	sdt_session_install_page_property(object_class,
					  G_STRUCT_OFFSET(SdtBenchmarkPage, session),
					  &sdt_benchmark_page_session_callbacks);
	g_type_ensure(SDT_TYPE_RATE_GRAPH);
	g_type_ensure(SDT_TYPE_RUN_COMPARE);
	gtk_widget_class_set_template_from_resource(widget_class,
						    "/org/example/SdTuner/sdt-benchmark-page.ui");
	gtk_widget_class_bind_template_child(widget_class, SdtBenchmarkPage, profile_combo);
	gtk_widget_class_bind_template_child(widget_class, SdtBenchmarkPage, start_button);
	gtk_widget_class_bind_template_child(widget_class, SdtBenchmarkPage, cancel_button);
	gtk_widget_class_bind_template_child(widget_class, SdtBenchmarkPage, progress_bar);
	gtk_widget_class_bind_template_child(widget_class, SdtBenchmarkPage, rate_graph);
	gtk_widget_class_bind_template_child(widget_class, SdtBenchmarkPage, verdict_label);
	gtk_widget_class_bind_template_child(widget_class, SdtBenchmarkPage, results_grid);
	gtk_widget_class_bind_template_child(widget_class, SdtBenchmarkPage, run_compare);
	gtk_widget_class_bind_template_callback(widget_class, sdt_benchmark_page_start_clicked_cb);
	gtk_widget_class_bind_template_callback(widget_class, sdt_benchmark_page_cancel_clicked_cb);
}
