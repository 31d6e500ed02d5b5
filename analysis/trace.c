// SPDX-License-Identifier: GPL-2.0
/*
 * Read a trace.dat with libtracecmd and feed its events to the run model:
 * one callback per followed event, records in time order across CPUs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <trace-cmd.h>
#include <event-parse.h>

#include "model.h"
#include "trace.h"

/* A numeric field, sign-extended when the format says it is signed. */
static bool field(struct tep_event *ev, struct tep_record *rec, const char *name,
		  long long *out)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v;

	if (!f || f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size ||
	    tep_read_number_field(f, rec->data, &v))
		return false;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size > 0 && f->size < 8 &&
	    (v & 1ULL << (f->size * 8 - 1)))
		v |= ~0ULL << (f->size * 8);
	*out = (long long)v;
	return true;
}

/* Fetch fields or give up on the record (a format without them). */
#define FIELDS(ev, rec, ...) fields(ev, rec, (const char *[]){ __VA_ARGS__, NULL }, v)
static bool fields(struct tep_event *ev, struct tep_record *rec, const char **names,
		   long long *v)
{
	for (int i = 0; names[i]; i++)
		if (!field(ev, rec, names[i], &v[i]))
			return false;
	return true;
}

/*
 * The name __print_symbolic() gives value V of field NAME in EV's format:
 * the trace file defines the names, so the kernel's enum order is not
 * assumed here.  NULL if the format has no such symbol.
 */
static const char *symbol(struct tep_event *ev, const char *name, long long v)
{
	for (struct tep_print_arg *a = ev->print_fmt.args; a; a = a->next) {
		struct tep_print_arg *f = a->type == TEP_PRINT_SYMBOL ? a->symbol.field : NULL;

		if (f && f->type == TEP_PRINT_TYPE)
			f = f->typecast.item;
		if (!f || f->type != TEP_PRINT_FIELD || !f->field.name || strcmp(f->field.name, name))
			continue;
		for (struct tep_print_flag_sym *s = a->symbol.symbols; s; s = s->next) {
			char *end;

			if (s->value && s->str && strtoll(s->value, &end, 0) == v && !*end)
				return s->str;
		}
	}
	return NULL;
}

static int on_print(struct tracecmd_input *h, struct tep_event *ev,
		    struct tep_record *rec, int cpu, void *data)
{
	struct tep_format_field *f = tep_find_field(ev, "buf");
	char text[1024];
	int len;

	if (!f || f->offset < 0 || f->offset >= rec->size)
		return 0;
	len = rec->size - f->offset;
	if (len >= (int)sizeof(text))
		len = sizeof(text) - 1;
	memcpy(text, (char *)rec->data + f->offset, len);
	text[len] = 0;
	text[strcspn(text, "\n")] = 0;
	an_marker(data, rec->ts, text);
	return 0;
}

static int on_migrate_task(struct tracecmd_input *h, struct tep_event *ev,
			   struct tep_record *rec, int cpu, void *data)
{
	long long v[2];

	if (FIELDS(ev, rec, "pid", "dest_cpu"))
		an_thread_migrate(data, rec->ts, v[0], v[1]);
	return 0;
}

static int on_upstream_move(struct tracecmd_input *h, struct tep_event *ev,
			    struct tep_record *rec, int cpu, void *data)
{
	an_upstream_move(data, rec->ts);
	return 0;
}

static int on_hinting_fault(struct tracecmd_input *h, struct tep_event *ev,
			    struct tep_record *rec, int cpu, void *data)
{
	long long v[7];
	enum an_action action;

