/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <inttypes.h>

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-json.h"
#include "sdt-kmsg.h"
#include "sdt-recommend.h"
#include "sdt-state-lock.h"
#include "sdt-verify.h"

#define SDT_VERIFY_PENDING     "pending.json"
#define SDT_VERIFY_PENDING_MAX (256 * 1024)
#define SDT_VERIFY_LOG_LINES   20
#define SDT_VERIFY_MHZ         G_GUINT64_CONSTANT(1000000)
/* the card's own high-speed clock: stepping down to it is undoing the overclock */
#define SDT_VERIFY_BASE_HZ (50 * SDT_VERIFY_MHZ)

const gchar *
sdt_verify_decision_to_string(SdtVerifyDecision decision)
{
	switch (decision) {
	case SDT_VERIFY_WAIT:
		return "wait";
	case SDT_VERIFY_KEEP:
		return "keep";
	case SDT_VERIFY_STEP_DOWN:
		return "step-down";
	case SDT_VERIFY_UNDO:
	default:
		return "undo";
	}
}

/* the log ---------------------------------------------------------------- */

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

/* the decision ------------------------------------------------------------ */

void
sdt_verify_result_free(SdtVerifyResult *result)
{
	if (result == NULL)
		return;
	g_free(result->reason);
	g_free(result->next_id);
	g_ptr_array_unref(result->improved);
	g_ptr_array_unref(result->worse);
	g_free(result);
}

static guint
sdt_verify_overclock_mhz(const gchar *id)
{
	const gchar *num;
	if (id == NULL || !g_str_has_prefix(id, "sd-overclock-"))
		return 0;
	num = id + strlen("sd-overclock-");
	if (num[0] == '\0' || strlen(num) > 3 || strspn(num, "0123456789") != strlen(num))
		return 0;
	return (guint) atoi(num);
}

guint
sdt_verify_next_step_mhz(guint64 core_hz, guint mhz)
{
	guint64 now = sdt_recommend_sdhost_clock_hz(core_hz, mhz);
	guint64 n;
	guint64 next;

	if (now == 0)
		return 0;
	n = core_hz / now;
	/* core / n rounds down: the divisor is the one that gives exactly @now */
	while (n > 1 && core_hz / (n - 1) <= now)
		n--;
	next = core_hz / (n + 1);
	if (next <= SDT_VERIFY_BASE_HZ)
		return 0;
	return (guint) (next / SDT_VERIFY_MHZ);
}

static gchar *
sdt_verify_mhz_string(guint64 hz)
{
	return g_strdup_printf("%.1f", (gdouble) hz / 1e6);
}

static SdtVerifyResult *
sdt_verify_result_new(SdtVerifyDecision decision, gchar *reason)
{
	SdtVerifyResult *r = g_new0(SdtVerifyResult, 1);
	r->decision = decision;
	r->reason = reason;
	r->improved = g_ptr_array_new_with_free_func(g_free);
	r->worse = g_ptr_array_new_with_free_func(g_free);
	return r;
}

/* "seq-write: 20.1 → 38.9 MB/s (+94%, spread ±0.4/±0.6)" */
static gchar *
sdt_verify_figure_text(const SdtVerifyFigure *f)
{
	gdouble pct = f->before > 0 ? (f->after - f->before) * 100.0 / f->before : 0;
	return g_strdup_printf("%s: %.1f → %.1f %s (%+.0f%%, ±%.1f/±%.1f)",
			       f->name,
			       f->before,
			       f->after,
			       f->unit != NULL ? f->unit : "",
			       pct,
			       f->before_spread,
			       f->after_spread);
}

static gboolean
sdt_verify_figure_valid(const SdtVerifyFigure *f)
{
	return f->name != NULL && isfinite(f->before) && isfinite(f->after) &&
	       isfinite(f->before_spread) && isfinite(f->after_spread) && f->before >= 0 &&
	       f->after >= 0 && f->before_spread >= 0 && f->after_spread >= 0;
}

