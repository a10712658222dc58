/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <math.h>

#include "sdt-health-report-private.h"
#include "sdt-json.h"
#include "sdt-json-strict-private.h"
#include "sdt-json-private.h"
#include "sdt-info-report-private.h"

#define SDT_HEALTH_KEY_CARD                  "card"
#define SDT_HEALTH_KEY_PARTITIONS            "partitions"
#define SDT_HEALTH_KEY_LIFETIME              "lifetime_write_bytes"
#define SDT_HEALTH_KEY_SINCE_BOOT            "since_boot"
#define SDT_HEALTH_KEY_PER_DAY               "writes_per_day_bytes"
#define SDT_HEALTH_KEY_PROJECTION            "projection"
#define SDT_HEALTH_KEY_KERNEL_ERRORS         "kernel_errors_since_boot"
#define SDT_HEALTH_KEY_REMOUNTS              "read_only_remounts_since_boot"
#define SDT_HEALTH_KEY_READ_ONLY             "read_only"
#define SDT_HEALTH_KEY_STATE_ERROR           "state_error"
#define SDT_HEALTH_KEY_REGISTERS             "registers"
#define SDT_HEALTH_KEY_TREND                 "trend"
#define SDT_HEALTH_KEY_CHECKED_BEFORE        "checked_before"
#define SDT_HEALTH_KEY_NOTES                 "notes"
#define SDT_HEALTH_KEY_CHECK_JOURNAL_DAMAGED "check_journal_damaged"

/* card */
#define SDT_HEALTH_KEY_PRESENT       "present"
#define SDT_HEALTH_KEY_DEVICE        "device"
#define SDT_HEALTH_KEY_CAPACITY      "capacity_bytes"
#define SDT_HEALTH_KEY_KIND          "kind"
#define SDT_HEALTH_KEY_HOLDS_SYSTEM  "holds_system"
#define SDT_HEALTH_KEY_SYSTEM_DEVICE "system_device"
#define SDT_HEALTH_KEY_WRITE_PROTECT "write_protect"
#define SDT_HEALTH_KEY_PERMANENT     "permanent"
#define SDT_HEALTH_KEY_TEMPORARY     "temporary"
#define SDT_HEALTH_KEY_EMMC          "emmc"
/* partitions[] */
#define SDT_HEALTH_KEY_MOUNT_POINT "mount_point"
#define SDT_HEALTH_KEY_FILESYSTEM  "filesystem"
/* since_boot */
#define SDT_HEALTH_KEY_UPTIME  "uptime_seconds"
#define SDT_HEALTH_KEY_WRITTEN "written_bytes"
#define SDT_HEALTH_KEY_READ    "read_bytes"
/* projection */
#define SDT_HEALTH_KEY_YEARS      "years"
#define SDT_HEALTH_KEY_ASSUMPTION "assumption"
/* registers */
#define SDT_HEALTH_KEY_FINDINGS "findings"
#define SDT_HEALTH_KEY_VERDICT  "verdict"
#define SDT_HEALTH_KEY_RULE     "rule"
#define SDT_HEALTH_KEY_MESSAGE  "message"
/* trend */
#define SDT_HEALTH_KEY_RUNS        "runs"
#define SDT_HEALTH_KEY_SEQ_WRITE   "seq_write_mb_s"
#define SDT_HEALTH_KEY_QD1_LATENCY "qd1_write_latency_us"
#define SDT_HEALTH_KEY_ALERTS      "alerts"
#define SDT_HEALTH_KEY_FIRST       "first"
#define SDT_HEALTH_KEY_LATEST      "latest"
#define SDT_HEALTH_KEY_CHANGE      "change"
#define SDT_HEALTH_KEY_SPREAD      "spread"
#define SDT_HEALTH_KEY_ALERT       "alert"
/* checked_before */
#define SDT_HEALTH_KEY_MATCH      "match"
#define SDT_HEALTH_KEY_TIME       "time"
#define SDT_HEALTH_KEY_IDENTITY   "identity"
#define SDT_HEALTH_KEY_SIZE       "size_bytes"
#define SDT_HEALTH_KEY_VENDOR     "vendor"
#define SDT_HEALTH_KEY_MODEL      "model"
#define SDT_HEALTH_KEY_SERIAL     "serial"
#define SDT_HEALTH_KEY_BUS        "bus"
#define SDT_HEALTH_KEY_SERIAL_OF  "serial_of"
#define SDT_HEALTH_KEY_CID        "cid"
#define SDT_HEALTH_KEY_CID_SERIAL "cid_serial"

