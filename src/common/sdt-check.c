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
#include <unistd.h>

#include "sdt-bench-target.h"
#include "sdt-check.h"
#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-mounts.h"

#define SDT_CHECK_BLOCK     4096u
#define SDT_CHECK_MAGIC     G_GUINT64_CONSTANT(0x31304b4843544453) /* "SDTCHK01" */
#define SDT_CHECK_MIB       (G_GUINT64_CONSTANT(1) << 20)
#define SDT_CHECK_N_ANCHORS 16
#define SDT_CHECK_N_TOP     64  /* read-only probes in the upper half */
#define SDT_CHECK_STRATA    256 /* coverage: slices of the address space */
#define SDT_CHECK_TOP_MIN   8   /* verified samples in the top 10% for "genuine" */
#define SDT_CHECK_FULL_IO   (4 * SDT_CHECK_MIB)

typedef struct udev SdtCheckUdev;
typedef struct udev_device SdtCheckUdevDevice;
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtCheckUdev, udev_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtCheckUdevDevice, udev_device_unref)

typedef struct {
	guint64 start; /* device byte offset */
	guint64 len;
	guint64 rank; /* 4 KiB blocks of the reserved space before this extent */
} SdtCheckExtent;

typedef enum {
	SDT_CHECK_BLOCK_OK,
	SDT_CHECK_BLOCK_LOST,        /* zeros: the write went nowhere */
	SDT_CHECK_BLOCK_OVERWRITTEN, /* another sample's block: an address wrap */
	SDT_CHECK_BLOCK_CORRUPT,
	SDT_CHECK_BLOCK_IO_ERROR,
} SdtCheckBlockState;

typedef struct {
	const SdtCheckConfig *config;
	SdtBenchProgressFunc progress;
	gpointer user_data;
	GCancellable *cancellable;
	gint64 started;

	/* the target */
	gchar *dir;
	gchar *device; /* "mmcblk0p2" */
	gchar *disk_node;
	gchar *filesystem;
	guint64 part_start; /* byte offset of the file system on the disk */
	guint64 claim;      /* the disk's size */
	gint rfd;           /* the disk, O_RDONLY | O_DIRECT */
	gint wfd;           /* the disk, O_RDWR | O_DIRECT, only after the read-only phase */
	gint file_fd;       /* the reserved file */
	guint8 *buf;        /* SDT_CHECK_FULL_IO bytes, aligned */
	guint8 *expect;     /* one block */

	GArray *candidates; /* guint64, ascending */
	GArray *guard;      /* the candidates a write's alias must respect */
	GArray *extents;    /* SdtCheckExtent, ascending */
	guint64 reserved;   /* bytes */
	guint64 reserved_blocks;
	guint64 reserved_top; /* end of the highest extent */
	guint64 seed;
	GRand *rand;

	/* findings */
	guint n_read;
	guint n_written;
	guint n_bad;
	guint n_top_verified;
	guint64 verified_bytes; /* full mode */
	gdouble write_mb_s;     /* full mode: the write pass, 10^6 bytes/s */
	gdouble read_mb_s;
	gboolean strata[SDT_CHECK_STRATA];
	const gchar *failure; /* "wrap", "lost-writes", "io-error", "corrupted" */
	guint64 first_bad;    /* G_MAXUINT64: none */
	guint64 estimate;
	guint64 last_good; /* highest verified address below first_bad */
	GPtrArray *notes;
	gchar *reason;         /* why fake or undetermined */
	gchar *genuine_reason; /* full mode: what was verified */
} SdtCheck;

static void
sdt_check_clear(SdtCheck *self)
{
	if (self->file_fd >= 0)
		close(self->file_fd);
	if (self->rfd >= 0)
		close(self->rfd);
	if (self->wfd >= 0)
		close(self->wfd);
	g_free(self->buf);
	g_free(self->dir);
	g_free(self->device);
	g_free(self->disk_node);
	g_free(self->filesystem);
	g_clear_pointer(&self->candidates, g_array_unref);
	g_clear_pointer(&self->guard, g_array_unref);
	g_clear_pointer(&self->extents, g_array_unref);
	g_clear_pointer(&self->rand, g_rand_free);
	g_clear_pointer(&self->notes, g_ptr_array_unref);
	g_free(self->reason);
	g_free(self->genuine_reason);
}

void
sdt_check_config_init(SdtCheckConfig *config, SdtCheckMode mode)
{
	memset(config, 0, sizeof(*config));
	config->mode = mode;
	config->n_samples = 256;
}

gboolean
sdt_check_mode_from_string(const gchar *name, SdtCheckMode *mode, GError **error)
{
	if (g_strcmp0(name, "quick") == 0) {
		*mode = SDT_CHECK_MODE_QUICK;
		return TRUE;
	}
	if (g_strcmp0(name, "full") == 0) {
		*mode = SDT_CHECK_MODE_FULL;
		return TRUE;
	}
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_ARGUMENT,
		    _("Unknown check mode “%s”: use quick or full"),
		    name != NULL ? name : "");
	return FALSE;
}

static gint
sdt_check_cmp_u64(gconstpointer a, gconstpointer b)
{
	guint64 x = *(const guint64 *) a;
	guint64 y = *(const guint64 *) b;
	return x < y ? -1 : x > y ? 1 : 0;
}

