/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#pragma once

#include <glib.h>
#include <sys/types.h>
#include <json-glib/json-glib.h>
#include <gio/gio.h>

#include "sdt-check-config.h"
#include "sdt-check-result.h"
#include "sdt-bench.h"
#include "sdt-context.h"

G_BEGIN_DECLS

/*
 * The state of one check run and what every phase shares: the self-identifying
 * 4 KiB blocks, raw reads and writes of the disk, progress, cancellation and
 * the findings, with each phase's entry point below (---- file ----).
 * Private to the check's family (src/check); tests/check-shape.py fails any
 * other file that includes it.  The public API is sdt-check.h and
 * sdt-check-config.h.
 */

/* ---- sdt-check-block.c ---- */

#define SDT_CHECK_BLOCK     4096u
#define SDT_CHECK_MAGIC     G_GUINT64_CONSTANT(0x31304b4843544453) /* "SDTCHK01" */
#define SDT_CHECK_MIB       (G_GUINT64_CONSTANT(1) << 20)
#define SDT_CHECK_N_ANCHORS 16
#define SDT_CHECK_N_TOP     64   /* read-only probes in the upper half */
#define SDT_CHECK_STRATA    256  /* coverage: slices of the address space */
#define SDT_CHECK_TOP_SHARE 0.99 /* where the top samples of the reserved space start */
#define SDT_CHECK_FULL_IO   (4 * SDT_CHECK_MIB)
#define SDT_CHECK_FLUSH     (8 * SDT_CHECK_MIB) /* the first flush of a fake's write cache */

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
	dev_t fs_dev;       /* the checked file system's st_dev */
	struct _SdtCheckJournalPlaces *journal; /* the journal's copies (sdt-check-journal) */
	guint8 *buf;                            /* SDT_CHECK_FULL_IO bytes, aligned */
	guint8 *expect;                         /* one block */

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
	guint n_left;           /* blocks the system wrote while out: left as they are */
	guint n_splits;         /* batches split for the journal's sake */
	guint journal_hits;     /* copies of the journal a write hit (rewritten) */
	guint64 journal_unsafe; /* a size under which one batch could hit every copy */
	gboolean journal_kept;  /* blocks could not all be put back: the journal stays */
	gboolean frozen;        /* the checked file system is frozen now */
	gint freeze_fd;         /* its root, for FIFREEZE / FITHAW; -1 */
	gint watch_fd;          /* the pipe to the thaw watchdog; -1 */
	gint watch_pid;
	guint n_frozen;   /* batches run frozen */
	guint n_unfrozen; /* and not: the kernel refused (said in the result) */
	gint freeze_errno;
	gint64 frozen_since;    /* monotonic, while frozen */
	gint64 frozen_max_us;   /* the longest freeze */
	guint64 verified_bytes; /* full mode */
	gdouble write_mb_s;     /* full mode: the write pass, 10^6 bytes/s */
	gdouble read_mb_s;
	gboolean strata[SDT_CHECK_STRATA];
	const gchar *failure; /* "wrap", "lost-writes", "io-error", "corrupted" */
	guint64 first_bad;    /* G_MAXUINT64: none */
	guint64 estimate;
	guint64 last_good;      /* highest verified address below first_bad */
	guint64 good_top;       /* highest sample verified after the cache flush */
	guint64 flush_bytes;    /* each batch's flush: SDT_CHECK_FLUSH, or what evicted the
				 * cache the cache round found (sdt-check-write) */
	gboolean cache_probed;  /* the cache round ran */
	guint64 cache_flushed;  /* the most written after its blocks before they were read */
	guint64 cache_at_least; /* a write cache found: its size in (at_least, at_most] */
	guint64 cache_at_most;  /* 0: none found */
	guint64 wrap_bound;     /* the probe excludes a wrap at every size up to here */
	guint64 wrap_seen;      /* full mode: the least distance a block showed up lower at
				 * (a wrap's real size), G_MAXUINT64: none */
	gboolean top_done;      /* the top run was written, read back and searched */
	guint n_spots;          /* blocks probed in occupied space (sdt-check-spot) */
	gboolean whole_device;  /* a whole unmounted card (sdt-check-device), no file system */
	GArray *probed;         /* SdtCheckProbed: what each written block read back as */
	guint64 at_least;       /* the real capacity's range, when fake */
	guint64 at_most;
	GPtrArray *notes;
	gchar *reason;         /* why fake or undetermined */
	gchar *genuine_reason; /* full mode: what was verified */
} SdtCheck;

