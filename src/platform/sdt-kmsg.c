/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-kmsg.h"
#include "sdt-kmsg-private.h"
#include "sdt-sd-bus-private.h"

/* a real /dev/kmsg record is at most 8 KiB; a test file is read in chunks of this size */
#define SDT_KMSG_READ_CHUNK (16 * 1024)
/* the kernel's ring buffer is far smaller; a bigger file is cut here */
#define SDT_KMSG_MAX_SIZE (32 * 1024 * 1024)

static void
sdt_kmsg_record_free(SdtKmsgRecord *record)
{
	if (record == NULL)
		return;
	g_free(record->message);
	g_strfreev(record->dict);
	g_free(record);
}

/* digits up to @stop; advances @p past @stop */
static gboolean
sdt_kmsg_parse_number(const gchar **p, const gchar *end, gchar stop, guint64 *value)
{
	const gchar *s = *p;
	guint64 v = 0;

	if (s >= end || !g_ascii_isdigit(*s))
		return FALSE;
	while (s < end && g_ascii_isdigit(*s)) {
		if (v > G_MAXUINT64 / 10 - 10)
			return FALSE;
		v = v * 10 + (guint64) (*s - '0');
		s++;
	}
	if (s >= end || *s != stop)
		return FALSE;
	*p = s + 1;
	*value = v;
	return TRUE;
}

static SdtKmsgRecord *
sdt_kmsg_parse_record(const gchar *line, gsize len)
{
	const gchar *end = line + len;
	const gchar *p = line;
	const gchar *semi;
	guint64 prio, seq, usec;
	gsize msg_len;
	SdtKmsgRecord *record;

	if (!sdt_kmsg_parse_number(&p, end, ',', &prio) ||
	    !sdt_kmsg_parse_number(&p, end, ',', &seq))
		return NULL;
	/* usec is followed by ",flags[,more];" */
	if (!sdt_kmsg_parse_number(&p, end, ',', &usec))
		return NULL;
	semi = memchr(p, ';', end - p);
	if (semi == NULL)
		return NULL;
	msg_len = end - (semi + 1);
	while (msg_len > 0 && (semi[msg_len] == ' ' || semi[msg_len] == '\r'))
		msg_len--;
	record = g_new0(SdtKmsgRecord, 1);
	record->priority = (guint) (prio & 7);
	record->seq = seq;
	record->usec = usec;
	record->message = g_strndup(semi + 1, msg_len);
	return record;
}

GPtrArray *
sdt_kmsg_parse(const gchar *text, gsize len, guint *n_bad)
{
	g_autoptr(GPtrArray) records =
		g_ptr_array_new_with_free_func((GDestroyNotify) sdt_kmsg_record_free);
	g_autoptr(GPtrArray) dict = NULL;
	const gchar *p = text;
	const gchar *end = text + len;
	guint bad = 0;

	while (p < end) {
		const gchar *nl = memchr(p, '\n', end - p);
		const gchar *line_end = nl != NULL ? nl : end;
		gsize line_len = line_end - p;

		if (line_len > 0 && p[0] == ' ') {
			if (records->len > 0 && dict != NULL)
				g_ptr_array_add(dict, g_strndup(p + 1, line_len - 1));
			else
				bad++;
		} else if (line_len > 0) {
			SdtKmsgRecord *record = sdt_kmsg_parse_record(p, line_len);
			if (record != NULL) {
				if (dict != NULL && dict->len > 0 && records->len > 0) {
					SdtKmsgRecord *last =
						g_ptr_array_index(records, records->len - 1);
					g_ptr_array_add(dict, NULL);
					last->dict =
						(gchar **) g_ptr_array_free(g_steal_pointer(&dict),
									    FALSE);
				}
				g_clear_pointer(&dict, g_ptr_array_unref);
				dict = g_ptr_array_new_with_free_func(g_free);
				g_ptr_array_add(records, record);
			} else {
				bad++;
			}
		}
		p = line_end + 1;
	}
	if (dict != NULL && dict->len > 0 && records->len > 0) {
		SdtKmsgRecord *last = g_ptr_array_index(records, records->len - 1);
		g_ptr_array_add(dict, NULL);
		last->dict = (gchar **) g_ptr_array_free(g_steal_pointer(&dict), FALSE);
	}
	if (n_bad != NULL)
		*n_bad = bad;
	return g_steal_pointer(&records);
}

/*
 * /dev/kmsg without blocking: the kernel's character device 1:11 (read with
 * O_NONBLOCK: EAGAIN after the last record) or, in a copied root, a regular
 * file; a FIFO, another device (a link to /dev/zero) or a link out of the root
 * is refused.
 */
