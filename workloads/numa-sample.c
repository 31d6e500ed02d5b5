// SPDX-License-Identifier: GPL-2.0
/*
 * numa-sample: run a command and record, into the trace, where its memory
 * and its threads are.  The same record for every balancer (AutoNUMA, upstream
 * NUMA balancing, none), so analysis/ measures them all with one ruler.
 *
 * Every interval, for the command and each of its descendants, it writes
 * trace_marker lines (read back by analysis/autonuma-report):
 *   numa-sample: start variant=lb nodes=2 cpus=0,0,1,1 root=123
 *   numa-sample: vmstat when=start numa_pte_updates=0 numa_hint_faults=0 ...
 *   numa-sample: cpu seq=7 tgid=124 tid=125 cpu=2 ticks=310   (per thread)
 *   numa-sample: mem seq=7 tgid=124 comm=stream pages=10,25000
 *   numa-sample: vmstat when=end ...
 *   numa-sample: end status=0
 * cpus= gives each CPU's node; pages= is /proc/PID/numa_maps summed per node
 * (base pages, indexed by node id); ticks= the CPU time the thread used.  A
 * process's mem line follows its cpu lines and completes the sample: a thread
 * it did not list has exited.
 *
 * usage: numa-sample [-i MS] [-V VARIANT] COMMAND...
 * Exits with the command's status.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES	64
#define MAX_CPUS	1024
#define MAX_PROCS	4096
#define MARKER		"/sys/kernel/tracing/trace_marker"

static int marker_fd = -1;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "numa-sample: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

/*
 * One trace_marker write per line: the kernel stamps each write.  The kernel
 * copies the line without taking page faults, so a write fails with EFAULT
 * (and "<faulted>" lands in the trace) when a NUMA balancer has just made
 * the buffer's page PROT_NONE: touch the line and write it again.
 */
static void mark(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n, tries = 0;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line))
		die("marker line too long: %.60s...", line);
	while (write(marker_fd, line, n) != n) {
		if (errno != EFAULT || ++tries == 10)
			die("cannot write %s: %s", MARKER, strerror(errno));
		for (int i = 0; i < n; i++)
			((volatile char *)line)[i] = line[i];
	}
}

static int cpu_nodes(int *nid, int max)
{
	int ncpus = 0;

	for (int cpu = 0; cpu < max; cpu++) {
		char path[128];
		DIR *d;
		struct dirent *e;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
		d = opendir(path);
		if (!d)
			break;
		nid[cpu] = 0;
		while ((e = readdir(d)))
			if (!strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9')
				nid[cpu] = atoi(e->d_name + 4);
		closedir(d);
		ncpus = cpu + 1;
	}
	return ncpus;
}

static void mark_vmstat(const char *when)
{
	static const char *const keys[] = {
		"numa_pte_updates", "numa_hint_faults", "numa_hint_faults_local",
		"numa_pages_migrated",
	};
	unsigned long val[4] = { 0 };
	char key[64];
	unsigned long v;
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		die("/proc/vmstat: %s", strerror(errno));
	while (fscanf(f, "%63s %lu", key, &v) == 2)
		for (int i = 0; i < 4; i++)
			if (!strcmp(key, keys[i]))
				val[i] = v;
	fclose(f);
	mark("numa-sample: vmstat when=%s %s=%lu %s=%lu %s=%lu %s=%lu", when,
	     keys[0], val[0], keys[1], val[1], keys[2], val[2], keys[3], val[3]);
}

/* /proc/PID/stat's ppid (and comm); 0 if the process is gone. */
static int read_stat(int pid, int *ppid, char *comm, size_t len)
{
	char path[64], buf[512], *open, *close;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	open = strchr(buf, '(');
	close = strrchr(buf, ')');
	if (!open || !close || close < open)
		return 0;
	snprintf(comm, len, "%.*s", (int)(close - open - 1), open + 1);
	for (char *c = comm; *c; c++)
		if (*c == ' ' || *c == '=')
			*c = '_';
	return sscanf(close + 2, "%*c %d", ppid) == 1;
}

/*
 * The CPU a thread last ran on and the CPU time it used (clock ticks):
 * fields 39, 14 and 15 of its stat.  Returns -1 if it is gone.
 */
static int thread_cpu(int tgid, int tid, unsigned long *ticks)
{
	char path[96], buf[1024], *p;
	unsigned long utime = 0, stime = 0;
	int cpu = -1, field = 2;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", tgid, tid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	for (p++; *p && field < 39; p++) {
		if (*p != ' ')
			continue;
		field++;
		if (field == 14)
			sscanf(p + 1, "%lu %lu", &utime, &stime);
	}
	if (field == 39)
		cpu = atoi(p);
	*ticks = utime + stime;
	return cpu;
}