static void
sdt_health_report_finding_free(gpointer p)
{
	SdtHealthReportFinding *f = p;

	g_free(f->rule);
	g_free(f->message);
	g_free(f);
}

SdtHealthReportRegisters *
sdt_health_report_registers_new(void)
{
	SdtHealthReportRegisters *r = g_new0(SdtHealthReportRegisters, 1);

	r->findings = g_ptr_array_new_with_free_func(sdt_health_report_finding_free);
	return r;
}

void
sdt_health_report_registers_free(SdtHealthReportRegisters *r)
{
	if (r == NULL)
		return;
	g_free(r->verdict);
	g_ptr_array_unref(r->findings);
	g_free(r);
}

void
sdt_health_report_registers_add(SdtHealthReportRegisters *r, const gchar *rule, gchar *message)
{
	SdtHealthReportFinding *f;

	g_return_if_fail(r != NULL);
	f = g_new0(SdtHealthReportFinding, 1);
	f->rule = g_strdup(rule);
	f->message = message;
	g_ptr_array_add(r->findings, f);
}

SdtHealthReportTrend *
sdt_health_report_trend_new(void)
{
	SdtHealthReportTrend *t = g_new0(SdtHealthReportTrend, 1);

	t->alerts = g_ptr_array_new_with_free_func(g_free);
	return t;
}

static void
sdt_health_report_trend_free(SdtHealthReportTrend *t)
{
	if (t == NULL)
		return;
	g_free(t->seq_write_mb_s);
	g_free(t->qd1_write_latency_us);
	g_ptr_array_unref(t->alerts);
	g_free(t);
}

SdtHealthReportCheckedBefore *
sdt_health_report_checked_before_new(void)
{
	SdtHealthReportCheckedBefore *c = g_new0(SdtHealthReportCheckedBefore, 1);

	c->identity.size_bytes = SDT_HEALTH_REPORT_UNKNOWN;
	return c;
}

/* the string members of checked_before.identity after "device" and "size_bytes", in order */
static const struct {
	const gchar *key;
	gsize offset;
} sdt_health_report_identity_strings[] = {
	{SDT_HEALTH_KEY_VENDOR, G_STRUCT_OFFSET(SdtHealthReportIdentity, vendor)},
	{SDT_HEALTH_KEY_MODEL, G_STRUCT_OFFSET(SdtHealthReportIdentity, model)},
	{SDT_HEALTH_KEY_SERIAL, G_STRUCT_OFFSET(SdtHealthReportIdentity, serial)},
	{SDT_HEALTH_KEY_BUS, G_STRUCT_OFFSET(SdtHealthReportIdentity, bus)},
	{SDT_HEALTH_KEY_SERIAL_OF, G_STRUCT_OFFSET(SdtHealthReportIdentity, serial_of)},
	{SDT_HEALTH_KEY_CID, G_STRUCT_OFFSET(SdtHealthReportIdentity, cid)},
	{SDT_HEALTH_KEY_CID_SERIAL, G_STRUCT_OFFSET(SdtHealthReportIdentity, cid_serial)},
};

static gchar **
sdt_health_report_identity_string(SdtHealthReportIdentity *id, guint i)
{
	return G_STRUCT_MEMBER_P(id, sdt_health_report_identity_strings[i].offset);
}

static void
sdt_health_report_checked_before_free(SdtHealthReportCheckedBefore *c)
{
	if (c == NULL)
		return;
	g_free(c->match);
	g_free(c->time);
	g_free(c->verdict);
	g_free(c->identity.device);
	for (guint i = 0; i < G_N_ELEMENTS(sdt_health_report_identity_strings); i++)
		g_free(*sdt_health_report_identity_string(&c->identity, i));
	g_free(c);
}

static void
sdt_health_report_partition_free(gpointer p)
{
	SdtHealthReportPartition *part = p;

	g_free(part->device);
	g_free(part->mount_point);
	g_free(part->filesystem);
	g_free(part);
}

