/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/*
 * The pending trial as the writer sees it (tryboot.txt holds SD Tuner's block), and its
 * one C type: {id, path, reboot_command, stale, note}.  "stale" is TRUE when config.txt
 * changed since the trial was prepared; "note" then says how to rebuild it (null
 * otherwise).  Strict on input: a member of the wrong type is SDT_ERROR_INVALID_DATA
 * naming it; absent or null is unknown (NULL, FALSE); unknown members are ignored.
 */

/* what reboots into the trial */
#define SDT_CONFIG_TRIAL_STATE_REBOOT_COMMAND "sudo reboot '0 tryboot'"

typedef struct {
	gchar *id;             /* the block's id in tryboot.txt */
	gchar *path;           /* tryboot.txt as seen on the Pi */
	gchar *reboot_command; /* SDT_CONFIG_TRIAL_STATE_REBOOT_COMMAND */
	gboolean stale;
	gchar *note; /* NULL: none (null) */
} SdtConfigTrialState;

SdtConfigTrialState *sdt_config_trial_state_new(void);
void sdt_config_trial_state_free(SdtConfigTrialState *state);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtConfigTrialState, sdt_config_trial_state_free)

G_END_DECLS
