// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the run model on synthetic event streams: each case feeds
 * the markers numa-sample writes and the events the kernel records, then
 * checks convergence, validity and cost.  TAP output.
 */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "synth.h"

/* Exactly the threshold's share of pages on the node counts. */
static void test_threshold(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 900, 100);
	sample(&run, 2, 2, 100, "101:0:20", 900, 100);
	end(&run, 3);
	near(run.convergence, 1.0, "90% of its pages at -t 90: converged");
	an_free(&run);
}

static void test_known_convergence(void)
{
	struct an_run run;

	/* memory moves from node 0 to node 1, where the only thread runs */
	start(&run, 1.0);
	sample(&run, 1.5, 1, 100, "101:2:10", 1000, 0);
	sample(&run, 2.0, 2, 100, "101:2:20", 600, 400);
	sample(&run, 2.5, 3, 100, "101:3:30", 200, 800);
	sample(&run, 3.0, 4, 100, "101:3:40", 90, 910);
	sample(&run, 3.5, 5, 100, "101:2:50", 0, 1000);
	end(&run, 4.0);
	ok(an_valid(&run), "known convergence: valid");
	near(run.convergence, 2.0, "converged 2 s after start (3.0 - 1.0)");
	ok(run.procs[0].nr_points == 5 && !run.procs[0].points[2].converged &&
	   run.procs[0].points[3].converged && run.procs[0].points[4].converged,
	   "each sample says whether the condition held there");
	ok(run.slowest == 100, "slowest process is 100");
	near(run.procs[0].locality, 100, "final locality");
	ok(run.cost.vm.pte_updates == 1000 && run.cost.vm.hint_faults == 50 &&
	   run.cost.vm.pages_migrated == 700, "vmstat deltas over the run");
	an_free(&run);
}

static void test_never(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 500, 500);
	sample(&run, 2, 2, 100, "101:0:20", 500, 500);
	end(&run, 3);
	ok(run.convergence == AN_NEVER, "half the memory remote: never converges");
	ok(run.procs[0].convergence == AN_NEVER, "the process is reported as never");
	near(run.procs[0].locality, 50, "locality 50%");
	an_free(&run);
}

/*
 * A process that frees most of its memory before it exits (perf bench numa
 * unmaps its data) is measured up to its previous sample: its teardown's
 * remainder, on any node, does not undo its convergence.
 */
static void test_teardown(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 1000, 0);
	sample(&run, 2, 2, 100, "101:2:20", 50, 950);
	sample(&run, 3, 3, 100, "101:2:30", 50, 950);
	sample(&run, 4, 4, 100, "101:2:40", 50, 950);
	sample(&run, 5, 5, 100, "101:0:50", 40, 10);	/* 50 pages of 1000 left */
	sample(&run, 6, 6, 100, "101:0:60", 500, 500);	/* measured no more */
	end(&run, 7);
	near(run.convergence, 2.0, "teardown: converged at 2 s, held until it freed its memory");
	near(run.procs[0].locality, 95, "teardown: locality of its last sample before it");
	an_free(&run);
	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 1000, 0);
	sample(&run, 2, 2, 100, "101:2:20", 50, 950);
	sample(&run, 3, 3, 100, "101:0:30", 300, 300);	/* 60% of its peak: measured */
	end(&run, 4);
	ok(run.convergence == AN_NEVER, "a process keeping half its memory is measured to its end");
	an_free(&run);
}

static void test_slowest_and_never(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);	/* converged from 1 s */
	sample(&run, 1, 1, 200, "201:2:10", 1000, 0);	/* remote */
	sample(&run, 2, 2, 100, "101:0:20", 1000, 0);
	sample(&run, 2, 2, 200, "201:2:20", 50, 950);	/* converged from 2 s */
	sample(&run, 3, 3, 100, "101:0:30", 1000, 0);
	sample(&run, 3, 3, 200, "201:2:30", 50, 950);
	end(&run, 4);
	near(run.convergence, 2.0, "run converges when the slowest process does");
	ok(run.slowest == 200, "slowest is 200");
	an_free(&run);

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	sample(&run, 1, 1, 200, "201:2:10", 1000, 0);
	end(&run, 3);
	ok(run.convergence == AN_NEVER, "one process never converges: the run never does");
	an_free(&run);
}

static void test_thread_moves(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 0, 1000);
	an_thread_migrate(&run, S(1.5), 101, 0);	/* an excursion between samples */
	an_thread_migrate(&run, S(1.6), 101, 2);
	an_thread_migrate(&run, S(1.7), 555, 0);	/* not the workload's */
	sample(&run, 2, 2, 100, "101:0:20", 0, 1000);	/* seen away at a sample */
	sample(&run, 3, 3, 100, "101:3:30", 0, 1000);
	sample(&run, 4, 4, 100, "101:2:40", 0, 1000);
	end(&run, 5);
	near(run.convergence, 3.0, "a thread seen on another node at a sample restarts the clock");
	ok(run.cost.thread_migrations == 2, "2 migrations of the workload's threads counted (%lu)",
	   run.cost.thread_migrations);
	an_free(&run);
}