	if (!FIELDS(ev, rec, "pid", "tgid", "index", "page_nid", "cpu_nid", "nr", "action"))
		return 0;
	action = an_action_of(symbol(ev, "action", v[6]));
	an_hinting_fault(data, rec->ts, &(struct an_fault){
		.pid = v[0], .tgid = v[1], .index = v[2], .page_nid = v[3],
		.cpu_nid = v[4], .nr = v[5], .cpu = rec->cpu, .action = action });
	/* knuma_migrated's ledger: what the fault did with its page */
	if (action == AN_ACT_QUEUE || action == AN_ACT_REFUSED)
		an_page_queue(data, rec->ts, action == AN_ACT_QUEUE);
	else if (action == AN_ACT_MIGRATE)
		an_fault_isolated(data, rec->ts, v[5]);
	return 0;
}

static int on_fault_migrate(struct tracecmd_input *h, struct tep_event *ev,
			    struct tep_record *rec, int cpu, void *data)
{
	long long v[4];

	if (FIELDS(ev, rec, "isolated", "succeeded", "failed", "ns"))
		an_fault_migrate(data, rec->ts, v[0], v[1], v[2], v[3]);
	return 0;
}

static int on_scan_pass(struct tracecmd_input *h, struct tep_event *ev,
			struct tep_record *rec, int cpu, void *data)
{
	long long v[1];

	if (FIELDS(ev, rec, "sleep_ms"))
		an_scan_pass(data, rec->ts, v[0]);
	return 0;
}

/*
 * pages[]: a dynamic array of the kernel's unsigned long, one per node.
 * Its descriptor (length << 16 | offset) is read like any field, bounds
 * checked: libtraceevent's tep_get_field_raw() reads it unchecked.
 */
static int on_mm_stats(struct tracecmd_input *h, struct tep_event *ev,
		       struct tep_record *rec, int cpu, void *data)
{
	unsigned long pages[AN_MAX_NODES];
	struct tep_format_field *f = tep_find_field(ev, "pages");
	int size = tep_get_long_size(ev->tep), off, len, n;
	long long v[2];
	char *raw;

	if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC) || !FIELDS(ev, rec, "tgid", "pages") ||
	    (size != 4 && size != 8))
		return 0;
	off = v[1] & 0xffff;
	len = (v[1] >> 16) & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (len <= 0 || len % size || off + len > rec->size)
		return 0;
	raw = (char *)rec->data + off;
	n = len / size < AN_MAX_NODES ? len / size : AN_MAX_NODES;
	for (int i = 0; i < n; i++) {
		unsigned long long x = 0;

		memcpy(&x, raw + i * size, size);	/* little-endian guests */
		pages[i] = x;
	}
	an_mm_stats(data, rec->ts, v[0], pages, len / size);
	return 0;
}

static int on_scan(struct tracecmd_input *h, struct tep_event *ev,
		   struct tep_record *rec, int cpu, void *data)
{
	long long v[3];

	if (FIELDS(ev, rec, "tgid", "pages", "ns"))
		an_scan(data, rec->ts, v[0], v[1], v[2]);
	return 0;
}

static int on_batch(struct tracecmd_input *h, struct tep_event *ev,
		    struct tep_record *rec, int cpu, void *data)
{
	long long v[11];

	if (!FIELDS(ev, rec, "entries", "gone", "moved", "shared", "cancelled", "busy", "flushed",
		    "isolated", "succeeded", "failed", "ns"))
		return 0;
	an_migrate_batch(data, rec->ts, &(struct an_batch){
		.entries = v[0],
		.dropped = { [AN_DQ_GONE] = v[1], [AN_DQ_MOVED] = v[2], [AN_DQ_SHARED] = v[3],
			     [AN_DQ_CANCELLED] = v[4], [AN_DQ_BUSY] = v[5], [AN_DQ_FLUSHED] = v[6] },
		.isolated = v[7], .succeeded = v[8], .failed = v[9], .ns = v[10] });
	return 0;
}

static int on_detail_queue(struct tracecmd_input *h, struct tep_event *ev,
			   struct tep_record *rec, int cpu, void *data)
{
	long long v[1];

	if (FIELDS(ev, rec, "queued"))
		an_detail_queue(data, rec->ts, v[0]);
	return 0;
}

