/* SPDX-License-Identifier: GPL-2.0 */
#ifndef AN_SYNTH_H
#define AN_SYNTH_H

#include "model.h"

#define S(sec)	((unsigned long long)((sec) * 1e9))

extern int tests, failed;

void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void near(double got, double want, const char *what);
/* One numa-sample marker at T seconds. */
void marker(struct an_run *run, double t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 2 nodes, CPUs 0-1 on node 0 and 2-3 on node 1; 1 MiB makes a process count. */
void start(struct an_run *run, double t);
void end(struct an_run *run, double t);
/* One sample of a process: its threads (tid:cpu:ticks) and pages per node. */
void sample(struct an_run *run, double t, int seq, int tgid, const char *threads,
	    unsigned long n0, unsigned long n1);
/* An autonuma_hinting_fault recorded on cpu (of node cpu_nid). */
void fault(struct an_run *run, double t, int pid, int tgid, int cpu, int cpu_nid,
	   unsigned long index, int page_nid, int nr);

#endif
