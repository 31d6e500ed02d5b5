/* SPDX-License-Identifier: GPL-2.0 */
#ifndef AN_REPORT_H
#define AN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"

/* What compare keeps of one run. */
struct an_summary {
	char file[256], variant[32];
	bool valid;		/* no lost events, no malformed input, command ok */
	double convergence;	/* AN_NEVER: never */
	double duration;
	double scanned, scan_rate, faults, migrated, pingpong, task_moves, balance_ms;
	double balance_ms_per_s;
};

void an_summarize(const struct an_run *run, const char *file, struct an_summary *s);

void report_table(FILE *out, const char *file, const struct an_run *run);
void report_csv_header(FILE *out);
void report_csv(FILE *out, const char *file, const struct an_run *run);
void report_json(FILE *out, const char *file, const struct an_run *run);
/* Locality per process over time: DIR/locality.{dat,gp,svg}. */
int report_plot(const char *dir, const char *file, const struct an_run *run);
/* Variants side by side, medians and ratios against baseline (markdown). */
int report_compare(FILE *out, struct an_summary *runs, int n, const char *baseline);

#endif
