/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The error document: what `sdtunerctl --json` prints on stdout when a command fails
 * (DESIGN.md): {"error": {"name", "code", "message"}}.  The name is the D-Bus error
 * name of an SD Tuner error (org.example.SdTuner.Error.*), a remote D-Bus error's
 * name, or the GError domain; the message English.
 */
typedef struct {
	gchar *name;
	gint64 code;
	gchar *message;
} SdtErrorReport;

SdtErrorReport *sdt_error_report_new(const gchar *name, gint64 code, const gchar *message);
void sdt_error_report_free(SdtErrorReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtErrorReport, sdt_error_report_free)

/* the document as the CLI prints it (valid UTF-8) */
gchar *sdt_error_report_to_string(const SdtErrorReport *report);

G_END_DECLS
