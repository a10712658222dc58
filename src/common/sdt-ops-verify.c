/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-config-writer.h"
#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-history.h"
#include "sdt-info.h"
#include "sdt-json.h"
#include "sdt-kmsg.h"
#include "sdt-ops-config.h"
#include "sdt-ops.h"
#include "sdt-recommend.h"
#include "sdt-verify.h"

#define SDT_OPS_VERIFY_EVIDENCE_MAX (1024 * 1024)
#define SDT_MHZ                     G_GUINT64_CONSTANT(1000000)

static JsonArray *
sdt_ops_verify_strings(GPtrArray *strings)
{
	JsonArray *array = json_array_new();
	for (guint i = 0; i < strings->len; i++)
		json_array_add_string_element(array, g_ptr_array_index(strings, i));
	return array;
}

/* the boot id of the running system under the context's root, or NULL */
static gchar *
sdt_ops_verify_boot_id(SdtContext *ctx)
{
	g_autofree gchar *path = sdt_context_build_path(ctx, "/proc/sys/kernel/random/boot_id");
	g_autofree gchar *data = NULL;

	if (!sdt_file_read_bounded(path, 128, &data, NULL, NULL))
		return NULL;
	g_strstrip(data);
	return data[0] != '\0' ? g_steal_pointer(&data) : NULL;
}

static gchar *
sdt_ops_verify_now_iso(SdtContext *ctx)
{
	g_autoptr(GDateTime) now = sdt_context_get_now(ctx);
	return g_date_time_format_iso8601(now);
}

void
sdt_ops_verify_record_apply(SdtContext *ctx,
			    JsonObject *apply_result,
			    gint type_code,
			    const gchar *filter,
			    guint replaces)
{
	g_autoptr(SdtVerifyPending) p = g_new0(SdtVerifyPending, 1);
	g_autoptr(SdtConfigWriter) writer = sdt_config_writer_new(ctx, NULL);
	g_autoptr(GError) error = NULL;
	g_autofree gchar *line = NULL;
	const gchar *id = json_object_get_string_member_with_default(apply_result, "id", NULL);

	line = sdt_verify_setting_line(id);
	if (line == NULL)
		return;
	p->id = g_strdup(id);
	p->original_id = g_strdup(id);
	p->trial = json_object_get_boolean_member_with_default(apply_result, "trial", FALSE);
	p->boot_id = sdt_ops_verify_boot_id(ctx);
	p->tries = g_new0(gchar *, 1);
	p->time = sdt_ops_verify_now_iso(ctx);
	p->config_sha256 = writer != NULL ? sdt_config_writer_hash_config(writer) : NULL;
	p->steps = json_array_new();
	p->filter = g_strdup(filter);
	p->type_code = type_code;
	p->replaces = replaces;
	/* the change is made; without this record it is simply not verified */
	if (!sdt_verify_pending_save(ctx, p, &error))
		g_warning("%s", error->message);
}

/* the evidence file of tests: {"soak": {...}, "before": {...}, "after": {...}} */
static JsonObject *
sdt_ops_verify_read_evidence(const gchar *path, GError **error)
{
	g_autofree gchar *data = NULL;
	g_autoptr(JsonParser) parser = json_parser_new();
	gsize len = 0;

	if (!sdt_file_read_bounded(path, SDT_OPS_VERIFY_EVIDENCE_MAX, &data, &len, error))
		return NULL;
	if (!json_parser_load_from_data(parser, data, (gssize) len, error))
		return NULL;
	if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("%s is not a JSON object"),
			    path);
		return NULL;
	}
	return json_object_ref(json_node_get_object(json_parser_get_root(parser)));
}

/* a number member, or NAN */
static gdouble
sdt_ops_verify_num(JsonObject *obj, const gchar *name)
{
	JsonNode *n = obj != NULL ? json_object_get_member(obj, name) : NULL;
	if (n == NULL || !JSON_NODE_HOLDS_VALUE(n))
		return NAN;
	if (json_node_get_value_type(n) == G_TYPE_DOUBLE)
		return json_node_get_double(n);
	if (json_node_get_value_type(n) == G_TYPE_INT64)
		return (gdouble) json_node_get_int(n);
	return NAN;
}

