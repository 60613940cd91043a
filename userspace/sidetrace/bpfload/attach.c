// SPDX-License-Identifier: MIT
/*
 * Attaching the loaded programs (loader.h): every site of every probe,
 * one uprobe_multi link per file and kind where the kernel has them,
 * else a perf-event uprobe per site; the fault-in program where it was
 * armed; the tracepoints that a -c session follows its command with.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kernel/kfuncs.h"
#include "bpfload/follow.h"
#include "bpfload/iters.h"
#include "bpfload/kprobes.h"
#include "bpfload/loader.h"
#include "bpfload/loader_progs.h"
#include "bpfload/trampolines.h"
#include "bpfload/uprobes.h"
#include "bpfload/watch.h"
#include "objfile/symbols.h"
#include "util/escape.h"
#include "sidetrace.skel.h"

/* Open files besides two per site needed at least (ST_FD_MARGIN asked for). */
#define ST_FD_MIN 32

/* Attached as a return probe: a uretprobe, not a Go function's RET instructions. */
static bool return_probe(const struct st_event *ev)
{
	return st_event_kind(ev)->retval && !ev->at_returns;
}

/* The cookie's count slot: a count-only probe counting in one map. */
static uint32_t count_slot1(const struct st_compiled_probe *p)
{
	return p->special == ST_SPECIAL_COUNT && p->nr_counts == 1 ? p->counts[0] + 1 : 0;
}

/*
 * How a kernel probe i, of event ev whose site is number site, attaches
 * prog: one function per program family of the kernel's (kinds/). 0, or
 * a negative errno with the reason in err.
 */
typedef int attach_kernel_fn(struct st_loader *l, struct bpf_program *prog,
			     const struct st_compiled *c, uint32_t i, const struct st_event *ev,
			     uint32_t site, char *err, size_t errlen);

static int attach_link(struct st_loader *l, struct bpf_link *link, const char *name, char *err,
		       size_t errlen)
{
	int ret;

	if (!link) {
		ret = -errno;
		snprintf(err, errlen, "cannot attach to %s: %s", name, strerror(-ret));
		return ret;
	}
	l->links[l->nr_links++] = link;
	return 0;
}

/* A tracepoint: its category and name are the event's provider and name. */
static int attach_tracepoint(struct st_loader *l, struct bpf_program *prog,
			     const struct st_compiled *c, uint32_t i, const struct st_event *ev,
			     uint32_t site, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_tracepoint_opts, opts,
		    .bpf_cookie = ST_COOKIE(site, i, count_slot1(&c->probes[i])));

	return attach_link(l,
			   bpf_program__attach_tracepoint_opts(prog, ev->provider, ev->name, &opts),
			   c->probes[i].name, err, errlen);
}

/* Why the kernel refused a kprobe at func (+off), in its words where they say little. */
static void kprobe_refused(int ret, const char *name, const char *func, uint64_t off, char *err,
			   size_t errlen)
{
	/* A name that is not one function's: how many are so named. */
	unsigned int named = ret == -EADDRNOTAVAIL ? st_kallsyms_count(func) : 0;

	/* An address inside an instruction. */
	if (ret == -EILSEQ && off)
		snprintf(err, errlen,
			 "cannot attach to %s: +%llu is not the start of an instruction of %s, "
			 "the kernel says (a breakpoint there would corrupt it)",
			 name, (unsigned long long)off, func);
	else if (named > 1)
		snprintf(err, errlen,
			 "cannot attach to %s: kallsyms names %u functions %s, and the kernel "
			 "refuses a kprobe by a name that is not one function's",
			 name, named, func);
	else
		snprintf(err, errlen, "cannot attach to %s: %s", name, strerror(-ret));
}

/*
 * A kprobe or kretprobe: the event's name is FUNCTION or FUNCTION+OFFSET.
 * One of a glob's functions the kernel refuses is skipped with a warning,
 * as bpftrace does (some cannot be probed); one named alone is an error.
 */