SdtHealthReport *
sdt_health_report_new(void)
{
	SdtHealthReport *r = g_new0(SdtHealthReport, 1);

	r->card.capacity_bytes = SDT_HEALTH_REPORT_UNKNOWN;
	r->card.holds_system = SDT_INFO_REPORT_FLAG_UNKNOWN;
	r->partitions = g_ptr_array_new_with_free_func(sdt_health_report_partition_free);
	r->lifetime_write_bytes = SDT_HEALTH_REPORT_UNKNOWN;
	r->uptime_seconds = NAN;
	r->written_bytes = SDT_HEALTH_REPORT_UNKNOWN;
	r->read_bytes = SDT_HEALTH_REPORT_UNKNOWN;
	r->writes_per_day_bytes = NAN;
	r->kernel_errors_since_boot = SDT_HEALTH_REPORT_UNKNOWN;
	r->read_only_remounts_since_boot = SDT_HEALTH_REPORT_UNKNOWN;
	r->notes = g_ptr_array_new_with_free_func(g_free);
	return r;
}

void
sdt_health_report_free(SdtHealthReport *r)
{
	if (r == NULL)
		return;
	g_free(r->card.device);
	g_free(r->card.kind);
	g_free(r->card.system_device);
	sdt_info_report_emmc_free(r->card.emmc);
	g_ptr_array_unref(r->partitions);
	if (r->projection != NULL)
		g_free(r->projection->assumption);
	g_free(r->projection);
	g_free(r->state_error);
	sdt_health_report_registers_free(r->registers);
	sdt_health_report_trend_free(r->trend);
	sdt_health_report_checked_before_free(r->checked_before);
	g_ptr_array_unref(r->notes);
	g_free(r->check_journal_damaged);
	g_free(r);
}

SdtHealthReportPartition *
sdt_health_report_add_partition(SdtHealthReport *report)
{
	SdtHealthReportPartition *p;

	g_return_val_if_fail(report != NULL, NULL);
	p = g_new0(SdtHealthReportPartition, 1);
	p->lifetime_write_bytes = SDT_HEALTH_REPORT_UNKNOWN;
	g_ptr_array_add(report->partitions, p);
	return p;
}

/* the writing direction: in the order health has always written */

static void
sdt_health_report_put_size(JsonBuilder *b, const gchar *key, gint64 value)
{
	sdt_json_int_or_null(b, key, value >= 0, value);
}

static void
sdt_health_report_put_card(JsonBuilder *b, const SdtHealthReportCard *c)
{
	json_builder_set_member_name(b, SDT_HEALTH_KEY_CARD);
	json_builder_begin_object(b);
	sdt_json_put_bool(b, SDT_HEALTH_KEY_PRESENT, c->present);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_DEVICE, c->device);
	sdt_health_report_put_size(b, SDT_HEALTH_KEY_CAPACITY, c->capacity_bytes);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_KIND, c->kind);
	sdt_json_bool_or_null(b,
			      SDT_HEALTH_KEY_HOLDS_SYSTEM,
			      c->holds_system != SDT_INFO_REPORT_FLAG_UNKNOWN,
			      c->holds_system == SDT_INFO_REPORT_FLAG_YES);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_SYSTEM_DEVICE, c->system_device);
	json_builder_set_member_name(b, SDT_HEALTH_KEY_WRITE_PROTECT);
	if (c->write_protect_known) {
		json_builder_begin_object(b);
		sdt_json_put_bool(b, SDT_HEALTH_KEY_PERMANENT, c->write_protect_permanent);
		sdt_json_put_bool(b, SDT_HEALTH_KEY_TEMPORARY, c->write_protect_temporary);
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}
	json_builder_set_member_name(b, SDT_HEALTH_KEY_EMMC);
	json_builder_add_value(b, sdt_info_report_emmc_to_json(c->emmc));
	json_builder_end_object(b);
}

