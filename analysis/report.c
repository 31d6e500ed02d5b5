// SPDX-License-Identifier: GPL-2.0
/*
 * Print a run: table, CSV, JSON, gnuplot; and compare runs by variant.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report.h"

#define MIB(pages)	((pages) * 4096.0 / (1 << 20))

/* AutoNUMA's events exist in the trace: else its columns are not applicable. */
static bool autonuma_traced(const struct an_run *run)
{
	return run->cost.hinting_faults || run->cost.scan_pages || run->cost.balance_passes;
}

/*
 * "NAME: Q entries queued (R refused) = I isolated + G gone + ... + S still
 * queued; P pages isolated".  Entries queued before the trace began and
 * dequeued in it are added to Q, named as such, not counted as negative S.
 */
static void print_ledger(FILE *out, const char *name, const struct an_ledger *l)
{
	unsigned long dequeued = an_ledger_dequeued(l);
	unsigned long before = dequeued > l->queued ? dequeued - l->queued : 0;

	fprintf(out, "%s: %lu entries queued", name, l->queued + before);
	if (before)
		fprintf(out, " (%lu before the trace began)", before);
	fprintf(out, " (%lu refused) =", l->refused);
	for (int r = 0; r < AN_DQ_NR; r++)
		if (r <= AN_DQ_CANCELLED || l->dequeued[r])
			fprintf(out, "%s %lu %s", r ? " +" : "", l->dequeued[r], an_dequeue_reasons[r]);
	fprintf(out, " + %lu still queued; %lu pages isolated",
		l->queued + before - dequeued, l->isolated);
}

void an_summarize(const struct an_run *run, const char *file, struct an_summary *s)
{
	const struct an_cost *c = &run->cost;

	memset(s, 0, sizeof(*s));
	snprintf(s->file, sizeof(s->file), "%s", file);
	snprintf(s->variant, sizeof(s->variant), "%s", run->variant);
	s->valid = an_valid(run);
	if (!s->valid)
		snprintf(s->why, sizeof(s->why), "%s", an_invalid_reason(run));
	s->convergence = run->convergence;
	s->duration = an_duration(run);
	if (run->have_vm_start && run->have_vm_end) {
		s->scanned = c->vm.pte_updates;
		s->faults = c->vm.hint_faults;
		s->migrated = c->vm.pages_migrated;
	} else {	/* a plain record: the kernel's counters are not in it */
		s->scanned = s->faults = s->migrated = NAN;
	}
	s->scan_rate = s->duration > 0 ? s->scanned / s->duration : NAN;
	s->pingpong = autonuma_traced(run) ? c->pingpong_pages : NAN;
	s->task_moves = c->task_moves + c->upstream_moves;
	s->balance_ms = autonuma_traced(run) ? c->balance_ns / 1e6 : NAN;
	s->balance_ms_per_s = s->duration > 0 ? s->balance_ms / s->duration : NAN;
	s->stream_local = run->stream_procs ? run->stream_local : NAN;
}

void an_summarize_unreadable(const char *file, const char *err, struct an_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->stream_local = NAN;
	snprintf(s->file, sizeof(s->file), "%s", file);
	snprintf(s->why, sizeof(s->why), "%s", err);
	s->unreadable = true;
}

static const char *seconds(double s, char *buf, size_t len)
{
	if (s == AN_NEVER)
		return "never";
	snprintf(buf, len, "%.2f s", s);
	return buf;
}

/* A share in percent, "-" for NAN (no hinting fault traced). */
static const char *percent(double x, char *buf, size_t len)
{
	if (isnan(x))
		return "-";
	snprintf(buf, len, "%.1f%%", x);
	return buf;
}

/* A budget step: "-" where no page took it */
static const char *step(double s, char *buf, size_t len)
{
	return isnan(s) ? "-" : seconds(s, buf, len);
}

/*
 * Where the time went: the steps of a page towards its threads' node, and
 * the pages still remote at their last fault, by what that fault did.
 */
