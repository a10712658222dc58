/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>
#include <sys/stat.h>

#include "sdt-card-regs.h"
#include "sdt-check.h"
#include "sdt-devices.h"
#include "sdt-mounts.h"
#include "sdt-error.h"
#include "sdt-health.h"
#include "sdt-info.h"
#include "sdt-history.h"
#include "sdt-ops-private.h"
#include "sdt-ops.h"

gchar *
sdt_ops_check_journal_damaged_path(SdtContext *ctx)
{
	g_auto(GStrv) dirs = sdt_check_journal_dirs(ctx);
	g_autofree gchar *path = sdt_check_damaged_journal((const gchar *const *) dirs);
	g_autofree gchar *root = NULL;

	if (path == NULL)
		return NULL;
	/* the path as the user sees it: without --root's prefix */
	root = sdt_context_build_path(ctx, "/");
	if (g_strcmp0(root, "/") != 0 && g_str_has_prefix(path, root))
		return g_strdup(path + strlen(root) - (g_str_has_suffix(root, "/") ? 1 : 0));
	return g_steal_pointer(&path);
}

gchar *
sdt_ops_check(SdtContext *ctx,
	      const gchar *mode,
	      const gchar *dir,
	      SdtBenchProgressFunc progress,
	      gpointer user_data,
	      GCancellable *cancellable,
	      GError **error)
{
	g_autoptr(SdtCheckResult) result = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	result = sdt_ops_check_owned(ctx, mode, dir, -1, progress, user_data, cancellable, error);
	return result != NULL ? sdt_check_result_to_string(result, FALSE) : NULL;
}

SdtCheckResult *
sdt_ops_check_owned(SdtContext *ctx,
		    const gchar *mode,
		    const gchar *dir,
		    gint64 dir_owner,
		    SdtBenchProgressFunc progress,
		    gpointer user_data,
		    GCancellable *cancellable,
		    GError **error)
{
	SdtCheckConfig config;
	SdtCheckMode check_mode;
	g_auto(SdtBenchCardDir) card = {0};
	g_autoptr(SdtCheckResult) result = NULL;
	g_autoptr(SdtHistoryEntry) entry = NULL;
	g_autoptr(GError) error_history = NULL;
	g_auto(GStrv) journal_dirs = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONTEXT(ctx), NULL);

	if (!sdt_check_config_mode_from_string(mode, &check_mode, error))
		return NULL;
	sdt_check_config_init(&config, check_mode);
	config.stand_in = dir != NULL;
	config.dir_owner = dir != NULL ? dir_owner : -1;
	journal_dirs = sdt_check_journal_dirs(ctx);
	config.journal_dirs = (const gchar *const *) journal_dirs;
	dir = sdt_ops_bench_card_dir(ctx, dir, 0, &card, progress, user_data, error);
	if (dir == NULL)
		return NULL;
	result = sdt_check_run(dir, &config, progress, user_data, cancellable, error);
	if (result == NULL)
		return NULL;
	/* the card's registers say "plausible" or "suspicious", never "fake" */
	{
		g_autoptr(GPtrArray) history = sdt_history_entries(ctx, NULL, NULL);
		g_autoptr(GPtrArray) benches = sdt_ops_history_benches(history);
		SdtInfo *info = config.stand_in ? NULL : sdt_info_collect(ctx, NULL);
		result->has_registers = TRUE;
		result->registers = sdt_health_registers(info != NULL ? info->card : NULL, benches);
		if (info != NULL)
			sdt_info_free(info);
	}

	/* the card's history; a stand-in is not the card.  A failure to save the
	 * history does not throw the verdict away */
	if (!config.stand_in) {
		entry = sdt_history_entry_new_check(result);
		if (!sdt_history_append(ctx, entry, NULL, &error_history))
			g_warning("check result not saved: %s", error_history->message);
	}
	return g_steal_pointer(&result);
}

/* what the full check of @d gives up, in words: its partition table and file systems as
 * `sdtunerctl devices` reads them (libblkid) */
