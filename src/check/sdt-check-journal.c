/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-check-private.h"
#include "sdt-state-lock.h"
#include "sdt-error.h"
#include "sdt-file.h"
#include "sdt-check-config-private.h"

#define SDT_JOURNAL_MAGIC_V1 "SDTJRN01" /* no generation: read only */
#define SDT_JOURNAL_MAGIC    "SDTJRN02"
#define SDT_JOURNAL_BLOCK    4096u
#define SDT_JOURNAL_SECTOR   512u   /* O_DIRECT's alignment on the disk (1 KiB ext4 blocks) */
#define SDT_JOURNAL_SUM      32u    /* SHA-256 */
#define SDT_JOURNAL_MAX_N    65536u /* 256 MiB of blocks: far above what a run keeps out */
#define SDT_JOURNAL_MAX_NODE 4096u

/* ---- the copies on the checked card: preallocated files, written raw ---- */

typedef struct {
	guint64 start; /* on the disk */
	guint64 len;
	guint64 logical;
} SdtJournalExtent;

typedef struct {
	gchar *path;
	GArray *extents; /* SdtJournalExtent, by logical offset */
	gsize size;      /* the file's: records, then a last block of fill */
	guint8 fill;     /* the one byte its blocks held before the check */
} SdtJournalCopy;

struct _SdtCheckJournalPlaces {
	GPtrArray *copies;    /* SdtJournalCopy: on the checked file system */
	GPtrArray *card_dirs; /* their folders */
	GPtrArray *file_dirs; /* the other folders: a file copy each (temporary, rename) */
	gint fd;              /* the disk, O_RDWR | O_DIRECT: borrowed */
	gsize capacity;       /* bytes of each copy's records (its last block: fill) */
	gsize written;        /* bytes at its start records took so far (raw) */
	guint64 gen;          /* of the last record written */
	GByteArray *bytes;    /* that record */
	guint8 *buf;          /* capacity bytes, aligned */
	guint64 avoid_from;   /* no copy at or above this disk offset (0: anywhere) */
};

static void
sdt_journal_copy_free(gpointer data)
{
	SdtJournalCopy *c = data;

	g_free(c->path);
	g_clear_pointer(&c->extents, g_array_unref);
	g_free(c);
}

gsize
sdt_check_journal_size(guint n, gsize node_len)
{
	gsize len = 8 + 7 * 8 + node_len + (gsize) n * (8 + SDT_JOURNAL_BLOCK) + SDT_JOURNAL_SUM;
	return (len + SDT_JOURNAL_BLOCK - 1) / SDT_JOURNAL_BLOCK * SDT_JOURNAL_BLOCK;
}

/* where @fd's @size bytes lie on the disk: every byte plainly mapped (and written,
 * unless @unwritten_ok: a preallocated file nothing was written to yet) */
static gboolean
sdt_journal_copy_map(SdtJournalCopy *c,
		     gint fd,
		     gsize size,
		     guint64 part_start,
		     gboolean unwritten_ok)
{
	const guint n_max = 256;
	g_autofree struct fiemap *map =
		g_malloc0(sizeof(struct fiemap) + n_max * sizeof(struct fiemap_extent));
	guint64 next = 0;
	guint32 refused = FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_ENCODED |
			  FIEMAP_EXTENT_NOT_ALIGNED | FIEMAP_EXTENT_DATA_INLINE |
			  FIEMAP_EXTENT_SHARED | (unwritten_ok ? 0 : FIEMAP_EXTENT_UNWRITTEN);

	g_array_set_size(c->extents, 0);
	memset(map, 0, sizeof(struct fiemap));
	map->fm_start = 0;
	map->fm_length = size;
	map->fm_flags = FIEMAP_FLAG_SYNC;
	map->fm_extent_count = n_max;
	if (ioctl(fd, FS_IOC_FIEMAP, map) != 0)
		return FALSE;
	for (guint i = 0; i < map->fm_mapped_extents; i++) {
		const struct fiemap_extent *fe = &map->fm_extents[i];
		SdtJournalExtent e = {
			.start = part_start + fe->fe_physical,
			.len = fe->fe_length,
			.logical = fe->fe_logical,
		};
		if ((fe->fe_flags & refused) != 0 || e.logical != next ||
		    e.start % SDT_JOURNAL_SECTOR != 0 || e.len % SDT_JOURNAL_SECTOR != 0) {
			g_debug("journal copy extent %u at %" G_GUINT64_FORMAT
				": flags %#x logical %" G_GUINT64_FORMAT
				" length %" G_GUINT64_FORMAT,
				i,
				e.start,
				fe->fe_flags,
				e.logical,
				e.len);
			return FALSE;
		}
		g_array_append_val(c->extents, e);
		next = e.logical + e.len;
	}
	return next >= size;
}

