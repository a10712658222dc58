/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT, O_TMPFILE, fallocate */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <libudev.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sdt-bench-target.h"
#include "sdt-check-private.h"
#include "sdt-file.h"
#include "sdt-error.h"
#include "sdt-mounts.h"
#include "sdt-check-config-private.h"

typedef struct udev SdtCheckUdev;
typedef struct udev_device SdtCheckUdevDevice;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtCheckUdev, udev_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtCheckUdevDevice, udev_device_unref)

/* ---- the disk ---- */

/*
 * Without udev's view of the device (a container, or a test's umockdev
 * testbed that knows only the simulated card): the mount's own device node,
 * if it is a whole disk (a partition's disk and start are sysfs facts).
 */
static gboolean
sdt_check_target_from_mount(SdtCheck *self, dev_t devnum)
{
	g_autofree gchar *text = NULL;
	g_autoptr(GPtrArray) mounts = NULL;
	struct hd_geometry geo;
	struct stat st;
	guint64 size = 0;
	gsize len = 0;
	gint fd;

	/* the kernel's own table, not the root's */
	if (!sdt_file_read_kernel(NULL, "/proc/self/mountinfo", 8 * 1024 * 1024, &text, &len, NULL))
		return FALSE;
	mounts = sdt_mounts_parse(text, NULL);
	for (guint i = 0; i < mounts->len; i++) {
		SdtMount *m = g_ptr_array_index(mounts, i);
		if (m->major != major(devnum) || m->minor != minor(devnum) || m->source == NULL ||
		    !g_str_has_prefix(m->source, "/dev/"))
			continue;
		fd = open(m->source, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			continue;
		memset(&geo, 0, sizeof(geo));
		/* the size by seeking: umockdev's ioctl() wrapper answers ENOTTY */
		if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode) || st.st_rdev != devnum ||
		    (ioctl(fd, BLKGETSIZE64, &size) != 0 &&
		     (off_t) (size = (guint64) lseek(fd, 0, SEEK_END)) <= 0) ||
		    (ioctl(fd, HDIO_GETGEO, &geo) == 0 && geo.start != 0)) {
			close(fd);
			continue;
		}
		close(fd);
		self->device = g_path_get_basename(m->source);
		self->disk_node = g_strdup(m->source);
		self->claim = size;
		return TRUE;
	}
	return FALSE;
}

/* a directory, not in memory, owned by root (or us) and writable by nobody else */
static gboolean
sdt_check_target_dir(SdtCheck *self, struct stat *st, GError **error)
{
	struct statfs sfs;

	if (g_lstat(self->dir, st) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), self->dir);
	if (!S_ISDIR(st->st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s is not a directory"),
			    self->dir);
		return FALSE;
	}
	/* memory first: /tmp on trixie is a tmpfs writable by all, and what is wrong
	 * with it is that it is memory (issue 32) */
	if (statfs(self->dir, &sfs) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), self->dir);
	if (!sdt_bench_target_refuse_memory(self->dir, &sfs, error))
		return FALSE;
	/* the helper checking its caller's folder: that user's, still (the helper
	 * checked the whole path when it was called; sdt-caller-dir.c) */
	if (self->config->dir_owner >= 0 && (gint64) st->st_uid != self->config->dir_owner) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: a folder */
			    _("%s is not your folder; the check only reserves space in a folder "
			      "that belongs to you: make one (mkdir) and name it"),
			    self->dir);
		return FALSE;
	}
	if ((self->config->dir_owner < 0 && st->st_uid != 0 && st->st_uid != geteuid()) ||
	    (st->st_mode & (S_IWGRP | S_IWOTH))) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s is writable by other users; the check only reserves space in a "
			      "directory owned by root"),
			    self->dir);
		return FALSE;
	}
	return TRUE;
}

/* the file system's name, and a refusal when it is mounted read-only */
static gboolean
sdt_check_target_fs(SdtCheck *self, GError **error)
{
	struct statfs sfs;
	struct statvfs vfs;
	const gchar *fs;

	if (statfs(self->dir, &sfs) != 0 || statvfs(self->dir, &vfs) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), self->dir);
	fs = sdt_bench_target_fs_name((guint64) sfs.f_type);
	self->filesystem = g_strdup(fs != NULL ? fs : "unknown");
	if (vfs.f_flag & ST_RDONLY) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_READ_ONLY,
			    _("The file system at %s is mounted read-only; remount it read-write "
			      "to check the card"),
			    self->dir);
		return FALSE;
	}
	return TRUE;
}