static void print_budget(FILE *out, const struct an_run *run)
{
	const struct an_budget *b = &run->budget;
	char s1[32], s2[32], s3[32], rate[32] = "-";

	if (!isnan(b->migrate_rate))
		snprintf(rate, sizeof(rate), "%.0f", b->migrate_rate);
	fprintf(out, "budget: first scan of a process %s after the start; first hinting fault "
		"from a node to queued there (last_nid) %s over %lu of %lu pages; queued to on its "
		"node %s over %lu pages; knuma_migrated %s pages/s while migrating\n",
		step(b->first_scan, s1, sizeof(s1)), step(b->fault_to_queue, s2, sizeof(s2)),
		b->queued, b->pages, step(b->queue_to_node, s3, sizeof(s3)), b->arrived, rate);
	if (run->passes.n)
		fprintf(out, "knuma_scand: %lu passes, each followed by twice %lu to %lu ms "
			"(mean %.0f)\n", run->passes.n, run->passes.sleep_min, run->passes.sleep_max,
			run->passes.sleep_sum / run->passes.n);
	fprintf(out, "pages remote at their last fault, by what it did:");
	for (int a = 0; a < AN_ACT_NR; a++)
		if (b->remote[a])
			fprintf(out, " %s %lu", an_actions[a], b->remote[a]);
	fprintf(out, "\n");
}

void report_table(FILE *out, const char *file, const struct an_run *run)
{
	const struct an_cost *c = &run->cost;
	const char *why = an_invalid_reason(run);
	char buf[32], pct[16];

	fprintf(out, "run %s: variant %s, %d nodes, %d CPUs, %.1f s from the %s\n",
		file, run->variant, run->nr_nodes, run->nr_cpus, an_duration(run),
		run->started ? "workload's start" : "trace's first event");
	fprintf(out, "validity: %s\n", why ? why : "valid (no lost events)");
	fprintf(out, "measure: %s\n", an_measure(run));
	fprintf(out, "convergence (its working threads on one node, >= %.0f%% of its pages there): %s",
		run->threshold, seconds(run->convergence, buf, sizeof(buf)));
	if (run->convergence != AN_NEVER && run->slowest)
		fprintf(out, " (slowest: %d)", run->slowest);
	fprintf(out, "\n\n%7s %-15s %8s %7s %4s %9s %9s %12s\n", "tgid", "comm", "MiB", "threads",
		"node", "locality", "accesses", "converged");
	for (int i = 0; i < run->nr_procs; i++) {
		const struct an_proc *p = &run->procs[i];

		if (!an_reported(run, p))
			continue;
		fprintf(out, "%7d %-15s %8.1f %7d %4d %8.1f%% %9s %12s\n", p->tgid,
			p->comm[0] ? p->comm : "-", MIB(p->max_total), p->nr_threads, p->node,
			p->locality, percent(p->access, pct, sizeof(pct)),
			seconds(p->convergence, buf, sizeof(buf)));
	}
	if (run->have_vm_start && run->have_vm_end)
		fprintf(out, "\ncost (kernel counters over the run): %lu ptes made NUMA-hinting, "
			"%lu hinting faults (%lu local), %lu pages migrated\n", c->vm.pte_updates,
			c->vm.hint_faults, c->vm.hint_faults_local, c->vm.pages_migrated);
	else
		fprintf(out, "\ncost (kernel counters over the run): not in the trace "
			"(numa-sample records them)\n");
	fprintf(out, "scheduler: %lu migrations of the workload's threads, %lu moves by "
		"upstream NUMA balancing\n", c->thread_migrations, c->upstream_moves);
	if (!autonuma_traced(run))
		return;
	fprintf(out, "autonuma: %lu pages scanned in %.1f ms, %lu hinting faults, "
		"%lu pages migrated (%lu failed) in %.1f ms, %lu ping-pong pages\n",
		c->scan_pages, c->scan_ns / 1e6, c->hinting_faults, c->migrated,
		c->migrate_failed, c->migrate_ns / 1e6, c->pingpong_pages);
	fprintf(out, "autonuma placement: %lu balance passes (%.1f/s) in %.2f ms (%.2f ms/s; "
		"%.0f ns, %.1f CPUs examined per pass, at most %lu), %lu decisions, %lu tasks moved "
		"(%lu onto a CPU another move reached less than %.0f ms before)\n",
		c->balance_passes, c->balance_passes / an_duration(run), c->balance_ns / 1e6,
		c->balance_ns / 1e6 / an_duration(run),
		c->balance_passes ? (double)c->balance_ns / c->balance_passes : 0,
		c->balance_passes ? (double)c->balance_cpus / c->balance_passes : 0,
		c->balance_cpus_max, c->placements, c->task_moves, c->herd_moves, AN_HERD_NS / 1e6);
	print_ledger(out, "knuma_migrated ledger", &c->ledger);
	fprintf(out, " = %lu migrated + %lu failed\n", c->migrated, c->migrate_failed);
	if (c->fault.by_faults || c->fault.isolated)
		fprintf(out, "migrate_on_fault: %lu pages isolated by hinting faults, %lu migrated by "
			"them = %lu migrated + %lu failed in %.1f ms\n", c->fault.by_faults,
			c->fault.isolated, c->fault.succeeded, c->fault.failed, c->fault.ns / 1e6);
	print_budget(out, run);
	if (c->detail.queued + c->detail.refused + an_ledger_dequeued(&c->detail)) {
		print_ledger(out, "per-page events (autonuma_detail)", &c->detail);
		fputc('\n', out);
	}
}

