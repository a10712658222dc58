/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "sdt-health.h"
#include "sdt-history.h"
#include "sdt-info.h"
#include "sdt-kmsg.h"
#include "sdt-mounts.h"
#include "sdt-ops-private.h"
#include "sdt-ops.h"

/* `health`: the card's writes and errors from files only; the trend is in sdt-health.c */

/* a rough endurance figure for consumer TLC cards: full writes of the capacity */
#define SDT_HEALTH_WRITE_CYCLES 500

/* what the steps below found, for the figures derived from them */
typedef struct {
	guint64 lifetime; /* bytes, ext4's lifetime_write_kbytes of the card's partitions */
	gboolean lifetime_known;
	gboolean read_only; /* a partition of the card is mounted read-only */
	gboolean stat_known;
	guint64 read_sectors; /* since boot */
	guint64 write_sectors;
	gdouble uptime; /* seconds, < 0 unknown */
} SdtOpsHealth;

static gchar *
sdt_health_read(SdtContext *ctx, const gchar *path)
{
	gchar *contents = NULL;
	gsize len = 0;

	if (!sdt_context_read_kernel_file(ctx, path, 4096, &contents, &len, NULL))
		return NULL;
	return contents;
}

/* /sys/block/<disk>/stat: field 3 read sectors, field 7 written sectors */
static gboolean
sdt_health_parse_block_stat(const gchar *text, guint64 *read_sectors, guint64 *write_sectors)
{
	g_auto(GStrv) fields = NULL;
	guint n = 0;
	gchar *end = NULL;

	if (text == NULL)
		return FALSE;
	fields = g_strsplit_set(text, " \t\n", -1);
	for (guint i = 0; fields[i] != NULL; i++) {
		guint64 v;
		if (fields[i][0] == '\0')
			continue;
		v = g_ascii_strtoull(fields[i], &end, 10);
		if (end == fields[i] || *end != '\0')
			return FALSE;
		/* Documentation/block/stat.rst: field 3 read sectors, field 7 write sectors */
		if (n == 2)
			*read_sectors = v;
		else if (n == 6)
			*write_sectors = v;
		n++;
	}
	return n >= 7;
}

static gboolean
sdt_health_parse_u64(const gchar *text, guint64 *value)
{
	g_autofree gchar *copy = NULL;
	gchar *end = NULL;

	if (text == NULL)
		return FALSE;
	copy = g_strstrip(g_strdup(text));
	if (copy[0] == '\0' || !g_ascii_isdigit(copy[0]))
		return FALSE;
	*value = g_ascii_strtoull(copy, &end, 10);
	return *end == '\0';
}

static gboolean
sdt_health_word(const gchar *msg)
{
	g_autofree gchar *lower = g_ascii_strdown(msg, -1);
	return strstr(lower, "error") != NULL || strstr(lower, "timeout") != NULL ||
	       strstr(lower, "timed out") != NULL || strstr(lower, "failed") != NULL;
}

/* "card": present, device, capacity and the CSD's write protection */
static void
sdt_ops_health_card(SdtHealthReportCard *c, SdtCard *card)
{
	c->present = card->present;
	c->device = g_strdup(card->device);
	c->capacity_bytes =
		card->capacity_bytes > 0 ? card->capacity_bytes : SDT_HEALTH_REPORT_UNKNOWN;
	c->kind = card->present ? g_strdup(sdt_card_kind_to_string(card->kind)) : NULL;
	c->holds_system = !(card->present && card->mounts_known) ? SDT_INFO_REPORT_FLAG_UNKNOWN
			  : card->holds_system                   ? SDT_INFO_REPORT_FLAG_YES
								 : SDT_INFO_REPORT_FLAG_NO;
	c->system_device = g_strdup(card->system_device);
	c->write_protect_known = card->csd_valid;
	if (card->csd_valid) {
		c->write_protect_permanent = card->csd.perm_write_protect;
		c->write_protect_temporary = card->csd.tmp_write_protect;
	}
	c->emmc = sdt_info_emmc_to_report(card);
}

/* a mount of a partition of @card, as the system mounts it (not a sandbox's bind mount) */
static gboolean
sdt_ops_health_on_card(GPtrArray *mounts, SdtCard *card, SdtMount *m)
{
	return card->device != NULL && m->source != NULL && g_str_has_prefix(m->source, "/dev/") &&
	       sdt_mounts_is_own_mount(mounts, m) &&
	       g_str_has_prefix(m->source + 5, card->device) &&
	       g_ptr_array_find_with_equal_func(card->mount_points,
						m->mount_point,
						g_str_equal,
						NULL);
}

