/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "sdt-config-txt.h"
#include "sdt-config-writer.h"
#include "sdt-ops.h"
#include "sdt-health-report.h"
#include "sdt-history-entry.h"
#include "sdt-history-report.h"
#include "sdt-info.h"
#include "sdt-recommend.h"
#include "sdt-status-report.h"
#include "sdt-verify-pending-state.h"
#include "sdt-verify.h"

G_BEGIN_DECLS

/*
 * What the operations of the config family (sdt-ops-info.c, sdt-ops-config.c,
 * sdt-ops-status.c, sdt-ops-verify.c) read from this system: the collected
 * facts (SdtInfo) and config.txt, turned into the typed facts the pure
 * decisions take (sdt-recommend, sdt-verify).  Private to src/ops (the family of
 * the ops files; tests/check-shape.py fails any other file that includes it).
 */

#define SDT_MHZ G_GUINT64_CONSTANT(1000000)

/* the revision-code type of the board, -1 if unknown */
gint sdt_ops_facts_type_code(const SdtInfo *info);

/* fills @facts from @info and @cfg (may be NULL); strings point into @info and @cfg */
void sdt_ops_facts_recommend(SdtRecommendFacts *facts, const SdtInfo *info, SdtConfigTxt *cfg);

/* config.txt of the context with its includes, or NULL with @error; its writer in @writer_out */
SdtConfigTxt *
sdt_ops_facts_load_config(SdtContext *ctx, SdtConfigWriter **writer_out, GError **error);

/* the id of SD Tuner's block if its filter reaches the board of @info, else NULL */
gchar *sdt_ops_facts_block_id_here(SdtConfigTxt *cfg, const SdtInfo *info);

/* this boot used tryboot.txt (/proc/device-tree/chosen/bootloader/tryboot = 1) */
gboolean sdt_ops_facts_tryboot_active(SdtContext *ctx);

/*
 * The typed facts for sdt_verify_status_decide() about the change @id on this
 * boot: its clock or queueing state, expected and observed.  The block is
 * taken to be for this board and the boot ids unknown; the caller says otherwise.
 */
void sdt_ops_facts_status(SdtVerifyStatusFacts *status,
			  const gchar *id,
			  const SdtRecommendFacts *facts,
			  const SdtInfo *info);

/*
 * What one apply reads once, at its start, and hands down (issue 36): this
 * boot's id (sdt_context_get_boot_id()) and the history before the change
 * (sdt_history_entries()).  The running config.txt, the pending record, the
 * history entry and the writer's journal all take them from here.
 */
typedef struct {
	const gchar *boot_id; /* NULL: unknown */
	GPtrArray *history;   /* of SdtHistoryEntry, oldest first; NULL: none or unreadable */
} SdtOpsApplyReads;

/*
 * The SHA-256 of the config.txt this boot runs with, or NULL when that is
 * not known: a tryboot boot (it runs tryboot.txt), or a change SD Tuner made
 * (apply, revert, verify) since this boot, so that config.txt is not what
 * runs.  A benchmark is recorded with it, and only one measured under the
 * config.txt in effect is the "before" of a change (sdt_ops_verify_record_pending_new()).
 */
gchar *sdt_ops_facts_running_sha256(SdtContext *ctx);
/*
 * as sdt_ops_facts_running_sha256(), with @config the bytes of config.txt as
 * just read and the boot id and the history as the apply read them
 */
gchar *
sdt_ops_facts_running_sha256_of(SdtContext *ctx, GBytes *config, const SdtOpsApplyReads *reads);

/* the warning of an answer whose history entry could not be saved (@why: the error) */
gchar *sdt_ops_facts_history_lost_warning(const gchar *why);

/*
 * The pending record of a change about to be applied (NULL for an id that is
 * not verified), saved by the apply before config.txt or tryboot.txt is put
 * in place; config_sha256 is the apply's to fill in.  Its "before" figures
 * are those of the last benchmark of the card measured under @config_sha256,
 * the config.txt in effect before the change (sdt_ops_facts_running_sha256());
 * with none (or @config_sha256 NULL) a sentence in @warnings says that the
 * verification will undo it.  The boot id and the history are the apply's
 * (@reads).
 */