static gint
sdt_journal_copy_io(SdtCheckJournalPlaces *p, SdtJournalCopy *c, gsize len, gboolean write);
static gint
sdt_journal_copy_io_at(SdtCheckJournalPlaces *p, SdtJournalCopy *c, gsize off, gsize len);

/* are @len bytes of @buf all @buf[0]? */
static gboolean
sdt_journal_uniform(const guint8 *buf, gsize len)
{
	return len == 0 || (buf[0] == buf[len - 1] && memcmp(buf, buf + 1, len - 1) == 0);
}

/* whether the blocks of @c may hold a copy: below the top run's blocks and all one
 * byte value (then c->fill); a read error in @rc */
static gboolean
sdt_journal_copy_usable(SdtCheckJournalPlaces *p, SdtJournalCopy *c, gsize size, gint *rc)
{
	/* never in the card's top blocks: the top run tests them, and over a copy it could
	 * not (a fresh card's never-written top reads all zeros: the first place a copy
	 * is taken, and the verdict was then "undetermined" on a genuine card) */
	for (guint k = 0; p->avoid_from > 0 && k < c->extents->len; k++) {
		const SdtJournalExtent *e = &g_array_index(c->extents, SdtJournalExtent, k);
		if (e->start + e->len > p->avoid_from)
			return FALSE;
	}
	/* the blocks as the card holds them: all one byte, or another place */
	for (gsize off = 0; off < size; off += p->capacity) {
		gsize len = MIN(p->capacity, size - off);
		*rc = sdt_journal_copy_io_at(p, c, off, len);
		if (*rc != 0 || !sdt_journal_uniform(p->buf, len) ||
		    (off > 0 && p->buf[0] != c->fill))
			return FALSE;
		if (off == 0)
			c->fill = p->buf[0];
	}
	return TRUE;
}

/* copy @c's fill written into its file @fd as it is, so that its extents become plain
 * written ones, and synced; EOPNOTSUPP when the file system moved them meanwhile */
static gint
sdt_journal_copy_write_fill(SdtJournalCopy *c, gint fd, gsize size, guint64 part_start)
{
	g_autofree guint8 *chunk = g_malloc(SDT_CHECK_JOURNAL_CHUNK);
	g_autoptr(GArray) before = g_array_copy(c->extents);
	gint rc = 0;

	memset(chunk, c->fill, SDT_CHECK_JOURNAL_CHUNK);
	for (gsize off = 0; off < size && rc == 0; off += SDT_CHECK_JOURNAL_CHUNK)
		rc = sdt_file_pwrite_all(fd,
					 chunk,
					 MIN(SDT_CHECK_JOURNAL_CHUNK, size - off),
					 off,
					 NULL);
	if (rc == 0 && fsync(fd) != 0)
		rc = errno;
	if (rc == 0 &&
	    (!sdt_journal_copy_map(c, fd, size, part_start, FALSE) ||
	     before->len != c->extents->len ||
	     memcmp(before->data, c->extents->data, before->len * sizeof(SdtJournalExtent)) != 0))
		rc = EOPNOTSUPP;
	return rc;
}

/*
 * @dir/check-journal.@idx: @size bytes preallocated (fallocate: nothing written to
 * the card), its blocks read raw (on a wrap fake: the place they alias), and
 * taken only when they all hold one byte, the copy's *fill*; then the fill is
 * written through the file system (what is there already: on a wrap fake it lands
 * where it was read, unchanged), fsynced, renamed.  Records go raw into all but
 * the last block, which keeps the fill for the repair; the fill goes back when the
 * copy is removed (sdt_journal_copy_unfill()).  NULL without @error: the blocks
 * were not uniform, @keep_fd holds them (a next try gets other blocks).
 */