static int on_detail_dequeue(struct tracecmd_input *h, struct tep_event *ev,
			     struct tep_record *rec, int cpu, void *data)
{
	long long v[2];

	if (FIELDS(ev, rec, "nr", "reason"))
		an_detail_dequeue(data, rec->ts, v[0], symbol(ev, "reason", v[1]));
	return 0;
}

static int on_placement(struct tracecmd_input *h, struct tep_event *ev,
			struct tep_record *rec, int cpu, void *data)
{
	an_placement(data, rec->ts);
	return 0;
}

static int on_task_migrate(struct tracecmd_input *h, struct tep_event *ev,
			   struct tep_record *rec, int cpu, void *data)
{
	long long v[3];

	/* moved= in the text is computed: the task's CPU after the stopper ran */
	if (FIELDS(ev, rec, "pid", "cpu", "dst_cpu"))
		an_task_moved(data, rec->ts, v[0], v[1], v[1] == v[2]);
	return 0;
}

static int on_balance(struct tracecmd_input *h, struct tep_event *ev,
		      struct tep_record *rec, int cpu, void *data)
{
	long long v[2];

	if (FIELDS(ev, rec, "ns", "cpus"))
		an_balance(data, rec->ts, v[0], v[1]);
	return 0;
}

static int on_missed(struct tracecmd_input *h, struct tep_event *ev,
		     struct tep_record *rec, int cpu, void *data)
{
	an_lost(data, rec->ts, rec->missed_events > 0 ? rec->missed_events : 0);
	return 0;
}

/*
 * Every record must lie past the one before it on its CPU: libtracecmd 3.1
 * returns one record forever from a compressed chunk with bytes overwritten
 * (tests/80's damaged copies).  An error here ends the iteration.
 */
struct read_progress {
	int cpus;
	unsigned long long *last;	/* per CPU: offset of its last record + 1 */
};

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct read_progress *p = data;

	if (cpu < 0 || cpu >= p->cpus || rec->offset < p->last[cpu])
		return -1;
	p->last[cpu] = rec->offset + 1;
	return 0;
}

static const struct follow {
	const char *system, *event;
	int (*fn)(struct tracecmd_input *, struct tep_event *, struct tep_record *, int, void *);
} follows[] = {
	{ "ftrace", "print", on_print },
	{ "sched", "sched_migrate_task", on_migrate_task },
	{ "sched", "sched_move_numa", on_upstream_move },
	{ "sched", "sched_swap_numa", on_upstream_move },
	{ "autonuma", "autonuma_hinting_fault", on_hinting_fault },
	{ "autonuma", "autonuma_scan_mm", on_scan },
	{ "autonuma", "autonuma_mm_stats", on_mm_stats },
	{ "autonuma", "autonuma_scan_pass", on_scan_pass },
	{ "autonuma", "autonuma_migrate_batch", on_batch },
	{ "autonuma", "autonuma_fault_migrate", on_fault_migrate },
	{ "autonuma", "autonuma_task_placement", on_placement },
	{ "autonuma", "autonuma_task_migrate", on_task_migrate },
	{ "autonuma", "autonuma_balance_cost", on_balance },
	{ "autonuma_detail", "autonuma_page_queue", on_detail_queue },
	{ "autonuma_detail", "autonuma_page_dequeue", on_detail_dequeue },
};

bool an_follow_record(struct tep_event *ev, struct tep_record *rec, struct an_run *run)
{
	for (size_t i = 0; i < sizeof(follows) / sizeof(follows[0]); i++)
		if (!strcmp(ev->system, follows[i].system) && !strcmp(ev->name, follows[i].event)) {
			follows[i].fn(NULL, ev, rec, rec->cpu, run);
			return true;
		}
	return false;
}