/* errors at an overclock: the next step while there is one, else undo */
static SdtVerifyResult *
sdt_verify_errors(const SdtVerifyFacts *facts, const gchar *what)
{
	guint mhz = sdt_verify_overclock_mhz(facts->id);
	guint next = mhz > 0 && facts->step < SDT_VERIFY_MAX_STEPS
			     ? sdt_verify_next_step_mhz(facts->core_clock_hz, mhz)
			     : 0;
	SdtVerifyResult *r;

	if (next > 0) {
		g_autofree gchar *next_hz = sdt_verify_mhz_string(
			sdt_recommend_sdhost_clock_hz(facts->core_clock_hz, next));
		r = sdt_verify_result_new(SDT_VERIFY_STEP_DOWN, NULL);
		r->next_id = g_strdup_printf("sd-overclock-%u", next);
		/* Translators: the first %s is what the kernel log showed, e.g. “reducing
		 * overclock due to errors”; then the id to try next and its clock in MHz */
		r->reason = g_strdup_printf(_("The kernel log shows %s at this clock, so SD Tuner "
					      "prepared the next slower step, %s (%s MHz): restart "
					      "the Pi to try it."),
					    what,
					    r->next_id,
					    next_hz);
		return r;
	}
	if (mhz > 0)
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup_printf(_("The kernel log shows %s even at the lowest step SD "
					  "Tuner tries, so the change was undone."),
					what));
	return sdt_verify_result_new(SDT_VERIFY_UNDO,
				     g_strdup_printf(_("The kernel log shows %s with this "
						       "setting, so the change was undone."),
						     what));
}

static gchar *
sdt_verify_log_summary(const SdtVerifyLog *log)
{
	g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func(g_free);
	if (log->overclock_reduced > 0)
		g_ptr_array_add(parts, g_strdup("“reducing overclock due to errors”"));
	if (log->overclock_cancelled > 0)
		g_ptr_array_add(parts, g_strdup("“cancelling overclock”"));
	if (log->cqe_recovery > 0)
		g_ptr_array_add(parts, g_strdup("“running CQE recovery”"));
	if (log->timeouts > 0)
		g_ptr_array_add(parts,
				g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
							    "%u time-out",
							    "%u time-outs",
							    log->timeouts),
						log->timeouts));
	if (log->io_errors > 0)
		g_ptr_array_add(parts,
				g_strdup_printf(g_dngettext(GETTEXT_PACKAGE,
							    "%u I/O error",
							    "%u I/O errors",
							    log->io_errors),
						log->io_errors));
	g_ptr_array_add(parts, NULL);
	return g_strjoinv(", ", (gchar **) parts->pdata);
}

