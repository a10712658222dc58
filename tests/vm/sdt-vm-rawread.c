/* sdt-vm-rawread DEVICE MIB MODE BUFFER - the raw read taken apart (issue 35): MIB MiB of
 * DEVICE read from its start in 2 MiB O_DIRECT pread()s, as the engine's raw read and fio's
 * psync job do, with one thing changed at a time:
 *   MODE   same: pread() in the thread that times it (fio's psync)
 *          thread: pread() in a worker, the timing thread waiting on a condition variable
 *                  for each completion (the engine's threads backend: GAsyncQueue)
 *   BUFFER page: posix_memalign(4096) (the engine's buffers)
 *          huge: 2 MiB aligned and madvise(MADV_HUGEPAGE) (one physically contiguous page
 *                where the kernel gives one)
 * Prints one line: "rawread MODE BUFFER mb_s=.. seconds=.. cpu_us_per_io=.. requests=..
 * kib_per_request=.." where requests are the device's reads completed over the run
 * (/sys/block/NAME/stat). Built static for the guest by tests/vm/vm.sh. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define BLOCK (2u * 1024u * 1024u)

struct worker {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int fd;
	void *buf;
	long long offset; /* the next read's, -1: quit */
	int pending;      /* 1: a read asked for, 0: done */
	ssize_t result;
};

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static double
cpu_seconds(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec / 1e6 +
	       (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec / 1e6;
}

/* reads completed and sectors read of the disk that holds DEVICE's name (mmcblk0) */
static int
disk_reads(const char *disk, unsigned long long *reads, unsigned long long *sectors)
{
	char path[256];
	unsigned long long merged;
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "/sys/block/%s/stat", disk);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	n = fscanf(f, "%llu %llu %llu", reads, &merged, sectors);
	fclose(f);
	return n == 3 ? 0 : -1;
}

static void *
worker_main(void *data)
{
	struct worker *w = data;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (w->pending == 0)
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->offset < 0)
			break;
		pthread_mutex_unlock(&w->lock);
		ssize_t r = pread(w->fd, w->buf, BLOCK, w->offset);
		pthread_mutex_lock(&w->lock);
		w->result = r < 0 ? -errno : r;
		w->pending = 0;
		pthread_cond_broadcast(&w->cond);
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int
main(int argc, char **argv)
{
	struct worker w = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, -1, NULL, 0, 0, 0};
	unsigned long long r0, s0, r1, s1;
	const char *dev, *disk;
	pthread_t thread;
	double t0, t1, c0, c1;
	long long total;
	int threaded, huge, ios = 0;

	if (argc != 5 || (strcmp(argv[3], "same") != 0 && strcmp(argv[3], "thread") != 0) ||
	    (strcmp(argv[4], "page") != 0 && strcmp(argv[4], "huge") != 0)) {
		fprintf(stderr, "usage: sdt-vm-rawread DEVICE MIB same|thread page|huge\n");
		return 2;
	}
	dev = argv[1];
	total = atoll(argv[2]) * 1024 * 1024;
	threaded = strcmp(argv[3], "thread") == 0;
	huge = strcmp(argv[4], "huge") == 0;
	disk = strrchr(dev, '/') != NULL ? strrchr(dev, '/') + 1 : dev;
	if (total < BLOCK) {
		fprintf(stderr, "sdt-vm-rawread: MIB must be at least 2\n");
		return 2;
	}
	if (posix_memalign(&w.buf, huge ? BLOCK : 4096, BLOCK) != 0) {
		fprintf(stderr, "sdt-vm-rawread: no memory\n");
		return 1;
	}
	if (huge && madvise(w.buf, BLOCK, MADV_HUGEPAGE) != 0)
		perror("sdt-vm-rawread: madvise(MADV_HUGEPAGE)");
	memset(w.buf, 0, BLOCK);
	w.fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (w.fd < 0) {
		perror(dev);
		return 1;
	}
	if (threaded && pthread_create(&thread, NULL, worker_main, &w) != 0) {
		fprintf(stderr, "sdt-vm-rawread: no thread\n");
		return 1;
	}
	if (disk_reads(disk, &r0, &s0) != 0)
		r0 = s0 = 0;
	t0 = now();
	c0 = cpu_seconds();
	for (long long off = 0; off + BLOCK <= total; off += BLOCK, ios++) {
		ssize_t r;
		if (threaded) {
			pthread_mutex_lock(&w.lock);
			w.offset = off;
			w.pending = 1;
			pthread_cond_broadcast(&w.cond);
			while (w.pending != 0)
				pthread_cond_wait(&w.cond, &w.lock);
			r = w.result;
			pthread_mutex_unlock(&w.lock);
		} else {
			r = pread(w.fd, w.buf, BLOCK, off);
			if (r < 0)
				r = -errno;
		}
		if (r != (ssize_t) BLOCK) {
			fprintf(stderr,
				"sdt-vm-rawread: read at %lld: %s\n",
				off,
				r < 0 ? strerror((int) -r) : "short");
			return 1;
		}
	}
	t1 = now();
	c1 = cpu_seconds();
	if (disk_reads(disk, &r1, &s1) != 0)
		r1 = r0, s1 = s0;
	if (threaded) {
		pthread_mutex_lock(&w.lock);
		w.offset = -1;
		w.pending = 1;
		pthread_cond_broadcast(&w.cond);
		pthread_mutex_unlock(&w.lock);
		pthread_join(thread, NULL);
	}
	printf("rawread %s %s mb_s=%.1f seconds=%.4f cpu_us_per_io=%.0f requests=%llu "
	       "kib_per_request=%.1f\n",
	       argv[3],
	       argv[4],
	       (double) ios * BLOCK / 1e6 / (t1 - t0),
	       t1 - t0,
	       (c1 - c0) * 1e6 / ios,
	       r1 - r0,
	       r1 > r0 ? (double) (s1 - s0) / 2.0 / (double) (r1 - r0) : 0.0);
	close(w.fd);
	return 0;
}
