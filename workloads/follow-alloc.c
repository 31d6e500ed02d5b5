// SPDX-License-Identifier: GPL-2.0
/*
 * follow-alloc: does a task's memory outside its mappings (pipe buffers,
 * here) go to the node AutoNUMA chose for it (the default mempolicy follows
 * AutoNUMA), also while it runs on another node?
 *
 * Its working set (-s MiB, base pages) is first touched on node N (-n),
 * running there (then on any CPU again), and it writes over it until
 * /proc/self/sched says AutoNUMA's placement chose node N for it
 * (autonuma_node) and it runs there.  Then, up to -a times: it pins itself
 * to the CPUs of the other nodes and fills pipes of 1 MiB (-c MiB in all),
 * which the kernel allocates for it with alloc_pages(), counting the pages
 * allocated on each node meanwhile (numastat).  An attempt is valid when autonuma_node was N
 * before and after while the task ran off node N: the load balancer's
 * placement re-evaluates a pinned task at its CPU's next NUMA balance, and
 * may choose another node meanwhile.  Between attempts it is unpinned and
 * writes until chosen N again.
 *
 * Output (the verdict is the caller's; pages allocated on node N and on the
 * others while the pipes were filled, of the pages written):
 *   follow-alloc: placed node=1 after=3.2s
 *   follow-alloc: attempt=1 valid=1 cpu_node=0 on_node=1020 elsewhere=3 of=1024
 *   follow-alloc: done valid=3 on_node=3060 elsewhere=9 of=3072
 * Exit status 0 when done, 1 on an error, 2 when never placed within -t s.
 *
 * usage: follow-alloc [-n NODE] [-s MIB] [-c MIB] [-a ATTEMPTS] [-t SECONDS]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_NODES	64
#define MAX_CPUS	1024
#define MPOL_DEFAULT	0	/* <linux/mempolicy.h>, without libnuma */
#define MPOL_BIND	2

struct follow {
	int node;		/* N */
	long work_bytes;
	int pipes;		/* of 1 MiB */
	int attempts;
	double timeout;
	int cpu_node[MAX_CPUS];	/* -1: no such CPU */
	char *work;
	long page;
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void read_topology(struct follow *f)
{
	char path[96];
	int nid;

	memset(f->cpu_node, -1, sizeof(f->cpu_node));
	for (nid = 0; nid < MAX_NODES; nid++) {
		int lo, hi;
		FILE *fp;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", nid);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		while (fscanf(fp, "%d", &lo) == 1) {
			hi = lo;
			if (fscanf(fp, "-%d", &hi) != 1)
				hi = lo;
			for (; lo <= hi && lo < MAX_CPUS; lo++)
				f->cpu_node[lo] = nid;
			if (fgetc(fp) != ',')
				break;
		}
		fclose(fp);
	}
}

/* autonuma_node from /proc/self/sched (the debug output of the series) */
static int autonuma_node(void)
{
	char line[256];
	int nid = -2;
	FILE *fp = fopen("/proc/self/sched", "r");

	if (!fp)
		die("/proc/self/sched");
	while (fgets(line, sizeof(line), fp))
		if (!strncmp(line, "autonuma_node", 13))
			sscanf(strchr(line, ':') + 1, "%d", &nid);
	fclose(fp);
	if (nid == -2) {
		fprintf(stderr, "follow-alloc: no autonuma_node in /proc/self/sched\n");
		exit(1);
	}
	return nid;
}

static int cpu_node(struct follow *f)
{
	int cpu = sched_getcpu();

	return cpu >= 0 && cpu < MAX_CPUS ? f->cpu_node[cpu] : -1;
}

/* pin to the CPUs of node nid (on) or of every other node (!on) */
static void pin(struct follow *f, bool all, bool on)
{
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	for (cpu = 0; cpu < MAX_CPUS; cpu++)
		if (f->cpu_node[cpu] >= 0 &&
		    (all || (f->cpu_node[cpu] == f->node) == on))
			CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static char *map(long bytes)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap");
	if (madvise(p, bytes, MADV_NOHUGEPAGE))
		die("madvise");
	return p;
}

/*
 * The working set, first touched on node N by the task running there: its
 * memory and its thread agree, so AutoNUMA keeps both on N.
 */
static void first_touch(struct follow *f)
{
	unsigned long mask = 1UL << f->node;

	pin(f, false, true);
	if (syscall(SYS_set_mempolicy, MPOL_BIND, &mask, MAX_NODES + 1))
		die("set_mempolicy");
	f->work = map(f->work_bytes);
	memset(f->work, 1, f->work_bytes);
	if (syscall(SYS_set_mempolicy, MPOL_DEFAULT, NULL, 0))
		die("set_mempolicy");
	pin(f, true, true);
}