static SdtVerifyResult *
sdt_verify_decide_full(const SdtVerifyFacts *facts, gboolean *at_evidence)
{
	gboolean overclock = sdt_verify_overclock_mhz(facts->id) > 0;
	gboolean cqe = facts->id != NULL && g_str_has_prefix(facts->id, "sd-cqe-");
	SdtVerifyResult *r;

	/* 1. not restarted yet: nothing to decide */
	if (facts->boot_id_then != NULL && facts->boot_id_now != NULL &&
	    g_ascii_strcasecmp(facts->boot_id_then, facts->boot_id_now) == 0)
		return sdt_verify_result_new(
			SDT_VERIFY_WAIT,
			g_strdup(_("The Pi has not restarted since the change: restart it "
				   "to verify the change.")));
	if (facts->boot_id_now == NULL)
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup(_("Verification could not run: the boot id of this system "
				   "cannot be read, so SD Tuner cannot tell whether the Pi "
				   "restarted; the change was undone.")));

	/* 2. a crash, a power loss or a reboot loop during verification */
	if (facts->attempts >= SDT_VERIFY_MAX_TRIES) {
		r = sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup_printf(
				g_dngettext(GETTEXT_PACKAGE,
					    "Verification was interrupted %u time "
					    "(a crash, a power loss or a reboot loop), so "
					    "the change was undone and SD Tuner stops trying.",
					    "Verification was interrupted %u times "
					    "(a crash, a power loss or a reboot loop), so "
					    "the change was undone and SD Tuner stops trying.",
					    facts->attempts),
				facts->attempts));
		r->stop = TRUE;
		return r;
	}

	/* 3. somebody else changed the file meanwhile */
	if (facts->config_edited) {
		r = sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup(_("config.txt was edited by hand while SD Tuner's change was "
				   "pending, so SD Tuner cannot vouch for what this boot ran: "
				   "it took out only its own lines and left every edit that is "
				   "not its own.")));
		r->foreign_change = TRUE;
		return r;
	}

	/* 4. a trial that did not boot: the firmware fell back to config.txt */
	if (facts->trial && !facts->tryboot_active)
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup(_("This boot did not use the trial: the trial boot failed "
				   "and the firmware started the old config.txt, or the Pi was "
				   "restarted without “reboot '0 tryboot'”. The trial was "
				   "cancelled.")));

	/* 5. the data: any mismatch is the end, whatever else is true */
	if (facts->soak.ran && facts->soak.mismatches > 0) {
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup_printf(
				_("The soak test read back wrong data: %" PRIu64
				  " bytes differed, the first at byte offset %" PRId64
				  " of the test file. The card does not store data correctly "
				  "with this setting; the change was undone."),
				(uint64_t) facts->soak.mismatches,
				(int64_t) facts->soak.first_bad_offset));
	}

	/* 6. errors in the kernel log since boot */
	if (facts->log != NULL && sdt_verify_log_errors(facts->log) > 0) {
		g_autofree gchar *what = sdt_verify_log_summary(facts->log);
		if (overclock && facts->log->cqe_recovery == 0)
			return sdt_verify_errors(facts, what);
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup_printf(_("The kernel log shows %s with this "
					  "setting, so the change was undone."),
					what));
	}

	/* 7. took effect */
	if (overclock) {
		g_autofree gchar *want = sdt_verify_mhz_string(facts->expected_clock_hz);
		g_autofree gchar *seen = sdt_verify_mhz_string(facts->observed_clock_hz);
		if (facts->expected_clock_hz == 0 || facts->observed_clock_hz == 0)
			return sdt_verify_result_new(
				SDT_VERIFY_UNDO,
				g_strdup(_("Verification could not run: the SD clock cannot be "
					   "read (no debugfs “ios” and no “overclocking to” line), "
					   "so the change was undone.")));
		if (facts->observed_clock_hz + 1000 < facts->expected_clock_hz ||
		    facts->observed_clock_hz > facts->expected_clock_hz + 1000)
			/* Translators: clocks in MHz */
			return sdt_verify_result_new(
				SDT_VERIFY_UNDO,
				g_strdup_printf(_("The change did not take effect: the SD clock is "
						  "%s MHz, not the expected %s MHz; the change was "
						  "undone."),
						seen,
						want));
	} else if (cqe) {
		if (g_strcmp0(facts->expected_cqe, facts->observed_cqe) != 0)
			/* Translators: queueing states such as “enabled” and “off” */
			return sdt_verify_result_new(
				SDT_VERIFY_UNDO,
				g_strdup_printf(_("The change did not take effect: command "
						  "queueing is “%s”, not the expected “%s”; the "
						  "change was undone."),
						facts->observed_cqe != NULL ? facts->observed_cqe
									    : "unknown",
						facts->expected_cqe != NULL ? facts->expected_cqe
									    : "unknown"));
	} else {
		return sdt_verify_result_new(SDT_VERIFY_UNDO,
					     g_strdup(_("SD Tuner cannot verify this setting, so "
							"the change was undone.")));
	}

	/* 8. the soak test ran and checked every byte it wrote */
	*at_evidence = TRUE;
	if (facts->no_before)
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup(_("Verification could not run: there is no benchmark of the SD "
				   "card from before the change, so SD Tuner cannot show that it "
				   "helped; the change was undone.")));
	if (facts->evidence_error != NULL)
		/* Translators: %s is why the soak test or the benchmark failed */
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup_printf(_("Verification could not run: %s; the change was undone."),
					facts->evidence_error));
	if (!facts->soak.ran || facts->soak.bytes_written == 0 ||
	    facts->soak.bytes_checked < facts->soak.bytes_written)
		return sdt_verify_result_new(
			SDT_VERIFY_UNDO,
			g_strdup(_("Verification could not run: the soak test did not "
				   "check the data it wrote, so SD Tuner cannot show that the "
				   "card stores data correctly; the change was undone.")));

	/* 9. it helped: every figure compared with the combined spread */
	r = sdt_verify_result_new(SDT_VERIFY_KEEP, NULL);
	for (guint i = 0; i < facts->n_figures; i++) {
		const SdtVerifyFigure *f = &facts->figures[i];
		gdouble margin;
		if (!sdt_verify_figure_valid(f))
			continue;
		margin = f->before_spread + f->after_spread;
		if (f->after - f->before > margin)
			g_ptr_array_add(r->improved, sdt_verify_figure_text(f));
		else if (f->before - f->after > margin)
			g_ptr_array_add(r->worse, sdt_verify_figure_text(f));
	}
	if (r->worse->len > 0) {
		g_autofree gchar *list = NULL;
		g_ptr_array_add(r->worse, NULL);
		list = g_strjoinv("; ", (gchar **) r->worse->pdata);
		g_ptr_array_remove_index(r->worse, r->worse->len - 1);
		r->decision = SDT_VERIFY_UNDO;
		r->reason = g_strdup_printf(_("A figure got worse by more than its spread "
					      "(%s), so the change was undone."),
					    list);
		return r;
	}
	if (r->improved->len == 0) {
		r->decision = SDT_VERIFY_UNDO;
		r->reason = facts->n_figures == 0
				    ? g_strdup(_("Verification could not run: there is no "
						 "benchmark from before and after the change, so "
						 "SD Tuner cannot show that it helped; the change "
						 "was undone."))
				    : g_strdup(_("No figure improved by more than the combined "
						 "spread of the runs before and after, so the "
						 "change was undone."));
		return r;
	}
	{
		g_autofree gchar *list = NULL;
		g_ptr_array_add(r->improved, NULL);
		list = g_strjoinv("; ", (gchar **) r->improved->pdata);
		g_ptr_array_remove_index(r->improved, r->improved->len - 1);
		r->reason = g_strdup_printf(_("The change works: no errors, the soak test "
					      "checked every byte, and it is faster (%s). It "
					      "was kept."),
					    list);
	}
	return r;
}

