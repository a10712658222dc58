/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_PATH */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <grp.h>
#include <pwd.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sdt-bench-target.h"
#include "sdt-caller-dir.h"
#include "sdt-error.h"

static void
sdt_caller_dir_close(gint *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* the folder's file system: refused when it is memory, whoever owns it */
static gboolean
sdt_caller_dir_check_fs(gint fd, const gchar *path, GError **error)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) != 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), path);
	return sdt_bench_target_refuse_memory(path, &sfs, error);
}

/* a folder above the one named: root's or the caller's, and no one else may swap
 * what is in it (not writable by others, or sticky) */
static gboolean
sdt_caller_dir_check_parent(const struct stat *st, const gchar *shown, uid_t uid, GError **error)
{
	if ((st->st_uid == 0 || st->st_uid == uid) &&
	    ((st->st_mode & (S_IWGRP | S_IWOTH)) == 0 || (st->st_mode & S_ISVTX) != 0))
		return TRUE;
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_ARGUMENT,
		    /* Translators: a folder */
		    _("%s belongs to another user or others may write to it, so they could "
		      "replace the folder inside it; choose a folder of yours under a folder "
		      "of yours or of root, such as one you make in /var/tmp"),
		    shown);
	return FALSE;
}

/* the folder named: the caller's, and nobody else may write to it */
static gboolean
sdt_caller_dir_check_last(const struct stat *st, const gchar *path, uid_t uid, GError **error)
{
	if (st->st_uid != uid) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: a folder */
			    _("%s is not your folder; the check only reserves space in a folder "
			      "that belongs to you: make one (mkdir) and name it"),
			    path);
		return FALSE;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: a folder */
			    _("%s is writable by other users; the check only reserves space in a "
			      "folder that only you may write to (chmod go-w)"),
			    path);
		return FALSE;
	}
	return TRUE;
}

/* one step down: @name in the folder @fd, never through a symbolic link */
static gint
sdt_caller_dir_step(gint fd, const gchar *name, const gchar *shown, struct stat *st, GError **error)
{
	gint next = openat(fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (next < 0) {
		sdt_error_set_from_errno(error, errno, _("Cannot use %s"), shown);
		return -1;
	}
	if (fstat(next, st) != 0) {
		sdt_error_set_from_errno(error, errno, _("Cannot use %s"), shown);
		close(next);
		return -1;
	}
	if (S_ISLNK(st->st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: a path */
			    _("%s is a symbolic link; name the folder it points to itself "
			      "(realpath shows it)"),
			    shown);
		close(next);
		return -1;
	}
	if (!S_ISDIR(st->st_mode)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    _("%s is not a directory"),
			    shown);
		close(next);
		return -1;
	}
	return next;
}

/*
 * Whether the caller could write in @path themselves: asked by a child that
 * takes the caller's uid, gid and groups (from the user database) before
 * access(2), so every folder on the way must let the caller through and the
 * last one let the caller write.  Only system calls after fork().
 */
static gboolean
sdt_caller_dir_check_access(const gchar *path, uid_t uid, GError **error)
{
	struct passwd pwbuf;
	struct passwd *pw = NULL;
	gchar buf[4096];
	gid_t groups[256];
	gint n_groups = G_N_ELEMENTS(groups);
	gid_t gid = 65534; /* nogroup, for a uid without a name */
	gint status = 0;
	pid_t pid;

	if (uid == 0)
		return TRUE;
	if (getpwuid_r(uid, &pwbuf, buf, sizeof(buf), &pw) == 0 && pw != NULL) {
		gid = pw->pw_gid;
		if (getgrouplist(pw->pw_name, gid, groups, &n_groups) < 0)
			n_groups = 0; /* more than we keep: the primary group only */
	} else {
		n_groups = 0;
	}
	pid = fork();
	if (pid < 0)
		return sdt_error_set_from_errno(error, errno, _("Cannot use %s"), path);
	if (pid == 0) {
		if (setgroups((size_t) n_groups, groups) != 0 || setresgid(gid, gid, gid) != 0 ||
		    setresuid(uid, uid, uid) != 0)
			_exit(255);
		_exit(access(path, W_OK | X_OK) == 0 ? 0 : MIN(errno, 254));
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return TRUE;
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_ARGUMENT,
		    /* Translators: a folder, then why (e.g. "Permission denied") */
		    _("You could not write in %s yourself (%s); the check only uses a folder "
		      "you may write in: make one of yours and name it"),
		    path,
		    WIFEXITED(status) && WEXITSTATUS(status) < 255
			    ? g_strerror(WEXITSTATUS(status))
			    : _("could not run as that user"));
	return FALSE;
}

gboolean
sdt_caller_dir_check(const gchar *path, uid_t uid, struct stat *st_out, GError **error)
{
	g_auto(GStrv) parts = NULL;
	g_autoptr(GString) shown = g_string_new(NULL);
	struct stat st;
	gint fd;
	gboolean ok = TRUE;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(path != NULL && path[0] == '/', FALSE);
	fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0) {
		ok = sdt_error_set_from_errno(error, errno, _("Cannot use %s"), "/");
		goto out;
	}
	parts = g_strsplit(path, "/", -1);
	for (guint i = 0; parts[i] != NULL; i++) {
		gint next;

		if (parts[i][0] == '\0' || g_strcmp0(parts[i], ".") == 0)
			continue;
		/* the folder this one is in */
		if (!sdt_caller_dir_check_parent(&st,
						 shown->len > 0 ? shown->str : "/",
						 uid,
						 error)) {
			ok = FALSE;
			goto out;
		}
		g_string_append_printf(shown, "/%s", parts[i]);
		next = sdt_caller_dir_step(fd, parts[i], shown->str, &st, error);
		if (next < 0) {
			ok = FALSE;
			goto out;
		}
		sdt_caller_dir_close(&fd);
		fd = next;
	}
	if (shown->len == 0) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_INVALID_ARGUMENT,
				    _("The folder to check cannot be /; name a folder of yours"));
		ok = FALSE;
		goto out;
	}
	ok = sdt_caller_dir_check_fs(fd, path, error) &&
	     sdt_caller_dir_check_last(&st, path, uid, error) &&
	     sdt_caller_dir_check_access(path, uid, error);
	if (ok && st_out != NULL)
		*st_out = st;
out:
	sdt_caller_dir_close(&fd);
	return ok;
}
