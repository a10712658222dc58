/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT, O_TMPFILE, statx, fallocate */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <glib/gi18n.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sdt-bench.h"
#include "sdt-bench-private.h"
#include "sdt-error.h"
#include "sdt-bench-io-private.h"
#include "sdt-bench-latency-private.h"
#include "sdt-bench-stop-private.h"
#include "sdt-bench-target-private.h"

#define MIB (G_GUINT64_CONSTANT(1024) * 1024)

/* a sequential phase's share of the progress bar: its time on a 20 MB/s card */
#define SDT_BENCH_NOMINAL_MB_S 20.0

/*
 * Idle time between two tests, as fio's stonewall leaves between jobs: the card
 * finishes what the last test left in its cache, and on the throttled stand-in
 * the block layer's throttle forgets the budget the last test left unused
 * (measured: with no pause a QD32 write right after the sequential write came
 * out 6% above a 2000 IOPS throttle; with 250 ms, within 1%; with 100 ms, even
 * as the slope of the stopping rule, 1933-2057 where 250 ms gave 1970-2001).
 * The next test's preparation (its ring, its buffers) is done before it.
 */
#define SDT_BENCH_SETTLE_MS 250

/* fixed seeds: the same offsets every run, so runs compare */
#define SDT_BENCH_SEED 0x5344547553656564ULL

typedef struct {
	const gchar *name;
	guint64 file_size; /* also the most the raw-device test reads */
	gdouble rand_seconds;
	gdouble rand_qd1_seconds;
	gdouble raw_seconds;
	/* the stopping rule (SdtBenchConfig); target 0: fixed lengths */
	gdouble target_ci_percent;
	gdouble min_seconds;
	gdouble seq_min_seconds;
	gdouble after_min_seconds;
	gdouble slice_seconds;
	guint min_slices;
	guint64 seq_slice_blocks;
} SdtBenchProfile;

static const SdtBenchProfile sdt_bench_profiles[] = {
	/*
	 * about 10 s on a 20 MB/s card at most; each test ends as soon as its
	 * rate is known within ±3% at 95% confidence (docs/BENCHMARK-ENGINE.md,
	 * "The stopping rule"): the QD32 tests after 0.5 s, the sequential write
	 * after 1 s, the rest after 1 s; slices of 50 ms, or one block of a
	 * sequential test: the verdict after about 2.7 s
	 */
	{"quick", 64 * MIB, 2, 1, 1, 3.0, 0.5, 1.0, 1.0, 0.05, 4, 1},
	/* Raspberry Pi Diagnostics: 256 MiB, 4 MiB blocks, 4k QD32 for 10 s; plus QD1 */
	{"standard", 256 * MIB, 10, 5, 3, 0, 0, 0, 0, 0.25, 3, 0},
	/* a file larger than any card's fast cache area, long random phases */
	{"full", 1024 * MIB, 30, 15, 10, 0, 0, 0, 0, 0.25, 3, 0},
};

gboolean
sdt_bench_config_for_profile(const gchar *profile, SdtBenchConfig *config, GError **error)
{
	g_return_val_if_fail(error == NULL || *error == NULL, FALSE);
	memset(config, 0, sizeof(*config));
	config->seq_block_size = 4 * MIB;
	config->rand_block_size = 4096;
	config->queue_depth = 32;
	config->raw_block_size = 2 * MIB;
	config->backend = SDT_BENCH_IO_BACKEND_AUTO;

	for (guint i = 0; i < G_N_ELEMENTS(sdt_bench_profiles); i++) {
		const SdtBenchProfile *p = &sdt_bench_profiles[i];
		if (g_strcmp0(profile, p->name) != 0)
			continue;
		config->profile = p->name;
		config->file_size = p->file_size;
		config->rand_seconds = p->rand_seconds;
		config->rand_qd1_seconds = p->rand_qd1_seconds;
		config->raw_seconds = p->raw_seconds;
		config->raw_max_bytes = p->file_size;
		config->target_ci_percent = p->target_ci_percent;
		config->min_seconds = p->min_seconds;
		config->seq_min_seconds = p->seq_min_seconds;
		config->after_min_seconds = p->after_min_seconds;
		config->slice_seconds = p->slice_seconds;
		config->min_slices = p->min_slices;
		config->seq_slice_blocks = p->seq_slice_blocks;
		config->settle_seconds = SDT_BENCH_SETTLE_MS / 1000.0;
		return TRUE;
	}
	g_set_error(error,
		    SDT_ERROR,
		    SDT_ERROR_INVALID_ARGUMENT,
		    _("Unknown benchmark profile “%s”: use quick, standard or full"),
		    profile != NULL ? profile : "");
	return FALSE;
}

