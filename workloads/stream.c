// SPDX-License-Identifier: GPL-2.0
/*
 * stream: a STREAM-like NUMA workload (copy, scale, add, triad).
 *
 * Each of P processes runs T threads over its own three arrays; each thread
 * owns a slice.  With -S (numa01-style) the P processes share one set of
 * arrays instead, and every thread reads all of it: no placement makes all
 * accesses local, so what a balancer costs there is pure overhead.  Memory is first touched while the process is bound to the
 * CPUs of one node (-b), then the binding is released (or moved to another
 * node with -r), so a NUMA balancer has something to fix.  Every interval
 * each process prints its bandwidth and where its pages are, measured with
 * move_pages(2) independently of any balancer's counters.  At the end every
 * element is checked against the value the arithmetic must have produced, so
 * a lost or corrupted page fails the run.
 *
 * Output lines (one per process per interval, then one final line); local=
 * is the share of pages on the node of the CPU where the thread that owns
 * them (its slice) last ran: per-thread locality, which is what counts when
 * a process's threads run on several nodes (numa02):
 *   stream: t=1.0 proc=0 pid=123 mbs=812 nodes=100.0,0.0 local=50.0 cpus=0,2
 *   stream: done proc=0 pid=123 iters=57 check=ok nodes=0.4,99.6 local=99.6
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES 64
#define MPOL_BIND 2		/* <linux/mempolicy.h>, without libnuma */

enum { POLICY_NONE, POLICY_MBIND, POLICY_TASK };
#define MAX_SAMPLES 8192	/* pages queried with move_pages per interval */
/*
 * sqrt(2) - 1: one pass maps a to (2s + s^2) a = a, so values neither overflow
 * nor vanish however long the run; built with -ffp-contract=off, the check
 * can replay the same arithmetic exactly.
 */
#define SCALAR 0.41421356237309515

struct options {
	int procs, threads;
	long mib;		/* per process, over the three arrays */
	double seconds, interval;
	int touch_node;		/* -1: no binding while touching */
	int run_node;		/* -1: all CPUs after touching */
	bool trace_marker;
	int policy;		/* -m: POLICY_* */
	bool corrupt;		/* -X: damage one element to prove the check works */
	bool shared;		/* -S: one set of arrays for all processes, read by all */
	bool pte_map;		/* -E: the arrays' THPs mapped by PTEs */
};

/* -S: the arrays all processes share, mapped and touched before the fork. */
static double *shared_arrays;

struct slice {
	pthread_t tid;
	struct proc *proc;
	size_t lo, hi;
	long iters;
	int cpu;
};

struct proc {
	const struct options *opt;
	int index;
	double *a, *b, *c;
	size_t n;			/* elements per array */
	atomic_long bytes;
	atomic_int stop, touched;
	pthread_barrier_t go;
	struct slice *slices;
};

static void die(const char *msg)
{
	perror(msg);
	exit(2);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* CPUs of a node, from sysfs; -1 means every CPU.  False if it has none. */
static bool read_node_cpus(int node, cpu_set_t *set)
{
	char path[96], buf[4096], *p;
	FILE *f;

	CPU_ZERO(set);
	if (node < 0) {
		for (int i = 0; i < CPU_SETSIZE; i++)
			CPU_SET(i, set);
		return true;
	}
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return false;
	}
	fclose(f);
	for (p = strtok(buf, ",\n"); p; p = strtok(NULL, ",\n")) {
		int lo, hi;

		if (sscanf(p, "%d-%d", &lo, &hi) != 2)
			hi = lo = atoi(p);
		for (int i = lo; i <= hi && i < CPU_SETSIZE; i++)
			CPU_SET(i, set);
	}
	return true;
}

static void node_cpus(int node, cpu_set_t *set)
{
	if (!read_node_cpus(node, set)) {
		fprintf(stderr, "stream: no CPU list for node %d\n", node);
		exit(2);
	}
}

