/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "sdt-dbus-generated.h"

G_BEGIN_DECLS

#define SDT_TYPE_OUTCOME_BAR (sdt_outcome_bar_get_type())
G_DECLARE_FINAL_TYPE(SdtOutcomeBar, sdt_outcome_bar, SDT, OUTCOME_BAR, GtkInfoBar)

/*
 * The message at the top of the window about a verification the user has not
 * seen yet (issue 10: "a message in the GUI the next time it starts"): what
 * the last verification decided (keep, step down, undo) and why, from the
 * helper's GetStatus. Dismissing it ("OK") remembers that decision as seen for
 * this user, in $XDG_CONFIG_HOME/sd-tuner/seen-verification (the decision's
 * time and id), never in the helper's state.
 *
 * Reads the status each time a manager is set (the app's start, the helper
 * coming back).
 */
void sdt_outcome_bar_set_manager(SdtOutcomeBar *self, SdtManager *manager);

G_END_DECLS
