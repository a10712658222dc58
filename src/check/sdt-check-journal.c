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
#include "sdt-state-lock.h"
#include "sdt-error.h"
#include "sdt-file.h"

#define SDT_JOURNAL_MAGIC    "SDTJRN01"
#define SDT_JOURNAL_BLOCK    4096u
#define SDT_JOURNAL_SUM      32u    /* SHA-256 */
#define SDT_JOURNAL_MAX_N    65536u /* 256 MiB of blocks: far above what a run keeps out */
#define SDT_JOURNAL_MAX_NODE 4096u

/* ---- the file's bytes: magic, n, rdev, claim, seed, node length, node, offsets,
 * blocks, SHA-256 of all before ---- */

static void
sdt_journal_put_u64(GByteArray *out, guint64 v)
{
	guint64 le = GUINT64_TO_LE(v);
	g_byte_array_append(out, (const guint8 *) &le, sizeof(le));
}

static GByteArray *
sdt_journal_encode(const SdtCheckJournal *j)
{
	GByteArray *out = g_byte_array_new();
	gsize node_len = strlen(j->disk_node);
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 digest[SDT_JOURNAL_SUM];
	gsize digest_len = sizeof(digest);

	g_byte_array_append(out, (const guint8 *) SDT_JOURNAL_MAGIC, 8);
	sdt_journal_put_u64(out, j->n);
	sdt_journal_put_u64(out, j->rdev);
	sdt_journal_put_u64(out, j->claim);
	sdt_journal_put_u64(out, j->seed);
	sdt_journal_put_u64(out, node_len);
	g_byte_array_append(out, (const guint8 *) j->disk_node, (guint) node_len);
	for (guint i = 0; i < j->n; i++)
		sdt_journal_put_u64(out, j->at[i]);
	g_byte_array_append(out, j->saved, j->n * SDT_JOURNAL_BLOCK);
	g_checksum_update(sum, out->data, out->len);
	g_checksum_get_digest(sum, digest, &digest_len);
	g_byte_array_append(out, digest, SDT_JOURNAL_SUM);
	return out;
}

static gboolean
sdt_journal_get_u64(const guint8 *data, gsize len, gsize *pos, guint64 *v)
{
	guint64 le;

	if (len - *pos < sizeof(le))
		return FALSE;
	memcpy(&le, data + *pos, sizeof(le));
	*pos += sizeof(le);
	*v = GUINT64_FROM_LE(le);
	return TRUE;
}

/* the journal in @data, if it is whole and its checksum holds */
static gboolean
sdt_journal_decode(const guint8 *data, gsize len, SdtCheckJournal *j)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 digest[SDT_JOURNAL_SUM];
	gsize digest_len = sizeof(digest);
	gsize pos = 8;
	guint64 n = 0;
	guint64 node_len = 0;

	if (len < 8 + SDT_JOURNAL_SUM || memcmp(data, SDT_JOURNAL_MAGIC, 8) != 0)
		return FALSE;
	g_checksum_update(sum, data, len - SDT_JOURNAL_SUM);
	g_checksum_get_digest(sum, digest, &digest_len);
	if (memcmp(digest, data + len - SDT_JOURNAL_SUM, SDT_JOURNAL_SUM) != 0)
		return FALSE;
	len -= SDT_JOURNAL_SUM;
	if (!sdt_journal_get_u64(data, len, &pos, &n) || n > SDT_JOURNAL_MAX_N ||
	    !sdt_journal_get_u64(data, len, &pos, &j->rdev) ||
	    !sdt_journal_get_u64(data, len, &pos, &j->claim) ||
	    !sdt_journal_get_u64(data, len, &pos, &j->seed) ||
	    !sdt_journal_get_u64(data, len, &pos, &node_len) || node_len == 0 ||
	    node_len > SDT_JOURNAL_MAX_NODE || len - pos != node_len + n * (8 + SDT_JOURNAL_BLOCK))
		return FALSE;
	j->disk_node = g_strndup((const gchar *) data + pos, node_len);
	pos += node_len;
	j->n = (guint) n;
	j->at = g_new(guint64, MAX(n, 1));
	for (guint i = 0; i < j->n; i++)
		sdt_journal_get_u64(data, len, &pos, &j->at[i]);
	j->saved = g_aligned_alloc(MAX(n, 1), SDT_JOURNAL_BLOCK, SDT_JOURNAL_BLOCK);
	memcpy(j->saved, data + pos, n * SDT_JOURNAL_BLOCK);
	return TRUE;
}

static void
sdt_journal_clear(SdtCheckJournal *j)
{
	g_clear_pointer(&j->disk_node, g_free);
	g_clear_pointer(&j->at, g_free);
	g_clear_pointer(&j->saved, g_aligned_free);
}

/* ---- writing and removing ---- */

