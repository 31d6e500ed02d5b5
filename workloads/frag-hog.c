// SPDX-License-Identifier: GPL-2.0
/*
 * frag-hog: leave a node free memory but no free 2 MiB block, until told
 * to stop (SIGTERM or SIGINT).
 *
 * Base pages (MADV_NOHUGEPAGE) bound to node -n (mbind) are touched 2 MiB
 * at a time until the node's free memory is down to -f MiB; then every
 * other 4 KiB page is freed (MADV_DONTNEED), so each of those 2 MiB blocks
 * keeps 256 held pages and the buddy allocator cannot merge any into a
 * huge page.  The allocator hands out its smallest free blocks first, so
 * what was left free is mostly whole 2 MiB blocks: THPs bound to the node
 * take them, one at a time, until /proc/buddyinfo shows none free.  Until
 * the hog is stopped it looks again every 100 ms and takes any 2 MiB block
 * that frees pages elsewhere on the node have merged into.  The held pages
 * are mlock()ed: with vm.compact_unevictable_allowed=0 compaction cannot
 * move them away and rebuild free 2 MiB blocks.  Each held page carries
 * its index, checked when the hog stops.
 *
 * usage: frag-hog [-n node] [-f floor-MiB] [-X]
 * (-X corrupts one held page before the check: the check works)
 * Prints, once the node is fragmented (then holds it until the signal):
 *   frag-hog: node=1 touched=420MiB held=210MiB thps=14 free=230MiB free_2m_blocks=0
 * and when stopped "frag-hog: done thps_later=1 check=ok" (THPs taken
 * after the first line); exits 0, or 1 if the check failed.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE		4096UL
#define CHUNK		(2UL << 20)
#define MPOL_BIND	2		/* <linux/mempolicy.h>, without libnuma */
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT	1
#endif

static void die(const char *what)
{
	perror(what);
	exit(2);
}

/* A field of /sys/devices/system/node/nodeN/meminfo, in MiB. */
static long node_meminfo(int node, const char *key)
{
	char path[96], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f)) {
		char *k = strstr(line, key);

		if (k && k[strlen(key)] == ':')
			kb = atol(k + strlen(key) + 1);
	}
	fclose(f);
	return kb / 1024;
}

/* Free blocks of the node in /proc/buddyinfo, counted in 2 MiB (order 9). */
static long free_2m_blocks(int node)
{
	char line[512], zone[32];
	long blocks = 0;
	FILE *f = fopen("/proc/buddyinfo", "r");
	int nid, n;

	if (!f)
		die("/proc/buddyinfo");
	while (fgets(line, sizeof(line), f)) {
		char *p;

		if (sscanf(line, "Node %d, zone %31s %n", &nid, zone, &n) != 2 || nid != node)
			continue;
		p = line + n;
		for (int order = 0; ; order++) {
			char *end;
			long count = strtol(p, &end, 10);

			if (end == p)
				break;
			if (order >= 9)
				blocks += count << (order - 9);
			p = end;
		}
	}
	fclose(f);
	return blocks;
}

int main(int argc, char **argv)
{
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	int node = 1, opt;
	long floor_mib = 32, bad = 0;
	bool corrupt = false;
	size_t reserve, touched = 0, huge_touched = 0, first_thps;
	unsigned long mask;
	sigset_t set;
	char *region, *huge;

	while ((opt = getopt(argc, argv, "n:f:X")) != -1) {
		switch (opt) {
		case 'n': node = atoi(optarg); break;
		case 'f': floor_mib = atol(optarg); break;
		case 'X': corrupt = true; break;
		default:
			fprintf(stderr, "usage: frag-hog [-n node] [-f floor-MiB] [-X]\n");
			return 2;
		}
	}
	if (node < 0 || node > 63 || floor_mib < 1) {
		fprintf(stderr, "frag-hog: bad arguments\n");
		return 2;
	}
	/* signals taken by sigtimedwait() only, from here on */
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);

	reserve = (size_t)node_meminfo(node, "MemTotal") << 20;
	region = mmap(NULL, reserve, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	/* 2 MiB aligned, so that each chunk can be a THP */
	huge = mmap(NULL, reserve + CHUNK, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (region == MAP_FAILED || huge == MAP_FAILED)
		die("mmap");
	huge = (char *)(((uintptr_t)huge + CHUNK - 1) & ~(CHUNK - 1));
	mask = 1UL << node;
	if (madvise(region, reserve, MADV_NOHUGEPAGE) ||
	    syscall(SYS_mbind, region, reserve, MPOL_BIND, &mask, 64, 0) ||
	    syscall(SYS_mbind, huge, reserve, MPOL_BIND, &mask, 64, 0) ||
	    syscall(SYS_mlock2, huge, reserve, MLOCK_ONFAULT))
		die("madvise/mbind/mlock2");
	while (touched + CHUNK <= reserve && node_meminfo(node, "MemFree") > floor_mib) {
		for (size_t p = touched; p < touched + CHUNK; p += PAGE)
			*(uint64_t *)(region + p) = p / PAGE;
		touched += CHUNK;
	}
	for (size_t p = PAGE; p < touched; p += 2 * PAGE)
		if (madvise(region + p, PAGE, MADV_DONTNEED))
			die("madvise(MADV_DONTNEED)");
	/* the free blocks left: THP faults take a whole one each (or fall
	 * back to a base page when none is left: hence one at a time) */
	while (huge_touched + CHUNK <= reserve && free_2m_blocks(node) > 0) {
		*(uint64_t *)(huge + huge_touched) = huge_touched / PAGE;
		huge_touched += CHUNK;
	}
	/* after MADV_DONTNEED, which mlock()ed memory refuses */
	if (touched && syscall(SYS_mlock2, region, touched, MLOCK_ONFAULT))
		die("mlock2");
	printf("frag-hog: node=%d touched=%zuMiB held=%zuMiB thps=%zu free=%ldMiB free_2m_blocks=%ld\n",
	       node, touched >> 20, touched >> 21, huge_touched / CHUNK,
	       node_meminfo(node, "MemFree"), free_2m_blocks(node));
	fflush(stdout);

	first_thps = huge_touched / CHUNK;
	while (sigtimedwait(&set, NULL, &tick) < 0)
		while (huge_touched + CHUNK <= reserve && free_2m_blocks(node) > 0) {
			*(uint64_t *)(huge + huge_touched) = huge_touched / PAGE;
			huge_touched += CHUNK;
		}
	if (corrupt && touched)
		*(uint64_t *)(region + touched / 2 / (2 * PAGE) * (2 * PAGE)) ^= 1;
	for (size_t p = 0; p < touched; p += 2 * PAGE)
		if (*(uint64_t *)(region + p) != p / PAGE && !bad++)
			fprintf(stderr, "frag-hog: held page %zu reads %#lx\n", p / PAGE,
				(unsigned long)*(uint64_t *)(region + p));
	for (size_t p = 0; p < huge_touched; p += CHUNK)
		if (*(uint64_t *)(huge + p) != p / PAGE && !bad++)
			fprintf(stderr, "frag-hog: THP at %zu MiB reads %#lx\n", p >> 20,
				(unsigned long)*(uint64_t *)(huge + p));
	printf("frag-hog: done thps_later=%zu check=%s\n", huge_touched / CHUNK - first_thps,
	       bad ? "FAILED" : "ok");
	return bad ? 1 : 0;
}