static gchar *
sdt_ops_check_device_contents(const SdtDevice *d)
{
	GString *s;

	if (d->signatures_from == NULL)
		return g_strdup(_("what it holds could not be read"));
	if (d->partition_table == NULL && (d->filesystems == NULL || d->filesystems->len == 0))
		return g_strdup(_("no partition table or file system was found on it"));
	s = g_string_new(NULL);
	if (d->partition_table != NULL)
		/* Translators: a partition table's type, "dos" or "gpt" */
		g_string_append_printf(s, _("a %s partition table"), d->partition_table);
	for (guint i = 0; d->filesystems != NULL && i < d->filesystems->len; i++) {
		const SdtDeviceFs *fs = g_ptr_array_index(d->filesystems, i);
		if (s->len > 0)
			g_string_append(s, C_("list separator", ", "));
		if (fs->label != NULL)
			/* Translators: a file system's type ("ext4"), its label, the partition
			 * ("sdb2") */
			g_string_append_printf(s,
					       _("%s file system “%s” on %s"),
					       fs->type,
					       fs->label,
					       fs->device);
		else
			/* Translators: a file system's type ("ext4"), the partition ("sdb2") */
			g_string_append_printf(s, _("%s file system on %s"), fs->type, fs->device);
	}
	return g_string_free(s, FALSE);
}

/*
 * The identity a device check is kept under in the history (docs/DESIGN.md "A checked
 * card's identity"): its size, what udev says, and in an mmc slot the card's CID and the
 * serial in it.  A USB reader's serial is the reader's, never the card's.
 */
static SdtHealthReportIdentity *
sdt_ops_check_identity(const SdtDevice *d)
{
	SdtHealthReportIdentity *o = sdt_check_result_identity_new();
	g_autofree gchar *cid_path =
		d->syspath != NULL ? g_build_filename(d->syspath, "device", "cid", NULL) : NULL;
	g_autofree gchar *cid = NULL;
	SdtCid parsed;

	o->device = g_strdup(d->name);
	o->size_bytes = (gint64) MIN(d->size_bytes, G_MAXINT64);
	o->vendor = g_strdup(d->vendor);
	o->model = g_strdup(d->model);
	o->serial = g_strdup(d->serial);
	o->bus = g_strdup(d->bus);
	/* whose serial udev gave: a reader's (USB mass storage: its own), the card's (mmc) */
	if (d->serial != NULL)
		o->serial_of = g_strdup(g_strcmp0(d->bus, "mmc") == 0 ? "card" : "reader");
	if (g_strcmp0(d->bus, "mmc") == 0 && cid_path != NULL &&
	    g_file_get_contents(cid_path, &cid, NULL, NULL)) {
		g_strstrip(cid);
		cid = g_ascii_strdown(g_steal_pointer(&cid), -1);
	}
	o->cid = g_strdup(cid);
	if (cid != NULL && sdt_card_regs_cid_parse(cid, &parsed, NULL))
		o->cid_serial = g_strdup_printf("0x%08x", parsed.serial);
	return o;
}

/*
 * The check of @e when it is a device check (it has an identity), else NULL; a check
 * whose document does not read back (a member of the wrong type) is none.
 */
static SdtCheckResult *
sdt_ops_check_device_check_of(const SdtHistoryEntry *e)
{
	SdtCheckResult *r;

	if (g_strcmp0(e->kind, SDT_HISTORY_ENTRY_KIND_CHECK) != 0 ||
	    !sdt_history_entry_has_identity(e))
		return NULL;
	r = sdt_history_entry_get_check(e, NULL);
	if (r != NULL && r->identity == NULL)
		g_clear_pointer(&r, sdt_check_result_free);
	return r;
}

/*
 * sdt_ops_check_recognise(), and the entry's check in *@check (may be NULL): one pass,
 * newest first, each device check read once; a CID match anywhere wins over the newest
 * size match
 */
