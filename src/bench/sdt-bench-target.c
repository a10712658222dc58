/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT, O_TMPFILE, statx, fallocate */

#include "config.h"

#include <inttypes.h>
#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <libudev.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/ioctl.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sdt-bench-target.h"
#include "sdt-bench-target-private.h"
#include "sdt-error.h"

/* free space needed on top of the file */
#define SDT_BENCH_TARGET_MARGIN_PERCENT 10

typedef struct udev SdtBenchUdev;
typedef struct udev_device SdtBenchUdevDevice;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBenchUdev, udev_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBenchUdevDevice, udev_device_unref)

void
sdt_bench_target_free(SdtBenchTarget *self)
{
	if (self == NULL)
		return;
	if (self->fd >= 0)
		close(self->fd);
	if (self->hold_fd > 0)
		close(self->hold_fd);
	g_free(self->dir);
	g_free(self->device);
	g_free(self->device_node);
	g_free(self->disk_node);
	g_free(self->filesystem);
	g_free(self);
}

const gchar *
sdt_bench_target_fs_name(guint32 magic)
{
	switch (magic) {
	case EXT4_SUPER_MAGIC:
		return "ext4";
	case MSDOS_SUPER_MAGIC:
		return "vfat";
	case EXFAT_SUPER_MAGIC:
		return "exfat";
	case BTRFS_SUPER_MAGIC:
		return "btrfs";
	case F2FS_SUPER_MAGIC:
		return "f2fs";
	case XFS_SUPER_MAGIC:
		return "xfs";
	case TMPFS_MAGIC:
		return "tmpfs";
	case RAMFS_MAGIC:
		return "ramfs";
	case OVERLAYFS_SUPER_MAGIC:
		return "overlay";
	case NFS_SUPER_MAGIC:
		return "nfs";
	case SQUASHFS_MAGIC:
		return "squashfs";
	default:
		return NULL;
	}
}

guint32
sdt_bench_target_fs_magic(const struct statfs *sfs)
{
	/* through the unsigned type of the same width: never sign-extended */
	return (guint32) sfs->f_type;
}

gchar *
sdt_bench_target_fs_describe(const struct statfs *sfs)
{
	guint32 magic = sdt_bench_target_fs_magic(sfs);
	const gchar *name = sdt_bench_target_fs_name(magic);

	return name != NULL ? g_strdup(name) : g_strdup_printf("0x%" G_GINT32_MODIFIER "x", magic);
}

gboolean
sdt_bench_target_refuse_memory(const gchar *dir, const struct statfs *sfs, GError **error)
{
	guint32 magic;
	g_autofree gchar *fs = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	magic = sdt_bench_target_fs_magic(sfs);
	if (magic != TMPFS_MAGIC && magic != RAMFS_MAGIC)
		return TRUE;
	fs = sdt_bench_target_fs_describe(sfs);
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_NOT_SUPPORTED,
		    /* Translators: a folder, then its file system (tmpfs) */
		    _("%s is in memory (%s), not on a card: nothing written there reaches a "
		      "card (/tmp is in memory on Debian 13 and Raspberry Pi OS trixie); choose "
		      "a folder on the card, such as /var/tmp on a Raspberry Pi"),
		    dir,
		    fs);
	return FALSE;
}

/* the block device behind @devnum, through udev; falls back to "MAJ:MIN" */
static void
sdt_bench_target_identify(SdtBenchTarget *self)
{
	g_autoptr(SdtBenchUdev) udev = udev_new();
	g_autoptr(SdtBenchUdevDevice) dev = NULL;
	struct udev_device *disk;
	const gchar *size;

	if (udev != NULL)
		dev = udev_device_new_from_devnum(udev, 'b', self->devnum);
	if (dev == NULL) {
		self->device = g_strdup_printf("%u:%u", major(self->devnum), minor(self->devnum));
		return;
	}
	self->device = g_strdup(udev_device_get_sysname(dev));
	self->device_node = g_strdup(udev_device_get_devnode(dev));
	size = udev_device_get_sysattr_value(dev, "size");
	if (size != NULL)
		self->device_size = g_ascii_strtoull(size, NULL, 10) * 512;
	if (g_strcmp0(udev_device_get_devtype(dev), "disk") == 0)
		disk = dev;
	else
		disk = udev_device_get_parent_with_subsystem_devtype(dev, "block", "disk");
	if (disk != NULL)
		self->disk_node = g_strdup(udev_device_get_devnode(disk));
}

