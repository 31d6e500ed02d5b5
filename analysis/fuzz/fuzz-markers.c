// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the run model: the input's lines are trace_marker
 * texts (numa-sample's, mostly), its bytes also drive scheduler and fault
 * events in between.  Whatever the input, the model must neither crash nor
 * read out of bounds, and an_finish() must give a verdict.
 */
#include <stdint.h>
#include <string.h>

#include "model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct an_run run;
	char line[1100];
	size_t i = 0;
	unsigned long long ts = 0;

	an_init(&run, 90, 1);
	while (i < size) {
		size_t n = 0;

		while (i < size && data[i] != '\n' && n < sizeof(line) - 1)
			line[n++] = data[i++];
		line[n] = 0;
		i++;
		ts += 1000000;
		an_marker(&run, ts, line);
		if (n >= 4) {
			int v = (signed char)line[0] * 256 + (signed char)line[1];

			an_thread_migrate(&run, ts, v, (signed char)line[2]);
			an_hinting_fault(&run, ts, &(struct an_fault){
				.pid = v, .tgid = v, .cpu = (signed char)line[2],
				.cpu_nid = (signed char)line[3], .index = (unsigned char)line[3],
				.page_nid = (signed char)line[2], .nr = 1,
				.action = (unsigned char)line[1] % (AN_ACT_NR + 1) });
			an_scan(&run, ts, v, (unsigned char)line[0], 1000);
			if (n >= 8) {
				unsigned long pages[4] = { (unsigned char)line[4],
					(unsigned char)line[5], (unsigned char)line[6], (unsigned char)line[7] };

				an_mm_stats(&run, ts, v, pages, (signed char)line[4] % 5);
			}
		}
	}
	an_finish(&run);
	an_free(&run);
	return 0;
}