static int attach_kprobe(struct st_loader *l, struct bpf_program *prog, const struct st_compiled *c,
			 uint32_t i, const struct st_event *ev, uint32_t site, char *err,
			 size_t errlen)
{
	LIBBPF_OPTS(bpf_kprobe_opts, opts, .bpf_cookie = ST_COOKIE(site, i, 0),
		    .offset = ev->kfunc_offset, .retprobe = st_event_kind(ev)->retval);
	struct bpf_link *link;
	char func[256];
	int ret;

	if (!st_kprobes_supported(err, errlen))
		return -ENOTSUP;
	snprintf(func, sizeof(func), "%.*s", (int)strcspn(ev->name, "+"), ev->name);
	link = bpf_program__attach_kprobe_opts(prog, func, &opts);
	if (link) {
		l->links[l->nr_links++] = link;
		return 0;
	}
	ret = -errno;
	kprobe_refused(ret, c->probes[i].name, func, ev->kfunc_offset, err, errlen);
	if (!c->probes[i].from_glob)
		return ret;
	st_warnf("%s, skipping it", err);
	return 0;
}

/* fentry, fexit: a trampoline per function (trampolines.h). */
static int attach_trampoline(struct st_loader *l, struct bpf_program *prog,
			     const struct st_compiled *c, uint32_t i, const struct st_event *ev,
			     uint32_t site, char *err, size_t errlen)
{
	return st_tramp_attach(l, prog, ev->name, ST_COOKIE(site, i, 0), c->probes[i].dpath, err,
			       errlen);
}

/* iter: the iterator's program, read by the session (iters.h). */
static int attach_iter(struct st_loader *l, struct bpf_program *prog, const struct st_compiled *c,
		       uint32_t i, const struct st_event *ev, uint32_t site, char *err,
		       size_t errlen)
{
	return st_iter_attach(l, prog, ev->name, ST_COOKIE(site, i, 0), c->probes[i].dpath, err,
			      errlen);
}

/* Why perf_event_open() refused ev's event, when the reason is the machine's. */
static const char *perf_refused(const struct st_event *ev, int err)
{
	if (ev->perf.type == PERF_TYPE_HARDWARE && (err == -ENOENT || err == -EOPNOTSUPP))
		return "this CPU gives perf no such counter (a virtual machine often has none): "
		       "software: events and profile: sample without one";
	return strerror(-err);
}

/* profile:, software:, hardware:: prog on ev's perf event, sampled on every CPU. */
static int attach_perf_event(struct st_loader *l, struct bpf_program *prog,
			     const struct st_compiled *c, uint32_t i, const struct st_event *ev,
			     uint32_t site, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_perf_event_opts, opts, .bpf_cookie = ST_COOKIE(site, i, 0));
	struct perf_event_attr attr = {
		.type = ev->perf.type,
		.size = sizeof(attr),
		.config = ev->perf.config,
		.freq = ev->perf.freq,
		/* sample_freq when freq: the two share a union. */
		.sample_period = ev->perf.period,
	};
	struct bpf_link *link;
	int cpu, fd, ret;

	for (cpu = 0; cpu < l->ncpus; cpu++) {
		fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		/* A possible CPU that is not online has no clock to sample. */
		if (fd < 0 && errno == ENODEV)
			continue;
		ret = fd < 0 ? -errno : 0;
		link = fd < 0 ? NULL : bpf_program__attach_perf_event_opts(prog, fd, &opts);
		if (fd >= 0 && !link) {
			ret = -errno;
			close(fd);
		}
		if (ret) {
			snprintf(err, errlen, "cannot sample the CPUs for %s: %s",
				 c->probes[i].name, perf_refused(ev, ret));
			return ret;
		}
		l->links[l->nr_links++] = link;
	}
	return 0;
}

static attach_kernel_fn *const attach_kernel[] = {
	[ST_FAMILY_TRACEPOINT] = attach_tracepoint,
	[ST_FAMILY_KPROBE] = attach_kprobe,
	[ST_FAMILY_PERF_EVENT] = attach_perf_event,
	[ST_FAMILY_FENTRY] = attach_trampoline,
	[ST_FAMILY_FEXIT] = attach_trampoline,
	[ST_FAMILY_WATCHPOINT] = st_watch_attach,
	[ST_FAMILY_ITER] = attach_iter,
};

/*
 * Attaches prog at the n sites of path: offsets, semaphores and cookies.
 * 0 or a negative errno.
 */