static void test_idle_thread_ignored(void)
{
	struct an_run run;

	/* thread 100 (a reporter) sleeps on node 0; the worker runs on node 1 */
	start(&run, 0);
	sample(&run, 1, 1, 100, "100:0:0 101:2:50", 0, 1000);
	sample(&run, 2, 2, 100, "100:0:0 101:2:100", 0, 1000);
	end(&run, 3);
	near(run.convergence, 1.0, "a thread that used no CPU time does not count");
	an_free(&run);

	/* a reporter using a little CPU time on node 0 does not count either */
	start(&run, 0);
	sample(&run, 1, 1, 100, "100:0:0 101:2:50", 0, 1000);
	sample(&run, 2, 2, 100, "100:0:10 101:2:100", 0, 1000);
	end(&run, 3);
	near(run.convergence, 1.0, "a thread with under 1/4 of the busiest's CPU time does not count");
	near(run.procs[0].locality, 100.0 * 50 / 60, "but locality is weighted by CPU time");
	an_free(&run);

	start(&run, 0);
	sample(&run, 1, 1, 100, "100:0:1 101:2:50", 0, 1000);
	sample(&run, 2, 2, 100, "100:0:30 101:2:100", 0, 1000);
	end(&run, 3);
	ok(run.convergence == AN_NEVER, "the same thread working on node 0: not converged");
	near(run.procs[0].locality, 100.0 * 50 / 79, "locality weighted by CPU time");
	an_free(&run);
}

/*
 * stream's main thread reports once a second; in one 0.2 s interval its
 * report took 3 ticks while its starved workers got 12.  Busy is judged
 * over the last second: 3 ticks against their 72 or more.
 */
static void test_reporter_in_a_short_interval(void)
{
	struct an_run run;
	char threads[64];

	start(&run, 0);
	for (int i = 1; i <= 10; i++) {
		int main_ticks = i >= 4 ? 3 : 0, work = 20 * i - (i >= 4 ? 8 : 0);

		snprintf(threads, sizeof(threads), "100:0:%d 101:2:%d 102:3:%d",
			 main_ticks, work, work);
		sample(&run, 0.2 * i, i, 100, threads, 0, 1000);
	}
	end(&run, 2.2);
	near(run.convergence, 0.2, "a reporter's burst in a short interval: still converged");
	an_free(&run);
}

static void test_workload_start(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);	/* local before the start */
	marker(&run, 2, "autonuma-workload-start");
	sample(&run, 3, 2, 100, "101:0:20", 1000, 0);
	end(&run, 4);
	near(run.convergence, 0, "converged before the workload's start marker: 0 s");
	near(an_duration(&run), 2.0, "duration from the workload's start");
	an_free(&run);

	start(&run, 0);
	marker(&run, 1, "autonuma-workload-start");
	sample(&run, 2, 1, 100, "101:2:10", 1000, 0);	/* remote */
	marker(&run, 3, "autonuma-workload-stop");
	sample(&run, 4, 2, 100, "101:0:20", 1000, 0);	/* after the stop: its check */
	sample(&run, 5, 3, 100, "101:0:30", 1000, 0);
	end(&run, 6);
	ok(run.convergence == AN_NEVER, "samples after the workload's stop marker are ignored");
	near(an_duration(&run), 2.0, "duration up to the stop marker");
	an_free(&run);

	start(&run, 0);
	marker(&run, 1, "autonuma-workload-start");
	sample(&run, 2, 1, 100, "101:0:10", 1000, 0);
	sample(&run, 3, 2, 100, "101:0:20", 1000, 0);
	marker(&run, 3.5, "autonuma-workload-stop");	/* one process stops */
	sample(&run, 4, 3, 100, "101:2:30", 1000, 0);	/* the others' load changes */
	marker(&run, 4.5, "autonuma-workload-stop");	/* the last one stops */
	end(&run, 5);
	near(run.convergence, 1.0, "the first of several stop markers ends the run");
	near(an_duration(&run), 2.5, "duration up to the first stop marker");
	an_free(&run);

	/* the workload's start marker may come before numa-sample's start */
	an_init(&run, 90, 256);
	run.min_hold = 0.5;
	marker(&run, 0.5, "autonuma-workload-start");
	marker(&run, 1, "numa-sample: start variant=test nodes=2 cpus=0,0,1,1 root=99");
	marker(&run, 1, "numa-sample: vmstat when=start numa_pte_updates=100 numa_hint_faults=10 "
	       "numa_hint_faults_local=5 numa_pages_migrated=0");
	sample(&run, 2, 1, 100, "101:0:10", 1000, 0);
	sample(&run, 3, 2, 100, "101:0:20", 1000, 0);
	end(&run, 4);
	near(run.convergence, 1.5, "times from the workload's start, which came first");
	an_free(&run);
}

static void test_exited_thread(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10 102:2:10", 0, 1000);
	sample(&run, 2, 2, 100, "102:2:20", 0, 1000);	/* 101 exited */
	sample(&run, 3, 3, 100, "102:2:30", 0, 1000);
	end(&run, 4);
	near(run.convergence, 2.0, "a thread missing from a sample has exited");
	ok(run.procs[0].nr_threads == 1, "one thread left");
	an_free(&run);
}

