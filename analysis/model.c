// SPDX-License-Identifier: GPL-2.0
/*
 * The run model: follows events, keeps per-process placement and cost, and
 * decides when each process converged.
 *
 * Placement is read at numa-sample's samples, memory and threads alike.  A
 * process has converged at a sample when its working threads run on one
 * node and at least `threshold` % of its pages are there.  Threads count by
 * the CPU time they used since the previous sample: one that used less than
 * a quarter of its busiest sibling's (a thread that reports or sleeps) does
 * not decide where the process runs.  Its convergence time runs from the
 * workload's start to the first sample after which that holds at every
 * later sample, up to its last sample or the workload's stop marker (a
 * final check after it is not placement).  A thread's excursion to another
 * node between two samples does not restart the clock; it is counted in
 * the cost (sched_migrate_task).
 */
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
	run->convergence = AN_NEVER;
}

void an_free(struct an_run *run)
{
	for (int i = 0; i < run->nr_procs; i++) {
		free(run->procs[i].threads);
		free(run->procs[i].points);
	}
	free(run->procs);
	free(run->pages);
	run->procs = NULL;
	run->pages = NULL;
}

static void seen(struct an_run *run, unsigned long long ts)
{
	if (ts > run->last_ts)
		run->last_ts = ts;
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

bool an_valid(const struct an_run *run)
{
	return !run->lost && !run->error[0] && run->ended && !run->status;
}

bool an_reported(const struct an_run *run, const struct an_proc *p)
{
	double span = p->last_ts > p->first_ts ? (p->last_ts - p->first_ts) / 1e9 : 0;

	if (p->max_total < run->min_pages || !p->max_total)
		return false;
	return span > 0 ? p->ticks >= 10 * span : p->ticks > 0;
}

/* Processes and threads */

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
 * Re-evaluate p at ts: its node (where its threads used the most CPU
 * time), locality (the share of its pages on each thread's node, weighted
 * by CPU time) and whether it is converged now.
 */
static void update(struct an_run *run, struct an_proc *p, unsigned long long ts)
{
	double weight[AN_MAX_NODES] = { 0 }, local = 0, total = 0, max = 0;
	bool converged = true;
	int node = -1;

	if (!p->total)
		return;
	for (int i = 0; i < p->nr_threads; i++)
		if (p->threads[i].weight > max)
			max = p->threads[i].weight;
	for (int i = 0; i < p->nr_threads; i++) {
		int nid = cpu_node(run, p->threads[i].cpu);
		/* all slept through the interval: each counts the same */
		double w = max ? p->threads[i].weight : 1;

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

		if ((!max || 4.0 * t->weight >= max) && cpu_node(run, t->cpu) != node)
			converged = false;
	}
	converged &= 100.0 * p->pages[node] >= run->threshold * p->total;
	p->node = node;
	p->locality = 100.0 * local / total;
	if (converged && !p->converged)
		p->converged_since = ts;
	p->converged = converged;
	p->last_ts = ts;

	p->points = xrealloc(p->points, (p->nr_points + 1) * sizeof(*p->points));
	p->points[p->nr_points++] = (struct an_point){
		.ts = ts, .locality = p->locality,
		.threads_home = 100.0 * weight[node] / total,
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

static int sample_cpu(struct an_run *run, const struct field *f, int n, const char *text)
{
	long seq, tgid, tid, cpu, ticks;
	struct an_thread *t;

	if (!get_long(f, n, "seq", 0, &seq) || !get_long(f, n, "tgid", 1, &tgid) ||
	    !get_long(f, n, "tid", 1, &tid) || !get_long(f, n, "cpu", 0, &cpu) ||
	    !get_long(f, n, "ticks", 0, &ticks) || cpu >= run->nr_cpus)
		return bad_input(run, "malformed numa-sample cpu", text);
	t = find_thread(find_proc(run, tgid, true), tid, true);
	t->cpu = cpu;
	t->seq = seq;
	t->weight = (unsigned long)ticks >= t->ticks ? ticks - t->ticks : 0;
	t->ticks = ticks;
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
		sample_cpu(run, f, n, text);
	else if (!strcmp(kind, "mem"))
		sample_mem(run, ts, f, n, text);
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

void an_thread_migrate(struct an_run *run, unsigned long long ts, int pid, int dest_cpu)
{
	seen(run, ts);
	for (int i = 0; i < run->nr_procs; i++)
		if (find_thread(&run->procs[i], pid, false)) {
			run->cost.thread_migrations++;
			return;
		}
}

void an_placement(struct an_run *run, unsigned long long ts)
{
	seen(run, ts);
	run->cost.placements++;
}

void an_task_moved(struct an_run *run, unsigned long long ts, bool moved)
{
	seen(run, ts);
	run->cost.task_moves += moved;
}

void an_balance(struct an_run *run, unsigned long long ts, unsigned long long ns,
		unsigned long cpus)
{
	seen(run, ts);
	run->cost.balance_passes++;
	run->cost.balance_cpus += cpus;
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
void an_hinting_fault(struct an_run *run, unsigned long long ts, int tgid,
		      unsigned long index, int page_nid, int nr)
{
	struct an_page *pg;

	seen(run, ts);
	run->cost.hinting_faults++;
	if (page_nid < 0 || page_nid >= AN_MAX_NODES) {
		bad_input(run, "hinting fault on a node out of range", "");
		return;
	}
	pg = find_page(run, (unsigned long long)tgid << 44 ^ index);
	if (pg->nodes && pg->nid != page_nid && (pg->nodes & 1ULL << page_nid) &&
	    !pg->pingpong) {
		pg->pingpong = true;
		run->cost.pingpong_pages += nr;
	}
	pg->nodes |= 1ULL << page_nid;
	pg->nid = page_nid;
}

void an_scan(struct an_run *run, unsigned long long ts, unsigned long pages,
	     unsigned long long ns)
{
	seen(run, ts);
	run->cost.scan_pages += pages;
	run->cost.scan_ns += ns;
}

void an_page_queue(struct an_run *run, unsigned long long ts, bool queued)
{
	seen(run, ts);
	if (queued)
		run->cost.queue_entries++;
	else
		run->cost.queue_full++;
}

const char *const an_dequeue_reasons[AN_DQ_NR] = {
	"isolated", "gone", "moved", "shared", "cancelled", "busy", "flushed", "other"
};

void an_page_dequeue(struct an_run *run, unsigned long long ts, unsigned long isolated,
		     const char *reason)
{
	int r = 0;

	seen(run, ts);
	while (r < AN_DQ_OTHER && (!reason || strcmp(reason, an_dequeue_reasons[r])))
		r++;
	run->cost.dequeue_entries++;
	run->cost.dequeued[r]++;
	run->cost.dequeue_isolated += isolated;
}

void an_migrate_batch(struct an_run *run, unsigned long long ts, unsigned long isolated,
		      unsigned long succeeded, unsigned long failed, unsigned long long ns)
{
	seen(run, ts);
	run->cost.batch_isolated += isolated;
	run->cost.migrated += succeeded;
	run->cost.migrate_failed += failed;
	run->cost.migrate_ns += ns;
}

void an_lost(struct an_run *run, unsigned long long ts, unsigned long nr)
{
	seen(run, ts);
	run->lost += nr ? nr : 1;
}

/* The end */

void an_finish(struct an_run *run)
{
	bool any = false;

	if (run->have_vm_start && run->have_vm_end) {
		run->cost.vm.pte_updates = run->vm_end.pte_updates - run->vm_start.pte_updates;
		run->cost.vm.hint_faults = run->vm_end.hint_faults - run->vm_start.hint_faults;
		run->cost.vm.hint_faults_local =
			run->vm_end.hint_faults_local - run->vm_start.hint_faults_local;
		run->cost.vm.pages_migrated =
			run->vm_end.pages_migrated - run->vm_start.pages_migrated;
	}
	run->convergence = 0;
	run->slowest = 0;
	for (int i = 0; i < run->nr_procs; i++) {
		struct an_proc *p = &run->procs[i];

		p->convergence = AN_NEVER;
		if (p->converged)
			p->convergence = p->converged_since > run->start_ts ?
					 an_seconds(run, p->converged_since) : 0;
		if (!an_reported(run, p))
			continue;
		any = true;
		if (run->convergence == AN_NEVER)
			continue;
		if (p->convergence == AN_NEVER || p->convergence >= run->convergence) {
			run->convergence = p->convergence;
			run->slowest = p->tgid;
		}
	}
	if (!any)
		run->convergence = AN_NEVER;
}
