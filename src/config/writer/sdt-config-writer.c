/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/* the writer: finds, reads, locks and atomically replaces config.txt, with backups */

#include "config.h"

#include <inttypes.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-config-writer-io.h"
#include "sdt-config-writer-io-private.h"
#include "sdt-config-writer-private.h"
#include "sdt-error.h"
#include "sdt-state-lock.h"
#include "sdt-file.h"
#include "sdt-config-includes.h"

#define SDT_CONFIG_TMP_INFIX ".sd-tuner-tmp-"

struct _SdtConfigWriter {
	GObject parent_instance;
	gchar *path;         /* config.txt as found under the root (may be a symlink) */
	gchar *display_path; /* as seen on the Pi */
	gchar *state_dir;
	gchar *real_path; /* after following a symlink inside the boot partition */
	SdtConfigWriterIo io;
	gint lock_fd;
	GError *lock_error;   /* the lock sdt_config_writer_read() could not take */
	gint config_fd;       /* the descriptor config.txt was last read from; -1: none */
	SdtContext *ctx;      /* the clock and the boot id; %NULL: the real time, no boot id */
	gboolean boot_id_set; /* the boot id is @boot_id, not read from @ctx */
	gchar *boot_id;
	gboolean journal_fallback; /* a damaged journal is set aside (verify's undo) */
	SdtConfigWriterCommit commit;
	gpointer commit_data;
	const gchar *commit_backup; /* during the commit callback only */
};

G_DEFINE_TYPE(SdtConfigWriter, sdt_config_writer, G_TYPE_OBJECT)

static void
sdt_config_writer_finalize(GObject *object)
{
	SdtConfigWriter *self = SDT_CONFIG_WRITER(object);
	if (self->lock_fd >= 0)
		close(self->lock_fd);
	if (self->config_fd >= 0)
		close(self->config_fd);
	g_clear_error(&self->lock_error);
	g_free(self->path);
	g_free(self->display_path);
	g_free(self->state_dir);
	g_free(self->real_path);
	g_free(self->boot_id);
	g_clear_object(&self->ctx);
	G_OBJECT_CLASS(sdt_config_writer_parent_class)->finalize(object);
}

static void
sdt_config_writer_class_init(SdtConfigWriterClass *klass)
{
	G_OBJECT_CLASS(klass)->finalize = sdt_config_writer_finalize;
}

static void
sdt_config_writer_init(SdtConfigWriter *self)
{
	self->io = *sdt_config_writer_io_get_default();
	self->lock_fd = -1;
	self->config_fd = -1;
}

SdtConfigWriter *
sdt_config_writer_new_for_paths(const gchar *config_path,
				const gchar *display_path,
				const gchar *state_dir)
{
	SdtConfigWriter *self = g_object_new(SDT_TYPE_CONFIG_WRITER, NULL);
	self->path = g_strdup(config_path);
	self->display_path = g_strdup(display_path != NULL ? display_path : config_path);
	self->state_dir = g_strdup(state_dir);
	return self;
}

SdtConfigWriter *
sdt_config_writer_new(SdtContext *ctx, GError **error)
{
	g_autofree gchar *display = NULL;
	g_autofree gchar *path = NULL;
	g_autofree gchar *state = NULL;
	SdtConfigWriter *self;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	path = sdt_config_writer_locate(ctx, &display, error);
	if (path == NULL)
		return NULL;

	state = sdt_context_get_state_dir(ctx);
	self = sdt_config_writer_new_for_paths(path, display, state);
	self->ctx = g_object_ref(ctx);
	return self;
}

GDateTime *
sdt_config_writer_now(SdtConfigWriter *self)
{
	return self->ctx != NULL ? sdt_context_get_now(self->ctx) : g_date_time_new_now_utc();
}

void
sdt_config_writer_set_io(SdtConfigWriter *self, const SdtConfigWriterIo *io)
{
	g_return_if_fail(SDT_IS_CONFIG_WRITER(self));
	self->io = io != NULL ? *io : *sdt_config_writer_io_get_default();
}

void
sdt_config_writer_set_journal_fallback(SdtConfigWriter *self, gboolean fallback)
{
	self->journal_fallback = fallback;
}