static void test_small_process_ignored(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	sample(&run, 1, 1, 300, "301:0:10", 0, 10);	/* 40 KiB, remote, never */
	sample(&run, 2, 2, 100, "101:0:20", 1000, 0);
	end(&run, 3);
	near(run.convergence, 1, "processes under the size limit are left out");
	an_free(&run);

	/* a parent that waits: its thread uses under 10% of a CPU, remote */
	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	sample(&run, 1, 1, 400, "401:2:1", 1000, 0);
	sample(&run, 2, 2, 100, "101:0:110", 1000, 0);
	sample(&run, 2, 2, 400, "401:2:2", 1000, 0);
	sample(&run, 3, 3, 100, "101:0:210", 1000, 0);
	sample(&run, 3, 3, 400, "401:2:3", 1000, 0);
	end(&run, 4);
	near(run.convergence, 1, "idle processes (2 ticks in 2 s) are left out");
	ok(!an_reported(&run, &run.procs[1]) && an_reported(&run, &run.procs[0]),
	   "the idle one is not reported, the working one is");
	an_free(&run);
}

static void test_lost_events(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	an_lost(&run, S(1.5), 42);
	end(&run, 2);
	ok(!an_valid(&run) && run.lost == 42, "lost events make the run invalid");
	ok(!strcmp(an_invalid_reason(&run), "42 events lost, the first at 1.5 s: the counts are short "
		   "from there, a convergence before it stands"), "... saying how many, from when (%s)",
	   an_invalid_reason(&run));
	an_free(&run);

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	an_lost(&run, S(1.5), 0);
	end(&run, 2);
	ok(!an_valid(&run) && run.lost == 1 && !strncmp(an_invalid_reason(&run), "at least 1 events lost", 22),
	   "events lost, count unknown: invalid all the same, at least one");
	an_free(&run);

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	an_finish(&run);
	ok(!an_valid(&run), "a trace that ends before the workload is invalid");
	an_free(&run);
}

static void test_bad_markers(void)
{
	static const char *const bad[] = {
		"numa-sample: cpu seq=2 tgid=100 tid=101 cpu=4 ticks=1",	/* no CPU 4 */
		"numa-sample: cpu seq=2 tgid=100 tid=101 cpu=-1 ticks=1",
		"numa-sample: cpu seq=2 tgid=100 tid=101 cpu=1x ticks=1",
		"numa-sample: mem seq=2 tgid=100 comm=w pages=1,2,3",		/* 3 nodes */
		"numa-sample: mem seq=2 tgid=100 comm=w pages=1,,2",
		"numa-sample: mem seq=2 tgid=0 comm=w pages=1,2",
		"numa-sample: vmstat when=later numa_pte_updates=1",
		"numa-sample: start variant=x nodes=2 cpus=0,1",		/* a second start */
		"numa-sample: bogus",
		"numa-sample: ",
		"numa-sample: end status=-3",
	};
	struct an_run run;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		start(&run, 0);
		sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
		marker(&run, 1.5, "%s", bad[i]);
		end(&run, 2);
		ok(run.error[0] && !an_valid(&run) && run.procs[0].nr_threads == 1 &&
		   run.procs[0].pages[0] == 1000, "rejected, state unchanged: %s", bad[i]);
		an_free(&run);
	}

	an_init(&run, 90, 256);
	marker(&run, 0, "numa-sample: start variant=x nodes=2 cpus=0,2");
	ok(run.error[0] && !run.started, "start with a CPU on node 2 of 2 rejected");
	marker(&run, 0, "numa-sample: mem seq=1 tgid=100 comm=w pages=1,2");
	ok(run.nr_procs == 0, "lines before a valid start are ignored");
	marker(&run, 0, "someone else's marker");
	an_free(&run);
}

/* A hinting fault of (tgid, index) on page_nid, for the page's history. */
static void page_fault(struct an_run *run, double t, int tgid, unsigned long index,
		       int page_nid, int nr)
{
	fault(run, t, tgid, tgid, 0, 0, index, page_nid, nr);
}

static void test_pingpong(void)
{
	struct an_run run;

	start(&run, 0);
	page_fault(&run, 1, 100, 0x10, 0, 512);
	page_fault(&run, 2, 100, 0x10, 1, 512);	/* moved */
	page_fault(&run, 3, 100, 0x10, 0, 512);	/* back: ping-pong */
	page_fault(&run, 4, 100, 0x10, 1, 512);	/* counted once */
	page_fault(&run, 1, 100, 0x20, 0, 1);
	page_fault(&run, 2, 100, 0x20, 1, 1);		/* moved once */
	page_fault(&run, 1, 200, 0x10, 1, 1);		/* another process */
	for (unsigned long i = 0; i < 5000; i++)		/* grow the table */
		page_fault(&run, 5, 300, i, i & 1, 1);
	page_fault(&run, 6, 100, 0x20, 1, 1);
	page_fault(&run, 6, 200, 0x10, 0, 1);
	end(&run, 7);
	ok(run.cost.pingpong_pages == 512, "ping-pong pages: %lu (want 512)", run.cost.pingpong_pages);
	ok(run.cost.hinting_faults == 5009, "hinting faults counted: %lu", run.cost.hinting_faults);
	an_free(&run);
}