/* one block the probe wrote and read back: where, and "ok" or the failure it showed
 * ("lost-writes", "io-error", "corrupted", "wrap"); for the map of a whole card */
typedef struct {
	guint64 at;
	const gchar *state;
} SdtCheckProbed;

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

/* ---- sdt-check-target.c ---- */

/*
 * Where the check works: the disk under a root-owned directory, opened for
 * raw reads, and later the reserved file in that directory with its extents
 * on the disk (FIEMAP), the only place the check ever writes.
 */

/* refuses a directory others can write to, a read-only or unsupported file
 * system and a disk too small to check; opens the disk O_RDONLY | O_DIRECT */
gboolean sdt_check_target_open(SdtCheck *self, GError **error);

/* a nameless file of most of the free space, and where its blocks lie */
gboolean sdt_check_target_reserve(SdtCheck *self, GError **error);

/* the disk O_RDWR | O_DIRECT: only after the read-only phase */
gboolean sdt_check_target_open_write(SdtCheck *self, GError **error);

/*
 * FIFREEZE on the checked file system around a batch: nothing of the system's is
 * written while its blocks are out.  A watchdog process thaws it if this one dies
 * while it is frozen; a refusal (not supported, EBUSY) leaves it unfrozen and is
 * counted (the put-back still writes only over the run's own blocks).  Thaw is
 * safe to call when not frozen.
 */
void sdt_check_target_freeze(SdtCheck *self);
void sdt_check_target_thaw(SdtCheck *self);

/* the device offset of the @rank-th 4 KiB block of the reserved space */
guint64 sdt_check_target_rank_to_offset(SdtCheck *self, guint64 rank);
/* the rank of the first reserved block at or above @offset */
guint64 sdt_check_target_offset_to_rank(SdtCheck *self, guint64 offset);

/* ---- sdt-check-device.c ---- */

/*
 * A whole card, unmounted (issue 34): config->device, a whole-disk block device that
 * is not the system disk, not mounted, not held, not read-only, opened with O_EXCL
 * (no mount can take it while the check runs) and O_DIRECT.  Its whole address space
 * is the probe's to write, every block saved, journaled off the card and put back.
 */
gboolean sdt_check_device_open(SdtCheck *self, GError **error);
/* the whole card as the one "reserved" extent, and the disk opened for writes */
gboolean sdt_check_device_reserve(SdtCheck *self, GError **error);
/* the card's map: [from, to) runs of one state ("ok", "wrap", "lost-writes",
 * "io-error", "corrupted", "untested"), in SDT_CHECK_MAP_CELLS cells */
#define SDT_CHECK_MAP_CELLS 64
GPtrArray *sdt_check_device_map(SdtCheck *self);

/* ---- sdt-check-probe.c ---- */

#define SDT_CHECK_STRIDE_MIN (64 * 1024) /* the wrap search's shortest stride */
#define SDT_CHECK_TOP_READS  8192        /* the top run's wrap search: claim / stride reads */

/* the top run's stride, and its first block's disk offset (0: the card is too small for
 * one); the journal's copies are never placed at or above it */
guint64 sdt_check_probe_top_stride(const SdtCheck *self);
guint64 sdt_check_probe_top_start(const SdtCheck *self);

