// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers of the analysis unit tests: TAP checks, and the markers
 * numa-sample writes, fed to a run model as a synthetic trace.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "synth.h"

int tests, failed;

void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	failed += !cond;
}

void near(double got, double want, const char *what)
{
	ok(fabs(got - want) < 1e-6, "%s: %.3f (want %.3f)", what, got, want);
}

void marker(struct an_run *run, double t, const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	an_marker(run, S(t), text);
}

void start(struct an_run *run, double t)
{
	an_init(run, 90, 256);
	run->min_hold = 0.5;	/* the cases sample every 0.5 or 1 s */
	marker(run, t, "numa-sample: start variant=test nodes=2 cpus=0,0,1,1 root=99");
	marker(run, t, "numa-sample: vmstat when=start numa_pte_updates=100 numa_hint_faults=10 "
	       "numa_hint_faults_local=5 numa_pages_migrated=0");
}

void end(struct an_run *run, double t)
{
	marker(run, t, "numa-sample: vmstat when=end numa_pte_updates=1100 numa_hint_faults=60 "
	       "numa_hint_faults_local=25 numa_pages_migrated=700");
	marker(run, t, "numa-sample: end status=0");
	an_finish(run);
}

void sample(struct an_run *run, double t, int seq, int tgid, const char *threads,
	    unsigned long n0, unsigned long n1)
{
	char list[256];
	int tid, cpu, ticks, off = 0, len;

	snprintf(list, sizeof(list), "%s", threads);
	while (sscanf(list + off, "%d:%d:%d%n", &tid, &cpu, &ticks, &len) == 3) {
		marker(run, t, "numa-sample: cpu seq=%d tgid=%d tid=%d cpu=%d ticks=%d",
		       seq, tgid, tid, cpu, ticks);
		off += len;
		while (list[off] == ' ')
			off++;
	}
	marker(run, t, "numa-sample: mem seq=%d tgid=%d comm=w pages=%lu,%lu", seq, tgid, n0, n1);
}


void fault(struct an_run *run, double t, int pid, int tgid, int cpu, int cpu_nid,
	   unsigned long index, int page_nid, int nr)
{
	an_hinting_fault(run, S(t), &(struct an_fault){
		.pid = pid, .tgid = tgid, .cpu = cpu, .cpu_nid = cpu_nid,
		.index = index, .page_nid = page_nid, .nr = nr });
}
