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
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-check-private.h"
#include "sdt-error.h"
#include "sdt-file.h"

/*
 * The repair (docs/ARCHITECTURE.md "The journal"): the newest whole copy of a
 * killed check's journal, read past the page cache, put back only over the run's
 * own blocks; a journal with no whole copy kept as NAME.damaged, never dropped.
 */

#define SDT_JOURNAL_BLOCK    SDT_CHECK_BLOCK
#define SDT_JOURNAL_MAX_FILE (G_GINT64_CONSTANT(1) << 30)

/* @path's bytes past the page cache (a copy on the card was written raw under it) */
static gboolean
sdt_journal_read(const gchar *path, guint8 **data, gsize *len)
{
	struct stat st;
	gsize size;
	gsize got = 0;
	gint fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOFOLLOW);

	/* tmpfs (/run) may refuse O_DIRECT; it has no page cache of its own to bypass */
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return FALSE;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > SDT_JOURNAL_MAX_FILE) {
		close(fd);
		return FALSE;
	}
	size = ((gsize) st.st_size + SDT_JOURNAL_BLOCK - 1) / SDT_JOURNAL_BLOCK * SDT_JOURNAL_BLOCK;
	*data = g_aligned_alloc0(MAX(size, SDT_JOURNAL_BLOCK) / SDT_JOURNAL_BLOCK,
				 SDT_JOURNAL_BLOCK,
				 SDT_JOURNAL_BLOCK);
	/* the file's last block may be short: O_DIRECT reads whole blocks up to its end */
	sdt_file_pread_all(fd, *data, size, 0, &got);
	close(fd);
	*len = MIN(got, (gsize) st.st_size);
	return TRUE;
}

/* are @len bytes all one value (a copy on the card holding only its fill)? */
static gboolean
sdt_journal_all_one(const guint8 *data, gsize len)
{
	return len > 0 && data[0] == data[len - 1] && memcmp(data, data + 1, len - 1) == 0;
}

/* the newest whole copy in @dirs; @found: how many journal files were there,
 * @spoiled: how many of them neither whole nor a copy on the card holding only
 * its fill (made but never written, or its fill already back) */
static gboolean
sdt_journal_load(const gchar *const *dirs, SdtCheckJournal *j, guint *found, guint *spoiled)
{
	gboolean have = FALSE;

	*found = 0;
	*spoiled = 0;
	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		for (guint c = 0; c <= SDT_CHECK_JOURNAL_MAX_COPIES; c++) {
			g_autofree gchar *name = sdt_check_journal_file_copy_name(c);
			g_autofree gchar *path = g_build_filename(dirs[i], name, NULL);
			g_autofree gchar *tmp = g_strconcat(path, ".new", NULL);
			SdtCheckJournal one = {0};
			guint8 *data = NULL;
			gsize len = 0;
			struct stat st;

			/* a copy being made, never used: it held no blocks */
			g_unlink(tmp);
			if (g_lstat(path, &st) != 0)
				continue;
			(*found)++;
			if (!sdt_journal_read(path, &data, &len)) {
				*spoiled += 2;
				continue;
			}
			if (sdt_check_journal_file_decode(data, len, &one) &&
			    (!have || one.gen > j->gen)) {
				sdt_check_journal_file_clear(j);
				*j = one;
				have = TRUE;
			} else if (!sdt_check_journal_file_decode(data, len, &one)) {
				/* a torn file copy (written whole, then renamed) is
				 * damage by itself: counted as two */
				if (c == 0)
					*spoiled += 2;
				else if (!sdt_journal_all_one(data, len))
					(*spoiled)++;
				g_debug("the check journal copy %s is not whole", path);
			} else {
				sdt_check_journal_file_clear(&one);
			}
			g_aligned_free(data);
		}
	}
	return have;
}

/* every journal file in @dirs renamed to NAME.damaged: kept, and said (status,
 * health, metrics) until the user has looked */
static void
sdt_journal_keep_damaged(const gchar *const *dirs)
{
	g_autoptr(GString) kept = g_string_new(NULL);

	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		for (guint c = 0; c <= SDT_CHECK_JOURNAL_MAX_COPIES; c++) {
			g_autofree gchar *name = sdt_check_journal_file_copy_name(c);
			g_autofree gchar *path = g_build_filename(dirs[i], name, NULL);
			g_autofree gchar *to = g_strconcat(path, SDT_CHECK_JOURNAL_DAMAGED, NULL);
			if (g_rename(path, to) == 0)
				g_string_append_printf(kept, "%s%s", kept->len > 0 ? ", " : "", to);
		}
		sdt_check_journal_file_sync_dir(dirs[i]);
	}
	g_warning("a check was interrupted and no copy of its journal is whole: what it had "
		  "out on the card cannot be put back; kept as %s",
		  kept->str);
}

