/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-dbus-generated.h"

G_BEGIN_DECLS

#define SDT_TYPE_RUN_COMPARE (sdt_run_compare_get_type())
G_DECLARE_FINAL_TYPE(SdtRunCompare, sdt_run_compare, SDT, RUN_COMPARE, GtkExpander)

/*
 * The Speed page's "Compare with the run before": the last benchmark of the card in
 * the slot beside the one before it (the history's series, DESIGN.md "Results over
 * time"), as bars with their spreads.  Reads the history from @manager (NULL: hides).
 */
void sdt_run_compare_refresh(SdtRunCompare *self, SdtManager *manager);

G_END_DECLS
