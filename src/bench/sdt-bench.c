/*
 * Copyright 2026 SD Tuner developers
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#define _GNU_SOURCE /* O_DIRECT, O_TMPFILE, statx, fallocate */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sdt-bench.h"
#include "sdt-error.h"

#define MIB (G_GUINT64_CONSTANT(1024) * 1024)

/* a sequential phase's share of the progress bar: its time on a 20 MB/s card */
#define SDT_BENCH_NOMINAL_MB_S 20.0

/*
 * Idle time between two tests, as fio's stonewall leaves between jobs: the card
 * finishes what the last test left in its cache, and on the throttled stand-in
 * the block layer's throttle forgets the budget the last test left unused
 * (measured: with no pause a QD32 write right after the sequential write came
 * out 6% above a 2000 IOPS throttle; with 250 ms, within 1%).
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
	gdouble target_ci_percent; /* adaptive: each test ends when known this well */
	gdouble min_seconds;
} SdtBenchProfile;

static const SdtBenchProfile sdt_bench_profiles[] = {
	/*
	 * about 15 s on a 20 MB/s card at most; each test ends as soon as its
	 * figure is known within ±5% (and ran 1 s): the verdict after about 5 s
	 */
	{"quick", 64 * MIB, 2, 1, 1, 5.0, 1.0},
	/* Raspberry Pi Diagnostics: 256 MiB, 4 MiB blocks, 4k QD32 for 10 s; plus QD1 */
	{"standard", 256 * MIB, 10, 5, 3, 0, 0},
	/* a file larger than any card's fast cache area, long random phases */
	{"full", 1024 * MIB, 30, 15, 10, 0, 0},
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
	gdouble weight; /* share of the progress bar */
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

/* the backend of @phase: psync at QD1, blocking reads for the raw device, else @config's */
static SdtBenchIoBackend
sdt_bench_phase_backend(const SdtBenchConfig *config, const SdtBenchPhase *phase)
{
	if (phase->queue_depth == 1 && phase->random)
		return SDT_BENCH_IO_BACKEND_SYNC;
	if (phase->raw)
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
		       const SdtBenchIoStats *stats)
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
	test->ci_percent = stats->ci_percent;
	test->latency = stats->latency;
	if (!phase->random && stats->steady_seconds > 0) {
		/* sustained rate, as the SD specification's sequential write speed */
		test->mb_s = (gdouble) stats->steady_bytes / stats->steady_seconds / 1e6;
		test->iops =
			(gdouble) stats->steady_bytes / phase->block_size / stats->steady_seconds;
	} else if (stats->seconds > 0) {
		test->mb_s = (gdouble) stats->bytes / stats->seconds / 1e6;
		test->iops = (gdouble) stats->ios / stats->seconds;
	}
}

static gboolean
sdt_bench_run_phase(SdtBenchTarget *target,
		    const SdtBenchConfig *config,
		    const SdtBenchPhase *phase,
		    gint fd,
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
		.length = phase->length,
		.random = phase->random,
		.seed = SDT_BENCH_SEED + g_str_hash(phase->name),
		.max_seconds = phase->max_seconds,
		.fsync_end = phase->fsync_end,
		.target_ci_percent = config->target_ci_percent,
		.min_seconds = config->min_seconds,
		.progress = sdt_bench_progress_cb,
		.user_data = progress,
		.cancellable = cancellable,
	};
	gboolean ok;

	if (phase->raw && !sdt_bench_phase_raw_length(target, phase, fd, &job, error))
		return FALSE;
	io = sdt_bench_io_new(sdt_bench_phase_backend(config, phase),
			      phase->queue_depth,
			      fd,
			      phase->block_size,
			      error);
	if (io == NULL)
		return FALSE;
	if (config->inject_test != NULL && g_strcmp0(config->inject_test, phase->name) == 0)
		sdt_bench_io_inject_error(io, config->inject_after, config->inject_errno);

	sdt_bench_progress_start_phase(progress, phase);
	ok = sdt_bench_io_run(io, &job, &stats, error);
	sdt_bench_phase_record(test, phase, io, &stats);
	if (!ok && !g_error_matches(*error, SDT_ERROR, SDT_ERROR_CANCELLED)) {
		g_prefix_error(error,
			       _("%s test on %s (%s) failed: "),
			       phase->name,
			       phase->raw ? target->disk_node : target->device,
			       phase->raw ? target->disk_node : target->dir);
	}
	return ok;
}

