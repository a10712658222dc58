/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "sdt-application.h"

int
main(int argc, char *argv[])
{
	g_autoptr(SdtApplication) app = NULL;
	const gchar *localedir = g_getenv("SDTUNER_LOCALEDIR");

	/* SDTUNER_LOCALEDIR lets tests use the translations in the build tree */
	setlocale(LC_ALL, "");
	bindtextdomain(GETTEXT_PACKAGE, localedir != NULL ? localedir : LOCALEDIR);
	bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
	textdomain(GETTEXT_PACKAGE);

	/*
	 * SD Tuner draws with cairo only.  Without this GDK probes GLX to pick a visual,
	 * which loads the GL driver (on a machine without a GPU, llvmpipe: 44 MiB of
	 * libLLVM) and doubles the memory the window needs.
	 */
	g_setenv("GDK_GL", "disable", FALSE);

	g_set_application_name(_("SD Tuner"));
	app = sdt_application_new();
	return g_application_run(G_APPLICATION(app), argc, argv);
}