GArray *
sdt_check_candidate_sizes(guint64 claim)
{
	static const guint marketing_gb[] = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};
	static const guint marketing_mb[] = {16, 32, 64, 128, 256, 512};
	GArray *sizes = g_array_new(FALSE, FALSE, sizeof(guint64));

	for (guint64 c = SDT_CHECK_MIB; c < claim; c <<= 1)
		g_array_append_val(sizes, c);
	for (guint i = 0; i < G_N_ELEMENTS(marketing_gb); i++) {
		guint64 c = (guint64) marketing_gb[i] * 1000000000;
		if (c < claim)
			g_array_append_val(sizes, c);
	}
	for (guint i = 0; i < G_N_ELEMENTS(marketing_mb); i++) {
		guint64 c = (guint64) marketing_mb[i] * 1000000;
		if (c < claim)
			g_array_append_val(sizes, c);
	}
	g_array_sort(sizes, sdt_check_cmp_u64);
	return sizes;
}

/* ---- blocks ---- */

static guint64
sdt_check_mix(guint64 x)
{
	/* splitmix64 */
	x += G_GUINT64_CONSTANT(0x9e3779b97f4a7c15);
	x = (x ^ (x >> 30)) * G_GUINT64_CONSTANT(0xbf58476d1ce4e5b9);
	x = (x ^ (x >> 27)) * G_GUINT64_CONSTANT(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

/* the block that belongs at device offset @offset in this run */
static void
sdt_check_fill(guint8 *block, guint64 seed, guint64 offset)
{
	guint64 words[SDT_CHECK_BLOCK / 8];
	guint64 state = seed ^ (offset * G_GUINT64_CONSTANT(0x2545f4914f6cdd1d));

	words[0] = GUINT64_TO_LE(SDT_CHECK_MAGIC);
	words[1] = GUINT64_TO_LE(seed);
	words[2] = GUINT64_TO_LE(offset);
	for (guint i = 3; i < G_N_ELEMENTS(words); i++)
		words[i] = sdt_check_mix(state + i);
	memcpy(block, words, SDT_CHECK_BLOCK);
}

static gboolean
sdt_check_is_uniform(const guint8 *block, gsize len)
{
	for (gsize i = 1; i < len; i++)
		if (block[i] != block[0])
			return FALSE;
	return TRUE;
}

/* what a read-back block says; @other: the offset it carries when overwritten */
static SdtCheckBlockState
sdt_check_classify(SdtCheck *self, const guint8 *block, guint64 offset, guint64 *other)
{
	guint64 words[3];

	sdt_check_fill(self->expect, self->seed, offset);
	if (memcmp(block, self->expect, SDT_CHECK_BLOCK) == 0)
		return SDT_CHECK_BLOCK_OK;
	if (block[0] == 0 && sdt_check_is_uniform(block, SDT_CHECK_BLOCK))
		return SDT_CHECK_BLOCK_LOST;
	memcpy(words, block, sizeof(words));
	if (GUINT64_FROM_LE(words[0]) == SDT_CHECK_MAGIC &&
	    GUINT64_FROM_LE(words[1]) == self->seed) {
		*other = GUINT64_FROM_LE(words[2]);
		sdt_check_fill(self->expect, self->seed, *other);
		if (*other != offset && memcmp(block, self->expect, SDT_CHECK_BLOCK) == 0)
			return SDT_CHECK_BLOCK_OVERWRITTEN;
	}
	return SDT_CHECK_BLOCK_CORRUPT;
}

/* ---- raw I/O ---- */

static gboolean
sdt_check_cancelled(SdtCheck *self, GError **error)
{
	if (!g_cancellable_is_cancelled(self->cancellable))
		return FALSE;
	g_set_error_literal(error,
			    SDT_ERROR,
			    SDT_ERROR_CANCELLED,
			    _("The check was stopped; the reserved file was removed"));
	return TRUE;
}

/* 0, or the errno of a failed or short read */
static gint
sdt_check_pread(SdtCheck *self, guint8 *buf, gsize len, guint64 offset)
{
	gint rc = sdt_file_pread_all(self->rfd, buf, len, offset, NULL);

	if (rc == 0)
		self->n_read++;
	return rc;
}

static gint
sdt_check_pwrite(SdtCheck *self, const guint8 *buf, gsize len, guint64 offset)
{
	return sdt_file_pwrite_all(self->wfd, buf, len, offset, NULL);
}

static void
sdt_check_report(SdtCheck *self, const gchar *phase, gdouble fraction)
{
	if (self->progress != NULL)
		self->progress(phase, CLAMP(fraction, 0.0, 1.0), 0.0, self->user_data);
}

/* @offset was read (and, with @written, written) and is what it should be */
static void
sdt_check_mark(SdtCheck *self, guint64 offset, gboolean written)
{
	guint i = (guint) (offset / ((self->claim + SDT_CHECK_STRATA - 1) / SDT_CHECK_STRATA));
	if (i < SDT_CHECK_STRATA)
		self->strata[i] = TRUE;
	if (written && offset >= self->claim / 10 * 9)
		self->n_top_verified++;
}

static void
sdt_check_set_bad(SdtCheck *self, const gchar *failure, guint64 offset)
{
	if (self->failure == NULL || offset < self->first_bad) {
		self->failure = failure;
		self->first_bad = offset;
	}
}

/* ---- the target ---- */

gboolean
sdt_check_fs_supported(const gchar *filesystem)
{
	/* FIEMAP's fe_physical is an offset on the file system's own block device
	 * only where one file system sits on one device: btrfs reports its
	 * logical addresses, so a raw write there would land elsewhere */
	const gchar *ok[] = {"ext4", "vfat", "xfs", "f2fs", NULL};
	return filesystem != NULL && g_strv_contains(ok, filesystem);
}

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

	/* the kernel's own table (a /proc file has no size to bound it by) */
	if (!g_file_get_contents("/proc/self/mountinfo", &text, &len, NULL))
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

static gboolean
sdt_check_open_target(SdtCheck *self, GError **error)
{
	g_autoptr(SdtCheckUdev) udev = udev_new();
	g_autoptr(SdtCheckUdevDevice) dev = NULL;
	struct udev_device *disk;
	struct statfs sfs;
	struct statvfs vfs;
	struct stat st;
	const gchar *value;
	const gchar *fs;

	if (g_lstat(self->dir, &st) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), self->dir);
	if (!S_ISDIR(st.st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s is not a directory"),
			    self->dir);
		return FALSE;
	}
	if ((st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s is writable by other users; the check only reserves space in a "
			      "directory owned by root"),
			    self->dir);
		return FALSE;
	}
	if (statfs(self->dir, &sfs) != 0 || statvfs(self->dir, &vfs) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), self->dir);
	fs = sdt_bench_target_fs_name((guint64) sfs.f_type);
	self->filesystem = g_strdup(fs != NULL ? fs : "unknown");
	if (udev != NULL && major(st.st_dev) != 0)
		dev = udev_device_new_from_devnum(udev, 'b', st.st_dev);
	if (vfs.f_flag & ST_RDONLY) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_READ_ONLY,
			    _("The file system at %s is mounted read-only; remount it read-write "
			      "to check the card"),
			    self->dir);
		return FALSE;
	}
	if (dev != NULL && !sdt_check_fs_supported(self->filesystem)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_SUPPORTED,
			    _("The check cannot work on the %s file system at %s: it needs ext4, "
			      "vfat, xfs or f2fs, where a file's place on the disk is known"),
			    self->filesystem,
			    self->dir);
		return FALSE;
	}
	if (dev == NULL) {
		if (major(st.st_dev) == 0 || !sdt_check_target_from_mount(self, st.st_dev)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_NOT_SUPPORTED,
				    _("%s is not on a block device (%s file system); the check "
				      "needs the card's own file system"),
				    self->dir,
				    self->filesystem);
			return FALSE;
		}
	} else {
		self->device = g_strdup(udev_device_get_sysname(dev));
		if (g_strcmp0(udev_device_get_devtype(dev), "disk") == 0) {
			disk = dev;
		} else {
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
	}
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

/* ---- phase 1: read only ---- */

/* the lowest failing block in (@good, @bad], by reads only */
static guint64
sdt_check_bisect_reads(SdtCheck *self, guint64 good, guint64 bad)
{
	while (bad - good > SDT_CHECK_BLOCK) {
		guint64 mid = good + (bad - good) / 2 / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
		if (mid <= good)
			mid = good + SDT_CHECK_BLOCK;
		if (sdt_check_pread(self, self->buf, SDT_CHECK_BLOCK, mid) == 0)
			good = mid;
		else
			bad = mid;
	}
	return bad;
}

static gboolean
sdt_check_read_phase(SdtCheck *self, GError **error)
{
	/* O_DIRECT reads need aligned buffers */
	guint8 *anchors =
		g_aligned_alloc(SDT_CHECK_N_ANCHORS * 2, SDT_CHECK_BLOCK, SDT_CHECK_BLOCK);
	guint64 anchor_at[SDT_CHECK_N_ANCHORS * 2];
	guint n_anchors = 0;
	guint64 good = 0;
	guint64 bad = G_MAXUINT64;
	guint64 top_step = self->claim / 2 / SDT_CHECK_N_TOP / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;

	sdt_check_report(self, "read", 0.0);
	/* anchors: the first blocks of the disk and of the file system, when they say something */
	for (guint i = 0; i < SDT_CHECK_N_ANCHORS * 2; i++) {
		guint64 at = (i < SDT_CHECK_N_ANCHORS ? 0 : self->part_start) +
			     (guint64) (i % SDT_CHECK_N_ANCHORS) * SDT_CHECK_BLOCK;
		guint8 *slot = anchors + (gsize) n_anchors * SDT_CHECK_BLOCK;
		gboolean dup = FALSE;
		for (guint j = 0; j < n_anchors; j++)
			dup = dup || anchor_at[j] == at;
		if (dup || sdt_check_pread(self, slot, SDT_CHECK_BLOCK, at) != 0 ||
		    sdt_check_is_uniform(slot, SDT_CHECK_BLOCK))
			continue;
		anchor_at[n_anchors++] = at;
	}
	if (n_anchors == 0)
		g_ptr_array_add(self->notes,
				g_strdup(_("The first blocks of the card are empty, so the "
					   "read-only phase could not look for an address wrap")));

	/* a wrap at C shows the anchors again at anchor + C */
	for (guint c = 0; c < self->candidates->len && n_anchors > 0; c++) {
		guint64 size = g_array_index(self->candidates, guint64, c);
		guint tried = 0;
		guint match = 0;
		for (guint i = 0; i < n_anchors; i++) {
			guint64 at = anchor_at[i] + size;
			gint err;
			if (at + SDT_CHECK_BLOCK > self->claim)
				continue;
			err = sdt_check_pread(self, self->buf, SDT_CHECK_BLOCK, at);
			if (err != 0) {
				bad = MIN(bad, at);
				continue;
			}
			tried++;
			sdt_check_mark(self, at, FALSE);
			if (memcmp(self->buf,
				   anchors + (gsize) i * SDT_CHECK_BLOCK,
				   SDT_CHECK_BLOCK) == 0)
				match++;
		}
		if (tried > 0 && match == tried) {
			sdt_check_set_bad(self, "wrap", size);
			self->estimate = size;
			self->reason = g_strdup_printf(
				_("The card's first blocks appear again at %" PRIu64
				  " MiB: its addresses wrap around there, so it holds about "
				  "%" PRIu64 " MiB, not %" PRIu64 " MiB"),
				size / SDT_CHECK_MIB,
				size / SDT_CHECK_MIB,
				self->claim / SDT_CHECK_MIB);
			break;
		}
		if (sdt_check_cancelled(self, error)) {
			g_aligned_free(anchors);
			return FALSE;
		}
	}
	g_aligned_free(anchors);
	sdt_check_report(self, "read", 0.5);

	/* I/O errors in the upper half, and at the very end */
	if (self->failure == NULL) {
		for (guint i = 0; i <= SDT_CHECK_N_TOP; i++) {
			guint64 at = i == SDT_CHECK_N_TOP
					     ? self->claim - SDT_CHECK_BLOCK
					     : self->claim / 2 / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK +
						       (guint64) i * top_step;
			if (at >= bad)
				break;
			if (sdt_check_pread(self, self->buf, SDT_CHECK_BLOCK, at) == 0) {
				good = MAX(good, at);
				sdt_check_mark(self, at, FALSE);
			} else {
				bad = at;
			}
		}
	}
	if (self->failure == NULL && bad != G_MAXUINT64) {
		/* confirm once: a single transient error does not make a card fake */
		if (sdt_check_pread(self, self->buf, SDT_CHECK_BLOCK, bad) != 0) {
			guint64 first = sdt_check_bisect_reads(self, good < bad ? good : 0, bad);
			sdt_check_set_bad(self, "io-error", first);
			self->estimate = first;
			self->reason = g_strdup_printf(_("Reads fail from %" PRIu64
							 " MiB on: the card holds about %" PRIu64
							 " MiB, not %" PRIu64 " MiB"),
						       first / SDT_CHECK_MIB,
						       first / SDT_CHECK_MIB,
						       self->claim / SDT_CHECK_MIB);
		}
	}
	sdt_check_report(self, "read", 1.0);
	return TRUE;
}

/* ---- phase 2: the reserved file ---- */

static gboolean
sdt_check_reserve(SdtCheck *self, GError **error)
{
	struct statvfs vfs;
	guint64 avail;
	guint64 size;
	guint64 margin;
	g_autofree struct fiemap *map = NULL;
	guint n_max = 1024;

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
	size = (avail - margin) / SDT_CHECK_MIB * SDT_CHECK_MIB;

	sdt_check_report(self, "reserve", 0.0);
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
	if (fallocate(self->file_fd, 0, 0, (off_t) size) != 0)
		return sdt_error_set_from_errno(error,
						errno,
						_("Cannot reserve %" PRIu64 " MiB in %s"),
						size / SDT_CHECK_MIB,
						self->dir);
	self->reserved = size;

	map = g_malloc0(sizeof(struct fiemap) + n_max * sizeof(struct fiemap_extent));
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
			struct fiemap_extent *fe = &map->fm_extents[i];
			SdtCheckExtent ext;
			guint64 start = self->part_start + fe->fe_physical;
			guint64 end = start + fe->fe_length;
			logical = fe->fe_logical + fe->fe_length;
			last = fe->fe_flags & FIEMAP_EXTENT_LAST;
			if (fe->fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
					    FIEMAP_EXTENT_ENCODED | FIEMAP_EXTENT_NOT_ALIGNED |
					    FIEMAP_EXTENT_DATA_INLINE | FIEMAP_EXTENT_SHARED))
				continue;
			start = (start + SDT_CHECK_BLOCK - 1) / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
			end = end / SDT_CHECK_BLOCK * SDT_CHECK_BLOCK;
			if (end <= start || end > self->claim)
				continue;
			ext.start = start;
			ext.len = end - start;
			ext.rank = 0;
			g_array_append_val(self->extents, ext);
		}
		if (last)
			break;
	}
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
	g_array_sort(self->extents, (GCompareFunc) sdt_check_cmp_u64);
	for (guint i = 0; i < self->extents->len; i++) {
		SdtCheckExtent *e = &g_array_index(self->extents, SdtCheckExtent, i);
		e->rank = self->reserved_blocks;
		self->reserved_blocks += e->len / SDT_CHECK_BLOCK;
		self->reserved_top = MAX(self->reserved_top, e->start + e->len);
	}
	sdt_check_report(self, "reserve", 1.0);
	return TRUE;
}

