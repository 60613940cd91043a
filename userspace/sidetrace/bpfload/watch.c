// SPDX-License-Identifier: MIT
/* Watchpoints' hardware breakpoints: see watch.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "bpfload/loader_progs.h"
#include "bpfload/watch.h"
#include "objfile/sdt_args.h"
#include "util/escape.h"
#include "util/grow.h"
#include "sidetrace.skel.h"

/* Why perf_event_open() refused a breakpoint, for a person. */
static const char *refused(int err)
{
	switch (err) {
	case -ENOSPC:
		return "no debug register is free (x86-64 has 4 for all breakpoints)";
	case -ENOENT:
	case -ENODEV:
	case -EOPNOTSUPP:
		return "this CPU gives perf no hardware breakpoints (a virtual machine may have "
		       "none)";
	case -EINVAL:
		return "the kernel refused this address, length or mode (an address aligned to "
		       "LEN; x: LEN 8)";
	default:
		return strerror(-err);
	}
}

/*
 * Probe i's breakpoint w at addr, on task pid (-1: on cpu, every task),
 * running prog: kept in l->watches. 0 or a negative errno.
 */
static int breakpoint(struct st_loader *l, struct bpf_program *prog, uint32_t i,
		      const struct st_watch *w, uint64_t addr, pid_t pid, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_BREAKPOINT,
		.size = sizeof(attr),
		.bp_type = w->bp_type,
		.bp_addr = addr,
		.bp_len = w->len,
		/* Every access is an event. */
		.sample_period = 1,
	};
	LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = ST_COOKIE(l->site_base[i], i, 0));
	struct bpf_link *link;
	int fd, ret;

	if (st_grow(&l->watches, &l->watches_cap, l->nr_watches, sizeof(*l->watches), 8))
		return -ENOMEM;
	fd = syscall(__NR_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	link = bpf_program__attach_perf_event_opts(prog, fd, &opts);
	if (!link) {
		ret = -errno;
		close(fd);
		return ret;
	}
	l->watches[l->nr_watches++] =
		(struct st_watch_link){.probe = i, .addr = addr, .link = link};
	return 0;
}

/* A function's watchpoint: its argument's address is known at each call. */
static bool at_function(const struct st_event *ev)
{
	return ev->watch.arg >= 0;
}

int st_watch_configure(struct st_loader *l, const struct st_compiled *c)
{
	bool arm = false;
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		arm |= st_event_kind(c->probes[i].event)->form == ST_FORM_WATCH &&
		       at_function(c->probes[i].event);
	if (arm) {
		l->watched = calloc(c->nr_probes, sizeof(*l->watched));
		if (!l->watched)
			return -ENOMEM;
	}
	return bpf_program__set_autoload(l->skel->progs.sidetrace_watch_arm, arm);
}

/*
 * An address's breakpoint: in the -c command or the -p process, a user
 * address; else on every CPU, for any task (a kernel address, as
 * bpftrace takes it).
 */
static int watch_address(struct st_loader *l, struct bpf_program *prog, const struct st_compiled *c,
			 uint32_t i, const struct st_event *ev, char *err, size_t errlen)
{
	int cpu, ret = 0;

	if (l->task > 0)
		ret = breakpoint(l, prog, i, &ev->watch, ev->watch.addr, l->task, -1);
	for (cpu = 0; l->task <= 0 && cpu < l->ncpus && !ret; cpu++) {
		ret = breakpoint(l, prog, i, &ev->watch, ev->watch.addr, -1, cpu);
		/* A possible CPU that is not online has no debug registers. */
		if (ret == -ENODEV)
			ret = 0;
	}
	if (ret)
		snprintf(err, errlen, "cannot set the breakpoint of %s: %s", c->probes[i].name,
			 refused(ret));
	return ret;
}

int st_watch_attach(struct st_loader *l, struct bpf_program *prog, const struct st_compiled *c,
		    uint32_t i, const struct st_event *ev, uint32_t site, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts);
	struct bpf_link *link;
	const char *reg;

	(void)site;
	if (!at_function(ev))
		return watch_address(l, prog, c, i, ev, err, errlen);
	/* A function's watchpoint: its argument's register (an address's has none, arg -1). */
	reg = st_abi_args[ev->watch.arg];
	opts.bpf_cookie = ST_WATCH_COOKIE(i, st_sdt_reg_word(reg, strlen(reg)),
					  !st_event_kind(ev)->watch_async);
	link = bpf_program__attach_uprobe_opts(l->skel->progs.sidetrace_watch_arm, l->pid, ev->path,
					       ev->sites[0].file_offset, &opts);
	if (!link) {
		snprintf(err, errlen, "cannot attach to %s in %s: %s", c->probes[i].name, ev->path,
			 strerror(errno));
		return -errno;
	}
	l->links[l->nr_links++] = link;
	return 0;
}

const char *st_watch_set(struct st_loader *l, const struct st_compiled *c, uint32_t i,
			 uint64_t addr, pid_t pid)
{
	const struct st_event *ev;
	int ret = 0;

	if (i >= c->nr_probes || !l->watched)
		return NULL;
	ev = c->probes[i].event;
	if (st_event_kind(ev)->form != ST_FORM_WATCH || !at_function(ev))
		return NULL;
	/* The address of the probe's last call is watched already (bpftrace's rule). */
	if (addr != l->watched[i]) {
		ret = breakpoint(l, st_loader_serving_prog(l, &c->probes[i]), i, &ev->watch, addr,
				 pid, -1);
		if (!ret)
			l->watched[i] = addr;
		else if (ret != -ENOSPC)
			st_errorf("cannot set the breakpoint of %s at 0x%llx: %s",
				  c->probes[i].name, (unsigned long long)addr, refused(ret));
	}
	if (!st_event_kind(ev)->watch_async && kill(pid, SIGCONT))
		st_errorf("cannot continue process %d after setting %s: %s", pid, c->probes[i].name,
			  strerror(errno));
	return ret == -ENOSPC ? ST_WATCH_NO_REGISTER : NULL;
}

void st_watch_unset(struct st_loader *l, uint64_t addr)
{
	size_t i, n = 0;

	for (i = 0; i < l->nr_watches; i++) {
		if (l->watches[i].addr == addr)
			bpf_link__destroy(l->watches[i].link);
		else
			l->watches[n++] = l->watches[i];
	}
	l->nr_watches = n;
}

void st_watch_close(struct st_loader *l)
{
	size_t i;

	for (i = 0; i < l->nr_watches; i++)
		bpf_link__destroy(l->watches[i].link);
	free(l->watches);
	free(l->watched);
	l->watches = NULL;
	l->watched = NULL;
	l->nr_watches = l->watches_cap = 0;
}
