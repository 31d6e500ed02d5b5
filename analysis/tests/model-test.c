// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the run model on synthetic event streams: each case feeds
 * the markers numa-sample writes and the events the kernel records, then
 * checks convergence, validity and cost.  TAP output.
 */
#include <stdio.h>

#include "model.h"
#include "synth.h"

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

static void test_slowest_and_never(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10", 1000, 0);	/* converged from 1 s */
	sample(&run, 1, 1, 200, "201:2:10", 1000, 0);	/* remote */
	sample(&run, 2, 2, 100, "101:0:20", 1000, 0);
	sample(&run, 2, 2, 200, "201:2:20", 50, 950);	/* converged from 2 s */
	end(&run, 3);
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
	end(&run, 5);
	ok(run.convergence == AN_NEVER, "samples after the workload's stop marker are ignored");
	near(an_duration(&run), 2.0, "duration up to the stop marker");
	an_free(&run);
}

static void test_exited_thread(void)
{
	struct an_run run;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:0:10 102:2:10", 0, 1000);
	sample(&run, 2, 2, 100, "102:2:20", 0, 1000);	/* 101 exited */
	end(&run, 3);
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
	end(&run, 2);
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
		"numa-sample: cpu seq=1 tgid=100 tid=101 cpu=4 ticks=1",	/* no CPU 4 */
		"numa-sample: cpu seq=1 tgid=100 tid=101 cpu=-1 ticks=1",
		"numa-sample: cpu seq=1 tgid=100 tid=101 cpu=1x ticks=1",
		"numa-sample: mem seq=1 tgid=100 comm=w pages=1,2,3",		/* 3 nodes */
		"numa-sample: mem seq=1 tgid=100 comm=w pages=1,,2",
		"numa-sample: mem seq=1 tgid=0 comm=w pages=1,2",
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

static void test_pingpong(void)
{
	struct an_run run;

	start(&run, 0);
	an_hinting_fault(&run, S(1), 100, 0x10, 0, 512);
	an_hinting_fault(&run, S(2), 100, 0x10, 1, 512);	/* moved */
	an_hinting_fault(&run, S(3), 100, 0x10, 0, 512);	/* back: ping-pong */
	an_hinting_fault(&run, S(4), 100, 0x10, 1, 512);	/* counted once */
	an_hinting_fault(&run, S(1), 100, 0x20, 0, 1);
	an_hinting_fault(&run, S(2), 100, 0x20, 1, 1);		/* moved once */
	an_hinting_fault(&run, S(1), 200, 0x10, 1, 1);		/* another process */
	for (unsigned long i = 0; i < 5000; i++)		/* grow the table */
		an_hinting_fault(&run, S(5), 300, i, i & 1, 1);
	an_hinting_fault(&run, S(6), 100, 0x20, 1, 1);
	an_hinting_fault(&run, S(6), 200, 0x10, 0, 1);
	end(&run, 7);
	ok(run.cost.pingpong_pages == 512, "ping-pong pages: %lu (want 512)", run.cost.pingpong_pages);
	ok(run.cost.hinting_faults == 5009, "hinting faults counted: %lu", run.cost.hinting_faults);
	an_free(&run);
}

static void test_cost_events(void)
{
	struct an_run run;

	start(&run, 0);
	an_scan(&run, S(1), 1024, 5000);
	an_scan(&run, S(2), 1024, 7000);
	an_page_queue(&run, S(1), true);
	an_page_queue(&run, S(1), true);
	an_page_queue(&run, S(1), false);
	an_page_dequeue(&run, S(2), 512, "isolated");
	an_page_dequeue(&run, S(2), 0, "cancelled");
	an_page_dequeue(&run, S(2), 0, "no-such-reason");
	an_migrate_batch(&run, S(2), 503, 500, 3, 100000);
	an_balance(&run, S(2), 2000, 2);
	an_balance(&run, S(3), 4000, 4);
	an_placement(&run, S(3));
	an_task_moved(&run, S(3), true);
	an_task_moved(&run, S(3), false);
	an_upstream_move(&run, S(3));
	end(&run, 4);
	ok(run.cost.scan_pages == 2048 && run.cost.scan_ns == 12000, "scan totals");
	ok(run.cost.migrated == 500 && run.cost.migrate_failed == 3 && run.cost.batch_isolated == 503,
	   "migration totals");
	ok(run.cost.queue_entries == 2 && run.cost.queue_full == 1 && run.cost.dequeue_entries == 3 &&
	   run.cost.dequeue_isolated == 512, "queue ledger");
	ok(run.cost.dequeued[AN_DQ_ISOLATED] == 1 && run.cost.dequeued[AN_DQ_CANCELLED] == 1 &&
	   run.cost.dequeued[AN_DQ_OTHER] == 1 && run.cost.dequeued[AN_DQ_FLUSHED] == 0,
	   "dequeues counted by reason, an unknown one as other");
	ok(run.cost.balance_passes == 2 && run.cost.balance_ns == 6000 && run.cost.balance_cpus == 6,
	   "balance totals");
	ok(run.cost.placements == 1 && run.cost.task_moves == 1 && run.cost.upstream_moves == 1,
	   "placement totals");
	an_free(&run);
}

int main(void)
{
	test_known_convergence();
	test_never();
	test_slowest_and_never();
	test_thread_moves();
	test_idle_thread_ignored();
	test_workload_start();
	test_exited_thread();
	test_small_process_ignored();
	test_lost_events();
	test_bad_markers();
	test_pingpong();
	test_cost_events();
	printf("1..%d\n", tests);
	return failed != 0;
}
