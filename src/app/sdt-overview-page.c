/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "sdt-l10n.h"
#include "sdt-card-badges.h"
#include "sdt-info-report.h"
#include "sdt-disk-words.h"
#include "sdt-overview-page.h"
#include "sdt-session.h"

struct _SdtOverviewPage {
	GtkBox parent_instance;
	GtkWidget *board_label;
	GtkWidget *simulated_label;
	GtkWidget *details_box;
	GtkWidget *card_label;
	GtkWidget *badge_box;
	GtkWidget *badge_grid;
	GtkWidget *card_features_label;
	GtkWidget *bus_label;
	GtkWidget *bus_level;
	GtkWidget *config_label;
	GtkWidget *warnings_label;
	SdtSession *session;
	SdtManager *manager;
	GCancellable *cancellable;
};

G_DEFINE_TYPE(SdtOverviewPage, sdt_overview_page, GTK_TYPE_BOX)

static void
sdt_overview_page_clear_container(GtkWidget *container)
{
	g_autoptr(GList) children = gtk_container_get_children(GTK_CONTAINER(container));
	for (GList *l = children; l != NULL; l = l->next)
		gtk_widget_destroy(GTK_WIDGET(l->data));
}

static const gchar *
sdt_overview_page_timing_title(const gchar *timing)
{
	struct {
		const gchar *key;
		const gchar *title;
	} timings[] = {
		{"legacy", N_("default speed")},
		{"sd-high-speed", N_("SD high speed")},
		{"mmc-high-speed", N_("MMC high speed")},
		{"uhs-sdr12", "UHS SDR12"},
		{"uhs-sdr25", "UHS SDR25"},
		{"uhs-sdr50", "UHS SDR50"},
		{"uhs-sdr104", "UHS SDR104"},
		{"uhs-ddr50", "UHS DDR50"},
		{"mmc-ddr52", "MMC DDR52"},
		{"mmc-hs200", "MMC HS200"},
		{"mmc-hs400", "MMC HS400"},
		{"mmc-hs400es", "MMC HS400ES"},
	};
	for (guint i = 0; i < G_N_ELEMENTS(timings); i++) {
		if (g_strcmp0(timing, timings[i].key) == 0)
			return _(timings[i].title);
	}
	return _("unknown timing");
}

/* "SanDisk SU08G, 7.9 GB, made in February 2013" */
static gchar *
sdt_overview_page_card_title(const SdtInfoReportCard *card)
{
	const gchar *maker = card->manufacturer;
	const gchar *name = card->name;
	const gchar *date = card->date;
	gint64 capacity = card->capacity_bytes;
	g_autofree gchar *size =
		capacity > 0 ? g_format_size(capacity) : g_strdup(_("unknown size"));

	if (date != NULL) {
		g_autofree gchar *month = sdt_l10n_month(date);
		/* Translators: maker, product name, size, month of manufacture:
		 * "SanDisk SU08G, 7.9 GB, made in February 2013" */
		return g_strdup_printf(_("%1$s %2$s, %3$s, made in %4$s"),
				       maker != NULL ? maker : _("Unknown maker"),
				       name != NULL ? name : "",
				       size,
				       month);
	}
	/* Translators: maker, product name, size: "SanDisk SU08G, 7.9 GB" */
	return g_strdup_printf(_("%1$s %2$s, %3$s, date of manufacture unknown"),
			       maker != NULL ? maker : _("Unknown maker"),
			       name != NULL ? name : "",
			       size);
}

/* one class mark as a pill in the row (dots between them), and its line below */
static void
sdt_overview_page_add_badge(SdtOverviewPage *self, SdtCardBadge *badge, guint row, gboolean last)
{
	GtkWidget *pill = gtk_label_new(badge->label);
	g_autofree gchar *text =
		/* Translators: a class mark and what it promises, e.g. "C10: Writes
		 * video ..." */
		g_strdup_printf(_("%s: %s"), badge->label, badge->explanation);
	GtkWidget *line = gtk_label_new(text);

	gtk_style_context_add_class(gtk_widget_get_style_context(pill), "sdt-badge");
	gtk_widget_set_tooltip_text(pill, badge->explanation);
	atk_object_set_description(gtk_widget_get_accessible(pill), badge->explanation);
	gtk_container_add(GTK_CONTAINER(self->badge_box), pill);
	if (!last) {
		GtkWidget *dot = gtk_label_new("·");
		gtk_style_context_add_class(gtk_widget_get_style_context(dot), "dim-label");
		gtk_container_add(GTK_CONTAINER(self->badge_box), dot);
	}
	gtk_label_set_xalign(GTK_LABEL(line), 0);
	gtk_label_set_line_wrap(GTK_LABEL(line), TRUE);
	gtk_widget_set_hexpand(line, TRUE);
	gtk_grid_attach(GTK_GRID(self->badge_grid), line, 0, (gint) row, 1, 1);
}