/* write over the working set until placed on N and running there */
static bool wait_placed(struct follow *f, double deadline)
{
	long i;

	while (now() < deadline) {
		for (i = 0; i < f->work_bytes; i += 64)
			f->work[i]++;
		if (autonuma_node() == f->node && cpu_node(f) == f->node)
			return true;
	}
	return false;
}

/*
 * Pages allocated so far on node N (on) or on the other nodes (!on): their
 * numastat local_node + other_node, which count every allocation, also
 * those served from per-CPU lists (MemFree does not see them).
 */
static long allocated(struct follow *f, bool on)
{
	char path[96], line[256];
	long n, total = 0;
	int nid;

	for (nid = 0; nid < MAX_NODES; nid++) {
		FILE *fp;

		if ((nid == f->node) != on)
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/numastat", nid);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "local_node %ld", &n) == 1 ||
			    sscanf(line, "other_node %ld", &n) == 1)
				total += n;
		fclose(fp);
	}
	return total;
}

/* fill pipes of 1 MiB with data; their buffers stay until closed */
static void fill_pipes(struct follow *f, int (*fds)[2])
{
	static char buf[1 << 20];
	int i;

	memset(buf, 1, sizeof(buf));
	for (i = 0; i < f->pipes; i++) {
		if (pipe(fds[i]) || fcntl(fds[i][1], F_SETPIPE_SZ, sizeof(buf)) < 0)
			die("pipe");
		if (write(fds[i][1], buf, sizeof(buf)) != sizeof(buf))
			die("write");
	}
}

static void close_pipes(struct follow *f, int (*fds)[2])
{
	int i;

	for (i = 0; i < f->pipes; i++) {
		close(fds[i][0]);
		close(fds[i][1]);
	}
}

static void usage(void)
{
	fprintf(stderr, "usage: follow-alloc [-n NODE] [-s MIB] [-c MIB] [-a ATTEMPTS] [-t SECONDS]\n");
	exit(1);
}

int main(int argc, char **argv)
{
	struct follow f = {
		.node = 1, .work_bytes = 32L << 20, .pipes = 4,
		.attempts = 8, .timeout = 60,
	};
	long valid = 0, on_total = 0, else_total = 0, pages_total = 0;
	int (*fds)[2];
	double start, deadline;
	int opt, a;

	while ((opt = getopt(argc, argv, "n:s:c:a:t:")) != -1) {
		switch (opt) {
		case 'n': f.node = atoi(optarg); break;
		case 's': f.work_bytes = atol(optarg) << 20; break;
		case 'c': f.pipes = atoi(optarg); break;
		case 'a': f.attempts = atoi(optarg); break;
		case 't': f.timeout = atof(optarg); break;
		default: usage();
		}
	}
	f.page = sysconf(_SC_PAGESIZE);
	if (f.node < 0 || f.node >= MAX_NODES || f.work_bytes <= 0 ||
	    f.pipes <= 0 || f.attempts <= 0 || f.timeout <= 0)
		usage();
	fds = calloc(f.pipes, sizeof(*fds));
	if (!fds)
		die("calloc");
	setvbuf(stdout, NULL, _IOLBF, 0);
	read_topology(&f);

	start = now();
	deadline = start + f.timeout;
	first_touch(&f);
	if (!wait_placed(&f, deadline)) {
		printf("follow-alloc: never placed on node %d in %.0f s\n", f.node, f.timeout);
		return 2;
	}
	printf("follow-alloc: placed node=%d after=%.1fs\n", f.node, now() - start);
	for (a = 1; a <= f.attempts; a++) {
		int before, after, node_before, node_after;
		long on, elsewhere, pages = f.pipes * ((1L << 20) / f.page);
		bool ok;

		pin(&f, false, false);
		node_before = cpu_node(&f);
		before = autonuma_node();
		on = allocated(&f, true);
		elsewhere = allocated(&f, false);
		fill_pipes(&f, fds);
		on = allocated(&f, true) - on;
		elsewhere = allocated(&f, false) - elsewhere;
		after = autonuma_node();
		node_after = cpu_node(&f);
		close_pipes(&f, fds);
		pin(&f, true, true);
		ok = before == f.node && after == f.node &&
		     node_before != f.node && node_after != f.node;
		printf("follow-alloc: attempt=%d valid=%d cpu_node=%d on_node=%ld elsewhere=%ld of=%ld\n",
		       a, ok, node_after, on, elsewhere, pages);
		if (ok) {
			valid++;
			on_total += on;
			else_total += elsewhere;
			pages_total += pages;
		}
		if (a < f.attempts && !wait_placed(&f, now() + f.timeout))
			break;
	}
	printf("follow-alloc: done valid=%ld on_node=%ld elsewhere=%ld of=%ld\n",
	       valid, on_total, else_total, pages_total);
	return 0;
}
