/* SPDX-License-Identifier: GPL-2.0 */
#ifndef AN_TRACE_H
#define AN_TRACE_H

#include <stddef.h>

struct an_run;

/*
 * Feed every event of the trace.dat at path to run, then an_finish() it.
 * Returns 0, or -1 with a message in err: unreadable, not a trace-cmd file,
 * damaged, or recorded without numa-sample.
 */
int an_read_trace(const char *path, struct an_run *run, char *err, size_t errlen);

#endif