static void
sdt_health_report_put_partitions(JsonBuilder *b, GPtrArray *partitions)
{
	json_builder_set_member_name(b, SDT_HEALTH_KEY_PARTITIONS);
	json_builder_begin_array(b);
	for (guint i = 0; i < partitions->len; i++) {
		const SdtHealthReportPartition *p = g_ptr_array_index(partitions, i);
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, SDT_HEALTH_KEY_DEVICE, p->device);
		sdt_json_string_or_null(b, SDT_HEALTH_KEY_MOUNT_POINT, p->mount_point);
		sdt_json_string_or_null(b, SDT_HEALTH_KEY_FILESYSTEM, p->filesystem);
		sdt_json_put_bool(b, SDT_HEALTH_KEY_READ_ONLY, p->read_only);
		sdt_health_report_put_size(b, SDT_HEALTH_KEY_LIFETIME, p->lifetime_write_bytes);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

/* lifetime_write_bytes, since_boot, writes_per_day_bytes and projection */
static void
sdt_health_report_put_writes(JsonBuilder *b, const SdtHealthReport *r)
{
	sdt_health_report_put_size(b, SDT_HEALTH_KEY_LIFETIME, r->lifetime_write_bytes);
	json_builder_set_member_name(b, SDT_HEALTH_KEY_SINCE_BOOT);
	json_builder_begin_object(b);
	sdt_json_number_or_null(b, SDT_HEALTH_KEY_UPTIME, r->uptime_seconds);
	sdt_health_report_put_size(b, SDT_HEALTH_KEY_WRITTEN, r->written_bytes);
	sdt_health_report_put_size(b, SDT_HEALTH_KEY_READ, r->read_bytes);
	json_builder_end_object(b);
	sdt_json_number_or_null(b, SDT_HEALTH_KEY_PER_DAY, r->writes_per_day_bytes);
	json_builder_set_member_name(b, SDT_HEALTH_KEY_PROJECTION);
	if (r->projection != NULL) {
		json_builder_begin_object(b);
		sdt_json_number_or_null(b, SDT_HEALTH_KEY_YEARS, r->projection->years);
		sdt_json_string_or_null(b, SDT_HEALTH_KEY_ASSUMPTION, r->projection->assumption);
		json_builder_end_object(b);
	} else {
		json_builder_add_null_value(b);
	}
}

JsonNode *
sdt_health_report_registers_to_json(const SdtHealthReportRegisters *r)
{
	g_autoptr(JsonBuilder) b = NULL;

	if (r == NULL)
		return json_node_new(JSON_NODE_NULL);
	b = json_builder_new();
	json_builder_begin_object(b);
	json_builder_set_member_name(b, SDT_HEALTH_KEY_FINDINGS);
	json_builder_begin_array(b);
	for (guint i = 0; i < r->findings->len; i++) {
		const SdtHealthReportFinding *f = g_ptr_array_index(r->findings, i);
		json_builder_begin_object(b);
		sdt_json_string_or_null(b, SDT_HEALTH_KEY_RULE, f->rule);
		sdt_json_string_or_null(b, SDT_HEALTH_KEY_MESSAGE, f->message);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_VERDICT, r->verdict);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

static void
sdt_health_report_put_metric(JsonBuilder *b, const gchar *key, const SdtHealthReportMetric *m)
{
	json_builder_set_member_name(b, key);
	if (m == NULL) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	sdt_json_number_or_null(b, SDT_HEALTH_KEY_FIRST, m->first);
	sdt_json_number_or_null(b, SDT_HEALTH_KEY_LATEST, m->latest);
	sdt_json_number_or_null(b, SDT_HEALTH_KEY_CHANGE, m->change);
	sdt_json_number_or_null(b, SDT_HEALTH_KEY_SPREAD, m->spread);
	sdt_json_put_bool(b, SDT_HEALTH_KEY_ALERT, m->alert);
	json_builder_end_object(b);
}

static void
sdt_health_report_put_trend(JsonBuilder *b, const SdtHealthReportTrend *t)
{
	json_builder_set_member_name(b, SDT_HEALTH_KEY_TREND);
	if (t == NULL) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	sdt_json_put_int(b, SDT_HEALTH_KEY_RUNS, t->runs);
	sdt_health_report_put_metric(b, SDT_HEALTH_KEY_SEQ_WRITE, t->seq_write_mb_s);
	sdt_health_report_put_metric(b, SDT_HEALTH_KEY_QD1_LATENCY, t->qd1_write_latency_us);
	sdt_json_put_strings(b, SDT_HEALTH_KEY_ALERTS, t->alerts);
	json_builder_end_object(b);
}

static void
sdt_health_report_put_checked_before(JsonBuilder *b, const SdtHealthReportCheckedBefore *c)
{
	SdtHealthReportIdentity *id = c != NULL ? (SdtHealthReportIdentity *) &c->identity : NULL;

	json_builder_set_member_name(b, SDT_HEALTH_KEY_CHECKED_BEFORE);
	if (c == NULL) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_MATCH, c->match);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_TIME, c->time);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_VERDICT, c->verdict);
	json_builder_set_member_name(b, SDT_HEALTH_KEY_IDENTITY);
	json_builder_begin_object(b);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_DEVICE, id->device);
	sdt_health_report_put_size(b, SDT_HEALTH_KEY_SIZE, id->size_bytes);
	for (guint i = 0; i < G_N_ELEMENTS(sdt_health_report_identity_strings); i++)
		sdt_json_string_or_null(b,
					sdt_health_report_identity_strings[i].key,
					*sdt_health_report_identity_string(id, i));
	json_builder_end_object(b);
	json_builder_end_object(b);
}

