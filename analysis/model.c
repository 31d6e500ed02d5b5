// SPDX-License-Identifier: GPL-2.0
/*
 * The run model: follows events, keeps per-process placement and cost, and
 * decides when each process converged.
 *
 * Placement is read at numa-sample's samples, memory and threads alike.  A
 * process has converged at a sample when its working threads run on one
 * node and at least `threshold` % of its pages are there.  Threads count by
 * the CPU time they used over the last second of samples: one that used
 * less than a quarter of its busiest sibling's (a thread that reports or
 * sleeps: stream's main thread runs move_pages(2) once a second) does not
 * decide where the process runs.  (Over one sample's interval, a few clock
 * ticks, a starved worker and that report weigh the same.)  Its
 * convergence time runs from the workload's start to the first sample
 * after which that holds at every later sample, up to its last sample or
 * the workload's first stop marker, provided it held for at least
 * min_hold seconds of samples.  (stream's
 * processes each mark their stop: after the first, its final check changes
 * the others' load, which is not placement.)  Samples are grouped by their
 * sequence number: a line that arrives out of sequence (a trace recorded
 * with a per-CPU clock) makes the run invalid rather than quietly wrong.  A
 * thread's excursion to another node between two samples does not restart
 * the clock; it is counted in the cost (sched_migrate_task).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

#define MAX_FIELDS	16

struct field {
	const char *key, *val;
};

static void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		perror("autonuma-report");
		exit(2);
	}
	return p;
}

/* Keep the first complaint; the line is ignored.  Returns -1. */
static int bad_input(struct an_run *run, const char *what, const char *text)
{
	if (!run->error[0])
		snprintf(run->error, sizeof(run->error), "%s: \"%.80s\"", what, text);
	return -1;
}

void an_init(struct an_run *run, double threshold, unsigned long min_pages)
{
	memset(run, 0, sizeof(*run));
	strcpy(run->variant, "unknown");
	run->threshold = threshold;
	run->min_pages = min_pages;
	run->min_hold = AN_MIN_HOLD;
	for (int cpu = 0; cpu < AN_MAX_CPUS; cpu++)
		run->cpu_nid[cpu] = -1;
	run->convergence = AN_NEVER;
}

static void drop_procs(struct an_run *run);

void an_free(struct an_run *run)
{
	drop_procs(run);
	free(run->pages);
	run->pages = NULL;
	free(run->scanned);
	run->scanned = NULL;
	run->nr_scanned = 0;
	free(run->streams);
	run->streams = NULL;
	run->stream_procs = 0;
}

static void seen(struct an_run *run, unsigned long long ts)
{
	if (ts > run->last_ts)
		run->last_ts = ts;
	if (!run->first_ts || ts < run->first_ts)
		run->first_ts = ts;
}

double an_seconds(const struct an_run *run, unsigned long long ts)
{
	return ((double)ts - (double)run->start_ts) / 1e9;
}

double an_duration(const struct an_run *run)
{
	if (run->workload_stop)
		return an_seconds(run, run->stop_ts);
	return an_seconds(run, run->ended ? run->end_ts : run->last_ts);
}

const char *an_invalid_reason(const struct an_run *run)
{
	static char why[320];

	if (run->lost)
		snprintf(why, sizeof(why), "%s%lu events lost, the first at %.1f s: the counts "
			 "are short from there, a convergence before it stands",
			 run->lost_unknown ? "at least " : "", run->lost, an_seconds(run, run->lost_ts));
	else if (run->error[0])
		snprintf(why, sizeof(why), "bad input: %s", run->error);
	else if (!run->started && !run->kernel_mode)
		snprintf(why, sizeof(why), "neither numa-sample's lines nor autonuma_mm_stats "
			 "events: nothing to measure placement by");
	else if (run->kernel_mode && !run->nr_reported)
		snprintf(why, sizeof(why), "no process took hinting faults and had a full "
			 "knuma_scand pass of at least -m MiB");
	else if (!run->started)
		return NULL;	/* kernel mode without numa-sample: no workload lines */
	else if (!run->ended)
		snprintf(why, sizeof(why), "the trace ends before the workload did");
	else if (run->status)
		snprintf(why, sizeof(why), "the workload failed (status %d)", run->status);
	else if (!run->have_vm_start || !run->have_vm_end)
		snprintf(why, sizeof(why), "no vmstat %s line", run->have_vm_start ? "end" : "start");
	else if (run->counter_down)
		snprintf(why, sizeof(why), "vmstat %s went down over the run", run->counter_down);
	else if (!run->nr_reported)
		snprintf(why, sizeof(why), "no process of the workload was big and busy enough "
			 "to report (-m)");
	else
		return NULL;
	return why;
}

const char *an_measure(const struct an_run *run)
{
	if (run->kernel_mode)
		return run->started ?
		       "kernel events (-K): each process sampled at its knuma_scand passes "
		       "(autonuma_mm_stats), its threads placed by their hinting faults and "
		       "moves; times from the workload's start" :
		       "kernel events: each process sampled at its knuma_scand passes "
		       "(autonuma_mm_stats), its threads placed by their hinting faults and "
		       "moves; times from the trace's first event";
	return "numa-sample: each process's pages (numa_maps) and threads every 200 ms; "
	       "times from the workload's start";
}

