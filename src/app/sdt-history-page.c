/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <inttypes.h>
#include <math.h>

#include "sdt-l10n-record.h"
#include "sdt-l10n.h"
#include "sdt-bench-record.h"
#include "sdt-client-history.h"
#include "sdt-chart-logic.h"
#include "sdt-history-chart.h"
#include "sdt-history-page.h"
#include "sdt-history-words.h"
#include "sdt-loop-state.h"
#include "sdt-series-chart.h"
#include "sdt-session.h"

struct _SdtHistoryPage {
	GtkBox parent_instance;
	GtkWidget *summary_label;
	GtkWidget *chart;
	GtkWidget *series_heading;
	GtkWidget *series_label;
	GtkWidget *series_chart;
	GtkWidget *entries_list;
	SdtSession *session;
	SdtManager *manager;
	GCancellable *cancellable;
};

G_DEFINE_TYPE(SdtHistoryPage, sdt_history_page, GTK_TYPE_BOX)

static const struct {
	const gchar *name;
	gboolean iops;
} sdt_history_tests[] = {
	{"seq-read", FALSE},
	{"seq-write", FALSE},
	{"rand-4k-read-qd1", TRUE},
	{"rand-4k-write-qd1", TRUE},
	{"rand-4k-read-qd32", TRUE},
	{"rand-4k-write-qd32", TRUE},
};

static void
sdt_history_page_add_row(SdtHistoryPage *self, const gchar *text)
{
	GtkWidget *label = gtk_label_new(text);

	gtk_label_set_xalign(GTK_LABEL(label), 0);
	gtk_label_set_line_wrap(GTK_LABEL(label), TRUE);
	gtk_label_set_selectable(GTK_LABEL(label), TRUE);
	g_object_set(label, "margin", 6, NULL);
	gtk_widget_show(label);
	gtk_container_add(GTK_CONTAINER(self->entries_list), label);
}

/* the last verification's own before and after, with their spreads */
static gboolean
sdt_history_page_chart_verify(SdtHistoryPage *self, const SdtClientHistory *history)
{
	g_autoptr(GPtrArray) figures = sdt_chart_logic_figures_from_verify(history, NULL);

	if (figures == NULL)
		return FALSE;
	sdt_history_chart_set_labels(SDT_HISTORY_CHART(self->chart),
				     _("Before the change"),
				     _("After the change"));
	gtk_label_set_text(GTK_LABEL(self->summary_label),
			   _("Before and after SD Tuner's last change, as its check after the "
			     "restart measured them. The lines across the bars show how much "
			     "the repeats of each test differed."));
	for (guint i = 0; i < figures->len; i++) {
		SdtChartFigure *f = g_ptr_array_index(figures, i);
		gdouble values[2] = {f->before, f->after};
		gdouble spreads[2] = {f->before_spread, f->after_spread};
		sdt_history_chart_add_group(SDT_HISTORY_CHART(self->chart),
					    sdt_l10n_bench_test(f->name),
					    f->iops ? _("IOPS") : _("MB/s"),
					    values,
					    spreads);
	}
	return TRUE;
}

/* the labels and summary for a comparison of two benchmarks; FALSE if none */
static gboolean
sdt_history_page_comparison_labels(SdtHistoryPage *self, SdtHistoryComparison *cmp)
{
	SdtHistoryChart *chart = SDT_HISTORY_CHART(self->chart);
	GtkLabel *summary = GTK_LABEL(self->summary_label);

	switch (cmp->kind) {
	case SDT_HISTORY_COMPARE_NONE:
		if (cmp->stand_in_runs > 0)
			gtk_label_set_text(summary,
					   _("Benchmarks of a stand-in folder are listed below but "
					     "not compared: they did not measure the SD card. No "
					     "benchmark of the SD card itself has been run yet."));
		else
			gtk_label_set_text(
				summary,
				_("No benchmark has been run yet. Run one on the Speed "
				  "page, apply the recommended setting, restart, and run "
				  "it again: this page then shows before and after."));
		return FALSE;
	case SDT_HISTORY_COMPARE_CHANGE:
		sdt_history_chart_set_labels(chart, _("Before the change"), _("After the change"));
		gtk_label_set_text(summary,
				   _("The last benchmark before SD Tuner's last change, against "
				     "the latest one after it."));
		return TRUE;
	case SDT_HISTORY_COMPARE_WAITING:
		sdt_history_chart_set_labels(chart, _("Before the change"), _("After the change"));
		gtk_label_set_text(summary,
				   _("Restart the computer, then run the benchmark again to see "
				     "the effect of the change."));
		return TRUE;
	case SDT_HISTORY_COMPARE_PREVIOUS:
	default:
		sdt_history_chart_set_labels(chart, _("Previous run"), _("Latest run"));
		gtk_label_set_text(summary,
				   _("The latest benchmark against the one before it. Apply the "
				     "recommended change and benchmark again to see its effect."));
		return TRUE;
	}
}

/* two benchmarks of the card, with the spread each measured */
static gboolean
sdt_history_page_chart_comparison(SdtHistoryPage *self, const SdtClientHistory *history)
{
	g_autoptr(SdtHistoryComparison) cmp = sdt_client_history_comparison_new(history);

	if (!sdt_history_page_comparison_labels(self, cmp))
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(sdt_history_tests); i++) {
		gboolean iops = sdt_history_tests[i].iops;
		gdouble values[2];
		gdouble spreads[2];

		values[0] = sdt_history_words_figure(cmp->before,
						     sdt_history_tests[i].name,
						     iops,
						     &spreads[0]);
		values[1] = sdt_history_words_figure(cmp->after,
						     sdt_history_tests[i].name,
						     iops,
						     &spreads[1]);
		if (values[0] < 0 && values[1] < 0)
			continue;
		sdt_history_chart_add_group(SDT_HISTORY_CHART(self->chart),
					    sdt_l10n_bench_test(sdt_history_tests[i].name),
					    iops ? _("IOPS") : _("MB/s"),
					    values,
					    spreads);
	}
	return TRUE;
}