JsonNode *
sdt_health_report_to_json(const SdtHealthReport *r)
{
	g_autoptr(JsonBuilder) b = NULL;

	g_return_val_if_fail(r != NULL, NULL);

	b = json_builder_new();
	json_builder_begin_object(b);
	sdt_health_report_put_card(b, &r->card);
	sdt_health_report_put_partitions(b, r->partitions);
	sdt_health_report_put_writes(b, r);
	sdt_health_report_put_size(b, SDT_HEALTH_KEY_KERNEL_ERRORS, r->kernel_errors_since_boot);
	sdt_health_report_put_size(b, SDT_HEALTH_KEY_REMOUNTS, r->read_only_remounts_since_boot);
	sdt_json_put_bool(b, SDT_HEALTH_KEY_READ_ONLY, r->read_only);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_STATE_ERROR, r->state_error);
	json_builder_set_member_name(b, SDT_HEALTH_KEY_REGISTERS);
	json_builder_add_value(b, sdt_health_report_registers_to_json(r->registers));
	sdt_health_report_put_trend(b, r->trend);
	sdt_health_report_put_checked_before(b, r->checked_before);
	sdt_json_put_strings(b, SDT_HEALTH_KEY_NOTES, r->notes);
	sdt_json_string_or_null(b, SDT_HEALTH_KEY_CHECK_JOURNAL_DAMAGED, r->check_journal_damaged);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

gchar *
sdt_health_report_to_string(const SdtHealthReport *report)
{
	g_autoptr(JsonNode) node = NULL;

	g_return_val_if_fail(report != NULL, NULL);

	node = sdt_health_report_to_json(report);
	/* sysfs, the mount table and the history may hold any bytes: the text is UTF-8 */
	sdt_json_sanitize_utf8(node);
	return sdt_json_to_string(node, TRUE);
}

/* the reading direction: absent or null is unknown, another type an error */

static gboolean
sdt_health_read_size(JsonObject *obj,
		     const gchar *where,
		     const gchar *key,
		     gint64 *value,
		     GError **error)
{
	return sdt_json_strict_int(obj, where, key, SDT_HEALTH_REPORT_UNKNOWN, value, error);
}

static gboolean
sdt_health_report_read_write_protect(JsonObject *card, SdtHealthReportCard *c, GError **error)
{
	const gchar *at = SDT_HEALTH_KEY_CARD "." SDT_HEALTH_KEY_WRITE_PROTECT;
	JsonObject *wp = NULL;

	if (!sdt_json_strict_object(card,
				    SDT_HEALTH_KEY_CARD,
				    SDT_HEALTH_KEY_WRITE_PROTECT,
				    &wp,
				    error))
		return FALSE;
	c->write_protect_known = wp != NULL;
	return sdt_json_strict_bool(wp,
				    at,
				    SDT_HEALTH_KEY_PERMANENT,
				    FALSE,
				    &c->write_protect_permanent,
				    error) &&
	       sdt_json_strict_bool(wp,
				    at,
				    SDT_HEALTH_KEY_TEMPORARY,
				    FALSE,
				    &c->write_protect_temporary,
				    error);
}