bool an_valid(const struct an_run *run)
{
	return !an_invalid_reason(run);
}

bool an_reported(const struct an_run *run, const struct an_proc *p)
{
	double span = p->last_ts > p->first_ts ? (p->last_ts - p->first_ts) / 1e9 : 0;

	if (p->max_total < run->min_pages || !p->max_total)
		return false;
	if (run->kernel_mode)	/* ticks: its threads' fault pages */
		return p->ticks > 0;
	return span > 0 ? p->ticks >= 10 * span : p->ticks > 0;
}

/* Placement is measured by the autonuma events, not numa-sample's lines. */
static bool kernel_measures(const struct an_run *run)
{
	return run->measure_kernel || !run->started;
}

/* Processes and threads */

/*
 * A process whose memory falls under half of its peak is freeing it at
 * its end (perf bench numa unmaps its data before it exits): it is
 * measured up to its previous sample, as one that exits.
 */
static bool torn_down(struct an_proc *p, unsigned long total)
{
	if (2 * total < p->max_total)
		p->torn_down = true;
	return p->torn_down;
}

static void drop_procs(struct an_run *run)
{
	for (int i = 0; i < run->nr_procs; i++) {
		free(run->procs[i].threads);
		free(run->procs[i].points);
	}
	free(run->procs);
	run->procs = NULL;
	run->nr_procs = 0;
	run->kernel_mode = false;
	for (int cpu = 0; cpu < AN_MAX_CPUS; cpu++)
		run->cpu_nid[cpu] = -1;
	run->nr_cpus = run->nr_nodes = 0;
}

static struct an_proc *find_proc(struct an_run *run, int tgid, bool create)
{
	struct an_proc *p;

	for (int i = 0; i < run->nr_procs; i++)
		if (run->procs[i].tgid == tgid)
			return &run->procs[i];
	if (!create)
		return NULL;
	run->procs = xrealloc(run->procs, (run->nr_procs + 1) * sizeof(*run->procs));
	p = &run->procs[run->nr_procs++];
	memset(p, 0, sizeof(*p));
	p->tgid = tgid;
	p->node = -1;
	p->access = NAN;
	p->convergence = AN_NEVER;
	return p;
}

static struct an_thread *find_thread(struct an_proc *p, int tid, bool create)
{
	for (int i = 0; i < p->nr_threads; i++)
		if (p->threads[i].tid == tid)
			return &p->threads[i];
	if (!create)
		return NULL;
	p->threads = xrealloc(p->threads, (p->nr_threads + 1) * sizeof(*p->threads));
	p->threads[p->nr_threads] = (struct an_thread){ .tid = tid, .cpu = -1 };
	return &p->threads[p->nr_threads++];
}

static int cpu_node(const struct an_run *run, int cpu)
{
	return cpu >= 0 && cpu < run->nr_cpus ? run->cpu_nid[cpu] : -1;
}

/*
 * How much a thread worked lately: its CPU time over the last second of
 * samples; by the kernel measure, its fault pages in the last pass.
 */
static unsigned long work(const struct an_run *run, const struct an_thread *t)
{
	return run->kernel_mode ? t->weight : t->recent;
}

/*
 * Re-evaluate p at ts: its node (where its threads worked the most),
 * locality (the share of its pages on each thread's node, weighted by its
 * work) and whether it is converged now.
 */
static void update(struct an_run *run, struct an_proc *p, unsigned long long ts)
{
	double weight[AN_MAX_NODES] = { 0 }, local = 0, total = 0, max = 0;
	bool converged = true;
	int node = -1;

	if (!p->total)
		return;
	for (int i = 0; i < p->nr_threads; i++)
		if (work(run, &p->threads[i]) > max)
			max = work(run, &p->threads[i]);
	for (int i = 0; i < p->nr_threads; i++) {
		int nid = cpu_node(run, p->threads[i].cpu);
		/* all slept through the interval: each counts the same */
		double w = max ? work(run, &p->threads[i]) : 1;

		if (nid < 0 || !w)
			continue;
		weight[nid] += w;
		total += w;
		local += w * p->pages[nid] / p->total;
	}
	if (!total)
		return;
	for (int nid = 0; nid < run->nr_nodes; nid++)
		if (node < 0 || weight[nid] > weight[node] ||
		    (weight[nid] == weight[node] && p->pages[nid] > p->pages[node]))
			node = nid;
	for (int i = 0; i < p->nr_threads; i++) {
		const struct an_thread *t = &p->threads[i];

		if ((!max || 4.0 * work(run, t) >= max) && cpu_node(run, t->cpu) != node)
			converged = false;
	}
	converged &= 100.0 * p->pages[node] >= run->threshold * p->total;
	p->node = node;
	p->locality = 100.0 * local / total;
	if (converged && !p->converged)
		p->converged_since = ts;
	p->converged = converged;
	p->last_ts = ts;
	p->access = p->faults ? 100.0 * p->faults_local / p->faults : NAN;
	p->faults = p->faults_local = 0;

	p->points = xrealloc(p->points, (p->nr_points + 1) * sizeof(*p->points));
	p->points[p->nr_points++] = (struct an_point){
		.ts = ts, .locality = p->locality,
		.threads_home = 100.0 * weight[node] / total, .access = p->access,
		.converged = converged,
	};
}

