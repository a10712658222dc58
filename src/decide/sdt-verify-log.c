/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <string.h>

#include "sdt-kmsg.h"
#include "sdt-verify.h"
#include "sdt-verify-private.h"

/* the kernel log since boot: the error lines verification looks for */

#define SDT_VERIFY_LOG_LINES 20

void
sdt_verify_log_init(SdtVerifyLog *log)
{
	memset(log, 0, sizeof(*log));
	log->lines = g_ptr_array_new_with_free_func(g_free);
}

void
sdt_verify_log_clear(SdtVerifyLog *log)
{
	g_clear_pointer(&log->lines, g_ptr_array_unref);
}

guint
sdt_verify_log_errors(const SdtVerifyLog *log)
{
	return log->overclock_reduced + log->overclock_cancelled + log->cqe_recovery +
	       log->timeouts + log->io_errors;
}

/* "mmc0:" / "mmcblk0:" / "mmcblk0p2" at the start, or the device named in a block-layer line */
static gboolean
sdt_verify_is_mmc(const gchar *msg)
{
	return g_str_has_prefix(msg, "mmc") || strstr(msg, "dev mmcblk") != NULL ||
	       strstr(msg, "on dev mmcblk") != NULL;
}

static gboolean
sdt_verify_has_error_code(const gchar *msg)
{
	const gchar *p = msg;
	while ((p = strstr(p, "error -")) != NULL) {
		if (g_ascii_isdigit(p[7]))
			return TRUE;
		p += 7;
	}
	return FALSE;
}

void
sdt_verify_log_scan(SdtVerifyLog *log, const gchar *kmsg, gsize len)
{
	g_autoptr(GPtrArray) records = sdt_kmsg_parse(kmsg, len, NULL);

	for (guint i = 0; i < records->len; i++) {
		SdtKmsgRecord *rec = g_ptr_array_index(records, i);
		const gchar *msg = rec->message;
		gboolean hit = TRUE;

		if (!sdt_verify_is_mmc(msg))
			continue;
		if (strstr(msg, "reducing overclock") != NULL)
			log->overclock_reduced++;
		else if (strstr(msg, "cancelling overclock") != NULL)
			log->overclock_cancelled++;
		else if (strstr(msg, "running CQE recovery") != NULL)
			log->cqe_recovery++;
		else if (strstr(msg, "timeout") != NULL || strstr(msg, "timed out") != NULL ||
			 strstr(msg, "Timeout") != NULL)
			log->timeouts++;
		else if (strstr(msg, "I/O error") != NULL || sdt_verify_has_error_code(msg))
			log->io_errors++;
		else
			hit = FALSE;
		if (hit && log->lines->len < SDT_VERIFY_LOG_LINES)
			g_ptr_array_add(log->lines, g_strdup(msg));
	}
}