static void
sdt_overview_page_show_badges(SdtOverviewPage *self, const SdtInfoReportCard *card, gboolean has_cq)
{
	/* a class the card does not report (unknown) gives no badge, as none */
	g_autoptr(GPtrArray) badges = sdt_card_badges_new(MAX(card->speed_class, 0),
							  MAX(card->uhs_grade, 0),
							  MAX(card->video_class, 0),
							  MAX(card->app_class, 0),
							  has_cq);

	for (guint i = 0; i < badges->len; i++)
		sdt_overview_page_add_badge(self,
					    g_ptr_array_index(badges, i),
					    i,
					    i + 1 == badges->len);
	if (badges->len == 0) {
		GtkWidget *none =
			gtk_label_new(_("The card reports no speed or application class."));
		gtk_container_add(GTK_CONTAINER(self->badge_box), none);
	}
	gtk_widget_show_all(self->badge_box);
	gtk_widget_show_all(self->badge_grid);
}

/* the card's command queue and whether the board uses it */
static gchar *
sdt_overview_page_card_features(const SdtInfoReportCard *card, const gchar *cqe)
{
	g_autoptr(GString) features = g_string_new(NULL);
	gint64 cq_depth = card->cq_depth;

	if (cq_depth > 0) {
		/* Translators: %d is the card's command queue depth */
		g_string_append_printf(features,
				       ngettext("The card can queue %d command.",
						"The card can queue %d commands.",
						(gulong) cq_depth),
				       (gint) cq_depth);
		g_string_append(features, sdt_l10n_sentence_gap(features->str));
	}
	if (g_strcmp0(cqe, "enabled") == 0)
		g_string_append(features, _("This board uses command queueing."));
	else if (g_strcmp0(cqe, "host-software-queue") == 0)
		g_string_append(features, _("This board queues commands in software only."));
	else if (g_strcmp0(cqe, "off") == 0)
		g_string_append(features,
				_("This board sends one command at a time (no command queueing)."));
	return g_string_free(g_steal_pointer(&features), FALSE);
}

static void
sdt_overview_page_show_card(SdtOverviewPage *self,
			    const SdtInfoReportCard *card,
			    const SdtInfoReportBus *bus)
{
	const gchar *cqe = bus->cqe;
	g_autofree gchar *title = NULL;
	g_autofree gchar *features = NULL;
	g_autofree gchar *system = NULL;

	sdt_overview_page_clear_container(self->badge_box);
	sdt_overview_page_clear_container(self->badge_grid);
	if (!card->present) {
		gtk_label_set_text(GTK_LABEL(self->card_label),
				   _("No SD card found. Insert the card, then press Refresh."));
		gtk_label_set_text(GTK_LABEL(self->card_features_label), "");
		return;
	}
	title = sdt_overview_page_card_title(card);
	if (g_strcmp0(card->kind, "emmc") == 0) {
		/* a document without card.emmc: every figure unknown */
		g_autoptr(SdtInfoReportEmmc) unknown = sdt_info_report_emmc_new();

		/* eMMC: no SD classes; the chip's own wear report instead */
		/* Translators: %s is the maker, name, size and date of the eMMC */
		g_autofree gchar *emmc_title =
			g_strdup_printf(_("eMMC (not an SD card): %s"), title);
		gtk_label_set_text(GTK_LABEL(self->card_label), emmc_title);
		features = sdt_disk_words_emmc_wear(card->emmc != NULL ? card->emmc : unknown);
	} else {
		gtk_label_set_text(GTK_LABEL(self->card_label), title);
		sdt_overview_page_show_badges(self, card, g_strcmp0(cqe, "enabled") == 0);
		features = sdt_overview_page_card_features(card, cqe);
	}
	system = sdt_disk_words_system(card->holds_system, card->system_device);
	if (system != NULL) {
		g_autofree gchar *both = g_strdup_printf("%s\n%s", system, features);
		gtk_label_set_text(GTK_LABEL(self->card_features_label), both);
		return;
	}
	gtk_label_set_text(GTK_LABEL(self->card_features_label), features);
}