/* numa-sample's marker lines */

static int split_fields(char *s, struct field *f, int max)
{
	int n = 0;

	for (char *tok = strtok(s, " \n"); tok && n < max; tok = strtok(NULL, " \n")) {
		char *eq = strchr(tok, '=');

		if (!eq)
			continue;
		*eq = 0;
		f[n++] = (struct field){ tok, eq + 1 };
	}
	return n;
}

static const char *get(const struct field *f, int n, const char *key)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return f[i].val;
	return NULL;
}

static bool get_long(const struct field *f, int n, const char *key, long min, long *out)
{
	const char *s = get(f, n, key);
	char *end;

	if (!s || !*s)
		return false;
	*out = strtol(s, &end, 10);
	return !*end && *out >= min;
}

/* A comma-separated list of at most max non-negative numbers. */
static int get_list(const struct field *f, int n, const char *key,
		    unsigned long *out, int max)
{
	const char *s = get(f, n, key);
	int count = 0;

	if (!s || !*s)
		return -1;
	while (*s) {
		char *end;

		if (count == max || *s < '0' || *s > '9')
			return -1;
		out[count++] = strtoul(s, &end, 10);
		if (*end && *end != ',')
			return -1;
		s = *end ? end + 1 : end;
	}
	return count;
}

static int sample_start(struct an_run *run, unsigned long long ts,
			 const struct field *f, int n, const char *text)
{
	unsigned long cpus[AN_MAX_CPUS];
	const char *variant = get(f, n, "variant");
	long nodes;
	int ncpus = get_list(f, n, "cpus", cpus, AN_MAX_CPUS);

	if (run->started)
		return bad_input(run, "two numa-sample runs in one trace", text);
	if (run->kernel_mode && !run->measure_kernel)
		drop_procs(run);	/* knuma_scand passes before numa-sample began */
	if (!variant || !get_long(f, n, "nodes", 1, &nodes) || nodes > AN_MAX_NODES || ncpus < 1)
		return bad_input(run, "malformed numa-sample start", text);
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (cpus[cpu] >= (unsigned long)nodes)
			return bad_input(run, "CPU on a node beyond nodes=", text);
		run->cpu_nid[cpu] = cpus[cpu];
	}
	snprintf(run->variant, sizeof(run->variant), "%s", variant);
	run->nr_nodes = nodes;
	run->nr_cpus = ncpus;
	run->started = true;
	if (!run->workload_start)
		run->start_ts = ts;
	return 0;
}

static int sample_vmstat(struct an_run *run, const struct field *f, int n, const char *text)
{
	const char *when = get(f, n, "when");
	long v[4];
	struct an_vmstat *vm;

	if (!when || (strcmp(when, "start") && strcmp(when, "end")) ||
	    !get_long(f, n, "numa_pte_updates", 0, &v[0]) ||
	    !get_long(f, n, "numa_hint_faults", 0, &v[1]) ||
	    !get_long(f, n, "numa_hint_faults_local", 0, &v[2]) ||
	    !get_long(f, n, "numa_pages_migrated", 0, &v[3]))
		return bad_input(run, "malformed numa-sample vmstat", text);
	vm = strcmp(when, "start") ? &run->vm_end : &run->vm_start;
	*(strcmp(when, "start") ? &run->have_vm_end : &run->have_vm_start) = true;
	*vm = (struct an_vmstat){ v[0], v[1], v[2], v[3] };
	return 0;
}

/*
 * Record t's CPU time at a sample at ts; its recent time is what it used
 * since its newest remembered sample at least AN_WORK_NS older (or its
 * oldest).
 */
static void thread_seen(struct an_thread *t, unsigned long long ts, unsigned long ticks)
{
	int i, ref = -1;

	for (i = 0; i < t->nr_seen && i < AN_WORK_SAMPLES; i++) {
		int k = (t->nr_seen - 1 - i) % AN_WORK_SAMPLES;

		ref = k;
		if (ts - t->seen_ts[k] >= AN_WORK_NS)
			break;
	}
	t->recent = ref < 0 ? t->weight :
		    ticks >= t->seen_ticks[ref] ? ticks - t->seen_ticks[ref] : 0;
	t->seen_ts[t->nr_seen % AN_WORK_SAMPLES] = ts;
	t->seen_ticks[t->nr_seen % AN_WORK_SAMPLES] = ticks;
	t->nr_seen++;
}