static gboolean
sdt_bench_target_check_dir(const gchar *dir, struct stat *st, GError **error)
{
	if (g_lstat(dir, st) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), dir);
	if (!S_ISDIR(st->st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s is not a directory"),
			    dir);
		return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_bench_target_check_owner(const gchar *dir, const struct stat *st, GError **error)
{
	/* nobody else may swap files under us: owned by root (or us), not shared */
	if ((st->st_uid != 0 && st->st_uid != geteuid()) || (st->st_mode & (S_IWGRP | S_IWOTH))) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s is writable by other users; the test file is only created "
			      "in a directory owned by root"),
			    dir);
		return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_bench_target_check_space(SdtBenchTarget *self, GError **error)
{
	struct statvfs vfs;
	guint64 need = self->size + self->size / 100 * SDT_BENCH_TARGET_MARGIN_PERCENT;
	guint64 avail;

	if (statvfs(self->dir, &vfs) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), self->dir);
	if (vfs.f_flag & ST_RDONLY) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_READ_ONLY,
			    _("The file system on %s (%s) is mounted read-only; remount it "
			      "read-write to run the benchmark"),
			    self->device,
			    self->dir);
		return FALSE;
	}
	if (self->device_size > 0 && self->device_size < need) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NO_SPACE,
			    _("%s holds %" PRIu64 " MB, too small for the %" PRIu64
			      " MiB test file of this profile; choose a smaller profile"),
			    self->device,
			    self->device_size / 1000000,
			    self->size / (1024 * 1024));
		return FALSE;
	}
	avail = (guint64) vfs.f_bavail * vfs.f_frsize;
	if (avail < need) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NO_SPACE,
			    _("Not enough free space on %s (%s): %" PRIu64
			      " MiB free, the test file needs %" PRIu64
			      " MiB plus 10%%; free some space or choose a smaller profile"),
			    self->device,
			    self->dir,
			    avail / (1024 * 1024),
			    self->size / (1024 * 1024));
		return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_bench_target_open_errno(SdtBenchTarget *self, gint errsv, GError **error)
{
	if (errsv == EINVAL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("The %s file system on %s does not support direct I/O (O_DIRECT)"),
			    self->filesystem,
			    self->dir);
		return FALSE;
	}
	return sdt_error_set_from_errno(error,
					errsv,
					_("Cannot create the test file in %s on %s"),
					self->dir,
					self->device);
}

static gboolean
sdt_bench_target_create(SdtBenchTarget *self, SdtBenchTargetFlags flags, GError **error)
{
	g_autofree gchar *path = NULL;
	gint flags_open = O_RDWR | O_DIRECT | O_CLOEXEC | O_NOFOLLOW;

	if ((flags & SDT_BENCH_TARGET_FLAG_NO_TMPFILE) == 0) {
		self->fd = open(self->dir, O_TMPFILE | flags_open, 0600);
		if (self->fd >= 0) {
			self->tmpfile = TRUE;
			return TRUE;
		}
		/* EOPNOTSUPP: the file system has no O_TMPFILE (vfat); older kernels say EISDIR */
		if (errno != EOPNOTSUPP && errno != EISDIR)
			return sdt_bench_target_open_errno(self, errno, error);
	}
	for (guint i = 0; i < 100; i++) {
		g_autofree gchar *name =
			g_strdup_printf(".sd-tuner-bench-%d-%08x", getpid(), g_random_int());
		g_free(path);
		path = g_build_filename(self->dir, name, NULL);
		self->fd = open(path, O_CREAT | O_EXCL | flags_open, 0600);
		if (self->fd >= 0 || errno != EEXIST)
			break;
	}
	if (self->fd < 0)
		return sdt_bench_target_open_errno(self, errno, error);
	if (unlink(path) != 0) {
		gint errsv = errno;
		close(self->fd);
		self->fd = -1;
		return sdt_error_set_from_errno(error, errsv, _("Cannot unlink %s"), path);
	}
	return TRUE;
}