/* one member of "partitions", with ext4's lifetime counter */
static void
sdt_ops_health_partition(SdtHealthReport *r, SdtContext *ctx, SdtMount *m, SdtOpsHealth *h)
{
	g_autofree gchar *base = g_path_get_basename(m->source);
	g_autofree gchar *path = g_strdup_printf("/sys/fs/ext4/%s/lifetime_write_kbytes", base);
	g_autofree gchar *text =
		g_strcmp0(m->fs_type, "ext4") == 0 ? sdt_health_read(ctx, path) : NULL;
	guint64 kb = 0;
	gboolean known = sdt_health_parse_u64(text, &kb);
	SdtHealthReportPartition *p = sdt_health_report_add_partition(r);

	/* the file system's own state (the kernel remounts it read-only after errors), not a
	 * read-only view of it such as the helper's ProtectSystem=strict */
	h->read_only = h->read_only || m->fs_read_only;
	p->device = g_steal_pointer(&base);
	p->mount_point = g_strdup(m->mount_point);
	p->filesystem = g_strdup(m->fs_type);
	p->read_only = m->fs_read_only;
	p->lifetime_write_bytes = known ? (gint64) (kb * 1024) : SDT_HEALTH_REPORT_UNKNOWN;
	if (known) {
		h->lifetime += kb * 1024;
		h->lifetime_known = TRUE;
	}
}

/* ext4's lifetime counter, per mounted partition of the card */
static void
sdt_ops_health_partitions(SdtHealthReport *r, SdtContext *ctx, SdtInfo *info, SdtOpsHealth *h)
{
	for (guint i = 0; info->card->present && i < info->mounts->len; i++) {
		SdtMount *m = g_ptr_array_index(info->mounts, i);
		if (sdt_ops_health_on_card(info->mounts, info->card, m))
			sdt_ops_health_partition(r, ctx, m, h);
	}
	r->lifetime_write_bytes =
		h->lifetime_known ? (gint64) h->lifetime : SDT_HEALTH_REPORT_UNKNOWN;
}

/* the block device's counters since boot */
static void
sdt_ops_health_since_boot(SdtHealthReport *r, SdtContext *ctx, SdtCard *card, SdtOpsHealth *h)
{
	g_autofree gchar *uptime_text = sdt_health_read(ctx, "/proc/uptime");

	if (card->device != NULL) {
		g_autofree gchar *stat_path = g_strdup_printf("/sys/block/%s/stat", card->device);
		g_autofree gchar *stat_text = sdt_health_read(ctx, stat_path);
		h->stat_known =
			sdt_health_parse_block_stat(stat_text, &h->read_sectors, &h->write_sectors);
	}
	if (uptime_text != NULL)
		h->uptime = g_ascii_strtod(uptime_text, NULL);
	r->uptime_seconds = h->uptime > 0 ? h->uptime : NAN;
	r->written_bytes =
		h->stat_known ? (gint64) (h->write_sectors * 512) : SDT_HEALTH_REPORT_UNKNOWN;
	r->read_bytes =
		h->stat_known ? (gint64) (h->read_sectors * 512) : SDT_HEALTH_REPORT_UNKNOWN;
}

/* writes per day since boot (the history keeps benchmark and check runs only), and the years left
 */
static void
sdt_ops_health_projection(SdtHealthReport *r, SdtCard *card, const SdtOpsHealth *h)
{
	gdouble per_day = -1;

	if (h->stat_known && h->uptime >= 3600)
		per_day = (gdouble) h->write_sectors * 512 / (h->uptime / 86400.0);
	r->writes_per_day_bytes = per_day >= 0 ? per_day : NAN;
	if (per_day > 0 && card->capacity_bytes > 0) {
		gdouble budget = (gdouble) card->capacity_bytes * SDT_HEALTH_WRITE_CYCLES;
		gdouble left = budget - (h->lifetime_known ? (gdouble) h->lifetime : 0.0);
		r->projection = g_new0(SdtHealthReportProjection, 1);
		r->projection->years = MAX(left, 0.0) / per_day / 365.25;
		r->projection->assumption = g_strdup(
			_("A rough estimate: it assumes the card endures about 500 writes of its "
			  "whole capacity (typical of consumer TLC flash; real cards vary widely) "
			  "and that the writes per day since boot continue"));
	}
}
/* a file system on the card remounted read-only: ext4's "Remounting filesystem read-only"
 * (and "... read-only" of others), FAT's "Filesystem has been set read-only" */
static gboolean
sdt_health_remount_word(const gchar *msg)
{
	g_autofree gchar *lower = g_ascii_strdown(msg, -1);
	return (strstr(lower, "remount") != NULL || strstr(lower, "has been set") != NULL) &&
	       strstr(lower, "read-only") != NULL;
}