static int sample_cpu(struct an_run *run, unsigned long long ts,
		      const struct field *f, int n, const char *text)
{
	long seq, tgid, tid, cpu, ticks;
	struct an_thread *t;
	struct an_proc *p;

	if (!get_long(f, n, "seq", 0, &seq) || !get_long(f, n, "tgid", 1, &tgid) ||
	    !get_long(f, n, "tid", 1, &tid) || !get_long(f, n, "cpu", 0, &cpu) ||
	    !get_long(f, n, "ticks", 0, &ticks) || cpu >= run->nr_cpus)
		return bad_input(run, "malformed numa-sample cpu", text);
	p = find_proc(run, tgid, true);
	if (p->nr_points && seq <= p->seq)
		return bad_input(run, "numa-sample cpu line of a sample already complete "
				 "(recorded with a per-CPU trace clock?)", text);
	t = find_thread(p, tid, true);
	if (t->seq >= seq && t->cpu >= 0)
		return bad_input(run, "numa-sample cpu line out of sequence "
				 "(recorded with a per-CPU trace clock?)", text);
	t->cpu = cpu;
	t->seq = seq;
	t->weight = (unsigned long)ticks >= t->ticks ? ticks - t->ticks : 0;
	t->ticks = ticks;
	thread_seen(t, ts, ticks);
	return 0;
}

static int sample_mem(struct an_run *run, unsigned long long ts,
		       const struct field *f, int n, const char *text)
{
	unsigned long pages[AN_MAX_NODES], total = 0;
	const char *comm = get(f, n, "comm");
	int nodes = get_list(f, n, "pages", pages, AN_MAX_NODES);
	long seq, tgid;
	struct an_proc *p;

	if (!get_long(f, n, "seq", 0, &seq) || !get_long(f, n, "tgid", 1, &tgid) ||
	    nodes != run->nr_nodes)
		return bad_input(run, "malformed numa-sample mem", text);
	for (int i = 0; i < nodes; i++)
		total += pages[i];
	if (!total || run->workload_stop)	/* exiting, or done: its final check */
		return 0;
	p = find_proc(run, tgid, true);
	if (torn_down(p, total))
		return 0;
	if (seq <= p->seq && p->nr_points)
		return bad_input(run, "numa-sample mem line out of sequence "
				 "(recorded with a per-CPU trace clock?)", text);
	for (int i = 0; i < p->nr_threads; i++)
		if (p->threads[i].seq > seq)
			return bad_input(run, "numa-sample cpu line ahead of its sample "
					 "(recorded with a per-CPU trace clock?)", text);
	p->seq = seq;
	if (comm)
		snprintf(p->comm, sizeof(p->comm), "%s", comm);
	memcpy(p->pages, pages, sizeof(pages));
	p->total = total;
	if (total > p->max_total)
		p->max_total = total;
	/* threads the sample did not list have exited */
	for (int i = 0; i < p->nr_threads;)
		if (p->threads[i].seq != seq)
			p->threads[i] = p->threads[--p->nr_threads];
		else
			p->ticks += p->threads[i++].weight;
	if (!p->first_ts)
		p->first_ts = ts;
	update(run, p, ts);
	return 0;
}

/*
 * stream's lines in the trace (stream -M writes its interval lines, an
 * older stream its done lines): local= is the share of a process's pages
 * on the node where the thread owning them last ran, the measure of
 * processes whose threads rightly split over nodes.  A process counts
 * with its last interval line before the first stop (the measured end;
 * after it CFS may spread a process onto the CPUs another freed), or with
 * its done line in a trace without interval lines.
 */
static void stream_line(struct an_run *run, const char *text, bool done)
{
	struct field f[MAX_FIELDS];
	struct an_stream *st = NULL;
	char buf[1024];
	const char *s;
	char *end;
	double local;
	long pid;
	int n, i;

	if (!done && run->workload_stop)
		return;
	snprintf(buf, sizeof(buf), "%s", text + strlen(done ? "stream: done " : "stream: "));
	n = split_fields(buf, f, MAX_FIELDS);
	s = get(f, n, "local");
	if (!s)
		return;		/* no per-thread slices (stream -S) */
	local = strtod(s, &end);
	if (end == s || *end || local < 0 || local > 100 || !get_long(f, n, "pid", 1, &pid)) {
		bad_input(run, done ? "malformed stream done line" : "malformed stream line", text);
		return;
	}
	for (i = 0; i < run->stream_procs; i++)
		if (run->streams[i].pid == pid)
			st = &run->streams[i];
	if (!st) {
		run->streams = xrealloc(run->streams, (run->stream_procs + 1) * sizeof(*st));
		st = &run->streams[run->stream_procs++];
		*st = (struct an_stream){ .pid = pid };
	} else if (done && st->interval) {
		return;
	}
	st->local = local;
	st->interval = !done;
	run->stream_local = run->streams[0].local;
	for (i = 1; i < run->stream_procs; i++)
		if (run->streams[i].local < run->stream_local)
			run->stream_local = run->streams[i].local;
}