/* the file system of @self->dir: named, and refused when it is memory */
static gboolean
sdt_bench_target_check_fs(SdtBenchTarget *self, const struct stat *st_dir, GError **error)
{
	struct statfs sfs;
	guint32 magic;

	if (statfs(self->dir, &sfs) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), self->dir);
	self->filesystem = sdt_bench_target_fs_describe(&sfs);
	magic = sdt_bench_target_fs_magic(&sfs);
	self->devnum = st_dir->st_dev;
	/* before the ownership check: a tmpfs such as /dev/shm is usually shared
	 * (1777) too, and what is really wrong with it is that it is memory */
	if (magic == TMPFS_MAGIC || magic == RAMFS_MAGIC || major(self->devnum) == 0) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    /* Translators: a folder, then its file system (tmpfs) */
			    _("%s is on %s, which is not a block device: direct I/O would "
			      "measure memory, not a card (/tmp is such a file system on Debian 13 "
			      "and Raspberry Pi OS trixie); choose a folder on the card, such as "
			      "/var/tmp on a Raspberry Pi"),
			    self->dir,
			    self->filesystem);
		return FALSE;
	}
	return TRUE;
}

/* the file must be where the directory is, and take aligned direct I/O */
static gboolean
sdt_bench_target_check_file(SdtBenchTarget *self, const struct stat *st_dir, GError **error)
{
	struct stat st_file;
	struct statx stx;

	if (fstat(self->fd, &st_file) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), self->dir);
	if (st_file.st_dev != st_dir->st_dev) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_FAILED,
			    _("The test file in %s landed on device %u:%u, not on %s"),
			    self->dir,
			    major(st_file.st_dev),
			    minor(st_file.st_dev),
			    self->device);
		return FALSE;
	}
	if (statx(self->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) &&
	    (stx.stx_dio_offset_align == 0 || stx.stx_dio_offset_align > 4096 ||
	     stx.stx_dio_mem_align > 4096)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("The %s file system on %s does not support direct I/O in 4 KiB "
			      "blocks (alignment %u)"),
			    self->filesystem,
			    self->dir,
			    stx.stx_dio_offset_align);
		return FALSE;
	}
	return TRUE;
}

SdtBenchTarget *
sdt_bench_target_open(const gchar *dir, guint64 size, SdtBenchTargetFlags flags, GError **error)
{
	g_autoptr(SdtBenchTarget) self = g_new0(SdtBenchTarget, 1);
	struct stat st_dir;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	self->fd = -1;
	self->size = size;
	self->dir = g_canonicalize_filename(dir, NULL);
	if (!sdt_bench_target_check_dir(self->dir, &st_dir, error) ||
	    !sdt_bench_target_check_fs(self, &st_dir, error) ||
	    !sdt_bench_target_check_owner(self->dir, &st_dir, error))
		return NULL;
	sdt_bench_target_identify(self);
	if (!sdt_bench_target_check_space(self, error) ||
	    !sdt_bench_target_create(self, flags, error) ||
	    !sdt_bench_target_check_file(self, &st_dir, error))
		return NULL;
	if (fallocate(self->fd, 0, 0, (off_t) size) != 0 && errno != EOPNOTSUPP) {
		sdt_error_set_from_errno(
			error,
			errno,
			_("Cannot reserve %" PRIu64 " MiB for the test file in %s on %s"),
			size / (1024 * 1024),
			self->dir,
			self->device);
		return NULL;
	}
	return g_steal_pointer(&self);
}

