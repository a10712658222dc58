/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * The check's journal: its bytes (a record, with its SHA-256) and its file copies
 * in folders off the checked card (temporary file, fsync, rename) and their removal.
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

#define SDT_JOURNAL_MAGIC_V1 "SDTJRN01" /* no generation: read only */
#define SDT_JOURNAL_MAGIC_V2 "SDTJRN02" /* no flags: read only */
#define SDT_JOURNAL_MAGIC    "SDTJRN03"
#define SDT_JOURNAL_BLOCK    4096u
#define SDT_JOURNAL_SECTOR   512u   /* O_DIRECT's alignment on the disk (1 KiB ext4 blocks) */
#define SDT_JOURNAL_SUM      32u    /* SHA-256 */
#define SDT_JOURNAL_MAX_N    65536u /* 256 MiB of blocks: far above what a run keeps out */
#define SDT_JOURNAL_MAX_NODE 4096u

/* ---- the file's bytes: magic, generation, n, rdev, claim, seed, flags, node length,
 * node, offsets, blocks, SHA-256 of all before; a copy on the card is padded with
 * zeros to its preallocated size ---- */

static void
sdt_journal_put_u64(GByteArray *out, guint64 v)
{
	guint64 le = GUINT64_TO_LE(v);
	g_byte_array_append(out, (const guint8 *) &le, sizeof(le));
}