gboolean
sdt_config_writer_get_journal_fallback(SdtConfigWriter *self)
{
	return self->journal_fallback;
}

void
sdt_config_writer_set_commit(SdtConfigWriter *self, SdtConfigWriterCommit commit, gpointer data)
{
	self->commit = commit;
	self->commit_data = data;
}

gboolean
sdt_config_writer_run_commit(SdtConfigWriter *self,
			     const gchar *id,
			     gboolean trial,
			     const gchar *config_sha256,
			     const gchar *target_sha256,
			     const gchar *backup,
			     GError **error)
{
	gboolean ok;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	if (self->commit == NULL)
		return TRUE;
	self->commit_backup = backup;
	ok = self->commit(self, id, trial, config_sha256, target_sha256, self->commit_data, error);
	self->commit_backup = NULL;
	return ok;
}

const gchar *
sdt_config_writer_get_commit_backup(SdtConfigWriter *self)
{
	return self->commit_backup;
}

const gchar *
sdt_config_writer_get_display_path(SdtConfigWriter *self)
{
	return self->display_path;
}

const gchar *
sdt_config_writer_get_path(SdtConfigWriter *self)
{
	return self->path;
}

gchar *
sdt_config_writer_state_path(SdtConfigWriter *self, const gchar *name)
{
	return g_build_filename(self->state_dir, name, NULL);
}

gint
sdt_config_writer_unlink(SdtConfigWriter *self, const gchar *path)
{
	return self->io.unlink(path, self->io.user_data);
}

/* follows a symlink only when it stays inside the folder of config.txt (the boot partition) */
static gboolean
sdt_config_writer_resolve(SdtConfigWriter *self, GError **error)
{
	GStatBuf st;
	GStatBuf st_dir;
	g_autofree gchar *dir = g_path_get_dirname(self->path);
	g_autofree gchar *dir_real = NULL;
	g_autofree gchar *target = NULL;
	g_autofree gchar *prefix = NULL;

	if (g_lstat(self->path, &st) != 0)
		return sdt_error_set_from_errno(error, errno, _("cannot read %s"), self->path);
	g_clear_pointer(&self->real_path, g_free);
	if (!S_ISLNK(st.st_mode)) {
		if (!S_ISREG(st.st_mode)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("%s is not a regular file: replace it with the boot "
				      "configuration file"),
				    self->path);
			return FALSE;
		}
		self->real_path = g_strdup(self->path);
		return TRUE;
	}
	dir_real = realpath(dir, NULL);
	target = realpath(self->path, NULL);
	if (dir_real == NULL || target == NULL) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_NOT_FOUND,
			    _("%s is a symbolic link to a file that does not exist: replace the "
			      "link with the real config.txt"),
			    self->path);
		return FALSE;
	}
	prefix = g_strconcat(dir_real, "/", NULL);
	if (!g_str_has_prefix(target, prefix) || g_stat(target, &st) != 0 ||
	    g_stat(dir_real, &st_dir) != 0 || st.st_dev != st_dir.st_dev || !S_ISREG(st.st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_DATA,
			    _("%s is a symbolic link to %s, outside the boot partition %s; the "
			      "firmware cannot follow it and SD Tuner will not edit a file "
			      "elsewhere: replace the link with the real file"),
			    self->path,
			    target,
			    dir_real);
		return FALSE;
	}
	self->real_path = g_steal_pointer(&target);
	return TRUE;
}

/*
 * Reads a file SD Tuner does not own (config.txt, an include, tryboot.txt, a
 * backup) with sdt_file_read_bounded(): never blocks on a FIFO, never follows
 * a link, refuses anything but a regular file of at most 1 MiB.
 */