static void
sdt_bench_test_result_free(SdtBenchTestResult *test)
{
	g_free(test->name);
	g_free(test);
}

void
sdt_bench_result_free(SdtBenchResult *result)
{
	if (result == NULL)
		return;
	g_free(result->profile);
	g_ptr_array_unref(result->tests);
	g_ptr_array_unref(result->notes);
	g_free(result);
}

SdtBenchTestResult *
sdt_bench_result_get_test(SdtBenchResult *result, const gchar *name)
{
	for (guint i = 0; i < result->tests->len; i++) {
		SdtBenchTestResult *test = g_ptr_array_index(result->tests, i);
		if (g_strcmp0(test->name, name) == 0)
			return test;
	}
	return NULL;
}

void
sdt_bench_verdict_compute(SdtBenchVerdict *verdict,
			  gdouble seq_write_mb_s,
			  gdouble read_iops,
			  gdouble write_iops)
{
	verdict->seq_write_mb_s = seq_write_mb_s;
	verdict->read_iops = read_iops;
	verdict->write_iops = write_iops;
	verdict->a1 = seq_write_mb_s >= SDT_BENCH_A_SEQ_MB_S &&
		      read_iops >= SDT_BENCH_A1_READ_IOPS && write_iops >= SDT_BENCH_A1_WRITE_IOPS;
	verdict->a2 = seq_write_mb_s >= SDT_BENCH_A_SEQ_MB_S &&
		      read_iops >= SDT_BENCH_A2_READ_IOPS && write_iops >= SDT_BENCH_A2_WRITE_IOPS;
}

/* one test of a run */
typedef struct {
	const gchar *name;
	SdtBenchIoDir dir;
	gboolean random;
	gboolean raw;
	guint queue_depth;
	gsize block_size;
	guint64 length;
	gdouble max_seconds;
	gboolean fsync_end;
	gdouble weight;   /* share of the progress bar */
	gboolean verdict; /* the A1/A2 verdict rests on it */
} SdtBenchPhase;

/*
 * The live rate: completed bytes over a sliding window of about a second,
 * between two points in time at which requests completed (the phase's start
 * is the first).  It never exceeds what completed, and a call comes only when
 * something completed, so there is no 0.0 between two completions of a slow
 * card's 4 MiB blocks.
 */
#define SDT_BENCH_RATE_WINDOW_S 1.0
#define SDT_BENCH_RATE_POINTS   32

typedef struct {
	gdouble seconds;
	guint64 bytes;
} SdtBenchRatePoint;

typedef struct {
	SdtBenchProgressFunc func;
	gpointer user_data;
	const SdtBenchPhase *phase;
	gdouble done_weight;
	gdouble total_weight;
	SdtBenchRatePoint points[SDT_BENCH_RATE_POINTS]; /* oldest first */
	guint n_points;
} SdtBenchProgress;

static void
sdt_bench_progress_start_phase(SdtBenchProgress *p, const SdtBenchPhase *phase)
{
	p->phase = phase;
	p->points[0].seconds = 0;
	p->points[0].bytes = 0;
	p->n_points = 1;
}