static gint
sdt_kmsg_open(SdtContext *ctx, GError **error)
{
	gint fd = sdt_context_open(ctx, "/dev/kmsg", O_RDONLY | O_NONBLOCK, error);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 &&
	    (S_ISREG(st.st_mode) ||
	     (S_ISCHR(st.st_mode) && major(st.st_rdev) == 1 && minor(st.st_rdev) == 11)))
		return fd;
	close(fd);
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    _("/dev/kmsg is neither the kernel log device nor a regular file: SD "
		      "Tuner does not read it"));
	return -1;
}

gchar *
sdt_kmsg_read(SdtContext *ctx, gsize *len, GError **error)
{
	g_autofree gchar *path = NULL;
	g_autoptr(GString) str = NULL;
	g_autofree gchar *buf = NULL;
	GBytes *kept;
	gint fd;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	kept = sdt_context_get_kernel_log(ctx);
	if (kept != NULL) {
		gsize size = 0;
		const gchar *data = g_bytes_get_data(kept, &size);
		gchar *copy = g_malloc(size + 1);
		if (size > 0)
			memcpy(copy, data, size);
		copy[size] = '\0';
		*len = size;
		return copy;
	}
	fd = sdt_kmsg_open(ctx, error);
	if (fd < 0)
		return NULL;
	path = sdt_context_build_path(ctx, "/dev/kmsg");
	str = g_string_new(NULL);
	buf = g_malloc(SDT_KMSG_READ_CHUNK);
	while (str->len < SDT_KMSG_MAX_SIZE) {
		gssize n = read(fd, buf, SDT_KMSG_READ_CHUNK);
		if (n > 0) {
			g_string_append_len(str, buf, n);
			continue;
		}
		if (n == 0)
			break; /* end of a regular file */
		if (errno == EINTR || errno == EPIPE)
			continue; /* EPIPE: the record was overwritten while we read */
		if (errno == EAGAIN)
			break; /* all records of the real /dev/kmsg read */
		sdt_error_set_from_errno(error, errno, _("cannot read %s"), path);
		close(fd);
		return NULL;
	}
	close(fd);
	*len = str->len;
	return g_string_free(g_steal_pointer(&str), FALSE);
}

gchar *
sdt_kmsg_filter(const gchar *text, gsize len, const gchar *prefix, gsize *out_len)
{
	GString *out = g_string_new(NULL);
	gboolean keep = FALSE;
	gsize pos = 0;

	while (pos < len) {
		const gchar *line = text + pos;
		const gchar *nl = memchr(line, '\n', len - pos);
		gsize line_len = nl != NULL ? (gsize) (nl - line) : len - pos;

		if (line_len > 0 && line[0] != ' ') {
			const gchar *semi = memchr(line, ';', line_len);
			gsize plen = strlen(prefix);
			keep = semi != NULL && (gsize) (line + line_len - (semi + 1)) >= plen &&
			       strncmp(semi + 1, prefix, plen) == 0;
		}
		if (keep && line_len > 0) {
			g_string_append_len(out, line, line_len);
			g_string_append_c(out, '\n');
		}
		pos += line_len + 1;
	}
	*out_len = out->len;
	return g_string_free(out, FALSE);
}

void
sdt_kmsg_facts_init(SdtKmsgFacts *facts)
{
	memset(facts, 0, sizeof(*facts));
	facts->overclock_hz = -1;
	facts->cqe_tags = -1;
	facts->quirks = -1;
	facts->card_timing = SDT_TIMING_UNKNOWN;
}

void
sdt_kmsg_facts_clear(SdtKmsgFacts *facts)
{
	g_free(facts->card_type);
	g_free(facts->block_line);
	sdt_kmsg_facts_init(facts);
}

/* the rest of @msg after "<name>: ", where @name is @want or, if NULL, @prefix + digits */
static const gchar *
sdt_kmsg_after_device(const gchar *msg, const gchar *want, const gchar *prefix)
{
	const gchar *p = msg;

	if (want != NULL) {
		gsize len = strlen(want);
		if (strncmp(msg, want, len) != 0 || msg[len] != ':' || msg[len + 1] != ' ')
			return NULL;
		return msg + len + 2;
	}
	if (!g_str_has_prefix(msg, prefix))
		return NULL;
	p += strlen(prefix);
	if (!g_ascii_isdigit(*p))
		return NULL;
	while (g_ascii_isdigit(*p))
		p++;
	if (p[0] != ':' || p[1] != ' ')
		return NULL;
	return p + 2;
}

