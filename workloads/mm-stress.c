// SPDX-License-Identifier: GPL-2.0
/*
 * mm-stress: change the address space under pages a NUMA balancer is
 * moving, and check that no page is lost or corrupted.
 *
 * The region (-s MiB, THP-backed where possible) is first touched on node -b,
 * then worker threads run on node -r, so its pages get hinting faults and
 * migration queues.  Meanwhile a mutator thread picks 2 MiB chunks at random
 * and unmaps and maps them again, discards them (MADV_DONTNEED), moves them
 * away and back (mremap), splits their THP (mprotect of one page) or asks for
 * a collapse (MADV_COLLAPSE).  Every page carries a pattern naming its chunk,
 * page and generation; workers check each page they touch and the end checks
 * every page.  Per-chunk locks keep the check exact: a chunk is never checked
 * while the mutator changes it.
 *
 * usage: mm-stress [-s MiB] [-t threads] [-d seconds] [-b node] [-r node] [-X]
 * (-X corrupts one word before the final check, to show the check works)
 * Prints "mm-stress: done ops=N ... check=ok" and exits 0, or 1 on corruption.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define CHUNK		(2UL << 20)
#define PAGE		4096UL
#define WORDS		(PAGE / sizeof(uint64_t))
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE	25
#endif

enum { OP_REMAP, OP_DONTNEED, OP_MREMAP, OP_SPLIT, OP_COLLAPSE, NR_OPS };
static const char *const op_names[NR_OPS] = { "remap", "dontneed", "mremap", "split", "collapse" };

static char *region, *spare;
static size_t nr_chunks;
static uint32_t *generation;		/* per chunk */
static pthread_rwlock_t *locks;		/* per chunk */
static int run_node = 1;
static atomic_int stop, failed;
static long ops[NR_OPS];

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static uint64_t pattern(size_t chunk, size_t page, uint32_t gen)
{
	return (uint64_t)chunk << 40 | (uint64_t)page << 24 | gen;
}

static void fill_chunk(size_t c)
{
	for (size_t p = 0; p < CHUNK / PAGE; p++) {
		uint64_t *w = (uint64_t *)(region + c * CHUNK + p * PAGE), v = pattern(c, p, generation[c]);

		for (size_t i = 0; i < WORDS; i++)
			w[i] = v;
	}
}

/* Check one page (a few words of it, all of them at the end). */
static void check_page(size_t c, size_t p, bool all)
{
	const uint64_t *w = (const uint64_t *)(region + c * CHUNK + p * PAGE);
	uint64_t want = pattern(c, p, generation[c]);

	for (size_t i = 0; i < WORDS; i += all ? 1 : WORDS / 4) {
		if (w[i] == want)
			continue;
		fprintf(stderr, "mm-stress: chunk %zu page %zu word %zu: %#lx, want %#lx\n",
			c, p, i, (unsigned long)w[i], (unsigned long)want);
		atomic_store(&failed, 1);
		return;
	}
}