/*
 * The safe probe: one batch of blocks inside the reserved file is saved
 * (read), journaled (sdt-check-journal, durably, before any write), written
 * with self-identifying blocks (the samples first, then a contiguous run one
 * stride long, then enough blocks to flush a fake's write cache), synced, read
 * back, and put back (last
 * first) before the journal goes.  On a wrap fake a write at X lands on X mod R,
 * whatever R is; its old content is what the save read there, so putting it
 * back repairs the alias.  With @search_wrap the batch also reads the card at a
 * stride below and above the run while it is out: a wrap at any size up to
 * self->wrap_bound shows one of the run's blocks at another address, which
 * gives R exactly (sdt_check_probe_batch_run() sets the failure "wrap").
 */

typedef struct {
	GArray *at; /* guint64: the samples, the run's blocks, the flush */
	guint n_samples;
	guint n_run;        /* the run's blocks, after the samples; then the flush */
	gboolean check_run; /* the run's blocks are read back and judged like samples */
	guint64 run_start;  /* 0 and run_len 0: no run */
	guint64 run_len;
	guint64 stride;   /* the wrap search's reads */
	guint64 origin;   /* they lie at multiples of stride from here: the whole run's
			   * start (a part of a split run keeps it) */
	guint8 *saved;    /* at->len blocks, aligned */
	guint8 *saved_ok; /* per block: read, so it may be written */
	guint8 *written;  /* per block: a write was attempted */
	guint8 *state;    /* per sample (and run block, with check_run): SdtCheckBlockState */
	guint64 *other;   /* the same: the offset an overwritten one carries */
	GArray *grow;     /* guint64, or NULL: more flush blocks, in the order they are
			   * used, to size a write cache (sdt_check_probe_batch_grow) */
} SdtCheckBatch;

/* @samples (taken, ascending), the run [@run_start, +@run_len) and the blocks of
 * @flush (written last: a fake's write cache forgets the samples) */
void sdt_check_probe_batch_init(SdtCheckBatch *batch,
				GArray *samples,
				guint64 run_start,
				guint64 run_len,
				GArray *flush,
				guint64 stride);
void sdt_check_probe_batch_clear(SdtCheckBatch *batch);
/* the blocks judged after the read-back: the samples, and the run with check_run */
guint sdt_check_probe_batch_n_checked(SdtCheckBatch *batch);

/*
 * With @batch->grow: once the checked blocks have read back right, the write cache's
 * size.  More flush (the blocks of grow, read and written back as they are), each
 * step as much as all written after the checked blocks so far, then those that read
 * back right read again: one that no longer does was held only in a cache of that
 * size (self->cache_at_least/at_most).  Stops there, at the end of grow, or where the
 * next step would pass SDT_CHECK_CACHE_SECONDS at the rate measured so far;
 * self->cache_flushed says how far it got.  Part of sdt_check_probe_batch_run().
 */
#define SDT_CHECK_CACHE_SECONDS 12.0

/* the whole cycle; the blocks are put back whatever happens (also on Stop) */
gboolean sdt_check_probe_batch_run(SdtCheck *self,
				   SdtCheckBatch *batch,
				   gboolean search_wrap,
				   gdouble from,
				   gdouble to,
				   GError **error);

/* ---- sdt-check-read.c ---- */

/*
 * Phase 1, reads only: the card's first blocks seen again at anchor + C (an
 * address wrap at a candidate size C), and read errors in the upper half.
 * Sets the failure, the estimate and the reason when it finds one.
 */
gboolean sdt_check_read_phase(SdtCheck *self, GError **error);

/* ---- sdt-check-spot.c ---- */

/*
 * Where a range must be narrowed but the reserved space has no block: spots, 4 KiB
 * blocks the user's files (or nobody) hold, in the checked partition, never where
 * the journal's copies lie nor in [@skip_at, +@skip_len) (the run).  A spot goes
 * through the probe as a sample does (save, journal, write, read back, put back
 * only where it still holds the run's block, under the freeze).
 * @n addresses stratified over [@lo, @hi): in each slice a reserved block where
 * the slice has one, else a spot; appended to @samples.
 */