/* adds a point and returns the rate over the window in 10^6 bytes/s */
static gdouble
sdt_bench_progress_rate(SdtBenchProgress *p, guint64 bytes, gdouble seconds)
{
	SdtBenchRatePoint *oldest;

	if (seconds <= p->points[p->n_points - 1].seconds ||
	    bytes < p->points[p->n_points - 1].bytes)
		goto rate;
	/* drop the oldest while the next one still leaves a full window */
	while (p->n_points >= 2 && seconds - p->points[1].seconds >= SDT_BENCH_RATE_WINDOW_S) {
		memmove(&p->points[0], &p->points[1], (p->n_points - 1) * sizeof(p->points[0]));
		p->n_points--;
	}
	if (p->n_points == SDT_BENCH_RATE_POINTS) {
		memmove(&p->points[0], &p->points[1], (p->n_points - 1) * sizeof(p->points[0]));
		p->n_points--;
	}
	p->points[p->n_points].seconds = seconds;
	p->points[p->n_points].bytes = bytes;
	p->n_points++;
rate:
	oldest = &p->points[0];
	if (p->n_points < 2 || seconds <= oldest->seconds)
		return 0;
	return (gdouble) (p->points[p->n_points - 1].bytes - oldest->bytes) /
	       (p->points[p->n_points - 1].seconds - oldest->seconds) / 1e6;
}

static void
sdt_bench_progress_cb(guint64 bytes, gdouble seconds, gpointer user_data)
{
	SdtBenchProgress *p = user_data;
	const SdtBenchPhase *phase = p->phase;
	gdouble frac = 0;
	gdouble rate = sdt_bench_progress_rate(p, bytes, seconds);

	if (phase->max_seconds > 0)
		frac = seconds / phase->max_seconds;
	if (!phase->random && phase->length > 0)
		frac = MAX(frac, (gdouble) bytes / (gdouble) phase->length);
	frac = CLAMP(frac, 0.0, 1.0);
	if (p->func != NULL) {
		p->func(phase->name,
			CLAMP((p->done_weight + frac * phase->weight) / p->total_weight, 0.0, 1.0),
			rate,
			p->user_data);
	}
}

/* the backend of @phase: psync at QD1, blocking I/O for the raw device and the sequential
 * tests of a whole card, else @config's */
static SdtBenchIoBackend
sdt_bench_phase_backend(const SdtBenchTarget *target,
			const SdtBenchConfig *config,
			const SdtBenchPhase *phase)
{
	if (phase->queue_depth == 1 && phase->random)
		return SDT_BENCH_IO_BACKEND_SYNC;
	/*
	 * A whole card's sequential tests are 4 MiB requests to the block device, as the
	 * raw read's: io_uring hands each to a worker, and on the throttled stand-in
	 * every one was charged twice (seq-write and seq-read exactly 10.0 MB/s on a
	 * 20 MB/s throttle, raw-read 20.5), so they take the same blocking path
	 */
	if (phase->raw || (target->whole_device && !phase->random))
		/*
		 * Blocking reads in a worker thread, as hdparm's read(): io_uring
		 * cannot issue a 2 MiB O_DIRECT read of a block device without
		 * blocking (it spans more than one bio, or is split below), so every
		 * request went to an io-wq worker anyway, and on the throttled loop
		 * device some runs had every block charged twice: 10.0 MB/s on a
		 * 20 MB/s throttle (docs/BENCHMARK-ENGINE.md).  The worker keeps
		 * cancellation prompt, which a read in this thread would not.
		 */
		return SDT_BENCH_IO_BACKEND_THREADS;
	if (config->backend == SDT_BENCH_IO_BACKEND_SYNC)
		return SDT_BENCH_IO_BACKEND_AUTO;
	return config->backend;
}

/* the raw read reads at most the whole device, in whole blocks */
static gboolean
sdt_bench_phase_raw_length(SdtBenchTarget *target,
			   const SdtBenchPhase *phase,
			   gint fd,
			   SdtBenchIoJob *job,
			   GError **error)
{
	off_t end = lseek(fd, 0, SEEK_END);

	if (end < (off_t) phase->block_size) {
		g_set_error(error,
			    SDT_ERROR,
			    SDT_ERROR_IO,
			    _("%s is empty or cannot be read"),
			    target->disk_node);
		return FALSE;
	}
	job->length = MIN(phase->length, (guint64) end);
	job->length -= job->length % phase->block_size;
	return TRUE;
}