SdtVerifyPendingState *sdt_ops_verify_record_pending_new(SdtContext *ctx,
							 const gchar *id,
							 gboolean trial,
							 gint type_code,
							 const gchar *filter,
							 guint replaces,
							 const gchar *config_sha256,
							 const SdtOpsApplyReads *reads,
							 GPtrArray *warnings);

/* fills in "pending_verification" (or why it cannot be read) and "last_verification" */
void sdt_ops_verify_record_add_status(SdtContext *ctx, SdtStatusReport *status);

/*
 * The card in the slot as the history records it with a benchmark ("card" of a bench
 * entry): its id (its CID in lower-case hex), name and serial, or NULL without a card or
 * CID.
 */
SdtHistoryReportCard *sdt_ops_history_card(SdtContext *ctx);

/*
 * The "series" of `history --json` (the report's, nothing else filled in) from its
 * entries (of SdtHistoryEntry, oldest first): per card (the
 * entries' "card.id"; one series with card null for runs that did not record it) and
 * per test, a point per benchmark of the card (never a stand-in's) with its value,
 * absolute spread and the change in force; SD Tuner's changes as markers.  @slot_id
 * (may be NULL) marks the series of the card in the slot ("in_slot").
 */
SdtHistoryReport *sdt_ops_history_series(GPtrArray *entries, const gchar *slot_id);

/*
 * The benchmark records (SdtBenchRecord) of @history's "bench" entries, oldest first; a
 * damaged entry (a member of the wrong type) is left out.  For health's trend and the
 * registers of health and check.
 */
GPtrArray *sdt_ops_history_benches(GPtrArray *history);

/* health "checked_before": the device check in @history that the card of CID @cid and
 * @size_bytes is (sdt_ops_check_recognise()), or NULL */
SdtHealthReportCheckedBefore *
sdt_ops_check_checked_before(GPtrArray *history, const gchar *cid, gint64 size_bytes);

/* ---- shared by bench, check, health, status and metrics ---- */

/*
 * status and health: "check_journal_damaged", the path of a check journal that
 * repair kept because no copy of it was whole (sdt_check_damaged_journal()), as the
 * user sees it (without --root's prefix), or NULL.  What the user can still do is said
 * where it is shown.
 */
gchar *sdt_ops_check_journal_damaged_path(SdtContext *ctx);

/*
 * The device check in @history (newest first) that a card of CID @cid (hex, may be NULL)
 * and @size_bytes is (docs/DESIGN.md "A checked card's identity"): one of the same CID
 * (@match "cid"), else one without a CID (a card in a reader) of exactly @size_bytes
 * (@match "size": maybe this card).  NULL when none; the entry is @history's.
 */
const SdtHistoryEntry *sdt_ops_check_recognise(GPtrArray *history,
					       const gchar *cid,
					       gint64 size_bytes,
					       const gchar **match);

/* the document of sdt_ops_health(), filled in (metrics reads it) */
SdtHealthReport *sdt_ops_health_report(SdtContext *ctx, GError **error);

/*
 * Where the benchmark, the soak test and the check put their file: @dir when
 * the caller names one, else the directory on the SD card's file system (the
 * root partition's state dir, else the partition itself), after refusing a
 * missing card, an unmounted or read-only one, and a card smaller than
 * @file_size + 10%; that one and its partition go into @card.  Then tells
 * @progress (if any) "prepare".  sdt-ops-bench.c.
 */
const gchar *sdt_ops_bench_card_dir(SdtContext *ctx,
				    const gchar *dir,
				    guint64 file_size,
				    SdtBenchCardDir *card,
				    SdtBenchProgressFunc progress,
				    gpointer user_data,
				    GError **error);

/* what a USB reader's link of @mbit_s carries in practice, MB/s; 0: unknown */
gdouble sdt_ops_bench_device_usb_ceiling(gdouble mbit_s);

/*
 * The record of sdt_ops_bench_device()'s run @result on @target, the card @d (its bus and
 * USB link: the reader's ceiling, reader_bottleneck and the notes of what a reader hides),
 * @writes ("blank", "confirmed" or NULL) and @skip_note (taken: why the write tests were
 * skipped, or NULL).  Pure, for tests.
 */
SdtBenchRecord *sdt_ops_bench_device_record(SdtBenchResult *result,
					    SdtBenchTarget *target,
					    const SdtDevice *d,
					    const gchar *writes,
					    gchar *skip_note);

G_END_DECLS