SdtVerifyResult *
sdt_verify_decide(const SdtVerifyFacts *facts)
{
	gboolean at_evidence = FALSE;
	return sdt_verify_decide_full(facts, &at_evidence);
}

gboolean
sdt_verify_evidence_needed(const SdtVerifyFacts *facts)
{
	gboolean at_evidence = FALSE;
	g_autoptr(SdtVerifyResult) r = sdt_verify_decide_full(facts, &at_evidence);
	return at_evidence;
}

/* the pending state ------------------------------------------------------- */

gchar *
sdt_verify_setting_line(const gchar *id)
{
	guint mhz = sdt_verify_overclock_mhz(id);
	if (mhz > 0)
		return g_strdup_printf("dtparam=sd_overclock=%u", mhz);
	if (g_strcmp0(id, "sd-cqe-0") == 0 || g_strcmp0(id, "sd-cqe-1") == 0 ||
	    g_strcmp0(id, "sd-cqe-2") == 0)
		return g_strdup_printf("dtparam=sd_cqe=%s", id + strlen("sd-cqe-"));
	return NULL;
}

void
sdt_verify_pending_free(SdtVerifyPending *p)
{
	if (p == NULL)
		return;
	g_free(p->id);
	g_free(p->original_id);
	g_free(p->boot_id);
	g_strfreev(p->tries);
	g_free(p->time);
	g_free(p->config_sha256);
	g_clear_pointer(&p->before, json_object_unref);
	g_clear_pointer(&p->steps, json_array_unref);
	g_free(p->filter);
	g_free(p);
}