static JsonObject *
sdt_ops_verify_obj(JsonObject *obj, const gchar *name)
{
	JsonNode *n = obj != NULL ? json_object_get_member(obj, name) : NULL;
	return n != NULL && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

static void
sdt_ops_verify_soak(SdtVerifySoak *soak, JsonObject *obj)
{
	gdouble w = sdt_ops_verify_num(obj, "bytes_written");
	gdouble c = sdt_ops_verify_num(obj, "bytes_checked");
	gdouble m = sdt_ops_verify_num(obj, "mismatches");
	gdouble off = sdt_ops_verify_num(obj, "first_bad_offset");

	memset(soak, 0, sizeof(*soak));
	soak->first_bad_offset = -1;
	if (obj == NULL || !(w >= 0) || !(c >= 0) || !(m >= 0))
		return;
	soak->ran = TRUE;
	soak->bytes_written = (guint64) w;
	soak->bytes_checked = (guint64) c;
	soak->mismatches = (guint64) m;
	soak->first_bad_offset = off >= 0 ? (gint64) off : -1;
}

/* before/after figures present in both, in the order of @after */
static GArray *
sdt_ops_verify_figures(JsonObject *before, JsonObject *after)
{
	GArray *figures = g_array_new(FALSE, TRUE, sizeof(SdtVerifyFigure));
	g_autoptr(GList) names = after != NULL ? json_object_get_members(after) : NULL;

	for (GList *l = names; l != NULL; l = l->next) {
		JsonObject *b = sdt_ops_verify_obj(before, l->data);
		JsonObject *a = sdt_ops_verify_obj(after, l->data);
		SdtVerifyFigure f = {0};
		if (a == NULL || b == NULL)
			continue;
		f.name = l->data;
		f.unit = json_object_get_string_member_with_default(a, "unit", "");
		f.before = sdt_ops_verify_num(b, "median");
		f.before_spread = sdt_ops_verify_num(b, "spread");
		f.after = sdt_ops_verify_num(a, "median");
		f.after_spread = sdt_ops_verify_num(a, "spread");
		g_array_append_val(figures, f);
	}
	return figures;
}

static JsonObject *
sdt_ops_verify_evidence_json(const SdtVerifyFacts *facts)
{
	JsonObject *ev = json_object_new();
	JsonObject *clock = json_object_new();
	JsonObject *soak = json_object_new();
	JsonArray *log = json_array_new();
	JsonArray *figures = json_array_new();

	json_object_set_string_member(ev, "boot_id_then", facts->boot_id_then);
	if (facts->boot_id_now != NULL)
		json_object_set_string_member(ev, "boot_id", facts->boot_id_now);
	else
		json_object_set_null_member(ev, "boot_id");
	json_object_set_boolean_member(ev, "tryboot_active", facts->tryboot_active);
	json_object_set_boolean_member(ev, "config_edited", facts->config_edited);
	json_object_set_int_member(ev, "attempts_before", facts->attempts);
	json_object_set_int_member(clock, "expected_hz", (gint64) facts->expected_clock_hz);
	json_object_set_int_member(clock, "observed_hz", (gint64) facts->observed_clock_hz);
	json_object_set_object_member(ev, "clock", clock);
	if (facts->expected_cqe != NULL) {
		JsonObject *cqe = json_object_new();
		json_object_set_string_member(cqe, "expected", facts->expected_cqe);
		json_object_set_string_member(cqe,
					      "observed",
					      facts->observed_cqe != NULL ? facts->observed_cqe
									  : "unknown");
		json_object_set_object_member(ev, "cqe", cqe);
	}
	for (guint i = 0; facts->log != NULL && i < facts->log->lines->len; i++)
		json_array_add_string_element(log, g_ptr_array_index(facts->log->lines, i));
	json_object_set_array_member(ev, "log", log);
	json_object_set_boolean_member(soak, "ran", facts->soak.ran);
	json_object_set_int_member(soak, "bytes_written", (gint64) facts->soak.bytes_written);
	json_object_set_int_member(soak, "bytes_checked", (gint64) facts->soak.bytes_checked);
	json_object_set_int_member(soak, "mismatches", (gint64) facts->soak.mismatches);
	if (facts->soak.first_bad_offset >= 0)
		json_object_set_int_member(soak, "first_bad_offset", facts->soak.first_bad_offset);
	else
		json_object_set_null_member(soak, "first_bad_offset");
	json_object_set_object_member(ev, "soak", soak);
	for (guint i = 0; i < facts->n_figures; i++) {
		const SdtVerifyFigure *f = &facts->figures[i];
		JsonObject *o = json_object_new();
		json_object_set_string_member(o, "name", f->name);
		json_object_set_string_member(o, "unit", f->unit);
		json_object_set_double_member(o, "before", f->before);
		json_object_set_double_member(o, "before_spread", f->before_spread);
		json_object_set_double_member(o, "after", f->after);
		json_object_set_double_member(o, "after_spread", f->after_spread);
		json_array_add_object_element(figures, o);
	}
	json_object_set_array_member(ev, "figures", figures);
	return ev;
}

/* the block SD Tuner writes for @id, as the pending state recorded it */
static JsonObject *
sdt_ops_verify_apply(SdtConfigWriter *writer,
		     const SdtVerifyPending *p,
		     const gchar *id,
		     gboolean trial,
		     GError **error)
{
	g_autofree gchar *line = sdt_verify_setting_line(id);
	const gchar *lines[] = {line, NULL};
	SdtConfigBlock block = {NULL};

	block.id = g_intern_string(id);
	block.filter = p->filter;
	block.lines = lines;
	block.type_code = p->type_code;
	block.replaces = (SdtConfigSdKind) p->replaces;
	return sdt_config_writer_apply(writer, &block, trial, error);
}

/* the members of a writer result worth keeping as evidence of what was done */
static JsonObject *
sdt_ops_verify_action(const gchar *what, JsonObject *res)
{
	JsonObject *a = json_object_new();
	const gchar *members[] = {"path", "diff", "backup", "kept", "warnings", "trial_cancelled"};

	json_object_set_string_member(a, "what", what);
	for (guint i = 0; res != NULL && i < G_N_ELEMENTS(members); i++) {
		JsonNode *m = json_object_get_member(res, members[i]);
		if (m != NULL)
			json_object_set_member(a, members[i], json_node_copy(m));
	}
	return a;
}

JsonNode *
sdt_ops_verify(SdtContext *ctx, const gchar *evidence_path, GError **error)
{
	g_autoptr(SdtVerifyPending) p = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(JsonObject) out = json_object_new();
	g_autoptr(JsonObject) evidence = NULL;
	g_autoptr(SdtInfo) info = NULL;
	g_autoptr(SdtConfigTxt) cfg = NULL;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autoptr(GArray) figures = NULL;
	g_autofree gchar *boot_now = NULL;
	g_autofree gchar *hash_now = NULL;
	g_autofree gchar *kmsg = NULL;
	g_autofree gchar *id = NULL;
	JsonObject *action = NULL;
	JsonNode *node;
	SdtVerifyFacts facts = {0};
	SdtVerifyLog log;
	SdtRecommendFacts rf;
	gsize kmsg_len = 0;

	if (!sdt_verify_pending_load(ctx, &p, error)) {
		g_prefix_error(error,
			       _("SD Tuner cannot verify: delete the file to stop verifying, "
				 "then revert by hand if needed: "));
		return NULL;
	}
	if (p == NULL) {
		json_object_set_boolean_member(out, "pending", FALSE);
		json_object_set_null_member(out, "decision");
		json_object_set_string_member(out,
					      "reason",
					      _("No change is waiting to be verified."));
		node = json_node_new(JSON_NODE_OBJECT);
		json_node_take_object(node, g_steal_pointer(&out));
		return node;
	}
	writer = sdt_config_writer_new(ctx, error);
	if (writer == NULL)
		return NULL;
	id = g_strdup(p->id);
	boot_now = sdt_ops_verify_boot_id(ctx);
	facts.id = id;
	facts.step = p->step;
	facts.trial = p->trial;
	facts.boot_id_then = p->boot_id;
	facts.boot_id_now = boot_now;
	facts.attempts = p->attempts;
	sdt_verify_log_init(&log);
	facts.log = &log;
	facts.soak.first_bad_offset = -1;

	/* a new boot: count the try and make it durable before anything can hang */
	if (boot_now != NULL &&
	    (p->boot_id == NULL || g_ascii_strcasecmp(p->boot_id, boot_now) != 0) &&
	    p->attempts < SDT_VERIFY_MAX_TRIES) {
		guint n = g_strv_length(p->tries);
		p->tries = g_renew(gchar *, p->tries, n + 2);
		p->tries[n] = g_strdup(boot_now);
		p->tries[n + 1] = NULL;
		p->attempts++;
		if (!sdt_verify_pending_save(ctx, p, error)) {
			sdt_verify_log_clear(&log);
			return NULL;
		}
	}

	/* the results of the soak test and the benchmark: a failure here is an
	 * interrupted try, counted above */
	if (evidence_path != NULL && facts.attempts < SDT_VERIFY_MAX_TRIES) {
		evidence = sdt_ops_verify_read_evidence(evidence_path, error);
		if (evidence == NULL) {
			sdt_verify_log_clear(&log);
			return NULL;
		}
	}

	/* the facts of this boot */
	info = sdt_info_collect(ctx, NULL);
	cfg = sdt_config_writer_load(writer, NULL, NULL);
	if (info != NULL) {
		sdt_ops_config_facts(&rf, info, cfg);
		facts.core_clock_hz = (guint64) sdt_recommend_core_clock_mhz(&rf) * SDT_MHZ;
		facts.observed_clock_hz =
			rf.actual_clock_hz > 0 ? rf.actual_clock_hz : rf.log_overclock_hz;
		facts.observed_cqe = rf.cqe;
	}
	if (g_str_has_prefix(id, "sd-overclock-"))
		facts.expected_clock_hz =
			sdt_recommend_sdhost_clock_hz(facts.core_clock_hz,
						      (guint) atoi(id + strlen("sd-overclock-")));
	else if (g_strcmp0(id, "sd-cqe-2") == 0)
		facts.expected_cqe = "enabled";
	else if (g_strcmp0(id, "sd-cqe-0") == 0)
		facts.expected_cqe = "off";
	kmsg = sdt_kmsg_read(ctx, &kmsg_len, NULL);
	if (kmsg != NULL)
		sdt_verify_log_scan(&log, kmsg, kmsg_len);
	facts.tryboot_active = sdt_ops_config_tryboot_active(ctx);
	hash_now = sdt_config_writer_hash_config(writer);
	facts.config_edited = p->config_sha256 != NULL && hash_now != NULL &&
			      g_strcmp0(p->config_sha256, hash_now) != 0;
	if (evidence != NULL)
		sdt_ops_verify_soak(&facts.soak, sdt_ops_verify_obj(evidence, "soak"));
	{
		JsonObject *before = sdt_ops_verify_obj(evidence, "before");
		figures = sdt_ops_verify_figures(before != NULL ? before : p->before,
						 sdt_ops_verify_obj(evidence, "after"));
		facts.figures = (const SdtVerifyFigure *) (gpointer) figures->data;
		facts.n_figures = figures->len;
	}

	r = sdt_verify_decide(&facts);

	json_object_set_boolean_member(out, "pending", TRUE);
	json_object_set_string_member(out, "id", id);
	json_object_set_string_member(out, "original_id", p->original_id);
	json_object_set_int_member(out, "step", p->step);
	json_object_set_boolean_member(out, "trial", p->trial);
	json_object_set_string_member(out, "decision", sdt_verify_decision_to_string(r->decision));
	json_object_set_string_member(out, "reason", r->reason);
	if (r->next_id != NULL)
		json_object_set_string_member(out, "next_id", r->next_id);
	else
		json_object_set_null_member(out, "next_id");
	json_object_set_boolean_member(out, "stop", r->stop);
	json_object_set_boolean_member(out, "foreign_change", r->foreign_change);
	json_object_set_array_member(out, "improved", sdt_ops_verify_strings(r->improved));
	json_object_set_array_member(out, "worse", sdt_ops_verify_strings(r->worse));
	json_object_set_object_member(out, "evidence", sdt_ops_verify_evidence_json(&facts));
	sdt_verify_log_clear(&log);

	if (r->decision == SDT_VERIFY_WAIT) {
		json_object_set_null_member(out, "action");
		node = json_node_new(JSON_NODE_OBJECT);
		json_node_take_object(node, g_steal_pointer(&out));
		return node;
	}

	if (r->decision == SDT_VERIFY_KEEP) {
		if (p->trial) {
			/* the trial worked: config.txt gets the block for good, tryboot.txt goes */
			g_autoptr(JsonObject) cancel = sdt_config_writer_revert(writer, error);
			g_autoptr(JsonObject) res = NULL;
			if (cancel == NULL)
				return NULL;
			res = sdt_ops_verify_apply(writer, p, id, FALSE, error);
			if (res == NULL)
				return NULL;
			action = sdt_ops_verify_action("kept", res);
		} else {
			action = sdt_ops_verify_action("kept", NULL);
		}
		if (!sdt_verify_pending_remove(ctx, error))
			return NULL;
	} else if (r->decision == SDT_VERIFY_STEP_DOWN) {
		g_autoptr(JsonObject) res =
			sdt_ops_verify_apply(writer, p, r->next_id, p->trial, error);
		JsonObject *step = json_object_new();
		if (res == NULL) {
			json_object_unref(step);
			return NULL;
		}
		action = sdt_ops_verify_action("stepped-down", res);
		json_object_set_string_member(step, "id", id);
		json_object_set_string_member(step, "decision", "step-down");
		json_object_set_string_member(step, "reason", r->reason);
		json_array_add_object_element(p->steps, step);
		g_free(p->id);
		p->id = g_strdup(r->next_id);
		p->step++;
		g_free(p->boot_id);
		p->boot_id = g_strdup(boot_now);
		p->attempts = 0;
		g_strfreev(p->tries);
		p->tries = g_new0(gchar *, 1);
		g_free(p->config_sha256);
		p->config_sha256 = sdt_config_writer_hash_config(writer);
		g_free(p->time);
		p->time = sdt_ops_verify_now_iso(ctx);
		if (!sdt_verify_pending_save(ctx, p, error))
			return NULL;
	} else {
		g_autoptr(GError) local = NULL;
		g_autoptr(JsonObject) res = sdt_config_writer_revert(writer, &local);
		if (res == NULL && !g_error_matches(local, SDT_ERROR, SDT_ERROR_NOT_FOUND)) {
			g_propagate_error(error, g_steal_pointer(&local));
			return NULL;
		}
		action = sdt_ops_verify_action(res != NULL ? "reverted" : "nothing-to-revert", res);
		if (!sdt_verify_pending_remove(ctx, error))
			return NULL;
	}
	json_object_set_object_member(out, "action", action);

	{
		g_autoptr(GError) local = NULL;
		g_autoptr(JsonObject) entry = json_object_new();
		g_autoptr(GList) names = json_object_get_members(out);
		for (GList *l = names; l != NULL; l = l->next) {
			if (g_strcmp0(l->data, "pending") != 0)
				json_object_set_member(
					entry,
					l->data,
					json_node_copy(json_object_get_member(out, l->data)));
		}
		if (!sdt_history_append(ctx, "verify", entry, &local))
			g_warning("%s", local->message);
	}
	node = json_node_new(JSON_NODE_OBJECT);
	json_node_take_object(node, g_steal_pointer(&out));
	return node;
}

void
sdt_ops_verify_add_status(SdtContext *ctx, JsonObject *status)
{
	g_autoptr(SdtVerifyPending) p = NULL;
	g_autoptr(GError) error = NULL;
	g_autoptr(JsonArray) history = NULL;
	JsonObject *last = NULL;

	if (sdt_verify_pending_load(ctx, &p, &error) && p != NULL) {
		JsonObject *o = json_object_new();
		json_object_set_string_member(o, "id", p->id);
		json_object_set_string_member(o, "original_id", p->original_id);
		json_object_set_int_member(o, "step", p->step);
		json_object_set_boolean_member(o, "trial", p->trial);
		json_object_set_int_member(o, "attempts", p->attempts);
		json_object_set_string_member(o, "since", p->time);
		json_object_set_object_member(status, "pending_verification", o);
	} else {
		json_object_set_null_member(status, "pending_verification");
		if (error != NULL)
			json_object_set_string_member(status,
						      "pending_verification_error",
						      error->message);
	}
	history = sdt_history_list(ctx, NULL);
	for (guint i = history != NULL ? json_array_get_length(history) : 0; i > 0; i--) {
		JsonNode *e = json_array_get_element(history, i - 1);
		JsonObject *o = JSON_NODE_HOLDS_OBJECT(e) ? json_node_get_object(e) : NULL;
		if (o != NULL &&
		    g_strcmp0(json_object_get_string_member_with_default(o, "kind", ""),
			      "verify") == 0) {
			last = o;
			break;
		}
	}
	if (last != NULL) {
		JsonObject *o = json_object_new();
		const gchar *members[] =
			{"id", "decision", "reason", "next_id", "time", "evidence"};
		for (guint i = 0; i < G_N_ELEMENTS(members); i++) {
			JsonNode *m = json_object_get_member(last, members[i]);
			if (m != NULL)
				json_object_set_member(o, members[i], json_node_copy(m));
		}
		json_object_set_object_member(status, "last_verification", o);
	} else {
		json_object_set_null_member(status, "last_verification");
	}
}
