/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-client-history.h"
#include "sdt-history-chart.h"
#include "sdt-l10n.h"
#include "sdt-run-compare.h"
#include "sdt-session.h"

struct _SdtRunCompare {
	GtkExpander parent_instance;
	GtkWidget *label;
	GtkWidget *chart;
	GCancellable *cancellable;
};

G_DEFINE_TYPE(SdtRunCompare, sdt_run_compare, GTK_TYPE_EXPANDER)

/* the tests in the order of the results table */
static const gchar *const sdt_run_compare_tests[] = {
	"seq-read",
	"seq-write",
	"rand-4k-read-qd1",
	"rand-4k-write-qd1",
	"rand-4k-read-qd32",
	"rand-4k-write-qd32",
};

/* the last two runs of each test of @series; FALSE when no test has two */
static gboolean
sdt_run_compare_fill(SdtRunCompare *self, const SdtClientSeries *series)
{
	SdtHistoryChart *chart = SDT_HISTORY_CHART(self->chart);
	gboolean any = FALSE;

	sdt_history_chart_clear(chart);
	sdt_history_chart_set_labels(chart, _("The run before"), _("The last run"));
	for (guint i = 0; i < G_N_ELEMENTS(sdt_run_compare_tests); i++) {
		const SdtClientSeriesTest *t =
			sdt_client_series_get_test(series, sdt_run_compare_tests[i]);
		const SdtClientPoint *a, *b;
		gdouble values[2], spreads[2];

		if (t == NULL || t->points->len < 2)
			continue;
		a = g_ptr_array_index(t->points, t->points->len - 2);
		b = g_ptr_array_index(t->points, t->points->len - 1);
		values[0] = a->value;
		values[1] = b->value;
		spreads[0] = a->spread;
		spreads[1] = b->spread;
		sdt_history_chart_add_group(chart,
					    sdt_l10n_bench_test(t->name),
					    g_strcmp0(t->unit, "IOPS") == 0 ? _("IOPS") : _("MB/s"),
					    values,
					    spreads);
		any = TRUE;
	}
	return any;
}

static void
sdt_run_compare_history_done(gpointer widget, const gchar *text, const GError *call_error)
{
	SdtRunCompare *self = SDT_RUN_COMPARE(widget);
	g_autoptr(GError) error = NULL;
	g_autoptr(SdtClientHistory) history = NULL;
	const SdtClientSeries *series = NULL;
	gboolean unidentified = FALSE;

	if (text != NULL)
		history = sdt_history_report_parse(text, &error);
	if (history != NULL)
		series = sdt_client_series_for_slot(history->series, &unidentified);
	if (series == NULL || !sdt_run_compare_fill(self, series)) {
		gtk_widget_hide(GTK_WIDGET(self));
		return;
	}
	gtk_label_set_text(GTK_LABEL(self->label),
			   unidentified ? _("The last benchmark beside the one before it. These "
					    "runs do not say which card they measured.")
					: _("The last benchmark of the card in the slot beside the "
					    "one before it. The lines across the bars show how "
					    "much the repeats of each test differed."));
	gtk_widget_show(GTK_WIDGET(self));
}

void
sdt_run_compare_refresh(SdtRunCompare *self, SdtManager *manager)
{
	g_return_if_fail(SDT_IS_RUN_COMPARE(self));
	if (manager == NULL) {
		gtk_widget_hide(GTK_WIDGET(self));
		return;
	}
	sdt_session_call_text(manager,
			      sdt_manager_call_get_history,
			      sdt_manager_call_get_history_finish,
			      self->cancellable,
			      sdt_run_compare_history_done,
			      self);
}

static void
sdt_run_compare_dispose(GObject *object)
{
	SdtRunCompare *self = SDT_RUN_COMPARE(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	G_OBJECT_CLASS(sdt_run_compare_parent_class)->dispose(object);
}

static void
sdt_run_compare_init(SdtRunCompare *self)
{
	GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);

	self->cancellable = g_cancellable_new();
	/* the title ("Compare with the run before") is the template's (sdt-benchmark-page.ui) */
	self->label = gtk_label_new(NULL);
	gtk_label_set_xalign(GTK_LABEL(self->label), 0);
	gtk_label_set_line_wrap(GTK_LABEL(self->label), TRUE);
	self->chart = g_object_new(SDT_TYPE_HISTORY_CHART, NULL);
	atk_object_set_name(gtk_widget_get_accessible(self->chart),
			    _("The last run beside the one before"));
	gtk_container_add(GTK_CONTAINER(box), self->label);
	gtk_container_add(GTK_CONTAINER(box), self->chart);
	gtk_widget_show_all(box);
	gtk_container_add(GTK_CONTAINER(self), box);
	gtk_widget_hide(GTK_WIDGET(self));
}

static void
sdt_run_compare_class_init(SdtRunCompareClass *klass)
{
	G_OBJECT_CLASS(klass)->dispose = sdt_run_compare_dispose;
}