static void
sdt_journal_sync_dir(const gchar *dir)
{
	gint fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* @bytes into @dir/check-journal: temporary file, fsync, rename, fsync of @dir */
static gboolean
sdt_journal_write_one(const gchar *dir, GByteArray *bytes, GError **error)
{
	g_autofree gchar *path = g_build_filename(dir, SDT_CHECK_JOURNAL_NAME, NULL);
	g_autofree gchar *tmp = g_strconcat(path, ".new", NULL);
	gint fd;
	gint rc;

	if (!sdt_state_lock_make_dir(dir, error))
		return FALSE;
	g_unlink(tmp);
	fd = open(tmp, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot write %s"), tmp);
	rc = sdt_file_pwrite_all(fd, bytes->data, bytes->len, 0, NULL);
	if (rc == 0 && fsync(fd) != 0)
		rc = errno;
	close(fd);
	if (rc == 0 && g_rename(tmp, path) != 0)
		rc = errno;
	if (rc != 0) {
		g_unlink(tmp);
		return sdt_error_set_from_errno(error, rc, _("Cannot write %s"), path);
	}
	sdt_journal_sync_dir(dir);
	return TRUE;
}

gboolean
sdt_check_journal_write(const gchar *const *dirs, const SdtCheckJournal *journal, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_autoptr(GByteArray) bytes = sdt_journal_encode(journal);

	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
		if (!sdt_journal_write_one(dirs[i], bytes, error)) {
			sdt_check_journal_remove(dirs);
			return FALSE;
		}
	return TRUE;
}

/* is @dir's journal on the disk (O_DIRECT: not the page cache) still @bytes? */
static gboolean
sdt_journal_intact(const gchar *dir, GByteArray *bytes)
{
	g_autofree gchar *path = g_build_filename(dir, SDT_CHECK_JOURNAL_NAME, NULL);
	gsize len = (bytes->len + SDT_JOURNAL_BLOCK - 1) / SDT_JOURNAL_BLOCK * SDT_JOURNAL_BLOCK;
	guint8 *buf =
		g_aligned_alloc(len / SDT_JOURNAL_BLOCK, SDT_JOURNAL_BLOCK, SDT_JOURNAL_BLOCK);
	gsize got = 0;
	gboolean same = FALSE;
	gint fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC | O_NOFOLLOW);

	if (fd >= 0) {
		sdt_file_pread_all(fd, buf, len, 0, &got);
		same = got == bytes->len && memcmp(buf, bytes->data, bytes->len) == 0;
		close(fd);
	}
	g_aligned_free(buf);
	return same;
}

gboolean
sdt_check_journal_rewrite_damaged(const gchar *const *dirs,
				  const SdtCheckJournal *journal,
				  GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_autoptr(GByteArray) bytes = sdt_journal_encode(journal);
	gboolean damaged = FALSE;

	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		if (sdt_journal_intact(dirs[i], bytes))
			continue;
		damaged = TRUE;
		if (!sdt_journal_write_one(dirs[i], bytes, error))
			return FALSE;
	}
	if (damaged)
		g_message("the check journal was hit by the check's own writes: written again");
	return TRUE;
}

void
sdt_check_journal_remove(const gchar *const *dirs)
{
	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		g_autofree gchar *path = g_build_filename(dirs[i], SDT_CHECK_JOURNAL_NAME, NULL);
		g_autofree gchar *tmp = g_strconcat(path, ".new", NULL);
		gboolean gone = g_unlink(path) == 0;
		gone = g_unlink(tmp) == 0 || gone;
		if (gone)
			sdt_journal_sync_dir(dirs[i]);
		/* the folder too, when nothing else is in it: nothing is left behind */
		g_rmdir(dirs[i]);
	}
}

/* ---- repair ---- */

/* the first intact journal in @dirs; @found: whether any journal file was there */
static gboolean
sdt_journal_load(const gchar *const *dirs, SdtCheckJournal *j, gboolean *found)
{
	*found = FALSE;
	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		g_autofree gchar *path = g_build_filename(dirs[i], SDT_CHECK_JOURNAL_NAME, NULL);
		g_autofree gchar *data = NULL;
		gsize len = 0;
		struct stat st;

		if (g_lstat(path, &st) != 0)
			continue;
		*found = TRUE;
		if (!S_ISREG(st.st_mode) || !g_file_get_contents(path, &data, &len, NULL))
			continue;
		if (sdt_journal_decode((const guint8 *) data, len, j))
			return TRUE;
		/* a check killed while writing it: no block was written after it */
		g_message("the check journal %s is not whole; ignored", path);
	}
	return FALSE;
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

/* is @block one of the run's own (its magic and seed)? */
static gboolean
sdt_journal_is_ours(const guint8 *block, guint64 seed)
{
	guint64 words[2];

	memcpy(words, block, sizeof(words));
	return GUINT64_FROM_LE(words[0]) == G_GUINT64_CONSTANT(0x31304b4843544453) &&
	       GUINT64_FROM_LE(words[1]) == seed;
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
		    !sdt_journal_is_ours(now, j->seed))
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

gint
sdt_check_journal_repair(const gchar *const *dirs, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, -1);
	SdtCheckJournal j = {0};
	gboolean found = FALSE;
	gint count;
	gint fd;

	if (!sdt_journal_load(dirs, &j, &found)) {
		/* none, or only torn ones: a journal is whole before the first write */
		if (found)
			sdt_check_journal_remove(dirs);
		return 0;
	}
	fd = sdt_journal_open_disk(&j, error);
	count = fd >= 0 ? sdt_journal_put_back(&j, fd, error) : -1;
	if (fd >= 0)
		close(fd);
	if (count >= 0) {
		sdt_check_journal_remove(dirs);
		if (count > 0)
			g_message("put back %d blocks an interrupted check had changed on %s",
				  count,
				  j.disk_node);
	}
	sdt_journal_clear(&j);
	return count;
}