static GBytes *
sdt_config_writer_read_limited_fd(const gchar *path, gint *fd_out, GError **error)
{
	g_autoptr(GError) local = NULL;
	gchar *data = NULL;
	gsize len = 0;
	GStatBuf st;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);

	if (sdt_file_read_bounded_fd(path, SDT_CONFIG_TXT_MAX_SIZE, &data, &len, fd_out, &local))
		return g_bytes_new_take(data, len);
	if (g_error_matches(local, SDT_ERROR, SDT_ERROR_INVALID_DATA) && g_lstat(path, &st) == 0) {
		if (S_ISREG(st.st_mode) && st.st_size > SDT_CONFIG_TXT_MAX_SIZE) {
			g_set_error(
				error,
				SDT_ERROR,
				SDT_ERROR_INVALID_DATA,
				_("the file is %" PRId64 " bytes long; a boot configuration "
				  "is a few kilobytes and SD Tuner edits files up to 1 MiB: check "
				  "that it is the right file and shrink it by hand"),
				(gint64) st.st_size);
			return NULL;
		}
		if (!S_ISREG(st.st_mode)) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_DATA,
				    _("%s is not a regular file (it is a pipe, socket, device, "
				      "folder or link), so SD Tuner does not read it: replace it "
				      "with a regular file or remove it"),
				    path);
			return NULL;
		}
	}
	g_propagate_error(error, g_steal_pointer(&local));
	return NULL;
}

GBytes *
sdt_config_writer_read_limited(const gchar *path, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	return sdt_config_writer_read_limited_fd(path, NULL, error);
}

/* the descriptor of the last read of config.txt goes (our own rename replaced the file) */
static void
sdt_config_writer_forget_config_fd(SdtConfigWriter *self)
{
	if (self->config_fd >= 0)
		close(self->config_fd);
	self->config_fd = -1;
}

SdtConfigTxt *
sdt_config_writer_load(SdtConfigWriter *self, GBytes **bytes_out, GError **error)
{
	g_autoptr(GBytes) bytes = NULL;
	SdtConfigTxt *cfg;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(self != NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);

	if (!sdt_config_writer_resolve(self, error))
		return NULL;
	sdt_config_writer_forget_config_fd(self);
	/* the descriptor stays open: the check before the rename reads the same file again */
	bytes = sdt_config_writer_read_limited_fd(self->real_path, &self->config_fd, error);
	if (bytes == NULL || !sdt_config_editable_check_bytes(bytes, error)) {
		g_prefix_error(error, _("cannot edit %s: "), self->path);
		return NULL;
	}
	cfg = sdt_config_txt_new_from_bytes(bytes, "config.txt");
	/* bounded: each include read once, within the include budget */
	{
		g_autofree gchar *dir = g_path_get_dirname(self->real_path);
		if (!sdt_config_includes_load(cfg, dir, error)) {
			g_prefix_error(error, _("cannot read %s: "), self->path);
			g_object_unref(cfg);
			return NULL;
		}
	}
	if (bytes_out != NULL)
		*bytes_out = g_steal_pointer(&bytes);
	return cfg;
}

gchar *
sdt_config_writer_hash(GBytes *bytes)
{
	return g_compute_checksum_for_bytes(G_CHECKSUM_SHA256, bytes);
}

/* adds what to do to an errno error of a write */
gboolean
sdt_config_writer_set_write_error(GError **error, gint errsv, const gchar *path)
{
	const gchar *hint;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

	switch (errsv) {
	case ENOSPC:
	case EDQUOT:
		hint = _("free some space on that file system, then try again");
		break;
	case EROFS:
		hint = _("the file system is mounted read-only: remount it read-write "
			 "(sudo mount -o remount,rw /boot/firmware), then try again");
		break;
	case EIO:
		hint = _("the card reported a write error: check the card, then try again");
		break;
	case EACCES:
	case EPERM:
		hint = _("SD Tuner needs root for this: use sdtunerctl without --root, which asks "
			 "sd-tuner-helper");
		break;
	default:
		hint = _("nothing was changed; fix the cause, then try again");
		break;
	}
	g_set_error(error,
		    SDT_ERROR,
		    sdt_error_from_errno(errsv),
		    _("cannot write %s: %s; %s"),
		    path,
		    g_strerror(errsv),
		    hint);
	return FALSE;
}