void report_csv_header(FILE *out)
{
	fprintf(out, "file,variant,valid,tgid,comm,mib,threads,node,locality_pct,"
		"convergence_s,lost,pte_updates,hint_faults,pages_migrated,pingpong_pages,"
		"thread_migrations,task_moves,balance_ms\n");
}

/* One row per process, then one for the run (tgid empty). */
void report_csv(FILE *out, const char *file, const struct an_run *run)
{
	const struct an_cost *c = &run->cost;
	char conv[32];

	for (int i = 0; i < run->nr_procs; i++) {
		const struct an_proc *p = &run->procs[i];

		if (!an_reported(run, p))
			continue;
		snprintf(conv, sizeof(conv), "%.3f", p->convergence);
		fprintf(out, "%s,%s,%d,%d,%s,%.1f,%d,%d,%.1f,%s,,,,,,,,\n", file, run->variant,
			an_valid(run), p->tgid, p->comm, MIB(p->max_total), p->nr_threads,
			p->node, p->locality, p->convergence == AN_NEVER ? "never" : conv);
	}
	snprintf(conv, sizeof(conv), "%.3f", run->convergence);
	fprintf(out, "%s,%s,%d,,,,,,,%s,%lu,%lu,%lu,%lu,%lu,%lu,%lu,%.3f\n", file, run->variant,
		an_valid(run), run->convergence == AN_NEVER ? "never" : conv, run->lost,
		c->vm.pte_updates, c->vm.hint_faults, c->vm.pages_migrated, c->pingpong_pages,
		c->thread_migrations, c->task_moves + c->upstream_moves, c->balance_ns / 1e6);
}

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* A number, or null for NAN. */
static void json_number(FILE *out, double x)
{
	if (isnan(x))
		fprintf(out, "null");
	else
		fprintf(out, "%.2f", x);
}

static void json_ledger(FILE *out, const char *name, const struct an_ledger *l)
{
	fprintf(out, "\"%s\": {\"queued\": %lu, \"refused\": %lu, \"isolated\": %lu, \"dequeued\": {",
		name, l->queued, l->refused, l->isolated);
	for (int r = 0; r < AN_DQ_NR; r++)
		fprintf(out, "%s\"%s\": %lu", r ? ", " : "", an_dequeue_reasons[r], l->dequeued[r]);
	fprintf(out, "}}");
}

static void json_seconds(FILE *out, double s)
{
	if (s == AN_NEVER)
		fprintf(out, "null");
	else
		fprintf(out, "%.3f", s);
}

/* When the process was first seen converged after the workload's start. */
static double first_converged(const struct an_run *run, const struct an_proc *p)
{
	for (int j = 0; j < p->nr_points; j++)
		if (p->points[j].converged && p->points[j].ts >= run->start_ts)
			return an_seconds(run, p->points[j].ts);
	return AN_NEVER;
}