/* is [@at, @at + 4 KiB) inside the reserved file? */
static gboolean
sdt_check_in_reserved(SdtCheck *self, guint64 at)
{
	guint lo = 0;
	guint hi = self->extents->len;

	while (lo < hi) {
		guint mid = (lo + hi) / 2;
		const SdtCheckExtent *e = &g_array_index(self->extents, SdtCheckExtent, mid);
		if (at < e->start)
			hi = mid;
		else if (at >= e->start + e->len)
			lo = mid + 1;
		else
			return at + SDT_CHECK_BLOCK <= e->start + e->len;
	}
	return FALSE;
}

/*
 * The write guard: a block may be written at @at only if, for every guard size
 * C, the place a wrap at C would really put it (@at mod C) is inside the
 * reserved file too.
 */
static gboolean
sdt_check_eligible(SdtCheck *self, guint64 at)
{
	if (!sdt_check_in_reserved(self, at))
		return FALSE;
	for (guint i = 0; i < self->guard->len; i++) {
		guint64 size = g_array_index(self->guard, guint64, i);
		if (at >= size && !sdt_check_in_reserved(self, at % size))
			return FALSE;
	}
	return TRUE;
}

/* the device offset of the @rank-th 4 KiB block of the reserved space */
static guint64
sdt_check_rank_to_offset(SdtCheck *self, guint64 rank)
{
	guint lo = 0;
	guint hi = self->extents->len;

	while (hi - lo > 1) {
		guint mid = (lo + hi) / 2;
		if (g_array_index(self->extents, SdtCheckExtent, mid).rank <= rank)
			lo = mid;
		else
			hi = mid;
	}
	{
		const SdtCheckExtent *e = &g_array_index(self->extents, SdtCheckExtent, lo);
		return e->start + (rank - e->rank) * SDT_CHECK_BLOCK;
	}
}

