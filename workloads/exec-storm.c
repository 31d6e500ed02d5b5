// SPDX-License-Identifier: GPL-2.0
/*
 * exec-storm: processes that exec themselves again and again while a NUMA
 * balancer holds statistics on them, to race exec's switch of mm against
 * readers of the old one's (AutoNUMA's placement on other CPUs).
 *
 * Each of -p chains is a process that execs itself until -d seconds are
 * up.  Each image maps -s MiB, touches it from -t threads and keeps
 * rewriting it for -l milliseconds, checking every word it rewrites; then
 * the threads stop, the image checks all of it and execs again with the
 * threads still running (reading), so that exec must kill them first.
 * An image counts as faulted if its threads took page faults once the
 * memory was touched (NUMA hinting faults: nothing else faults on memory
 * already mapped), and as placed if a thread's /proc/self/task/TID/sched
 * showed an autonuma_node at the end: the placement had evaluated it.
 * The counts travel to the next image in argv (-c).
 *
 * usage: exec-storm [-p chains] [-t threads] [-s MiB] [-l ms] [-d seconds] [-X]
 * (-X corrupts one word before the first image's final check: the check works)
 * Each chain prints, when its time is up or a check failed,
 *   exec-storm: done proc=0 execs=57 faults=812 faulted=40 placed=12 check=ok
 * and the program exits 0, or 1 if a check failed.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long chains = 4, threads = 2, mib = 8, life_ms = 300, seconds = 20;
static bool corrupt;

/* One image's state, from -c: proc:image:deadline_ms:faults:faulted:placed */
static long proc, image, deadline_ms, faults, faulted, placed;

static uint64_t *region;
static size_t nr_words;
static atomic_int stop, touched, parked, failed;

struct slice {
	pthread_t tid;
	pid_t tid_nr;
	size_t lo, hi;
	uint64_t pass;		/* the last pass written, once parked */
};

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t pattern(size_t word, uint64_t pass)
{
	return (uint64_t)proc << 56 ^ (uint64_t)image << 40 ^ pass << 24 ^ word;
}

static void check_word(size_t i, uint64_t pass)
{
	if (region[i] == pattern(i, pass))
		return;
	if (!atomic_exchange(&failed, 1))
		fprintf(stderr, "exec-storm: proc %ld image %ld word %zu: %#lx, want %#lx\n",
			proc, image, i, (unsigned long)region[i], (unsigned long)pattern(i, pass));
}

static void *worker(void *arg)
{
	struct slice *s = arg;
	uint64_t pass = 0;

	s->tid_nr = syscall(SYS_gettid);
	for (size_t i = s->lo; i < s->hi; i++)
		region[i] = pattern(i, 0);
	atomic_fetch_add(&touched, 1);
	while (!atomic_load(&stop)) {
		for (size_t i = s->lo; i < s->hi; i++) {
			check_word(i, pass);
			region[i] = pattern(i, pass + 1);
		}
		pass++;
	}
	s->pass = pass;
	atomic_fetch_add(&parked, 1);
	/* read on until exec kills this thread */
	for (;;)
		for (size_t i = s->lo; i < s->hi; i++)
			(void)*(volatile uint64_t *)&region[i];
	return NULL;
}

static long minflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* The thread's autonuma_node in /proc, -1 if none (or no such line). */
static int autonuma_node(pid_t tid)
{
	char path[64], line[256];
	int node = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "autonuma_node", 13))
			node = atoi(strchr(line, ':') ? strchr(line, ':') + 1 : "-1");
	fclose(f);
	return node;
}