static int attach_sites(struct st_loader *l, struct bpf_program *prog, const char *path,
			const uint64_t *offs, const uint64_t *refs, const uint64_t *cookies,
			uint32_t n, bool ret_probe)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts);
	struct bpf_link *link;
	uint32_t k;
	int fd;

	if (l->multi) {
		fd = st_uprobe_multi_link(bpf_program__fd(prog), path, offs, refs, cookies, n,
					  l->pid > 0 ? l->pid : 0, ret_probe);
		if (fd < 0)
			return fd;
		l->link_fds[l->nr_link_fds++] = fd;
		return 0;
	}
	for (k = 0; k < n; k++) {
		opts.retprobe = ret_probe;
		opts.ref_ctr_offset = refs[k];
		opts.bpf_cookie = cookies[k];
		link = bpf_program__attach_uprobe_opts(prog, l->pid, path, offs[k], &opts);
		if (!link)
			return -errno;
		l->links[l->nr_links++] = link;
	}
	return 0;
}

/*
 * Attaches prog at every site of the probes that want[] selects, in the
 * files of gen (NULL: the session's own): one uprobe_multi link per file
 * where the kernel has them, else one perf-event uprobe per site. Each
 * site's cookie says where its configuration is (ST_COOKIE) and its
 * semaphore is counted (ref_ctr_offset).
 */
static int attach_prog(struct st_loader *l, const struct st_compiled *c, struct bpf_program *prog,
		       const bool *want, const struct st_site_gen *gen, char *err, size_t errlen)
{
	const uint32_t *site_base = gen ? gen->site_base : l->site_base;
	uint64_t *offs, *refs, *cookies;
	const struct st_event *ev;
	uint32_t i, j, k, n;
	bool *done;
	int ret = 0;

	offs = calloc(l->site_cap + 1, sizeof(*offs));
	refs = calloc(l->site_cap + 1, sizeof(*refs));
	cookies = calloc(l->site_cap + 1, sizeof(*cookies));
	done = calloc(c->nr_probes + 1, sizeof(*done));
	if (!offs || !refs || !cookies || !done) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto cleanup;
	}
	for (i = 0; i < c->nr_probes; i++) {
		const struct st_event *first = st_loader_gen_event(c, gen, i);
		const char *path = first ? first->path : NULL;
		bool ret_probe = first && return_probe(first);

		if (!first || !want[i] || done[i])
			continue;
		if (st_event_kind(first)->in_kernel) {
			/* Kernel memory is never paged out: no fault-in. */
			if (prog == l->fault.prog) {
				done[i] = true;
				continue;
			}
			/* A kprobe_multi link takes the others it can with this one. */
			if (l->kmulti && st_kprobe_multi_takes(first))
				ret = st_kprobe_multi_attach(l, c, i, want, done, site_base, err,
							     errlen);
			else
				ret = attach_kernel[st_event_kind(first)->family](
					l, prog, c, i, first, site_base[i], err, errlen);
			done[i] = true;
			if (ret)
				goto cleanup;
			continue;
		}
		n = 0;
		/* One link per file and kind: entries, or returns. */
		for (j = i; j < c->nr_probes; j++) {
			ev = st_loader_gen_event(c, gen, j);
			if (!ev || !want[j] || done[j] || strcmp(ev->path, path) ||
			    return_probe(ev) != ret_probe)
				continue;
			done[j] = true;
			for (k = 0; k < ev->nr_sites; k++, n++) {
				offs[n] = ev->sites[k].file_offset +
					  st_site_probe_delta(c, &c->probes[j], &ev->sites[k]);
				refs[n] = ev->sites[k].sema_offset;
				cookies[n] =
					ST_COOKIE(site_base[j] + k, j, count_slot1(&c->probes[j]));
			}
		}
		if (!n)
			continue;
		ret = attach_sites(l, prog, path, offs, refs, cookies, n, ret_probe);
		if (ret) {
			snprintf(err, errlen, "cannot attach to %s in %s: %s", c->probes[i].name,
				 path, strerror(-ret));
			goto cleanup;
		}
	}
cleanup:
	free(offs);
	free(refs);
	free(cookies);
	free(done);
	return ret;
}