static gboolean
sdt_health_report_read_card(JsonObject *obj, SdtHealthReportCard *c, GError **error)
{
	const gchar *at = SDT_HEALTH_KEY_CARD;
	JsonObject *o = NULL;
	gboolean holds; /* TRUE, FALSE, or the fallback for null */

	if (!sdt_json_strict_object(obj, NULL, at, &o, error))
		return FALSE;
	if (!sdt_json_strict_bool(o, at, SDT_HEALTH_KEY_PRESENT, FALSE, &c->present, error) ||
	    !sdt_json_strict_string(o, at, SDT_HEALTH_KEY_DEVICE, &c->device, error) ||
	    !sdt_health_read_size(o, at, SDT_HEALTH_KEY_CAPACITY, &c->capacity_bytes, error) ||
	    !sdt_json_strict_string(o, at, SDT_HEALTH_KEY_KIND, &c->kind, error) ||
	    !sdt_json_strict_bool(o,
				  at,
				  SDT_HEALTH_KEY_HOLDS_SYSTEM,
				  SDT_INFO_REPORT_FLAG_UNKNOWN,
				  &holds,
				  error) ||
	    !sdt_json_strict_string(o,
				    at,
				    SDT_HEALTH_KEY_SYSTEM_DEVICE,
				    &c->system_device,
				    error) ||
	    !sdt_health_report_read_write_protect(o, c, error))
		return FALSE;
	c->holds_system = holds == SDT_INFO_REPORT_FLAG_UNKNOWN ? SDT_INFO_REPORT_FLAG_UNKNOWN
			  : holds                               ? SDT_INFO_REPORT_FLAG_YES
								: SDT_INFO_REPORT_FLAG_NO;
	return o == NULL || sdt_info_report_read_emmc(o, at, &c->emmc, error);
}

/* the objects of the array @key of @obj (at @where), each read by @read */
typedef gboolean (*SdtHealthReportReadElement)(JsonObject *element,
					       const gchar *at,
					       gpointer data,
					       GError **error);