GByteArray *
sdt_check_journal_file_encode(const SdtCheckJournal *j)
{
	GByteArray *out = g_byte_array_new();
	gsize node_len = strlen(j->disk_node);
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 digest[SDT_JOURNAL_SUM];
	gsize digest_len = sizeof(digest);

	g_byte_array_append(out, (const guint8 *) SDT_JOURNAL_MAGIC, 8);
	sdt_journal_put_u64(out, j->gen);
	sdt_journal_put_u64(out, j->n);
	sdt_journal_put_u64(out, j->rdev);
	sdt_journal_put_u64(out, j->claim);
	sdt_journal_put_u64(out, j->seed);
	sdt_journal_put_u64(out, j->flags);
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

/* the journal in @data (followed by padding, or not), if it is whole and its
 * checksum holds */
gboolean
sdt_check_journal_file_decode(const guint8 *data, gsize len, SdtCheckJournal *j)
{
	g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
	guint8 digest[SDT_JOURNAL_SUM];
	gsize digest_len = sizeof(digest);
	gsize pos = 8;
	gboolean v1;
	gboolean v2;
	guint64 flags = 0;
	guint64 n = 0;
	guint64 node_len = 0;
	guint64 gen = 0;
	guint64 rdev = 0, claim = 0, seed = 0;
	gsize body;

	if (len < 8 + SDT_JOURNAL_SUM)
		return FALSE;
	v1 = memcmp(data, SDT_JOURNAL_MAGIC_V1, 8) == 0;
	v2 = memcmp(data, SDT_JOURNAL_MAGIC_V2, 8) == 0;
	if (!v1 && !v2 && memcmp(data, SDT_JOURNAL_MAGIC, 8) != 0)
		return FALSE;
	if ((!v1 && !sdt_journal_get_u64(data, len, &pos, &gen)) ||
	    !sdt_journal_get_u64(data, len, &pos, &n) || n > SDT_JOURNAL_MAX_N ||
	    !sdt_journal_get_u64(data, len, &pos, &rdev) ||
	    !sdt_journal_get_u64(data, len, &pos, &claim) ||
	    !sdt_journal_get_u64(data, len, &pos, &seed) ||
	    (!v1 && !v2 && !sdt_journal_get_u64(data, len, &pos, &flags)) ||
	    !sdt_journal_get_u64(data, len, &pos, &node_len) || node_len == 0 ||
	    node_len > SDT_JOURNAL_MAX_NODE)
		return FALSE;
	body = pos + node_len + n * (8 + SDT_JOURNAL_BLOCK);
	/* the old format has no padding */
	if (len < body + SDT_JOURNAL_SUM || (v1 && len != body + SDT_JOURNAL_SUM))
		return FALSE;
	g_checksum_update(sum, data, body);
	g_checksum_get_digest(sum, digest, &digest_len);
	if (memcmp(digest, data + body, SDT_JOURNAL_SUM) != 0)
		return FALSE;
	j->gen = gen;
	j->rdev = rdev;
	j->claim = claim;
	j->seed = seed;
	j->flags = flags;
	j->disk_node = g_strndup((const gchar *) data + pos, node_len);
	pos += node_len;
	j->n = (guint) n;
	j->at = g_new(guint64, MAX(n, 1));
	for (guint i = 0; i < j->n; i++)
		sdt_journal_get_u64(data, body, &pos, &j->at[i]);
	j->saved = g_aligned_alloc(MAX(n, 1), SDT_JOURNAL_BLOCK, SDT_JOURNAL_BLOCK);
	memcpy(j->saved, data + pos, n * SDT_JOURNAL_BLOCK);
	return TRUE;
}

void
sdt_check_journal_file_clear(SdtCheckJournal *j)
{
	g_clear_pointer(&j->disk_node, g_free);
	g_clear_pointer(&j->at, g_free);
	g_clear_pointer(&j->saved, g_aligned_free);
}

/* ---- writing and removing ---- */

void
sdt_check_journal_file_sync_dir(const gchar *dir)
{
	gint fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* @bytes into @dir/check-journal: temporary file, fsync, rename, fsync of @dir */
gboolean
sdt_check_journal_file_write_one(const gchar *dir, GByteArray *bytes, GError **error)
{
	g_autofree gchar *path = NULL;
	g_autofree gchar *tmp = NULL;
	gint fd;
	gint rc;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	path = g_build_filename(dir, SDT_CHECK_JOURNAL_NAME, NULL);
	tmp = g_strconcat(path, ".new", NULL);
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
	sdt_check_journal_file_sync_dir(dir);
	return TRUE;
}

gboolean
sdt_check_journal_file_write(const gchar *const *dirs,
			     const SdtCheckJournal *journal,
			     GError **error)
{
	g_autoptr(GByteArray) bytes = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	bytes = sdt_check_journal_file_encode(journal);
	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
		if (!sdt_check_journal_file_write_one(dirs[i], bytes, error)) {
			sdt_check_journal_file_remove(dirs);
			return FALSE;
		}
	return TRUE;
}

/* is @dir's journal on the disk (O_DIRECT: not the page cache) still @bytes? */
gboolean
sdt_check_journal_file_intact(const gchar *dir, GByteArray *bytes)
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

/* the names a journal copy has in its folder: the file copy, the copies on the card */
gchar *
sdt_check_journal_file_copy_name(guint i)
{
	return i == 0 ? g_strdup(SDT_CHECK_JOURNAL_NAME)
		      : g_strdup_printf("%s.%u", SDT_CHECK_JOURNAL_NAME, i - 1);
}

/* @dir (a folder named "check") removed when nothing is in it, and its removal made durable (the
 * parent's fsync): a power cut right after a check must not leave an empty folder behind */
void
sdt_check_journal_file_rmdir(const gchar *dir)
{
	g_autofree gchar *parent = NULL;
	g_autofree gchar *base = g_path_get_basename(dir);

	/* only a folder of the journal's own (older versions', the tests'): never the
	 * state folder, whose block a new one would take anywhere on the card */
	if (g_strcmp0(base, SDT_CHECK_JOURNAL_DIR) != 0 || g_rmdir(dir) != 0)
		return;
	parent = g_path_get_dirname(dir);
	sdt_check_journal_file_sync_dir(parent);
}

void
sdt_check_journal_file_remove(const gchar *const *dirs)
{
	for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++) {
		gboolean gone = FALSE;
		for (guint c = 0; c <= SDT_CHECK_JOURNAL_MAX_COPIES; c++) {
			g_autofree gchar *name = sdt_check_journal_file_copy_name(c);
			g_autofree gchar *path = g_build_filename(dirs[i], name, NULL);
			g_autofree gchar *tmp = g_strconcat(path, ".new", NULL);
			gone = g_unlink(path) == 0 || gone;
			gone = g_unlink(tmp) == 0 || gone;
		}
		if (gone)
			sdt_check_journal_file_sync_dir(dirs[i]);
		/* the folder too, when nothing else is in it: nothing is left behind */
		sdt_check_journal_file_rmdir(dirs[i]);
	}
}