/* what the test measured, also when it failed part way */
static void
sdt_bench_phase_record(SdtBenchTestResult *test,
		       const SdtBenchPhase *phase,
		       SdtBenchIo *io,
		       const SdtBenchIoStats *stats,
		       gboolean fit)
{
	test->cpu_seconds = (gdouble) stats->cpu_ns / 1e9;
	test->name = g_strdup(phase->name);
	test->block_size = phase->block_size;
	test->queue_depth = phase->queue_depth;
	test->random = phase->random;
	test->io_engine = sdt_bench_io_backend_to_string(sdt_bench_io_get_backend(io));
	test->in_flight_max = sdt_bench_io_get_in_flight_max(io);
	test->seconds = stats->seconds;
	test->ios = stats->ios;
	test->bytes = stats->bytes;
	test->fsync_seconds = (gdouble) stats->fsync_ns / 1e9;
	test->slices = stats->slices;
	test->ci_percent = stats->ci_percent >= 0 ? stats->ci_percent : NAN; /* -1: unknown */
	test->stop = stats->stop;
	test->latency = stats->latency;
	if (fit && stats->rate > 0) {
		/*
		 * adaptive: the rate whose interval the stopping rule settled, the
		 * slope of completed bytes over time from the first completion to
		 * the last (and the end of the fsync)
		 */
		test->mb_s = stats->rate / 1e6;
		test->iops = stats->rate / phase->block_size;
	} else if (!phase->random && stats->steady_seconds > 0) {
		/* sustained rate, as the SD specification's sequential write speed */
		test->mb_s = (gdouble) stats->steady_bytes / stats->steady_seconds / 1e6;
		test->iops =
			(gdouble) stats->steady_bytes / phase->block_size / stats->steady_seconds;
	} else if (stats->seconds > 0) {
		test->mb_s = (gdouble) stats->bytes / stats->seconds / 1e6;
		test->iops = (gdouble) stats->ios / stats->seconds;
	}
}

/* one sleep, which a cancellation cuts short */
static gboolean
sdt_bench_settle(gdouble seconds, GCancellable *cancellable, GError **error)
{
	GPollFD pfd;

	if (cancellable != NULL && g_cancellable_make_pollfd(cancellable, &pfd)) {
		g_poll(&pfd, 1, (gint) (seconds * 1000));
		g_cancellable_release_fd(cancellable);
	} else {
		g_usleep((gulong) (seconds * 1e6));
	}
	if (g_cancellable_is_cancelled(cancellable)) {
		g_set_error_literal(error,
				    SDT_ERROR,
				    SDT_ERROR_CANCELLED,
				    _("benchmark cancelled"));
		return FALSE;
	}
	return TRUE;
}