static gboolean
sdt_verify_member(JsonObject *obj, const gchar *name, GType type, gboolean nullable, JsonNode **out)
{
	JsonNode *node = json_object_get_member(obj, name);
	*out = node;
	if (node == NULL)
		return FALSE;
	if (JSON_NODE_HOLDS_NULL(node))
		return nullable;
	if (type == JSON_TYPE_OBJECT)
		return JSON_NODE_HOLDS_OBJECT(node);
	if (type == JSON_TYPE_ARRAY)
		return JSON_NODE_HOLDS_ARRAY(node);
	return JSON_NODE_HOLDS_VALUE(node) && json_node_get_value_type(node) == type;
}

static gboolean
sdt_verify_id_valid(const gchar *id)
{
	gsize n = strlen(id);
	return n > 0 && n <= 64 && strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789-_.") == n &&
	       strstr(id, "..") == NULL;
}

SdtVerifyPending *
sdt_verify_pending_parse(const gchar *data, gsize len, GError **error)
{
	g_autoptr(JsonParser) parser = json_parser_new();
	g_autoptr(SdtVerifyPending) p = g_new0(SdtVerifyPending, 1);
	g_autoptr(GError) local = NULL;
	JsonObject *obj;
	JsonNode *n;
	const gchar *bad = NULL;

	if (!json_parser_load_from_data(parser, data, (gssize) len, &local)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("the pending change is not valid JSON: %s"),
			    local->message);
		return NULL;
	}
	if (!JSON_NODE_HOLDS_OBJECT(json_parser_get_root(parser))) {
		bad = "(root)";
		goto invalid;
	}
	obj = json_node_get_object(json_parser_get_root(parser));
	if (!sdt_verify_member(obj, "version", G_TYPE_INT64, FALSE, &n) ||
	    json_node_get_int(n) != 1) {
		bad = "version";
		goto invalid;
	}
	if (!sdt_verify_member(obj, "id", G_TYPE_STRING, FALSE, &n) ||
	    !sdt_verify_id_valid(json_node_get_string(n))) {
		bad = "id";
		goto invalid;
	}
	p->id = g_strdup(json_node_get_string(n));
	if (!sdt_verify_member(obj, "original_id", G_TYPE_STRING, FALSE, &n) ||
	    !sdt_verify_id_valid(json_node_get_string(n))) {
		bad = "original_id";
		goto invalid;
	}
	p->original_id = g_strdup(json_node_get_string(n));
	if (!sdt_verify_member(obj, "step", G_TYPE_INT64, FALSE, &n) || json_node_get_int(n) < 0 ||
	    json_node_get_int(n) > SDT_VERIFY_MAX_STEPS) {
		bad = "step";
		goto invalid;
	}
	p->step = (guint) json_node_get_int(n);
	if (!sdt_verify_member(obj, "trial", G_TYPE_BOOLEAN, FALSE, &n)) {
		bad = "trial";
		goto invalid;
	}
	p->trial = json_node_get_boolean(n);
	if (!sdt_verify_member(obj, "boot_id", G_TYPE_STRING, TRUE, &n)) {
		bad = "boot_id";
		goto invalid;
	}
	p->boot_id = JSON_NODE_HOLDS_NULL(n) ? NULL : g_strdup(json_node_get_string(n));
	if (!sdt_verify_member(obj, "attempts", G_TYPE_INT64, FALSE, &n) ||
	    json_node_get_int(n) < 0 || json_node_get_int(n) > 1000) {
		bad = "attempts";
		goto invalid;
	}
	p->attempts = (guint) json_node_get_int(n);
	if (!sdt_verify_member(obj, "tries", JSON_TYPE_ARRAY, FALSE, &n)) {
		bad = "tries";
		goto invalid;
	} else {
		JsonArray *a = json_node_get_array(n);
		guint len_a = json_array_get_length(a);
		p->tries = g_new0(gchar *, len_a + 1);
		for (guint i = 0; i < len_a; i++) {
			JsonNode *e = json_array_get_element(a, i);
			if (!JSON_NODE_HOLDS_VALUE(e) ||
			    json_node_get_value_type(e) != G_TYPE_STRING) {
				bad = "tries";
				goto invalid;
			}
			p->tries[i] = g_strdup(json_node_get_string(e));
		}
	}
	if (!sdt_verify_member(obj, "time", G_TYPE_STRING, FALSE, &n)) {
		bad = "time";
		goto invalid;
	}
	p->time = g_strdup(json_node_get_string(n));
	if (!sdt_verify_member(obj, "config_sha256", G_TYPE_STRING, TRUE, &n)) {
		bad = "config_sha256";
		goto invalid;
	}
	p->config_sha256 = JSON_NODE_HOLDS_NULL(n) ? NULL : g_strdup(json_node_get_string(n));
	if (!sdt_verify_member(obj, "before", JSON_TYPE_OBJECT, TRUE, &n)) {
		bad = "before";
		goto invalid;
	}
	if (!JSON_NODE_HOLDS_NULL(n))
		p->before = json_object_ref(json_node_get_object(n));
	if (!sdt_verify_member(obj, "steps", JSON_TYPE_ARRAY, FALSE, &n)) {
		bad = "steps";
		goto invalid;
	}
	p->steps = json_array_ref(json_node_get_array(n));
	if (!sdt_verify_member(obj, "filter", G_TYPE_STRING, FALSE, &n) ||
	    !g_str_has_prefix(json_node_get_string(n), "[") ||
	    strlen(json_node_get_string(n)) > 64) {
		bad = "filter";
		goto invalid;
	}
	p->filter = g_strdup(json_node_get_string(n));
	if (!sdt_verify_member(obj, "type_code", G_TYPE_INT64, FALSE, &n) ||
	    json_node_get_int(n) < -1 || json_node_get_int(n) > 0xff) {
		bad = "type_code";
		goto invalid;
	}
	p->type_code = (gint) json_node_get_int(n);
	if (!sdt_verify_member(obj, "replaces", G_TYPE_INT64, FALSE, &n) ||
	    json_node_get_int(n) < 0 || json_node_get_int(n) > 0xff) {
		bad = "replaces";
		goto invalid;
	}
	p->replaces = (guint) json_node_get_int(n);
	{
		g_autofree gchar *line = sdt_verify_setting_line(p->id);
		if (line == NULL) {
			bad = "id";
			goto invalid;
		}
	}
	return g_steal_pointer(&p);