static gboolean
sdt_config_writer_lock(SdtConfigWriter *self, GError **error)
{
	g_autofree gchar *lock = g_build_filename(self->state_dir, "lock", NULL);

	if (self->lock_fd >= 0)
		return TRUE;
	if (!sdt_state_lock_make_dir(self->state_dir, error))
		return FALSE;
	self->lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (self->lock_fd < 0)
		return sdt_error_set_from_errno(error, errno, _("cannot open %s"), lock);
	if (flock(self->lock_fd, LOCK_EX | LOCK_NB) != 0) {
		gint errsv = errno;
		close(self->lock_fd);
		self->lock_fd = -1;
		if (errsv == EWOULDBLOCK) {
			g_set_error(error,
				    SDT_ERROR,
				    SDT_ERROR_BUSY,
				    _("another SD Tuner process is changing %s: wait until it has "
				      "finished, then try again"),
				    self->path);
			return FALSE;
		}
		return sdt_error_set_from_errno(error, errsv, _("cannot lock %s"), lock);
	}
	return TRUE;
}

void
sdt_config_writer_unlock(SdtConfigWriter *self)
{
	if (self->lock_fd < 0)
		return;
	flock(self->lock_fd, LOCK_UN);
	close(self->lock_fd);
	self->lock_fd = -1;
}

/* FALSE when @path no longer has the content of @expect_hash */
static gboolean
sdt_config_writer_check_unchanged(SdtConfigWriter *self,
				  const gchar *path,
				  const gchar *expect_hash,
				  GError **error)
{
	g_autoptr(GBytes) now = NULL;
	g_autofree gchar *hash = NULL;

	if (expect_hash == NULL)
		return TRUE;
	if (self->config_fd >= 0 && g_strcmp0(path, self->real_path) == 0)
		hash = sdt_config_writer_io_hash_held(self->config_fd,
						      path,
						      SDT_CONFIG_TXT_MAX_SIZE);
	if (hash == NULL) {
		now = sdt_config_writer_read_limited(path, NULL);
		hash = now != NULL ? sdt_config_writer_hash(now) : NULL;
	}
	if (g_strcmp0(hash, expect_hash) == 0)
		return TRUE;
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_CONFIG_CHANGED,
		    _("%s was changed by another program while SD Tuner was "
		      "editing it; SD Tuner changed nothing: try again"),
		    path);
	return FALSE;
}

/* flushes the folder @dir of the replaced @path to the card */
static gboolean
sdt_config_writer_sync_dir(SdtConfigWriter *self,
			   const gchar *dir,
			   const gchar *path,
			   GError **error)
{
	gint dfd = self->io.open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0, self->io.user_data);

	if (dfd < 0 || self->io.fsync(dfd, self->io.user_data) != 0) {
		gint errsv = errno;
		if (dfd >= 0)
			self->io.close(dfd, self->io.user_data);
		g_set_error(error,
			    SDT_ERROR,
			    sdt_error_from_errno(errsv),
			    _("%s was replaced, but its folder could not be flushed to the "
			      "card (%s): check the file before you reboot"),
			    path,
			    g_strerror(errsv));
		return FALSE;
	}
	self->io.close(dfd, self->io.user_data);
	return TRUE;
}

/*
 * Replaces @path atomically: a temporary file in the same folder, fsync,
 * rename over @path, fsync of the folder.  With @expect_hash, @path must
 * still have that content just before the rename.  The new file keeps the
 * mode and owner of @path; a new one takes those of @like (tryboot.txt takes
 * config.txt's), else 0644 and the writer's.
 */