gchar *
sdt_check_repair_damaged(const gchar *const *dirs)
{
	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
		for (guint c = 0; c <= SDT_CHECK_JOURNAL_MAX_COPIES; c++) {
			g_autofree gchar *name = sdt_check_journal_file_copy_name(c);
			g_autofree gchar *path = g_build_filename(dirs[i], name, NULL);
			gchar *kept = g_strconcat(path, SDT_CHECK_JOURNAL_DAMAGED, NULL);
			if (g_file_test(kept, G_FILE_TEST_EXISTS))
				return kept;
			g_free(kept);
		}
	return NULL;
}

/* is @block the run's own block for @at (its magic, seed and offset)? */
static gboolean
sdt_journal_is_ours(const guint8 *block, guint64 seed, guint64 at)
{
	guint64 words[3];

	memcpy(words, block, sizeof(words));
	return GUINT64_FROM_LE(words[0]) == G_GUINT64_CONSTANT(0x31304b4843544453) &&
	       GUINT64_FROM_LE(words[1]) == seed && GUINT64_FROM_LE(words[2]) == at;
}

/* what the journal's spots on a device hold now */
typedef struct {
	guint ours;  /* the run's own block for that spot */
	guint saved; /* what the journal saved there: nothing out, or back already */
	guint other; /* anything else: another card (or someone wrote there since) */
} SdtJournalLook;

static void
sdt_journal_look(const SdtCheckJournal *j, gint fd, SdtJournalLook *look)
{
	guint8 *now = g_aligned_alloc(1, SDT_JOURNAL_BLOCK, SDT_JOURNAL_BLOCK);

	memset(look, 0, sizeof(*look));
	for (guint k = 0; k < j->n; k++) {
		/* a spot that cannot be read tells nothing either way */
		if (sdt_file_pread_all(fd, now, SDT_JOURNAL_BLOCK, j->at[k], NULL) != 0)
			continue;
		if (sdt_journal_is_ours(now, j->seed, j->at[k]))
			look->ours++;
		else if (memcmp(now, j->saved + (gsize) k * SDT_JOURNAL_BLOCK, SDT_JOURNAL_BLOCK) ==
			 0)
			look->saved++;
		else
			look->other++;
	}
	g_aligned_free(now);
}

/* @node read-only past the cache if it is a block device of the journal's size: its
 * spots looked at, its device number in @rdev; FALSE when it is not one */
static gboolean
sdt_journal_probe(const SdtCheckJournal *j, const gchar *node, guint64 *rdev, SdtJournalLook *look)
{
	gint fd = open(node, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;
	guint64 size = 0;
	gboolean is = FALSE;

	if (fd < 0)
		return FALSE;
	if (fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && ioctl(fd, BLKGETSIZE64, &size) == 0 &&
	    size == j->claim) {
		*rdev = (guint64) st.st_rdev;
		sdt_journal_look(j, fd, look);
		is = TRUE;
	}
	close(fd);
	return is;
}

/*
 * The card the journal's blocks are on, wherever it is now (docs/DESIGN.md "A card
 * put back where it is seen"): the journal's node first; when that is gone or holds
 * no block of the run, every whole block device of the journal's size (/sys/block)
 * is read, read-only, and the one holding at least one of the run's own blocks
 * (its 64-bit random seed and offset) is the card.  At the journal's own node and
 * device number a card holding only what the journal saved is the card with
 * nothing out (the kill came before the first write).  The node in @node, TRUE;
 * FALSE with @error when no device is the card.
 */
static gboolean
sdt_journal_find(const SdtCheckJournal *j, gchar **node, gboolean *same, GError **error)
{
	g_autoptr(GHashTable) seen =
		g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	g_autoptr(GDir) dir = NULL;
	SdtJournalLook look;
	guint64 rdev = 0;
	const gchar *name;

	*same = FALSE;
	if (sdt_journal_probe(j, j->disk_node, &rdev, &look)) {
		gint64 *key = g_new(gint64, 1);
		*key = (gint64) rdev;
		g_hash_table_add(seen, key);
		if (look.ours > 0 || (rdev == j->rdev && look.other == 0 && look.saved > 0)) {
			*same = rdev == j->rdev;
			*node = g_strdup(j->disk_node);
			return TRUE;
		}
		g_debug("%s: %u of the journal's spots hold the run's blocks, %u what it saved, "
			"%u something else: not that card",
			j->disk_node,
			look.ours,
			look.saved,
			look.other);
	}
	dir = g_dir_open("/sys/block", 0, NULL);
	while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
		g_autofree gchar *size_path = g_build_filename("/sys/block", name, "size", NULL);
		g_autofree gchar *text = NULL;
		g_autofree gchar *candidate = NULL;
		gint64 *key;

		/* the size in 512-byte sectors, before any device is opened */
		if (!g_file_get_contents(size_path, &text, NULL, NULL) ||
		    g_ascii_strtoull(text, NULL, 10) * 512 != j->claim)
			continue;
		candidate = g_strconcat("/dev/", name, NULL);
		if (!sdt_journal_probe(j, candidate, &rdev, &look) ||
		    g_hash_table_contains(seen, &rdev))
			continue;
		key = g_new(gint64, 1);
		*key = (gint64) rdev;
		g_hash_table_add(seen, key);
		g_debug("%s: %u of the journal's spots hold the run's blocks",
			candidate,
			look.ours);
		if (look.ours > 0) {
			*node = g_steal_pointer(&candidate);
			return TRUE;
		}
	}
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_NOT_FOUND,
		    _("A check of the card at %s was interrupted and that card is not here "
		      "(no device of its size holds what the check wrote); insert it, in any "
		      "reader, so that SD Tuner can put back what it changed"),
		    j->disk_node);
	return FALSE;
}