static void
sdt_overview_page_show_bus(SdtOverviewPage *self, const SdtInfoReportBus *bus)
{
	/* a clock the helper did not know is NaN, as the figures below test */
	gdouble clock = bus->clock_hz >= 0 ? (gdouble) bus->clock_hz : NAN;
	gdouble actual = bus->actual_clock_hz >= 0 ? (gdouble) bus->actual_clock_hz : NAN;
	gdouble ceiling = bus->ceiling_mb_s;
	gint64 width = bus->bus_width;
	g_autoptr(GString) str = g_string_new(NULL);
	const gchar *timing;

	/* the engine always says a timing, "unknown" at worst: none, no bus state at all */
	if (bus->timing == NULL) {
		gtk_label_set_text(GTK_LABEL(self->bus_label), _("The bus state is unknown."));
		gtk_level_bar_set_value(GTK_LEVEL_BAR(self->bus_level), 0);
		return;
	}
	timing = sdt_overview_page_timing_title(bus->timing);
	if (isfinite(actual) && actual > 0 && isfinite(clock) && clock > 0 &&
	    fabs(clock - actual) > 1e5)
		g_string_append_printf(str,
				       /* Translators: the SD bus clock now, the clock the driver
					* asked for, and the bus timing: "Clock now: 100.0 MHz
					* (asked for 50.0 MHz), SD high speed." */
				       _("Clock now: %1$.1f MHz (asked for %2$.1f MHz), %3$s."),
				       actual / 1e6,
				       clock / 1e6,
				       timing);
	else if ((isfinite(actual) && actual > 0) || (isfinite(clock) && clock > 0))
		g_string_append_printf(str,
				       /* Translators: the SD bus clock now and the bus timing:
					* "Clock now: 41.7 MHz, SD high speed." */
				       _("Clock now: %1$.1f MHz, %2$s."),
				       (isfinite(actual) && actual > 0 ? actual : clock) / 1e6,
				       timing);
	else
		/* Translators: %s is the bus timing, e.g. "SD high speed" */
		g_string_append_printf(str, _("Clock now: unknown, %s."), timing);
	if (width > 0) {
		g_string_append(str, sdt_l10n_sentence_gap(str->str));
		/* Translators: the SD bus width, 1, 4 or 8 data lines */
		g_string_append_printf(str,
				       ngettext("The bus is %d bit wide.",
						"The bus is %d bits wide.",
						(gulong) width),
				       (gint) width);
	}
	g_string_append(str, "\n");
	if (isfinite(ceiling) && ceiling > 0) {
		g_string_append_printf(
			str,
			/* Translators: the most any card can transfer on the bus as it runs */
			_("Ceiling: %.1f MB/s. No card can go faster than this on the bus as it "
			  "runs now."),
			ceiling);
		gtk_level_bar_set_value(GTK_LEVEL_BAR(self->bus_level), MIN(ceiling, 104.0));
	} else {
		g_string_append(str, _("Ceiling: unknown."));
		gtk_level_bar_set_value(GTK_LEVEL_BAR(self->bus_level), 0);
	}
	gtk_label_set_text(GTK_LABEL(self->bus_label), str->str);
}

/* one SD setting of config.txt: where, whether it applies, who wrote it */
static void
sdt_overview_page_append_setting(GString *str, const SdtInfoReportSetting *s)
{
	const gchar *line_text = s->text != NULL ? s->text : "?";
	gint line = (gint) s->line;

	if (s->applies && s->managed)
		g_string_append_printf(str,
				       /* Translators: a config.txt line, its line number */
				       _("%1$s: line %2$d, in effect on this board, "
					 "set by SD Tuner"),
				       line_text,
				       line);
	else if (s->applies)
		g_string_append_printf(str,
				       /* Translators: a config.txt line, its line number */
				       _("%1$s: line %2$d, in effect on this board"),
				       line_text,
				       line);
	else if (s->managed)
		g_string_append_printf(str,
				       /* Translators: a config.txt line, its line
					* number */
				       _("%1$s: line %2$d, not in effect on this "
					 "board, set by SD Tuner"),
				       line_text,
				       line);
	else
		g_string_append_printf(str,
				       /* Translators: a config.txt line, its line number */
				       _("%1$s: line %2$d, not in effect on this board"),
				       line_text,
				       line);
	g_string_append_c(str, '\n');
}

static void
sdt_overview_page_show_config(SdtOverviewPage *self, const SdtInfoReportConfig *config)
{
	g_autoptr(GString) str = g_string_new(NULL);
	const gchar *path = config != NULL ? config->path : NULL;
	guint n = config != NULL ? config->sd_settings->len : 0;

	g_string_append_printf(str, "%s\n", path != NULL ? path : _("config.txt not found"));
	if (n == 0)
		g_string_append(str, _("No SD card settings in it: the firmware defaults apply."));
	for (guint i = 0; i < n; i++)
		sdt_overview_page_append_setting(str, g_ptr_array_index(config->sd_settings, i));
	gtk_label_set_text(GTK_LABEL(self->config_label), g_strchomp(str->str));
}