static void test_cost_events(void)
{
	struct an_run run;

	start(&run, 0);
	an_scan(&run, S(1), 0, 1024, 5000);
	an_scan(&run, S(2), 0, 1024, 7000);
	an_page_queue(&run, S(1), true);
	an_page_queue(&run, S(1), true);
	an_page_queue(&run, S(1), false);
	an_migrate_batch(&run, S(2), &(struct an_batch){ .entries = 3,
		.dropped = { [AN_DQ_CANCELLED] = 1, [AN_DQ_GONE] = 1 },
		.isolated = 503, .succeeded = 500, .failed = 3, .ns = 100000 });
	an_balance(&run, S(2), 2000, 2);
	an_balance(&run, S(3), 4000, 4);
	an_placement(&run, S(3));
	an_task_moved(&run, S(3), 0, 0, true);
	an_task_moved(&run, S(3), 0, 1, false);
	an_task_moved(&run, S(3.05), 1, 0, true);	/* onto CPU 0 again, 50 ms later */
	an_task_moved(&run, S(3.5), 2, 0, true);	/* ... and 450 ms after that */
	an_task_moved(&run, S(3.55), 3, 1, true);	/* another CPU */
	an_upstream_move(&run, S(3));
	end(&run, 4);
	ok(run.cost.task_moves == 4 && run.cost.herd_moves == 1,
	   "a second move onto one CPU within 100 ms is a herd move (%lu of %lu)",
	   run.cost.herd_moves, run.cost.task_moves);
	ok(run.cost.balance_cpus == 6 && run.cost.balance_cpus_max == 4,
	   "CPUs examined: total and the most in one pass");
	ok(run.cost.scan_pages == 2048 && run.cost.scan_ns == 12000, "scan totals");
	ok(run.cost.migrated == 500 && run.cost.migrate_failed == 3,
	   "migration totals");
	ok(run.cost.ledger.queued == 2 && run.cost.ledger.refused == 1 &&
	   an_ledger_dequeued(&run.cost.ledger) == 3 && run.cost.ledger.isolated == 503, "queue ledger");
	ok(run.cost.ledger.dequeued[AN_DQ_ISOLATED] == 1 && run.cost.ledger.dequeued[AN_DQ_CANCELLED] == 1 &&
	   run.cost.ledger.dequeued[AN_DQ_GONE] == 1 && run.cost.ledger.dequeued[AN_DQ_FLUSHED] == 0,
	   "dequeues counted by reason, the isolated ones as the rest");
	ok(!run.error[0], "consistent batches: no complaint");
	an_migrate_batch(&run, S(3), &(struct an_batch){ .entries = 1,
		.dropped = { [AN_DQ_BUSY] = 2 } });
	ok(an_invalid_reason(&run) && strstr(an_invalid_reason(&run), "do not add up") &&
	   an_ledger_dequeued(&run.cost.ledger) == 3,
	   "a batch dropping more entries than it took: invalid, not counted");
	run.error[0] = 0;
	an_migrate_batch(&run, S(3), &(struct an_batch){ .entries = 1, .isolated = 512,
		.succeeded = 500, .failed = 1 });
	ok(run.error[0] && run.cost.ledger.isolated == 503,
	   "a batch whose migrated + failed are not its isolated pages: invalid, not counted");
	run.error[0] = 0;
	an_fault_isolated(&run, S(3), 1);
	an_fault_isolated(&run, S(3), 1);
	an_fault_migrate(&run, S(3), 2, 1, 1, 3000);
	ok(!run.error[0] && run.cost.fault.by_faults == 2 && run.cost.fault.isolated == 2 &&
	   run.cost.fault.succeeded == 1 && run.cost.fault.failed == 1 && run.cost.fault.ns == 3000 &&
	   run.cost.migrated == 500 && run.cost.ledger.isolated == 503,
	   "migrate_on_fault: a ledger of its own, apart from knuma_migrated's");
	an_fault_migrate(&run, S(3), 3, 1, 1, 0);
	ok(run.error[0] && strstr(run.error, "autonuma_fault_migrate") && run.cost.fault.isolated == 2,
	   "a fault migration whose migrated + failed are not its isolated pages: invalid, not counted");
	run.error[0] = 0;
	an_detail_queue(&run, S(3), true);
	an_detail_queue(&run, S(3), false);
	an_detail_dequeue(&run, S(3), 512, "isolated");
	an_detail_dequeue(&run, S(3), 0, "busy");
	ok(run.cost.detail.queued == 1 && run.cost.detail.refused == 1 &&
	   run.cost.detail.dequeued[AN_DQ_ISOLATED] == 1 && run.cost.detail.dequeued[AN_DQ_BUSY] == 1 &&
	   run.cost.detail.isolated == 512 && run.cost.ledger.queued == 2,
	   "per-page events: a ledger of their own");
	ok(run.cost.balance_passes == 2 && run.cost.balance_ns == 6000 && run.cost.balance_cpus == 6,
	   "balance totals");
	ok(run.cost.placements == 1 && run.cost.task_moves == 4 && run.cost.upstream_moves == 1,
	   "placement totals");
	an_free(&run);
}

/* Converged only at the last sample, or not for min_hold: not converged. */
static void test_hold(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 1000, 0);
	sample(&run, 2, 2, 100, "101:2:20", 1000, 0);
	sample(&run, 3, 3, 100, "101:2:30", 0, 1000);	/* only at the last sample */
	end(&run, 4);
	ok(run.convergence == AN_NEVER, "converged only at the last sample: never");
	an_free(&run);

	start(&run, 0);
	run.min_hold = 2;
	sample(&run, 1, 1, 100, "101:2:10", 0, 1000);
	sample(&run, 2, 2, 100, "101:2:20", 0, 1000);
	sample(&run, 3, 3, 100, "101:2:30", 0, 1000);
	end(&run, 4);
	near(run.convergence, 1, "held 2 s (1 to 3): converged at 1 s");
	an_free(&run);

	start(&run, 0);
	run.min_hold = 2.5;
	sample(&run, 1, 1, 100, "101:2:10", 0, 1000);
	sample(&run, 2, 2, 100, "101:2:20", 0, 1000);
	sample(&run, 3, 3, 100, "101:2:30", 0, 1000);
	end(&run, 4);
	ok(run.convergence == AN_NEVER, "held 2 s of the 2.5 asked: never");
	an_free(&run);
}