void an_marker(struct an_run *run, unsigned long long ts, const char *text)
{
	struct field f[MAX_FIELDS];
	char buf[1024], kind[16];
	long status;
	int n;

	seen(run, ts);
	if (!strcmp(text, "autonuma-workload-start")) {
		if (!run->workload_start) {
			run->workload_start = true;
			run->start_ts = ts;
		}
		return;
	}
	if (!strcmp(text, "autonuma-workload-stop")) {
		if (!run->workload_stop) {
			run->workload_stop = true;
			run->stop_ts = ts;
		}
		return;
	}
	if (!strncmp(text, "stream: done ", 13)) {
		stream_line(run, text, true);
		return;
	}
	if (!strncmp(text, "stream: t=", 10)) {
		stream_line(run, text, false);
		return;
	}
	if (strncmp(text, "numa-sample: ", 13))
		return;			/* someone else's marker */
	snprintf(buf, sizeof(buf), "%s", text + 13);
	if (sscanf(buf, "%15s", kind) != 1) {
		bad_input(run, "empty numa-sample line", text);
		return;
	}
	n = split_fields(buf + strlen(kind), f, MAX_FIELDS);
	if (!strcmp(kind, "start"))
		sample_start(run, ts, f, n, text);
	else if (!run->started)
		bad_input(run, "numa-sample line before its start", text);
	else if (!strcmp(kind, "vmstat"))
		sample_vmstat(run, f, n, text);
	else if (!strcmp(kind, "cpu"))
		run->measure_kernel ? 0 : sample_cpu(run, ts, f, n, text);
	else if (!strcmp(kind, "mem"))
		run->measure_kernel ? 0 : sample_mem(run, ts, f, n, text);
	else if (strcmp(kind, "end"))
		bad_input(run, "unknown numa-sample line", text);
	else if (!get_long(f, n, "status", 0, &status))
		bad_input(run, "malformed numa-sample end", text);
	else {
		run->ended = true;
		run->end_ts = ts;
		run->status = status;
	}
}

/* Scheduler events */

/* The kernel-mode thread pid of any process, or NULL. */
static struct an_thread *any_thread(struct an_run *run, int pid)
{
	for (int i = 0; i < run->nr_procs; i++) {
		struct an_thread *t = find_thread(&run->procs[i], pid, false);

		if (t)
			return t;
	}
	return NULL;
}

void an_thread_migrate(struct an_run *run, unsigned long long ts, int pid, int dest_cpu)
{
	struct an_thread *t;

	seen(run, ts);
	t = any_thread(run, pid);
	if (!t)
		return;
	run->cost.thread_migrations++;
	if (run->kernel_mode && dest_cpu >= 0 && dest_cpu < AN_MAX_CPUS)
		t->cpu = dest_cpu;
}

void an_placement(struct an_run *run, unsigned long long ts)
{
	seen(run, ts);
	run->cost.placements++;
}

void an_task_moved(struct an_run *run, unsigned long long ts, int pid, int cpu, bool moved)
{
	struct an_thread *t;

	seen(run, ts);
	run->cost.task_moves += moved;
	if (moved && cpu >= 0 && cpu < AN_MAX_CPUS) {
		unsigned long long last = run->last_move_ts[cpu];

		run->cost.herd_moves += last && ts - last < AN_HERD_NS;
		run->last_move_ts[cpu] = ts;
	}
	t = run->kernel_mode ? any_thread(run, pid) : NULL;
	if (t && cpu >= 0 && cpu < AN_MAX_CPUS)
		t->cpu = cpu;
}

void an_balance(struct an_run *run, unsigned long long ts, unsigned long long ns,
		unsigned long cpus)
{
	seen(run, ts);
	run->cost.balance_passes++;
	run->cost.balance_cpus += cpus;
	if (cpus > run->cost.balance_cpus_max)
		run->cost.balance_cpus_max = cpus;
	run->cost.balance_ns += ns;
}

void an_upstream_move(struct an_run *run, unsigned long long ts)
{
	seen(run, ts);
	run->cost.upstream_moves++;
}

/* Memory events */

static struct an_page *page_slot(struct an_page *table, size_t slots, unsigned long long key)
{
	size_t i = (key * 0x9e3779b97f4a7c15ULL) & (slots - 1);

	while (table[i].nodes && table[i].key != key)
		i = (i + 1) & (slots - 1);
	return &table[i];
}

static struct an_page *find_page(struct an_run *run, unsigned long long key)
{
	struct an_page *slot;

	if (2 * (run->nr_pages + 1) > run->nr_slots) {
		size_t slots = run->nr_slots ? 2 * run->nr_slots : 1024;
		struct an_page *table = calloc(slots, sizeof(*table));

		if (!table) {
			perror("autonuma-report");
			exit(2);
		}
		for (size_t i = 0; i < run->nr_slots; i++)
			if (run->pages[i].nodes)
				*page_slot(table, slots, run->pages[i].key) = run->pages[i];
		free(run->pages);
		run->pages = table;
		run->nr_slots = slots;
	}
	slot = page_slot(run->pages, run->nr_slots, key);
	if (!slot->nodes) {
		slot->key = key;
		run->nr_pages++;
	}
	return slot;
}

