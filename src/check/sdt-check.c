/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <inttypes.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sdt-check-private.h"
#include "sdt-check.h"
#include "sdt-context.h"
#include "sdt-error.h"
#include "sdt-state-lock.h"
#include "sdt-check-config-private.h"

#define SDT_CHECK_RUN_LOCK "check.lock"

/*
 * The lock a check holds from its repair to its end: a file in the journal's folder off
 * the card (the second, /run/sd-tuner: never on the card under test, and not in the state
 * folder, whose files the user's tests list), flock()ed.  A repair at sight (`devices`,
 * GetDevices on each plugged card, the helper's start, verify) never puts back the blocks
 * of a check that is running, and two checks never share the journal.  -1 with @busy set
 * when another holds it; -1 alone when it cannot be made (a read-only /run: the repair
 * goes on as it did before there was a lock).
 */
static gint
sdt_check_run_lock(const gchar *const *dirs, gboolean *busy)
{
	const gchar *dir = dirs[1] != NULL ? dirs[1] : dirs[0];
	g_autofree gchar *path = g_build_filename(dir, SDT_CHECK_RUN_LOCK, NULL);
	gint fd;

	*busy = FALSE;
	/* the holder unlinks the file as it lets go (sdt_check_run_unlock()): a lock taken on
	 * a file that is no longer the path's is nobody's, so it is taken again */
	for (guint tries = 0; tries < 8; tries++) {
		struct stat held;
		struct stat named;

		if (!sdt_state_lock_make_dir(dir, NULL))
			return -1;
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
		if (fd < 0)
			return -1;
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			*busy = errno == EWOULDBLOCK;
			close(fd);
			return -1;
		}
		if (fstat(fd, &held) == 0 && g_lstat(path, &named) == 0 &&
		    held.st_dev == named.st_dev && held.st_ino == named.st_ino)
			return fd;
		close(fd);
	}
	return -1;
}

/* the target, the read-only phase, then (unless it found a fake) the writes */
static gboolean
sdt_check_phases(SdtCheck *self, GError **error)
{
	if (self->config->device != NULL ? !sdt_check_device_open(self, error)
					 : !sdt_check_target_open(self, error))
		return FALSE;
	/* a whole card given up: every block written and read back, nothing saved */
	if (self->whole_device && self->config->mode == SDT_CHECK_MODE_FULL)
		return sdt_check_full_device(self, error);
	self->candidates = sdt_check_config_candidate_sizes(self->claim);
	if (!self->config->skip_read_phase && !sdt_check_read_phase(self, error))
		return FALSE;
	if (self->failure != NULL)
		return TRUE;
	/* the probe first, in both modes: the full pass only where it showed the
	 * address space is real, and not at all on a fake */
	if (!sdt_check_write_phase(self, error))
		return FALSE;
	if (self->config->mode == SDT_CHECK_MODE_FULL && self->failure == NULL &&
	    self->reason == NULL)
		return sdt_check_full(self, error);
	return TRUE;
}

/* the run lock let go: its file goes (and its folder, if that is all it held), so that
 * nothing of a check stays behind */
static void
sdt_check_run_unlock(const gchar *const *dirs, gint lock)
{
	const gchar *dir = dirs[1] != NULL ? dirs[1] : dirs[0];
	g_autofree gchar *path = g_build_filename(dir, SDT_CHECK_RUN_LOCK, NULL);

	if (lock < 0)
		return;
	g_unlink(path);
	g_rmdir(dir);
	close(lock);
}

/* the run lock taken (@lock: its descriptor, or -1 where none can be made), then the
 * repair of what a killed check left out; FALSE with @error, nothing held */
static gboolean
sdt_check_start(const gchar *const *dirs, gint *lock, GError **error)
{
	gboolean busy = FALSE;

	*lock = sdt_check_run_lock(dirs, &busy);
	if (busy) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_BUSY,
				    _("Another check is running; wait until it has finished"));
		return FALSE;
	}
	if (sdt_check_repair_journal(dirs, NULL, error) < 0) {
		sdt_check_run_unlock(dirs, *lock);
		*lock = -1;
		return FALSE;
	}
	return TRUE;
}