gboolean
sdt_config_writer_write_atomic_like(SdtConfigWriter *self,
				    const gchar *path,
				    GBytes *bytes,
				    const gchar *expect_hash,
				    const gchar *like,
				    GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autofree gchar *base = NULL;
	g_autofree gchar *tmp = NULL;
	GStatBuf st;
	gint errsv;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);

	dir = g_path_get_dirname(path);
	base = g_path_get_basename(path);
	if (g_stat(path, &st) != 0 && (like == NULL || g_stat(like, &st) != 0)) {
		st.st_mode = 0644;
		st.st_uid = geteuid();
		st.st_gid = getegid();
	}
	tmp = g_strdup_printf("%s/.%s%s%d-%08x",
			      dir,
			      base,
			      SDT_CONFIG_TMP_INFIX,
			      (gint) getpid(),
			      g_random_int());
	errsv = sdt_config_writer_io_write_tmp(&self->io, tmp, &st, bytes);
	if (errsv != 0)
		return sdt_config_writer_set_write_error(error, errsv, path);
	if (!sdt_config_writer_check_unchanged(self, path, expect_hash, error)) {
		self->io.unlink(tmp, self->io.user_data);
		return FALSE;
	}
	if (self->io.rename(tmp, path, self->io.user_data) != 0) {
		errsv = errno;
		self->io.unlink(tmp, self->io.user_data);
		return sdt_config_writer_set_write_error(error, errsv, path);
	}
	if (g_strcmp0(path, self->real_path) == 0)
		sdt_config_writer_forget_config_fd(self);
	return sdt_config_writer_sync_dir(self, dir, path, error);
}

gboolean
sdt_config_writer_write_atomic(SdtConfigWriter *self,
			       const gchar *path,
			       GBytes *bytes,
			       const gchar *expect_hash,
			       GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	return sdt_config_writer_write_atomic_like(self, path, bytes, expect_hash, NULL, error);
}

static guint
sdt_config_writer_cleanup_dir(SdtConfigWriter *self, const gchar *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const gchar *name;
	guint n = 0;

	if (d == NULL)
		return 0;
	while ((name = g_dir_read_name(d)) != NULL) {
		g_autofree gchar *path = NULL;
		if (strstr(name, SDT_CONFIG_TMP_INFIX) == NULL)
			continue;
		path = g_build_filename(dir, name, NULL);
		if (g_unlink(path) == 0)
			n++;
	}
	return n;
}

static guint
sdt_config_writer_cleanup(SdtConfigWriter *self)
{
	g_autofree gchar *dir =
		g_path_get_dirname(self->real_path != NULL ? self->real_path : self->path);
	g_autofree gchar *backups = g_build_filename(self->state_dir, "backups", NULL);
	guint n = 0;

	n += sdt_config_writer_cleanup_dir(self, dir);
	n += sdt_config_writer_cleanup_dir(self, self->state_dir);
	n += sdt_config_writer_cleanup_dir(self, backups);
	return n;
}

gchar *
sdt_config_writer_backup(SdtConfigWriter *self, GBytes *bytes, const gchar *stem, GError **error)
{
	g_autofree gchar *dir = NULL;
	g_autoptr(GDateTime) now = NULL;
	g_autofree gchar *stamp = NULL;
	g_autofree gchar *path = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(self != NULL, NULL);

	dir = g_build_filename(self->state_dir, "backups", NULL);
	now = sdt_config_writer_now(self);
	stamp = g_date_time_format(now, "%Y%m%dT%H%M%S");
	if (!sdt_state_lock_make_dir(self->state_dir, error) ||
	    !sdt_state_lock_make_dir(dir, error))
		return NULL;
	for (guint i = 0; i < 1000; i++) {
		g_autofree gchar *suffix = i > 0 ? g_strdup_printf("-%u", i) : g_strdup("");
		g_free(path);
		path = g_strdup_printf("%s/%s.%s.%06dZ%s",
				       dir,
				       stem,
				       stamp,
				       g_date_time_get_microsecond(now),
				       suffix);
		if (!g_file_test(path, G_FILE_TEST_EXISTS))
			break;
	}
	if (!sdt_config_writer_write_atomic(self, path, bytes, NULL, error)) {
		g_prefix_error(error, _("cannot save a backup: "));
		return NULL;
	}
	return g_steal_pointer(&path);
}

gchar *
sdt_config_writer_get_boot_id(SdtConfigWriter *self)
{
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);
	if (self->boot_id_set)
		return g_strdup(self->boot_id);
	return self->ctx != NULL ? sdt_context_get_boot_id(self->ctx, NULL) : NULL;
}

void
sdt_config_writer_set_boot_id(SdtConfigWriter *self, const gchar *boot_id)
{
	g_return_if_fail(SDT_IS_CONFIG_WRITER(self));
	g_free(self->boot_id);
	self->boot_id = g_strdup(boot_id);
	self->boot_id_set = TRUE;
}