/*
 * Each hinting fault tells which node a page is on now.  A page seen back
 * on a node it had left has moved back and forth: ping-pong.
 */
/*
 * Without numa-sample, a fault says where its thread runs (the CPU that
 * recorded it, on cpu_nid: the map of CPUs to nodes is learned from them)
 * and counts as the thread's work since its process's last sample.
 */
static void kernel_fault(struct an_run *run, const struct an_fault *f)
{
	struct an_thread *t;
	struct an_proc *p;

	if (!kernel_measures(run) || f->tgid <= 0 || f->pid <= 0 || f->nr <= 0)
		return;
	if (f->cpu_nid < 0 || f->cpu_nid >= AN_MAX_NODES || f->cpu < 0 || f->cpu >= AN_MAX_CPUS) {
		bad_input(run, "hinting fault from a CPU or node out of range", "");
		return;
	}
	run->cpu_nid[f->cpu] = f->cpu_nid;
	if (f->cpu >= run->nr_cpus)
		run->nr_cpus = f->cpu + 1;
	p = find_proc(run, f->tgid, true);
	t = find_thread(p, f->pid, true);
	t->cpu = f->cpu;
	t->weight += f->nr;
}

void an_hinting_fault(struct an_run *run, unsigned long long ts, const struct an_fault *f)
{
	struct an_proc *p;
	struct an_page *pg;
	int page_nid = f->page_nid, nr = f->nr;

	seen(run, ts);
	run->cost.hinting_faults++;
	if (page_nid < 0 || page_nid >= AN_MAX_NODES) {
		bad_input(run, "hinting fault on a node out of range", "");
		return;
	}
	if (nr <= 0 || nr > AN_MAX_FAULT_PAGES) {
		bad_input(run, "hinting fault on a page count out of range", "");
		return;
	}
	kernel_fault(run, f);
	p = find_proc(run, f->tgid, false);
	if (p) {
		p->faults += nr;
		p->faults_local += f->cpu_nid == page_nid ? nr : 0;
	}
	pg = find_page(run, (unsigned long long)f->tgid << 44 ^ f->index);
	if (pg->nodes && pg->nid != page_nid && (pg->nodes & 1ULL << page_nid) &&
	    !pg->pingpong) {
		pg->pingpong = true;
		run->cost.pingpong_pages += nr;
	}
	if (!pg->nodes || pg->fault_nid != f->cpu_nid) {
		pg->since_ts = ts;
		pg->fault_nid = f->cpu_nid;
	}
	pg->nodes |= 1ULL << page_nid;
	pg->nid = page_nid;
	pg->tgid = f->tgid;
	pg->nr = nr;
	/* the budget's steps: queued towards the faulting node, found there */
	if ((f->action == AN_ACT_QUEUE || f->action == AN_ACT_MIGRATE) && !pg->queue_ts) {
		pg->queue_ts = ts;
		pg->queue_nid = f->cpu_nid;
		pg->first_ts = pg->since_ts;
	}
	if (pg->queue_ts && !pg->arrive_ts && ts > pg->queue_ts && page_nid == pg->queue_nid)
		pg->arrive_ts = ts;
	pg->last_action = f->action < AN_ACT_NR ? f->action : AN_ACT_UNKNOWN;
	pg->last_remote = page_nid != f->cpu_nid;
}

const char *const an_actions[AN_ACT_NR] = {
	"unknown", "none", "local", "not_allowed", "not_lru", "queue", "refused",
	"duplicate", "no_queue", "migrate",
};

enum an_action an_action_of(const char *name)
{
	for (int a = AN_ACT_UNKNOWN + 1; name && a < AN_ACT_NR; a++)
		if (!strcmp(name, an_actions[a]))
			return a;
	return AN_ACT_UNKNOWN;
}

void an_scan(struct an_run *run, unsigned long long ts, int tgid, unsigned long pages,
	     unsigned long long ns)
{
	seen(run, ts);
	run->cost.scan_pages += pages;
	run->cost.scan_ns += ns;
	if (tgid <= 0)
		return;
	for (int i = 0; i < run->nr_scanned; i++)
		if (run->scanned[i].tgid == tgid)
			return;
	run->scanned = xrealloc(run->scanned, (run->nr_scanned + 1) * sizeof(*run->scanned));
	run->scanned[run->nr_scanned++] = (struct an_first_scan){ tgid, ts };
}

/* knuma_scand ended a pass and chose its sleep (the adaptive pass sleep) */
void an_scan_pass(struct an_run *run, unsigned long long ts, unsigned long sleep_ms)
{
	struct an_passes *p = &run->passes;

	seen(run, ts);
	if (!p->n++ || sleep_ms < p->sleep_min)
		p->sleep_min = sleep_ms;
	if (sleep_ms > p->sleep_max)
		p->sleep_max = sleep_ms;
	p->sleep_sum += sleep_ms;
}

void an_page_queue(struct an_run *run, unsigned long long ts, bool queued)
{
	seen(run, ts);
	if (queued)
		run->cost.ledger.queued++;
	else
		run->cost.ledger.refused++;
}