/* the kernel's errors about the card's host or disk since boot, and its read-only remounts */
static void
sdt_ops_health_kernel_errors(SdtContext *ctx, SdtCard *card, guint *errors, guint *remounts)
{
	gsize len = 0;
	g_autofree gchar *text = sdt_kmsg_read(ctx, &len, NULL);
	g_autoptr(GPtrArray) records = text != NULL ? sdt_kmsg_parse(text, len, NULL) : NULL;

	for (guint i = 0; records != NULL && i < records->len; i++) {
		SdtKmsgRecord *r = g_ptr_array_index(records, i);
		const gchar *msg = r->message;
		gboolean ours = (card->host != NULL && g_str_has_prefix(msg, card->host) &&
				 msg[strlen(card->host)] == ':') ||
				(card->device != NULL && strstr(msg, card->device) != NULL);
		if (ours && sdt_health_word(msg))
			(*errors)++;
		if (ours && card->device != NULL && strstr(msg, card->device) != NULL &&
		    sdt_health_remount_word(msg))
			(*remounts)++;
	}
}

/* kernel_errors_since_boot and read_only_remounts_since_boot, null without the kernel log */
static void
sdt_ops_health_kernel_log(SdtHealthReport *r, SdtContext *ctx, SdtInfo *info)
{
	gboolean kept = sdt_context_get_kernel_log(ctx) != NULL;
	guint errors = 0;
	guint remounts = 0;

	if (info->kernel_log_read)
		sdt_ops_health_kernel_errors(ctx, info->card, &errors, &remounts);
	r->kernel_errors_since_boot =
		info->kernel_log_read ? (gint64) errors : SDT_HEALTH_REPORT_UNKNOWN;
	/* the helper keeps only the "mmc" records it read at its start (sd-tuner-helper.c),
	 * without the file systems' lines: unknown there rather than a false 0 */
	r->read_only_remounts_since_boot =
		info->kernel_log_read && !kept ? (gint64) remounts : SDT_HEALTH_REPORT_UNKNOWN;
}

static void
sdt_ops_health_notes(GPtrArray *notes, const SdtCard *card, const SdtOpsHealth *h)
{
	if (card->present && card->kind == SDT_CARD_KIND_EMMC)
		g_ptr_array_add(
			notes,
			g_strdup(
				_("This is eMMC, not an SD card: its wear (card.emmc) is the "
				  "chip's own estimate, which Linux read when it started; SD Tuner "
				  "sends it no command, and the SD register checks do not apply to "
				  "it")));
	g_ptr_array_add(notes,
			g_strdup(_("SD Tuner sends no vendor-specific command (CMD56) to read "
				   "a card's wear: such commands have made cards vanish")));
	if (!h->lifetime_known)
		g_ptr_array_add(notes,
				g_strdup(_("The file systems on the card do not report lifetime "
					   "writes (ext4 does)")));
}

/* what the history says: the trend, the registers against the latest benchmark and the
 * card checked before in a reader or another slot (issue 34) */
static void
sdt_ops_health_history(SdtHealthReport *r, SdtContext *ctx, SdtCard *card)
{
	g_autoptr(GError) error_history = NULL;
	g_autoptr(GPtrArray) history = sdt_history_entries(ctx, NULL, &error_history);
	g_autoptr(GPtrArray) benches = sdt_ops_history_benches(history);

	/* a refused state folder (another user's, or others may write it, issue 33) is said,
	 * never taken for an empty history */
	if (error_history != NULL)
		r->state_error = g_strdup(error_history->message);
	r->registers = sdt_health_registers(card, benches);
	r->trend = sdt_health_trend(benches);
	if (card->present)
		r->checked_before =
			sdt_ops_check_checked_before(history, card->cid_hex, card->size_bytes);
}

SdtHealthReport *
sdt_ops_health_report(SdtContext *ctx, GError **error)
{
	g_autoptr(SdtInfo) info = NULL;
	g_autoptr(SdtHealthReport) r = NULL;
	SdtOpsHealth h = {0};

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	info = sdt_info_collect(ctx, error);
	if (info == NULL)
		return NULL;
	r = sdt_health_report_new();
	h.uptime = -1;
	sdt_ops_health_card(&r->card, info->card);
	sdt_ops_health_partitions(r, ctx, info, &h);
	sdt_ops_health_since_boot(r, ctx, info->card, &h);
	sdt_ops_health_projection(r, info->card, &h);
	sdt_ops_health_kernel_log(r, ctx, info);
	r->read_only = h.read_only;
	sdt_ops_health_history(r, ctx, info->card);
	sdt_ops_health_notes(r->notes, info->card, &h);
	r->check_journal_damaged = sdt_ops_check_journal_damaged_path(ctx);
	return g_steal_pointer(&r);
}

gchar *
sdt_ops_health(SdtContext *ctx, GError **error)
{
	g_autoptr(SdtHealthReport) report = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	report = sdt_ops_health_report(ctx, error);
	return report != NULL ? sdt_health_report_to_string(report) : NULL;
}
