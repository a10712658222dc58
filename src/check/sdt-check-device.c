/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * A whole card checked in place (issue 34): a card in a USB reader or a second slot,
 * unmounted, before it holds anything of value or after.  The engine is the running
 * card's (sdt-check-write, sdt-check-probe): here the whole address space is its one
 * "reserved" extent, so every sample, run and flush block may be anywhere on the card,
 * and each is saved, journaled off the card (the state folder on the system disk, and
 * /run) and put back, as the running card's spots are.  The card is held with O_EXCL
 * from the first read to the last put-back: no mount can take it meanwhile.
 */

#define _GNU_SOURCE /* O_DIRECT */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sdt-check-private.h"
#include "sdt-check-result.h"
#include "sdt-error.h"

/* the sysfs folder of the block device @rdev, or NULL */
static gchar *
sdt_check_device_sysfs(dev_t rdev)
{
	g_autofree gchar *link = g_strdup_printf("/sys/dev/block/%u:%u", major(rdev), minor(rdev));

	return realpath(link, NULL);
}

/* what the node is: a whole disk (TRUE), or an error naming why it is not */
static gboolean
sdt_check_device_whole(SdtCheck *self, const gchar *node, struct stat *st, GError **error)
{
	g_autofree gchar *sys = NULL;
	g_autofree gchar *partition = NULL;

	if (stat(node, st) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot open %s"), node);
	if (!S_ISBLK(st->st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("%s is not a block device"),
			    node);
		return FALSE;
	}
	sys = sdt_check_device_sysfs(st->st_rdev);
	partition = sys != NULL ? g_build_filename(sys, "partition", NULL) : NULL;
	if (partition != NULL && g_file_test(partition, G_FILE_TEST_EXISTS)) {
		g_autofree gchar *disk = g_path_get_dirname(sys);
		g_autofree gchar *name = g_path_get_basename(disk);
		g_autofree gchar *disk_node = g_strconcat("/dev/", name, NULL);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s is a partition; name the whole card, %s"),
			    node,
			    disk_node);
		return FALSE;
	}
	self->device = g_path_get_basename(node);
	self->disk_node = g_strdup(node);
	self->disk_rdev = (guint64) st->st_rdev;
	return TRUE;
}

gboolean
sdt_check_device_open(SdtCheck *self, GError **error)
{
	g_autofree gchar *node = NULL;
	struct stat st;
	gint ro = 0;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL && self->config->device != NULL, FALSE);

	node = realpath(self->config->device, NULL);
	if (node == NULL)
		return sdt_error_set_from_errno(error,
						errno,
						_("Cannot open %s"),
						self->config->device);
	if (!sdt_check_device_whole(self, node, &st, error))
		return FALSE;
	self->whole_device = TRUE;
	/* no file system: nothing to freeze, no folder's device to match the journal's */
	self->fs_dev = (dev_t) -1;
	/* O_EXCL: refused while it or a partition is mounted or held, and then no mount
	 * can take it until the check lets go */
	self->rfd = open(node, O_RDONLY | O_DIRECT | O_EXCL | O_CLOEXEC | O_NOCTTY);
	if (self->rfd < 0 && errno == EBUSY) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_BUSY,
			    _("%s is in use (mounted, or held by another program or "
			      "check); unmount it and try again"),
			    node);
		return FALSE;
	}
	if (self->rfd < 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot open %s"), node);
	if (ioctl(self->rfd, BLKGETSIZE64, &self->claim) != 0 || self->claim == 0) {
		g_set_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND, _("%s holds no card"), node);
		return FALSE;
	}
	if (ioctl(self->rfd, BLKROGET, &ro) == 0 && ro != 0) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_READ_ONLY,
			    _("%s is read-only (a card's lock switch, or the reader's); "
			      "slide the switch up and try again"),
			    node);
		return FALSE;
	}
	if (self->claim < 64 * SDT_CHECK_MIB) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("%s is too small to check"),
			    node);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_check_device_reserve(SdtCheck *self, GError **error)
{
	SdtCheckExtent whole;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL && self->whole_device, FALSE);

	whole = (SdtCheckExtent){
		.start = 0,
		.len = self->claim / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK,
		.rank = 0,
		.logical = 0,
	};
	self->extents = g_array_new(FALSE, FALSE, sizeof(SdtCheckExtent));
	g_array_append_val(self->extents, whole);
	self->reserved = whole.len;
	self->reserved_blocks = whole.len / SDT_CHECK_BLOCK;
	self->reserved_top = whole.len;
	/* the second descriptor, for writes: the first one's O_EXCL claim holds it */
	self->wfd = open(self->disk_node, O_RDWR | O_DIRECT | O_CLOEXEC | O_NOCTTY);
	if (self->wfd < 0)
		return sdt_error_set_from_errno(error,
						errno,
						_("Cannot write to %s"),
						self->disk_node);
	return TRUE;
}

/* ---- the map ---- */

/* the worse of two states: a proof of a fake over "ok" over "untested" */
static gint
sdt_check_device_rank(const gchar *state)
{
	static const gchar *const order[] =
		{"untested", "ok", "corrupted", "lost-writes", "io-error", "wrap"};

	for (guint i = 0; i < G_N_ELEMENTS(order); i++)
		if (g_strcmp0(state, order[i]) == 0)
			return (gint) i;
	return 0;
}

static void
sdt_check_device_map_add(GPtrArray *map, guint64 from, guint64 to, const gchar *state)
{
	SdtCheckResultRegion *last = map->len > 0 ? g_ptr_array_index(map, map->len - 1) : NULL;
	SdtCheckResultRegion *r;

	if (last != NULL && g_strcmp0(last->state, state) == 0 && last->to == (gint64) from) {
		last->to = (gint64) to;
		return;
	}
	r = g_new0(SdtCheckResultRegion, 1);
	r->from = (gint64) from;
	r->to = (gint64) to;
	r->state = g_strdup(state);
	g_ptr_array_add(map, r);
}

GPtrArray *
sdt_check_device_map(SdtCheck *self)
{
	const gchar *cells[SDT_CHECK_MAP_CELLS];
	guint64 cell = (self->claim + SDT_CHECK_MAP_CELLS - 1) / SDT_CHECK_MAP_CELLS;
	/* from where the verdict says the card stops holding data: its failure */
	guint64 bad_from = g_strcmp0(self->failure, "wrap") == 0 ? self->estimate : self->first_bad;
	gboolean bad = self->failure != NULL && bad_from > 0 && bad_from < self->claim;
	GPtrArray *map = g_ptr_array_new_with_free_func(sdt_check_result_region_free);

	for (guint i = 0; i < SDT_CHECK_MAP_CELLS; i++)
		cells[i] = "untested";
	for (guint i = 0; i < self->probed->len && cell > 0; i++) {
		const SdtCheckProbed *p = &g_array_index(self->probed, SdtCheckProbed, i);
		guint c = (guint) MIN(p->at / cell, SDT_CHECK_MAP_CELLS - 1);
		if (sdt_check_device_rank(p->state) > sdt_check_device_rank(cells[c]))
			cells[c] = p->state;
	}
	for (guint i = 0; i < SDT_CHECK_MAP_CELLS; i++) {
		guint64 from = MIN((guint64) i * cell, self->claim);
		guint64 to = MIN(from + cell, self->claim);
		/* the whole cell past it (a wrap: every address shows a lower one again) */
		if (bad && from >= bad_from)
			cells[i] = self->failure;
		if (to > from)
			sdt_check_device_map_add(map, from, to, cells[i]);
	}
	return map;
}