void report_json(FILE *out, const char *file, const struct an_run *run)
{
	const struct an_cost *c = &run->cost;
	const char *why = an_invalid_reason(run);
	bool first = true;

	fprintf(out, "{\"file\": ");
	json_string(out, file);
	fprintf(out, ", \"variant\": ");
	json_string(out, run->variant);
	fprintf(out, ", \"measure\": \"%s\"", run->kernel_mode ? "kernel" : "numa-sample");
	fprintf(out, ", \"valid\": %s, \"invalid_reason\": ", why ? "false" : "true");
	if (why)
		json_string(out, why);
	else
		fprintf(out, "null");
	fprintf(out, ", \"nodes\": %d, \"cpus\": %d, \"duration_s\": %.3f, \"threshold_pct\": %.1f, "
		"\"lost_events\": %lu, \"convergence_s\": ", run->nr_nodes, run->nr_cpus,
		an_duration(run), run->threshold, run->lost);
	json_seconds(out, run->convergence);
	fprintf(out, ",\n \"cost\": {\"pte_updates\": %lu, \"hint_faults\": %lu, "
		"\"hint_faults_local\": %lu, \"pages_migrated\": %lu, \"thread_migrations\": %lu, "
		"\"upstream_moves\": %lu, \"autonuma_scan_pages\": %lu, \"autonuma_scan_ms\": %.3f, "
		"\"autonuma_hinting_faults\": %lu, \"autonuma_migrated\": %lu, "
		"\"autonuma_migrate_failed\": %lu, \"autonuma_migrate_ms\": %.3f, "
		"\"pingpong_pages\": %lu, \"balance_passes\": %lu, \"balance_cpus\": %lu, \"balance_ms\": %.3f, "
		"\"balance_cpus_max\": %lu, \"placements\": %lu, \"task_moves\": %lu, \"herd_moves\": %lu,\n  ",
		c->vm.pte_updates, c->vm.hint_faults, c->vm.hint_faults_local, c->vm.pages_migrated,
		c->thread_migrations, c->upstream_moves, c->scan_pages, c->scan_ns / 1e6,
		c->hinting_faults, c->migrated, c->migrate_failed, c->migrate_ns / 1e6,
		c->pingpong_pages, c->balance_passes, c->balance_cpus, c->balance_ns / 1e6,
		c->balance_cpus_max, c->placements, c->task_moves, c->herd_moves);
	json_ledger(out, "ledger", &c->ledger);
	fprintf(out, ",\n  ");
	json_ledger(out, "detail", &c->detail);
	fprintf(out, ",\n  \"fault_migrate\": {\"by_faults\": %lu, \"isolated\": %lu, "
		"\"migrated\": %lu, \"failed\": %lu, \"ms\": %.3f}", c->fault.by_faults,
		c->fault.isolated, c->fault.succeeded, c->fault.failed, c->fault.ns / 1e6);
	fprintf(out, "},\n \"budget\": {\"first_scan_s\": ");
	json_number(out, run->budget.first_scan);
	fprintf(out, ", \"fault_to_queue_s\": ");
	json_number(out, run->budget.fault_to_queue);
	fprintf(out, ", \"queue_to_node_s\": ");
	json_number(out, run->budget.queue_to_node);
	fprintf(out, ", \"pages\": %lu, \"queued\": %lu, \"arrived\": %lu, \"migrate_pages_per_s\": ",
		run->budget.pages, run->budget.queued, run->budget.arrived);
	json_number(out, run->budget.migrate_rate);
	fprintf(out, ", \"scan_passes\": %lu, \"pass_sleep_min_ms\": %lu, \"pass_sleep_max_ms\": %lu",
		run->passes.n, run->passes.sleep_min, run->passes.sleep_max);
	fprintf(out, ", \"remote_by_last_action\": {");
	for (int a = 0; a < AN_ACT_NR; a++)
		fprintf(out, "%s\"%s\": %lu", a ? ", " : "", an_actions[a], run->budget.remote[a]);
	fprintf(out, "}},\n \"processes\": [");
	for (int i = 0; i < run->nr_procs; i++) {
		const struct an_proc *p = &run->procs[i];

		if (!an_reported(run, p))
			continue;
		fprintf(out, "%s\n  {\"tgid\": %d, \"comm\": ", first ? "" : ",", p->tgid);
		json_string(out, p->comm);
		fprintf(out, ", \"mib\": %.1f, \"threads\": %d, \"node\": %d, \"locality_pct\": %.2f, "
			"\"access_local_pct\": ", MIB(p->max_total), p->nr_threads, p->node, p->locality);
		json_number(out, p->access);
		fprintf(out, ", \"convergence_s\": ");
		json_seconds(out, p->convergence);
		fprintf(out, ", \"first_converged_s\": ");
		json_seconds(out, first_converged(run, p));
		fprintf(out, ", \"pages\": [");
		for (int nid = 0; nid < run->nr_nodes; nid++)
			fprintf(out, "%s%lu", nid ? ", " : "", p->pages[nid]);
		fprintf(out, "]");
		fprintf(out, ", \"samples\": [");
		for (int j = 0; j < p->nr_points; j++) {
			fprintf(out, "%s[%.3f, %.2f, %.1f, ", j ? ", " : "",
				an_seconds(run, p->points[j].ts), p->points[j].locality,
				p->points[j].threads_home);
			json_number(out, p->points[j].access);
			fprintf(out, "]");
		}
		fprintf(out, "]}");
		first = false;
	}
	fprintf(out, "]}\n");
}

