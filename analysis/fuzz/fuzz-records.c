// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for what trace.c does with a record's contents: the
 * event formats come from a real trace.dat (AN_FUZZ_FORMATS), the records'
 * bytes from the input, so every field an event handler reads may be out
 * of range, truncated or absurd.  In-process and fast, unlike fuzz-trace,
 * which goes through libtracecmd's file reader.
 *
 * Input: records, each one byte choosing the event (among those the trace
 * defines), one byte of length, then that many bytes of record data.
 *
 * Each record ends where a PROT_NONE page begins: libtraceevent is not
 * built with ASan, so an over-read inside it would go unseen in a heap
 * buffer; against the guard page it faults, every time.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <trace-cmd.h>
#include <event-parse.h>

#include "model.h"
#include "trace.h"

static struct tep_event **events;
static int nr_events;
static char *guard;	/* the first byte after the record buffer */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *path = getenv("AN_FUZZ_FORMATS");
	struct tracecmd_input *h;

	if (!path) {
		fprintf(stderr, "fuzz-records: set AN_FUZZ_FORMATS to a trace.dat\n");
		exit(1);
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		fprintf(stderr, "fuzz-records: %s: cannot open\n", path);
		exit(1);
	}
	/* h stays open: the events belong to its tep handle */
	events = tep_list_events(tracecmd_get_tep(h), TEP_EVENT_SORT_ID);
	nr_events = tep_get_events_count(tracecmd_get_tep(h));
	if (!events || nr_events <= 0) {
		fprintf(stderr, "fuzz-records: %s: no event formats\n", path);
		exit(1);
	}
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED || mprotect(map + page, page, PROT_NONE)) {
		perror("fuzz-records: guard page");
		exit(1);
	}
	guard = map + page;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct an_run run;
	size_t i = 0;

	an_init(&run, 90, 1);
	while (i + 2 <= size) {
		struct tep_event *ev = events[data[i] % nr_events];
		size_t len = data[i + 1];
		struct tep_record rec = { .ts = i * 1000000ULL, .cpu = data[i] & 3 };

		i += 2;
		if (len > size - i)
			len = size - i;
		rec.data = guard - len;	/* len <= 255 < a page */
		rec.size = len;
		memcpy(rec.data, data + i, len);
		an_follow_record(ev, &rec, &run);
		i += len;
	}
	an_finish(&run);
	an_free(&run);
	return 0;
}