void an_fault_isolated(struct an_run *run, unsigned long long ts, unsigned long nr)
{
	seen(run, ts);
	run->cost.fault.by_faults += nr;
}

void an_fault_migrate(struct an_run *run, unsigned long long ts, unsigned long isolated,
		      unsigned long succeeded, unsigned long failed, unsigned long long ns)
{
	struct an_fault_ledger *l = &run->cost.fault;

	seen(run, ts);
	if (succeeded + failed != isolated) {
		bad_input(run, "autonuma_fault_migrate's counts do not add up", "");
		return;
	}
	l->isolated += isolated;
	l->succeeded += succeeded;
	l->failed += failed;
	l->ns += ns;
}

void an_detail_queue(struct an_run *run, unsigned long long ts, bool queued)
{
	seen(run, ts);
	if (queued)
		run->cost.detail.queued++;
	else
		run->cost.detail.refused++;
}

const char *const an_dequeue_reasons[AN_DQ_NR] = {
	"isolated", "gone", "moved", "shared", "cancelled", "busy", "flushed"
};

void an_migrate_batch(struct an_run *run, unsigned long long ts, const struct an_batch *b)
{
	unsigned long dropped = 0;

	seen(run, ts);
	for (int r = AN_DQ_ISOLATED + 1; r < AN_DQ_NR; r++)
		dropped += b->dropped[r];
	if (dropped > b->entries || b->succeeded + b->failed != b->isolated) {
		bad_input(run, "autonuma_migrate_batch's counts do not add up", "");
		return;
	}
	run->cost.ledger.dequeued[AN_DQ_ISOLATED] += b->entries - dropped;
	for (int r = AN_DQ_ISOLATED + 1; r < AN_DQ_NR; r++)
		run->cost.ledger.dequeued[r] += b->dropped[r];
	run->cost.ledger.isolated += b->isolated;
	run->cost.migrated += b->succeeded;
	run->cost.migrate_failed += b->failed;
	run->cost.migrate_ns += b->ns;
}

void an_detail_dequeue(struct an_run *run, unsigned long long ts, unsigned long isolated,
		       const char *reason)
{
	int r = 0;

	seen(run, ts);
	while (r < AN_DQ_NR && (!reason || strcmp(reason, an_dequeue_reasons[r])))
		r++;
	if (r == AN_DQ_NR) {
		bad_input(run, "autonuma_page_dequeue: a reason this analysis does not know",
			  reason ? reason : "(none)");
		return;
	}
	run->cost.detail.dequeued[r]++;
	run->cost.detail.isolated += isolated;
}

unsigned long an_ledger_dequeued(const struct an_ledger *l)
{
	unsigned long n = 0;

	for (int r = 0; r < AN_DQ_NR; r++)
		n += l->dequeued[r];
	return n;
}

void an_lost(struct an_run *run, unsigned long long ts, unsigned long nr)
{
	seen(run, ts);
	if (!run->lost || ts < run->lost_ts)
		run->lost_ts = ts;
	run->lost += nr ? nr : 1;
	run->lost_unknown |= !nr;
}

/* A process sampled by knuma_scand's pass: the kernel-only measure. */
void an_mm_stats(struct an_run *run, unsigned long long ts, int tgid,
		 const unsigned long *pages, int nr_nodes)
{
	unsigned long total = 0;
	struct an_proc *p;

	seen(run, ts);
	if (!kernel_measures(run))
		return;		/* numa-sample measures this run */
	if (tgid <= 0)
		return;		/* an mm whose owner AutoNUMA has not recorded */
	if (nr_nodes < 1 || nr_nodes > AN_MAX_NODES) {
		char what[32];

		snprintf(what, sizeof(what), "%d nodes", nr_nodes);
		bad_input(run, "autonuma_mm_stats with a node count out of range", what);
		return;
	}
	run->kernel_mode = true;
	if (nr_nodes > run->nr_nodes)
		run->nr_nodes = nr_nodes;
	for (int nid = 0; nid < nr_nodes; nid++)
		total += pages[nid];
	p = find_proc(run, tgid, true);
	if (torn_down(p, total))
		return;
	for (int nid = 0; nid < AN_MAX_NODES; nid++)
		p->pages[nid] = nid < nr_nodes ? pages[nid] : 0;
	p->total = total;
	if (total > p->max_total)
		p->max_total = total;
	if (!p->first_ts)
		p->first_ts = ts;
	bool faulted = false;

	for (int i = 0; i < p->nr_threads; i++) {
		p->ticks += p->threads[i].weight;
		faulted |= p->threads[i].weight > 0;
	}
	/*
	 * No thread faulted since the last pass (all asleep, or exiting):
	 * nothing new on where they work, so they weigh as in the last pass
	 * with faults, not each the same.
	 */
	if (!faulted)
		for (int i = 0; i < p->nr_threads; i++)
			p->threads[i].weight = p->threads[i].last_weight;
	update(run, p, ts);
	for (int i = 0; i < p->nr_threads; i++) {
		p->threads[i].last_weight = p->threads[i].weight;
		p->threads[i].weight = 0;
	}
}

