/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state of one traced run, fed event by event (model.c), and what is
 * derived from it: per-process locality over time and convergence, and the
 * run's cost.  Nothing here knows about trace.dat: trace.c decodes records
 * into these calls, the unit tests call them directly.
 */
#ifndef AN_MODEL_H
#define AN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#define AN_MAX_NODES	64
#define AN_MAX_CPUS	1024
#define AN_MAX_FAULT_PAGES 512	/* base pages one hinting fault can cover (a THP) */
/* two placement moves onto one CPU closer than this are a herd */
#define AN_HERD_NS	100000000ULL
#define AN_NEVER	(-1.0)	/* convergence time of a run that never converged */
#define AN_MIN_HOLD	1.0	/* s a process must stay converged to count (-H) */
#define AN_WORK_NS	1000000000ULL	/* a thread works if busy over this long */
#define AN_WORK_SAMPLES	16	/* samples a thread remembers for it */

/* One locality sample of a process, for plots. */
struct an_point {
	unsigned long long ts;
	double locality;	/* % of its pages on its threads' nodes */
	double threads_home;	/* % of its threads' CPU time on its node */
	double access;		/* % of its hinting-fault pages local since the last sample */
	bool converged;		/* the convergence condition holds here */
};

struct an_thread {
	int tid, cpu, seq;		/* cpu: where it last ran (-1 unknown) */
	unsigned long ticks;	/* CPU time used, at the last sample */
	unsigned long weight;	/* CPU time used in the last interval */
	unsigned long recent;	/* ... over the last AN_WORK_NS of samples */
	/* its last samples (ring): when, and its CPU time then */
	unsigned long long seen_ts[AN_WORK_SAMPLES];
	unsigned long seen_ticks[AN_WORK_SAMPLES];
	int nr_seen;
	unsigned long last_weight;	/* kernel measure: its weight in the last
					 * pass in which any thread faulted */
};

struct an_proc {
	int tgid;
	char comm[16];
	unsigned long pages[AN_MAX_NODES], total, max_total;
	unsigned long ticks;		/* CPU time its threads used (1/100 s) */
	unsigned long long first_ts;	/* its first sample */
	struct an_thread *threads;
	int nr_threads;
	double locality;	/* at the last update */
	unsigned long faults, faults_local;	/* hinting-fault pages since it */
	double access;		/* their local share at the last update; NAN none */
	int node;		/* where most of its threads are */
	bool converged;		/* now */
	bool torn_down;		/* freed most of its memory: measured no more */
	long seq;		/* its last complete sample */
	unsigned long long converged_since, last_ts;
	double convergence;	/* s after the start, AN_NEVER, set by an_finish */
	struct an_point *points;
	int nr_points;
};

/* What a hinting fault did with its page (the event's action). */
enum an_action {
	AN_ACT_UNKNOWN, AN_ACT_NONE, AN_ACT_LOCAL, AN_ACT_NOT_ALLOWED, AN_ACT_NOT_LRU,
	AN_ACT_QUEUE, AN_ACT_REFUSED, AN_ACT_DUPLICATE, AN_ACT_NO_QUEUE, AN_ACT_MIGRATE, AN_ACT_NR
};
/* The kernel's names ("none": the last_nid filter held the page back). */
extern const char *const an_actions[AN_ACT_NR];
enum an_action an_action_of(const char *name);

/* Pages seen at hinting faults, keyed by (tgid, page->index). */
struct an_page {
	unsigned long long key;
	unsigned long long nodes;	/* bitmask of nodes it was seen on */
	unsigned long long since_ts;	/* first of its faults from fault_nid in a row */
	unsigned long long first_ts;	/* since_ts when it was queued: the filter's wait began */
	unsigned long long queue_ts;	/* its first queueing (0: never) */
	unsigned long long arrive_ts;	/* a later fault found it on queue_nid */
	int tgid, nid, fault_nid, queue_nid, nr;
	unsigned char last_action;	/* of its last fault */
	bool last_remote;		/* its last fault came from another node */
	bool pingpong;
};

/*
 * Where a run's time to convergence goes, over its reported processes'
 * pages (an_finish): the steps a page takes to follow its threads.
 * Seconds are medians, NAN where no page took the step.
 */
struct an_budget {
	double first_scan;	/* the start to the end of knuma_scand's first */
				/* chunk (pages_to_scan) of a process */
	double fault_to_queue;	/* a page's first hinting fault from a node to its */
				/* queueing there: the last_nid filter's wait */
	double queue_to_node;	/* queued to a fault that finds it on that node */
	unsigned long pages, queued, arrived;	/* base pages */
	unsigned long remote[AN_ACT_NR];	/* remote at their last fault, by its action */
	double migrate_rate;	/* pages knuma_migrated migrated per second of batches */
};