invalid:
	/* Translators: %s is a JSON member name */
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_DATA,
		    _("the pending change is damaged: member “%s” is missing or of the wrong "
		      "type"),
		    bad);
	return NULL;
}

JsonObject *
sdt_verify_pending_to_json(const SdtVerifyPending *p)
{
	JsonObject *obj = json_object_new();
	JsonArray *tries = json_array_new();

	json_object_set_int_member(obj, "version", 1);
	json_object_set_string_member(obj, "id", p->id);
	json_object_set_string_member(obj, "original_id", p->original_id);
	json_object_set_int_member(obj, "step", p->step);
	json_object_set_boolean_member(obj, "trial", p->trial);
	if (p->boot_id != NULL)
		json_object_set_string_member(obj, "boot_id", p->boot_id);
	else
		json_object_set_null_member(obj, "boot_id");
	json_object_set_int_member(obj, "attempts", p->attempts);
	for (guint i = 0; p->tries != NULL && p->tries[i] != NULL; i++)
		json_array_add_string_element(tries, p->tries[i]);
	json_object_set_array_member(obj, "tries", tries);
	json_object_set_string_member(obj, "time", p->time != NULL ? p->time : "");
	if (p->config_sha256 != NULL)
		json_object_set_string_member(obj, "config_sha256", p->config_sha256);
	else
		json_object_set_null_member(obj, "config_sha256");
	if (p->before != NULL)
		json_object_set_object_member(obj, "before", json_object_ref(p->before));
	else
		json_object_set_null_member(obj, "before");
	json_object_set_array_member(obj,
				     "steps",
				     p->steps != NULL ? json_array_ref(p->steps)
						      : json_array_new());
	json_object_set_string_member(obj, "filter", p->filter != NULL ? p->filter : "");
	json_object_set_int_member(obj, "type_code", p->type_code);
	json_object_set_int_member(obj, "replaces", p->replaces);
	return obj;
}