static void sample_threads(int seq, int tgid)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	d = opendir(path);
	if (!d)
		return;
	while ((e = readdir(d))) {
		int tid = atoi(e->d_name), cpu;
		unsigned long ticks;

		if (tid <= 0)
			continue;
		cpu = thread_cpu(tgid, tid, &ticks);
		if (cpu >= 0)
			mark("numa-sample: cpu seq=%d tgid=%d tid=%d cpu=%d ticks=%lu",
			     seq, tgid, tid, cpu, ticks);
	}
	closedir(d);
}

/* Pages per node from numa_maps' N<node>=<pages> fields, in base pages. */
static int sample_memory(int tgid, unsigned long *pages, int nodes)
{
	char path[64], line[4096];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/numa_maps", tgid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	memset(pages, 0, nodes * sizeof(*pages));
	while (fgets(line, sizeof(line), f)) {
		unsigned long n[MAX_NODES] = { 0 }, kb = 4;
		char *tok, *save;

		for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
			int nid;
			unsigned long v;

			if (sscanf(tok, "N%d=%lu", &nid, &v) == 2 && nid >= 0 && nid < nodes)
				n[nid] = v;
			else
				sscanf(tok, "kernelpagesize_kB=%lu", &kb);
		}
		for (int i = 0; i < nodes; i++)
			pages[i] += n[i] * (kb / 4);
	}
	fclose(f);
	return 0;
}

/* The root and its descendants, from every process's ppid. */
static int descendants(int root, int *out, int max)
{
	static int pid[MAX_PROCS], ppid[MAX_PROCS];
	int n = 0, nout = 0;
	char comm[64];
	struct dirent *e;
	DIR *d = opendir("/proc");

	if (!d)
		die("/proc: %s", strerror(errno));
	while ((e = readdir(d)) && n < MAX_PROCS) {
		int p = atoi(e->d_name);

		if (p > 0 && read_stat(p, &ppid[n], comm, sizeof(comm)))
			pid[n++] = p;
	}
	closedir(d);
	out[nout++] = root;
	for (int i = 0; i < nout; i++)
		for (int j = 0; j < n && nout < max; j++)
			if (ppid[j] == out[i])
				out[nout++] = pid[j];
	return nout;
}

static void sample(int seq, int root, int nodes)
{
	static int procs[MAX_PROCS];
	int n = descendants(root, procs, MAX_PROCS);

	for (int i = 0; i < n; i++) {
		unsigned long pages[MAX_NODES];
		char list[MAX_NODES * 12] = "", comm[64];
		int ppid, len = 0;

		if (!read_stat(procs[i], &ppid, comm, sizeof(comm)))
			continue;
		sample_threads(seq, procs[i]);
		if (sample_memory(procs[i], pages, nodes))
			continue;
		for (int nid = 0; nid < nodes; nid++)
			len += snprintf(list + len, sizeof(list) - len, "%s%lu", nid ? "," : "", pages[nid]);
		mark("numa-sample: mem seq=%d tgid=%d comm=%.15s pages=%s", seq, procs[i], comm, list);
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *variant = "unknown";
	int nid[MAX_CPUS], ncpus, nodes = 0, opt, status, seq = 0;
	double interval = 0.2, next;
	char cpus[MAX_CPUS * 4] = "";
	pid_t child;

	while ((opt = getopt(argc, argv, "+i:V:")) != -1) {
		switch (opt) {
		case 'i':
			interval = atof(optarg) / 1000;
			if (interval < 0.01 || interval > 60)
				die("-i %s: interval out of range (10..60000 ms)", optarg);
			break;
		case 'V': variant = optarg; break;
		default: die("usage: numa-sample [-i MS] [-V VARIANT] COMMAND...");
		}
	}
	if (optind >= argc)
		die("usage: numa-sample [-i MS] [-V VARIANT] COMMAND...");
	if (strpbrk(variant, " =\n"))
		die("-V '%s': no spaces or '=' in a variant name", variant);
	marker_fd = open(MARKER, O_WRONLY);
	if (marker_fd < 0)
		die("%s: %s", MARKER, strerror(errno));
	ncpus = cpu_nodes(nid, MAX_CPUS);
	for (int cpu = 0, len = 0; cpu < ncpus; cpu++) {
		len += snprintf(cpus + len, sizeof(cpus) - len, "%s%d", cpu ? "," : "", nid[cpu]);
		if (nid[cpu] + 1 > nodes)
			nodes = nid[cpu] + 1;
	}
	if (nodes > MAX_NODES)
		die("%d nodes: at most %d", nodes, MAX_NODES);

	child = fork();
	if (child < 0)
		die("fork: %s", strerror(errno));
	if (child == 0) {
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "numa-sample: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	mark("numa-sample: start variant=%s nodes=%d cpus=%s root=%d", variant, nodes, cpus, child);
	mark_vmstat("start");
	for (next = now();; next += interval) {
		double sleep_s = next - now();

		if (waitpid(child, &status, WNOHANG) == child)
			break;
		if (sleep_s > 0)
			usleep(sleep_s * 1e6);
		sample(++seq, child, nodes);
	}
	mark_vmstat("end");
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	mark("numa-sample: end status=%d", status);
	return status;
}