/* the rank of the first reserved block at or above @offset */
static guint64
sdt_check_offset_to_rank(SdtCheck *self, guint64 offset)
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

static guint64
sdt_check_rand64(SdtCheck *self, guint64 n)
{
	guint64 r = ((guint64) g_rand_int(self->rand) << 32) | g_rand_int(self->rand);
	return n == 0 ? 0 : r % n;
}

/* one eligible block in ranks [@lo, @hi), or G_MAXUINT64 */
static guint64
sdt_check_pick(SdtCheck *self, guint64 lo, guint64 hi)
{
	for (guint tries = 0; tries < 64 && hi > lo; tries++) {
		guint64 at = sdt_check_rank_to_offset(self, lo + sdt_check_rand64(self, hi - lo));
		if (sdt_check_eligible(self, at))
			return at;
	}
	return G_MAXUINT64;
}

static void
sdt_check_add_sample(SdtCheck *self, GArray *samples, guint64 at)
{
	if (at == G_MAXUINT64)
		return;
	g_array_append_val(samples, at);
	/* its aliases too, so a wrap at a guard size overwrites a block we check */
	for (guint i = 0; i < self->guard->len; i++) {
		guint64 size = g_array_index(self->guard, guint64, i);
		guint64 alias = at % size;
		if (at >= size && sdt_check_eligible(self, alias))
			g_array_append_val(samples, alias);
	}
}