/* Runs whose numbers cannot be trusted say why. */
static void test_invalid_runs(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 0, 10);	/* too small to report */
	end(&run, 2);
	ok(!an_valid(&run) && strstr(an_invalid_reason(&run), "no process"),
	   "no process reported: invalid (%s)", an_invalid_reason(&run));
	an_free(&run);

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	sample(&run, 2, 2, 100, "101:0:20", 1000, 0);
	marker(&run, 3, "numa-sample: vmstat when=end numa_pte_updates=50 numa_hint_faults=60 "
	       "numa_hint_faults_local=25 numa_pages_migrated=700");
	marker(&run, 3, "numa-sample: end status=0");
	an_finish(&run);
	ok(!an_valid(&run) && strstr(an_invalid_reason(&run), "numa_pte_updates went down"),
	   "a counter lower at the end than at the start: invalid (%s)", an_invalid_reason(&run));
	ok(run.cost.vm.pte_updates == 0, "and its delta is 0, not a wrapped number (%lu)",
	   run.cost.vm.pte_updates);
	an_free(&run);

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	sample(&run, 2, 2, 100, "101:0:20", 1000, 0);
	marker(&run, 3, "numa-sample: end status=0");
	an_finish(&run);
	ok(!an_valid(&run) && strstr(an_invalid_reason(&run), "no vmstat end"),
	   "no vmstat end line: invalid (%s)", an_invalid_reason(&run));
	an_free(&run);
}

/*
 * Lines of two samples interleaved, as a per-CPU trace clock can sort
 * them: the run is invalid, not silently missing samples.
 */
static void test_out_of_sequence(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 0, 1000);
	marker(&run, 2, "numa-sample: cpu seq=3 tgid=100 tid=101 cpu=2 ticks=30");
	marker(&run, 2.001, "numa-sample: cpu seq=2 tgid=100 tid=101 cpu=2 ticks=20");
	marker(&run, 2.002, "numa-sample: mem seq=2 tgid=100 comm=w pages=0,1000");
	marker(&run, 2.003, "numa-sample: mem seq=3 tgid=100 comm=w pages=0,1000");
	end(&run, 4);
	ok(!an_valid(&run) && strstr(an_invalid_reason(&run), "per-CPU trace clock"),
	   "a cpu line of sample 3 before sample 2's mem line: invalid (%s)",
	   an_invalid_reason(&run));
	an_free(&run);

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 0, 1000);
	sample(&run, 2, 2, 100, "101:2:20", 0, 1000);
	marker(&run, 2.5, "numa-sample: mem seq=2 tgid=100 comm=w pages=0,1000");
	end(&run, 4);
	ok(!an_valid(&run) && strstr(an_invalid_reason(&run), "out of sequence"),
	   "a sample's mem line twice: invalid (%s)", an_invalid_reason(&run));
	an_free(&run);

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 0, 1000);
	sample(&run, 2, 2, 100, "101:2:20", 0, 1000);
	marker(&run, 2.5, "numa-sample: cpu seq=2 tgid=100 tid=102 cpu=0 ticks=5");
	end(&run, 4);
	ok(!an_valid(&run) && strstr(an_invalid_reason(&run), "already complete"),
	   "a thread's cpu line after its sample's mem line: invalid (%s)",
	   an_invalid_reason(&run));
	an_free(&run);
}

/* stream's lines in the trace: the lowest local= is kept. */
static void test_stream_done(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	sample(&run, 2, 2, 100, "101:0:20", 1000, 0);
	marker(&run, 2.5, "stream: done proc=0 pid=100 iters=5 check=ok nodes=99.0,1.0 local=97.5");
	marker(&run, 2.5, "stream: done proc=1 pid=200 iters=5 check=ok nodes=60.0,40.0 local=61.0");
	marker(&run, 2.5, "stream: done proc=2 pid=300 iters=5 check=ok nodes=50.0,50.0");
	end(&run, 3);
	ok(run.stream_procs == 2 && run.stream_local == 61.0 && an_valid(&run),
	   "two stream processes with local=, the lowest 61.0 (%d, %.1f)", run.stream_procs,
	   run.stream_local);
	an_free(&run);

	start(&run, 0);
	marker(&run, 0.5, "stream: done proc=0 pid=100 iters=5 check=ok local=1e9");
	ok(run.error[0] && strstr(run.error, "malformed stream done"), "local=1e9 is bad input");
	an_free(&run);

	/*
	 * A process's last interval line before the first stop counts, not
	 * what CFS made of it after another process freed its CPUs.
	 */
	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);
	marker(&run, 1.9, "stream: t=1.0 proc=0 pid=100 mbs=9 nodes=100.0,0.0 local=90.0 cpus=0");
	marker(&run, 2.0, "stream: t=2.0 proc=0 pid=100 mbs=9 nodes=100.0,0.0 local=100.0 cpus=0");
	marker(&run, 2.1, "stream: t=2.0 proc=1 pid=200 mbs=9 nodes=0.0,100.0 local=99.0 cpus=2");
	marker(&run, 2.2, "autonuma-workload-stop");
	marker(&run, 2.4, "stream: t=2.5 proc=0 pid=100 mbs=9 nodes=100.0,0.0 local=50.0 cpus=2");
	marker(&run, 2.5, "stream: done proc=0 pid=100 iters=5 check=ok nodes=100.0,0.0 local=50.0");
	marker(&run, 2.5, "stream: done proc=1 pid=200 iters=5 check=ok nodes=0.0,100.0 local=40.0");
	end(&run, 3);
	ok(run.stream_procs == 2 && run.stream_local == 99.0 && an_valid(&run),
	   "interval lines before the stop count, not the done lines (%d, %.1f)",
	   run.stream_procs, run.stream_local);
	an_free(&run);

	start(&run, 0);
	marker(&run, 0.5, "stream: t=0.5 proc=0 pid=100 mbs=9 local=50.0 cpus=0");
	marker(&run, 0.6, "stream: t=0.6 proc=0 mbs=9 local=50.0 cpus=0");
	ok(run.error[0] && strstr(run.error, "malformed stream line"), "an interval line without pid is bad input");
	an_free(&run);
}