void sdt_check_spot_add(SdtCheck *self,
			GArray *samples,
			guint n,
			guint64 lo,
			guint64 hi,
			guint64 skip_at,
			guint64 skip_len);

/* ---- sdt-check-write.c ---- */

/*
 * Phase 2 of the quick check: the reserved file, sampled blocks written raw
 * into it only where the write guard allows (every alias under a candidate
 * size of at least half the claim lies in the reserved file too), synced and
 * read back; a failure's boundary narrowed by more such writes.  Sets the
 * failure, the estimate and the reason when it finds one.
 */
gboolean sdt_check_write_phase(SdtCheck *self, GError **error);
/* the reason of a fake from its failure ("wrap", "lost-writes", "io-error",
 * "corrupted"), self->estimate and self->first_bad */
gchar *sdt_check_write_reason(SdtCheck *self, const gchar *failure);

/* ---- sdt-check-full.c ---- */

/*
 * The full check: the reserved file, every block of it written raw (4 MiB at
 * a time), synced, then read back and compared; the rates of both passes.
 * Sets the failure and the reason, or what was verified.
 */
gboolean sdt_check_full(SdtCheck *self, GError **error);

/*
 * The full check of a whole card (config->destroy_data: the user gave up what it
 * holds): no read phase and no probe, nothing saved, journaled or put back; every
 * block of the card written with its self-identifying pattern, synced, read back
 * and judged, as H2testw and f3write/f3read do.  The verdict and the real size come
 * from the blocks themselves (a wrap: the least distance a block showed up lower
 * at), the map from every 4 MiB written.  A card that stops answering (pulled
 * out) is an error: nothing is out to put back.
 */
gboolean sdt_check_full_device(SdtCheck *self, GError **error);

/* ---- sdt-check-json.c ---- */

/* the verdict ("genuine", "fake", "undetermined") with its reason, and the
 * figures: the check's result (sdt-check-result.h) as the JSON of
 * `sdtunerctl check --json` (docs/DESIGN.md), written by its codec */
SdtCheckResult *sdt_check_json_build(SdtCheck *self);

/* ---- sdt-check-journal.c ---- */

/*
 * The probe's journal: what the blocks it is about to write held before,
 * written durably (temporary file, fsync, rename, fsync of the folder) to every
 * journal folder before the first of those writes, and removed once they are
 * all put back.  A check killed (or a power cut) in between leaves it; the next
 * start puts the blocks back from it (sdt_check_repair_journal()).  Internal to
 * the check, below sdt-check-block; docs/ARCHITECTURE.md "Authenticity check".
 */

#define SDT_CHECK_JOURNAL_NAME       "check-journal"
#define SDT_CHECK_JOURNAL_DIR        "check" /* a journal folder of its own: removed when empty */
#define SDT_CHECK_JOURNAL_COPIES     3       /* on the checked file system, per folder there */
#define SDT_CHECK_JOURNAL_MAX_COPIES 8       /* the names repair looks for: check-journal.0 .. 7 */
#define SDT_CHECK_JOURNAL_DAMAGED    ".damaged"
#define SDT_CHECK_JOURNAL_CHUNK      (1u << 20)
#define SDT_CHECK_JOURNAL_MIN        (256u * 1024) /* the smallest copy */
/* the blocks are on a whole card in a reader (sdt-check-device), not on the disk of a
 * mounted file system: a repair writes them only through O_EXCL, never under a mount */
#define SDT_CHECK_JOURNAL_WHOLE_DEVICE 1u
/* places tried for each copy (its blocks must hold one byte value; between tries the
 * search steps past what was freed next to a refused one: sdt-check-journal.c) */
#define SDT_CHECK_JOURNAL_TRIES 64

