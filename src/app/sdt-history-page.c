/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-l10n.h"
#include "sdt-history-chart.h"
#include "sdt-history-page.h"
#include "sdt-json-reader.h"
#include "sdt-client-history.h"
#include "sdt-client.h"
#include "sdt-window.h"

struct _SdtHistoryPage {
	GtkBox parent_instance;
	GtkWidget *summary_label;
	GtkWidget *chart;
	GtkWidget *entries_list;
	SdtManager *manager;
	GCancellable *cancellable;
};

G_DEFINE_TYPE(SdtHistoryPage, sdt_history_page, GTK_TYPE_BOX)

static gchar *
sdt_history_page_format_time(const gchar *iso)
{
	return iso != NULL ? sdt_l10n_time(iso) : g_strdup("?");
}

static gdouble
sdt_history_page_find(SdtClientBench *summary, const gchar *name, gboolean iops)
{
	if (summary == NULL)
		return -1;
	for (guint i = 0; i < summary->tests->len; i++) {
		SdtClientBenchTest *row = g_ptr_array_index(summary->tests, i);
		if (g_strcmp0(row->name, name) == 0 && row->valid)
			return iops ? row->iops : row->mb_s;
	}
	return -1;
}

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

static void
sdt_history_page_show(SdtHistoryPage *self, JsonArray *entries)
{
	const gchar *tests[][2] = {
		{"seq-read", "mb_s"},
		{"seq-write", "mb_s"},
		{"rand-4k-read-qd1", "iops"},
		{"rand-4k-write-qd1", "iops"},
		{"rand-4k-read-qd32", "iops"},
		{"rand-4k-write-qd32", "iops"},
	};
	g_autoptr(GList) children = gtk_container_get_children(GTK_CONTAINER(self->entries_list));
	g_autoptr(SdtHistoryComparison) cmp = sdt_history_comparison_new(entries);
	guint n = entries != NULL ? json_array_get_length(entries) : 0;

	for (GList *l = children; l != NULL; l = l->next)
		gtk_widget_destroy(GTK_WIDGET(l->data));
	sdt_history_chart_clear(SDT_HISTORY_CHART(self->chart));

	/* newest first in the list */
	for (gint i = (gint) n - 1; i >= 0; i--) {
		JsonNode *node = json_array_get_element(entries, (guint) i);
		JsonObject *entry =
			JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
		const gchar *kind = sdt_json_reader_get_string(entry, "kind");
		g_autofree gchar *when =
			sdt_history_page_format_time(sdt_json_reader_get_string(entry, "time"));
		g_autofree gchar *text = NULL;

		if (g_strcmp0(kind, "bench") == 0) {
			g_autoptr(SdtClientBench) s = sdt_client_history_entry_bench(entry);
			gdouble rd = sdt_history_page_find(s, "seq-read", FALSE);
			gdouble rr = sdt_history_page_find(s, "rand-4k-read-qd1", TRUE);
			if (s != NULL && s->stand_in)
				/* Translators: a history line: time, folder, sequential MB/s,
				 * random IOPS of a benchmark that did not run on the SD card */
				text = g_strdup_printf(
					_("%s  Benchmark of a stand-in folder, not the "
					  "SD card (%s): reads %.1f MB/s, %.0f random "
					  "reads per second"),
					when,
					s->path != NULL ? s->path : "?",
					MAX(rd, 0.0),
					MAX(rr, 0.0));
			else
				/* Translators: a history line: time, sequential MB/s, random IOPS
				 */
				text = g_strdup_printf(_("%s  Benchmark: reads %.1f MB/s, %.0f "
							 "random reads per second"),
						       when,
						       MAX(rd, 0.0),
						       MAX(rr, 0.0));
		} else if (g_strcmp0(kind, "apply") == 0 || g_strcmp0(kind, "revert") == 0) {
			const gchar *id = sdt_json_reader_get_string(entry, "id");
			if (g_strcmp0(kind, "apply") == 0)
				/* Translators: a history line: time, recommendation id */
				text = g_strdup_printf(_("%s  Applied %s"),
						       when,
						       id != NULL ? id : "");
			else
				/* Translators: a history line: time */
				text = g_strdup_printf(_("%s  Reverted SD Tuner's change"), when);
		} else {
			text = g_strdup_printf("%s  %s", when, kind != NULL ? kind : "?");
		}
		sdt_history_page_add_row(self, text);
	}

	switch (cmp->kind) {
	case SDT_HISTORY_COMPARE_NONE:
		if (cmp->stand_in_runs > 0)
			gtk_label_set_text(
				GTK_LABEL(self->summary_label),
				_("Benchmarks of a stand-in folder are listed below but not "
				  "compared: they did not measure the SD card. No benchmark of the "
				  "SD card itself has been run yet."));
		else
			gtk_label_set_text(
				GTK_LABEL(self->summary_label),
				_("No benchmark has been run yet. Run one on the Speed page, apply "
				  "the recommended setting, restart, and run it again: this page "
				  "then shows before and after."));
		gtk_widget_hide(self->chart);
		return;
	case SDT_HISTORY_COMPARE_CHANGE:
		sdt_history_chart_set_labels(SDT_HISTORY_CHART(self->chart),
					     _("Before the change"),
					     _("After the change"));
		gtk_label_set_text(GTK_LABEL(self->summary_label),
				   _("The last benchmark before SD Tuner's last change, against "
				     "the latest one after it."));
		break;
	case SDT_HISTORY_COMPARE_WAITING:
		sdt_history_chart_set_labels(SDT_HISTORY_CHART(self->chart),
					     _("Before the change"),
					     _("After the change"));
		gtk_label_set_text(GTK_LABEL(self->summary_label),
				   _("Restart the computer, then run the benchmark again to see "
				     "the effect of the change."));
		break;
	case SDT_HISTORY_COMPARE_PREVIOUS:
	default:
		sdt_history_chart_set_labels(SDT_HISTORY_CHART(self->chart),
					     _("Previous run"),
					     _("Latest run"));
		gtk_label_set_text(GTK_LABEL(self->summary_label),
				   _("The latest benchmark against the one before it. Apply the "
				     "recommended change and benchmark again to see its effect."));
		break;
	}
	for (guint i = 0; i < G_N_ELEMENTS(tests); i++) {
		gboolean iops = g_strcmp0(tests[i][1], "iops") == 0;
		gdouble b = sdt_history_page_find(cmp->before, tests[i][0], iops);
		gdouble a = sdt_history_page_find(cmp->after, tests[i][0], iops);
		if (a < 0 && b < 0)
			continue;
		sdt_history_chart_add_group(SDT_HISTORY_CHART(self->chart),
					    sdt_l10n_bench_test(tests[i][0]),
					    iops ? _("IOPS") : _("MB/s"),
					    b,
					    a);
	}
	gtk_widget_show(self->chart);
}

