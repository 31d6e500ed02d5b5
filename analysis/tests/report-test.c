// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the report on synthetic runs.  TAP output.
 * usage: report-test SCRATCH-DIR (the plot is drawn there, for the caller
 * to check the SVG).
 */
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: report-test SCRATCH-DIR\n");
		return 2;
	}
	test_plot(argv[1]);
	printf("1..%d\n", tests);
	return failed != 0;
}
