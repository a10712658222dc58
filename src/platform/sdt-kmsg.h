/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>

#include "sdt-sd-bus.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/* one /dev/kmsg record: `prio,seq,usec,flags[,…];message` + ` KEY=value` lines */
typedef struct {
	guint priority; /* syslog level, facility masked off */
	guint64 seq;
	guint64 usec;
	gchar *message; /* \xNN escapes kept as the kernel wrote them, trailing spaces trimmed */
	gchar **dict;   /* continuation lines without the leading space, may be NULL */
} SdtKmsgRecord;

/*
 * Parses kmsg text (any number of records, any line length).  Lines that are
 * neither a record nor a continuation are skipped and counted in @n_bad.
 * Returns an array of SdtKmsgRecord.
 */
GPtrArray *sdt_kmsg_parse(const gchar *text, gsize len, guint *n_bad);

/*
 * Reads <root>/dev/kmsg: on a real /dev/kmsg every record there is (without
 * blocking); under a test root a regular file of records.  If the context
 * keeps a kernel log (sdt_context_set_kernel_log()), returns a copy of it.
 */
gchar *sdt_kmsg_read(SdtContext *ctx, gsize *len, GError **error);

/*
 * The records of kmsg @text whose message starts with @prefix, with their
 * continuation lines, in order (what sd-tuner-helper keeps: "mmc").
 */
gchar *sdt_kmsg_filter(const gchar *text, gsize len, const gchar *prefix, gsize *out_len);

/* what the kernel log says about the SD host and card (PLATFORM.md §5.1) */
typedef struct {
	gint64 overclock_hz;     /* last "overclocking to N Hz", -1 if none */
	guint overclock_reduced; /* "reducing overclock due to errors" lines */
	gboolean overclock_cancelled;
	/* the overclock in force after the last of those lines: N Hz, 0 for none (never
	 * overclocked, or cancelled), -1 when reduced and not yet re-announced */
	gint64 overclock_current_hz;
	gboolean cqe_enabled; /* "Command Queue Engine enabled" */
	gint cqe_tags;        /* its ", N tags", -1 if not given */
	gboolean host_software_queue;
	gboolean cmdq_failed;  /* "Enabling CMDQ failed" */
	guint cqe_recovery;    /* "running CQE recovery" lines */
	gint64 quirks;         /* "(quirks 0x…)" of the block device, -1 if none */
	gboolean card_seen;    /* a "new … card at address" line for the host */
	SdtTiming card_timing; /* from that line */
	gchar *card_type;      /* "SDHC", "SDXC", ... */
	gchar *block_line;     /* "mmcblk0: mmc0:aaaa SN256 238 GiB (quirks …)" */
} SdtKmsgFacts;

G_END_DECLS