/* O_EXCL: refused while it or a partition is mounted, or another program holds it */
static gint
sdt_bench_target_open_excl(const gchar *node, gint flags, GError **error)
{
	gint fd = open(node, flags | O_DIRECT | O_EXCL | O_CLOEXEC | O_NOCTTY);

	if (fd < 0 && errno == EBUSY) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_BUSY,
			    _("%s is in use (mounted, or held by another program, check or "
			      "benchmark); unmount it and try again"),
			    node);
		return -1;
	}
	if (fd < 0)
		sdt_error_set_from_errno(error, errno, _("Cannot open %s"), node);
	return fd;
}

SdtBenchTarget *
sdt_bench_target_open_device(const gchar *node,
			     guint64 size,
			     gboolean writes,
			     gboolean *read_only,
			     GError **error)
{
	g_autoptr(SdtBenchTarget) self = g_new0(SdtBenchTarget, 1);
	guint64 bytes = 0;
	gint ro = 0;
	struct stat st;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	self->fd = sdt_bench_target_open_excl(node, O_RDONLY, error);
	if (self->fd < 0)
		return NULL;
	if (fstat(self->fd, &st) != 0 || !S_ISBLK(st.st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("%s is not a block device"),
			    node);
		return NULL;
	}
	if (ioctl(self->fd, BLKGETSIZE64, &bytes) != 0 || bytes == 0) {
		g_set_error(error, SDT_ERROR, SDT_ERROR_NOT_FOUND, _("%s holds no card"), node);
		return NULL;
	}
	*read_only = ioctl(self->fd, BLKROGET, &ro) == 0 && ro != 0;
	if (bytes < SDT_BENCH_DEVICE_OFFSET + size) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NO_SPACE,
			    _("%s holds %" PRIu64 " MiB, too small for the %" PRIu64
			      " MiB region of this profile after its first %" PRIu64
			      " MiB; choose a smaller profile"),
			    node,
			    bytes / (1024 * 1024),
			    size / (1024 * 1024),
			    SDT_BENCH_DEVICE_OFFSET / (1024 * 1024));
		return NULL;
	}
	if (writes && !*read_only) {
		/* the second descriptor, for writes: the first one's O_EXCL claim holds the
		 * card (as the check's), so no mount can take it between the two */
		self->hold_fd = self->fd;
		self->fd = open(node, O_RDWR | O_DIRECT | O_CLOEXEC | O_NOCTTY);
		if (self->fd < 0) {
			sdt_error_set_from_errno(error, errno, _("Cannot write to %s"), node);
			return NULL;
		}
	}
	self->whole_device = TRUE;
	self->no_writes = !writes || *read_only;
	self->offset = SDT_BENCH_DEVICE_OFFSET;
	self->size = size;
	self->devnum = st.st_rdev;
	self->device_size = bytes;
	self->device = g_path_get_basename(node);
	self->device_node = g_strdup(node);
	self->disk_node = g_strdup(node);
	return g_steal_pointer(&self);
}

gint
sdt_bench_target_open_raw(SdtBenchTarget *self, GError **error)
{
	gint fd;

	g_return_val_if_fail(error == NULL || *error == NULL, -1);
	g_return_val_if_fail(self != NULL, -1);

	if (self->disk_node == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("No device node for %s"),
			    self->device);
		return -1;
	}
	fd = open(self->disk_node, SDT_BENCH_RAW_OPEN_FLAGS);
	if (fd < 0) {
		sdt_error_set_from_errno(error, errno, _("Cannot open %s"), self->disk_node);
		return -1;
	}
	return fd;
}
