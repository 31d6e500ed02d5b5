// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: any bytes as a trace.dat must give a report or a clean
 * error, never a crash, a leak or a hang.  The event handlers run in this
 * process (only libtracecmd's first read is in a child), so a fault of
 * theirs is a finding.  Built with ASan and UBSan by
 * `make -C analysis fuzz`; seed it with real trace.dat files.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "model.h"
#include "trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64], err[512];
	struct an_run run;
	int fd = memfd_create("trace.dat", 0);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		perror("memfd");
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	an_init(&run, 90, 256);
	an_read_trace(path, &run, err, sizeof(err));
	an_free(&run);
	close(fd);
	return 0;
}