static SdtJournalCopy *
sdt_journal_copy_new(SdtCheckJournalPlaces *p,
		     const gchar *dir,
		     guint idx,
		     gsize size,
		     guint64 part_start,
		     gint *keep_fd,
		     GError **error)
{
	g_autofree gchar *name = sdt_check_journal_file_copy_name(idx + 1);
	g_autofree gchar *tmp = NULL;
	SdtJournalCopy *c = g_new0(SdtJournalCopy, 1);
	gboolean uniform = TRUE;
	gint rc = 0;
	gint fd;

	*keep_fd = -1;
	c->path = g_build_filename(dir, name, NULL);
	c->extents = g_array_new(FALSE, FALSE, sizeof(SdtJournalExtent));
	tmp = g_strconcat(c->path, ".new", NULL);
	g_unlink(tmp);
	/* a temporary name until it is whole: a power cut never leaves a torn copy */
	fd = open(tmp, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		sdt_error_set_from_errno(error, errno, _("Cannot write %s"), tmp);
		sdt_journal_copy_free(c);
		return NULL;
	}
	if (fallocate(fd, 0, 0, (off_t) size) != 0)
		rc = errno;
	/* what the system has in the page cache is on the card before the raw reads */
	if (rc == 0 && syncfs(fd) != 0)
		rc = errno;
	if (rc == 0 && !sdt_journal_copy_map(c, fd, size, part_start, TRUE))
		rc = EOPNOTSUPP;
	if (rc == 0)
		uniform = sdt_journal_copy_usable(p, c, size, &rc);
	if (rc == 0 && !uniform) {
		g_debug("journal copy at %" G_GUINT64_FORMAT
			" holds data or lies in the top: another place",
			g_array_index(c->extents, SdtJournalExtent, 0).start);
		g_unlink(tmp);
		*keep_fd = fd;
		sdt_journal_copy_free(c);
		return NULL;
	}
	if (rc == 0)
		rc = sdt_journal_copy_write_fill(c, fd, size, part_start);
	close(fd);
	if (rc == 0 && g_rename(tmp, c->path) != 0)
		rc = errno;
	if (rc != 0) {
		g_unlink(tmp);
		sdt_error_set_from_errno(error, rc, _("Cannot write %s"), c->path);
		sdt_journal_copy_free(c);
		return NULL;
	}
	c->size = size;
	/* tests/check/test-check-powercut.py reads where the copies lie from this line */
	g_debug("journal copy %s at %" G_GUINT64_FORMAT " (%u extents), fill %#x",
		c->path,
		g_array_index(c->extents, SdtJournalExtent, 0).start,
		c->extents->len,
		c->fill);
	return c;
}

/* the fill back over what records took of copy @c, raw: on a wrap fake that is
 * the aliased place as it was before the check */
static gint
sdt_journal_copy_unfill(SdtCheckJournalPlaces *p, SdtJournalCopy *c)
{
	if (p->written == 0)
		return 0;
	memset(p->buf, c->fill, p->written);
	return sdt_journal_copy_io(p, c, p->written, TRUE);
}

/* copy @c in @dir: up to SDT_CHECK_JOURNAL_TRIES places (each refused one stays held
 * in @held, which then grows past it); NULL with @error unset: none */
static SdtJournalCopy *
sdt_journal_copy_place(SdtCheckJournalPlaces *p,
		       const gchar *dir,
		       guint c,
		       guint64 part_start,
		       SdtCheckJournalHeld *held,
		       GError **error)
{
	SdtJournalCopy *copy = NULL;

	for (guint t = 0; copy == NULL && t < SDT_CHECK_JOURNAL_TRIES; t++) {
		gint keep = -1;
		copy = sdt_journal_copy_new(p,
					    dir,
					    c,
					    p->capacity + SDT_JOURNAL_BLOCK,
					    part_start,
					    &keep,
					    error);
		if (keep >= 0)
			g_array_append_val(held->fds, keep);
		if (copy == NULL && error != NULL && *error != NULL)
			break;
		if (copy == NULL && !sdt_check_journal_held_skip(held, dir))
			break;
	}
	return copy;
}

/* the record of no blocks out: what every copy holds until a batch */
static GByteArray *
sdt_check_journal_places_closed(const SdtCheckJournalTarget *target)
{
	SdtCheckJournal closed = {
		.disk_node = (gchar *) target->disk_node,
		.rdev = target->rdev,
		.claim = target->claim,
		.seed = target->seed,
		.flags = target->flags,
	};

	return sdt_check_journal_file_encode(&closed);
}

