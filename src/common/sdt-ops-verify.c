/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sdt-bench.h"
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
#include "sdt-soak.h"
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

/* a number member, or NAN */
static gdouble sdt_ops_verify_num(JsonObject *obj, const gchar *name);

/*
 * The figures of a benchmark result as the decision compares them: {test:
 * {median, spread, unit}}, IOPS for the random tests and MB/s for the others;
 * the spread is the test's 95% confidence half-width (ci_percent of the
 * figure).  A test without a known spread is left out.  NULL when none is left.
 */
static JsonObject *
sdt_ops_verify_bench_figures(JsonObject *bench)
{
	JsonNode *tn = json_object_get_member(bench, "tests");
	JsonArray *tests = tn != NULL && JSON_NODE_HOLDS_ARRAY(tn) ? json_node_get_array(tn) : NULL;
	g_autoptr(JsonObject) figures = json_object_new();

	for (guint i = 0; tests != NULL && i < json_array_get_length(tests); i++) {
		JsonNode *e = json_array_get_element(tests, i);
		JsonObject *t = JSON_NODE_HOLDS_OBJECT(e) ? json_node_get_object(e) : NULL;
		const gchar *name =
			t != NULL ? json_object_get_string_member_with_default(t, "name", NULL)
				  : NULL;
		gboolean iops = name != NULL && g_str_has_prefix(name, "rand-");
		gdouble value = t != NULL ? sdt_ops_verify_num(t, iops ? "iops" : "mb_s") : NAN;
		gdouble ci = t != NULL ? sdt_ops_verify_num(t, "ci_percent") : NAN;
		JsonObject *f;

		if (name == NULL || !(value >= 0) || !(ci >= 0))
			continue;
		f = json_object_new();
		json_object_set_double_member(f, "median", value);
		json_object_set_double_member(f, "spread", value * ci / 100.0);
		json_object_set_string_member(f, "unit", iops ? "IOPS" : "MB/s");
		json_object_set_object_member(figures, name, f);
	}
	return json_object_get_size(figures) > 0 ? g_steal_pointer(&figures) : NULL;
}

/* a benchmark result measured on the SD card itself (one without stand_in is) */
static gboolean
sdt_ops_verify_on_card(JsonObject *bench)
{
	JsonNode *tn = json_object_get_member(bench, "target");
	JsonObject *target =
		tn != NULL && JSON_NODE_HOLDS_OBJECT(tn) ? json_node_get_object(tn) : NULL;
	JsonNode *si = target != NULL ? json_object_get_member(target, "stand_in") : NULL;

	if (si != NULL && JSON_NODE_HOLDS_VALUE(si) &&
	    json_node_get_value_type(si) == G_TYPE_BOOLEAN)
		return !json_node_get_boolean(si);
	return TRUE;
}

/* a history entry of a benchmark of the SD card itself */
static gboolean
sdt_ops_verify_is_card_bench(JsonObject *e)
{
	return g_strcmp0(json_object_get_string_member_with_default(e, "kind", ""), "bench") == 0 &&
	       sdt_ops_verify_on_card(e);
}

/*
 * The figures of the last benchmark of the card itself in the history taken
 * at or before @until (ISO 8601; NULL: any), or NULL when there is none.
 */
static JsonObject *
sdt_ops_verify_last_card_bench(SdtContext *ctx, const gchar *until)
{
	g_autoptr(JsonArray) history = sdt_history_list(ctx, NULL);
	g_autoptr(GDateTime) until_dt =
		until != NULL ? g_date_time_new_from_iso8601(until, NULL) : NULL;

	if (until != NULL && until_dt == NULL)
		return NULL;
	for (guint i = history != NULL ? json_array_get_length(history) : 0; i > 0; i--) {
		JsonNode *n = json_array_get_element(history, i - 1);
		JsonObject *e = JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
		JsonObject *figures;

		if (e == NULL || !sdt_ops_verify_is_card_bench(e))
			continue;
		if (until_dt != NULL) {
			g_autoptr(GDateTime) t = g_date_time_new_from_iso8601(
				json_object_get_string_member_with_default(e, "time", ""),
				NULL);
			if (t == NULL || g_date_time_compare(t, until_dt) > 0)
				continue;
		}
		figures = sdt_ops_verify_bench_figures(e);
		if (figures != NULL)
			return figures;
	}
	return NULL;
}

