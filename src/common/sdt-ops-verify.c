/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>

#include "sdt-error.h"
#include "sdt-history.h"
#include "sdt-kmsg.h"
#include "sdt-ops-facts.h"
#include "sdt-ops-verify-private.h"

/* `verify`: after a reboot, decide on the pending change and act (keep, step down, undo) */

gchar *
sdt_ops_verify_stage_describe(SdtOpsVerifyStage stage, gdouble fraction)
{
	guint percent = (guint) (CLAMP(fraction, 0.0, 1.0) * 100 + 0.5);

	switch (stage) {
	case SDT_OPS_VERIFY_STAGE_LOG:
		return g_strdup(_("Checking the kernel log and the SD bus since the restart…"));
	case SDT_OPS_VERIFY_STAGE_BENCHMARK:
		/* Translators: a percentage; %% is the percent sign */
		return g_strdup_printf(_("Benchmark: %u %% done"), percent);
	case SDT_OPS_VERIFY_STAGE_SOAK:
	default:
		/* Translators: a percentage; %% is the percent sign */
		return g_strdup_printf(_("Soak test: %u %% done"), percent);
	}
}

static void
sdt_ops_verify_progress(const SdtOpsVerifyOptions *options,
			SdtOpsVerifyStage stage,
			gdouble fraction)
{
	if (options->progress != NULL)
		options->progress(stage, fraction, options->progress_data);
}