/* one sleep, which a cancellation cuts short */
static gboolean
sdt_bench_settle(GCancellable *cancellable, GError **error)
{
	GPollFD pfd;

	if (cancellable != NULL && g_cancellable_make_pollfd(cancellable, &pfd)) {
		g_poll(&pfd, 1, SDT_BENCH_SETTLE_MS);
		g_cancellable_release_fd(cancellable);
	} else {
		g_usleep(SDT_BENCH_SETTLE_MS * 1000);
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

static gdouble
sdt_bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (gdouble) ts.tv_sec + (gdouble) ts.tv_nsec / 1e9;
}

/* the widest confidence interval of the first @n tests; -1 if one is unknown */
static gdouble
sdt_bench_spread_of(SdtBenchResult *result, guint n)
{
	gdouble spread = 0;

	for (guint i = 0; i < n && i < result->tests->len; i++) {
		SdtBenchTestResult *test = g_ptr_array_index(result->tests, i);
		if (test->ci_percent < 0)
			return -1;
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
	/* name, dir, random, raw, depth, block, length, max_seconds, fsync_end, weight */
	const SdtBenchPhase all[SDT_BENCH_N_PHASES] = {
		{"seq-write", w, FALSE, FALSE, 1, seq, size, 0, TRUE, sw},
		{"rand-4k-write-qd32", w, TRUE, FALSE, qd, rnd, size, rs, FALSE, rs},
		{"rand-4k-read-qd32", r, TRUE, FALSE, qd, rnd, size, rs, FALSE, rs},
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
	sdt_bench_verdict_compute(&result->verdict,
				  sdt_bench_result_get_test(result, "seq-write")->mb_s,
				  read_qd32->iops,
				  sdt_bench_result_get_test(result, "rand-4k-write-qd32")->iops);
	result->verdict.seconds = sdt_bench_now() - t0;
	result->verdict.spread_percent = sdt_bench_spread_of(result, 3);
}

/* the tests in order; the verdict as soon as it is known */
static gboolean
sdt_bench_run_phases(SdtBenchTarget *target,
		     const SdtBenchConfig *config,
		     gint fd_raw,
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
		if (!phases[i].raw || fd_raw >= 0)
			prog->total_weight += phases[i].weight;
	}
	for (guint i = 0; i < G_N_ELEMENTS(phases); i++) {
		SdtBenchPhase *phase = &phases[i];
		SdtBenchTestResult *test;
		if (phase->raw && fd_raw < 0)
			continue;
		test = g_new0(SdtBenchTestResult, 1);
		g_ptr_array_add(result->tests, test);
		if (i > 0 && !sdt_bench_settle(cancellable, error))
			return FALSE;
		/*
		 * An adaptive sequential write may end before the end of the file: the
		 * later tests of the file stay in what it wrote (the rest is unwritten
		 * extents, which read as zeros without touching the card)
		 */
		if (!phase->raw && written > 0)
			phase->length = MIN(phase->length, written);
		if (!sdt_bench_run_phase(target,
					 config,
					 phase,
					 phase->raw ? fd_raw : target->fd,
					 prog,
					 cancellable,
					 test,
					 error))
			return FALSE;
		prog->done_weight += phase->weight;
		if (i == 0)
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
	g_return_val_if_fail(error == NULL || *error == NULL, NULL);
	g_autoptr(SdtBenchResult) result = g_new0(SdtBenchResult, 1);
	SdtBenchProgress prog = {.func = progress, .user_data = user_data};
	gdouble t0 = sdt_bench_now();
	gint fd_raw;
	gboolean ok;

	g_return_val_if_fail(config->file_size >= config->seq_block_size, NULL);
	g_return_val_if_fail(config->file_size <= target->size, NULL);

	result->profile = g_strdup(config->profile);
	result->tests = g_ptr_array_new_with_free_func((GDestroyNotify) sdt_bench_test_result_free);
	result->notes = g_ptr_array_new_with_free_func(g_free);
	fd_raw = sdt_bench_open_raw(target, config, result);
	ok = sdt_bench_run_phases(target, config, fd_raw, &prog, cancellable, result, t0, error);
	if (fd_raw >= 0)
		close(fd_raw);
	if (!ok)
		return NULL;
	result->seconds = sdt_bench_now() - t0;
	result->spread_percent = sdt_bench_spread_of(result, result->tests->len);
	return g_steal_pointer(&result);
}

static void
sdt_bench_json_add_double(JsonBuilder *builder, const gchar *name, gdouble value, gdouble scale)
{
	json_builder_set_member_name(builder, name);
	json_builder_add_double_value(builder, (gdouble) (gint64) (value * scale + 0.5) / scale);
}

/* a negative value: unknown */
static void
sdt_bench_json_add_double_or_null(JsonBuilder *builder,
				  const gchar *name,
				  gdouble value,
				  gdouble scale)
{
	if (value >= 0) {
		sdt_bench_json_add_double(builder, name, value, scale);
		return;
	}
	json_builder_set_member_name(builder, name);
	json_builder_add_null_value(builder);
}

static void
sdt_bench_json_add_target(JsonBuilder *builder, SdtBenchTarget *target)
{
	json_builder_set_member_name(builder, "target");
	json_builder_begin_object(builder);
	json_builder_set_member_name(builder, "path");
	json_builder_add_string_value(builder, target->dir);
	json_builder_set_member_name(builder, "device");
	json_builder_add_string_value(builder, target->device);
	json_builder_set_member_name(builder, "filesystem");
	json_builder_add_string_value(builder, target->filesystem);
	json_builder_set_member_name(builder, "raw_device");
	if (target->disk_node != NULL)
		json_builder_add_string_value(builder, target->disk_node);
	else
		json_builder_add_null_value(builder);
	json_builder_set_member_name(builder, "file_size");
	json_builder_add_int_value(builder, (gint64) target->size);
	json_builder_set_member_name(builder, "tmpfile");
	json_builder_add_boolean_value(builder, target->tmpfile);
	/* not the SD card: kept out of A1/A2 claims about the card and of comparisons */
	json_builder_set_member_name(builder, "stand_in");
	json_builder_add_boolean_value(builder, target->stand_in);
	json_builder_end_object(builder);
}

static void
sdt_bench_json_add_latency(JsonBuilder *builder, const SdtBenchLatency *lat)
{
	static const struct {
		const gchar *name;
		gdouble p;
	} percentiles[] = {{"p50", 50}, {"p90", 90}, {"p99", 99}, {"p99_9", 99.9}};

	json_builder_set_member_name(builder, "latency_us");
	json_builder_begin_object(builder);
	sdt_bench_json_add_double(
		builder,
		"mean",
		lat->count > 0 ? (gdouble) lat->sum_ns / (gdouble) lat->count / 1e3 : 0,
		10);
	for (guint i = 0; i < G_N_ELEMENTS(percentiles); i++) {
		sdt_bench_json_add_double(builder,
					  percentiles[i].name,
					  sdt_bench_latency_percentile(lat, percentiles[i].p) / 1e3,
					  10);
	}
	sdt_bench_json_add_double(builder, "max", lat->max_ns / 1e3, 10);
	json_builder_end_object(builder);
}

static void
sdt_bench_json_add_test(JsonBuilder *builder, const SdtBenchTestResult *test)
{
	json_builder_begin_object(builder);
	json_builder_set_member_name(builder, "name");
	json_builder_add_string_value(builder, test->name);
	json_builder_set_member_name(builder, "block_size");
	json_builder_add_int_value(builder, (gint64) test->block_size);
	json_builder_set_member_name(builder, "queue_depth");
	json_builder_add_int_value(builder, test->queue_depth);
	sdt_bench_json_add_double(builder, "mb_s", test->mb_s, 100);
	sdt_bench_json_add_double(builder, "iops", test->iops, 10);
	sdt_bench_json_add_double(builder, "seconds", test->seconds, 1000);
	json_builder_set_member_name(builder, "ios");
	json_builder_add_int_value(builder, (gint64) test->ios);
	json_builder_set_member_name(builder, "bytes");
	json_builder_add_int_value(builder, (gint64) test->bytes);
	json_builder_set_member_name(builder, "io_engine");
	json_builder_add_string_value(builder, test->io_engine);
	json_builder_set_member_name(builder, "in_flight_max");
	json_builder_add_int_value(builder, test->in_flight_max);
	json_builder_set_member_name(builder, "slices");
	json_builder_add_int_value(builder, test->slices);
	sdt_bench_json_add_double_or_null(builder, "ci_percent", test->ci_percent, 10);
	sdt_bench_json_add_double(builder,
				  "cpu_us_per_io",
				  test->ios > 0 ? test->cpu_seconds * 1e6 / test->ios : 0,
				  100);
	if (g_strcmp0(test->name, "seq-write") == 0)
		sdt_bench_json_add_double(builder, "fsync_seconds", test->fsync_seconds, 1000);
	if (test->random)
		sdt_bench_json_add_latency(builder, &test->latency);
	json_builder_end_object(builder);
}

static void
sdt_bench_json_add_verdict(JsonBuilder *builder,
			   const SdtBenchVerdict *verdict,
			   const SdtBenchTarget *target)
{
	json_builder_set_member_name(builder, "verdict");
	json_builder_begin_object(builder);
	json_builder_set_member_name(builder, "a1");
	json_builder_add_boolean_value(builder, verdict->a1);
	json_builder_set_member_name(builder, "a2");
	json_builder_add_boolean_value(builder, verdict->a2);
	sdt_bench_json_add_double(builder, "seq_write_mb_s", verdict->seq_write_mb_s, 100);
	sdt_bench_json_add_double(builder, "read_iops", verdict->read_iops, 10);
	sdt_bench_json_add_double(builder, "write_iops", verdict->write_iops, 10);
	json_builder_set_member_name(builder, "stand_in");
	json_builder_add_boolean_value(builder, target->stand_in);
	json_builder_set_member_name(builder, "basis");
	json_builder_add_string_value(builder, "seq-write, rand-4k-read-qd32, rand-4k-write-qd32");
	sdt_bench_json_add_double(builder, "seconds", verdict->seconds, 1000);
	sdt_bench_json_add_double_or_null(builder, "spread_percent", verdict->spread_percent, 10);
	json_builder_end_object(builder);
}

/* the best sequential read against the bus's ceiling; null when the ceiling is unknown */
static void
sdt_bench_json_add_ceiling(JsonBuilder *builder, SdtBenchResult *result, gdouble ceiling_mb_s)
{
	gdouble best_read = 0;

	if (ceiling_mb_s <= 0) {
		json_builder_set_member_name(builder, "ceiling_mb_s");
		json_builder_add_null_value(builder);
		json_builder_set_member_name(builder, "ceiling_percent");
		json_builder_add_null_value(builder);
		return;
	}
	for (guint i = 0; i < result->tests->len; i++) {
		SdtBenchTestResult *test = g_ptr_array_index(result->tests, i);
		if (!test->random && test->queue_depth == 1 &&
		    (g_strcmp0(test->name, "seq-read") == 0 ||
		     g_strcmp0(test->name, "raw-read") == 0))
			best_read = MAX(best_read, test->mb_s);
	}
	sdt_bench_json_add_double(builder, "ceiling_mb_s", ceiling_mb_s, 10);
	sdt_bench_json_add_double(builder, "ceiling_percent", best_read / ceiling_mb_s * 100, 10);
}

JsonNode *
sdt_bench_result_to_json(SdtBenchResult *result, SdtBenchTarget *target, gdouble ceiling_mb_s)
{
	g_autoptr(JsonBuilder) builder = json_builder_new();

	json_builder_begin_object(builder);
	sdt_bench_json_add_target(builder, target);
	json_builder_set_member_name(builder, "profile");
	json_builder_add_string_value(builder, result->profile);
	json_builder_set_member_name(builder, "tests");
	json_builder_begin_array(builder);
	for (guint i = 0; i < result->tests->len; i++)
		sdt_bench_json_add_test(builder, g_ptr_array_index(result->tests, i));
	json_builder_end_array(builder);
	json_builder_set_member_name(builder, "notes");
	json_builder_begin_array(builder);
	for (guint i = 0; i < result->notes->len; i++)
		json_builder_add_string_value(builder, g_ptr_array_index(result->notes, i));
	json_builder_end_array(builder);
	sdt_bench_json_add_verdict(builder, &result->verdict, target);
	sdt_bench_json_add_double_or_null(builder, "spread_percent", result->spread_percent, 10);
	sdt_bench_json_add_ceiling(builder, result, ceiling_mb_s);
	sdt_bench_json_add_double(builder, "seconds", result->seconds, 1000);
	json_builder_end_object(builder);
	return json_builder_get_root(builder);
}