static GArray *
sdt_check_choose_samples(SdtCheck *self)
{
	GArray *samples = g_array_new(FALSE, FALSE, sizeof(guint64));
	GArray *unique = g_array_new(FALSE, FALSE, sizeof(guint64));
	guint n = MAX(self->config->n_samples, 1);
	guint64 total = self->reserved_blocks;
	guint64 top_lo = sdt_check_offset_to_rank(self, self->claim / 10 * 9);

	/* stratified over the whole reserved space */
	for (guint i = 0; i < n; i++)
		sdt_check_add_sample(self,
				     samples,
				     sdt_check_pick(self, total * i / n, total * (i + 1) / n));
	/* as many again in the top 10% of the card's addresses */
	if (top_lo < total) {
		guint64 span = total - top_lo;
		for (guint i = 0; i < n; i++)
			sdt_check_add_sample(self,
					     samples,
					     sdt_check_pick(self,
							    top_lo + span * i / n,
							    top_lo + span * (i + 1) / n));
	}
	/* and the highest eligible block */
	for (guint64 r = total; r > 0 && total - r < 4096; r--) {
		guint64 at = sdt_check_rank_to_offset(self, r - 1);
		if (sdt_check_eligible(self, at)) {
			sdt_check_add_sample(self, samples, at);
			break;
		}
	}
	g_array_sort(samples, sdt_check_cmp_u64);
	for (guint i = 0; i < samples->len; i++) {
		guint64 at = g_array_index(samples, guint64, i);
		if (unique->len > 0 &&
		    at < g_array_index(unique, guint64, unique->len - 1) + SDT_CHECK_BLOCK)
			continue;
		g_array_append_val(unique, at);
	}
	g_array_unref(samples);
	return unique;
}

static gboolean
sdt_check_open_write(SdtCheck *self, GError **error)
{
	self->wfd = open(self->disk_node, O_RDWR | O_DIRECT | O_CLOEXEC | O_NOCTTY);
	if (self->wfd < 0)
		return sdt_error_set_from_errno(error,
						errno,
						_("Cannot write to %s inside the reserved file"),
						self->disk_node);
	return TRUE;
}

/* writes, syncs and reads back @samples (ascending); records what it finds */
static gboolean
sdt_check_write_verify(SdtCheck *self, GArray *samples, gdouble from, gdouble to, GError **error)
{
	gdouble span = to - from;
	guint n = samples->len;
	GArray *states = g_array_sized_new(FALSE, TRUE, sizeof(guint8), n);
	g_array_set_size(states, n);

	for (guint i = 0; i < n; i++) {
		guint64 at = g_array_index(samples, guint64, i);
		sdt_check_fill(self->buf, self->seed, at);
		if (sdt_check_pwrite(self, self->buf, SDT_CHECK_BLOCK, at) != 0)
			g_array_index(states, guint8, i) = SDT_CHECK_BLOCK_IO_ERROR;
		else
			self->n_written++;
		if (i % 16 == 0) {
			sdt_check_report(self, "write", from + span / 2 * i / n);
			if (sdt_check_cancelled(self, error)) {
				g_array_unref(states);
				return FALSE;
			}
		}
	}
	if (fdatasync(self->wfd) != 0)
		g_ptr_array_add(self->notes,
				g_strdup_printf(_("Flushing %s failed: %s"),
						self->disk_node,
						g_strerror(errno)));
	for (guint i = 0; i < n; i++) {
		guint64 at = g_array_index(samples, guint64, i);
		guint64 other = 0;
		SdtCheckBlockState state = g_array_index(states, guint8, i);

		if (state == SDT_CHECK_BLOCK_OK) {
			if (sdt_check_pread(self, self->buf, SDT_CHECK_BLOCK, at) != 0)
				state = SDT_CHECK_BLOCK_IO_ERROR;
			else
				state = sdt_check_classify(self, self->buf, at, &other);
		}
		switch (state) {
		case SDT_CHECK_BLOCK_OK:
			sdt_check_mark(self, at, TRUE);
			if (self->failure == NULL || at < self->first_bad)
				self->last_good = MAX(self->last_good, at);
			break;
		case SDT_CHECK_BLOCK_OVERWRITTEN:
			/* the block written at @other landed here: addresses wrap at other - at */
			self->n_bad++;
			if (other > at) {
				guint64 size = other - at;
				if (self->estimate == 0 || size < self->estimate)
					self->estimate = size;
				sdt_check_set_bad(self, "wrap", self->estimate);
				self->first_bad = self->estimate;
			} else {
				sdt_check_set_bad(self, "corrupted", at);
			}
			break;
		case SDT_CHECK_BLOCK_LOST:
			self->n_bad++;
			sdt_check_set_bad(self, "lost-writes", at);
			break;
		case SDT_CHECK_BLOCK_IO_ERROR:
			self->n_bad++;
			sdt_check_set_bad(self, "io-error", at);
			break;
		case SDT_CHECK_BLOCK_CORRUPT:
		default:
			self->n_bad++;
			sdt_check_set_bad(self, "corrupted", at);
			break;
		}
		if (i % 16 == 0) {
			sdt_check_report(self, "verify", from + span / 2 + span / 2 * i / n);
			if (sdt_check_cancelled(self, error)) {
				g_array_unref(states);
				return FALSE;
			}
		}
	}
	g_array_unref(states);
	return TRUE;
}

