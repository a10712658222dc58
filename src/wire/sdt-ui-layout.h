/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The app's layout report (SDTUNER_LAYOUT_REPORT, SIGUSR1: sdt-layout-report.c): for the
 * GUI tests, every mapped window and the labels shown in it, where they are and what
 * they asked for (pixels).  The document is an array of windows.
 */
typedef struct {
	gchar *text;
	gint64 x; /* in the window */
	gint64 y;
	gint64 width; /* allocated */
	gint64 height;
	gint64 min_width; /* asked for, without the margins */
	gint64 natural_width;
	gint64 height_for_width; /* the least height at the allocated width */
	gboolean wrap;
	gboolean ellipsize;
	gboolean scrolled; /* inside a scrolled window */
	gboolean button;   /* a button's label */
	gboolean in_view;  /* wholly inside every scrolled window and the window */
} SdtUiLayoutLabel;

typedef struct {
	gint64 width;
	gint64 height;
	GPtrArray *labels; /* of SdtUiLayoutLabel */
} SdtUiLayoutWindow;

typedef struct {
	GPtrArray *windows; /* of SdtUiLayoutWindow */
} SdtUiLayout;

SdtUiLayout *sdt_ui_layout_new(void);
void sdt_ui_layout_free(SdtUiLayout *layout);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtUiLayout, sdt_ui_layout_free)

/* a window appended to @layout, without labels */
SdtUiLayoutWindow *sdt_ui_layout_add_window(SdtUiLayout *layout, gint64 width, gint64 height);
/* a label appended to @window, its @text copied, every number 0 */
SdtUiLayoutLabel *sdt_ui_layout_add_label(SdtUiLayoutWindow *window, const gchar *text);

gchar *sdt_ui_layout_to_string(const SdtUiLayout *layout);

G_END_DECLS