SdtCheckJournalPlaces *
sdt_check_journal_places_new(const gchar *const *dirs,
			     const SdtCheckJournalTarget *target,
			     gsize capacity,
			     GError **error)
{
	SdtCheckJournalPlaces *p;
	SdtCheckJournalHeld held = {0};

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	p = g_new0(SdtCheckJournalPlaces, 1);
	p->copies = g_ptr_array_new_with_free_func(sdt_journal_copy_free);
	p->card_dirs = g_ptr_array_new_with_free_func(g_free);
	p->file_dirs = g_ptr_array_new_with_free_func(g_free);
	p->fd = target->fd;
	p->avoid_from = target->avoid_from;
	p->capacity = (capacity + SDT_JOURNAL_BLOCK - 1) / SDT_JOURNAL_BLOCK * SDT_JOURNAL_BLOCK;
	p->bytes = sdt_check_journal_places_closed(target);
	p->buf = g_aligned_alloc(p->capacity / SDT_JOURNAL_BLOCK,
				 SDT_JOURNAL_BLOCK,
				 SDT_JOURNAL_BLOCK);
	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		struct stat st;
		/* one folder on the card is enough (a further one: an older version's,
		 * for the repair only; never made: a new folder's block could be an
		 * alias of anything) */
		if (p->card_dirs->len > 0 && g_stat(dirs[i], &st) == 0 &&
		    st.st_dev == target->fs_dev)
			continue;
		if (i > 0 && g_str_has_suffix(dirs[i], "/" SDT_CHECK_JOURNAL_DIR) &&
		    !g_file_test(dirs[i], G_FILE_TEST_IS_DIR))
			continue;
		if (!sdt_state_lock_make_dir(dirs[i], error) || g_stat(dirs[i], &st) != 0) {
			if (error != NULL && *error == NULL)
				sdt_error_set_from_errno(error, errno, _("Cannot use %s"), dirs[i]);
			sdt_check_journal_places_free(p);
			return NULL;
		}
		/* off the checked file system a probe write cannot reach it */
		if (st.st_dev != target->fs_dev) {
			g_ptr_array_add(p->file_dirs, g_strdup(dirs[i]));
			continue;
		}
		g_ptr_array_add(p->card_dirs, g_strdup(dirs[i]));
		sdt_check_journal_held_init(&held, dirs[i]);
		for (guint c = 0; c < SDT_CHECK_JOURNAL_COPIES; c++) {
			SdtJournalCopy *copy = sdt_journal_copy_place(p,
								      dirs[i],
								      c,
								      target->part_start,
								      &held,
								      error);
			if (copy == NULL) {
				if (error != NULL && *error == NULL)
					g_set_error(error,
						    SDT_ERROR,
						    SDT_ERROR_FAILED,
						    _("The check found no free space on the card "
						      "that holds only one byte value for its "
						      "journal, so it could not put that space "
						      "back exactly; it wrote nothing"));
				sdt_check_journal_held_clear(&held);
				sdt_check_journal_places_free(p);
				return NULL;
			}
			g_ptr_array_add(p->copies, copy);
		}
		sdt_check_journal_held_clear(&held);
		sdt_check_journal_file_sync_dir(dirs[i]);
	}
	return p;
}

gsize
sdt_check_journal_places_capacity(const SdtCheckJournalPlaces *places)
{
	return places->capacity;
}

guint64
sdt_check_journal_places_copy_at(const SdtCheckJournalPlaces *places, guint i)
{
	const SdtJournalCopy *c = g_ptr_array_index(places->copies, i);

	return g_array_index(c->extents, SdtJournalExtent, 0).start;
}

gboolean
sdt_check_journal_places_overlaps(const SdtCheckJournalPlaces *places, guint64 at, guint64 len)
{
	for (guint i = 0; places != NULL && i < places->copies->len; i++) {
		const SdtJournalCopy *c = g_ptr_array_index(places->copies, i);
		for (guint k = 0; k < c->extents->len; k++) {
			const SdtJournalExtent *e = &g_array_index(c->extents, SdtJournalExtent, k);
			if (at < e->start + e->len && e->start < at + len)
				return TRUE;
		}
	}
	return FALSE;
}

guint
sdt_check_journal_places_n_card(const SdtCheckJournalPlaces *places)
{
	return places->copies->len;
}