static gboolean
sdt_bench_run_phase(SdtBenchTarget *target,
		    const SdtBenchConfig *config,
		    const SdtBenchPhase *phase,
		    gint fd,
		    gboolean settle_first,
		    SdtBenchProgress *progress,
		    GCancellable *cancellable,
		    SdtBenchTestResult *test,
		    GError **error)
{
	g_autoptr(SdtBenchIo) io = NULL;
	SdtBenchIoStats stats;
	SdtBenchIoJob job = {
		.dir = phase->dir,
		.block_size = phase->block_size,
		/* a whole card's region; the raw read reads the device from its start */
		.offset = phase->raw ? 0 : target->offset,
		.length = phase->length,
		.random = phase->random,
		.seed = SDT_BENCH_SEED + g_str_hash(phase->name),
		.max_seconds = phase->max_seconds,
		.fsync_end = phase->fsync_end,
		.target_ci_percent = config->target_ci_percent,
		.min_seconds = phase->verdict ? (phase->random ? config->min_seconds
							       : config->seq_min_seconds)
					      : config->after_min_seconds,
		.min_slices = config->min_slices,
		.slice_seconds = config->slice_seconds,
		.slice_blocks = phase->random || phase->raw ? 0 : config->seq_slice_blocks,
		.progress = sdt_bench_progress_cb,
		.user_data = progress,
		.cancellable = cancellable,
	};
	gboolean ok;

	if (phase->raw && !sdt_bench_phase_raw_length(target, phase, fd, &job, error))
		return FALSE;
	io = sdt_bench_io_new(sdt_bench_phase_backend(target, config, phase),
			      phase->queue_depth,
			      fd,
			      phase->block_size,
			      error);
	if (io == NULL)
		return FALSE;
	if (config->inject_test != NULL && g_strcmp0(config->inject_test, phase->name) == 0)
		sdt_bench_io_inject_error(io, config->inject_after, config->inject_errno);
	/*
	 * The pause after the last test, with this test's preparation (its ring,
	 * buffers and their registration) already done: they overlap, and the
	 * test's clock starts when it submits
	 */
	if (settle_first && !sdt_bench_settle(config->settle_seconds, cancellable, error))
		return FALSE;

	sdt_bench_progress_start_phase(progress, phase);
	ok = sdt_bench_io_run(io, &job, &stats, error);
	sdt_bench_phase_record(test, phase, io, &stats, config->target_ci_percent > 0);
	if (!ok && !g_error_matches(*error, SDT_ERROR, SDT_ERROR_CANCELLED)) {
		g_prefix_error(error,
			       _("%s test on %s (%s) failed: "),
			       phase->name,
			       phase->raw ? target->disk_node : target->device,
			       phase->raw || target->dir == NULL ? target->disk_node : target->dir);
	}
	return ok;
}

static gdouble
sdt_bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (gdouble) ts.tv_sec + (gdouble) ts.tv_nsec / 1e9;
}

/* the widest confidence interval of the first @n tests; NaN if one is unknown */
static gdouble
sdt_bench_spread_of(SdtBenchResult *result, guint n)
{
	gdouble spread = 0;

	for (guint i = 0; i < n && i < result->tests->len; i++) {
		SdtBenchTestResult *test = g_ptr_array_index(result->tests, i);
		if (isnan(test->ci_percent))
			return NAN;
		spread = MAX(spread, test->ci_percent);
	}
	return spread;
}

#define SDT_BENCH_N_PHASES 7

/* the tests of a run, in order (Raspberry Pi Diagnostics' order, then QD1 and the raw read) */
static void
sdt_bench_phases_for(const SdtBenchConfig *c, SdtBenchPhase phases[SDT_BENCH_N_PHASES])
{
	const gdouble sw = (gdouble) c->file_size / 1e6 / SDT_BENCH_NOMINAL_MB_S;
	const SdtBenchIoDir w = SDT_BENCH_IO_WRITE;
	const SdtBenchIoDir r = SDT_BENCH_IO_READ;
	const guint64 size = c->file_size;
	const gsize seq = c->seq_block_size;
	const gsize rnd = c->rand_block_size;
	const guint qd = c->queue_depth;
	const gdouble rs = c->rand_seconds;
	const gdouble q1 = c->rand_qd1_seconds;
	const gdouble raw = c->raw_seconds;
	/* name, dir, random, raw, depth, block, length, max_seconds, fsync_end, weight, verdict */
	const SdtBenchPhase all[SDT_BENCH_N_PHASES] = {
		{"seq-write", w, FALSE, FALSE, 1, seq, size, 0, TRUE, sw, TRUE},
		{"rand-4k-write-qd32", w, TRUE, FALSE, qd, rnd, size, rs, FALSE, rs, TRUE},
		{"rand-4k-read-qd32", r, TRUE, FALSE, qd, rnd, size, rs, FALSE, rs, TRUE},
		{"seq-read", r, FALSE, FALSE, 1, seq, size, 0, FALSE, sw},
		{"rand-4k-write-qd1", w, TRUE, FALSE, 1, rnd, size, q1, FALSE, q1},
		{"rand-4k-read-qd1", r, TRUE, FALSE, 1, rnd, size, q1, FALSE, q1},
		{"raw-read",
		 r,
		 FALSE,
		 TRUE,
		 1,
		 c->raw_block_size,
		 c->raw_max_bytes,
		 raw,
		 FALSE,
		 raw},
	};

	memcpy(phases, all, sizeof(all));
}

