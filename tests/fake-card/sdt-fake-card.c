/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

/*
 * A fake SD card for the authenticity check's tests: a FUSE file system with
 * one file, "card", that claims CLAIM bytes but stores only REAL bytes (in a
 * sparse backing file).  Put it under a loop device and make a file system
 * over the whole claimed size, and the kernel sees what a fake card gives it:
 *
 *   wrap     offset X reads and writes REAL-backing offset X mod REAL
 *            (the address wrap-around of most fakes)
 *   zeros    beyond REAL, writes are dropped and reads return zeros
 *   eio      beyond REAL, reads and writes fail with EIO (once armed with
 *            SIGUSR1: until then it acts as "zeros", so mkfs can write the
 *            end of the device)
 *   cache    beyond REAL, writes live only in a cache of the last --cache
 *            bytes written (4 KiB blocks, first in first out); reads beyond
 *            REAL return the cached block or zeros (a fake whose read-back
 *            right after a write passes); SIGUSR2 empties the cache
 *   genuine  REAL must equal CLAIM: every byte is stored
 *
 * SIGPWR is a power cut: from that instant the card takes no write and syncs
 * nothing (every write is acknowledged and dropped, so that the kernel tears
 * the loop device and the mount down without errors); reads still answer.
 * What it stored before stays in the backing file, and a new start on the
 * same backing file is the card powered up again.  At its exit it says on
 * stderr how many writes it dropped.
 *
 * Every request goes to this process (direct_io), so no page cache hides what
 * the "card" really holds.  Usage:
 *   sdt-fake-card --kind KIND --claim BYTES --real BYTES --backing FILE MOUNTPOINT
 * It runs in the foreground until the mount point is unmounted.
 */

#define FUSE_USE_VERSION 31

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { KIND_WRAP, KIND_ZEROS, KIND_EIO, KIND_CACHE, KIND_GENUINE };

#define FAKE_BLOCK 4096u

static struct {
	int kind;
	uint64_t claim;
	uint64_t real;
	int fd;
	/* the cache kind: a ring of the last n_slots blocks written */
	uint64_t n_slots;
	uint64_t next_slot;
	uint64_t *slot_block; /* block number + 1, 0: empty */
	char *slot_data;
} fake;

static const char *card_path = "/card";
static volatile sig_atomic_t armed;
static volatile sig_atomic_t drop_cache;
static volatile sig_atomic_t powered_off;
static uint64_t dropped_writes;

/* SIGPWR: the power is cut; nothing written from now on reaches the card */
static void
fake_power_cut(int sig)
{
	(void) sig;
	powered_off = 1;
}

/* SIGUSR2: the cache kind forgets its cache (what only it held is lost) */
static void
fake_drop(int sig)
{
	(void) sig;
	drop_cache = 1;
}

static void
fake_arm(int sig)
{
	(void) sig;
	armed = 1;
}

static int
fake_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	(void) fi;
	memset(st, 0, sizeof(*st));
	if (strcmp(path, "/") == 0) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		return 0;
	}
	if (strcmp(path, card_path) == 0) {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = (off_t) fake.claim;
		return 0;
	}
	return -ENOENT;
}

static int
fake_readdir(const char *path,
	     void *buf,
	     fuse_fill_dir_t filler,
	     off_t offset,
	     struct fuse_file_info *fi,
	     enum fuse_readdir_flags flags)
{
	(void) offset;
	(void) fi;
	(void) flags;
	if (strcmp(path, "/") != 0)
		return -ENOENT;
	filler(buf, ".", NULL, 0, 0);
	filler(buf, "..", NULL, 0, 0);
	filler(buf, card_path + 1, NULL, 0, 0);
	return 0;
}

static int
fake_open(const char *path, struct fuse_file_info *fi)
{
	if (strcmp(path, card_path) != 0)
		return -ENOENT;
	fi->direct_io = 1;
	fi->keep_cache = 0;
	return 0;
}

/* the cache slot holding block @blk, or -1 */
static int64_t
cache_find(uint64_t blk)
{
	if (drop_cache) {
		memset(fake.slot_block, 0, fake.n_slots * sizeof(uint64_t));
		drop_cache = 0;
	}
	for (uint64_t i = 0; i < fake.n_slots; i++)
		if (fake.slot_block[i] == blk + 1)
			return (int64_t) i;
	return -1;
}

