/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "sdt-card-plausible.h"
#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-health.h"
#include "sdt-history.h"
#include "sdt-info.h"
#include "sdt-kmsg.h"
#include "sdt-mounts.h"

/* a rough endurance figure for consumer TLC cards: full writes of the capacity */
#define SDT_HEALTH_WRITE_CYCLES 500

static gchar *
sdt_health_read(SdtContext *ctx, const gchar *path)
{
	g_autofree gchar *full = sdt_context_build_path(ctx, path);
	gchar *contents = NULL;
	gsize len = 0;

	if (!sdt_file_read_bounded(full, 4096, &contents, &len, NULL))
		return NULL;
	return contents;
}

gboolean
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

/* median of up to three values */
static gdouble
sdt_health_median(const gdouble *v, guint n)
{
	gdouble a[3];
	memcpy(a, v, n * sizeof(gdouble));
	for (guint i = 0; i < n; i++)
		for (guint j = i + 1; j < n; j++)
			if (a[j] < a[i]) {
				gdouble t = a[i];
				a[i] = a[j];
				a[j] = t;
			}
	return a[n / 2];
}

static gdouble
sdt_health_spread(const gdouble *v, guint n)
{
	gdouble lo = v[0];
	gdouble hi = v[0];
	for (guint i = 1; i < n; i++) {
		lo = MIN(lo, v[i]);
		hi = MAX(hi, v[i]);
	}
	return hi - lo;
}

/* one metric's trend: @worse_if_higher for latencies */
static void
sdt_health_trend_metric(JsonBuilder *b,
			const gchar *name,
			GArray *values,
			gboolean worse_if_higher,
			GPtrArray *alerts)
{
	const gdouble *v = (const gdouble *) values->data;
	guint n = values->len;
	guint k;
	gdouble first;
	gdouble last;
	gdouble spread;
	gdouble change;
	gboolean alert = FALSE;

	json_builder_set_member_name(b, name);
	if (n < 4) {
		json_builder_add_null_value(b);
		return;
	}
	k = MIN(3u, n / 2);
	first = sdt_health_median(v, k);
	last = sdt_health_median(v + n - k, k);
	spread = MAX(sdt_health_spread(v, k), sdt_health_spread(v + n - k, k));
	change = first != 0 ? (last - first) / first : 0;
	if (worse_if_higher)
		alert = last - first > spread && change > 0.2;
	else
		alert = first - last > spread && change < -0.2;
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "first");
	json_builder_add_double_value(b, first);
	json_builder_set_member_name(b, "latest");
	json_builder_add_double_value(b, last);
	json_builder_set_member_name(b, "change");
	json_builder_add_double_value(b, change);
	json_builder_set_member_name(b, "spread");
	json_builder_add_double_value(b, spread);
	json_builder_set_member_name(b, "alert");
	json_builder_add_boolean_value(b, alert);
	json_builder_end_object(b);
	if (alert)
		g_ptr_array_add(alerts, g_strdup(name));
}

/*
 * The tests of a history entry that benchmarked the SD card itself, or %NULL:
 * not a benchmark, damaged, or a stand-in folder's run (which says nothing
 * about the card, DESIGN.md).
 */
static JsonArray *
sdt_health_card_bench_tests(JsonNode *node)
{
	JsonObject *e = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
	JsonNode *target;
	JsonNode *tests;

	if (e == NULL ||
	    g_strcmp0(json_object_get_string_member_with_default(e, "kind", ""), "bench") != 0)
		return NULL;
	target = json_object_get_member(e, "target");
	if (target != NULL && JSON_NODE_HOLDS_OBJECT(target) &&
	    json_object_get_boolean_member_with_default(json_node_get_object(target),
							"stand_in",
							FALSE))
		return NULL;
	tests = json_object_get_member(e, "tests");
	return tests != NULL && JSON_NODE_HOLDS_ARRAY(tests) ? json_node_get_array(tests) : NULL;
}