/* knuma_scand's count of tgid's pages per node (2 nodes), at t. */
static void mm_stats(struct an_run *run, double t, int tgid, unsigned long n0, unsigned long n1)
{
	an_mm_stats(run, S(t), tgid, (unsigned long[]){ n0, n1 }, 2);
}

/* Without numa-sample: each knuma_scand pass samples the process. */
static void test_kernel_mode(void)
{
	struct an_run run;

	an_init(&run, 90, 256);
	run.min_hold = 0.5;
	fault(&run, 1, 101, 100, 2, 1, 0x1, 0, 512);	/* thread 101 on CPU 2, node 1 */
	fault(&run, 1.1, 102, 100, 3, 1, 0x2, 0, 512);
	mm_stats(&run, 2, 100, 1000, 0);		/* its memory on node 0 */
	fault(&run, 2.5, 101, 100, 2, 1, 0x1, 1, 512);
	fault(&run, 2.6, 102, 100, 3, 1, 0x2, 1, 512);
	mm_stats(&run, 3, 100, 50, 950);		/* moved: 95% on node 1 */
	fault(&run, 3.5, 101, 100, 2, 1, 0x1, 1, 512);
	mm_stats(&run, 4, 100, 0, 1000);
	an_finish(&run);
	ok(run.kernel_mode && an_valid(&run), "no numa-sample: kernel mode, valid (%s)",
	   an_invalid_reason(&run) ? an_invalid_reason(&run) : "");
	near(run.convergence, 2.0, "converged at the pass at 3 s, 2 s after the first event");
	near(run.procs[0].locality, 100, "final locality from the last pass");
	an_free(&run);

	/* the busy thread runs on node 0: the pages on node 1 are not its */
	an_init(&run, 90, 256);
	run.min_hold = 0.5;
	fault(&run, 1, 201, 200, 0, 0, 0x1, 0, 1);	/* learns CPU 0 is on node 0 */
	fault(&run, 1, 101, 100, 2, 1, 0x1, 0, 512);
	mm_stats(&run, 2, 100, 0, 1000);
	an_task_moved(&run, S(2.2), 101, 0, true);	/* AutoNUMA moved it to CPU 0 */
	fault(&run, 2.5, 101, 100, 0, 0, 0x1, 1, 512);
	mm_stats(&run, 3, 100, 0, 1000);
	fault(&run, 3.5, 101, 100, 0, 0, 0x1, 1, 512);
	mm_stats(&run, 4, 100, 0, 1000);
	an_finish(&run);
	ok(run.convergence == AN_NEVER, "its thread moved to node 0, its memory on node 1: never");
	ok(run.cost.task_moves == 1, "the move is counted");
	an_free(&run);

	/* threads weigh by their fault pages: a 1-page thread under a quarter */
	an_init(&run, 90, 256);
	run.min_hold = 0.5;
	fault(&run, 1, 101, 100, 2, 1, 0x1, 1, 512);
	fault(&run, 1, 102, 100, 0, 0, 0x2, 1, 1);	/* 102 on node 0, one page */
	mm_stats(&run, 2, 100, 0, 1000);
	fault(&run, 2.5, 101, 100, 2, 1, 0x1, 1, 512);
	fault(&run, 2.5, 102, 100, 0, 0, 0x2, 1, 1);
	mm_stats(&run, 3, 100, 0, 1000);
	an_finish(&run);
	near(run.convergence, 1.0, "a thread with 1 of 513 fault pages does not decide");
	near(run.procs[0].access, 100.0 * 512 / 513, "accesses local: 512 of 513 pages");
	an_free(&run);

	/* a thread that took no fault in the pass does not decide */
	an_init(&run, 90, 256);
	run.min_hold = 0.5;
	fault(&run, 1, 101, 100, 2, 1, 0x1, 1, 512);
	fault(&run, 1, 102, 100, 0, 0, 0x2, 1, 512);	/* 102 on node 0, once */
	mm_stats(&run, 2, 100, 0, 1000);
	fault(&run, 2.5, 101, 100, 2, 1, 0x1, 1, 512);
	mm_stats(&run, 3, 100, 0, 1000);
	fault(&run, 3.5, 101, 100, 2, 1, 0x1, 1, 512);
	mm_stats(&run, 4, 100, 0, 1000);
	an_finish(&run);
	near(run.convergence, 2.0, "the thread idle on node 0 stops counting after its pass");
	an_free(&run);

	/* a last pass in which no thread faulted (the process exiting) */
	an_init(&run, 90, 256);
	run.min_hold = 0.5;
	fault(&run, 1, 100, 100, 0, 0, 0x2, 0, 1);	/* main thread, node 0, once */
	fault(&run, 1, 101, 100, 2, 1, 0x1, 1, 512);
	mm_stats(&run, 2, 100, 0, 1000);
	fault(&run, 2.5, 101, 100, 2, 1, 0x1, 1, 512);
	mm_stats(&run, 3, 100, 0, 1000);
	mm_stats(&run, 4, 100, 0, 1000);		/* no fault since the last pass */
	an_finish(&run);
	near(run.convergence, 1.0, "a pass without faults weighs the threads as the last one did");
	an_free(&run);

	/* numa-sample's start discards the kernel's samples taken before it */
	an_init(&run, 90, 256);
	run.min_hold = 0.5;
	fault(&run, 0.1, 101, 100, 2, 1, 0x1, 0, 512);
	mm_stats(&run, 0.2, 100, 0, 1000);
	marker(&run, 1, "numa-sample: start variant=test nodes=2 cpus=0,0,1,1 root=99");
	marker(&run, 1, "numa-sample: vmstat when=start numa_pte_updates=100 numa_hint_faults=10 "
	       "numa_hint_faults_local=5 numa_pages_migrated=0");
	sample(&run, 2, 1, 100, "101:0:10", 1000, 0);
	mm_stats(&run, 2.5, 100, 0, 1000);		/* ignored: numa-sample measures */
	sample(&run, 3, 2, 100, "101:0:20", 1000, 0);
	end(&run, 4);
	ok(!run.kernel_mode && an_valid(&run), "numa-sample after kernel samples: its mode");
	near(run.convergence, 1.0, "measured by numa-sample from its start");
	an_free(&run);

	/* -K: the same trace measured by the kernel's events, from the workload's start */
	an_init(&run, 90, 256);
	run.min_hold = 0.5;
	run.measure_kernel = true;
	fault(&run, 0.5, 101, 100, 2, 1, 0x1, 0, 512);	/* before the start */
	marker(&run, 1, "numa-sample: start variant=test nodes=2 cpus=0,0,1,1 root=99");
	marker(&run, 1, "numa-sample: vmstat when=start numa_pte_updates=100 numa_hint_faults=10 "
	       "numa_hint_faults_local=5 numa_pages_migrated=0");
	fault(&run, 1.5, 101, 100, 2, 1, 0x1, 1, 512);
	sample(&run, 2, 1, 100, "101:2:10", 1000, 0);	/* ignored under -K */
	mm_stats(&run, 2.5, 100, 0, 1000);
	fault(&run, 3, 101, 100, 2, 1, 0x1, 1, 512);
	mm_stats(&run, 3.5, 100, 0, 1000);
	end(&run, 4);
	ok(run.kernel_mode && an_valid(&run), "-K: kernel mode though numa-sample ran, valid");
	near(run.convergence, 1.5, "-K: converged at the pass at 2.5 s, from the start at 1 s");
	an_free(&run);

	/* an mm without a recorded owner (tgid 0) is not a process to report */
	an_init(&run, 90, 256);
	mm_stats(&run, 1, 0, 0, 1000);
	an_finish(&run);
	ok(!run.error[0] && run.nr_procs == 0, "autonuma_mm_stats of tgid 0: ignored, not an error");
	an_mm_stats(&run, S(2), 100, (unsigned long[]){ 1 }, 65);
	ok(strstr(run.error, "65 nodes") != NULL, "65 nodes: bad input, saying so (%s)", run.error);
	an_free(&run);

	/* neither numa-sample nor knuma_scand passes: nothing to measure */
	an_init(&run, 90, 256);
	fault(&run, 1, 101, 100, 2, 1, 0x1, 0, 512);
	an_finish(&run);
	ok(!an_valid(&run) && strstr(an_invalid_reason(&run), "nothing to measure"),
	   "no samples of either kind: invalid (%s)", an_invalid_reason(&run));
	an_free(&run);
}