/*
 * Dynamic fields are found by name at every event, and names and string
 * values sit in pages the application may never have touched: the probes
 * that read them get the fault-in from the start, armed for those loads,
 * instead of after a first lost event.
 */
static int arm_dynamic(struct st_loader *l, const struct st_compiled *c, char *err, size_t errlen)
{
	int fd = bpf_map__fd(l->skel->maps.st_fault_armed), ret;
	uint32_t i, j, mask;

	for (i = 0; i < c->nr_probes; i++) {
		const struct st_probe_cfg *cfg = &c->probes[i].cfg;

		/* Strings behind a parameter's pointers are armed too: nothing else reads them
		 * first. */
		for (j = 0, mask = 0; j < cfg->nr_loads; j++)
			if (cfg->loads[j].src == ST_SRC_DYN ||
			    (cfg->loads[j].src == ST_SRC_MEM && cfg->loads[j].want == ST_WANT_STR))
				mask |= 1U << j;
		if (!mask || !st_fault_in_prog(l))
			continue;
		if (bpf_map_update_elem(fd, &i, &mask, BPF_ANY)) {
			ret = -errno;
			snprintf(err, errlen, "cannot arm the fault-in of %s: %s",
				 c->probes[i].name, strerror(errno));
			return ret;
		}
	}
	ret = st_loader_poll_fault_in(l, c, err, errlen);
	return ret < 0 ? ret : 0;
}

/*
 * Without uprobe_multi links every site costs two file descriptors (a perf
 * event and its link), and a few thousand sites pass the usual soft limit:
 * raises it as far as the hard limit allows (the margin covers maps,
 * programs and the fault-in's links of a few probes), or says which limit
 * stops the session before anything is attached.
 */
static int reserve_fds(uint32_t nr_sites, char *err, size_t errlen)
{
	rlim_t sites_fds = 2 * (rlim_t)nr_sites;
	rlim_t limit = st_loader_raise_fds(sites_fds + ST_FD_MARGIN);

	/* 0: the limit could not be read or set, as before: let the kernel say. */
	if (!limit || limit == RLIM_INFINITY || limit >= sites_fds + ST_FD_MIN)
		return 0;
	snprintf(err, errlen,
		 "%u call sites need about %llu open files (a perf event and a link each: this "
		 "kernel has no uprobe_multi links) but the limit is %llu: raise it (ulimit -n)",
		 nr_sites, (unsigned long long)(sites_fds + ST_FD_MIN), (unsigned long long)limit);
	return -EMFILE;
}

/* The links of the profile probes: one per CPU each. */
static uint32_t profile_links(const struct st_loader *l, const struct st_compiled *c)
{
	uint32_t i, n = 0;

	for (i = 0; i < c->nr_probes; i++)
		n += st_event_kind(c->probes[i].event)->family == ST_FAMILY_PERF_EVENT ? l->ncpus
										       : 0;
	return n;
}

int st_loader_attach(struct st_loader *l, const struct st_compiled *c, pid_t pid, char *err,
		     size_t errlen)
{
	struct bpf_program *progs[ST_NR_MAIN_PROGS];
	uint32_t i, k;
	bool *want;
	int ret = -ENOMEM;

	/*
	 * At most two links per site, or per probe and set of files: a
	 * program and the fault-in.
	 */
	l->links = calloc(2 * l->site_cap + profile_links(l, c) + 1, sizeof(*l->links));
	l->link_fds = calloc(2 * c->nr_probes * (1 + ST_MAX_SITE_GENS) + 1, sizeof(*l->link_fds));
	l->fault_in_on = calloc(c->nr_probes + 1, sizeof(*l->fault_in_on));
	want = calloc(c->nr_probes + 1, sizeof(*want));
	if (!l->links || !l->link_fds || !l->fault_in_on || !want) {
		snprintf(err, errlen, "out of memory");
		goto cleanup;
	}
	l->pid = pid;
	l->task = pid;
	/* Nothing counted before BEGIN has run (st_loader_begin()). */
	l->skel->bss->st_stopped = 1;
	/* Uprobes go to the process; tracepoints fire for every task and filter. */
	if (pid > 0 && !l->follow)
		l->skel->bss->st_kernel_tgid = pid;
	if (l->follow) {
		ret = st_follow_start(l, pid, err, errlen);
		if (ret)
			goto cleanup;
		l->pid = -1;
	}
	if (!l->multi) {
		ret = reserve_fds(l->nr_sites, err, errlen);
		if (ret)
			goto cleanup;
	}
	st_loader_main_progs(l, progs);
	for (k = 0, ret = 0; k < ST_NR_MAIN_PROGS && !ret; k++) {
		for (i = 0; i < c->nr_probes; i++)
			want[i] = st_loader_serving_prog(l, &c->probes[i]) == progs[k] &&
				  !(l->leave_served && st_probe_served_in_process(&c->probes[i]));
		ret = attach_prog(l, c, progs[k], want, NULL, err, errlen);
	}
	if (!ret)
		ret = arm_dynamic(l, c, err, errlen);
	if (!ret)
		ret = l->nr_sites;
cleanup:
	free(want);
	return ret;
}

