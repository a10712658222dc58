/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "sdt-check-config.h"
#include "sdt-bench.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * The state of one check run and what every phase shares: the self-identifying
 * 4 KiB blocks, raw reads and writes of the disk, progress, cancellation and
 * the findings.  Internal to the check (sdt-check-*.c).
 */

#define SDT_CHECK_BLOCK     4096u
#define SDT_CHECK_MAGIC     G_GUINT64_CONSTANT(0x31304b4843544453) /* "SDTCHK01" */
#define SDT_CHECK_MIB       (G_GUINT64_CONSTANT(1) << 20)
#define SDT_CHECK_N_ANCHORS 16
#define SDT_CHECK_N_TOP     64   /* read-only probes in the upper half */
#define SDT_CHECK_STRATA    256  /* coverage: slices of the address space */
#define SDT_CHECK_TOP_SHARE 0.99 /* "genuine" needs the probe to reach 99% of the claim */
#define SDT_CHECK_FULL_IO   (4 * SDT_CHECK_MIB)

typedef struct {
	guint64 start; /* device byte offset */
	guint64 len;
	guint64 rank;    /* 4 KiB blocks of the reserved space before this extent */
	guint64 logical; /* its offset in the reserved file */
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
	guint64 disk_rdev;  /* its device number */
	gint rfd;           /* the disk, O_RDONLY | O_DIRECT */
	gint wfd;           /* the disk, O_RDWR | O_DIRECT, only after the read-only phase */
	gint file_fd;       /* the reserved file */
	guint8 *buf;        /* SDT_CHECK_FULL_IO bytes, aligned */
	guint8 *expect;     /* one block */

	GArray *candidates; /* guint64, ascending */
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
	guint n_restored;
	guint64 verified_bytes; /* full mode */
	gdouble write_mb_s;     /* full mode: the write pass, 10^6 bytes/s */
	gdouble read_mb_s;
	gboolean strata[SDT_CHECK_STRATA];
	const gchar *failure; /* "wrap", "lost-writes", "io-error", "corrupted" */
	guint64 first_bad;    /* G_MAXUINT64: none */
	guint64 estimate;
	guint64 last_good;  /* highest verified address below first_bad */
	guint64 good_top;   /* highest sample verified after the cache flush */
	guint64 wrap_bound; /* the probe excludes a wrap at every size up to here */
	guint64 at_least;   /* the real capacity's range, when fake */
	guint64 at_most;
	GPtrArray *notes;
	gchar *reason;         /* why fake or undetermined */
	gchar *genuine_reason; /* full mode: what was verified */
} SdtCheck;

/* a run on @dir: nothing open yet, the buffers and the seeded generator ready */
void sdt_check_block_init(SdtCheck *self,
			  const gchar *dir,
			  const SdtCheckConfig *config,
			  SdtBenchProgressFunc progress,
			  gpointer user_data,
			  GCancellable *cancellable);
/* closes what is open (the reserved file goes with its descriptor) and frees */
void sdt_check_block_clear(SdtCheck *self);

/* the block that belongs at device offset @offset in this run */
void sdt_check_block_fill(guint8 *block, guint64 seed, guint64 offset);
gboolean sdt_check_block_is_uniform(const guint8 *block, gsize len);
/* what a read-back block says; @other: the offset it carries when overwritten */
SdtCheckBlockState
sdt_check_block_classify(SdtCheck *self, const guint8 *block, guint64 offset, guint64 *other);

/* TRUE, with @error set, once the run is cancelled */
gboolean sdt_check_block_cancelled(SdtCheck *self, GError **error);
/* 0, or the errno of a failed or short read (counted when it succeeds) */
gint sdt_check_block_pread(SdtCheck *self, guint8 *buf, gsize len, guint64 offset);
gint sdt_check_block_pwrite(SdtCheck *self, const guint8 *buf, gsize len, guint64 offset);
void sdt_check_block_report(SdtCheck *self, const gchar *phase, gdouble fraction);

/* @offset was read (and, with @written, written) and is what it should be */
void sdt_check_block_mark(SdtCheck *self, guint64 offset, gboolean written);
/* the lowest failing address wins */
void sdt_check_block_set_bad(SdtCheck *self, const gchar *failure, guint64 offset);

G_END_DECLS