/* the card in the slot's figures over time, SD Tuner's changes marked */
static void
sdt_history_page_show_series(SdtHistoryPage *self, const SdtClientHistory *history)
{
	gboolean unidentified = FALSE;
	const SdtClientSeries *series = sdt_client_series_for_slot(history->series, &unidentified);
	GtkLabel *label = GTK_LABEL(self->series_label);

	sdt_series_chart_set_series(SDT_SERIES_CHART(self->series_chart), series);
	gtk_widget_set_visible(self->series_chart, series != NULL);
	gtk_widget_set_visible(self->series_heading, series != NULL || history->series->len > 0);
	gtk_widget_set_visible(self->series_label, series != NULL || history->series->len > 0);
	if (series == NULL)
		gtk_label_set_text(label,
				   _("The benchmarks in the history measured another card. Run "
				     "one on the Speed page to follow the card in the slot."));
	else if (unidentified)
		gtk_label_set_text(label,
				   _("These benchmarks do not say which card they measured (an "
				     "older version of SD Tuner ran them): they may be of another "
				     "card. The dashed lines mark SD Tuner's changes."));
	else
		gtk_label_set_text(label,
				   _("Every benchmark of the card in the slot, test by test. The "
				     "dashed lines mark SD Tuner's changes; the whiskers show how "
				     "much the repeats of a test differed."));
}

static void
sdt_history_page_show(SdtHistoryPage *self, const SdtClientHistory *history)
{
	g_autoptr(GList) children = gtk_container_get_children(GTK_CONTAINER(self->entries_list));

	for (GList *l = children; l != NULL; l = l->next)
		gtk_widget_destroy(GTK_WIDGET(l->data));
	sdt_history_chart_clear(SDT_HISTORY_CHART(self->chart));

	/* newest first in the list */
	for (guint i = history->entries->len; i > 0; i--) {
		const SdtClientHistoryEntry *e = g_ptr_array_index(history->entries, i - 1);
		g_autofree gchar *text = sdt_history_words_entry_text(e);

		if (e->error != NULL)
			g_debug("%s", e->error->message);
		sdt_history_page_add_row(self, text);
	}
	gtk_widget_set_visible(self->chart,
			       sdt_history_page_chart_verify(self, history) ||
				       sdt_history_page_chart_comparison(self, history));
	sdt_history_page_show_series(self, history);
}

static void
sdt_history_page_history_done(gpointer page, const gchar *text, const GError *call_error)
{
	SdtHistoryPage *self = SDT_HISTORY_PAGE(page);
	g_autoptr(GError) error = call_error != NULL ? g_error_copy(call_error) : NULL;
	g_autoptr(SdtClientHistory) history = NULL;

	if (text != NULL)
		history = sdt_history_report_parse(text, &error);
	if (history == NULL) {
		/* GetInfo already reports a missing helper; say it here too */
		gtk_label_set_text(GTK_LABEL(self->summary_label),
				   _("The history is not available."));
		g_debug("no history: %s", error->message);
		return;
	}
	sdt_history_page_show(self, history);
}

static void
sdt_history_page_refresh(gpointer page)
{
	SdtHistoryPage *self = SDT_HISTORY_PAGE(page);

	if (self->manager == NULL)
		return;
	sdt_session_call_text(self->manager,
			      sdt_manager_call_get_history,
			      sdt_manager_call_get_history_finish,
			      self->cancellable,
			      sdt_history_page_history_done,
			      self);
}

static void
sdt_history_page_set_manager(gpointer page, SdtManager *manager)
{
	SdtHistoryPage *self = SDT_HISTORY_PAGE(page);

	g_set_object(&self->manager, manager);
}

static const SdtSessionCallbacks sdt_history_page_session_callbacks = {
	.set_manager = sdt_history_page_set_manager,
	.refresh = sdt_history_page_refresh,
};

static void
sdt_history_page_dispose(GObject *object)
{
	SdtHistoryPage *self = SDT_HISTORY_PAGE(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	sdt_session_detach(&self->session, self);
	G_OBJECT_CLASS(sdt_history_page_parent_class)->dispose(object);
}

static void
sdt_history_page_init(SdtHistoryPage *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	self->cancellable = g_cancellable_new();
	gtk_widget_hide(self->chart);
	gtk_widget_hide(self->series_heading);
	gtk_widget_hide(self->series_label);
	gtk_widget_hide(self->series_chart);
}

static void
sdt_history_page_class_init(SdtHistoryPageClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = sdt_history_page_dispose;
	sdt_session_install_page_property(object_class,
					  G_STRUCT_OFFSET(SdtHistoryPage, session),
					  &sdt_history_page_session_callbacks);
	g_type_ensure(SDT_TYPE_HISTORY_CHART);
	g_type_ensure(SDT_TYPE_SERIES_CHART);
	gtk_widget_class_set_template_from_resource(widget_class,
						    "/org/example/SdTuner/sdt-history-page.ui");
	gtk_widget_class_bind_template_child(widget_class, SdtHistoryPage, summary_label);
	gtk_widget_class_bind_template_child(widget_class, SdtHistoryPage, chart);
	gtk_widget_class_bind_template_child(widget_class, SdtHistoryPage, series_heading);
	gtk_widget_class_bind_template_child(widget_class, SdtHistoryPage, series_label);
	gtk_widget_class_bind_template_child(widget_class, SdtHistoryPage, series_chart);
	gtk_widget_class_bind_template_child(widget_class, SdtHistoryPage, entries_list);
}
