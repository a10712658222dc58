/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * The authenticity check's settings and the facts it works from: its modes,
 * the candidate real sizes of a card, the file systems it can place blocks on.
 * Pure, no I/O; the lowest layer of the check (docs/ARCHITECTURE.md).
 */

/* the name the reserved file has for a moment where O_TMPFILE is missing */
#define SDT_CHECK_RESERVE_NAME ".sd-tuner-check.reserve"

typedef enum {
	SDT_CHECK_MODE_QUICK,
	SDT_CHECK_MODE_FULL,
} SdtCheckMode;

typedef struct {
	SdtCheckMode mode;
	guint n_samples;          /* spread over the reserved space; as many again in the top 10% */
	guint64 seed;             /* 0: a random one */
	gboolean skip_read_phase; /* tests only: prove that the write guard alone keeps data safe */
	gboolean stand_in;        /* a --dir target: labelled as such in the result */
	gboolean no_freeze;       /* tests only: as if the kernel refused FIFREEZE */
	/* tests only: called in each batch after its writes, before its put-back (the
	 * file system frozen): what the running system would do meanwhile */
	void (*while_out)(gpointer data);
	gpointer while_out_data;
	/* where the probe keeps its journal (sdt-check-journal.c): NULL-terminated,
	 * borrowed; at least one, not on the card region probed where possible */
	const gchar *const *journal_dirs;
	/* the helper's caller whose folder a --dir target is (issue 32): then the
	 * folder must be that user's; -1 (the default): root's or ours */
	gint64 dir_owner;
	/* a whole card to check in place instead (issue 34): unmounted, not the system
	 * disk; every block the probe writes is saved, journaled in @journal_dirs (off the
	 * card) and put back.  Borrowed; NULL: the card under the directory */
	const gchar *device;
	/* with @device and the full mode only: the user confirmed, naming this very
	 * device, that everything on it is given up (the caller checked the name); the
	 * full mode of a whole card is refused without it */
	gboolean destroy_data;
} SdtCheckConfig;

void sdt_check_config_init(SdtCheckConfig *config, SdtCheckMode mode);
/* "quick" or "full" */
gboolean sdt_check_config_mode_from_string(const gchar *name, SdtCheckMode *mode, GError **error);

G_END_DECLS