/* the whole disk behind the block device @dev (a partition or a disk) */
static gboolean
sdt_check_target_from_udev(SdtCheck *self, struct udev_device *dev, GError **error)
{
	struct udev_device *disk = dev;
	const gchar *value;

	if (!sdt_check_config_fs_supported(self->filesystem)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("The check cannot work on the %s file system at %s: it needs ext4, "
			      "vfat, xfs or f2fs, where a file's place on the disk is known"),
			    self->filesystem,
			    self->dir);
		return FALSE;
	}
	self->device = g_strdup(udev_device_get_sysname(dev));
	if (g_strcmp0(udev_device_get_devtype(dev), "disk") != 0) {
		disk = udev_device_get_parent_with_subsystem_devtype(dev, "block", "disk");
		value = udev_device_get_sysattr_value(dev, "start");
		if (value != NULL)
			self->part_start = g_ascii_strtoull(value, NULL, 10) * 512;
	}
	value = disk != NULL ? udev_device_get_sysattr_value(disk, "size") : NULL;
	if (disk == NULL || udev_device_get_devnode(disk) == NULL || value == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("Cannot find the whole device behind %s"),
			    self->device);
		return FALSE;
	}
	self->disk_node = g_strdup(udev_device_get_devnode(disk));
	self->claim = g_ascii_strtoull(value, NULL, 10) * 512;
	return TRUE;
}

/* the disk for raw reads, when it is big enough to check */
static gboolean
sdt_check_target_open_disk(SdtCheck *self, GError **error)
{
	self->rfd = open(self->disk_node, SDT_BENCH_RAW_OPEN_FLAGS);
	if (self->rfd < 0)
		return sdt_error_set_from_errno(error,
						errno,
						_("Cannot read %s directly"),
						self->disk_node);
	if (self->claim < 64 * SDT_CHECK_MIB) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("%s is too small to check (%" PRIu64 " MiB)"),
			    self->disk_node,
			    self->claim / SDT_CHECK_MIB);
		return FALSE;
	}
	return TRUE;
}

gboolean
sdt_check_target_open(SdtCheck *self, GError **error)
{
	g_autoptr(SdtCheckUdev) udev = NULL;
	g_autoptr(SdtCheckUdevDevice) dev = NULL;
	struct stat st;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	udev = udev_new();
	if (!sdt_check_target_dir(self, &st, error) || !sdt_check_target_fs(self, error))
		return FALSE;
	self->fs_dev = st.st_dev;
	if (udev != NULL && major(st.st_dev) != 0)
		dev = udev_device_new_from_devnum(udev, 'b', st.st_dev);
	if (dev != NULL) {
		if (!sdt_check_target_from_udev(self, dev, error))
			return FALSE;
	} else if (major(st.st_dev) == 0 || !sdt_check_target_from_mount(self, st.st_dev)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("%s is not on a block device (%s file system); the check "
			      "needs the card's own file system"),
			    self->dir,
			    self->filesystem);
		return FALSE;
	}
	return sdt_check_target_open_disk(self, error);
}

gboolean
sdt_check_target_open_write(SdtCheck *self, GError **error)
{
	struct stat st;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	self->wfd = open(self->disk_node, O_RDWR | O_DIRECT | O_CLOEXEC | O_NOCTTY);
	if (self->wfd < 0)
		return sdt_error_set_from_errno(error,
						errno,
						_("Cannot write to %s inside the reserved file"),
						self->disk_node);
	if (fstat(self->wfd, &st) != 0 || !S_ISBLK(st.st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("%s is not a block device"),
			    self->disk_node);
		return FALSE;
	}
	self->disk_rdev = (guint64) st.st_rdev;
	return TRUE;
}

/* ---- the freeze ---- */

/*
 * The watchdog: a child that waits on a pipe from us ('F' frozen, 'T' thawed)
 * and thaws the file system when the pipe ends (we died) while frozen.  It runs
 * only async-signal-safe calls (we may have threads) and keeps no descriptor of
 * ours but the pipe and the file system's root (not the reserved file: its space
 * goes with our descriptor).
 */