typedef struct {
	gchar *disk_node; /* the whole disk the blocks are on */
	guint64 rdev;     /* its device number */
	guint64 claim;    /* its size */
	guint64 seed;     /* the run's: its blocks carry it */
	guint64 gen;      /* the newest whole copy wins; set by the writer */
	guint64 flags;    /* SDT_CHECK_JOURNAL_WHOLE_DEVICE (none in a version 1 or 2 file) */
	guint n;          /* 0: nothing is out */
	guint64 *at;      /* device byte offsets, 4 KiB blocks */
	guint8 *saved;    /* n blocks: what each held */
} SdtCheckJournal;

/* sdt-check-journal-file.c: a record's bytes (with its SHA-256); one file copy written
 * whole into @dir (temporary file, fsync, rename), whether @dir's copy holds @bytes, and
 * an empty journal folder removed (its parent synced) */
GByteArray *sdt_check_journal_file_encode(const SdtCheckJournal *j);
gboolean sdt_check_journal_file_write_one(const gchar *dir, GByteArray *bytes, GError **error);
gboolean sdt_check_journal_file_intact(const gchar *dir, GByteArray *bytes);
void sdt_check_journal_file_rmdir(const gchar *dir);

/* writes @journal into every folder of @dirs (NULL-terminated; created 0700) as a
 * file (temporary file, fsync, rename): the journal of folders off the card */
gboolean sdt_check_journal_file_write(const gchar *const *dirs,
				      const SdtCheckJournal *journal,
				      GError **error);
/* the journal in @data (padding after it allowed), if whole and its checksum
 * holds; free it with sdt_check_journal_file_clear() */
gboolean sdt_check_journal_file_decode(const guint8 *data, gsize len, SdtCheckJournal *j);
void sdt_check_journal_file_clear(SdtCheckJournal *j);
/* the names of the copies in a folder: 0 the file copy, i > 0 check-journal.(i - 1) */
gchar *sdt_check_journal_file_copy_name(guint i);
/* fsync() of a folder */
void sdt_check_journal_file_sync_dir(const gchar *dir);

/* removes every journal copy from every folder of @dirs (and each folder, if empty) */
void sdt_check_journal_file_remove(const gchar *const *dirs);

/* sdt-check-journal-held.c: what the tries of the copies hold until all are placed: the
 * tries whose blocks held data, and a file without a name grown past the blocks freed
 * next to them (at most three quarters of @dir's free space); all let go by _clear() */
typedef struct {
	GArray *fds;    /* the tries that held data, and the skip file */
	gint skip_fd;   /* -1: none yet (or the file system has no O_TMPFILE) */
	guint64 len;    /* what the skip file holds */
	guint64 step;   /* its next growth */
	guint64 budget; /* the most it may hold */
} SdtCheckJournalHeld;

void sdt_check_journal_held_init(SdtCheckJournalHeld *held, const gchar *dir);
/* past the blocks freed next to a try that held data: FALSE when nothing more can be held */
gboolean sdt_check_journal_held_skip(SdtCheckJournalHeld *held, const gchar *dir);
void sdt_check_journal_held_clear(SdtCheckJournalHeld *held);

/* the bytes of a copy that holds @n blocks of a disk node of @node_len bytes */
gsize sdt_check_journal_size(guint n, gsize node_len);

/*
 * The journal's places for one run.  In a folder on the checked file system
 * (the state folder on a Pi) SDT_CHECK_JOURNAL_COPIES preallocated files
 * (check-journal.N: fallocated, their blocks read raw and taken only when they
 * hold one byte value, the fill, which is then written through the file system
 * as it is, fsynced, renamed, before any batch), each then written raw at its
 * FIEMAP'd blocks with O_DIRECT and fdatasync, one copy after the other, so that
 * nothing of the journal goes through the file system while a batch is out (it
 * may be frozen, FIFREEZE); the fill goes back raw before the files are removed
 * (on a wrap fake: the place a copy aliases, as it was).
 * Every record carries a generation and a SHA-256; a batch's record, then a
 * newer record of no blocks out once they are back.  Other folders (/run)
 * get a file copy.  docs/ARCHITECTURE.md "The journal".
 */
typedef struct _SdtCheckJournalPlaces SdtCheckJournalPlaces;