static JsonArray *
sdt_ops_verify_strings(GPtrArray *strings)
{
	JsonArray *array = json_array_new();
	for (guint i = 0; i < strings->len; i++)
		json_array_add_string_element(array, g_ptr_array_index(strings, i));
	return array;
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

/* nothing pending: nothing to decide */
static JsonNode *
sdt_ops_verify_nothing_pending(void)
{
	JsonObject *out = json_object_new();
	JsonNode *node = json_node_new(JSON_NODE_OBJECT);

	json_object_set_boolean_member(out, "pending", FALSE);
	json_object_set_null_member(out, "decision");
	json_object_set_string_member(out, "reason", _("No change is waiting to be verified."));
	json_node_take_object(node, out);
	return node;
}

/* a new boot: count the try and make it durable before anything can hang */
static gboolean
sdt_ops_verify_count_try(SdtContext *ctx,
			 SdtVerifyPending *p,
			 const gchar *boot_now,
			 GError **error)
{
	guint n;

	if (boot_now == NULL ||
	    (p->boot_id != NULL && g_ascii_strcasecmp(p->boot_id, boot_now) == 0) ||
	    p->attempts >= SDT_VERIFY_MAX_TRIES)
		return TRUE;
	n = g_strv_length(p->tries);
	p->tries = g_renew(gchar *, p->tries, n + 2);
	p->tries[n] = g_strdup(boot_now);
	p->tries[n + 1] = NULL;
	p->attempts++;
	return sdt_verify_pending_save(ctx, p, error);
}

/* took effect: the clock or the queueing state this boot runs with */
static void
sdt_ops_verify_bus_facts(SdtContext *ctx, SdtConfigWriter *writer, SdtVerifyFacts *facts)
{
	g_autoptr(SdtInfo) info = sdt_info_collect(ctx, NULL);
	g_autoptr(SdtConfigTxt) cfg = sdt_config_writer_load(writer, NULL, NULL);
	SdtRecommendFacts rf;

	facts->observed_cqe = SDT_CQE_UNKNOWN;
	if (info != NULL) {
		sdt_ops_config_facts(&rf, info, cfg);
		facts->core_clock_hz = (guint64) sdt_recommend_core_clock_mhz(&rf) * SDT_MHZ;
		facts->observed_clock_hz =
			rf.actual_clock_hz > 0 ? rf.actual_clock_hz : rf.log_overclock_hz;
		facts->observed_cqe = info->bus.cqe;
	}
	if (facts->change.kind == SDT_VERIFY_CHANGE_OVERCLOCK)
		facts->expected_clock_hz =
			sdt_recommend_sdhost_clock_hz(facts->core_clock_hz,
						      facts->change.overclock_mhz);
	facts->expected_cqe = sdt_verify_change_expected_cqe(&facts->change);
}

/* the facts of this boot: the pending change, the bus, the kernel log, config.txt */
static void
sdt_ops_verify_boot_facts(SdtContext *ctx,
			  SdtConfigWriter *writer,
			  const SdtVerifyPending *p,
			  const gchar *boot_now,
			  SdtVerifyLog *log,
			  SdtVerifyFacts *facts)
{
	g_autofree gchar *hash_now = NULL;
	g_autofree gchar *kmsg = NULL;
	gsize kmsg_len = 0;

	facts->id = p->id;
	sdt_verify_change_parse(p->id, &facts->change);
	facts->step = p->step;
	facts->trial = p->trial;
	facts->boot_id_then = p->boot_id;
	facts->boot_id_now = boot_now;
	facts->soak.first_bad_offset = -1;
	sdt_ops_verify_bus_facts(ctx, writer, facts);
	kmsg = sdt_kmsg_read(ctx, &kmsg_len, NULL);
	if (kmsg != NULL)
		sdt_verify_log_scan(log, kmsg, kmsg_len);
	facts->tryboot_active = sdt_ops_config_tryboot_active(ctx);
	hash_now = sdt_config_writer_hash_config(writer);
	facts->config_edited = p->config_sha256 != NULL && hash_now != NULL &&
			       g_strcmp0(p->config_sha256, hash_now) != 0;
}

/* the decision and its evidence, as the result and the history show them */
static JsonObject *
sdt_ops_verify_result(const SdtVerifyPending *p,
		      const SdtVerifyFacts *facts,
		      const SdtVerifyResult *r)
{
	JsonObject *out = json_object_new();

	json_object_set_boolean_member(out, "pending", TRUE);
	json_object_set_string_member(out, "id", p->id);
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
	json_object_set_object_member(out, "evidence", sdt_ops_verify_evidence_json(facts));
	return out;
}

/* keep: a trial goes into config.txt for good, tryboot.txt goes */
static JsonObject *
sdt_ops_verify_keep(SdtContext *ctx,
		    SdtConfigWriter *writer,
		    const SdtVerifyPending *p,
		    GError **error)
{
	g_autoptr(JsonObject) cancel = NULL;
	g_autoptr(JsonObject) res = NULL;

	if (p->trial) {
		cancel = sdt_config_writer_revert(writer, error);
		if (cancel == NULL)
			return NULL;
		res = sdt_ops_verify_apply(writer, p, p->id, FALSE, error);
		if (res == NULL)
			return NULL;
	}
	if (!sdt_verify_pending_remove(ctx, error))
		return NULL;
	return sdt_ops_verify_action("kept", res);
}

/* step down: the next divisor step is written and becomes the pending change */
static JsonObject *
sdt_ops_verify_step_down(SdtContext *ctx,
			 SdtConfigWriter *writer,
			 SdtVerifyPending *p,
			 const SdtVerifyResult *r,
			 const gchar *boot_now,
			 GError **error)
{
	g_autoptr(JsonObject) res = sdt_ops_verify_apply(writer, p, r->next_id, p->trial, error);
	JsonObject *step;

	if (res == NULL)
		return NULL;
	step = json_object_new();
	json_object_set_string_member(step, "id", p->id);
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
	return sdt_ops_verify_action("stepped-down", res);
}

/* undo: SD Tuner's lines go (nothing else), and the pending change with them */
static JsonObject *
sdt_ops_verify_undo(SdtContext *ctx, SdtConfigWriter *writer, GError **error)
{
	g_autoptr(GError) local = NULL;
	g_autoptr(JsonObject) res = sdt_config_writer_revert(writer, &local);

	if (res == NULL && !g_error_matches(local, SDT_ERROR, SDT_ERROR_NOT_FOUND)) {
		g_propagate_error(error, g_steal_pointer(&local));
		return NULL;
	}
	if (!sdt_verify_pending_remove(ctx, error))
		return NULL;
	return sdt_ops_verify_action(res != NULL ? "reverted" : "nothing-to-revert", res);
}

/* the result without "pending" goes into the history as "verify" */
static void
sdt_ops_verify_history(SdtContext *ctx, JsonObject *out)
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
	sdt_ops_config_history_mark_boot(ctx, entry);
	if (!sdt_history_append(ctx, "verify", entry, &local))
		g_warning("%s", local->message);
}