/* one whole block written: into the cache (every write passes through it) */
static void
cache_put(uint64_t blk, const char *data)
{
	int64_t slot = cache_find(blk);
	if (slot < 0) {
		slot = (int64_t) fake.next_slot;
		fake.next_slot = (fake.next_slot + 1) % fake.n_slots;
		fake.slot_block[slot] = blk + 1;
	}
	memcpy(fake.slot_data + (uint64_t) slot * FAKE_BLOCK, data, FAKE_BLOCK);
}

/* the cache kind: requests are whole 4 KiB blocks (the loop device's direct I/O) */
static int
cache_read(char *buf, size_t size, uint64_t offset)
{
	for (size_t k = 0; k < size; k += FAKE_BLOCK) {
		uint64_t at = offset + k;
		size_t n = size - k < FAKE_BLOCK ? size - k : FAKE_BLOCK;
		int64_t slot = cache_find(at / FAKE_BLOCK);
		if (slot >= 0 && at % FAKE_BLOCK == 0)
			memcpy(buf + k, fake.slot_data + (uint64_t) slot * FAKE_BLOCK, n);
		else if (at < fake.real) {
			ssize_t r = pread(fake.fd, buf + k, n, (off_t) at);
			if (r < 0)
				return -errno;
			if ((size_t) r < n)
				memset(buf + k + r, 0, n - (size_t) r);
		} else
			memset(buf + k, 0, n);
	}
	return (int) size;
}

static int
cache_write(const char *buf, size_t size, uint64_t offset)
{
	for (size_t k = 0; k < size; k += FAKE_BLOCK) {
		uint64_t at = offset + k;
		size_t n = size - k < FAKE_BLOCK ? size - k : FAKE_BLOCK;
		if (at < fake.real && pwrite(fake.fd, buf + k, n, (off_t) at) != (ssize_t) n)
			return -EIO;
		if (n == FAKE_BLOCK && at % FAKE_BLOCK == 0)
			cache_put(at / FAKE_BLOCK, buf + k);
	}
	return (int) size;
}

/* one piece of a request: [off, off + len) maps to backing offset *phys, or has none */
static size_t
fake_map(uint64_t off, size_t len, int64_t *phys)
{
	if (fake.kind == KIND_WRAP) {
		uint64_t in = off % fake.real;
		uint64_t left = fake.real - in;
		*phys = (int64_t) in;
		return len < left ? len : (size_t) left;
	}
	if (off < fake.real) {
		uint64_t left = fake.real - off;
		*phys = (int64_t) off;
		return len < left ? len : (size_t) left;
	}
	*phys = -1;
	return len;
}

static int
fake_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
	size_t done = 0;
	(void) path;
	(void) fi;
	if ((uint64_t) offset >= fake.claim)
		return 0;
	if ((uint64_t) offset + size > fake.claim)
		size = (size_t) (fake.claim - (uint64_t) offset);
	if (fake.kind == KIND_CACHE)
		return cache_read(buf, size, (uint64_t) offset);
	while (done < size) {
		int64_t phys;
		size_t n = fake_map((uint64_t) offset + done, size - done, &phys);
		if (phys < 0) {
			if (fake.kind == KIND_EIO && armed)
				return done > 0 ? (int) done : -EIO;
			memset(buf + done, 0, n);
		} else {
			ssize_t r = pread(fake.fd, buf + done, n, phys);
			if (r < 0)
				return -errno;
			if ((size_t) r < n)
				memset(buf + done + r, 0, n - (size_t) r);
		}
		done += n;
	}
	return (int) done;
}

static int
fake_write(const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
	size_t done = 0;
	(void) path;
	(void) fi;
	if ((uint64_t) offset >= fake.claim)
		return -ENOSPC;
	if ((uint64_t) offset + size > fake.claim)
		size = (size_t) (fake.claim - (uint64_t) offset);
	if (powered_off) {
		dropped_writes++;
		return (int) size;
	}
	if (fake.kind == KIND_CACHE)
		return cache_write(buf, size, (uint64_t) offset);
	while (done < size) {
		int64_t phys;
		size_t n = fake_map((uint64_t) offset + done, size - done, &phys);
		if (phys < 0) {
			if (fake.kind == KIND_EIO && armed)
				return done > 0 ? (int) done : -EIO;
		} else {
			size_t w = 0;
			while (w < n) {
				ssize_t r =
					pwrite(fake.fd, buf + done + w, n - w, phys + (off_t) w);
				if (r < 0)
					return -errno;
				w += (size_t) r;
			}
		}
		done += n;
	}
	return (int) done;
}

