// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the report on synthetic runs.  TAP output.
 * usage: report-test SCRATCH-DIR (the plots are drawn there, for the caller
 * to check the SVGs).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report.h"
#include "synth.h"

/* The plot's time axis starts at the workload's start marker. */
static void test_plot(const char *dir)
{
	char path[4096], line[256];
	double x, first = 1e9;
	struct an_run run;
	FILE *dat;
	int n = 0;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 1000, 0);	/* before the start */
	marker(&run, 2, "autonuma-workload-start");
	sample(&run, 3, 2, 100, "101:2:20", 500, 500);
	sample(&run, 4, 3, 100, "101:2:30", 0, 1000);
	end(&run, 5);
	ok(report_plot(dir, "synthetic", &run) == 0, "plot drawn in %s", dir);
	snprintf(path, sizeof(path), "%s/locality.dat", dir);
	dat = fopen(path, "r");
	while (dat && fgets(line, sizeof(line), dat)) {
		if (sscanf(line, "%lf", &x) != 1)
			continue;	/* a comment or a block's end */
		if (x < first)
			first = x;
		n++;
	}
	if (dat)
		fclose(dat);
	ok(n == 2, "the 2 samples from the start are plotted (%d)", n);
	near(first, 1.0, "the first point is 1 s after the workload's start");
	an_free(&run);
}

/* A summary of a variant's run, for report_compare(). */
static struct an_summary run_of(const char *variant, double convergence, double migrated)
{
	struct an_summary s = { .valid = true, .convergence = convergence, .duration = 10,
				.scanned = 1000, .scan_rate = 100, .migrated = migrated,
				.stream_local = NAN };

	snprintf(s.variant, sizeof(s.variant), "%s", variant);
	snprintf(s.file, sizeof(s.file), "%s.dat", variant);
	return s;
}

/* The row of VARIANT in the comparison table TEXT. */
static const char *row(const char *text, const char *variant)
{
	static char line[1024];
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "\n| %s |", variant);
	p = strstr(text, want);
	if (!p)
		return "";
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
	return line;
}

static void test_compare(const char *dir)
{
	struct an_summary runs[8];
	char text[8192] = "", path[4096];
	FILE *out = fmemopen(text, sizeof(text) - 1, "w"), *dat;
	int n = 0, rc;

	runs[n++] = run_of("lb", 2, 100);
	runs[n++] = run_of("lb", 4, 300);
	runs[n++] = run_of("lb", AN_NEVER, 200);
	runs[n++] = run_of("sched", 8, 400);
	runs[n++] = run_of("sched", 6, 400);
	runs[n] = run_of("sched", 1, 1);	/* invalid: left out of the medians */
	runs[n].valid = false;
	snprintf(runs[n++].why, sizeof(runs[0].why), "3 events lost");
	an_summarize_unreadable("bad.dat", "bad.dat: not a trace-cmd data file", &runs[n++]);
	ok(report_compare(out, runs, n, "sched") == 0, "compare succeeds");
	fclose(out);
	ok(strstr(row(text, "lb"), "| lb | 3 (3) | 4.00 | 2.00 | never | 0.57 |") != NULL,
	   "lb: median of 2, 4, never is 4; min 2, max never; 4/7 of sched's (%s)", row(text, "lb"));
	ok(strstr(row(text, "sched"), "| sched | 3 (2) | 7.00 | 6.00 | 8.00 | 1.00 |") != NULL,
	   "sched: the invalid run counted, not in the median (%s)", row(text, "sched"));
	ok(strstr(row(text, "lb"), "| 200 (0.50) |") != NULL,
	   "pages migrated: median 200, half of sched's 400 (%s)", row(text, "lb"));
	ok(strstr(text, "invalid run left out: sched.dat (sched): 3 events lost") != NULL,
	   "the invalid run is listed with its reason");
	ok(strstr(text, "unreadable trace left out: bad.dat: bad.dat: not a trace-cmd") != NULL,
	   "the unreadable trace is listed with the reader's error");
	ok(!strstr(text, "| |") && !strstr(text, "\n| (null)"), "no row for the unreadable trace");
	ok(!strstr(text, "stream local"), "no stream local column without stream's lines");

	runs[0].stream_local = 80;
	runs[1].stream_local = 95;
	runs[2].stream_local = 90;
	out = fmemopen(text, sizeof(text) - 1, "w");
	report_compare(out, runs, n, "sched");
	fclose(out);
	ok(strstr(row(text, "lb"), "| 0.57 | 90.0 |") && strstr(row(text, "sched"), "| 1.00 | - |"),
	   "stream local %%: lb's median 90, none for sched (%s)", row(text, "lb"));

	out = fmemopen(text, sizeof(text) - 1, "w");
	rc = report_compare(out, runs, n, "upstream");
	fclose(out);
	ok(rc == 0 && strstr(text, "The baseline upstream has no readable run: ratios are to lb.") &&
	   strstr(row(text, "lb"), "| 1.00 |"),
	   "a baseline not among the runs, with a trace unreadable: the table, ratios to lb");
	out = fmemopen(text, sizeof(text) - 1, "w");
	ok(report_compare(out, runs, n - 1, "upstream") < 0,
	   "a baseline not among the runs, all readable: refused");
	fclose(out);

	ok(report_compare_plot(dir, runs, n) == 0, "the comparison's figure is drawn in %s", dir);
	snprintf(path, sizeof(path), "%s/convergence.dat", dir);
	dat = fopen(path, "r");
	text[0] = 0;
	if (dat) {
		text[fread(text, 1, sizeof(text) - 1, dat)] = 0;
		fclose(dat);
	}
	ok(strstr(text, "# lb: seconds, share of its 3 valid runs converged\n0 0\n"
		      "2.000 0.333\n4.000 0.667\n10.000 0.667\n") != NULL,
	   "lb's CDF: a third by 2 s, two thirds by 4 s, never all");
	ok(strstr(text, "# sched: seconds, share of its 2 valid runs converged\n0 0\n"
		      "6.000 0.500\n8.000 1.000\n") != NULL, "sched's: the invalid run left out");
}