/* adds a sentence to the "warnings" of a result */
static void
sdt_ops_verify_add_warning(JsonObject *res, const gchar *text)
{
	JsonNode *n = json_object_get_member(res, "warnings");
	if (n == NULL || !JSON_NODE_HOLDS_ARRAY(n)) {
		json_object_set_array_member(res, "warnings", json_array_new());
		n = json_object_get_member(res, "warnings");
	}
	json_array_add_string_element(json_node_get_array(n), text);
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
	/* the figures to compare with after the restart; they stay through step downs */
	p->before = sdt_ops_verify_last_card_bench(ctx, NULL);
	if (p->before == NULL)
		sdt_ops_verify_add_warning(
			apply_result,
			_("There is no benchmark of the SD card from before this change, so "
			  "the verification after the restart cannot show that it helped and "
			  "will undo it: revert, run “sdtunerctl bench”, then apply again."));
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

/* the time bound of the gathering: a thread that cancels it at the deadline */
typedef struct {
	GMutex lock;
	GCond cond;
	gboolean done;
	gboolean timed_out;
	gint64 deadline; /* monotonic µs */
	GCancellable *cancellable;
} SdtOpsVerifyWatchdog;

static gpointer
sdt_ops_verify_watchdog_thread(gpointer data)
{
	SdtOpsVerifyWatchdog *w = data;

	g_mutex_lock(&w->lock);
	while (!w->done) {
		if (!g_cond_wait_until(&w->cond, &w->lock, w->deadline) && !w->done) {
			w->timed_out = TRUE;
			g_cancellable_cancel(w->cancellable);
			break;
		}
	}
	g_mutex_unlock(&w->lock);
	return NULL;
}

static void
sdt_ops_verify_forward_cancel(GCancellable *outer, gpointer inner)
{
	g_cancellable_cancel(inner);
}

/*
 * Runs the benchmark (standard profile) and the soak test on the card for
 * the decision.  Returns FALSE only when @cancellable was cancelled (the try
 * stays counted as interrupted); any other failure, the time bound included,
 * is the decision's "could not run" (*@why).
 */
static gboolean
sdt_ops_verify_gather(SdtContext *ctx,
		      const SdtOpsVerifyOptions *options,
		      JsonObject **after,
		      JsonObject **soak,
		      gchar **why,
		      GCancellable *cancellable,
		      GError **error)
{
	g_autoptr(GCancellable) gather = g_cancellable_new();
	g_autoptr(GError) local = NULL;
	g_autoptr(JsonNode) bench = NULL;
	g_autoptr(JsonNode) soak_node = NULL;
	SdtOpsVerifyWatchdog w = {0};
	GThread *thread;
	gulong handler = 0;
	gdouble max_seconds =
		options->max_seconds > 0 ? options->max_seconds : SDT_OPS_VERIFY_MAX_SECONDS;
	gdouble soak_seconds =
		options->soak_seconds >= 0 ? options->soak_seconds : SDT_SOAK_DEFAULT_SECONDS;

	g_mutex_init(&w.lock);
	g_cond_init(&w.cond);
	w.deadline = g_get_monotonic_time() + (gint64) (max_seconds * G_USEC_PER_SEC);
	w.cancellable = gather;
	if (cancellable != NULL)
		handler = g_cancellable_connect(cancellable,
						G_CALLBACK(sdt_ops_verify_forward_cancel),
						gather,
						NULL);
	thread = g_thread_new("sdt-verify-bound", sdt_ops_verify_watchdog_thread, &w);

	bench = sdt_ops_bench(ctx, "standard", NULL, NULL, NULL, gather, &local);
	if (bench != NULL) {
		JsonObject *b = json_node_get_object(bench);
		/* a simulated board's stand-in says nothing about the card */
		*after = sdt_ops_verify_on_card(b) ? sdt_ops_verify_bench_figures(b) : NULL;
		soak_node = sdt_ops_soak(ctx,
					 NULL,
					 SDT_SOAK_DEFAULT_SIZE,
					 soak_seconds,
					 NULL,
					 NULL,
					 gather,
					 &local);
		if (soak_node != NULL)
			*soak = json_object_ref(
				json_object_get_object_member(json_node_get_object(soak_node),
							      "soak"));
	}

	g_mutex_lock(&w.lock);
	w.done = TRUE;
	g_cond_signal(&w.cond);
	g_mutex_unlock(&w.lock);
	g_thread_join(thread);
	if (cancellable != NULL)
		g_cancellable_disconnect(cancellable, handler);
	g_mutex_clear(&w.lock);
	g_cond_clear(&w.cond);

	if (local == NULL)
		return TRUE;
	if (g_cancellable_is_cancelled(cancellable)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_CANCELLED,
				    _("Verification was stopped before it decided; it counts as an "
				      "interrupted try."));
		return FALSE;
	}
	if (w.timed_out)
		*why = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
						   "The benchmark and the soak test took longer "
						   "than %u minute",
						   "The benchmark and the soak test took longer "
						   "than %u minutes",
						   (guint) ceil(max_seconds / 60)),
				       (guint) ceil(max_seconds / 60));
	else
		*why = g_strdup(local->message);
	return TRUE;
}