static gboolean
sdt_health_report_read_objects(JsonObject *obj,
			       const gchar *where,
			       const gchar *key,
			       SdtHealthReportReadElement read,
			       gpointer data,
			       GError **error)
{
	JsonArray *array = NULL;

	if (!sdt_json_strict_array(obj, where, key, &array, error))
		return FALSE;
	for (guint i = 0; array != NULL && i < json_array_get_length(array); i++) {
		g_autofree gchar *at = sdt_json_strict_element(where, key, i);
		JsonObject *element =
			sdt_json_strict_element_object(json_array_get_element(array, i), at, error);
		if (element == NULL || !read(element, at, data, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_health_report_read_partition(JsonObject *o, const gchar *at, gpointer data, GError **error)
{
	SdtHealthReportPartition *p = sdt_health_report_add_partition(data);

	return sdt_json_strict_string(o, at, SDT_HEALTH_KEY_DEVICE, &p->device, error) &&
	       sdt_json_strict_string(o, at, SDT_HEALTH_KEY_MOUNT_POINT, &p->mount_point, error) &&
	       sdt_json_strict_string(o, at, SDT_HEALTH_KEY_FILESYSTEM, &p->filesystem, error) &&
	       sdt_json_strict_bool(o, at, SDT_HEALTH_KEY_READ_ONLY, FALSE, &p->read_only, error) &&
	       sdt_health_read_size(o,
				    at,
				    SDT_HEALTH_KEY_LIFETIME,
				    &p->lifetime_write_bytes,
				    error);
}

static gboolean
sdt_health_report_read_writes(JsonObject *obj, SdtHealthReport *r, GError **error)
{
	const gchar *bat = SDT_HEALTH_KEY_SINCE_BOOT;
	const gchar *pat = SDT_HEALTH_KEY_PROJECTION;
	JsonObject *boot = NULL;
	JsonObject *projection = NULL;

	if (!sdt_health_read_size(obj,
				  NULL,
				  SDT_HEALTH_KEY_LIFETIME,
				  &r->lifetime_write_bytes,
				  error) ||
	    !sdt_json_strict_object(obj, NULL, bat, &boot, error) ||
	    !sdt_json_strict_number(boot, bat, SDT_HEALTH_KEY_UPTIME, &r->uptime_seconds, error) ||
	    !sdt_health_read_size(boot, bat, SDT_HEALTH_KEY_WRITTEN, &r->written_bytes, error) ||
	    !sdt_health_read_size(boot, bat, SDT_HEALTH_KEY_READ, &r->read_bytes, error) ||
	    !sdt_json_strict_number(obj,
				    NULL,
				    SDT_HEALTH_KEY_PER_DAY,
				    &r->writes_per_day_bytes,
				    error) ||
	    !sdt_json_strict_object(obj, NULL, pat, &projection, error))
		return FALSE;
	if (projection == NULL)
		return TRUE;
	r->projection = g_new0(SdtHealthReportProjection, 1);
	return sdt_json_strict_number(projection,
				      pat,
				      SDT_HEALTH_KEY_YEARS,
				      &r->projection->years,
				      error) &&
	       sdt_json_strict_string(projection,
				      pat,
				      SDT_HEALTH_KEY_ASSUMPTION,
				      &r->projection->assumption,
				      error);
}

static gboolean
sdt_health_report_read_finding(JsonObject *o, const gchar *at, gpointer data, GError **error)
{
	SdtHealthReportRegisters *r = data;
	g_autofree gchar *rule = NULL;
	g_autofree gchar *message = NULL;

	if (!sdt_json_strict_string(o, at, SDT_HEALTH_KEY_RULE, &rule, error) ||
	    !sdt_json_strict_string(o, at, SDT_HEALTH_KEY_MESSAGE, &message, error))
		return FALSE;
	sdt_health_report_registers_add(r, rule, g_steal_pointer(&message));
	return TRUE;
}

gboolean
sdt_health_report_read_registers(JsonObject *obj,
				 const gchar *where,
				 SdtHealthReportRegisters **registers,
				 GError **error)
{
	g_autoptr(SdtHealthReportRegisters) r = NULL;
	g_autofree gchar *at = NULL;
	JsonObject *o = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	at = where != NULL && where[0] != '\0'
		     ? g_strdup_printf("%s.%s", where, SDT_HEALTH_KEY_REGISTERS)
		     : g_strdup(SDT_HEALTH_KEY_REGISTERS);
	*registers = NULL;
	if (!sdt_json_strict_object(obj, where, SDT_HEALTH_KEY_REGISTERS, &o, error))
		return FALSE;
	if (o == NULL)
		return TRUE;
	r = sdt_health_report_registers_new();
	if (!sdt_health_report_read_objects(o,
					    at,
					    SDT_HEALTH_KEY_FINDINGS,
					    sdt_health_report_read_finding,
					    r,
					    error) ||
	    !sdt_json_strict_string(o, at, SDT_HEALTH_KEY_VERDICT, &r->verdict, error))
		return FALSE;
	*registers = g_steal_pointer(&r);
	return TRUE;
}

static gboolean
sdt_health_report_read_metric(JsonObject *trend,
			      const gchar *key,
			      SdtHealthReportMetric **metric,
			      GError **error)
{
	g_autofree gchar *at = g_strdup_printf("%s.%s", SDT_HEALTH_KEY_TREND, key);
	JsonObject *o = NULL;
	SdtHealthReportMetric *m;

	if (!sdt_json_strict_object(trend, SDT_HEALTH_KEY_TREND, key, &o, error))
		return FALSE;
	if (o == NULL)
		return TRUE;
	m = *metric = g_new0(SdtHealthReportMetric, 1);
	return sdt_json_strict_number(o, at, SDT_HEALTH_KEY_FIRST, &m->first, error) &&
	       sdt_json_strict_number(o, at, SDT_HEALTH_KEY_LATEST, &m->latest, error) &&
	       sdt_json_strict_number(o, at, SDT_HEALTH_KEY_CHANGE, &m->change, error) &&
	       sdt_json_strict_number(o, at, SDT_HEALTH_KEY_SPREAD, &m->spread, error) &&
	       sdt_json_strict_bool(o, at, SDT_HEALTH_KEY_ALERT, FALSE, &m->alert, error);
}

static gboolean
sdt_health_report_read_trend(JsonObject *obj, SdtHealthReport *r, GError **error)
{
	const gchar *at = SDT_HEALTH_KEY_TREND;
	JsonObject *o = NULL;
	SdtHealthReportTrend *t;

	if (!sdt_json_strict_object(obj, NULL, at, &o, error))
		return FALSE;
	if (o == NULL)
		return TRUE;
	t = r->trend = sdt_health_report_trend_new();
	return sdt_json_strict_int(o, at, SDT_HEALTH_KEY_RUNS, 0, &t->runs, error) &&
	       sdt_health_report_read_metric(o,
					     SDT_HEALTH_KEY_SEQ_WRITE,
					     &t->seq_write_mb_s,
					     error) &&
	       sdt_health_report_read_metric(o,
					     SDT_HEALTH_KEY_QD1_LATENCY,
					     &t->qd1_write_latency_us,
					     error) &&
	       sdt_json_strict_strings(o, at, SDT_HEALTH_KEY_ALERTS, t->alerts, error);
}

static gboolean
sdt_health_report_read_identity(JsonObject *before, SdtHealthReportIdentity *id, GError **error)
{
	const gchar *at = SDT_HEALTH_KEY_CHECKED_BEFORE "." SDT_HEALTH_KEY_IDENTITY;
	JsonObject *o = NULL;

	if (!sdt_json_strict_object(before,
				    SDT_HEALTH_KEY_CHECKED_BEFORE,
				    SDT_HEALTH_KEY_IDENTITY,
				    &o,
				    error) ||
	    !sdt_json_strict_string(o, at, SDT_HEALTH_KEY_DEVICE, &id->device, error) ||
	    !sdt_health_read_size(o, at, SDT_HEALTH_KEY_SIZE, &id->size_bytes, error))
		return FALSE;
	for (guint i = 0; i < G_N_ELEMENTS(sdt_health_report_identity_strings); i++)
		if (!sdt_json_strict_string(o,
					    at,
					    sdt_health_report_identity_strings[i].key,
					    sdt_health_report_identity_string(id, i),
					    error))
			return FALSE;
	return TRUE;
}

static gboolean
sdt_health_report_read_checked_before(JsonObject *obj, SdtHealthReport *r, GError **error)
{
	const gchar *at = SDT_HEALTH_KEY_CHECKED_BEFORE;
	JsonObject *o = NULL;
	SdtHealthReportCheckedBefore *c;

	if (!sdt_json_strict_object(obj, NULL, at, &o, error))
		return FALSE;
	if (o == NULL)
		return TRUE;
	c = r->checked_before = sdt_health_report_checked_before_new();
	return sdt_json_strict_string(o, at, SDT_HEALTH_KEY_MATCH, &c->match, error) &&
	       sdt_json_strict_string(o, at, SDT_HEALTH_KEY_TIME, &c->time, error) &&
	       sdt_json_strict_string(o, at, SDT_HEALTH_KEY_VERDICT, &c->verdict, error) &&
	       sdt_health_report_read_identity(o, &c->identity, error);
}

SdtHealthReport *
sdt_health_report_from_json(JsonObject *obj, GError **error)
{
	g_autoptr(SdtHealthReport) r = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(obj != NULL, NULL);

	r = sdt_health_report_new();
	if (!sdt_health_report_read_card(obj, &r->card, error) ||
	    !sdt_health_report_read_objects(obj,
					    NULL,
					    SDT_HEALTH_KEY_PARTITIONS,
					    sdt_health_report_read_partition,
					    r,
					    error) ||
	    !sdt_health_report_read_writes(obj, r, error) ||
	    !sdt_health_read_size(obj,
				  NULL,
				  SDT_HEALTH_KEY_KERNEL_ERRORS,
				  &r->kernel_errors_since_boot,
				  error) ||
	    !sdt_health_read_size(obj,
				  NULL,
				  SDT_HEALTH_KEY_REMOUNTS,
				  &r->read_only_remounts_since_boot,
				  error) ||
	    !sdt_json_strict_bool(obj,
				  NULL,
				  SDT_HEALTH_KEY_READ_ONLY,
				  FALSE,
				  &r->read_only,
				  error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    SDT_HEALTH_KEY_STATE_ERROR,
				    &r->state_error,
				    error) ||
	    !sdt_health_report_read_registers(obj, NULL, &r->registers, error) ||
	    !sdt_health_report_read_trend(obj, r, error) ||
	    !sdt_health_report_read_checked_before(obj, r, error) ||
	    !sdt_json_strict_strings(obj, NULL, SDT_HEALTH_KEY_NOTES, r->notes, error) ||
	    !sdt_json_strict_string(obj,
				    NULL,
				    SDT_HEALTH_KEY_CHECK_JOURNAL_DAMAGED,
				    &r->check_journal_damaged,
				    error))
		return NULL;
	return g_steal_pointer(&r);
}

SdtHealthReport *
sdt_health_report_parse(const gchar *text, GError **error)
{
	g_autoptr(JsonNode) root = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(text != NULL, NULL);

	root = sdt_json_reader_parse(text, error);
	if (root == NULL)
		return NULL;
	return sdt_health_report_from_json(json_node_get_object(root), error);
}