/* narrows the boundary between the last good and the first bad block by writes */
static gboolean
sdt_check_refine(SdtCheck *self, GError **error)
{
	guint64 good = self->last_good;
	guint64 bad = self->first_bad;
	guint64 precision = MAX(self->claim / 512, (guint64) SDT_CHECK_BLOCK);

	for (guint step = 0; step < 24 && bad > good && bad - good > precision; step++) {
		guint64 lo = sdt_check_offset_to_rank(self, good + SDT_CHECK_BLOCK);
		guint64 hi = sdt_check_offset_to_rank(self, bad);
		guint64 mid = lo + (hi - lo) / 2;
		guint64 at = G_MAXUINT64;
		guint64 best = 0;
		g_autoptr(GArray) one = g_array_new(FALSE, FALSE, sizeof(guint64));
		guint bad_before = self->n_bad;

		if (hi <= lo)
			break;
		/* of a few eligible blocks in between, the one nearest the middle */
		for (guint tries = 0; tries < 64; tries++) {
			guint64 pick = sdt_check_pick(self, lo, hi);
			guint64 rank;
			if (pick == G_MAXUINT64)
				break;
			rank = sdt_check_offset_to_rank(self, pick);
			if (at == G_MAXUINT64 || (rank > mid ? rank - mid : mid - rank) <
							 (best > mid ? best - mid : mid - best)) {
				at = pick;
				best = rank;
			}
		}
		if (at == G_MAXUINT64 || at <= good || at >= bad)
			break;
		g_array_append_val(one, at);
		self->failure = NULL;
		if (!sdt_check_write_verify(self, one, 0.9, 0.95, error))
			return FALSE;
		if (self->n_bad > bad_before) {
			bad = at;
		} else {
			good = at;
		}
		self->first_bad = bad;
		self->failure = NULL;
	}
	self->first_bad = bad;
	self->last_good = good;
	return TRUE;
}

static gboolean
sdt_check_write_phase(SdtCheck *self, GError **error)
{
	g_autoptr(GArray) samples = NULL;
	const gchar *failure;

	self->guard = g_array_new(FALSE, FALSE, sizeof(guint64));
	for (guint i = 0; i < self->candidates->len; i++) {
		guint64 size = g_array_index(self->candidates, guint64, i);
		if (size >= self->claim / 2)
			g_array_append_val(self->guard, size);
	}
	if (!sdt_check_reserve(self, error))
		return FALSE;
	samples = sdt_check_choose_samples(self);
	if (samples->len == 0) {
		self->reason = g_strdup(_("No part of the free space is safe to write to: "
					  "too little free space, or it is too fragmented"));
		return TRUE;
	}
	if (!sdt_check_open_write(self, error))
		return FALSE;
	if (!sdt_check_write_verify(self, samples, 0.1, 0.9, error))
		return FALSE;
	failure = self->failure;
	if (failure != NULL && g_strcmp0(failure, "wrap") != 0) {
		if (!sdt_check_refine(self, error))
			return FALSE;
		self->failure = failure;
		self->estimate = self->first_bad;
	}
	if (failure != NULL) {
		if (g_strcmp0(failure, "wrap") == 0)
			self->reason = g_strdup_printf(
				_("A block written at one address overwrote one written %" PRIu64
				  " MiB lower: the card's addresses wrap around, so it holds "
				  "about %" PRIu64 " MiB, not %" PRIu64 " MiB"),
				self->estimate / SDT_CHECK_MIB,
				self->estimate / SDT_CHECK_MIB,
				self->claim / SDT_CHECK_MIB);
		else if (g_strcmp0(failure, "lost-writes") == 0)
			self->reason = g_strdup_printf(
				_("Blocks written from about %" PRIu64
				  " MiB on read back as zeros: the card holds about %" PRIu64
				  " MiB, not %" PRIu64 " MiB"),
				self->first_bad / SDT_CHECK_MIB,
				self->estimate / SDT_CHECK_MIB,
				self->claim / SDT_CHECK_MIB);
		else if (g_strcmp0(failure, "io-error") == 0)
			self->reason = g_strdup_printf(_("Writes or reads fail from about %" PRIu64
							 " MiB on: the card holds about %" PRIu64
							 " MiB, not %" PRIu64 " MiB"),
						       self->first_bad / SDT_CHECK_MIB,
						       self->estimate / SDT_CHECK_MIB,
						       self->claim / SDT_CHECK_MIB);
		else
			self->reason = g_strdup_printf(
				_("Blocks written from about %" PRIu64
				  " MiB on read back changed: the card does not keep what is "
				  "written there"),
				self->first_bad / SDT_CHECK_MIB);
	}
	return TRUE;
}

