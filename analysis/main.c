// SPDX-License-Identifier: GPL-2.0
/*
 * autonuma-report: convergence and cost of NUMA balancing runs, offline,
 * from trace.dat files recorded with `trace-cmd record -e autonuma`: around
 * workloads/numa-sample (guest/trace-workload.sh), which measures every
 * variant alike, or of any workload, measured from the autonuma events.
 *
 * Exit status: 0; 1 bad usage or an unreadable trace (with -c the others
 * are still compared, the unreadable ones listed); 3 a run is not valid
 * (lost events, malformed markers, failed workload, inconsistent counters,
 * nothing to report): its numbers are printed but must not be trusted.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "report.h"
#include "trace.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: autonuma-report [OPTIONS] TRACE.dat\n"
		"       autonuma-report -c [-b VARIANT] [OPTIONS] TRACE.dat...\n"
		"  -t PCT     locality that counts as converged (default 90)\n"
		"  -m MIB     leave out processes smaller than this (default 4)\n"
		"  -H SECONDS how long a process must stay converged to count (default 1)\n"
		"  -K         measure placement by the autonuma events even where the trace\n"
		"             has numa-sample's lines (the measure of a plain record)\n"
		"  -f FORMAT  table (default), csv or json\n"
		"  -p DIR     plot locality per process over time into DIR (gnuplot, SVG);\n"
		"             with -c, the share of each variant's runs converged over time\n"
		"  -c         compare: group runs by variant, print medians and ratios\n"
		"  -b VARIANT the baseline of the comparison (default: the first run's)\n");
}

static double number(const char *arg, const char *opt, double min, double max)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || end == arg || v < min || v > max) {
		fprintf(stderr, "autonuma-report: %s %s: expected a number in [%g, %g]\n",
			opt, arg, min, max);
		exit(1);
	}
	return v;
}

int main(int argc, char **argv)
{
	const char *format = "table", *plot = NULL, *baseline = NULL;
	double threshold = 90, min_mib = 4, min_hold = AN_MIN_HOLD;
	bool compare = false, unreadable = false, kernel = false;
	int opt, ret = 0;
	struct an_summary *runs;

	while ((opt = getopt(argc, argv, "t:m:H:Kf:p:cb:h")) != -1) {
		switch (opt) {
		case 't': threshold = number(optarg, "-t", 1, 100); break;
		case 'H': min_hold = number(optarg, "-H", 0, 3600); break;
		case 'K': kernel = true; break;
		case 'm': min_mib = number(optarg, "-m", 0, 1 << 20); break;
		case 'f': format = optarg; break;
		case 'p': plot = optarg; break;
		case 'c': compare = true; break;
		case 'b': baseline = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 1;
		}
	}
	if (strcmp(format, "table") && strcmp(format, "csv") && strcmp(format, "json")) {
		fprintf(stderr, "autonuma-report: -f %s: table, csv or json\n", format);
		return 1;
	}
	if (optind == argc || (!compare && (argc - optind != 1 || baseline))) {
		usage(stderr);
		return 1;
	}
	runs = calloc(argc - optind, sizeof(*runs));
	if (!runs)
		return 2;
	for (int i = optind; i < argc; i++) {
		struct an_run run;
		char err[512];

		an_init(&run, threshold, min_mib * 256);
		run.min_hold = min_hold;
		run.measure_kernel = kernel;
		if (an_read_trace(argv[i], &run, err, sizeof(err))) {
			fprintf(stderr, "autonuma-report: %s\n", err);
			an_free(&run);
			if (!compare) {
				free(runs);
				return 1;
			}
			/* the others are still compared; this one is listed */
			an_summarize_unreadable(argv[i], err, &runs[i - optind]);
			unreadable = true;
			continue;
		}
		if (!an_valid(&run))
			ret = 3;
		if (compare)
			an_summarize(&run, argv[i], &runs[i - optind]);
		else if (!strcmp(format, "csv")) {
			report_csv_header(stdout);
			report_csv(stdout, argv[i], &run);
		} else if (!strcmp(format, "json"))
			report_json(stdout, argv[i], &run);
		else
			report_table(stdout, argv[i], &run);
		if (plot && !compare && report_plot(plot, argv[i], &run))
			ret = 1;
		an_free(&run);
	}
	if (compare && (report_compare(stdout, runs, argc - optind, baseline) || unreadable))
		ret = 1;
	if (compare && plot && report_compare_plot(plot, runs, argc - optind))
		ret = 1;
	free(runs);
	return ret;
}
