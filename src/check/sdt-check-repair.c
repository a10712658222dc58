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

/* the journal's disk, opened for raw writes, if it is the same disk */
static gint
sdt_journal_open_disk(const SdtCheckJournal *j, GError **error)
{
	gint fd = open(j->disk_node, O_RDWR | O_DIRECT | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	guint64 size = 0;

	if (fd < 0) {
		sdt_error_set_from_errno(
			error,
			errno,
			_("A check was interrupted and %s, where it must put back "
			  "what it changed, cannot be opened; insert the same card "
			  "and start SD Tuner again"),
			j->disk_node);
		return -1;
	}
	if (fstat(fd, &st) != 0 || !S_ISBLK(st.st_mode) || (guint64) st.st_rdev != j->rdev ||
	    ioctl(fd, BLKGETSIZE64, &size) != 0 || size != j->claim) {
		close(fd);
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("A check was interrupted on another card than the one at %s now; "
			      "insert that card and start SD Tuner again so that it can put back "
			      "what it changed"),
			    j->disk_node);
		return -1;
	}
	return fd;
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

/* puts back, last first, every block that holds one of the run's; the count or -1 */
static gint
sdt_journal_put_back(const SdtCheckJournal *j, gint fd, GError **error)
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
			j->disk_node);
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
sdt_check_repair_journal(const gchar *const *dirs, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, -1);
	SdtCheckJournal j = {0};
	guint found = 0;
	guint spoiled = 0;
	gint count;
	gint fd;

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
	fd = sdt_journal_open_disk(&j, error);
	count = fd >= 0 ? sdt_journal_put_back(&j, fd, error) : -1;
	if (fd >= 0)
		close(fd);
	if (count >= 0) {
		sdt_journal_unfill(dirs);
		sdt_check_journal_file_remove(dirs);
		if (count > 0)
			g_message("put back %d blocks an interrupted check had changed on %s",
				  count,
				  j.disk_node);
	}
	sdt_check_journal_file_clear(&j);
	return count;
}