static const SdtHistoryEntry *
sdt_ops_check_find(GPtrArray *history,
		   const gchar *cid,
		   gint64 size_bytes,
		   const gchar **match,
		   SdtCheckResult **check)
{
	const SdtHistoryEntry *by_size = NULL;
	g_autoptr(SdtCheckResult) by_size_check = NULL;
	gboolean has_cid = cid != NULL && cid[0] != '\0';

	*match = NULL;
	for (guint i = history != NULL ? history->len : 0; i > 0; i--) {
		const SdtHistoryEntry *e = g_ptr_array_index(history, i - 1);
		g_autoptr(SdtCheckResult) r = sdt_ops_check_device_check_of(e);
		const gchar *its_cid = r != NULL ? r->identity->cid : NULL;

		/* the same CID: the same card, whatever else */
		if (has_cid && its_cid != NULL && g_ascii_strcasecmp(its_cid, cid) == 0) {
			*match = "cid";
			if (check != NULL)
				*check = g_steal_pointer(&r);
			return e;
		}
		/* else a card checked where no CID was read (a reader) of exactly this size:
		 * maybe this one; an entry with another card's CID is not */
		if (r != NULL && by_size == NULL && size_bytes > 0 && its_cid == NULL &&
		    r->identity->size_bytes == size_bytes) {
			by_size = e;
			by_size_check = g_steal_pointer(&r);
		}
	}
	if (by_size != NULL) {
		*match = "size";
		if (check != NULL)
			*check = g_steal_pointer(&by_size_check);
	}
	return by_size;
}

const SdtHistoryEntry *
sdt_ops_check_recognise(GPtrArray *history,
			const gchar *cid,
			gint64 size_bytes,
			const gchar **match)
{
	return sdt_ops_check_find(history, cid, size_bytes, match, NULL);
}

SdtHealthReportCheckedBefore *
sdt_ops_check_checked_before(GPtrArray *history, const gchar *cid, gint64 size_bytes)
{
	const gchar *match = NULL;
	g_autoptr(SdtCheckResult) r = NULL;
	const SdtHistoryEntry *e = sdt_ops_check_find(history, cid, size_bytes, &match, &r);
	SdtHealthReportCheckedBefore *before;

	if (e == NULL)
		return NULL;
	before = sdt_health_report_checked_before_new();
	before->match = g_strdup(match);
	before->time = g_strdup(e->time);
	before->verdict = g_steal_pointer(&r->verdict);
	/* the identity's strings move to @before, and its shell goes */
	before->identity = *r->identity;
	g_clear_pointer(&r->identity, g_free);
	return before;
}

/* the node of the device @name is (as named: the engine refuses a partition, naming the
 * whole card), if the check may write to it; @contents: what it holds, in words; its
 * identity in @identity */
static gchar *
sdt_ops_check_device_node(const gchar *name,
			  gboolean allow_fixed,
			  gchar **contents,
			  SdtHealthReportIdentity **identity,
			  GError **error)
{
	g_autoptr(SdtContext) host = NULL;
	g_autoptr(GPtrArray) mounts = NULL;
	g_autoptr(GPtrArray) devices = NULL;
	SdtDevice *d;
	SdtDeviceOffer offer;

	/* the kernel's own mount table, under --root too: the devices are the real ones,
	 * and without it the system disk is unknown and nothing may be checked */
	host = sdt_context_new("/", error);
	mounts = host != NULL ? sdt_mounts_load(host, error) : NULL;
	devices = mounts != NULL ? sdt_devices_list(mounts, error) : NULL;
	d = devices != NULL ? sdt_devices_lookup(devices, name, error) : NULL;
	if (d == NULL)
		return NULL;
	/* a stand-in: a loop device judged as a card for every other reason */
	offer = allow_fixed ? sdt_device_offer_decide_stand_in(&d->facts) : d->offer;
	if (sdt_device_offer_is_offered(offer)) {
		*contents = sdt_ops_check_device_contents(d);
		*identity = sdt_ops_check_identity(d);
		return strchr(name, '/') != NULL ? g_strdup(name)
						 : g_strconcat("/dev/", name, NULL);
	}
	g_set_error(error,
		    SDT_ERROR,
		    offer == SDT_DEVICE_OFFER_MOUNTED || offer == SDT_DEVICE_OFFER_IN_USE
			    ? SDT_ERROR_BUSY
		    : offer == SDT_DEVICE_OFFER_READ_ONLY ? SDT_ERROR_READ_ONLY
		    : offer == SDT_DEVICE_OFFER_NO_MEDIUM ? SDT_ERROR_NOT_FOUND
							  : SDT_ERROR_NOT_SUPPORTED,
		    /* TRANSLATORS: a device (/dev/sdb), then why it cannot be checked */
		    _("%s cannot be checked. %s."),
		    d->devnode,
		    sdt_device_offer_to_reason(offer));
	return NULL;
}