/* "[ultra high speed MODE |high speed ]TYPE card at address RRRR" */
static void
sdt_kmsg_scan_new_card(SdtKmsgFacts *facts, const gchar *rest)
{
	g_auto(GStrv) words = NULL;
	guint n;

	if (!g_str_has_prefix(rest, "new ") || strstr(rest, " card at address ") == NULL)
		return;
	words = g_strsplit(rest + 4, " ", -1);
	n = g_strv_length(words);
	facts->card_seen = TRUE;
	g_clear_pointer(&facts->card_type, g_free);
	if (n >= 5 && g_strcmp0(words[0], "ultra") == 0 && g_strcmp0(words[1], "high") == 0 &&
	    g_strcmp0(words[2], "speed") == 0) {
		facts->card_timing = sdt_sd_bus_timing_from_uhs_mode(words[3]);
		facts->card_type = g_strdup(words[4]);
	} else if (n >= 3 && g_strcmp0(words[0], "high") == 0 &&
		   g_strcmp0(words[1], "speed") == 0) {
		facts->card_type = g_strdup(words[2]);
		facts->card_timing = g_str_has_prefix(words[2], "SD") ? SDT_TIMING_SD_HIGH_SPEED
								      : SDT_TIMING_MMC_HIGH_SPEED;
	} else if (n >= 1) {
		facts->card_type = g_strdup(words[0]);
		facts->card_timing = SDT_TIMING_LEGACY;
	}
}

static void
sdt_kmsg_scan_host_line(SdtKmsgFacts *facts, const gchar *rest)
{
	const gchar *p;

	if (g_str_has_prefix(rest, "overclocking to ")) {
		gchar *end = NULL;
		guint64 hz = g_ascii_strtoull(rest + 16, &end, 10);
		if (end != rest + 16 && g_str_has_prefix(end, "Hz") && hz <= G_MAXINT64) {
			facts->overclock_hz = (gint64) hz;
			facts->overclock_current_hz = (gint64) hz;
		}
	} else if (g_str_has_prefix(rest, "reducing overclock due to errors")) {
		facts->overclock_reduced++;
		facts->overclock_current_hz = -1;
	} else if (g_str_has_prefix(rest, "cancelling overclock")) {
		facts->overclock_cancelled = TRUE;
		facts->overclock_current_hz = 0;
	} else if (g_str_has_prefix(rest, "Command Queue Engine enabled")) {
		facts->cqe_enabled = TRUE;
		facts->cmdq_failed = FALSE;
		p = rest + strlen("Command Queue Engine enabled");
		if (g_str_has_prefix(p, ", ")) {
			gchar *end = NULL;
			guint64 tags = g_ascii_strtoull(p + 2, &end, 10);
			if (end != p + 2 && g_str_has_prefix(end, " tags") && tags <= G_MAXINT)
				facts->cqe_tags = (gint) tags;
		}
	} else if (g_str_has_prefix(rest, "Host Software Queue enabled")) {
		facts->host_software_queue = TRUE;
	} else if (g_str_has_prefix(rest, "Enabling CMDQ failed")) {
		facts->cmdq_failed = TRUE;
	} else if (g_str_has_prefix(rest, "running CQE recovery")) {
		facts->cqe_recovery++;
	} else {
		sdt_kmsg_scan_new_card(facts, rest);
	}
}

/* "mmcblk0: mmc0:aaaa SN256 238 GiB (quirks 0x00004000)" */
static void
sdt_kmsg_scan_block_line(SdtKmsgFacts *facts,
			 const gchar *msg,
			 const gchar *rest,
			 const gchar *host)
{
	const gchar *q;

	if (host != NULL) {
		if (!g_str_has_prefix(rest, host) || rest[strlen(host)] != ':')
			return;
	} else if (!g_str_has_prefix(rest, "mmc") || !g_ascii_isdigit(rest[3])) {
		return;
	}
	g_free(facts->block_line);
	facts->block_line = g_strdup(msg);
	facts->quirks = -1;
	q = strstr(rest, "(quirks 0x");
	if (q != NULL) {
		gchar *end = NULL;
		guint64 v = g_ascii_strtoull(q + 10, &end, 16);
		if (end != q + 10 && *end == ')' && v <= G_MAXUINT32)
			facts->quirks = (gint64) v;
	}
}

void
sdt_kmsg_facts_scan(SdtKmsgFacts *facts, GPtrArray *records, const gchar *host, const gchar *disk)
{
	for (guint i = 0; i < records->len; i++) {
		SdtKmsgRecord *record = g_ptr_array_index(records, i);
		const gchar *rest;

		rest = sdt_kmsg_after_device(record->message, host, "mmc");
		if (rest != NULL) {
			sdt_kmsg_scan_host_line(facts, rest);
			continue;
		}
		rest = sdt_kmsg_after_device(record->message, disk, "mmcblk");
		if (rest != NULL)
			sdt_kmsg_scan_block_line(facts, record->message, rest, host);
	}
}