/* knuma_scand's passes (autonuma_scan_pass) and the sleeps after them, ms */
struct an_passes {
	unsigned long n, sleep_min, sleep_max;
	double sleep_sum;
};

/*
 * What became of the queue entries knuma_migrated took (counted by
 * autonuma_migrate_batch): isolated for migration, or dropped, and why.
 */
enum an_dequeue_reason {
	AN_DQ_ISOLATED, AN_DQ_GONE, AN_DQ_MOVED, AN_DQ_SHARED, AN_DQ_CANCELLED,
	AN_DQ_BUSY, AN_DQ_FLUSHED, AN_DQ_NR
};
extern const char *const an_dequeue_reasons[AN_DQ_NR];

/*
 * knuma_migrated's ledger: entries queued and refused, entries taken off
 * the queues by what became of them, and the pages isolated.
 */
struct an_ledger {
	unsigned long queued, refused, dequeued[AN_DQ_NR], isolated;
};

/*
 * migrate_on_fault's ledger: base pages the hinting faults isolated (action
 * "migrate"), and what the faults' migrations (autonuma_fault_migrate) did.
 */
struct an_fault_ledger {
	unsigned long by_faults, isolated, succeeded, failed;
	unsigned long long ns;
};

struct an_vmstat {
	unsigned long pte_updates, hint_faults, hint_faults_local, pages_migrated;
};

struct an_cost {
	/* the kernel's counters over the run (numa-sample's vmstat lines) */
	struct an_vmstat vm;
	/* AutoNUMA's events */
	unsigned long scan_pages, hinting_faults;
	unsigned long migrated, migrate_failed;
	unsigned long placements, task_moves, balance_passes, balance_cpus;
	unsigned long balance_cpus_max;	/* the most CPUs one pass examined */
	unsigned long herd_moves;	/* moves onto a CPU another move reached */
					/* less than AN_HERD_NS before */
	unsigned long long scan_ns, migrate_ns, balance_ns;
	unsigned long pingpong_pages;
	/*
	 * knuma_migrated's ledger from the hinting faults' actions and the
	 * batches; and from the per-page events (autonuma_detail), if recorded
	 */
	struct an_ledger ledger, detail;
	struct an_fault_ledger fault;
	/* the scheduler's: migrations of the workload's threads, and upstream's */
	unsigned long thread_migrations, upstream_moves;
};

struct an_run {
	char variant[32];
	int nr_nodes, nr_cpus, cpu_nid[AN_MAX_CPUS];
	double threshold;		/* locality % that counts as converged */
	double min_hold;		/* s it must hold before the end to count */
	unsigned long min_pages;	/* smaller processes are not reported */

	bool started, ended;		/* numa-sample's start and end lines */
	bool kernel_mode;		/* samples from autonuma events: no numa-sample, */
	bool measure_kernel;		/* or asked to (-K) though it is in the trace */
	unsigned long long first_ts;	/* the trace's first event */
	unsigned long long start_ts, end_ts, last_ts;
	bool workload_start;		/* the workload's own start marker seen */
	bool workload_stop;		/* and its stop marker: later samples ignored */
	unsigned long long stop_ts;
	int status;			/* the command's exit status */
	bool have_vm_start, have_vm_end;
	struct an_vmstat vm_start, vm_end;
	const char *counter_down;	/* a vmstat counter that went down, if any */
	unsigned long lost;		/* events lost in the ring buffer */
	bool lost_unknown;		/* ... some of them in a loss of unknown size */
	unsigned long long lost_ts;	/* the first loss */

	struct an_proc *procs;
	int nr_procs;
	struct an_first_scan { int tgid; unsigned long long ts; } *scanned;
	int nr_scanned;			/* processes knuma_scand scanned */
	struct an_page *pages;		/* open addressing, nr_slots a power of 2 */
	size_t nr_pages, nr_slots;
	struct an_cost cost;
	struct an_budget budget;
	struct an_passes passes;
	unsigned long long last_move_ts[AN_MAX_CPUS];	/* per destination CPU */

	int nr_reported;		/* processes an_reported() */
	/* stream's local= per process: its last interval line before the stop */
	struct an_stream { int pid; double local; bool interval; } *streams;
	int stream_procs;		/* processes with a local= */
	double stream_local;		/* their lowest (per-thread locality) */
	double convergence;		/* slowest process; AN_NEVER */
	int slowest;			/* its tgid */
	char error[256];		/* first malformed input, if any */
};