/* the raw read is an extra: a device we may not open only drops that test; -1: none */
static gint
sdt_bench_open_raw(SdtBenchTarget *target, const SdtBenchConfig *config, SdtBenchResult *result)
{
	g_autoptr(GError) error_raw = NULL;
	gint fd;

	if (config->raw_seconds <= 0)
		return -1;
	fd = sdt_bench_target_open_raw(target, &error_raw);
	if (fd < 0) {
		g_ptr_array_add(result->notes,
				g_strdup_printf(_("raw-read skipped: %s"), error_raw->message));
	}
	return fd;
}

/* the A1/A2 verdict, as soon as the three tests it rests on are done */
static void
sdt_bench_verdict_now(SdtBenchResult *result, const SdtBenchTestResult *read_qd32, gdouble t0)
{
	SdtBenchTestResult *seq_write = sdt_bench_result_get_test(result, "seq-write");
	SdtBenchTestResult *write_qd32 = sdt_bench_result_get_test(result, "rand-4k-write-qd32");

	/* a whole card that holds data: no write tests, no verdict (the reads stand) */
	if (seq_write == NULL || write_qd32 == NULL)
		return;
	sdt_bench_verdict_compute(&result->verdict,
				  seq_write->mb_s,
				  read_qd32->iops,
				  write_qd32->iops);
	result->verdict.known = TRUE;
	result->verdict.seconds = sdt_bench_now() - t0;
	result->verdict.spread_percent = sdt_bench_spread_of(result, 3);
}

/* the tests in order; the verdict as soon as it is known */
static gboolean
sdt_bench_run_phases(SdtBenchTarget *target,
		     const SdtBenchConfig *config,
		     SdtBenchProgress *prog,
		     GCancellable *cancellable,
		     SdtBenchResult *result,
		     gdouble t0,
		     GError **error)
{
	SdtBenchPhase phases[SDT_BENCH_N_PHASES];
	guint64 written = 0;

	sdt_bench_phases_for(config, phases);
	for (guint i = 0; i < G_N_ELEMENTS(phases); i++) {
		if (phases[i].dir == SDT_BENCH_IO_WRITE && target->no_writes)
			continue;
		if (!phases[i].raw || (config->raw_seconds > 0 && target->disk_node != NULL))
			prog->total_weight += phases[i].weight;
	}
	for (guint i = 0; i < G_N_ELEMENTS(phases); i++) {
		SdtBenchPhase *phase = &phases[i];
		SdtBenchTestResult *test;
		gboolean ok;
		gint fd_raw = -1;

		/* a whole card that holds data is only read (the caller's note says why) */
		if (phase->dir == SDT_BENCH_IO_WRITE && target->no_writes)
			continue;
		/*
		 * the raw device is opened when its test comes, not before the
		 * verdict: opening a block device took 35 ms on the loop card
		 */
		if (phase->raw && (fd_raw = sdt_bench_open_raw(target, config, result)) < 0)
			continue;
		test = g_new0(SdtBenchTestResult, 1);
		g_ptr_array_add(result->tests, test);
		/*
		 * An adaptive sequential write may end before the end of the file: the
		 * later tests of the file stay in what it wrote (the rest is unwritten
		 * extents, which read as zeros without touching the card)
		 */
		if (!phase->raw && written > 0)
			phase->length = MIN(phase->length, written);
		ok = sdt_bench_run_phase(target,
					 config,
					 phase,
					 phase->raw ? fd_raw : target->fd,
					 result->tests->len > 1,
					 prog,
					 cancellable,
					 test,
					 error);
		if (fd_raw >= 0)
			close(fd_raw);
		if (!ok)
			return FALSE;
		prog->done_weight += phase->weight;
		if (g_strcmp0(phase->name, "seq-write") == 0)
			written = test->bytes - test->bytes % config->seq_block_size;
		if (g_strcmp0(phase->name, "rand-4k-read-qd32") == 0)
			sdt_bench_verdict_now(result, test, t0);
	}
	return TRUE;
}