/* One plot command over every reported process, of column col. */
static void plot_command(FILE *gp, const struct an_run *run, int col)
{
	int block = 0;

	for (int i = 0; i < run->nr_procs; i++) {
		const struct an_proc *p = &run->procs[i];

		if (!an_reported(run, p))
			continue;
		fprintf(gp, "%s'locality.dat' index %d using 1:%d with steps lc %d title '%d %s'",
			block ? ", \\\n\t" : "plot ", block, col, block + 1, p->tgid, p->comm);
		block++;
	}
	fprintf(gp, "\n");
}

/* DIR/NAME.dat and DIR/NAME.gp, opened for writing (DIR made if needed). */
static int plot_open(const char *dir, const char *name, FILE **dat, FILE **gp)
{
	char path[4096];

	if (mkdir(dir, 0777) && errno != EEXIST) {
		fprintf(stderr, "autonuma-report: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s.dat", dir, name);
	*dat = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/%s.gp", dir, name);
	*gp = fopen(path, "w");
	if (*dat && *gp)
		return 0;
	fprintf(stderr, "autonuma-report: %s: %s\n", path, strerror(errno));
	if (*dat)
		fclose(*dat);
	if (*gp)
		fclose(*gp);
	return -1;
}

/* Run gnuplot on DIR/NAME.gp: DIR/NAME.svg. */
static int plot_draw(const char *dir, const char *name)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot %s.gp", dir, name);
	if (!system(cmd))
		return 0;
	fprintf(stderr, "autonuma-report: gnuplot failed; %s/%s.gp is left to run\n", dir, name);
	return -1;
}

int report_plot(const char *dir, const char *file, const struct an_run *run)
{
	FILE *dat, *gp;
	int block = 0;
	bool access = false;

	/* a third panel for hinting-fault locality, where there are faults */
	for (int i = 0; i < run->nr_procs; i++)
		for (int j = 0; an_reported(run, &run->procs[i]) && j < run->procs[i].nr_points; j++)
			access |= !isnan(run->procs[i].points[j].access);
	if (plot_open(dir, "locality", &dat, &gp))
		return -1;
	fprintf(gp, "# autonuma-report: locality per process, %s\n"
		"set terminal svg size 900,800 dynamic\nset output 'locality.svg'\n"
		"set multiplot layout %d,1 title 'variant %s (dashed: convergence)'\n"
		"set datafile missing '?'\n"
		"set xlabel 'seconds since the workload started'\nset xrange [0:*]\n"
		"set key outside right\n"
		"set yrange [0:105]\nset ylabel 'pages local (%%)'\n", file, access ? 3 : 2,
		run->variant);
	for (int i = 0; i < run->nr_procs; i++) {
		const struct an_proc *p = &run->procs[i];

		if (!an_reported(run, p))
			continue;
		fprintf(dat, "# tgid %d %s: seconds, locality %%, CPU time on its node %%, "
			"hinting-fault pages local %%\n", p->tgid, p->comm);
		for (int j = 0; j < p->nr_points; j++) {
			double t = an_seconds(run, p->points[j].ts);

			if (t < 0)	/* sampled before the workload started */
				continue;
			fprintf(dat, "%.3f %.2f %.1f ", t, p->points[j].locality,
				p->points[j].threads_home);
			if (isnan(p->points[j].access))
				fprintf(dat, "?\n");
			else
				fprintf(dat, "%.1f\n", p->points[j].access);
		}
		fprintf(dat, "\n\n");
		if (p->convergence != AN_NEVER)
			fprintf(gp, "set arrow from %.3f, graph 0 to %.3f, graph 1 nohead dt 2 "
				"lc %d\n", p->convergence, p->convergence, block + 1);
		block++;
	}
	if (block) {
		plot_command(gp, run, 2);
		fprintf(gp, "unset arrow\nset ylabel 'CPU time on its node (%%)'\n");
		plot_command(gp, run, 3);
		if (access) {	/* only AutoNUMA's runs trace hinting faults */
			fprintf(gp, "set ylabel 'hinting faults local (%%)'\n");
			plot_command(gp, run, 4);
		}
		fprintf(gp, "unset multiplot\n");
	}
	fclose(dat);
	fclose(gp);
	if (!block) {
		fprintf(stderr, "autonuma-report: no process to plot\n");
		return -1;
	}
	return plot_draw(dir, "locality");
}