static void bind_to_node(int node)
{
	cpu_set_t set;

	node_cpus(node, &set);
	/* pid 0 binds only the calling thread: bind each thread */
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* Number of possible node ids: the highest in /sys/devices/system/node/possible, plus one. */
static int nr_node_ids(void)
{
	FILE *f = fopen("/sys/devices/system/node/possible", "r");
	char buf[256], *p;
	int n = 1;

	if (f && fgets(buf, sizeof(buf), f)) {
		p = buf + strcspn(buf, "\n");
		while (p > buf && (p[-1] < '0' || p[-1] > '9'))
			p--;
		while (p > buf && p[-1] >= '0' && p[-1] <= '9')
			p--;
		n = atoi(p) + 1;
	}
	if (f)
		fclose(f);
	return n < MAX_NODES ? n : MAX_NODES;
}

/* The node of a CPU, -1 if unknown; the map is read once. */
static int cpu_node(int cpu)
{
	static int map[CPU_SETSIZE];
	static bool read;

	if (!read) {
		cpu_set_t set;

		for (int i = 0; i < CPU_SETSIZE; i++)
			map[i] = -1;
		for (int node = 0; node < nr_node_ids(); node++)
			if (read_node_cpus(node, &set))
				for (int i = 0; i < CPU_SETSIZE; i++)
					if (CPU_ISSET(i, &set))
						map[i] = node;
		read = true;
	}
	return cpu >= 0 && cpu < CPU_SETSIZE ? map[cpu] : -1;
}

/* The thread whose slice holds element j. */
static const struct slice *owner(const struct proc *pr, size_t j)
{
	int t = 0;

	while (t < pr->opt->threads - 1 && j >= pr->slices[t].hi)
		t++;
	return &pr->slices[t];
}

/*
 * Percentage of sampled pages on each node, written to pct[], and in *local
 * the percentage on the node of the CPU where the thread whose slice holds
 * the page last ran (-1 with -S, where no thread owns a page).  Returns the
 * node count.
 */
static int page_nodes(struct proc *pr, double *pct, double *local)
{
	static void *pages[MAX_SAMPLES];
	static int status[MAX_SAMPLES], home[MAX_SAMPLES];
	double *arrays[3] = { pr->a, pr->b, pr->c };
	long psz = sysconf(_SC_PAGESIZE);
	size_t per_array = pr->n * sizeof(double) / psz;
	size_t count = 0, step = (3 * per_array + MAX_SAMPLES - 1) / MAX_SAMPLES;
	int counts[MAX_NODES] = { 0 }, total = 0, at_home = 0, nodes = nr_node_ids();

	if (!step)
		step = 1;
	for (int k = 0; k < 3; k++)
		for (size_t i = 0; i < per_array && count < MAX_SAMPLES; i += step) {
			home[count] = cpu_node(owner(pr, i * psz / sizeof(double))->cpu);
			pages[count++] = (char *)arrays[k] + i * psz;
		}
	if (syscall(SYS_move_pages, 0, count, pages, NULL, status, 0))
		die("move_pages");
	for (size_t i = 0; i < count; i++) {
		if (status[i] < 0 || status[i] >= MAX_NODES)
			continue;
		counts[status[i]]++;
		at_home += status[i] == home[i];
		total++;
	}
	for (int i = 0; i < nodes; i++)
		pct[i] = total ? 100.0 * counts[i] / total : 0;
	*local = pr->opt->shared ? -1 : total ? 100.0 * at_home / total : 0;
	return nodes;
}

/* -S: read everything; the sum goes nowhere, the reads are the point. */
static void shared_pass(struct proc *pr, size_t lo, size_t hi)
{
	const volatile double *a = pr->a, *b = pr->b, *c = pr->c;
	double sum = 0;

	for (size_t j = lo; j < hi; j++)
		sum += a[j] + b[j] + c[j];
	if (sum < 0)
		abort();
	atomic_fetch_add(&pr->bytes, (long)(3 * sizeof(double) * (hi - lo)));
}

static void stream_pass(struct proc *pr, size_t lo, size_t hi)
{
	double *a = pr->a, *b = pr->b, *c = pr->c;

	if (pr->opt->shared) {
		shared_pass(pr, lo, hi);
		return;
	}
	for (size_t j = lo; j < hi; j++)
		c[j] = a[j];
	for (size_t j = lo; j < hi; j++)
		b[j] = SCALAR * c[j];
	for (size_t j = lo; j < hi; j++)
		c[j] = a[j] + b[j];
	for (size_t j = lo; j < hi; j++)
		a[j] = b[j] + SCALAR * c[j];
	/* copy and scale move 2 arrays, add and triad 3 */
	atomic_fetch_add(&pr->bytes, (long)(10 * sizeof(double) * (hi - lo)));
}

static void *slice_main(void *arg)
{
	struct slice *s = arg;
	struct proc *pr = s->proc;

	bind_to_node(pr->opt->touch_node);
	for (size_t j = s->lo; j < s->hi && !pr->opt->shared; j++) {
		pr->a[j] = 1.0;
		pr->b[j] = 2.0;
		pr->c[j] = 0.0;
	}
	atomic_fetch_add(&pr->touched, 1);
	pthread_barrier_wait(&pr->go);	/* all touched; the main thread set up the run */
	bind_to_node(pr->opt->run_node);
	while (!atomic_load(&pr->stop)) {
		stream_pass(pr, s->lo, s->hi);
		s->iters++;
		s->cpu = sched_getcpu();
	}
	return NULL;
}

/* The values STREAM's arithmetic gives after iters passes from (1, 2, 0). */
static void expected(long iters, double *ea, double *eb, double *ec)
{
	double a = 1.0, b = 2.0, c = 0.0;

	for (long k = 0; k < iters; k++) {
		c = a;
		b = SCALAR * c;
		c = a + b;
		a = b + SCALAR * c;
	}
	*ea = a, *eb = b, *ec = c;
}

static bool close_to(double x, double want)
{
	double d = x - want;

	return (d < 0 ? -d : d) <= 1e-9 * (want < 0 ? -want : want);
}

static bool check(struct proc *pr)
{
	for (int t = 0; t < pr->opt->threads; t++) {
		struct slice *s = &pr->slices[t];
		double ea, eb, ec;

		if (pr->opt->shared)	/* only read: still the values touched */
			ea = 1.0, eb = 2.0, ec = 0.0;
		else
			expected(s->iters, &ea, &eb, &ec);
		for (size_t j = s->lo; j < s->hi; j++)
			if (!close_to(pr->a[j], ea) || !close_to(pr->b[j], eb) ||
			    !close_to(pr->c[j], ec)) {
				fprintf(stderr, "stream: proc %d element %zu corrupt\n", pr->index, j);
				return false;
			}
	}
	return true;
}

static void print_nodes(FILE *out, struct proc *pr)
{
	double pct[MAX_NODES], local;
	int nodes = page_nodes(pr, pct, &local);

	fprintf(out, " nodes=");
	for (int i = 0; i < nodes; i++)
		fprintf(out, "%s%.1f", i ? "," : "", pct[i]);
	if (local >= 0)
		fprintf(out, " local=%.1f", local);
}

static void mark_trace(const char *msg)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);

	if (fd < 0 || write(fd, msg, strlen(msg)) < 0)
		fprintf(stderr, "stream: cannot write trace_marker: %s\n", strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * -E: mprotect() one page in every 2 MiB of [p, p + len) executable: the
 * vma splits there, and so does the PMD of each THP, whose pages stay one
 * THP mapped by PTEs.  The data stays writable.
 */
static void pte_map(void *p, size_t len)
{
	const uintptr_t huge = 2UL << 20;
	uintptr_t start = (uintptr_t)p, end = start + len;

	for (uintptr_t a = (start + huge - 1) & ~(huge - 1); a + 4096 <= end; a += huge)
		if (mprotect((void *)a, 4096, PROT_READ | PROT_WRITE | PROT_EXEC))
			die("mprotect");
}

/*
 * -m: bind the memory to the first-touch node with mbind(2) on the arrays
 * or with set_mempolicy(2) for the whole process, so that a NUMA balancer
 * must leave it alone.
 */
static void set_policy(const struct options *opt, void *addr, size_t len)
{
	unsigned long mask = 1UL << opt->touch_node;
	long err = 0;

	if (opt->policy == POLICY_MBIND)
		err = syscall(SYS_mbind, addr, len, MPOL_BIND, &mask, MAX_NODES + 1, 0);
	else if (opt->policy == POLICY_TASK)
		err = syscall(SYS_set_mempolicy, MPOL_BIND, &mask, MAX_NODES + 1);
	if (err)
		die("mbind/set_mempolicy");
}

static int run_process(const struct options *opt, int index)
{
	struct proc pr = { .opt = opt, .index = index };
	size_t bytes = (size_t)opt->mib * 1024 * 1024 / 3;
	double start, next, last_t, t;
	long last_bytes = 0;
	bool ok;
	char *line = NULL;
	size_t len = 0;
	FILE *mem;

	pr.n = bytes / sizeof(double);
	pr.a = opt->shared ? shared_arrays :
	       mmap(NULL, 3 * bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pr.a == MAP_FAILED)
		die("mmap");
	/* before the threads start: they inherit the task policy */
	set_policy(opt, pr.a, 3 * bytes);
	pr.b = pr.a + pr.n;
	pr.c = pr.b + pr.n;
	pr.slices = calloc(opt->threads, sizeof(*pr.slices));
	if (!pr.slices)
		die("calloc");
	pthread_barrier_init(&pr.go, NULL, opt->threads + 1);
	for (int t = 0; t < opt->threads; t++) {
		struct slice *s = &pr.slices[t];

		s->proc = &pr;
		s->lo = opt->shared ? 0 : pr.n * t / opt->threads;
		s->hi = opt->shared ? pr.n : pr.n * (t + 1) / opt->threads;
		if (pthread_create(&s->tid, NULL, slice_main, s))
			die("pthread_create");
	}
	if (opt->pte_map) {
		while (atomic_load(&pr.touched) < opt->threads)
			usleep(1000);
		pte_map(pr.a, 3 * bytes);
	}
	pthread_barrier_wait(&pr.go);
	if (opt->trace_marker && index == 0)
		mark_trace("autonuma-workload-start");
	start = last_t = now();
	for (next = start + opt->interval; ; next += opt->interval) {
		double sleep_s = next - now();

		if (sleep_s > 0)
			usleep(sleep_s * 1e6);
		t = now();
		long b = atomic_load(&pr.bytes);

		mem = open_memstream(&line, &len);
		if (!mem)
			die("open_memstream");
		fprintf(mem, "stream: t=%.1f proc=%d pid=%d mbs=%.0f", t - start, index, getpid(),
			(b - last_bytes) / (t - last_t) / 1e6);
		print_nodes(mem, &pr);
		fprintf(mem, " cpus=");
		for (int i = 0; i < opt->threads; i++)
			fprintf(mem, "%s%d", i ? "," : "", pr.slices[i].cpu);
		fclose(mem);
		printf("%s\n", line);
		fflush(stdout);
		/* for analysis/: the locality at the measured end, the first stop */
		if (opt->trace_marker)
			mark_trace(line);
		free(line);
		line = NULL;
		last_bytes = b, last_t = t;
		if (t - start >= opt->seconds)
			break;
	}
	/*
	 * Every process marks its stop: the first one to stop ends the steady
	 * state the others are measured in (its check changes their load).
	 */
	if (opt->trace_marker)
		mark_trace("autonuma-workload-stop");
	atomic_store(&pr.stop, 1);
	long iters = 0;

	for (int t = 0; t < opt->threads; t++) {
		pthread_join(pr.slices[t].tid, NULL);
		iters += pr.slices[t].iters;
	}
	if (opt->corrupt)
		pr.b[pr.n / 2] += 1.0;
	/* the check reads every page: from the run node, as the threads did */
	bind_to_node(opt->run_node);
	ok = check(&pr);
	mem = open_memstream(&line, &len);
	if (!mem)
		die("open_memstream");
	fprintf(mem, "stream: done proc=%d pid=%d iters=%ld check=%s", index, getpid(), iters,
		ok ? "ok" : "FAILED");
	print_nodes(mem, &pr);
	fclose(mem);
	printf("%s\n", line);
	free(line);
	return ok ? 0 : 1;
}

/* -S: map the shared arrays and touch them from the -b node's CPUs. */
static void touch_shared(const struct options *opt)
{
	size_t n = (size_t)opt->mib * 1024 * 1024 / 3 / sizeof(double);
	cpu_set_t all;

	shared_arrays = mmap(NULL, 3 * n * sizeof(double), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared_arrays == MAP_FAILED)
		die("mmap");
	bind_to_node(opt->touch_node);
	for (size_t j = 0; j < n; j++) {
		shared_arrays[j] = 1.0;
		shared_arrays[n + j] = 2.0;
		shared_arrays[2 * n + j] = 0.0;
	}
	node_cpus(-1, &all);
	if (sched_setaffinity(0, sizeof(all), &all))
		die("sched_setaffinity");
}

static void usage(void)
{
	fprintf(stderr,
		"usage: stream [-p procs] [-t threads] [-s MiB/proc] [-d seconds] [-i interval]\n"
		"              [-b touch-node] [-r run-node] [-m mbind|task] [-S] [-E] [-M] [-X]\n"
		"  -b N  first-touch the arrays on node N's CPUs (default 0; -1: anywhere)\n"
		"  -r N  then run on node N's CPUs (default -1: all CPUs)\n"
		"  -m P  bind the memory to the -b node: mbind(2) the arrays or\n"
		"        set_mempolicy(2) the task (P = mbind or task)\n"
		"  -S    numa01-style: the processes share one set of arrays (-s MiB in\n"
		"        all), touched on the -b node; every thread reads all of it\n"
		"  -E    after the first touch, map the arrays' THPs by PTEs (an\n"
		"        executable page in every 2 MiB splits their PMDs)\n"
		"  -M    write 'autonuma-workload-start' to the trace_marker when the\n"
		"        timed run starts, 'autonuma-workload-stop' when each process\n"
		"        stops (the first one ends the measured run),\n"
		"        and each process's interval lines\n"
		"  -X    corrupt one element before the final check (tests the check)\n");
	exit(2);
}

static long parse_num(const char *s, long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < lo || v > hi) {
		fprintf(stderr, "stream: '%s' is not a number in %ld..%ld\n", s, lo, hi);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	struct options opt = {
		.procs = 1, .threads = 1, .mib = 96, .seconds = 10, .interval = 1,
		.touch_node = 0, .run_node = -1,
	};
	int c, failed = 0;

	while ((c = getopt(argc, argv, "p:t:s:d:i:b:r:m:SEMX")) != -1) {
		switch (c) {
		case 'p': opt.procs = parse_num(optarg, 1, 256); break;
		case 't': opt.threads = parse_num(optarg, 1, 256); break;
		case 's': opt.mib = parse_num(optarg, 1, 1 << 20); break;
		case 'd': opt.seconds = parse_num(optarg, 1, 86400); break;
		case 'i': opt.interval = parse_num(optarg, 1, 3600); break;
		case 'b': opt.touch_node = parse_num(optarg, -1, MAX_NODES - 1); break;
		case 'r': opt.run_node = parse_num(optarg, -1, MAX_NODES - 1); break;
		case 'M': opt.trace_marker = true; break;
		case 'm':
			if (!strcmp(optarg, "mbind"))
				opt.policy = POLICY_MBIND;
			else if (!strcmp(optarg, "task"))
				opt.policy = POLICY_TASK;
			else
				usage();
			break;
		case 'X': opt.corrupt = true; break;
		case 'S': opt.shared = true; break;
		case 'E': opt.pte_map = true; break;
		default: usage();
		}
	}
	if (optind != argc || (opt.policy != POLICY_NONE && opt.touch_node < 0) ||
	    (opt.shared && opt.policy != POLICY_NONE))
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (opt.shared)
		touch_shared(&opt);
	for (int i = 0; i < opt.procs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (pid == 0)
			exit(run_process(&opt, i));
	}
	for (int i = 0; i < opt.procs; i++) {
		int status;

		if (wait(&status) < 0)
			die("wait");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	if (failed)
		fprintf(stderr, "stream: %d process(es) failed\n", failed);
	return failed ? 1 : 0;
}