static void
sdt_journal_places_release(SdtCheckJournalPlaces *places)
{
	g_ptr_array_unref(places->copies);
	g_ptr_array_unref(places->card_dirs);
	g_ptr_array_unref(places->file_dirs);
	g_byte_array_unref(places->bytes);
	g_aligned_free(places->buf);
	g_free(places);
}

void
sdt_check_journal_places_keep(SdtCheckJournalPlaces *places)
{
	if (places != NULL)
		sdt_journal_places_release(places);
}

void
sdt_check_journal_places_free(SdtCheckJournalPlaces *places)
{
	if (places == NULL)
		return;
	/* every copy's fill back where records were, then the files go: a power cut
	 * between leaves copies of fill alone, which the repair knows to be nothing */
	for (guint i = 0; i < places->copies->len; i++) {
		SdtJournalCopy *c = g_ptr_array_index(places->copies, i);
		gint rc = sdt_journal_copy_unfill(places, c);
		if (rc != 0)
			g_warning("cannot put back what was under the check's journal %s: %s",
				  c->path,
				  g_strerror(rc));
	}
	for (guint i = 0; i < places->copies->len; i++) {
		SdtJournalCopy *c = g_ptr_array_index(places->copies, i);
		g_unlink(c->path);
	}
	for (guint i = 0; i < places->card_dirs->len; i++) {
		const gchar *dir = g_ptr_array_index(places->card_dirs, i);
		sdt_check_journal_file_sync_dir(dir);
		sdt_check_journal_file_rmdir(dir);
	}
	for (guint i = 0; i < places->file_dirs->len; i++) {
		const gchar *dir = g_ptr_array_index(places->file_dirs, i);
		const gchar *one[] = {dir, NULL};
		sdt_check_journal_file_remove(one);
	}
	sdt_journal_places_release(places);
}

/* @len bytes of copy @c from its byte @off to and from p->buf, raw; 0 or an errno */
static gint
sdt_journal_copy_rw(SdtCheckJournalPlaces *p,
		    SdtJournalCopy *c,
		    gsize off,
		    gsize len,
		    gboolean write)
{
	for (guint i = 0; i < c->extents->len; i++) {
		const SdtJournalExtent *e = &g_array_index(c->extents, SdtJournalExtent, i);
		guint64 a = MAX(e->logical, off);
		guint64 b = MIN(e->logical + e->len, off + len);
		gint rc;
		if (a >= b)
			continue;
		rc = write ? sdt_file_pwrite_all(p->fd,
						 p->buf + (a - off),
						 (gsize) (b - a),
						 e->start + (a - e->logical),
						 NULL)
			   : sdt_file_pread_all(p->fd,
						p->buf + (a - off),
						(gsize) (b - a),
						e->start + (a - e->logical),
						NULL);
		if (rc != 0)
			return rc;
	}
	if (write && fdatasync(p->fd) != 0)
		return errno;
	return 0;
}

static gint
sdt_journal_copy_io_at(SdtCheckJournalPlaces *p, SdtJournalCopy *c, gsize off, gsize len)
{
	return sdt_journal_copy_rw(p, c, off, len, FALSE);
}

/* @len bytes of p->buf at the start of copy @c, raw; 0 or an errno */
static gint
sdt_journal_copy_io(SdtCheckJournalPlaces *p, SdtJournalCopy *c, gsize len, gboolean write)
{
	return sdt_journal_copy_rw(p, c, 0, len, write);
}

/* the record in p->bytes into copy @c, and synced: one copy at a time, so that a
 * power cut can tear at most the one being written */
static gint
sdt_journal_copy_write(SdtCheckJournalPlaces *p, SdtJournalCopy *c)
{
	gsize len = (p->bytes->len + SDT_JOURNAL_BLOCK - 1) / SDT_JOURNAL_BLOCK * SDT_JOURNAL_BLOCK;

	/* a shorter record than before: the fill over the rest, so that a copy always
	 * holds one record and fill (nothing of an older record lies about) */
	len = MAX(len, p->written);
	memset(p->buf, c->fill, len);
	memcpy(p->buf, p->bytes->data, p->bytes->len);
	p->written = len;
	return sdt_journal_copy_io(p, c, len, TRUE);
}