/* The budget: a page's steps towards its thread's node, and what is left. */
static void act(struct an_run *run, double t, unsigned long index, int page_nid, int nr,
		enum an_action action)
{
	/* process 100's thread 101 on CPU 2, node 1 */
	an_hinting_fault(run, S(t), &(struct an_fault){ .pid = 101, .tgid = 100, .cpu = 2,
		.cpu_nid = 1, .index = index, .page_nid = page_nid, .nr = nr, .action = action });
}

static void test_budget(void)
{
	struct an_run run;

	an_init(&run, 90, 256);
	run.min_hold = 0.5;
	fault(&run, 0.5, 201, 200, 0, 0, 0x9, 1, 1);	/* the first event: the start */
	an_scan(&run, S(0.5), 200, 64, 1000);
	an_scan(&run, S(1.5), 100, 1024, 1000);	/* process 100's first pass */
	an_scan(&run, S(2.5), 100, 1024, 1000);
	act(&run, 1, 0x1, 0, 512, AN_ACT_NONE);	/* last_nid holds it back */
	act(&run, 1, 0x2, 0, 512, AN_ACT_NONE);
	act(&run, 1, 0x3, 0, 512, AN_ACT_NONE);
	act(&run, 1, 0x4, 0, 1, AN_ACT_QUEUE);	/* queued at once, never moves */
	an_hinting_fault(&run, S(1), &(struct an_fault){ .pid = 102, .tgid = 100, .cpu = 0,
		.cpu_nid = 0, .index = 0x5, .page_nid = 0, .nr = 1, .action = AN_ACT_LOCAL });
	act(&run, 3, 0x5, 0, 1, AN_ACT_NONE);	/* from node 1 now: timed from here */
	act(&run, 4, 0x5, 0, 1, AN_ACT_QUEUE);	/* 1 s */
	act(&run, 2, 0x1, 0, 512, AN_ACT_QUEUE);	/* 1 s to its queueing */
	act(&run, 2, 0x3, 0, 512, AN_ACT_REFUSED);	/* the queue is full */
	mm_stats(&run, 2, 100, 1537, 0);
	act(&run, 3, 0x1, 1, 512, AN_ACT_LOCAL);	/* on node 1 1 s after */
	act(&run, 4, 0x2, 0, 512, AN_ACT_QUEUE);	/* 3 s */
	mm_stats(&run, 4, 100, 1025, 512);
	act(&run, 5, 0x4, 0, 1, AN_ACT_DUPLICATE);
	act(&run, 5, 0x2, 0, 512, AN_ACT_QUEUE);	/* again: timed from the first */
	act(&run, 6, 0x2, 1, 512, AN_ACT_LOCAL);	/* 2 s after */
	act(&run, 2, 0x6, 0, 1, AN_ACT_NONE);	/* from node 1 first at 2 s */
	act(&run, 4, 0x6, 0, 1, AN_ACT_MIGRATE);	/* isolated by its fault: 2 s */
	act(&run, 6, 0x6, 1, 1, AN_ACT_LOCAL);	/* on node 1 2 s after */
	mm_stats(&run, 6, 100, 513, 1024);
	fault(&run, 6, 201, 200, 0, 0, 0x9, 1, 1);	/* another process: not counted */
	an_migrate_batch(&run, S(6), &(struct an_batch){ .entries = 2, .isolated = 1024,
		.succeeded = 1024, .ns = 2000000000ULL });
	an_scan_pass(&run, S(3), 500);
	an_scan_pass(&run, S(4), 5000);
	an_scan_pass(&run, S(5), 1000);
	an_finish(&run);
	ok(run.nr_reported == 1, "budget: process 100 reported");
	near(run.budget.first_scan, 1.0, "budget: first scan 1 s after the start");
	near(run.budget.fault_to_queue, 1.0, "budget: first fault from a node to queued, median of 0, 1, 1, 2, 3 s");
	near(run.budget.queue_to_node, 2.0, "budget: queued or isolated to on its node, median of 1, 2, 2 s");
	ok(run.budget.pages == 1539 && run.budget.queued == 1027 && run.budget.arrived == 1025,
	   "budget: pages %lu, queued %lu, arrived %lu (want 1539, 1027, 1025)",
	   run.budget.pages, run.budget.queued, run.budget.arrived);
	ok(run.budget.remote[AN_ACT_REFUSED] == 512 && run.budget.remote[AN_ACT_DUPLICATE] == 1 &&
	   run.budget.remote[AN_ACT_QUEUE] == 1 && run.budget.remote[AN_ACT_NONE] == 0 &&
	   run.budget.remote[AN_ACT_LOCAL] == 0,
	   "budget: remote at their last fault: refused 512, duplicate 1, queue 1");
	near(run.budget.migrate_rate, 512, "budget: 1024 pages in 2 s of batches");
	ok(run.passes.n == 3 && run.passes.sleep_min == 500 && run.passes.sleep_max == 5000,
	   "budget: 3 passes, sleeps 500 to 5000 ms (got %lu, %lu-%lu)",
	   run.passes.n, run.passes.sleep_min, run.passes.sleep_max);
	near(run.passes.sleep_sum, 6500, "budget: the pass sleeps sum to 6500 ms");
	ok(an_action_of("no_queue") == AN_ACT_NO_QUEUE && an_action_of("migrate") == AN_ACT_MIGRATE &&
	   an_action_of("bogus") == AN_ACT_UNKNOWN &&
	   an_action_of(NULL) == AN_ACT_UNKNOWN, "actions by the kernel's names");
	ok(an_valid(&run), "budget run valid");
	act(&run, 7, 0x7, 0, 0, AN_ACT_QUEUE);
	ok(strstr(run.error, "page count out of range") && run.budget.pages == 1539,
	   "a fault of 0 pages: bad input, not counted");
	an_free(&run);
}

int main(void)
{
	test_known_convergence();
	test_threshold();
	test_never();
	test_teardown();
	test_slowest_and_never();
	test_thread_moves();
	test_idle_thread_ignored();
	test_reporter_in_a_short_interval();
	test_workload_start();
	test_exited_thread();
	test_small_process_ignored();
	test_lost_events();
	test_bad_markers();
	test_pingpong();
	test_cost_events();
	test_hold();
	test_invalid_runs();
	test_out_of_sequence();
	test_kernel_mode();
	test_stream_done();
	test_budget();
	printf("1..%d\n", tests);
	return failed != 0;
}