static void
sdt_history_page_get_history_cb(GObject *source, GAsyncResult *res, gpointer user_data)
{
	SdtHistoryPage *self;
	g_autoptr(GError) error = NULL;
	g_autofree gchar *json = NULL;
	g_autoptr(JsonNode) root = NULL;

	if (!sdt_manager_call_get_history_finish(SDT_MANAGER(source), &json, res, &error) &&
	    g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
		return;
	self = SDT_HISTORY_PAGE(user_data);
	if (json != NULL)
		root = sdt_json_reader_parse(json, &error);
	if (root == NULL) {
		/* GetInfo already reports a missing helper; say it here too */
		gtk_label_set_text(GTK_LABEL(self->summary_label),
				   _("The history is not available."));
		g_debug("no history: %s", error->message);
		return;
	}
	sdt_history_page_show(self,
			      sdt_json_reader_get_array(json_node_get_object(root), "entries"));
}

void
sdt_history_page_refresh(SdtHistoryPage *self)
{
	g_return_if_fail(SDT_IS_HISTORY_PAGE(self));
	if (self->manager == NULL)
		return;
	sdt_manager_call_get_history(self->manager,
				     sdt_client_no_options(),
				     self->cancellable,
				     sdt_history_page_get_history_cb,
				     self);
}

void
sdt_history_page_set_manager(SdtHistoryPage *self, SdtManager *manager)
{
	g_return_if_fail(SDT_IS_HISTORY_PAGE(self));
	g_set_object(&self->manager, manager);
}

static void
sdt_history_page_dispose(GObject *object)
{
	SdtHistoryPage *self = SDT_HISTORY_PAGE(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	G_OBJECT_CLASS(sdt_history_page_parent_class)->dispose(object);
}

static void
sdt_history_page_init(SdtHistoryPage *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	self->cancellable = g_cancellable_new();
	gtk_widget_hide(self->chart);
}

static void
sdt_history_page_class_init(SdtHistoryPageClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = sdt_history_page_dispose;
	g_type_ensure(SDT_TYPE_HISTORY_CHART);
	gtk_widget_class_set_template_from_resource(widget_class,
						    "/org/example/SdTuner/sdt-history-page.ui");
	gtk_widget_class_bind_template_child(widget_class, SdtHistoryPage, summary_label);
	gtk_widget_class_bind_template_child(widget_class, SdtHistoryPage, chart);
	gtk_widget_class_bind_template_child(widget_class, SdtHistoryPage, entries_list);
}