/* writes p->bytes everywhere: the copies on the card raw, the others as files */
static gboolean
sdt_journal_places_put(SdtCheckJournalPlaces *p, GError **error)
{
	if (p->bytes->len > p->capacity) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_FAILED,
			    _("The check's journal (%" PRIu64 " bytes) does not fit its copies "
			      "(%" PRIu64 " bytes)"),
			    (guint64) p->bytes->len,
			    (guint64) p->capacity);
		return FALSE;
	}
	for (guint i = 0; i < p->copies->len; i++) {
		SdtJournalCopy *c = g_ptr_array_index(p->copies, i);
		gint rc = sdt_journal_copy_write(p, c);
		if (rc != 0)
			return sdt_error_set_from_errno(error, rc, _("Cannot write %s"), c->path);
	}
	for (guint i = 0; i < p->file_dirs->len; i++)
		if (!sdt_check_journal_file_write_one(g_ptr_array_index(p->file_dirs, i),
						      p->bytes,
						      error))
			return FALSE;
	return TRUE;
}

gboolean
sdt_check_journal_places_write(SdtCheckJournalPlaces *places,
			       const SdtCheckJournal *journal,
			       GError **error)
{
	SdtCheckJournal j;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	j = *journal;
	j.gen = ++places->gen;
	g_byte_array_unref(places->bytes);
	places->bytes = sdt_check_journal_file_encode(&j);
	return sdt_journal_places_put(places, error);
}

guint
sdt_check_journal_places_recheck(SdtCheckJournalPlaces *places, GError **error)
{
	gsize len;
	guint hit = 0;

	g_return_val_if_fail(error == NULL || *error == NULL, 0);

	len = (places->bytes->len + SDT_JOURNAL_BLOCK - 1) / SDT_JOURNAL_BLOCK * SDT_JOURNAL_BLOCK;
	for (guint i = 0; i < places->copies->len; i++) {
		SdtJournalCopy *c = g_ptr_array_index(places->copies, i);
		gint rc = sdt_journal_copy_io(places, c, len, FALSE);
		if (rc == 0 && memcmp(places->buf, places->bytes->data, places->bytes->len) == 0)
			continue;
		hit++;
		rc = sdt_journal_copy_write(places, c);
		if (rc != 0) {
			sdt_error_set_from_errno(error, rc, _("Cannot write %s"), c->path);
			return hit;
		}
	}
	for (guint i = 0; i < places->file_dirs->len; i++) {
		const gchar *dir = g_ptr_array_index(places->file_dirs, i);
		if (sdt_check_journal_file_intact(dir, places->bytes))
			continue;
		hit++;
		if (!sdt_check_journal_file_write_one(dir, places->bytes, error))
			return hit;
	}
	return hit;
}

gboolean
sdt_check_journal_places_close(SdtCheckJournalPlaces *places, GError **error)
{
	SdtCheckJournal closed = {0};
	SdtCheckJournal last = {0};
	gboolean whole;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	/* the record of no blocks out, newer than the batch's (its target from that) */
	whole = sdt_check_journal_file_decode(places->bytes->data, places->bytes->len, &last);
	g_return_val_if_fail(whole, FALSE);
	closed.disk_node = last.disk_node;
	closed.rdev = last.rdev;
	closed.claim = last.claim;
	closed.seed = last.seed;
	closed.flags = last.flags;
	closed.gen = ++places->gen;
	g_byte_array_unref(places->bytes);
	places->bytes = sdt_check_journal_file_encode(&closed);
	sdt_check_journal_file_clear(&last);
	for (guint i = 0; i < places->copies->len; i++) {
		SdtJournalCopy *c = g_ptr_array_index(places->copies, i);
		gint rc = sdt_journal_copy_write(places, c);
		if (rc != 0)
			return sdt_error_set_from_errno(error, rc, _("Cannot write %s"), c->path);
	}
	for (guint i = 0; i < places->file_dirs->len; i++) {
		const gchar *one[] = {g_ptr_array_index(places->file_dirs, i), NULL};
		g_autofree gchar *path = g_build_filename(one[0], SDT_CHECK_JOURNAL_NAME, NULL);
		if (g_unlink(path) == 0)
			sdt_check_journal_file_sync_dir(one[0]);
	}
	return TRUE;
}

/* ---- which real sizes let a write reach a copy ---- */

typedef struct {
	guint64 at;
	guint copy;
	gint delta;
} SdtJournalEvent;

static gint
sdt_journal_event_cmp(gconstpointer a, gconstpointer b)
{
	const SdtJournalEvent *x = a;
	const SdtJournalEvent *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return x->delta - y->delta; /* ends before starts */
}

