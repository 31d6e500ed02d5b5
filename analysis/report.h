/* SPDX-License-Identifier: GPL-2.0 */
#ifndef AN_REPORT_H
#define AN_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"

/* What compare keeps of one run. */
struct an_summary {
	char file[256], variant[32];
	bool valid;		/* an_invalid_reason() is NULL */
	bool unreadable;	/* the trace could not be read: no variant, no numbers */
	char why[320];		/* why not valid */
	double convergence;	/* AN_NEVER: never */
	double duration;
	double scanned, scan_rate, faults, migrated, pingpong, task_moves, balance_ms;
	double balance_ms_per_s;
	double stream_local;	/* stream's lowest local= at the end; NAN none */
};

void an_summarize(const struct an_run *run, const char *file, struct an_summary *s);

void report_table(FILE *out, const char *file, const struct an_run *run);
void report_csv_header(FILE *out);
void report_csv(FILE *out, const char *file, const struct an_run *run);
void report_json(FILE *out, const char *file, const struct an_run *run);
/* Locality per process over time: DIR/locality.{dat,gp,svg}. */
int report_plot(const char *dir, const char *file, const struct an_run *run);
/* The summary of a trace that could not be read, with the reader's error. */
void an_summarize_unreadable(const char *file, const char *err, struct an_summary *s);
/*
 * Variants side by side, medians and ratios against baseline (markdown);
 * invalid and unreadable runs are listed under the table with their reason.
 */
int report_compare(FILE *out, struct an_summary *runs, int n, const char *baseline);
/* The share of each variant's runs converged over time: DIR/convergence.svg. */
int report_compare_plot(const char *dir, const struct an_summary *runs, int n);

#endif