int st_loader_poll_fault_in(struct st_loader *l, const struct st_compiled *c, char *err,
			    size_t errlen)
{
	int fd = bpf_map__fd(l->skel->maps.st_fault_armed), ret = 0, attached = 0;
	struct bpf_program *prog;
	uint32_t i, g, armed;
	bool *want;

	for (i = 0; i < c->nr_probes && !ret; i++) {
		if (l->fault_in_on[i] || bpf_map_lookup_elem(fd, &i, &armed) || !armed)
			continue;
		/* Armed: the program is loaded by now, or soon. */
		prog = st_fault_in_prog(l);
		if (!prog)
			return 0;
		want = calloc(c->nr_probes, sizeof(*want));
		if (!want) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		/* Attached after sidetrace_event, so that the kernel runs it first. */
		want[i] = true;
		ret = attach_prog(l, c, prog, want, NULL, err, errlen);
		for (g = 0; g < l->nr_gens && !ret; g++)
			ret = attach_prog(l, c, prog, want, &l->gens[g], err, errlen);
		free(want);
		/*
		 * The traced process (-p, -c) exited while the kernel took its
		 * time to register the uprobe: nothing is left to page in.
		 */
		if (ret == -ESRCH && l->pid > 0)
			ret = 0;
		else if (!ret)
			attached++;
		if (!ret)
			l->fault_in_on[i] = true;
	}
	return ret ? ret : attached;
}

/* Attaches the programs at gen's sites. */
static int attach_gen(struct st_loader *l, const struct st_compiled *c,
		      const struct st_site_gen *gen, char *err, size_t errlen)
{
	struct bpf_program *progs[ST_NR_MAIN_PROGS];
	uint32_t i, k;
	bool *want;
	int ret = 0;

	want = calloc(c->nr_probes + 1, sizeof(*want));
	if (!want) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	st_loader_main_progs(l, progs);
	for (k = 0; k < ST_NR_MAIN_PROGS && !ret; k++) {
		for (i = 0; i < c->nr_probes; i++)
			want[i] = gen->events[i] &&
				  st_loader_serving_prog(l, &c->probes[i]) == progs[k];
		ret = attach_prog(l, c, progs[k], want, gen, err, errlen);
	}
	/*
	 * The fault-in that a probe's sites already have, its new sites get
	 * too (it is on: the program was loaded).
	 */
	for (i = 0; i < c->nr_probes; i++)
		want[i] = gen->events[i] && l->fault_in_on[i];
	if (!ret && l->fault.prog)
		ret = attach_prog(l, c, l->fault.prog, want, gen, err, errlen);
	free(want);
	return ret;
}

int st_loader_add_gen(struct st_loader *l, const struct st_compiled *c, struct st_site_gen *gen,
		      char *err, size_t errlen)
{
	int ret;

	ret = st_loader_write_gen(l, c, gen, err, errlen);
	if (ret)
		return ret;
	/* From here the loader owns gen: links made before a failure stay its. */
	l->gens[l->nr_gens++] = *gen;
	memset(gen, 0, sizeof(*gen));
	return attach_gen(l, c, &l->gens[l->nr_gens - 1], err, errlen);
}