JsonNode *
sdt_health_trend(JsonArray *entries)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(GArray) seq = g_array_new(FALSE, FALSE, sizeof(gdouble));
	g_autoptr(GArray) lat = g_array_new(FALSE, FALSE, sizeof(gdouble));
	g_autoptr(GPtrArray) alerts = g_ptr_array_new_with_free_func(g_free);

	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++) {
		JsonArray *tests = sdt_health_card_bench_tests(json_array_get_element(entries, i));
		if (tests == NULL)
			continue;
		for (guint t = 0; t < json_array_get_length(tests); t++) {
			JsonNode *tn = json_array_get_element(tests, t);
			JsonObject *to =
				JSON_NODE_HOLDS_OBJECT(tn) ? json_node_get_object(tn) : NULL;
			const gchar *name;
			if (to == NULL)
				continue;
			name = json_object_get_string_member_with_default(to, "name", "");
			if (g_strcmp0(name, "seq-write") == 0) {
				gdouble v =
					json_object_get_double_member_with_default(to, "mb_s", -1);
				if (v > 0)
					g_array_append_val(seq, v);
			} else if (g_strcmp0(name, "rand-4k-write-qd1") == 0 &&
				   json_object_has_member(to, "latency_us") &&
				   JSON_NODE_HOLDS_OBJECT(
					   json_object_get_member(to, "latency_us"))) {
				JsonObject *l = json_object_get_object_member(to, "latency_us");
				gdouble v =
					json_object_get_double_member_with_default(l, "mean", -1);
				if (v > 0)
					g_array_append_val(lat, v);
			}
		}
	}
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "runs");
	json_builder_add_int_value(b, seq->len);
	sdt_health_trend_metric(b, "seq_write_mb_s", seq, FALSE, alerts);
	sdt_health_trend_metric(b, "qd1_write_latency_us", lat, TRUE, alerts);
	json_builder_set_member_name(b, "alerts");
	json_builder_begin_array(b);
	for (guint i = 0; i < alerts->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(alerts, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* the latest benchmark's sequential write rate, -1 if none */
static gdouble
sdt_health_last_seq_write(JsonArray *entries)
{
	gdouble rate = -1;
	for (guint i = 0; entries != NULL && i < json_array_get_length(entries); i++) {
		JsonArray *tests = sdt_health_card_bench_tests(json_array_get_element(entries, i));
		if (tests == NULL)
			continue;
		for (guint t = 0; t < json_array_get_length(tests); t++) {
			JsonNode *tn = json_array_get_element(tests, t);
			JsonObject *to =
				JSON_NODE_HOLDS_OBJECT(tn) ? json_node_get_object(tn) : NULL;
			if (to != NULL &&
			    g_strcmp0(json_object_get_string_member_with_default(to, "name", ""),
				      "seq-write") == 0)
				rate = json_object_get_double_member_with_default(to, "mb_s", -1);
		}
	}
	return rate;
}

JsonNode *
sdt_health_registers(SdtCard *card, JsonArray *history)
{
	g_autoptr(GDateTime) now = g_date_time_new_now_utc();

	if (card == NULL || !card->present || !card->cid_valid)
		return json_node_new(JSON_NODE_NULL);
	return sdt_card_plausibility(&card->cid,
				     card->csd_valid ? &card->csd : NULL,
				     card->scr_valid ? &card->scr : NULL,
				     card->ssr_valid ? &card->ssr : NULL,
				     sdt_health_last_seq_write(history),
				     now);
}

JsonNode *
sdt_ops_health(SdtContext *ctx, GError **error)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(JsonArray) history = NULL;
	g_autofree gchar *uptime_text = NULL;
	g_autofree gchar *stat_text = NULL;
	g_autofree gchar *stat_path = NULL;
	SdtInfo *info;
	SdtCard *card;
	guint64 lifetime = 0;
	gboolean lifetime_known = FALSE;
	guint64 rsec = 0;
	guint64 wsec = 0;
	gboolean stat_known = FALSE;
	gdouble uptime = -1;
	guint errors = 0;
	gboolean read_only = FALSE;
	gdouble per_day = -1;

	info = sdt_info_collect(ctx, error);
	if (info == NULL)
		return NULL;
	card = info->card;

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "card");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "present");
	json_builder_add_boolean_value(b, card->present);
	json_builder_set_member_name(b, "device");
	if (card->device != NULL)
		json_builder_add_string_value(b, card->device);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "capacity_bytes");
	if (card->capacity_bytes > 0)
		json_builder_add_int_value(b, card->capacity_bytes);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "write_protect");
	if (card->csd_valid) {
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "permanent");
		json_builder_add_boolean_value(b, card->csd.perm_write_protect);
		json_builder_set_member_name(b, "temporary");
		json_builder_add_boolean_value(b, card->csd.tmp_write_protect);
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}
	json_builder_end_object(b);

	/* ext4's lifetime counter, per mounted partition of the card */
	json_builder_set_member_name(b, "partitions");
	json_builder_begin_array(b);
	for (guint i = 0; card->present && i < info->mounts->len; i++) {
		SdtMount *m = g_ptr_array_index(info->mounts, i);
		g_autofree gchar *base = NULL;
		g_autofree gchar *path = NULL;
		g_autofree gchar *text = NULL;
		guint64 kb = 0;
		if (card->device == NULL || m->source == NULL ||
		    !g_str_has_prefix(m->source, "/dev/") ||
		    !g_str_has_prefix(m->source + 5, card->device) ||
		    !g_ptr_array_find_with_equal_func(card->mount_points,
						      m->mount_point,
						      g_str_equal,
						      NULL))
			continue;
		base = g_path_get_basename(m->source);
		read_only = read_only || m->read_only;
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "device");
		json_builder_add_string_value(b, base);
		json_builder_set_member_name(b, "mount_point");
		json_builder_add_string_value(b, m->mount_point);
		json_builder_set_member_name(b, "filesystem");
		json_builder_add_string_value(b, m->fs_type);
		json_builder_set_member_name(b, "read_only");
		json_builder_add_boolean_value(b, m->read_only);
		json_builder_set_member_name(b, "lifetime_write_bytes");
		path = g_strdup_printf("/sys/fs/ext4/%s/lifetime_write_kbytes", base);
		text = g_strcmp0(m->fs_type, "ext4") == 0 ? sdt_health_read(ctx, path) : NULL;
		if (sdt_health_parse_u64(text, &kb)) {
			json_builder_add_int_value(b, (gint64) (kb * 1024));
			lifetime += kb * 1024;
			lifetime_known = TRUE;
		} else {
			json_builder_add_null_value(b);
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "lifetime_write_bytes");
	if (lifetime_known)
		json_builder_add_int_value(b, (gint64) lifetime);
	else
		json_builder_add_null_value(b);

	/* the block device's counters since boot */
	if (card->device != NULL) {
		stat_path = g_strdup_printf("/sys/block/%s/stat", card->device);
		stat_text = sdt_health_read(ctx, stat_path);
		stat_known = sdt_health_parse_block_stat(stat_text, &rsec, &wsec);
	}
	uptime_text = sdt_health_read(ctx, "/proc/uptime");
	if (uptime_text != NULL)
		uptime = g_ascii_strtod(uptime_text, NULL);
	json_builder_set_member_name(b, "since_boot");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "uptime_seconds");
	if (uptime > 0)
		json_builder_add_double_value(b, uptime);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "written_bytes");
	if (stat_known)
		json_builder_add_int_value(b, (gint64) (wsec * 512));
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "read_bytes");
	if (stat_known)
		json_builder_add_int_value(b, (gint64) (rsec * 512));
	else
		json_builder_add_null_value(b);
	json_builder_end_object(b);

	/* writes per day: since boot (the history keeps benchmark and check runs only) */
	if (stat_known && uptime >= 3600)
		per_day = (gdouble) wsec * 512 / (uptime / 86400.0);
	json_builder_set_member_name(b, "writes_per_day_bytes");
	if (per_day >= 0)
		json_builder_add_double_value(b, per_day);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "projection");
	if (per_day > 0 && card->capacity_bytes > 0) {
		gdouble budget = (gdouble) card->capacity_bytes * SDT_HEALTH_WRITE_CYCLES;
		gdouble left = budget - (lifetime_known ? (gdouble) lifetime : 0.0);
		gdouble years = MAX(left, 0.0) / per_day / 365.25;
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "years");
		json_builder_add_double_value(b, years);
		json_builder_set_member_name(b, "assumption");
		json_builder_add_string_value(
			b,
			_("A rough estimate: it assumes the card endures about 500 writes of its "
			  "whole capacity (typical of consumer TLC flash; real cards vary widely) "
			  "and that the writes per day since boot continue"));
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}

	/* the kernel's card errors since boot */
	if (info->kernel_log_read) {
		gsize len = 0;
		g_autofree gchar *text = sdt_kmsg_read(ctx, &len, NULL);
		g_autoptr(GPtrArray) records =
			text != NULL ? sdt_kmsg_parse(text, len, NULL) : NULL;
		for (guint i = 0; records != NULL && i < records->len; i++) {
			SdtKmsgRecord *r = g_ptr_array_index(records, i);
			const gchar *msg = r->message;
			gboolean ours = (card->host != NULL && g_str_has_prefix(msg, card->host) &&
					 msg[strlen(card->host)] == ':') ||
					(card->device != NULL && strstr(msg, card->device) != NULL);
			if (ours && sdt_health_word(msg))
				errors++;
		}
	}
	json_builder_set_member_name(b, "kernel_errors_since_boot");
	if (info->kernel_log_read)
		json_builder_add_int_value(b, errors);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "read_only");
	json_builder_add_boolean_value(b, read_only);

	history = sdt_history_list(ctx, NULL);
	json_builder_set_member_name(b, "registers");
	json_builder_add_value(b, sdt_health_registers(card, history));
	json_builder_set_member_name(b, "trend");
	json_builder_add_value(b, sdt_health_trend(history));

	json_builder_set_member_name(b, "notes");
	json_builder_begin_array(b);
	json_builder_add_string_value(b,
				      _("SD Tuner sends no vendor-specific command (CMD56) to read "
					"a card's wear: such commands have made cards vanish"));
	if (!lifetime_known)
		json_builder_add_string_value(
			b,
			_("The file systems on the card do not report lifetime writes (ext4 "
			  "does)"));
	json_builder_end_array(b);
	json_builder_end_object(b);
	sdt_info_free(info);
	return json_builder_get_root(b);
}