/* the card at @node for the put-back: O_EXCL (nothing mounted on it, no other
 * program holds it), except the journal's own disk as the running card's check
 * writes it (its file systems are mounted: the check wrote into its own file); never
 * a whole card's (a desktop mounts a card put back in a reader before the repair:
 * what it read there is the check's blocks, so no write goes in under it) */
static gint
sdt_journal_open_disk(const SdtCheckJournal *j, const gchar *node, gboolean same, GError **error)
{
	gint fd = open(node, O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC | O_NOCTTY);

	if (fd < 0 && errno == EBUSY && same && !(j->flags & SDT_CHECK_JOURNAL_WHOLE_DEVICE))
		fd = open(node, O_RDWR | O_DIRECT | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 && errno == EBUSY) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_BUSY,
			    _("The card a check was interrupted on is %s now, and it is in use "
			      "(mounted, or held by another program); unmount it so that SD Tuner "
			      "can put back what the check changed"),
			    node);
		return -1;
	}
	if (fd < 0) {
		sdt_error_set_from_errno(error,
					 errno,
					 _("A check was interrupted and %s, where it must put back "
					   "what it changed, cannot be opened"),
					 node);
		return -1;
	}
	return fd;
}

/* puts back, last first, every block that holds one of the run's; the count or -1 */
static gint
sdt_journal_put_back(const SdtCheckJournal *j, const gchar *node, gint fd, GError **error)
{
	guint8 *now = g_aligned_alloc(1, SDT_JOURNAL_BLOCK, SDT_JOURNAL_BLOCK);
	gint count = 0;
	gint rc = 0;

	for (guint k = j->n; k-- > 0 && rc == 0;) {
		const guint8 *saved = j->saved + (gsize) k * SDT_JOURNAL_BLOCK;
		if (sdt_file_pread_all(fd, now, SDT_JOURNAL_BLOCK, j->at[k], NULL) != 0 ||
		    memcmp(now, saved, SDT_JOURNAL_BLOCK) == 0 ||
		    !sdt_journal_is_ours(now, j->seed, j->at[k]))
			continue;
		rc = sdt_file_pwrite_all(fd, saved, SDT_JOURNAL_BLOCK, j->at[k], NULL);
		count++;
	}
	g_aligned_free(now);
	if (rc == 0 && fdatasync(fd) != 0)
		rc = errno;
	if (rc != 0) {
		sdt_error_set_from_errno(
			error,
			rc,
			_("Cannot put back the blocks an interrupted check changed "
			  "on %s"),
			node);
		return -1;
	}
	return count;
}

/*
 * Every copy on the card gets its fill back over the blocks records took (its
 * last block keeps the fill: docs/ARCHITECTURE.md "The journal"), written through
 * the file with O_DIRECT to its own blocks: on a wrap fake that is the place the
 * copy aliases, as it was before the check.  Only after the probe's blocks are
 * back (they may alias a copy too) and just before the copies go.
 */
