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
#include <sys/xattr.h>
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

/* who the caller is for permissions: uid and groups (the primary one included) */
typedef struct {
	uid_t uid;
	gid_t groups[256];
	gint n_groups;
} SdtCallerDirUser;

static void
sdt_caller_dir_user_init(SdtCallerDirUser *user, uid_t uid)
{
	struct passwd pwbuf;
	struct passwd *pw = NULL;
	gchar buf[4096];

	user->uid = uid;
	user->n_groups = 0;
	if (getpwuid_r(uid, &pwbuf, buf, sizeof(buf), &pw) == 0 && pw != NULL) {
		user->n_groups = G_N_ELEMENTS(user->groups);
		if (getgrouplist(pw->pw_name, pw->pw_gid, user->groups, &user->n_groups) < 0) {
			/* more than we keep: the primary group only */
			user->groups[0] = pw->pw_gid;
			user->n_groups = 1;
		}
	}
}

static gboolean
sdt_caller_dir_in_group(const SdtCallerDirUser *user, gid_t gid)
{
	for (gint i = 0; i < user->n_groups; i++)
		if (user->groups[i] == gid)
			return TRUE;
	return FALSE;
}

/* POSIX ACL xattr entries (linux/posix_acl_xattr.h) */
#define SDT_ACL_USER      0x02
#define SDT_ACL_GROUP_OBJ 0x04
#define SDT_ACL_GROUP     0x08
#define SDT_ACL_MASK      0x10
#define SDT_ACL_OTHER     0x20

static guint32
sdt_caller_dir_le(const guint8 *p, guint n)
{
	guint32 v = 0;
	for (guint i = 0; i < n; i++)
		v |= (guint32) p[i] << (8 * i);
	return v;
}

/*
 * Whether the caller may @want (4 read, 2 write, 1 search) on the folder @fd with
 * @st, as the kernel would decide for them: the mode bits, or the folder's POSIX
 * ACL when it has one (udisks gives a user /media/USER that way).  Worked out here:
 * the helper's sandbox has no CAP_SETUID to ask the kernel as the caller.
 */
static gboolean
sdt_caller_dir_may(gint fd, const struct stat *st, const SdtCallerDirUser *user, guint want)
{
	g_autofree gchar *proc = g_strdup_printf("/proc/self/fd/%d", fd);
	guint8 acl[4 + 8 * 64];
	ssize_t len;
	guint perm;
	guint mask = 7;
	gint group_match = 0; /* 1: a group entry matched; 2: one granted @want */
	gint user_perm = -1;
	guint other = 0;

	if (user->uid == 0)
		return TRUE;
	if (st->st_uid == user->uid)
		return (((st->st_mode >> 6) & 7) & want) == want;
	len = getxattr(proc, "system.posix_acl_access", acl, sizeof(acl));
	if (len < 4 || (len - 4) % 8 != 0) {
		if (sdt_caller_dir_in_group(user, st->st_gid))
			perm = (st->st_mode >> 3) & 7;
		else
			perm = st->st_mode & 7;
		return (perm & want) == want;
	}
	for (ssize_t off = 4; off + 8 <= len; off += 8)
		if (sdt_caller_dir_le(acl + off, 2) == SDT_ACL_MASK)
			mask = sdt_caller_dir_le(acl + off + 2, 2) & 7;
	for (ssize_t off = 4; off + 8 <= len; off += 8) {
		guint32 tag = sdt_caller_dir_le(acl + off, 2);
		guint p = sdt_caller_dir_le(acl + off + 2, 2) & 7;
		guint32 id = sdt_caller_dir_le(acl + off + 4, 4);
		if (tag == SDT_ACL_USER && id == user->uid)
			user_perm = (gint) (p & mask);
		else if ((tag == SDT_ACL_GROUP_OBJ && sdt_caller_dir_in_group(user, st->st_gid)) ||
			 (tag == SDT_ACL_GROUP && sdt_caller_dir_in_group(user, id)))
			group_match = MAX(group_match, ((p & mask) & want) == want ? 2 : 1);
		else if (tag == SDT_ACL_OTHER)
			other = p;
	}
	if (user_perm >= 0)
		return ((guint) user_perm & want) == want;
	if (group_match > 0)
		return group_match == 2;
	return (other & want) == want;
}

gboolean
sdt_caller_dir_check(const gchar *path, uid_t uid, struct stat *st_out, GError **error)
{
	g_auto(GStrv) parts = NULL;
	g_autoptr(GString) shown = g_string_new(NULL);
	SdtCallerDirUser user;
	struct stat st;
	gint fd;
	gboolean ok = TRUE;

	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	g_return_val_if_fail(path != NULL && path[0] == '/', FALSE);
	sdt_caller_dir_user_init(&user, uid);
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
		/* the folder this one is in: the caller's way through, and nobody else's to swap */
		if (!sdt_caller_dir_may(fd, &st, &user, 1)) {
			g_set_error(
				error,
				SDT_ERROR,
				SDT_ERROR_INVALID_ARGUMENT,
				/* Translators: a folder, then the one inside it the user named */
				_("You cannot open %s yourself, so %s is not a folder you could "
				  "use; choose a folder of yours that you can reach"),
				shown->len > 0 ? shown->str : "/",
				path);
			ok = FALSE;
			goto out;
		}
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
	     sdt_caller_dir_check_last(&st, path, uid, error);
	if (ok && !sdt_caller_dir_may(fd, &st, &user, 3)) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_INVALID_ARGUMENT,
			    /* Translators: a folder */
			    _("You could not write in %s yourself; the check only uses a folder "
			      "you may write in (chmod u+wx)"),
			    path);
		ok = FALSE;
	}
	if (ok && st_out != NULL)
		*st_out = st;
out:
	sdt_caller_dir_close(&fd);
	return ok;
}