/* Compare */


/* Runs of variant v, valid, sorted by convergence (never last); returns k. */
static int sorted_convergence(const struct an_summary *runs, int n, const char *v, double *out)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (!runs[i].unreadable && runs[i].valid && !strcmp(runs[i].variant, v))
			out[k++] = runs[i].convergence;
	an_sort_seconds(out, k);
	return k;
}

/* Median of the valid runs of a variant (NAN values skipped). */
static double median(const struct an_summary *runs, int n, const char *variant,
		     size_t offset, double *min, double *max)
{
	double v[n + 1], m;
	int k = 0;

	for (int i = 0; i < n; i++) {
		double x = *(const double *)((const char *)&runs[i] + offset);

		if (runs[i].valid && !strcmp(runs[i].variant, variant) && !isnan(x))
			v[k++] = x;
	}
	m = an_median(v, k);
	if (k && min)
		*min = v[0];
	if (k && max)
		*max = v[k - 1];
	return m;
}

static void cell_seconds(FILE *out, double s)
{
	if (isnan(s))
		fprintf(out, " - |");
	else if (s == AN_NEVER)
		fprintf(out, " never |");
	else
		fprintf(out, " %.2f |", s);
}

static void cell_number(FILE *out, double x, double base)
{
	int digits = x != floor(x) && fabs(x) < 10 ? 3 : 0;

	if (isnan(x))
		fprintf(out, " - |");
	else if (isnan(base) || base <= 0)
		fprintf(out, " %.*f |", digits, x);
	else
		fprintf(out, " %.*f (%.2f) |", digits, x, x / base);
}

#define FIELD(f) offsetof(struct an_summary, f)

/*
 * The variants on one figure: for each, the share of its valid runs
 * converged by time t (a step CDF; runs that never converged keep it
 * below 1).  DIR/convergence.{dat,gp,svg}.
 */
int report_compare_plot(const char *dir, const struct an_summary *runs, int n)
{
	const char *variants[n];
	double v[n], end = 0;
	int nv = 0;
	FILE *dat, *gp;

	for (int i = 0; i < n; i++) {
		int j = 0;

		if (runs[i].unreadable || !runs[i].valid)
			continue;
		if (runs[i].duration > end)
			end = runs[i].duration;
		while (j < nv && strcmp(variants[j], runs[i].variant))
			j++;
		if (j == nv)
			variants[nv++] = runs[i].variant;
	}
	if (!nv) {
		fprintf(stderr, "autonuma-report: no valid run to plot\n");
		return -1;
	}
	if (plot_open(dir, "convergence", &dat, &gp))
		return -1;
	fprintf(gp, "set terminal svg size 700,400 dynamic\nset output 'convergence.svg'\n"
		"set title 'runs converged by time t, per variant'\nset key bottom right\n"
		"set xlabel 'seconds since the workload started'\nset ylabel 'runs converged'\n"
		"set xrange [0:%.1f]\nset yrange [0:1.05]\n", end > 0 ? end : 1);
	for (int j = 0; j < nv; j++) {
		int k = sorted_convergence(runs, n, variants[j], v), done = 0;

		fprintf(dat, "# %s: seconds, share of its %d valid runs converged\n0 0\n",
			variants[j], k);
		for (int i = 0; i < k && v[i] != AN_NEVER; i++)
			fprintf(dat, "%.3f %.3f\n", v[i], (double)++done / k);
		fprintf(dat, "%.3f %.3f\n\n\n", end, (double)done / k);
		fprintf(gp, "%s'convergence.dat' index %d using 1:2 with steps lw 2 title '%s (%d runs)'",
			j ? ", \\\n\t" : "plot ", j, variants[j], k);
	}
	fprintf(gp, "\n");
	fclose(dat);
	fclose(gp);
	return plot_draw(dir, "convergence");
}