/* The run's text report, as report_table() prints it; free() it. */
static char *table_text(const struct an_run *run, const char *file)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	report_table(out, file, run);
	fclose(out);
	return text;
}

/* The run's text report says where the time went (the budget). */
static void test_budget_line(void)
{
	struct an_run run;
	char *text;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 1000, 0);
	an_scan(&run, S(1.5), 100, 1024, 1000);
	an_hinting_fault(&run, S(2), &(struct an_fault){ .pid = 101, .tgid = 100, .cpu = 2,
		.cpu_nid = 1, .index = 1, .page_nid = 0, .nr = 512, .action = AN_ACT_QUEUE });
	an_hinting_fault(&run, S(2), &(struct an_fault){ .pid = 101, .tgid = 100, .cpu = 2,
		.cpu_nid = 1, .index = 2, .page_nid = 0, .nr = 512, .action = AN_ACT_REFUSED });
	sample(&run, 2, 2, 100, "101:2:20", 500, 500);
	an_hinting_fault(&run, S(2.75), &(struct an_fault){ .pid = 101, .tgid = 100, .cpu = 2,
		.cpu_nid = 1, .index = 1, .page_nid = 1, .nr = 512, .action = AN_ACT_LOCAL });
	sample(&run, 3, 3, 100, "101:2:30", 500, 500);
	end(&run, 4);
	text = table_text(&run, "budget.dat");
	ok(strstr(text, "budget: first scan of a process 1.50 s after the start; first hinting "
		   "fault from a node to queued there (last_nid) 0.00 s over 512 of 1024 pages; "
		   "queued to on its node 0.75 s over 512 pages") != NULL,
	   "the text report's budget line");
	ok(strstr(text, "pages remote at their last fault, by what it did: refused 512\n") != NULL,
	   "the text report's remote pages by action");
	free(text);
	an_free(&run);
}

/*
 * An entry queued before the trace began and dequeued in it: counted among
 * the queued, named so, not "-1 still queued" (tests/80's traces had one).
 */
static void test_ledger_before_trace(void)
{
	struct an_batch b = { .entries = 2 };
	struct an_run run;
	char *text;

	start(&run, 0);
	sample(&run, 1, 1, 100, "101:2:10", 1000, 0);
	an_hinting_fault(&run, S(2), &(struct an_fault){ .pid = 101, .tgid = 100, .cpu = 2,
		.cpu_nid = 1, .index = 1, .page_nid = 0, .nr = 1, .action = AN_ACT_QUEUE });
	an_page_queue(&run, S(2), true);
	b.dropped[AN_DQ_CANCELLED] = 1;
	b.isolated = b.succeeded = 1;
	an_migrate_batch(&run, S(2.5), &b);
	end(&run, 4);
	text = table_text(&run, "ledger.dat");
	ok(strstr(text, "knuma_migrated ledger: 2 entries queued (1 before the trace began) "
		   "(0 refused) = 1 isolated + 0 gone + 0 moved + 0 shared + 1 cancelled + "
		   "0 still queued; 1 pages isolated") != NULL,
	   "the ledger counts an entry queued before the trace as such");
	free(text);
	an_free(&run);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: report-test SCRATCH-DIR\n");
		return 2;
	}
	test_plot(argv[1]);
	test_compare(argv[1]);
	test_budget_line();
	test_ledger_before_trace();
	printf("1..%d\n", tests);
	return failed != 0;
}