static int
fake_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
	(void) path;
	(void) fi;
	if (powered_off)
		return 0;
	return (datasync ? fdatasync(fake.fd) : fsync(fake.fd)) < 0 ? -errno : 0;
}

static int
fake_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	(void) path;
	(void) fi;
	return (uint64_t) size == fake.claim ? 0 : -EPERM;
}

static const struct fuse_operations fake_ops = {
	.getattr = fake_getattr,
	.readdir = fake_readdir,
	.open = fake_open,
	.read = fake_read,
	.write = fake_write,
	.fsync = fake_fsync,
	.truncate = fake_truncate,
};

static int
usage(void)
{
	fprintf(stderr,
		"usage: sdt-fake-card --kind wrap|zeros|eio|cache|genuine --claim BYTES --real "
		"BYTES "
		"[--cache BYTES] --backing FILE MOUNTPOINT\n");
	return 2;
}

int
main(int argc, char *argv[])
{
	const char *kind = NULL;
	const char *backing = NULL;
	const char *mountpoint = NULL;
	char *fuse_argv[10];
	int fuse_argc = 0;
	uint64_t cache = 4u << 20;
	int rc;

	fake.claim = 0;
	fake.real = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--kind") == 0 && i + 1 < argc)
			kind = argv[++i];
		else if (strcmp(argv[i], "--claim") == 0 && i + 1 < argc)
			fake.claim = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--real") == 0 && i + 1 < argc)
			fake.real = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--cache") == 0 && i + 1 < argc)
			cache = strtoull(argv[++i], NULL, 0);
		else if (strcmp(argv[i], "--backing") == 0 && i + 1 < argc)
			backing = argv[++i];
		else if (argv[i][0] != '-' && mountpoint == NULL)
			mountpoint = argv[i];
		else
			return usage();
	}
	if (kind == NULL || backing == NULL || mountpoint == NULL || fake.claim == 0 ||
	    fake.real == 0 || fake.real > fake.claim || fake.claim % 4096 != 0)
		return usage();
	if (strcmp(kind, "wrap") == 0)
		fake.kind = KIND_WRAP;
	else if (strcmp(kind, "zeros") == 0)
		fake.kind = KIND_ZEROS;
	else if (strcmp(kind, "eio") == 0)
		fake.kind = KIND_EIO;
	else if (strcmp(kind, "cache") == 0 && cache >= FAKE_BLOCK)
		fake.kind = KIND_CACHE;
	else if (strcmp(kind, "genuine") == 0 && fake.real == fake.claim)
		fake.kind = KIND_GENUINE;
	else
		return usage();

	fake.fd = open(backing, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fake.fd < 0 || ftruncate(fake.fd, (off_t) fake.real) != 0) {
		perror(backing);
		return 1;
	}
	if (fake.kind == KIND_CACHE) {
		fake.n_slots = cache / FAKE_BLOCK;
		fake.slot_block = calloc(fake.n_slots, sizeof(uint64_t));
		fake.slot_data = malloc(fake.n_slots * FAKE_BLOCK);
		if (fake.slot_block == NULL || fake.slot_data == NULL)
			return 1;
	}
	signal(SIGUSR1, fake_arm);
	signal(SIGUSR2, fake_drop);
	signal(SIGPWR, fake_power_cut);
	fuse_argv[fuse_argc++] = argv[0];
	fuse_argv[fuse_argc++] = (char *) "-f";
	/* one thread: the cache has no lock */
	fuse_argv[fuse_argc++] = (char *) "-s";
	fuse_argv[fuse_argc++] = (char *) "-o";
	fuse_argv[fuse_argc++] = (char *) "fsname=sdt-fake-card,default_permissions";
	fuse_argv[fuse_argc++] = (char *) mountpoint;
	fuse_argv[fuse_argc] = NULL;
	rc = fuse_main(fuse_argc, fuse_argv, &fake_ops, NULL);
	if (powered_off)
		fprintf(stderr, "power cut: %" PRIu64 " writes dropped\n", dropped_writes);
	return rc;
}