void an_init(struct an_run *run, double threshold, unsigned long min_pages);
void an_free(struct an_run *run);

/* Events, with their timestamps in ns. */
void an_marker(struct an_run *run, unsigned long long ts, const char *text);
/* A thread moved: counted if it is the workload's. */
void an_thread_migrate(struct an_run *run, unsigned long long ts, int pid, int dest_cpu);

/* autonuma_hinting_fault; cpu is the CPU that recorded it (-1 unknown). */
struct an_fault {
	int pid, tgid, cpu, cpu_nid, page_nid, nr;
	unsigned long index;
	enum an_action action;
};
void an_hinting_fault(struct an_run *run, unsigned long long ts, const struct an_fault *f);
/*
 * autonuma_mm_stats: knuma_scand's count of a process's pages per node at
 * the end of a pass.  Without numa-sample, each is a sample of the process.
 */
void an_mm_stats(struct an_run *run, unsigned long long ts, int tgid,
		 const unsigned long *pages, int nr_nodes);
/* autonuma_scan_mm: knuma_scand scanned a chunk of process tgid. */
void an_scan_pass(struct an_run *run, unsigned long long ts, unsigned long sleep_ms);
void an_scan(struct an_run *run, unsigned long long ts, int tgid, unsigned long pages,
	     unsigned long long ns);
/*
 * autonuma_migrate_batch: the entries knuma_migrated took off its queues
 * (dropped[AN_DQ_ISOLATED] is unused: entries less the dropped ones were
 * isolated) and the pages isolated, migrated and not.
 */
struct an_batch {
	unsigned long entries, dropped[AN_DQ_NR];
	unsigned long isolated, succeeded, failed;
	unsigned long long ns;
};
void an_migrate_batch(struct an_run *run, unsigned long long ts, const struct an_batch *b);
/* migrate_on_fault: a hinting fault isolated nr pages; a fault migrated them. */
void an_fault_isolated(struct an_run *run, unsigned long long ts, unsigned long nr);
void an_fault_migrate(struct an_run *run, unsigned long long ts, unsigned long isolated,
		      unsigned long succeeded, unsigned long failed, unsigned long long ns);
/* A hinting fault queued its page (action "queue") or was refused ("refused"). */
void an_page_queue(struct an_run *run, unsigned long long ts, bool queued);
/* autonuma_detail's per-page events: a page queued, an entry dequeued */
void an_detail_queue(struct an_run *run, unsigned long long ts, bool queued);
/* REASON: the event's symbolic name; one this model does not know is bad input. */
void an_detail_dequeue(struct an_run *run, unsigned long long ts, unsigned long isolated,
		       const char *reason);
unsigned long an_ledger_dequeued(const struct an_ledger *l);
void an_placement(struct an_run *run, unsigned long long ts);
/* autonuma_task_migrate: the stopper ran; the task is on cpu now. */
void an_task_moved(struct an_run *run, unsigned long long ts, int pid, int cpu, bool moved);
void an_balance(struct an_run *run, unsigned long long ts, unsigned long long ns,
		unsigned long cpus);
void an_upstream_move(struct an_run *run, unsigned long long ts);
void an_lost(struct an_run *run, unsigned long long ts, unsigned long nr);

/* After the last event: convergence per process and for the run. */
void an_finish(struct an_run *run);

/*
 * Why the run's numbers cannot be trusted, or NULL: lost events, malformed
 * input, a trace that ends early, a failed workload, vmstat counters
 * missing or going down, no process to report.
 */
const char *an_invalid_reason(const struct an_run *run);
bool an_valid(const struct an_run *run);
/* How placement was measured: numa-sample's lines, or the kernel's events. */
const char *an_measure(const struct an_run *run);
/*
 * Processes to report: at least min_pages big, and working (their threads
 * used 10% of a CPU or more over their samples; a parent that only waits,
 * like perf bench's, is not placed by anyone and does not count).
 */
bool an_reported(const struct an_run *run, const struct an_proc *p);
/*
 * Sort seconds (AN_NEVER after any time); the median of n of them, sorted
 * in place (NAN if n is 0, AN_NEVER if the middle one is).
 */
void an_sort_seconds(double *v, size_t n);
double an_median(double *v, size_t n);
/* Seconds from the workload's start to ts; the run's length. */
double an_seconds(const struct an_run *run, unsigned long long ts);
double an_duration(const struct an_run *run);

#endif