static void
sdt_overview_page_show_info(SdtOverviewPage *self, const SdtInfoReport *info)
{
	const gchar *model = info->board.model;
	g_autofree gchar *simulated = NULL;

	gtk_label_set_text(GTK_LABEL(self->board_label),
			   model != NULL ? model : _("Unknown board"));
	/* Translators: %s is the board's model, e.g. "Raspberry Pi 3 Model B Rev 1.2" */
	simulated = g_strdup_printf(_("Simulated %s"), model != NULL ? model : _("Raspberry Pi"));
	gtk_label_set_text(GTK_LABEL(self->simulated_label), simulated);
	sdt_session_set_board_model(self->session, model);
	sdt_overview_page_show_card(self, &info->card, &info->bus);
	sdt_overview_page_show_bus(self, &info->bus);
	sdt_overview_page_show_config(self, info->config);
	gtk_widget_show(self->details_box);

	if (info->warnings->len > 0) {
		g_autoptr(GString) str = g_string_new(_("Notes:"));
		for (guint i = 0; i < info->warnings->len; i++)
			g_string_append_printf(str,
					       "\n• %s",
					       sdt_l10n_tr(g_ptr_array_index(info->warnings, i)));
		gtk_label_set_text(GTK_LABEL(self->warnings_label), str->str);
		gtk_widget_show(self->warnings_label);
	} else {
		gtk_widget_hide(self->warnings_label);
	}
}

static void
sdt_overview_page_info_done(gpointer page, const gchar *text, const GError *call_error)
{
	SdtOverviewPage *self = SDT_OVERVIEW_PAGE(page);
	g_autoptr(GError) error = call_error != NULL ? g_error_copy(call_error) : NULL;
	g_autoptr(SdtInfoReport) info = NULL;

	if (text != NULL)
		info = sdt_info_report_parse(text, &error);
	if (info == NULL) {
		gtk_label_set_text(GTK_LABEL(self->board_label),
				   _("The board and card details are not available."));
		gtk_widget_hide(self->details_box);
		sdt_session_report_error(self->session, SDT_USER_ACTION_INFO, error);
		return;
	}
	sdt_overview_page_show_info(self, info);
}

static void
sdt_overview_page_refresh(gpointer page)
{
	SdtOverviewPage *self = SDT_OVERVIEW_PAGE(page);

	if (self->manager == NULL)
		return;
	sdt_session_call_text(self->manager,
			      sdt_manager_call_get_info,
			      sdt_manager_call_get_info_finish,
			      self->cancellable,
			      sdt_overview_page_info_done,
			      self);
}

static void
sdt_overview_page_set_manager(gpointer page, SdtManager *manager)
{
	SdtOverviewPage *self = SDT_OVERVIEW_PAGE(page);

	g_set_object(&self->manager, manager);
}

static void
sdt_overview_page_set_simulated(gpointer page, gboolean simulated)
{
	SdtOverviewPage *self = SDT_OVERVIEW_PAGE(page);

	gtk_widget_set_visible(self->simulated_label, simulated);
}

static const SdtSessionCallbacks sdt_overview_page_session_callbacks = {
	.set_manager = sdt_overview_page_set_manager,
	.set_simulated = sdt_overview_page_set_simulated,
	.refresh = sdt_overview_page_refresh,
};

static void
sdt_overview_page_dispose(GObject *object)
{
	SdtOverviewPage *self = SDT_OVERVIEW_PAGE(object);

	g_cancellable_cancel(self->cancellable);
	g_clear_object(&self->cancellable);
	g_clear_object(&self->manager);
	sdt_session_detach(&self->session, self);
	G_OBJECT_CLASS(sdt_overview_page_parent_class)->dispose(object);
}

static void
sdt_overview_page_init(SdtOverviewPage *self)
{
	gtk_widget_init_template(GTK_WIDGET(self));
	self->cancellable = g_cancellable_new();
}

static void
sdt_overview_page_class_init(SdtOverviewPageClass *klass)
{
	GObjectClass *object_class = G_OBJECT_CLASS(klass);
	GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);

	object_class->dispose = sdt_overview_page_dispose;
	sdt_session_install_page_property(object_class,
					  G_STRUCT_OFFSET(SdtOverviewPage, session),
					  &sdt_overview_page_session_callbacks);
	gtk_widget_class_set_template_from_resource(widget_class,
						    "/org/example/SdTuner/sdt-overview-page.ui");
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, board_label);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, simulated_label);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, details_box);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, card_label);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, badge_box);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, badge_grid);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, card_features_label);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, bus_label);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, bus_level);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, config_label);
	gtk_widget_class_bind_template_child(widget_class, SdtOverviewPage, warnings_label);
}