static void
sdt_journal_unfill(const gchar *const *dirs)
{
	guint8 *fill = g_aligned_alloc(1, SDT_JOURNAL_BLOCK, SDT_JOURNAL_BLOCK);

	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
		for (guint c = 1; c <= SDT_CHECK_JOURNAL_MAX_COPIES; c++) {
			g_autofree gchar *name = sdt_check_journal_file_copy_name(c);
			g_autofree gchar *path = g_build_filename(dirs[i], name, NULL);
			guint8 *data = NULL;
			gsize len = 0;
			guint n = 0;
			gint fd;

			if (!sdt_journal_read(path, &data, &len))
				continue;
			if (len < 2 * SDT_JOURNAL_BLOCK || len % SDT_JOURNAL_BLOCK != 0 ||
			    !sdt_journal_all_one(data + len - SDT_JOURNAL_BLOCK,
						 SDT_JOURNAL_BLOCK)) {
				/* not a copy of this format: nothing known to put back */
				g_aligned_free(data);
				continue;
			}
			memset(fill, data[len - 1], SDT_JOURNAL_BLOCK);
			fd = open(path, O_WRONLY | O_DIRECT | O_CLOEXEC | O_NOFOLLOW);
			for (gsize off = 0; fd >= 0 && off + SDT_JOURNAL_BLOCK < len;
			     off += SDT_JOURNAL_BLOCK) {
				if (memcmp(data + off, fill, SDT_JOURNAL_BLOCK) == 0)
					continue;
				if (sdt_file_pwrite_all(fd, fill, SDT_JOURNAL_BLOCK, off, NULL) !=
				    0)
					break;
				n++;
			}
			if (fd >= 0) {
				if (fdatasync(fd) != 0)
					g_warning("cannot sync %s: %s", path, g_strerror(errno));
				close(fd);
			}
			g_debug("%s: its fill %#x back over %u blocks", path, fill[0], n);
			g_aligned_free(data);
		}
	g_aligned_free(fill);
}

/* copies on a card left there by a check killed together with its watchdog: the
 * file system they are on may still be frozen (FIFREEZE); a power cut thawed it */
static void
sdt_journal_thaw(const gchar *const *dirs)
{
	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		g_autofree gchar *name = sdt_check_journal_file_copy_name(1);
		g_autofree gchar *path = g_build_filename(dirs[i], name, NULL);
		gint fd;
		if (!g_file_test(path, G_FILE_TEST_EXISTS))
			continue;
		fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0 && ioctl(fd, FITHAW, 0) == 0)
			g_message("thawed the file system of %s, frozen by a check that was killed",
				  dirs[i]);
		if (fd >= 0)
			close(fd);
	}
}

gint
sdt_check_repair_journal(const gchar *const *dirs, gchar **device, GError **error)
{
	SdtCheckJournal j = {0};
	g_autofree gchar *node = NULL;
	gboolean same = FALSE;
	guint found = 0;
	guint spoiled = 0;
	gint count = -1;
	gint fd = -1;

	g_return_val_if_fail(error == NULL || *error == NULL, -1);

	if (device != NULL)
		*device = NULL;
	sdt_journal_thaw(dirs);
	if (!sdt_journal_load(dirs, &j, &found, &spoiled)) {
		/* journal files, none whole and more than one torn: what was out cannot
		 * be known; never dropped.  One torn and the others only fill: the cut
		 * came while the first record went into the first copy (nothing out yet)
		 * or while the last fill went back (nothing out any more) */
		if (spoiled > 1) {
			sdt_journal_keep_damaged(dirs);
			return 0;
		}
		/* else no journal: a temporary file never renamed (nothing written
		 * raw yet) and an empty folder are all a cut can leave */
		sdt_journal_unfill(dirs);
		sdt_check_journal_file_remove(dirs);
		return 0;
	}
	if (j.n == 0) {
		/* the newest copy says that nothing was out */
		sdt_journal_unfill(dirs);
		sdt_check_journal_file_remove(dirs);
		sdt_check_journal_file_clear(&j);
		return 0;
	}
	if (sdt_journal_find(&j, &node, &same, error))
		fd = sdt_journal_open_disk(&j, node, same, error);
	if (fd >= 0) {
		count = sdt_journal_put_back(&j, node, fd, error);
		close(fd);
	}
	if (count >= 0) {
		sdt_journal_unfill(dirs);
		sdt_check_journal_file_remove(dirs);
		if (count > 0)
			g_message("put back %d blocks an interrupted check had changed on %s",
				  count,
				  node);
		if (count > 0 && device != NULL)
			*device = g_steal_pointer(&node);
	}
	sdt_check_journal_file_clear(&j);
	return count;
}