JsonNode *
sdt_ops_verify(SdtContext *ctx,
	       const SdtOpsVerifyOptions *options,
	       GCancellable *cancellable,
	       GError **error)
{
	g_autoptr(SdtVerifyPending) p = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(JsonObject) out = json_object_new();
	g_autoptr(JsonObject) evidence = NULL;
	g_autoptr(JsonObject) before = NULL;
	g_autoptr(JsonObject) after = NULL;
	g_autoptr(JsonObject) soak = NULL;
	g_autofree gchar *why = NULL;
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
	/* the results of the soak test and the benchmark, when the decision rests on
	 * them: a failure to get them here is an interrupted try, counted above */
	before = p->before != NULL ? json_object_ref(p->before) : NULL;
	if (before == NULL)
		/* a change recorded before the figures were kept with it */
		before = sdt_ops_verify_last_card_bench(ctx, p->time);
	if (options->evidence_path != NULL && facts.attempts < SDT_VERIFY_MAX_TRIES) {
		JsonObject *b;
		evidence = sdt_ops_verify_read_evidence(options->evidence_path, error);
		if (evidence == NULL) {
			sdt_verify_log_clear(&log);
			return NULL;
		}
		b = sdt_ops_verify_obj(evidence, "before");
		if (b != NULL) {
			g_clear_pointer(&before, json_object_unref);
			before = json_object_ref(b);
		}
		if (sdt_ops_verify_obj(evidence, "after") != NULL)
			after = json_object_ref(sdt_ops_verify_obj(evidence, "after"));
		if (sdt_ops_verify_obj(evidence, "soak") != NULL)
			soak = json_object_ref(sdt_ops_verify_obj(evidence, "soak"));
	} else if (options->evidence_path == NULL && sdt_verify_evidence_needed(&facts)) {
		if (before == NULL) {
			/* nothing to compare with: no benchmark or soak test is worth running */
			facts.no_before = TRUE;
		} else if (!sdt_ops_verify_gather(ctx,
						  options,
						  &after,
						  &soak,
						  &why,
						  cancellable,
						  error)) {
			sdt_verify_log_clear(&log);
			return NULL;
		}
		facts.evidence_error = why;
	}
	if (soak != NULL)
		sdt_ops_verify_soak(&facts.soak, soak);
	figures = sdt_ops_verify_figures(before, after);
	facts.figures = (const SdtVerifyFigure *) (gpointer) figures->data;
	facts.n_figures = figures->len;

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
