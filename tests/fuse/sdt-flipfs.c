/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * sdt-flipfs: a stand-in for a card that returns wrong data.  A FUSE file
 * system with one file, "card", backed by a regular file: writes go through
 * unchanged, reads return the stored bytes except that in every 4 KiB page at
 * or after FLIP_FROM the byte at page offset 1234 is inverted.  Put a loop
 * device on /MOUNT/card and a file system on it: metadata stays below
 * FLIP_FROM, file data above it reads back wrong, as a card that corrupts
 * data with a setting it cannot keep up with.  direct_io: every read reaches
 * this program, none is served from the page cache.
 *
 * usage: sdt-flipfs BACKING_FILE FLIP_FROM MOUNTPOINT   (foreground; fusermount3 -u to stop)
 */

#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FLIP_PAGE   4096
#define FLIP_OFFSET 1234

static int backing_fd = -1;
static uint64_t flip_from;

static int
flip_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	struct stat bst;
	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, "/card") != 0)
		return -ENOENT;
	if (fstat(backing_fd, &bst) != 0)
		return -errno;
	st->st_mode = S_IFREG | 0600;
	st->st_nlink = 1;
	st->st_size = bst.st_size;
	return 0;
}

static int
flip_readdir(const char *path,
	     void *buf,
	     fuse_fill_dir_t fill,
	     off_t off,
	     struct fuse_file_info *fi,
	     enum fuse_readdir_flags flags)
{
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	fill(buf, "card", NULL, 0, 0);
	return 0;
}

static int
flip_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, "/card") != 0)
		return -ENOENT;
	fi->direct_io = 1;
	return 0;
}

static int
flip_read(const char *path, char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	ssize_t n = pread(backing_fd, buf, size, off);
	if (n < 0)
		return -errno;
	for (uint64_t pos = (uint64_t) off; pos < (uint64_t) off + (uint64_t) n; pos++) {
		if (pos >= flip_from && pos % FLIP_PAGE == FLIP_OFFSET)
			buf[pos - (uint64_t) off] ^= (char) 0xff;
	}
	return (int) n;
}

static int
flip_write(const char *path, const char *buf, size_t size, off_t off, struct fuse_file_info *fi)
{
	ssize_t n = pwrite(backing_fd, buf, size, off);
	return n < 0 ? -errno : (int) n;
}

static int
flip_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	return fdatasync(backing_fd) != 0 ? -errno : 0;
}

static const struct fuse_operations flip_ops = {
	.getattr = flip_getattr,
	.readdir = flip_readdir,
	.open = flip_open,
	.read = flip_read,
	.write = flip_write,
	.fsync = flip_fsync,
};

int
main(int argc, char **argv)
{
	char *fargv[] = {argv[0], "-f", "-s", argc > 3 ? argv[3] : NULL, NULL};

	if (argc != 4) {
		fprintf(stderr, "usage: %s BACKING_FILE FLIP_FROM MOUNTPOINT\n", argv[0]);
		return 2;
	}
	backing_fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (backing_fd < 0) {
		perror(argv[1]);
		return 1;
	}
	flip_from = strtoull(argv[2], NULL, 0);
	return fuse_main(4, fargv, &flip_ops, NULL);
}