/* The end */

/* A counter's growth over the run; one that went down makes the run invalid. */
static unsigned long delta(struct an_run *run, const char *name, unsigned long start,
			   unsigned long end)
{
	if (end >= start)
		return end - start;
	if (!run->counter_down)
		run->counter_down = name;
	return 0;
}

/*
 * Converged, and for long enough: the condition held from converged_since
 * to its last sample for at least min_hold seconds (a process that
 * converges only at its last sample has shown nothing yet).
 */
static bool held(const struct an_run *run, const struct an_proc *p)
{
	return p->converged && (p->last_ts - p->converged_since) / 1e9 >= run->min_hold - 1e-9;
}

static int cmp_seconds(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	if (x == AN_NEVER || y == AN_NEVER)
		return (x == AN_NEVER) - (y == AN_NEVER);
	return (x > y) - (x < y);
}

void an_sort_seconds(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_seconds);
}

double an_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	an_sort_seconds(v, n);
	if (n % 2)
		return v[n / 2];
	if (v[n / 2] == AN_NEVER)
		return AN_NEVER;
	return (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The budget over the reported processes' pages (an_budget). */
static void budget(struct an_run *run)
{
	struct an_budget *b = &run->budget;
	size_t nq = 0, na = 0, ns = 0;
	int nr_tgids = 0;
	int *tgids = xrealloc(NULL, (run->nr_procs + 1) * sizeof(int));
	double *queue = xrealloc(NULL, (run->nr_pages + 1) * sizeof(double));
	double *node = xrealloc(NULL, (run->nr_pages + 1) * sizeof(double));
	double *scan = xrealloc(NULL, (run->nr_procs + 1) * sizeof(double));

	memset(b, 0, sizeof(*b));
	for (int i = 0; i < run->nr_procs; i++) {
		const struct an_proc *p = &run->procs[i];

		if (!an_reported(run, p))
			continue;
		tgids[nr_tgids++] = p->tgid;
		for (int j = 0; j < run->nr_scanned; j++)
			if (run->scanned[j].tgid == p->tgid)
				scan[ns++] = run->scanned[j].ts > run->start_ts ?
					     an_seconds(run, run->scanned[j].ts) : 0;
	}
	for (size_t i = 0; i < run->nr_slots; i++) {
		const struct an_page *pg = &run->pages[i];
		int k = 0;

		while (k < nr_tgids && tgids[k] != pg->tgid)
			k++;
		if (!pg->nodes || k == nr_tgids)
			continue;
		b->pages += pg->nr;
		if (pg->queue_ts) {
			b->queued += pg->nr;
			if (pg->queue_ts >= pg->first_ts)	/* events in time order */
				queue[nq++] = (pg->queue_ts - pg->first_ts) / 1e9;
		}
		if (pg->arrive_ts) {
			b->arrived += pg->nr;
			node[na++] = (pg->arrive_ts - pg->queue_ts) / 1e9;
		}
		if (pg->last_remote)
			b->remote[pg->last_action] += pg->nr;
	}
	b->fault_to_queue = an_median(queue, nq);
	b->queue_to_node = an_median(node, na);
	b->first_scan = an_median(scan, ns);
	b->migrate_rate = run->cost.migrate_ns ?
			  run->cost.migrated / (run->cost.migrate_ns / 1e9) : NAN;
	free(tgids);
	free(queue);
	free(node);
	free(scan);
}

void an_finish(struct an_run *run)
{
	run->nr_reported = 0;
	if (run->kernel_mode && !run->started)
		run->start_ts = run->first_ts;

	if (run->have_vm_start && run->have_vm_end) {
		run->cost.vm.pte_updates = delta(run, "numa_pte_updates",
			run->vm_start.pte_updates, run->vm_end.pte_updates);
		run->cost.vm.hint_faults = delta(run, "numa_hint_faults",
			run->vm_start.hint_faults, run->vm_end.hint_faults);
		run->cost.vm.hint_faults_local = delta(run, "numa_hint_faults_local",
			run->vm_start.hint_faults_local, run->vm_end.hint_faults_local);
		run->cost.vm.pages_migrated = delta(run, "numa_pages_migrated",
			run->vm_start.pages_migrated, run->vm_end.pages_migrated);
	}
	run->convergence = 0;
	run->slowest = 0;
	for (int i = 0; i < run->nr_procs; i++) {
		struct an_proc *p = &run->procs[i];

		p->convergence = AN_NEVER;
		if (held(run, p))
			p->convergence = p->converged_since > run->start_ts ?
					 an_seconds(run, p->converged_since) : 0;
		if (!an_reported(run, p))
			continue;
		run->nr_reported++;
		if (run->convergence == AN_NEVER)
			continue;
		if (p->convergence == AN_NEVER || p->convergence >= run->convergence) {
			run->convergence = p->convergence;
			run->slowest = p->tgid;
		}
	}
	if (!run->nr_reported)
		run->convergence = AN_NEVER;
	budget(run);
}