SdtCheckResult *
sdt_check_run(const gchar *dir,
	      const SdtCheckConfig *config,
	      SdtBenchProgressFunc progress,
	      gpointer user_data,
	      GCancellable *cancellable,
	      GError **error)
{
	SdtCheck self;
	SdtCheckResult *result = NULL;
	gint lock = -1;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(config != NULL && (dir != NULL) != (config->device != NULL), NULL);

	if (config->journal_dirs == NULL || config->journal_dirs[0] == NULL) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("The check has no folder for its journal"));
		return NULL;
	}
	/* what a killed check left out goes back first; if it cannot, nothing new */
	if (progress != NULL)
		progress("repair", 0.0, 0.0, user_data);
	if (!sdt_check_start(config->journal_dirs, &lock, error))
		return NULL;
	sdt_check_block_init(&self, dir, config, progress, user_data, cancellable);
	if (sdt_check_phases(&self, error)) {
		/* the reserved file goes before the result is reported */
		if (self.file_fd >= 0) {
			close(self.file_fd);
			self.file_fd = -1;
		}
		sdt_check_block_report(&self, "cleanup", 1.0);
		if (self.n_unfrozen > 0)
			g_ptr_array_add(
				self.notes,
				g_strdup_printf(
					_("The file system could not be frozen while the "
					  "probe's blocks were out (%s): a write of the "
					  "running system to one of them in that second was "
					  "kept, and one to a place a fake card aliases may "
					  "have been undone"),
					g_strerror(self.freeze_errno)));
		if (self.journal_unsafe > 0)
			g_ptr_array_add(
				self.notes,
				g_strdup_printf(
					_("Were the card a fake of %" PRIu64
					  " MiB, one probe write could have reached every "
					  "copy of the check's journal: a power cut in that "
					  "second would have left it damaged"),
					self.journal_unsafe / SDT_CHECK_MIB));
		g_debug("check journal: %u copies on the card, %u batches split, %u copies hit "
			"and rewritten, %u batches frozen (the longest %.0f ms), %u not (%s), %u "
			"blocks left to the system, %u spots in occupied space, top run %s",
			self.journal != NULL ? sdt_check_journal_places_n_card(self.journal) : 0,
			self.n_splits,
			self.journal_hits,
			self.n_frozen,
			self.frozen_max_us / 1000.0,
			self.n_unfrozen,
			g_strerror(self.freeze_errno),
			self.n_left,
			self.n_spots,
			self.top_done ? "done" : "not run");
		result = sdt_check_json_build(&self);
	}
	sdt_check_block_clear(&self);
	sdt_check_run_unlock(config->journal_dirs, lock);
	return result;
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

gint
sdt_check_repair(const gchar *const *journal_dirs, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, -1);
	return sdt_check_repair_seen(journal_dirs, NULL, error);
}

/* is there a journal file (whole or not, or one being made) in @dirs? */
static gboolean
sdt_check_journal_present(const gchar *const *dirs)
{
	for (guint i = 0; dirs[i] != NULL; i++)
		for (guint c = 0; c <= SDT_CHECK_JOURNAL_MAX_COPIES; c++) {
			g_autofree gchar *name = sdt_check_journal_file_copy_name(c);
			g_autofree gchar *path = g_build_filename(dirs[i], name, NULL);
			g_autofree gchar *tmp = g_strconcat(path, ".new", NULL);
			struct stat st;
			if (g_lstat(path, &st) == 0 || g_lstat(tmp, &st) == 0)
				return TRUE;
		}
	return FALSE;
}

gint
sdt_check_repair_seen(const gchar *const *journal_dirs, gchar **device, GError **error)
{
	gboolean busy = FALSE;
	gint lock;
	gint count;

	g_return_val_if_fail(error == NULL || *error == NULL, -1);

	if (device != NULL)
		*device = NULL;
	if (journal_dirs == NULL || journal_dirs[0] == NULL)
		return 0;
	/* nothing is made or touched where no journal is (a `devices` under a read-only
	 * --root, every plugged card, every start of the helper: the run lock's folder is
	 * not made for nothing) */
	if (!sdt_check_journal_present(journal_dirs))
		return 0;
	/* a check is running: its journal is live, and its own start repaired */
	lock = sdt_check_run_lock(journal_dirs, &busy);
	if (busy)
		return 0;
	count = sdt_check_repair_journal(journal_dirs, device, error);
	sdt_check_run_unlock(journal_dirs, lock);
	return count;
}

gchar *
sdt_check_damaged_journal(const gchar *const *journal_dirs)
{
	return sdt_check_repair_damaged(journal_dirs);
}

gchar **
sdt_check_journal_dirs(SdtContext *ctx)
{
	g_autofree gchar *state = sdt_context_get_state_dir(ctx);
	gchar **dirs = g_new0(gchar *, 4);

	/* the state folder itself, not a folder of its own: a new folder's block would be
	 * written where the file system puts it, and on a wrap fake that may be an alias
	 * of anything (docs/ARCHITECTURE.md "The journal"); the state folder's block is
	 * in use already */
	dirs[0] = g_strdup(state);
	/* a copy off the card (tmpfs): survives a kill even where a wrap hit the first */
	dirs[1] = sdt_context_build_path(ctx, "/run/sd-tuner");
	/* where versions before kept it: repaired from there too (a check makes its
	 * copies on the card in the first folder there only) */
	dirs[2] = g_build_filename(state, SDT_CHECK_JOURNAL_DIR, NULL);
	return dirs;
}