int report_compare(FILE *out, struct an_summary *runs, int n, const char *baseline)
{
	static const struct { const char *name; size_t off; } costs[] = {
		{ "ptes scanned", FIELD(scanned) }, { "ptes/s", FIELD(scan_rate) },
		{ "hinting faults", FIELD(faults) },
		{ "pages migrated", FIELD(migrated) }, { "ping-pong pages", FIELD(pingpong) },
		{ "task moves", FIELD(task_moves) }, { "balance ms", FIELD(balance_ms) },
		{ "balance ms/s", FIELD(balance_ms_per_s) },
	};
	const char *variants[n];
	int nv = 0, base = -1;
	double base_conv;
	bool local = false;
	int unreadable = 0;

	for (int i = 0; i < n; i++) {
		int j = 0;

		if (runs[i].unreadable)
			continue;
		while (j < nv && strcmp(variants[j], runs[i].variant))
			j++;
		if (j == nv)
			variants[nv++] = runs[i].variant;
	}
	for (int j = 0; j < nv; j++)
		if (baseline && !strcmp(variants[j], baseline))
			base = j;
	for (int i = 0; i < n; i++)
		unreadable += runs[i].unreadable;
	if (baseline && base < 0 && !unreadable) {
		fprintf(stderr, "autonuma-report: baseline variant '%s' is not among the runs\n",
			baseline);
		return -1;
	}
	if (baseline && base < 0 && nv)	/* its traces may be the unreadable ones */
		fprintf(out, "The baseline %s has no readable run: ratios are to %s.\n\n",
			baseline, variants[0]);
	if (!nv) {
		fprintf(out, "No readable run.\n");
		goto left_out;
	}
	if (base < 0)
		base = 0;
	base_conv = median(runs, n, variants[base], FIELD(convergence), NULL, NULL);

	for (int i = 0; i < n; i++)
		local |= !runs[i].unreadable && !isnan(runs[i].stream_local);
	fprintf(out, "| variant | runs (valid) | convergence median s | min | max | ratio to %s |",
		variants[base]);
	if (local)
		fprintf(out, " stream local %% |");
	for (size_t c = 0; c < sizeof(costs) / sizeof(costs[0]); c++)
		fprintf(out, " %s |", costs[c].name);
	fprintf(out, "\n|---|---|---|---|---|---|%s", local ? "---|" : "");
	for (size_t c = 0; c < sizeof(costs) / sizeof(costs[0]); c++)
		fprintf(out, "---|");
	fprintf(out, "\n");
	for (int j = 0; j < nv; j++) {
		double min = NAN, max = NAN, conv;
		int total = 0, valid = 0;

		for (int i = 0; i < n; i++)
			if (!strcmp(runs[i].variant, variants[j])) {
				total++;
				valid += runs[i].valid;
			}
		conv = median(runs, n, variants[j], FIELD(convergence), &min, &max);
		fprintf(out, "| %s | %d (%d) |", variants[j], total, valid);
		cell_seconds(out, conv);
		cell_seconds(out, min);
		cell_seconds(out, max);
		if (isnan(conv) || isnan(base_conv) || conv == AN_NEVER || base_conv == AN_NEVER ||
		    base_conv <= 0)
			fprintf(out, " %s |", conv == AN_NEVER ? "-" : j == base ? "1.00" : "n/a");
		else
			fprintf(out, " %.2f |", conv / base_conv);
		if (local) {
			double m = median(runs, n, variants[j], FIELD(stream_local), NULL, NULL);

			isnan(m) ? fprintf(out, " - |") : fprintf(out, " %.1f |", m);
		}
		for (size_t c = 0; c < sizeof(costs) / sizeof(costs[0]); c++)
			cell_number(out, median(runs, n, variants[j], costs[c].off, NULL, NULL),
				    median(runs, n, variants[base], costs[c].off, NULL, NULL));
		fprintf(out, "\n");
	}
	fprintf(out, "\nMedians over valid runs; cost cells: median (ratio to %s); "
		"never: the median run did not converge; -: no valid run or not traced.%s\n",
		variants[base], local ? " stream local %: stream's per-thread locality at the end "
		"(pages on the node where the thread owning them ran), its lowest process" : "");
left_out:
	for (int i = 0; i < n; i++)
		if (runs[i].unreadable)
			fprintf(out, "unreadable trace left out: %s: %s\n", runs[i].file, runs[i].why);
		else if (!runs[i].valid)
			fprintf(out, "invalid run left out: %s (%s): %s\n", runs[i].file,
				runs[i].variant, runs[i].why);
	return 0;
}