static void
sdt_check_watchdog_start(SdtCheck *self)
{
	gint p[2];
	pid_t pid;

	if (self->watch_fd >= 0 || pipe2(p, O_CLOEXEC) != 0)
		return;
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		gint keep_lo = MIN(p[0], self->freeze_fd);
		gint keep_hi = MAX(p[0], self->freeze_fd);
		gboolean frozen = FALSE;
		gchar c = 0;
		if (keep_lo > 3)
			close_range(3, (guint) keep_lo - 1, 0);
		if (keep_hi > keep_lo + 1)
			close_range((guint) keep_lo + 1, (guint) keep_hi - 1, 0);
		close_range((guint) keep_hi + 1, ~0u, 0);
		for (;;) {
			ssize_t n = read(p[0], &c, 1);
			if (n == 1)
				frozen = c == 'F';
			else if (n < 0 && errno == EINTR)
				continue;
			else
				break;
		}
		if (frozen)
			ioctl(self->freeze_fd, FITHAW, 0);
		_exit(0);
	}
	close(p[0]);
	self->watch_fd = p[1];
	self->watch_pid = pid;
}

static void
sdt_check_watchdog_say(SdtCheck *self, gchar c)
{
	if (self->watch_fd >= 0 && write(self->watch_fd, &c, 1) != 1) {
		/* the watchdog is gone: nothing to tell */
	}
}

void
sdt_check_target_freeze(SdtCheck *self)
{
	/* a whole card has no file system mounted: held with O_EXCL, nothing else writes */
	if (self->frozen || self->whole_device)
		return;
	if (self->config->no_freeze) {
		self->n_unfrozen++;
		self->freeze_errno = EPERM;
		return;
	}
	if (self->freeze_fd < 0)
		self->freeze_fd = open(self->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (self->freeze_fd >= 0)
		sdt_check_watchdog_start(self);
	if (self->freeze_fd < 0 || self->watch_fd < 0) {
		self->freeze_errno = errno != 0 ? errno : EIO;
		self->n_unfrozen++;
		return;
	}
	sdt_check_watchdog_say(self, 'F');
	/* syncs the file system first: the saves that follow read what it holds */
	if (ioctl(self->freeze_fd, FIFREEZE, 0) != 0) {
		self->freeze_errno = errno;
		sdt_check_watchdog_say(self, 'T');
		self->n_unfrozen++;
		return;
	}
	self->frozen = TRUE;
	self->frozen_since = g_get_monotonic_time();
	self->n_frozen++;
}

void
sdt_check_target_thaw(SdtCheck *self)
{
	if (!self->frozen)
		return;
	if (ioctl(self->freeze_fd, FITHAW, 0) != 0)
		g_warning("cannot thaw the file system at %s: %s", self->dir, g_strerror(errno));
	self->frozen = FALSE;
	self->frozen_max_us = MAX(self->frozen_max_us, g_get_monotonic_time() - self->frozen_since);
	sdt_check_watchdog_say(self, 'T');
}

/* ---- the reserved file ---- */

/* how much to reserve: the free space but a margin the running system keeps */
static gboolean
sdt_check_reserve_size(SdtCheck *self, guint64 *size, guint64 *give_back, GError **error)
{
	struct statvfs vfs;
	guint64 avail;
	guint64 margin;
	guint64 free;

	if (statvfs(self->dir, &vfs) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), self->dir);
	avail = (guint64) vfs.f_bavail * vfs.f_frsize;
	/* the running system must never meet a full disk: keep 5% of the file
	 * system (at least 32 MiB, at most 1 GiB) free besides root's reserve */
	margin = CLAMP((guint64) vfs.f_blocks * vfs.f_frsize / 20,
		       32 * SDT_CHECK_MIB,
		       1024 * SDT_CHECK_MIB);
	if (avail < margin + 32 * SDT_CHECK_MIB) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NO_SPACE,
			    _("Too little free space on %s (%" PRIu64
			      " MiB): the check needs at least %" PRIu64
			      " MiB free; free some space and try again"),
			    self->dir,
			    avail / SDT_CHECK_MIB,
			    (margin + 32 * SDT_CHECK_MIB) / SDT_CHECK_MIB);
		return FALSE;
	}
	/* for a moment all of it (root's reserve too, as root: ext4 keeps its own
	 * reserve for metadata); the margin and root's reserve go back from the
	 * lowest addresses at once (sdt_check_give_back()), so that the reserved
	 * space reaches the top of the card wherever ext4 allocated it */
	free = geteuid() == 0 ? (guint64) vfs.f_bfree * vfs.f_frsize : avail;
	*size = free / SDT_CHECK_MIB * SDT_CHECK_MIB;
	*give_back = *size - MIN(*size, (avail - margin) / SDT_CHECK_MIB * SDT_CHECK_MIB);
	return TRUE;
}

