/* SPDX-License-Identifier: GPL-2.0 */
#ifndef AN_TRACE_H
#define AN_TRACE_H

#include <stdbool.h>
#include <stddef.h>

struct an_run;
struct tep_event;
struct tep_record;

/*
 * Feed every event of the trace.dat at path to run, then an_finish() it.
 * A child first reads the file with libtracecmd alone (it crashes on some
 * damaged files); the handlers run in the caller's process.
 * Returns 0, or -1 with a message in err: unreadable, not a trace-cmd file,
 * or damaged.  Without numa-sample's lines in the trace, placement is
 * measured from the autonuma events alone (model.h: kernel mode).
 */
int an_read_trace(const char *path, struct an_run *run, char *err, size_t errlen);

/*
 * Feed one record of event ev to run, as an_read_trace() would; false if
 * the analysis does not follow ev.  For the fuzzer of record contents.
 */
bool an_follow_record(struct tep_event *ev, struct tep_record *rec, struct an_run *run);

#endif