/* carries out decision @r on @out: keep, step down or undo, recorded in the history */
static gboolean
sdt_ops_verify_act(SdtContext *ctx,
		   SdtConfigWriter *writer,
		   SdtVerifyPending *p,
		   const SdtVerifyResult *r,
		   const gchar *boot_now,
		   JsonObject *out,
		   GError **error)
{
	JsonObject *action;

	if (r->decision == SDT_VERIFY_WAIT) {
		json_object_set_null_member(out, "action");
		return TRUE;
	}
	if (r->decision == SDT_VERIFY_KEEP)
		action = sdt_ops_verify_keep(ctx, writer, p, error);
	else if (r->decision == SDT_VERIFY_STEP_DOWN)
		action = sdt_ops_verify_step_down(ctx, writer, p, r, boot_now, error);
	else
		action = sdt_ops_verify_undo(ctx, writer, error);
	if (action == NULL)
		return FALSE;
	json_object_set_object_member(out, "action", action);
	sdt_ops_verify_history(ctx, out);
	return TRUE;
}

/*
 * Gathers the facts and the evidence, and decides; NULL with @error if it
 * cannot.  @attempts: the verifications begun before this one and never finished.
 */
static SdtVerifyResult *
sdt_ops_verify_decide(SdtContext *ctx,
		      const SdtOpsVerifyOptions *options,
		      SdtConfigWriter *writer,
		      SdtVerifyPending *p,
		      const gchar *boot_now,
		      guint attempts,
		      JsonObject **out,
		      GCancellable *cancellable,
		      GError **error)
{
	SdtVerifyLog log;
	SdtVerifyFacts facts = {0};
	SdtOpsVerifyEvidence ev = {0};
	SdtVerifyResult *r = NULL;

	sdt_verify_log_init(&log);
	facts.log = &log;
	facts.attempts = attempts;
	sdt_ops_verify_progress(options, SDT_OPS_VERIFY_STAGE_LOG, 0);
	sdt_ops_verify_boot_facts(ctx, writer, p, boot_now, &log, &facts);
	/* the results of the soak test and the benchmark, when the decision rests on
	 * them: a failure to get them here is an interrupted try, counted before */
	if (sdt_ops_verify_get_evidence(ctx, options, p, &facts, &ev, cancellable, error)) {
		r = sdt_verify_decide(&facts);
		*out = sdt_ops_verify_result(p, &facts, r);
	}
	sdt_ops_verify_evidence_clear(&ev);
	sdt_verify_log_clear(&log);
	return r;
}

JsonNode *
sdt_ops_verify(SdtContext *ctx,
	       const SdtOpsVerifyOptions *options,
	       GCancellable *cancellable,
	       GError **error)
{
	g_autoptr(SdtVerifyPending) p = NULL;
	g_autoptr(SdtConfigWriter) writer = NULL;
	g_autoptr(SdtVerifyResult) r = NULL;
	g_autoptr(JsonObject) out = NULL;
	g_autofree gchar *boot_now = NULL;
	guint attempts;
	JsonNode *node;

	if (!sdt_verify_pending_load(ctx, &p, error)) {
		g_prefix_error(error,
			       _("SD Tuner cannot verify: delete the file to stop verifying, "
				 "then revert by hand if needed: "));
		return NULL;
	}
	if (p == NULL)
		return sdt_ops_verify_nothing_pending();
	writer = sdt_config_writer_new(ctx, error);
	if (writer == NULL)
		return NULL;
	boot_now = sdt_context_get_boot_id(ctx, NULL);
	attempts = p->attempts;
	if (!sdt_ops_verify_count_try(ctx, p, boot_now, error))
		return NULL;
	r = sdt_ops_verify_decide(ctx,
				  options,
				  writer,
				  p,
				  boot_now,
				  attempts,
				  &out,
				  cancellable,
				  error);
	if (r == NULL)
		return NULL;
	if (!sdt_ops_verify_act(ctx, writer, p, r, boot_now, out, error))
		return NULL;
	node = json_node_new(JSON_NODE_OBJECT);
	json_node_take_object(node, g_steal_pointer(&out));
	return node;
}