static void bind_node(int node)
{
	char path[96], buf[256];
	cpu_set_t set;
	FILE *f;

	CPU_ZERO(&set);
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
	f = fopen(path, "r");
	if (!f || !fgets(buf, sizeof(buf), f))
		die(path);
	fclose(f);
	for (char *s = strtok(buf, ",\n"); s; s = strtok(NULL, ",\n")) {
		int lo, hi;

		if (sscanf(s, "%d-%d", &lo, &hi) != 2)
			hi = lo = atoi(s);
		for (int i = lo; i <= hi; i++)
			CPU_SET(i, &set);
	}
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void *worker(void *arg)
{
	unsigned int seed = (uintptr_t)arg;

	bind_node(run_node);
	while (!atomic_load(&stop)) {
		size_t c = rand_r(&seed) % nr_chunks;

		pthread_rwlock_rdlock(&locks[c]);
		for (size_t p = 0; p < CHUNK / PAGE; p++)
			check_page(c, p, false);
		pthread_rwlock_unlock(&locks[c]);
	}
	return NULL;
}

/* One change to chunk c, which is write-locked. */
static void mutate(size_t c, int op)
{
	char *addr = region + c * CHUNK;

	switch (op) {
	case OP_REMAP:
		if (munmap(addr, CHUNK))
			die("munmap");
		if (mmap(addr, CHUNK, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != addr)
			die("mmap");
		madvise(addr, CHUNK, MADV_HUGEPAGE);
		generation[c]++;
		fill_chunk(c);
		break;
	case OP_DONTNEED:
		if (madvise(addr, CHUNK, MADV_DONTNEED))
			die("madvise");
		if (*(volatile uint64_t *)addr) {
			fprintf(stderr, "mm-stress: chunk %zu not zero after MADV_DONTNEED\n", c);
			atomic_store(&failed, 1);
		}
		generation[c]++;
		fill_chunk(c);
		break;
	case OP_MREMAP:
		/* away to the spare area, then back: the contents must travel */
		if (mremap(addr, CHUNK, CHUNK, MREMAP_MAYMOVE | MREMAP_FIXED, spare) != spare ||
		    mremap(spare, CHUNK, CHUNK, MREMAP_MAYMOVE | MREMAP_FIXED, addr) != addr)
			die("mremap");
		break;
	case OP_SPLIT:
		/* a 4 KiB protection change splits the THP mapping the chunk */
		if (mprotect(addr + PAGE, PAGE, PROT_READ) ||
		    mprotect(addr + PAGE, PAGE, PROT_READ | PROT_WRITE))
			die("mprotect");
		break;
	case OP_COLLAPSE:
		madvise(addr, CHUNK, MADV_COLLAPSE);	/* may fail: best effort */
		break;
	}
	ops[op]++;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long mib = 64, threads = 2, seconds = 10;
	int touch_node = 0, opt;
	bool corrupt = false;
	pthread_t *tids;
	unsigned int seed = 1;
	double end;
	long total = 0;

	while ((opt = getopt(argc, argv, "s:t:d:b:r:X")) != -1) {
		switch (opt) {
		case 's': mib = atol(optarg); break;
		case 't': threads = atol(optarg); break;
		case 'd': seconds = atol(optarg); break;
		case 'b': touch_node = atoi(optarg); break;
		case 'r': run_node = atoi(optarg); break;
		case 'X': corrupt = true; break;
		default:
			fprintf(stderr, "usage: mm-stress [-s MiB] [-t threads] [-d seconds] "
				"[-b node] [-r node] [-X]\n");
			return 2;
		}
	}
	if (mib < 4 || mib > 1 << 20 || threads < 1 || threads > 256 || seconds < 1 ||
	    touch_node < 0 || run_node < 0) {
		fprintf(stderr, "mm-stress: bad arguments\n");
		return 2;
	}
	nr_chunks = mib * (1 << 20) / CHUNK;
	/* 2 MiB aligned, so chunks can be THPs */
	region = mmap(NULL, (nr_chunks + 2) * CHUNK, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		die("mmap");
	region = (char *)(((uintptr_t)region + CHUNK - 1) & ~(CHUNK - 1));
	spare = region + nr_chunks * CHUNK;
	madvise(region, nr_chunks * CHUNK, MADV_HUGEPAGE);
	generation = calloc(nr_chunks, sizeof(*generation));
	locks = calloc(nr_chunks, sizeof(*locks));
	tids = calloc(threads, sizeof(*tids));
	if (!generation || !locks || !tids)
		die("calloc");

	bind_node(touch_node);
	for (size_t c = 0; c < nr_chunks; c++) {
		pthread_rwlock_init(&locks[c], NULL);
		fill_chunk(c);
	}
	for (long t = 0; t < threads; t++)
		if (pthread_create(&tids[t], NULL, worker, (void *)(uintptr_t)(t + 1)))
			die("pthread_create");
	bind_node(run_node);
	for (end = now() + seconds; now() < end && !atomic_load(&failed);) {
		size_t c = rand_r(&seed) % nr_chunks;

		pthread_rwlock_wrlock(&locks[c]);
		mutate(c, rand_r(&seed) % NR_OPS);
		pthread_rwlock_unlock(&locks[c]);
		usleep(2000);
	}
	atomic_store(&stop, 1);
	for (long t = 0; t < threads; t++)
		pthread_join(tids[t], NULL);
	if (corrupt)
		region[nr_chunks / 2 * CHUNK + 3 * PAGE + 8] ^= 1;
	for (size_t c = 0; c < nr_chunks; c++)
		for (size_t p = 0; p < CHUNK / PAGE; p++)
			check_page(c, p, true);
	printf("mm-stress: done");
	for (int op = 0; op < NR_OPS; op++) {
		printf(" %s=%ld", op_names[op], ops[op]);
		total += ops[op];
	}
	printf(" ops=%ld check=%s\n", total, atomic_load(&failed) ? "FAILED" : "ok");
	return atomic_load(&failed) ? 1 : 0;
}