SdtBenchResult *
sdt_bench_run(SdtBenchTarget *target,
	      const SdtBenchConfig *config,
	      SdtBenchProgressFunc progress,
	      gpointer user_data,
	      GCancellable *cancellable,
	      GError **error)
{
	g_autoptr(SdtBenchResult) result = g_new0(SdtBenchResult, 1);
	SdtBenchProgress prog = {.func = progress, .user_data = user_data};
	gdouble t0;
	gboolean ok;

	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_return_val_if_fail(config->file_size >= config->seq_block_size, NULL);
	g_return_val_if_fail(config->file_size <= target->size, NULL);

	t0 = sdt_bench_now();
	result->profile = g_strdup(config->profile);
	result->target_ci_percent = config->target_ci_percent;
	result->tests = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_bench_test_result_free);
	result->notes = g_ptr_array_new_with_free_func(g_free);
	ok = sdt_bench_run_phases(target, config, &prog, cancellable, result, t0, error);
	if (!ok)
		return NULL;
	result->seconds = sdt_bench_now() - t0;
	result->spread_percent = sdt_bench_spread_of(result, result->tests->len);
	return g_steal_pointer(&result);
}

/* the engine's figures as the record carries them: rounded to 1/@scale */
static gdouble
sdt_bench_round(gdouble value, gdouble scale)
{
	return (gdouble) (gint64) (value * scale + 0.5) / scale;
}

/* the same, unknown (NaN) staying unknown */
static gdouble
sdt_bench_round_or_nan(gdouble value, gdouble scale)
{
	return value >= 0 ? sdt_bench_round(value, scale) : NAN;
}

static void
sdt_bench_record_fill_latency(SdtBenchRecordLatency *l, const SdtBenchLatency *lat)
{
	l->mean = sdt_bench_round(
		lat->count > 0 ? (gdouble) lat->sum_ns / (gdouble) lat->count / 1e3 : 0,
		10);
	l->p50 = sdt_bench_round(sdt_bench_latency_percentile(lat, 50) / 1e3, 10);
	l->p90 = sdt_bench_round(sdt_bench_latency_percentile(lat, 90) / 1e3, 10);
	l->p99 = sdt_bench_round(sdt_bench_latency_percentile(lat, 99) / 1e3, 10);
	l->p99_9 = sdt_bench_round(sdt_bench_latency_percentile(lat, 99.9) / 1e3, 10);
	l->max = sdt_bench_round(lat->max_ns / 1e3, 10);
}

static SdtBenchRecordTest *
sdt_bench_record_test_of(const SdtBenchTestResult *test, gdouble target_ci_percent)
{
	SdtBenchRecordTest *t = sdt_bench_record_test_new(test->name);

	t->block_size = (gint64) test->block_size;
	t->queue_depth = test->queue_depth;
	t->mb_s = sdt_bench_round(test->mb_s, 100);
	t->iops = sdt_bench_round(test->iops, 10);
	t->seconds = sdt_bench_round(test->seconds, 1000);
	t->ios = (gint64) test->ios;
	t->bytes = (gint64) test->bytes;
	t->io_engine = g_strdup(test->io_engine);
	t->in_flight_max = test->in_flight_max;
	t->slices = test->slices;
	t->ci_percent = sdt_bench_round_or_nan(test->ci_percent, 10);
	if (!isnan(t->ci_percent))
		t->confidence_percent = SDT_BENCH_STOP_CONFIDENCE;
	if (target_ci_percent > 0)
		t->target_ci_percent = target_ci_percent;
	t->stopped = g_strdup(sdt_bench_stop_reason_to_string(test->stop));
	t->cpu_us_per_io =
		sdt_bench_round(test->ios > 0 ? test->cpu_seconds * 1e6 / test->ios : 0, 100);
	if (g_strcmp0(test->name, "seq-write") == 0)
		t->fsync_seconds = sdt_bench_round(test->fsync_seconds, 1000);
	t->has_latency = test->random;
	if (test->random)
		sdt_bench_record_fill_latency(&t->latency, &test->latency);
	return t;
}