static gchar *
sdt_verify_pending_path(SdtContext *ctx)
{
	g_autofree gchar *dir = sdt_context_get_state_dir(ctx);
	return g_build_filename(dir, SDT_VERIFY_PENDING, NULL);
}

gboolean
sdt_verify_pending_load(SdtContext *ctx, SdtVerifyPending **pending, GError **error)
{
	g_autofree gchar *path = sdt_verify_pending_path(ctx);
	g_autofree gchar *data = NULL;
	g_autoptr(GError) local = NULL;
	gsize len = 0;

	*pending = NULL;
	if (!sdt_file_read_bounded(path, SDT_VERIFY_PENDING_MAX, &data, &len, &local)) {
		if (g_error_matches(local, SDT_ERROR, SDT_ERROR_NOT_FOUND))
			return TRUE;
		g_propagate_prefixed_error(error, g_steal_pointer(&local), "%s: ", path);
		return FALSE;
	}
	*pending = sdt_verify_pending_parse(data, len, error);
	if (*pending == NULL) {
		g_prefix_error(error, "%s: ", path);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_verify_pending_save(SdtContext *ctx, const SdtVerifyPending *pending, GError **error)
{
	g_autofree gchar *dir = sdt_context_get_state_dir(ctx);
	g_autofree gchar *path = sdt_verify_pending_path(ctx);
	g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
	g_autofree gchar *text = NULL;
	gboolean ok;
	gint lock;

	if (g_mkdir_with_parents(dir, 0755) != 0)
		return sdt_error_set_from_errno(error, errno, "cannot create %s", dir);
	/* also removes what a run killed in the middle of this left (pending.json.XXXXXX) */
	lock = sdt_state_lock(dir, SDT_VERIFY_PENDING, error);
	if (lock < 0)
		return FALSE;
	json_node_take_object(node, sdt_verify_pending_to_json(pending));
	text = sdt_json_to_string(node, TRUE);
	ok = g_file_set_contents_full(path,
				      text,
				      -1,
				      G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
				      0600,
				      error);
	close(lock);
	return ok;
}

gboolean
sdt_verify_pending_remove(SdtContext *ctx, GError **error)
{
	g_autofree gchar *dir = sdt_context_get_state_dir(ctx);
	g_autofree gchar *path = sdt_verify_pending_path(ctx);
	gint lock;

	if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
		return TRUE;
	lock = sdt_state_lock(dir, SDT_VERIFY_PENDING, error);
	if (lock < 0)
		return FALSE;
	if (g_unlink(path) != 0 && errno != ENOENT) {
		gint errsv = errno;
		close(lock);
		return sdt_error_set_from_errno(error, errsv, "cannot remove %s", path);
	}
	close(lock);
	return TRUE;
}