typedef struct {
	const gchar *disk_node;
	guint64 rdev;
	guint64 claim;
	guint64 seed;
	guint64 part_start; /* the checked file system's offset on the disk */
	dev_t fs_dev;       /* its st_dev: folders there get the copies written raw */
	gint fd;            /* the disk, O_RDWR | O_DIRECT (borrowed) */
	guint64 avoid_from; /* the copies lie below this disk offset (the top run's blocks) */
	guint64 flags;      /* the records' (SDT_CHECK_JOURNAL_WHOLE_DEVICE) */
} SdtCheckJournalTarget;

/* the places for records of up to @capacity bytes (sdt_check_journal_size()) */
SdtCheckJournalPlaces *sdt_check_journal_places_new(const gchar *const *dirs,
						    const SdtCheckJournalTarget *target,
						    gsize capacity,
						    GError **error);
/* removes the copies (never while the file system is frozen) */
void sdt_check_journal_places_free(SdtCheckJournalPlaces *places);
/* frees @places but leaves its copies for the next start's repair */
void sdt_check_journal_places_keep(SdtCheckJournalPlaces *places);
gsize sdt_check_journal_places_capacity(const SdtCheckJournalPlaces *places);
/* does [@at, +@len) of the disk touch a copy on the card? */
gboolean
sdt_check_journal_places_overlaps(const SdtCheckJournalPlaces *places, guint64 at, guint64 len);
/* where copy @i begins on the disk (tests) */
guint64 sdt_check_journal_places_copy_at(const SdtCheckJournalPlaces *places, guint i);
/* how many copies are on the checked card */
guint sdt_check_journal_places_n_card(const SdtCheckJournalPlaces *places);

/* a batch's record (a new generation) into every copy, durably, before its writes */
gboolean sdt_check_journal_places_write(SdtCheckJournalPlaces *places,
					const SdtCheckJournal *journal,
					GError **error);
/* after the batch's writes: every copy read back raw, one a write hit written
 * again from memory; the number of copies that were hit */
guint sdt_check_journal_places_recheck(SdtCheckJournalPlaces *places, GError **error);
/* once every block is back: a newer record of none out into every copy */
gboolean sdt_check_journal_places_close(SdtCheckJournalPlaces *places, GError **error);

/*
 * Can the writes of a batch (@n blocks at @at, of which @n_journaled are in its
 * record) damage every copy on the card under one real size R in [@lo, @hi)?  A
 * wrap at R moves a write at x to x - kR: a copy at [J, J + l) is hit by a
 * written stretch [a, b) iff some k >= 1 has a - J - l < kR < b - J (or, for a
 * write below it, J - b < kR < J + l - a).  FALSE, with the smallest such R in
 * @witness, when some R reaches every copy: the batch must be split.  TRUE when
 * no copy is on the card (nothing there to hit).  For callers that plan batches.
 */
gboolean sdt_check_journal_places_safe(const SdtCheckJournalPlaces *places,
				       const guint64 *at,
				       guint n,
				       guint n_journaled,
				       guint64 lo,
				       guint64 hi,
				       guint64 *witness);

/* ---- sdt-check-repair.c ---- */

/*
 * Puts back the blocks a killed check left written, from the newest whole copy
 * in @dirs: a block is rewritten only where it holds the run's own block for
 * that address now (never over anything else), then synced, and the journals
 * go.  Journal files none of which is whole are never dropped: they are kept as
 * NAME.damaged (sdt_check_repair_damaged()).  Returns the number of blocks put
 * back (0: none was out), -1 with @error set when the journal's card is not
 * there, at its node or any other (the journal stays for a later start), is in use,
 * or a write failed.  @device (optional): the node the blocks went back to, when
 * some did.
 */
gint sdt_check_repair_journal(const gchar *const *dirs, gchar **device, GError **error);

/* the path of a damaged journal kept in @dirs, or NULL */
gchar *sdt_check_repair_damaged(const gchar *const *dirs);

G_END_DECLS
