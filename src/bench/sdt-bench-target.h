/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <fcntl.h>
#include <gio/gio.h>
#include <sys/statfs.h>
#include <sys/types.h>

G_BEGIN_DECLS

/*
 * The benchmark's test file: created by the engine in a directory on the
 * card's file system, opened O_DIRECT, without a name (O_TMPFILE, or unlinked
 * right after it was created where the file system has no O_TMPFILE), so
 * nothing is left behind whatever happens to the process.
 */

/* the raw-device read test opens the card like this: never for writing */
#define SDT_BENCH_RAW_OPEN_FLAGS (O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOCTTY)

typedef enum {
	SDT_BENCH_TARGET_FLAG_NONE = 0,
	/* create and unlink even where O_TMPFILE works (tests the fallback path) */
	SDT_BENCH_TARGET_FLAG_NO_TMPFILE = 1 << 0,
} SdtBenchTargetFlags;

typedef struct {
	gint fd;            /* O_RDWR | O_DIRECT, no name */
	gchar *dir;         /* the directory the file was created in */
	gchar *device;      /* the block device it really lives on: "mmcblk0p2", or "MAJ:MIN" */
	gchar *device_node; /* "/dev/mmcblk0p2", %NULL when udev does not know it */
	gchar *disk_node;   /* the whole device for the raw read test, %NULL if unknown */
	gchar *filesystem;  /* "ext4", "vfat", ... */
	dev_t devnum;
	guint64 device_size; /* bytes of the device holding the file system, 0 if unknown */
	guint64 size;        /* bytes of the test file */
	gboolean tmpfile;    /* created with O_TMPFILE */
	/* not on the SD card: a --dir/--bench-dir of tests, or a simulated board's
	 * directory on this machine; set by the caller that knows where the card is */
	gboolean stand_in;
	/*
	 * a whole unmounted card (issue 34, sdt_bench_target_open_device()): @fd is
	 * the device itself, the tests of the file run on [@offset, @offset + @size)
	 * of it, and the write tests only when @writes says why nothing can be lost
	 */
	gboolean whole_device;
	guint64 offset;
	gboolean no_writes; /* the write tests are skipped (the card holds data) */
	gint hold_fd;       /* > 0: the O_EXCL descriptor holding the card while @fd writes */
} SdtBenchTarget;

/*
 * Creates a @size byte test file in @dir after checking that @dir is a
 * root-owned directory on a block device (tmpfs and friends: NotSupported),
 * writable (ReadOnly), on a device larger than @size and with @size + 10%
 * free (NoSpace).  Errors name the directory and the device.
 */
SdtBenchTarget *
sdt_bench_target_open(const gchar *dir, guint64 size, SdtBenchTargetFlags flags, GError **error);
void sdt_bench_target_free(SdtBenchTarget *self);

/* where a whole card's region starts: past the partition table and the first
 * allocation units (docs/BENCHMARK-ENGINE.md, "A whole card") */
#define SDT_BENCH_DEVICE_OFFSET (G_GUINT64_CONSTANT(16) * 1024 * 1024)

/*
 * A whole card, @node (a whole disk's node: the caller resolved and vetted it),
 * opened O_DIRECT | O_EXCL: SDT_ERROR_BUSY while it or a partition is mounted or
 * another program (or check, or benchmark) holds it; NOT_FOUND when it holds no
 * medium; NO_SPACE when it is smaller than SDT_BENCH_DEVICE_OFFSET + @size.
 * Opened read-only unless @writes; a read-only device (BLKROGET) is opened
 * read-only and *@read_only set, whatever @writes says.  The region is
 * [SDT_BENCH_DEVICE_OFFSET, + @size).
 */
SdtBenchTarget *sdt_bench_target_open_device(const gchar *node,
					     guint64 size,
					     gboolean writes,
					     gboolean *read_only,
					     GError **error);

/* the name of a file system from its statfs() magic, or %NULL */
const gchar *sdt_bench_target_fs_name(guint32 magic);

/*
 * FALSE, with SDT_ERROR_NOT_SUPPORTED saying that @dir is in memory and what
 * to choose instead, when @sfs (@dir's file system) is tmpfs or ramfs: the
 * check's folder (in-process and the helper's), whoever owns it and however
 * shared it is (/tmp on trixie is a tmpfs writable by all: memory is what is
 * wrong with it).  TRUE otherwise.
 */
gboolean sdt_bench_target_refuse_memory(const gchar *dir, const struct statfs *sfs, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(SdtBenchTarget, sdt_bench_target_free)

G_END_DECLS