/* fallocate()s the reserved file from @from up to @size bytes, less by whole MiB
 * where ext4 needs some for the file's own extent tree or keeps a reserve of its
 * own (ENOSPC), down to @floor; its size after (all of it allocated) */
static guint64
sdt_check_reserve_grow(SdtCheck *self, guint64 from, guint64 size, guint64 floor)
{
	struct stat st;

	while (size > from &&
	       fallocate(self->file_fd, 0, (off_t) from, (off_t) (size - from)) != 0 &&
	       errno == ENOSPC && size > floor + SDT_CHECK_MIB)
		size -= SDT_CHECK_MIB;
	if (fstat(self->file_fd, &st) != 0)
		return 0;
	return (guint64) st.st_size;
}

/* a file without a name (O_TMPFILE, else unlinked at once) of @size bytes */
static gboolean
sdt_check_reserve_create(SdtCheck *self, guint64 size, const guint64 *floor, GError **error)
{
	guint64 got;

	self->file_fd = open(self->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (self->file_fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		g_autofree gchar *path = g_build_filename(self->dir, SDT_CHECK_RESERVE_NAME, NULL);
		/* a name only for this moment: a killed check leaves it, the next start removes it
		 */
		self->file_fd =
			open(path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
		if (self->file_fd >= 0)
			g_unlink(path);
	}
	if (self->file_fd < 0)
		return sdt_error_set_from_errno(error,
						errno,
						_("Cannot create the reserved file in %s"),
						self->dir);
	/* all of the free space for a moment */
	got = sdt_check_reserve_grow(self, 0, size, *floor);
	if (got < MIN(size, *floor + SDT_CHECK_MIB))
		return sdt_error_set_from_errno(error,
						errno,
						_("Cannot reserve %" PRIu64 " MiB in %s"),
						size / SDT_CHECK_MIB,
						self->dir);
	self->reserved = got;
	return TRUE;
}

/* one FIEMAP extent, trimmed to whole blocks on the disk; skipped where its
 * place is not plainly known */
static void
sdt_check_add_extent(SdtCheck *self, const struct fiemap_extent *fe)
{
	SdtCheckExtent ext;
	guint64 start = self->part_start + fe->fe_physical;
	guint64 end = start + fe->fe_length;

	if (fe->fe_flags &
	    (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_ENCODED |
	     FIEMAP_EXTENT_NOT_ALIGNED | FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_SHARED))
		return;
	start = (start + SDT_CHECK_BLOCK - 1) / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
	end = end / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
	if (end <= start || end > self->claim)
		return;
	ext.start = start;
	ext.len = end - start;
	ext.rank = 0;
	ext.logical = fe->fe_logical + (start - (self->part_start + fe->fe_physical));
	g_array_append_val(self->extents, ext);
}

/* where the reserved file's @size bytes lie on the disk (FIEMAP) */
static gboolean
sdt_check_map_extents(SdtCheck *self, guint64 size, GError **error)
{
	const guint n_max = 1024;
	g_autofree struct fiemap *map =
		g_malloc0(sizeof(struct fiemap) + n_max * sizeof(struct fiemap_extent));

	g_clear_pointer(&self->extents, g_array_unref);
	self->extents = g_array_new(FALSE, FALSE, sizeof(SdtCheckExtent));
	for (guint64 logical = 0; logical < size;) {
		guint last = 0;
		memset(map, 0, sizeof(struct fiemap));
		map->fm_start = logical;
		map->fm_length = size - logical;
		map->fm_flags = FIEMAP_FLAG_SYNC;
		map->fm_extent_count = n_max;
		if (ioctl(self->file_fd, FS_IOC_FIEMAP, map) != 0)
			return sdt_error_set_from_errno(
				error,
				errno,
				_("Cannot learn where the reserved file lies "
				  "on %s (FIEMAP)"),
				self->device);
		if (map->fm_mapped_extents == 0)
			break;
		for (guint i = 0; i < map->fm_mapped_extents; i++) {
			const struct fiemap_extent *fe = &map->fm_extents[i];
			logical = fe->fe_logical + fe->fe_length;
			last = fe->fe_flags & FIEMAP_EXTENT_LAST;
			sdt_check_add_extent(self, fe);
		}
		if (last)
			break;
	}
	return TRUE;
}

/* the extents in disk order, each with the blocks before it */
static void
sdt_check_rank_extents(SdtCheck *self)
{
	g_array_sort(self->extents, (GCompareFunc) sdt_check_config_cmp_u64);
	for (guint i = 0; i < self->extents->len; i++) {
		SdtCheckExtent *e = &g_array_index(self->extents, SdtCheckExtent, i);
		e->rank = self->reserved_blocks;
		self->reserved_blocks += e->len / SDT_CHECK_BLOCK;
		self->reserved_top = MAX(self->reserved_top, e->start + e->len);
	}
}

/* punches @bytes out of the reserved file where it lies lowest on the disk */
static gboolean
sdt_check_give_back(SdtCheck *self, guint64 bytes, GError **error)
{
	guint64 left = bytes;

	g_array_sort(self->extents, (GCompareFunc) sdt_check_config_cmp_u64);
	for (guint i = 0; i < self->extents->len && left > 0; i++) {
		const SdtCheckExtent *e = &g_array_index(self->extents, SdtCheckExtent, i);
		guint64 len = MIN(e->len, left);
		if (fallocate(self->file_fd,
			      FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			      (off_t) e->logical,
			      (off_t) len) != 0)
			return sdt_error_set_from_errno(error,
							errno,
							_("Cannot give space back to %s"),
							self->dir);
		left -= len;
	}
	self->reserved -= bytes - left;
	return TRUE;
}

gboolean
sdt_check_target_reserve(SdtCheck *self, GError **error)
{
	guint64 size = 0;
	guint64 give_back = 0;
	guint64 floor;
	guint64 held;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	if (!sdt_check_reserve_size(self, &size, &give_back, error))
		return FALSE;
	sdt_check_block_report(self, "reserve", 0.0);
	floor = size - give_back;
	if (!sdt_check_reserve_create(self, size, &floor, error))
		return FALSE;
	/* what ext4 held back (its own reserve: 2% of a small file system) stays
	 * free where its allocator stopped, which is the top of the card when it
	 * went up from group 0: that much more goes back from the bottom and is
	 * taken again by growing the file, where ext4 looks first next to the
	 * file's last block, where it stopped */
	held = size - self->reserved;
	size = self->reserved;
	if (!sdt_check_map_extents(self, size, error) ||
	    !sdt_check_give_back(self, MIN(size, size - MIN(size, floor) + held), error))
		return FALSE;
	if (held > 0) {
		guint64 grown = sdt_check_reserve_grow(self, size, size + held, size);
		self->reserved += MAX(grown, size) - size;
		size = MAX(grown, size);
	}
	if (!sdt_check_map_extents(self, size, error))
		return FALSE;
	if (self->extents->len == 0) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("The %s file system at %s does not say where its files lie; the "
			      "check needs ext4 or another file system with FIEMAP"),
			    self->filesystem,
			    self->dir);
		return FALSE;
	}
	sdt_check_rank_extents(self);
	sdt_check_block_report(self, "reserve", 1.0);
	return TRUE;
}

guint64
sdt_check_target_rank_to_offset(SdtCheck *self, guint64 rank)
{
	const SdtCheckExtent *e;
	guint lo = 0;
	guint hi = self->extents->len;

	while (hi - lo > 1) {
		guint mid = (lo + hi) / 2;
		if (g_array_index(self->extents, SdtCheckExtent, mid).rank <= rank)
			lo = mid;
		else
			hi = mid;
	}
	e = &g_array_index(self->extents, SdtCheckExtent, lo);
	return e->start + (rank - e->rank) * SDT_CHECK_BLOCK;
}

guint64
sdt_check_target_offset_to_rank(SdtCheck *self, guint64 offset)
{
	for (guint i = 0; i < self->extents->len; i++) {
		const SdtCheckExtent *e = &g_array_index(self->extents, SdtCheckExtent, i);
		if (offset < e->start)
			return e->rank;
		if (offset < e->start + e->len)
			return e->rank + (offset - e->start) / SDT_CHECK_BLOCK;
	}
	return self->reserved_blocks;
}