/* ---- the result ---- */

static JsonNode *
sdt_check_to_json(SdtCheck *self)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	const gchar *verdict;
	guint covered = 0;
	gboolean fake = self->failure != NULL;

	for (guint i = 0; i < SDT_CHECK_STRATA; i++)
		covered += self->strata[i] ? 1 : 0;
	if (fake)
		verdict = "fake";
	else if (self->reason == NULL && self->n_top_verified >= SDT_CHECK_TOP_MIN)
		verdict = "genuine";
	else
		verdict = "undetermined";
	if (g_strcmp0(verdict, "undetermined") == 0 && self->reason == NULL)
		self->reason = g_strdup_printf(
			_("The free space does not reach far enough into the top 10%% of the "
			  "card (reserved up to %" PRIu64 " of %" PRIu64
			  " MiB); free some space and check again"),
			self->reserved_top / SDT_CHECK_MIB,
			self->claim / SDT_CHECK_MIB);
	if (g_strcmp0(verdict, "genuine") == 0 && self->genuine_reason != NULL)
		self->reason = g_steal_pointer(&self->genuine_reason);
	if (g_strcmp0(verdict, "genuine") == 0 && self->reason == NULL)
		self->reason = g_strdup_printf(
			_("Every sampled block up to %" PRIu64
			  " MiB kept what was written, and the card's addresses do not wrap"),
			self->reserved_top / SDT_CHECK_MIB);

	json_builder_begin_object(b);
	json_builder_set_member_name(b, "verdict");
	json_builder_add_string_value(b, verdict);
	json_builder_set_member_name(b, "mode");
	json_builder_add_string_value(b,
				      self->config->mode == SDT_CHECK_MODE_FULL ? "full" : "quick");
	json_builder_set_member_name(b, "claimed_bytes");
	json_builder_add_int_value(b, (gint64) self->claim);
	json_builder_set_member_name(b, "estimated_capacity_bytes");
	if (fake)
		json_builder_add_int_value(b, (gint64) self->estimate);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "first_bad_offset");
	if (fake)
		json_builder_add_int_value(b, (gint64) self->first_bad);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "failure");
	if (fake)
		json_builder_add_string_value(b, self->failure);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "coverage");
	if (self->config->mode == SDT_CHECK_MODE_FULL && self->claim > 0)
		json_builder_add_double_value(b, (gdouble) self->verified_bytes / self->claim);
	else
		json_builder_add_double_value(b, (gdouble) covered / SDT_CHECK_STRATA);
	json_builder_set_member_name(b, "reason");
	json_builder_add_string_value(b, self->reason);
	json_builder_set_member_name(b, "seconds");
	json_builder_add_double_value(b,
				      (gdouble) (g_get_monotonic_time() - self->started) /
					      G_USEC_PER_SEC);
	json_builder_set_member_name(b, "target");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "path");
	json_builder_add_string_value(b, self->dir);
	json_builder_set_member_name(b, "device");
	json_builder_add_string_value(b, self->device);
	json_builder_set_member_name(b, "disk");
	json_builder_add_string_value(b, self->disk_node);
	json_builder_set_member_name(b, "filesystem");
	json_builder_add_string_value(b, self->filesystem);
	json_builder_set_member_name(b, "stand_in");
	json_builder_add_boolean_value(b, self->config->stand_in);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "reserved_bytes");
	json_builder_add_int_value(b, (gint64) self->reserved);
	json_builder_set_member_name(b, "reserved_top_offset");
	json_builder_add_int_value(b, (gint64) self->reserved_top);
	if (self->config->mode == SDT_CHECK_MODE_FULL) {
		json_builder_set_member_name(b, "write_mb_s");
		json_builder_add_double_value(b, self->write_mb_s);
		json_builder_set_member_name(b, "read_mb_s");
		json_builder_add_double_value(b, self->read_mb_s);
	}
	json_builder_set_member_name(b, "samples");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "read");
	json_builder_add_int_value(b, self->n_read);
	json_builder_set_member_name(b, "written");
	json_builder_add_int_value(b, self->n_written);
	json_builder_set_member_name(b, "bad");
	json_builder_add_int_value(b, self->n_bad);
	json_builder_set_member_name(b, "top_verified");
	json_builder_add_int_value(b, self->n_top_verified);
	json_builder_end_object(b);
	json_builder_set_member_name(b, "notes");
	json_builder_begin_array(b);
	if (self->config->stand_in)
		json_builder_add_string_value(
			b,
			_("Stand-in: this checked the file system given with --dir, not the SD "
			  "card"));
	for (guint i = 0; i < self->notes->len; i++)
		json_builder_add_string_value(b, g_ptr_array_index(self->notes, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}

/* ---- full mode ---- */

static gboolean
sdt_check_full(SdtCheck *self, GError **error)
{
	guint64 total = self->reserved_blocks * SDT_CHECK_BLOCK;
	guint64 done = 0;
	gint64 t0 = g_get_monotonic_time();

	if (!sdt_check_open_write(self, error))
		return FALSE;
	for (gint pass = 0; pass < 2; pass++) {
		done = 0;
		for (guint e = 0; e < self->extents->len; e++) {
			const SdtCheckExtent *ext =
				&g_array_index(self->extents, SdtCheckExtent, e);
			for (guint64 off = 0; off < ext->len; off += SDT_CHECK_FULL_IO) {
				guint64 at = ext->start + off;
				gsize len =
					(gsize) MIN((guint64) SDT_CHECK_FULL_IO, ext->len - off);
				gdouble secs =
					(gdouble) (g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
				if (pass == 0) {
					for (gsize k = 0; k < len; k += SDT_CHECK_BLOCK)
						sdt_check_fill(self->buf + k, self->seed, at + k);
					if (sdt_check_pwrite(self, self->buf, len, at) != 0) {
						sdt_check_set_bad(self, "io-error", at);
						self->n_bad++;
					} else {
						self->n_written += (guint) (len / SDT_CHECK_BLOCK);
					}
				} else if (sdt_check_pread(self, self->buf, len, at) != 0) {
					sdt_check_set_bad(self, "io-error", at);
					self->n_bad++;
				} else {
					for (gsize k = 0; k < len; k += SDT_CHECK_BLOCK) {
						guint64 other = 0;
						SdtCheckBlockState st =
							sdt_check_classify(self,
									   self->buf + k,
									   at + k,
									   &other);
						if (st == SDT_CHECK_BLOCK_OK) {
							self->verified_bytes += SDT_CHECK_BLOCK;
							sdt_check_mark(self, at + k, TRUE);
							continue;
						}
						self->n_bad++;
						if (st == SDT_CHECK_BLOCK_OVERWRITTEN &&
						    other > at + k)
							sdt_check_set_bad(self, "wrap", at + k);
						else if (st == SDT_CHECK_BLOCK_LOST)
							sdt_check_set_bad(self,
									  "lost-writes",
									  at + k);
						else
							sdt_check_set_bad(self,
									  "corrupted",
									  at + k);
					}
				}
				done += len;
				if (self->progress != NULL)
					self->progress(pass == 0 ? "write" : "verify",
						       0.1 + 0.45 * pass +
							       0.45 * (gdouble) done /
								       MAX(total, 1),
						       secs > 0 ? done / secs / 1e6 : 0.0,
						       self->user_data);
				if (sdt_check_cancelled(self, error))
					return FALSE;
			}
		}
		if (pass == 0 && fdatasync(self->wfd) != 0)
			return sdt_error_set_from_errno(error,
							errno,
							_("Flushing %s failed"),
							self->disk_node);
		{
			/* the write pass's rate includes the final flush */
			gdouble secs = (gdouble) (g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
			gdouble rate = secs > 0 ? total / secs / 1e6 : 0.0;
			if (pass == 0)
				self->write_mb_s = rate;
			else
				self->read_mb_s = rate;
		}
		t0 = g_get_monotonic_time();
	}
	if (self->failure != NULL) {
		self->estimate = self->first_bad;
		self->reason =
			g_strdup_printf(_("%u of %" PRIu64 " written blocks did not read back "
					  "as written, the first at %" PRIu64 " MiB"),
					self->n_bad,
					self->reserved_blocks,
					self->first_bad / SDT_CHECK_MIB);
	} else if (self->reserved_top < self->claim / 10 * 9) {
		self->reason = g_strdup_printf(
			_("All %" PRIu64
			  " MiB of free space kept what was written, but it ends at %" PRIu64
			  " of %" PRIu64 " MiB; free some space and check again"),
			total / SDT_CHECK_MIB,
			self->reserved_top / SDT_CHECK_MIB,
			self->claim / SDT_CHECK_MIB);
	} else {
		self->genuine_reason = g_strdup_printf(
			_("All %" PRIu64 " MiB of free space kept what was written"),
			total / SDT_CHECK_MIB);
	}
	return TRUE;
}

JsonNode *
sdt_check_run(const gchar *dir,
	      const SdtCheckConfig *config,
	      SdtBenchProgressFunc progress,
	      gpointer user_data,
	      GCancellable *cancellable,
	      GError **error)
{
	SdtCheck self = {
		.config = config,
		.progress = progress,
		.user_data = user_data,
		.cancellable = cancellable,
		.rfd = -1,
		.wfd = -1,
		.file_fd = -1,
		.first_bad = G_MAXUINT64,
	};
	JsonNode *node = NULL;

	g_return_val_if_fail(dir != NULL && config != NULL, NULL);
	self.started = g_get_monotonic_time();
	self.dir = g_strdup(dir);
	self.notes = g_ptr_array_new_with_free_func(g_free);
	self.buf = g_aligned_alloc(1, SDT_CHECK_FULL_IO + SDT_CHECK_BLOCK, SDT_CHECK_BLOCK);
	self.expect = self.buf + SDT_CHECK_FULL_IO;
	self.seed = config->seed != 0 ? config->seed
				      : ((guint64) g_random_int() << 32 | g_random_int()) | 1;
	self.rand = g_rand_new_with_seed((guint32) (self.seed ^ (self.seed >> 32)));

	if (!sdt_check_open_target(&self, error))
		goto out;
	self.candidates = sdt_check_candidate_sizes(self.claim);
	if (!config->skip_read_phase && !sdt_check_read_phase(&self, error))
		goto out;
	if (self.failure == NULL) {
		if (config->mode == SDT_CHECK_MODE_FULL) {
			self.guard = g_array_new(FALSE, FALSE, sizeof(guint64));
			if (!sdt_check_reserve(&self, error) || !sdt_check_full(&self, error))
				goto out;
		} else if (!sdt_check_write_phase(&self, error)) {
			goto out;
		}
	}
	/* the reserved file goes before the result is reported */
	if (self.file_fd >= 0) {
		close(self.file_fd);
		self.file_fd = -1;
	}
	sdt_check_report(&self, "cleanup", 1.0);
	node = sdt_check_to_json(&self);
out:
	if (self.buf != NULL) {
		g_aligned_free(self.buf);
		self.buf = NULL;
	}
	sdt_check_clear(&self);
	return node;
}

gboolean
sdt_check_remove_stale(const gchar *dir)
{
	g_autofree gchar *path = g_build_filename(dir, SDT_CHECK_RESERVE_NAME, NULL);
	struct stat st;

	if (g_lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return FALSE;
	return g_unlink(path) == 0;
}