gchar *
sdt_config_writer_hash_config(SdtConfigWriter *self)
{
	g_autoptr(GBytes) bytes = NULL;

	if (!sdt_config_writer_resolve(self, NULL))
		return NULL;
	bytes = sdt_config_writer_read_limited(self->real_path, NULL);
	return bytes != NULL ? sdt_config_writer_hash(bytes) : NULL;
}

/* before any lock, backup or temporary file: can config.txt's folder be written at all? */
static gboolean
sdt_config_writer_check_writable(SdtConfigWriter *self, GError **error)
{
	g_autofree gchar *dir = NULL;

	if (!sdt_config_writer_resolve(self, error))
		return FALSE;
	dir = g_path_get_dirname(self->real_path);
	if (access(dir, W_OK) != 0)
		return sdt_config_writer_set_write_error(error, errno, self->path);
	return TRUE;
}

/*
 * The lock of sdt_config_writer_read(), taken only when its file is already
 * there, so that a command that writes nothing creates nothing (no state
 * folder, no lock file): a first apply takes it in sdt_config_writer_prepare(),
 * and the hash check still refuses a config.txt changed since the read.
 * Another SD Tuner holding it is kept for sdt_config_writer_prepare() to say.
 */
static void
sdt_config_writer_lock_existing(SdtConfigWriter *self)
{
	g_autofree gchar *lock = g_build_filename(self->state_dir, "lock", NULL);
	gint fd;

	if (self->lock_fd >= 0)
		return;
	fd = open(lock, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		self->lock_fd = fd;
		return;
	}
	if (errno == EWOULDBLOCK)
		g_set_error(&self->lock_error,
			    SDT_ERROR,
			    SDT_ERROR_BUSY,
			    _("another SD Tuner process is changing %s: wait until it has "
			      "finished, then try again"),
			    self->path);
	close(fd);
}

SdtConfigTxt *
sdt_config_writer_read(SdtConfigWriter *self, GBytes **bytes, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), NULL);
	g_clear_error(&self->lock_error);
	sdt_config_writer_lock_existing(self);
	return sdt_config_writer_load(self, bytes, error);
}

gboolean
sdt_config_writer_prepare(SdtConfigWriter *self, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(SDT_IS_CONFIG_WRITER(self), FALSE);
	/* in the order sdt_config_writer_begin() finds them */
	if (!sdt_config_writer_check_writable(self, error))
		return FALSE;
	if (self->lock_error != NULL) {
		g_propagate_error(error, g_steal_pointer(&self->lock_error));
		return FALSE;
	}
	if (!sdt_config_writer_lock(self, error))
		return FALSE;
	sdt_config_writer_cleanup(self);
	return TRUE;
}

/* checks, locks and reads config.txt; the lock is held when a model is returned */
SdtConfigTxt *
sdt_config_writer_begin(SdtConfigWriter *self, GBytes **old, GError **error)
{
	SdtConfigTxt *cfg;
	g_autofree gchar *damage = NULL;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(self != NULL, NULL);

	if (!sdt_config_writer_check_writable(self, error))
		return NULL;
	if (!sdt_config_writer_lock(self, error))
		return NULL;
	sdt_config_writer_cleanup(self);
	cfg = sdt_config_writer_load(self, old, error);
	if (cfg == NULL) {
		sdt_config_writer_unlock(self);
		return NULL;
	}
	/* one diagnosis of a damaged block for every command */
	damage = sdt_config_diagnose_block(cfg, self->display_path);
	if (damage != NULL) {
		g_set_error_literal(error, SDT_ERROR, SDT_ERROR_INVALID_DATA, damage);
		g_object_unref(cfg);
		sdt_config_writer_unlock(self);
		return NULL;
	}
	return cfg;
}

gboolean
sdt_config_writer_write_config(SdtConfigWriter *self,
			       GBytes *bytes,
			       const gchar *expect_hash,
			       GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(self != NULL, FALSE);
	return sdt_config_writer_write_atomic(self, self->real_path, bytes, expect_hash, error);
}
