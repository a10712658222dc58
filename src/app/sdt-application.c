/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-application.h"
#include "sdt-error.h"
#include "sdt-layout-report.h"
#include "sdt-window.h"

struct _SdtApplication {
	GtkApplication parent_instance;
};

G_DEFINE_TYPE(SdtApplication, sdt_application, GTK_TYPE_APPLICATION)

static void
sdt_application_quit_activated(GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
	g_application_quit(G_APPLICATION(user_data));
}

static const GActionEntry sdt_application_actions[] = {
	{"quit", sdt_application_quit_activated, NULL, NULL, NULL, {0}},
};

static void
sdt_application_startup(GApplication *app)
{
	g_autoptr(GtkCssProvider) css = gtk_css_provider_new();
	const gchar *quit_accels[] = {"<Control>q", "<Control>w", NULL};
	const gchar *refresh_accels[] = {"F5", "<Control>r", NULL};
	const gchar *pages[] = {"overview", "benchmark", "recommendation", "history", "health"};

	G_APPLICATION_CLASS(sdt_application_parent_class)->startup(app);

	/* SDT_ERROR is the helper's D-Bus error domain: register it before any call */
	(void) SDT_ERROR;

	gtk_css_provider_load_from_resource(css, "/org/example/SdTuner/sd-tuner.css");
	gtk_style_context_add_provider_for_screen(gdk_screen_get_default(),
						  GTK_STYLE_PROVIDER(css),
						  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
	gtk_window_set_default_icon_name("org.example.SdTuner");
	/* only for the GUI tests, when SDTUNER_LAYOUT_REPORT is set */
	sdt_layout_report_install(GTK_APPLICATION(app));

	g_action_map_add_action_entries(G_ACTION_MAP(app),
					sdt_application_actions,
					G_N_ELEMENTS(sdt_application_actions),
					app);
	gtk_application_set_accels_for_action(GTK_APPLICATION(app), "app.quit", quit_accels);
	gtk_application_set_accels_for_action(GTK_APPLICATION(app), "win.refresh", refresh_accels);
	for (guint i = 0; i < G_N_ELEMENTS(pages); i++) {
		g_autofree gchar *detailed = g_strdup_printf("win.show-page::%s", pages[i]);
		g_autofree gchar *accel = g_strdup_printf("<Alt>%u", i + 1);
		const gchar *accels[] = {accel, NULL};
		gtk_application_set_accels_for_action(GTK_APPLICATION(app), detailed, accels);
	}
}

static void
sdt_application_activate(GApplication *app)
{
	GtkWindow *window = gtk_application_get_active_window(GTK_APPLICATION(app));

	if (window == NULL)
		window = GTK_WINDOW(sdt_window_new(GTK_APPLICATION(app)));
	gtk_window_present(window);
}

static void
sdt_application_init(SdtApplication *self)
{
}

static void
sdt_application_class_init(SdtApplicationClass *klass)
{
	GApplicationClass *app_class = G_APPLICATION_CLASS(klass);

	app_class->startup = sdt_application_startup;
	app_class->activate = sdt_application_activate;
}

SdtApplication *
sdt_application_new(void)
{
	return g_object_new(SDT_TYPE_APPLICATION,
			    "application-id",
			    "org.example.SdTuner",
			    "flags",
			    G_APPLICATION_DEFAULT_FLAGS,
			    NULL);
}