static void
sdt_bench_record_fill_verdict(SdtBenchRecordVerdict *v,
			      const SdtBenchVerdict *verdict,
			      const SdtBenchTarget *target)
{
	v->present = verdict->known;
	v->a1 = verdict->a1;
	v->a2 = verdict->a2;
	v->seq_write_mb_s = sdt_bench_round(verdict->seq_write_mb_s, 100);
	v->read_iops = sdt_bench_round(verdict->read_iops, 10);
	v->write_iops = sdt_bench_round(verdict->write_iops, 10);
	v->stand_in = target->stand_in;
	v->basis = g_strdup("seq-write, rand-4k-read-qd32, rand-4k-write-qd32");
	v->seconds = sdt_bench_round(verdict->seconds, 1000);
	v->spread_percent = sdt_bench_round_or_nan(verdict->spread_percent, 10);
	if (!isnan(v->spread_percent))
		v->confidence_percent = SDT_BENCH_STOP_CONFIDENCE;
}

/* the best sequential read against the bus's ceiling; unknown when the ceiling is */
static void
sdt_bench_record_fill_ceiling(SdtBenchRecord *r, SdtBenchResult *result, gdouble ceiling_mb_s)
{
	gdouble best_read = 0;

	if (!(ceiling_mb_s > 0))
		return;
	for (guint i = 0; i < result->tests->len; i++) {
		SdtBenchTestResult *test = g_ptr_array_index(result->tests, i);
		if (!test->random && test->queue_depth == 1 &&
		    (g_strcmp0(test->name, "seq-read") == 0 ||
		     g_strcmp0(test->name, "raw-read") == 0))
			best_read = MAX(best_read, test->mb_s);
	}
	r->ceiling_mb_s = sdt_bench_round(ceiling_mb_s, 10);
	r->ceiling_percent = sdt_bench_round(best_read / ceiling_mb_s * 100, 10);
}

static void
sdt_bench_record_fill_target(SdtBenchRecord *r, const SdtBenchTarget *target)
{
	r->path = g_strdup(target->dir);
	r->device = g_strdup(target->device);
	r->filesystem = g_strdup(target->filesystem);
	r->raw_device = g_strdup(target->disk_node);
	r->file_size = (gint64) target->size;
	r->tmpfile = target->tmpfile;
	r->target_stand_in = target->stand_in;
	if (target->whole_device) {
		r->whole_device = TRUE;
		r->device_node = g_strdup(target->device_node);
		r->region_offset = (gint64) target->offset;
		r->device_size = (gint64) target->device_size;
	}
}

SdtBenchRecord *
sdt_bench_result_to_record(SdtBenchResult *result, SdtBenchTarget *target, gdouble ceiling_mb_s)
{
	g_autoptr(SdtBenchRecord) r = NULL;

	g_return_val_if_fail(result != NULL, NULL);
	g_return_val_if_fail(target != NULL, NULL);

	r = sdt_bench_record_new();
	sdt_bench_record_fill_target(r, target);
	r->profile = g_strdup(result->profile);
	for (guint i = 0; i < result->tests->len; i++)
		g_ptr_array_add(r->tests,
				sdt_bench_record_test_of(g_ptr_array_index(result->tests, i),
							 result->target_ci_percent));
	for (guint i = 0; i < result->notes->len; i++)
		g_ptr_array_add(r->notes, g_strdup(g_ptr_array_index(result->notes, i)));
	sdt_bench_record_fill_verdict(&r->verdict, &result->verdict, target);
	r->spread_percent = sdt_bench_round_or_nan(result->spread_percent, 10);
	sdt_bench_record_fill_ceiling(r, result, ceiling_mb_s);
	r->seconds = sdt_bench_round(result->seconds, 1000);
	sdt_bench_record_derive(r);
	return g_steal_pointer(&r);
}