/* the full check's confirmation: @confirm names the block device @node is (a link to it
 * counts, a partition of it or another device does not); else an error that says what
 * would be lost, before anything is opened for writing */
static gboolean
sdt_ops_check_device_confirmed(const gchar *node,
			       const gchar *confirm,
			       const gchar *contents,
			       GError **error)
{
	g_autofree gchar *confirm_node = NULL;
	struct stat st_node;
	struct stat st_confirm;

	if (confirm == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: the device, what it holds (a list), the device */
			    _("The full check writes over every block of %s, and everything on "
			      "it is lost (%s). It runs only with a confirmation that names %s "
			      "again"),
			    node,
			    contents,
			    node);
		return FALSE;
	}
	confirm_node = strchr(confirm, '/') != NULL ? g_strdup(confirm)
						    : g_strconcat("/dev/", confirm, NULL);
	if (stat(node, &st_node) != 0 || stat(confirm_node, &st_confirm) != 0 ||
	    !S_ISBLK(st_node.st_mode) || !S_ISBLK(st_confirm.st_mode) ||
	    st_node.st_rdev != st_confirm.st_rdev) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: the confirmation's device, the checked device, what
			     * the latter holds (a list) */
			    _("The confirmation names %s, which is not %s: nothing was written. "
			      "The full check writes over every block of %s, and everything on "
			      "it is lost (%s)"),
			    confirm,
			    node,
			    node,
			    contents);
		return FALSE;
	}
	return TRUE;
}

SdtCheckResult *
sdt_ops_check_device(SdtContext *ctx,
		     const gchar *mode,
		     const gchar *device,
		     const gchar *confirm,
		     gboolean allow_fixed,
		     SdtBenchProgressFunc progress,
		     gpointer user_data,
		     GCancellable *cancellable,
		     GError **error)
{
	SdtCheckConfig config;
	SdtCheckMode check_mode;
	g_auto(GStrv) journal_dirs = NULL;
	g_autofree gchar *node = NULL;
	g_autofree gchar *contents = NULL;
	g_autoptr(SdtHealthReportIdentity) identity = NULL;
	g_autoptr(SdtCheckResult) result = NULL;
	g_autoptr(SdtHistoryEntry) entry = NULL;
	g_autoptr(GError) error_history = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONTEXT(ctx) && device != NULL, NULL);

	if (!sdt_check_config_mode_from_string(mode, &check_mode, error))
		return NULL;
	if (check_mode != SDT_CHECK_MODE_FULL && confirm != NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("A confirmation that names the device goes with the full "
				      "check only"));
		return NULL;
	}
	node = sdt_ops_check_device_node(device, allow_fixed, &contents, &identity, error);
	if (node == NULL)
		return NULL;
	/* the full pass writes every block without saving it first */
	if (check_mode == SDT_CHECK_MODE_FULL &&
	    !sdt_ops_check_device_confirmed(node, confirm, contents, error))
		return NULL;
	sdt_check_config_init(&config, check_mode);
	config.device = node;
	config.destroy_data = check_mode == SDT_CHECK_MODE_FULL;
	/* on the system disk: never on the card, and kept across a power cut */
	journal_dirs = sdt_check_journal_dirs(ctx);
	config.journal_dirs = (const gchar *const *) journal_dirs;
	result = sdt_check_run(NULL, &config, progress, user_data, cancellable, error);
	if (result == NULL)
		return NULL;
	/* kept under the card's identity, so that it is known again in the Pi's slot; a
	 * failure to save the history does not throw the verdict away */
	result->identity = g_steal_pointer(&identity);
	entry = sdt_history_entry_new_check(result);
	if (!sdt_history_append(ctx, entry, NULL, &error_history))
		g_warning("check result not saved: %s", error_history->message);
	return g_steal_pointer(&result);
}