/*
 * The sizes R in [@lo, @hi) under which a write of [@a, @b) lands on [@j, @j + @l):
 * some k >= 1 with a - j - l < kR < b - j (a write above the copy) or
 * j - b < kR < j + l - a (below it), as closed integer ranges.
 */
static void
sdt_journal_hits(GArray *events,
		 guint copy,
		 guint64 a,
		 guint64 b,
		 guint64 j,
		 guint64 l,
		 guint64 lo,
		 guint64 hi)
{
	for (guint side = 0; side < 2; side++) {
		/* kR in the open interval (d_lo, d_hi) */
		gint64 d_lo =
			side == 0 ? (gint64) a - (gint64) j - (gint64) l : (gint64) j - (gint64) b;
		gint64 d_hi =
			side == 0 ? (gint64) b - (gint64) j : (gint64) j + (gint64) l - (gint64) a;
		if (d_hi <= 0)
			continue;
		for (guint64 k = 1; (guint64) d_hi > k * lo; k++) {
			guint64 r_lo = d_lo < 0 ? 1 : (guint64) d_lo / k + 1;
			guint64 r_hi = ((guint64) d_hi + k - 1) / k - 1;
			SdtJournalEvent in;
			SdtJournalEvent out;
			r_lo = MAX(r_lo, lo);
			r_hi = MIN(r_hi, hi - 1);
			if (r_lo > r_hi)
				continue;
			in = (SdtJournalEvent){r_lo, copy, 1};
			out = (SdtJournalEvent){r_hi + 1, copy, -1};
			g_array_append_val(events, in);
			g_array_append_val(events, out);
		}
	}
}

gboolean
sdt_check_journal_places_safe(const SdtCheckJournalPlaces *places,
			      const guint64 *at,
			      guint n,
			      guint n_journaled,
			      guint64 lo,
			      guint64 hi,
			      guint64 *witness)
{
	g_autoptr(GArray) events = g_array_new(FALSE, FALSE, sizeof(SdtJournalEvent));
	g_autoptr(GArray) sorted = g_array_sized_new(FALSE, FALSE, sizeof(guint64), n);
	g_autofree guint *cover = NULL;
	guint n_copies = places != NULL ? places->copies->len : 0;
	gsize used;
	guint covered = 0;

	/* a copy off the card, or none on it: nothing of the batch can reach them all */
	/* a file copy elsewhere may be /run, gone after a power cut: only the card's count */
	if (n_copies == 0 || lo >= hi)
		return TRUE;
	used = sdt_check_journal_size(n_journaled, SDT_JOURNAL_MAX_NODE);
	g_array_append_vals(sorted, at, n);
	g_array_sort(sorted, sdt_check_config_cmp_u64);
	for (guint i = 0; i < sorted->len;) {
		/* one contiguous stretch of the batch */
		guint64 a = g_array_index(sorted, guint64, i);
		guint64 b = a + SDT_JOURNAL_BLOCK;
		for (i++; i < sorted->len && g_array_index(sorted, guint64, i) <= b; i++)
			b = MAX(b, g_array_index(sorted, guint64, i) + SDT_JOURNAL_BLOCK);
		for (guint c = 0; c < n_copies; c++) {
			const SdtJournalCopy *copy = g_ptr_array_index(places->copies, c);
			for (guint e = 0; e < copy->extents->len; e++) {
				const SdtJournalExtent *x =
					&g_array_index(copy->extents, SdtJournalExtent, e);
				if (x->logical >= used)
					break;
				sdt_journal_hits(events,
						 c,
						 a,
						 b,
						 x->start,
						 MIN(x->len, used - x->logical),
						 lo,
						 hi);
			}
		}
	}
	g_array_sort(events, sdt_journal_event_cmp);
	cover = g_new0(guint, n_copies);
	for (guint i = 0; i < events->len; i++) {
		const SdtJournalEvent *ev = &g_array_index(events, SdtJournalEvent, i);
		if (ev->delta > 0 && cover[ev->copy]++ == 0)
			covered++;
		else if (ev->delta < 0 && --cover[ev->copy] == 0)
			covered--;
		/* every copy reachable under one size: not safe */
		if (covered == n_copies &&
		    (i + 1 == events->len ||
		     g_array_index(events, SdtJournalEvent, i + 1).at != ev->at)) {
			if (witness != NULL)
				*witness = ev->at;
			return FALSE;
		}
	}
	return TRUE;
}