static void exec_image(const char *prog, long p, long img, long deadline, long f, long fd, long pl)
{
	char a[6][32], state[160];

	snprintf(a[0], 32, "%ld", chains);
	snprintf(a[1], 32, "%ld", threads);
	snprintf(a[2], 32, "%ld", mib);
	snprintf(a[3], 32, "%ld", life_ms);
	snprintf(a[4], 32, "%ld", seconds);
	snprintf(state, sizeof(state), "%ld:%ld:%ld:%ld:%ld:%ld", p, img, deadline, f, fd, pl);
	execl("/proc/self/exe", prog, "-p", a[0], "-t", a[1], "-s", a[2], "-l", a[3],
	      "-d", a[4], "-c", state, corrupt ? "-X" : NULL, NULL);
	die("exec /proc/self/exe");
}

/* One image of a chain: touch, rewrite and check, then exec the next. */
static int run_image(const char *prog)
{
	struct slice *s = calloc(threads, sizeof(*s));
	size_t bytes = (size_t)mib << 20;
	long start, base;
	bool any_placed = false;

	if (!s)
		die("calloc");
	region = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		die("mmap");
	nr_words = bytes / sizeof(uint64_t);
	start = now_ms();
	for (long t = 0; t < threads; t++) {
		s[t].lo = nr_words * t / threads;
		s[t].hi = nr_words * (t + 1) / threads;
		if (pthread_create(&s[t].tid, NULL, worker, &s[t]))
			die("pthread_create");
	}
	while (atomic_load(&touched) < threads)
		usleep(1000);
	base = minflt();
	while (now_ms() < start + life_ms)
		usleep(10000);
	atomic_store(&stop, 1);
	while (atomic_load(&parked) < threads)
		usleep(1000);
	base = minflt() - base;
	for (long t = 0; t < threads; t++)
		any_placed |= autonuma_node(s[t].tid_nr) >= 0;
	if (corrupt && image == 1 && proc == 0)
		region[nr_words / 2] ^= 1;
	for (long t = 0; t < threads; t++)
		for (size_t i = s[t].lo; i < s[t].hi; i++)
			check_word(i, s[t].pass);
	faults += base;
	faulted += base > 0;
	placed += any_placed;
	if (!atomic_load(&failed) && now_ms() < deadline_ms)
		exec_image(prog, proc, image + 1, deadline_ms, faults, faulted, placed);
	printf("exec-storm: done proc=%ld execs=%ld faults=%ld faulted=%ld placed=%ld check=%s\n",
	       proc, image, faults, faulted, placed, atomic_load(&failed) ? "FAILED" : "ok");
	fflush(stdout);
	_exit(atomic_load(&failed) ? 1 : 0);	/* the threads still run: no exit handlers */
}

int main(int argc, char **argv)
{
	const char *state = NULL;
	long deadline;
	int opt, rc = 0, status;

	while ((opt = getopt(argc, argv, "p:t:s:l:d:c:X")) != -1) {
		switch (opt) {
		case 'p': chains = atol(optarg); break;
		case 't': threads = atol(optarg); break;
		case 's': mib = atol(optarg); break;
		case 'l': life_ms = atol(optarg); break;
		case 'd': seconds = atol(optarg); break;
		case 'c': state = optarg; break;
		case 'X': corrupt = true; break;
		default:
			fprintf(stderr, "usage: exec-storm [-p chains] [-t threads] [-s MiB] "
				"[-l ms] [-d seconds] [-X]\n");
			return 2;
		}
	}
	if (chains < 1 || chains > 256 || threads < 1 || threads > 64 || mib < 1 ||
	    mib > 1 << 16 || life_ms < 1 || seconds < 1) {
		fprintf(stderr, "exec-storm: bad arguments\n");
		return 2;
	}
	if (state) {
		if (sscanf(state, "%ld:%ld:%ld:%ld:%ld:%ld", &proc, &image, &deadline_ms,
			   &faults, &faulted, &placed) != 6) {
			fprintf(stderr, "exec-storm: bad state '%s'\n", state);
			return 2;
		}
		return run_image(argv[0]);
	}
	deadline = now_ms() + seconds * 1000;
	for (long p = 0; p < chains; p++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid)
			exec_image(argv[0], p, 1, deadline, 0, 0, 0);
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			rc = 1;
	return rc;
}