/* Read path with libtracecmd; with run, feed the followed events to it. */
static int read_trace(const char *path, struct an_run *run, char *err, size_t errlen)
{
	struct read_progress progress;
	struct tracecmd_input *h;
	struct stat st;
	int fd, ret;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: %s", path, fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open_fd(fd, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		close(fd);
		snprintf(err, errlen, "%s: not a trace-cmd data file, or truncated or damaged", path);
		return -1;
	}
	for (size_t i = 0; run && i < sizeof(follows) / sizeof(follows[0]); i++)
		tracecmd_follow_event(h, follows[i].system, follows[i].event, follows[i].fn, run);
	if (run)
		tracecmd_follow_missed_events(h, on_missed, run);
	progress.cpus = tep_get_cpus(tracecmd_get_tep(h));
	progress.last = calloc(progress.cpus > 0 ? progress.cpus : 1, sizeof(*progress.last));
	ret = progress.last ? tracecmd_iterate_events(h, NULL, 0, on_record, &progress) : -1;
	free(progress.last);
	tracecmd_close(h);	/* closes fd */
	if (ret < 0) {
		snprintf(err, errlen, "%s: damaged: cannot read the trace data", path);
		return -1;
	}
	if (!run)
		return 0;
	an_finish(run);
	return 0;
}

/*
 * libtracecmd 3.1 can crash or allocate gigabytes on a damaged file (found
 * by fuzz/fuzz-trace.c: a NULL dereference in tracecmd_open_fd()'s error
 * path; a 3 GB malloc() on a damaged header, leaked).  So a child first
 * reads every record with libtracecmd alone, none of this program's
 * handlers, and says why it failed, if it did: only if that ends, cleanly,
 * within READ_TIMEOUT, is the file read here with the handlers, so that a
 * fault of ours is a crash, not a "damaged file", and libtracecmd never
 * reads here a file it failed on.
 */
#define READ_TIMEOUT	100	/* s; 9 MB read in 2 s (tests/80 waits 120) */
#define READ_OK		0
#define READ_ERROR	10	/* the message is in the pipe */
#define READ_FAILED	11	/* write() failed, or no parent */

/* In the child: read path alone; on an error, write its message to fd. */
static int read_trace_alone(const char *path, int fd)
{
	char e[512];

	if (!read_trace(path, NULL, e, sizeof(e)))
		return READ_OK;
	return write(fd, e, strlen(e)) < 0 ? READ_FAILED : READ_ERROR;
}

/* Read path in a child, as above: 0, or -1 with why in err. */
static int read_in_child(const char *path, char *err, size_t errlen)
{
	pid_t pid, parent = getpid();
	int status, fds[2];
	ssize_t len;

	if (pipe(fds)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };

		close(fds[0]);
		/* die of the signal, quietly: sanitizers' handlers would report */
		for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			signal(fatal[i], SIG_DFL);
		/* and with the parent (killed by a timeout, say) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(READ_FAILED);
		alarm(READ_TIMEOUT);
		_exit(read_trace_alone(path, fds[1]));
	}
	close(fds[1]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			close(fds[0]);
			return -1;
		}
	/* the message, if any, is in the pipe: at most 512 bytes, written whole */
	len = errlen ? read(fds[0], err, errlen - 1) : -1;
	close(fds[0]);
	if (WIFEXITED(status) && WEXITSTATUS(status) == READ_OK)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == READ_ERROR && len > 0)
		err[len] = 0;
	else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(err, errlen, "%s: damaged: libtracecmd did not finish reading it in %d s",
			 path, READ_TIMEOUT);
	else
		snprintf(err, errlen, "%s: damaged: libtracecmd failed reading it (%s %d)", path,
			 WIFSIGNALED(status) ? "signal" : "exit status",
			 WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return -1;
}

int an_read_trace(const char *path, struct an_run *run, char *err, size_t errlen)
{
	if (read_in_child(path, err, errlen))
		return -1;
	return read_trace(path, run, err, errlen);
}
