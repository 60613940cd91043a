// SPDX-License-Identifier: MIT
/*
 * Loading and attaching the BPF programs (bpf/sidetrace.bpf.c), whose
 * object is embedded as a skeleton: no compiler runs here.
 *
 * Start-up is what a user waits for, so it avoids what costs milliseconds:
 * the object has no CO-RE relocation (libbpf never parses the kernel's
 * BTF), only the programs the probes need are loaded, and where the
 * kernel has uprobe_multi links every site of a file is attached by one
 * syscall instead of one perf event per site. Each probe site gets one
 * st_site_cfg, whose index is the uprobe's cookie, holding the SDT
 * argument locations that discovery parsed from its note (not libbpf's
 * USDT support).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfload/follow.h"
#include "bpfload/kprobes.h"
#include "bpfload/loader.h"
#include "bpfload/loader_progs.h"
#include "bpfload/uprobes.h"
#include "bpfload/watch.h"
#include "objfile/kernel_btf.h"
#include "util/escape.h"
#include "util/thread.h"
#include "sidetrace.skel.h"

int st_loader_check_environment(char *err, size_t errlen)
{
	if (geteuid() != 0) {
		snprintf(err, errlen,
			 "tracing needs root (CAP_BPF and CAP_PERFMON) to load BPF programs");
		return -EPERM;
	}
	if (access(ST_KERNEL_BTF_PATH, R_OK)) {
		snprintf(err, errlen,
			 "this kernel has no BTF (%s is missing): sidetrace needs a kernel built "
			 "with CONFIG_DEBUG_INFO_BTF",
			 ST_KERNEL_BTF_PATH);
		return -ENOTSUP;
	}
	return 0;
}

/* The st_site_cfg of site k of probe p's event ev, number idx in st_sites. */
static int make_site(const struct st_loader *l, const struct st_compiled_probe *p,
		     const struct st_event *ev, uint32_t k, uint32_t idx, struct st_site_cfg *site,
		     char *err, size_t errlen)
{
	const struct st_site *loc = &ev->sites[k];
	uint32_t unread, i;
	char arg[64];

	memset(site, 0, sizeof(*site));
	st_ro_strings_site(&l->ro, idx, site);
	if (p->special == ST_SPECIAL_COUNT) {
		site->nr_counts = p->nr_counts;
		memcpy(site->counts, p->counts, sizeof(site->counts));
	}
	if (loc->sdt.nr > ST_MAX_SDT_ARGS) {
		snprintf(err, errlen, "%s: a probe site has more than %d SDT arguments", p->name,
			 ST_MAX_SDT_ARGS);
		return -EINVAL;
	}
	/* An argument the probe never reads may be of any form. */
	unread = loc->sdt.bad & p->cfg.sdt_mask;
	if (unread) {
		st_sdt_arg_text(loc->args, __builtin_ctz(unread), arg, sizeof(arg));
		snprintf(err, errlen, "%s: cannot read SDT argument '%s' at 0x%llx in %s: %s",
			 p->name, arg, (unsigned long long)loc->pc, ev->path, st_sdt_arg_why(arg));
		return -EINVAL;
	}
	memcpy(site->args, loc->sdt.spec, sizeof(site->args));
	/* The probe's registers, in arguments it reads no field from (compile/regs.c). */
	for (i = 0; i < p->nr_regs && i < ST_MAX_SDT_ARGS; i++) {
		site->args[st_probe_regs_arg(i)] = p->regs[i];
		if (p->regs[i].loc == ST_LOC_REG_OFFSET)
			site->args[st_probe_regs_arg(i)].val -= loc->pc;
	}
	return 0;
}

/*
 * Whether some probe's program may run with interrupts off: a CPU clock's
 * sample, a tracepoint or kprobe in the scheduler or an interrupt; not a
 * uprobe's (the uprobe programs come first in enum st_prog). A system
 * call's tracepoint runs with interrupts on, yet its keys allocated at
 * run time locked up both CPUs of 6.1 (the VM matrix): every tracepoint
 * counts.
 */
static bool irqs_off_progs(const struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (st_compiled_prog(&c->probes[i]) > ST_PROG_EVENT)
			return true;
	return false;
}

/*
 * A per-CPU hash that is not preallocated takes a new key's values from a
 * per-CPU cache that the kernel refills from an irq_work, and keeps one
 * entry there (since 6.8: kernel/bpf/memalloc.c). With interrupts off the
 * refill waits, and a second new key before they are on again is refused
 * (ENOMEM): two keyed maps in one profile sample, sched_switch and
 * sched_waking in one pass of the scheduler. Such programs get the keyed
 * hashes preallocated (about 14 ms more at start here, 2 CPUs).
 */
static int prealloc_aggr(struct sidetrace_bpf *skel, const struct st_compiled *c)
{
	int err;

	if (!irqs_off_progs(c))
		return 0;
	err = bpf_map__set_map_flags(skel->maps.st_aggr, 0);
	return err ? err : bpf_map__set_map_flags(skel->maps.st_aggr_compact, 0);
}

/* Sizes the maps and sets the read-only configuration before load. */
static int configure(struct st_loader *l, const struct st_compiled *c)
{
	struct sidetrace_bpf *skel = l->skel;
	uint32_t nr = c->nr_probes ? c->nr_probes : 1, events = st_compiled_events_size(c);
	int err;

	err = bpf_map__set_max_entries(skel->maps.st_probes, nr);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_fault_armed, nr);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_counters, nr * ST_NR_COUNTERS);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_sites, l->site_cap ? l->site_cap : 1);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_flat, c->nr_flat ? c->nr_flat : 1);
	if (!err && st_compiled_wants_maps(c))
		err = bpf_map__set_max_entries(skel->maps.st_stack_pids, ST_MAX_STACK_PIDS);
	if (!err && (st_compiled_stacks(c) & ST_STACK_USER))
		err = bpf_map__set_max_entries(skel->maps.st_ustacks, ST_MAX_STACKS)
			      ?: bpf_map__set_max_entries(skel->maps.st_ustacks_spill,
							  ST_MAX_SPILL_STACKS);
	if (!err && (st_compiled_stacks(c) & ST_STACK_KERNEL))
		err = bpf_map__set_max_entries(skel->maps.st_stacks, ST_MAX_STACKS)
			      ?: bpf_map__set_max_entries(skel->maps.st_stacks_spill,
							  ST_MAX_SPILL_STACKS);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_aggr,
					       st_compiled_hash_entries(c, ST_HASH_AGGR));
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_aggr_compact,
					       st_compiled_hash_entries(c, ST_HASH_COMPACT));
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_values,
					       st_compiled_hash_entries(c, ST_HASH_VALUES));
	if (!err)
		err = prealloc_aggr(skel, c);
	if (!err)
		err = bpf_map__set_key_size(skel->maps.st_aggr, c->key_size);
	if (!err)
		err = bpf_map__set_key_size(skel->maps.st_aggr_compact, c->compact_key_size);
	if (!err)
		err = bpf_map__set_key_size(skel->maps.st_values, c->key_size);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_events, events);
	if (err)
		return err;
	/* Wake the collector early enough that a burst never fills the buffer. */
	skel->rodata->st_events_wakeup = events / 8;
	memcpy((void *)skel->rodata->st_maps, c->maps, sizeof(c->maps));
	skel->rodata->st_key_words = (c->key_size - ST_KEY_HDR) / 8;
	skel->rodata->st_ckey_words = (c->compact_key_size - ST_KEY_HDR) / 8;
	skel->rodata->st_ops_used = st_compiled_ops(c);
	skel->rodata->st_helper_checks = c->nr_sites > 0;
	skel->rodata->st_srcs_used = st_compiled_srcs(c);
	skel->rodata->st_parts_used = st_compiled_parts(c, &skel->rodata->st_plain_parts_max);
	skel->rodata->st_kinds_used = st_compiled_kinds(c);
	skel->rodata->st_stacks_used = st_compiled_stacks(c);
	return 0;
}

/*
 * Whether some probe reads a string in a process's memory, which may be
 * paged out, or a dynamic field of any type (found by its name, a string).
 * A kernel's string is never paged out.
 */
static bool reads_strings(const struct st_compiled *c)
{
	uint32_t i, j;

	for (i = 0; i < c->nr_probes; i++)
		for (j = 0; j < c->probes[i].cfg.nr_loads; j++)
			if (c->probes[i].cfg.loads[j].src == ST_SRC_DYN ||
			    ((c->probes[i].cfg.str_loads & (1U << j)) &&
			     !c->probes[i].cfg.loads[j].kernel))
				return true;
	return false;
}

/* Loads prog only when on; as a uprobe_multi program where links are. */
static int set_prog(const struct st_loader *l, struct bpf_program *prog, bool on, bool uprobe)
{
	int err;

	err = bpf_program__set_autoload(prog, on);
	if (!err && on && l->multi && uprobe)
		err = bpf_program__set_expected_attach_type(prog, ST_BPF_TRACE_UPROBE_MULTI);
	return err;
}

void st_loader_main_progs(const struct st_loader *l, struct bpf_program *progs[ST_NR_MAIN_PROGS])
{
	progs[ST_PROG_COUNT] = l->skel->progs.sidetrace_count;
	progs[ST_PROG_FLAT] = l->skel->progs.sidetrace_flat;
	progs[ST_PROG_KEYED] = l->skel->progs.sidetrace_keyed;
	progs[ST_PROG_KEYED1] = l->skel->progs.sidetrace_keyed1;
	progs[ST_PROG_PLAIN] = l->skel->progs.sidetrace_plain;
	progs[ST_PROG_EVENT] = l->skel->progs.sidetrace_event;
	progs[ST_PROG_TP] = l->skel->progs.sidetrace_tp;
	progs[ST_PROG_KPROBE] = l->skel->progs.sidetrace_kprobe;
	progs[ST_PROG_PROFILE] = l->skel->progs.sidetrace_profile;
	progs[ST_PROG_TP_COUNT] = l->skel->progs.sidetrace_tp_count;
	progs[ST_PROG_TP_PLAIN] = l->skel->progs.sidetrace_tp_plain;
	progs[ST_PROG_TP_KEYED] = l->skel->progs.sidetrace_tp_keyed;
	progs[ST_PROG_PROFILE_FLAT] = l->skel->progs.sidetrace_profile_flat;
	progs[ST_PROG_TP_PRINT] = l->skel->progs.sidetrace_tp_print;
	progs[ST_PROG_TP_BUILTINS] = l->skel->progs.sidetrace_tp_builtins;
	progs[ST_PROG_FENTRY] = l->skel->progs.sidetrace_fentry;
	progs[ST_PROG_FEXIT] = l->skel->progs.sidetrace_fexit;
	progs[ST_PROG_ITER] = l->skel->progs.sidetrace_iter;
}

struct bpf_program *st_loader_serving_prog(const struct st_loader *l,
					   const struct st_compiled_probe *p)
{
	struct bpf_program *progs[ST_NR_MAIN_PROGS];

	st_loader_main_progs(l, progs);
	return progs[st_compiled_prog(p)];
}

/* True if prog serves some probe of c. */
static bool serves_some(const struct st_loader *l, const struct st_compiled *c,
			const struct bpf_program *prog)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (st_loader_serving_prog(l, &c->probes[i]) == prog)
			return true;
	return false;
}

/* Opens the embedded object, in a thread on another CPU than the caller's. */
static void *open_object(void *arg)
{
	struct st_loader_prep *p = arg;

	p->skel = sidetrace_bpf__open();
	p->err = p->skel ? 0 : -errno;
	return NULL;
}

/* A loader that holds nothing. */
static void reset(struct st_loader *l)
{
	memset(l, 0, sizeof(*l));
	l->aggr_fd = -1;
	l->compact_fd = -1;
	l->values_fd = -1;
	l->counters_fd = -1;
	l->flat_fd = -1;
	l->events_fd = -1;
	l->user_fd = -1;
	l->user_req_fd = -1;
	l->kread_fd = -1;
	l->kread_req_fd = -1;
	l->debugf_fd = -1;
	l->debugf_req_fd = -1;
}

rlim_t st_loader_raise_fds(rlim_t want)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return rl.rlim_cur;
	rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want ? want : rl.rlim_max;
	return setrlimit(RLIMIT_NOFILE, &rl) ? 0 : rl.rlim_cur;
}

void st_loader_open_early(struct st_loader *l)
{
	/*
	 * Before the object opens: its maps and programs alone took most of
	 * a soft limit of 40 (reserve_fds() in attach.c adds the sites').
	 */
	st_loader_raise_fds(ST_FD_MARGIN);
	reset(l);
	l->prep.started = true;
	/* Where a thread cannot start, the work is done at once. */
	l->prep.opening = st_thread_start_aside(&l->prep.open, open_object, &l->prep);
	if (!l->prep.opening)
		open_object(&l->prep);
}

void st_loader_prepare(struct st_loader *l, bool files)
{
	if (!l->prep.started)
		st_loader_open_early(l);
	/* A uprobe registered for nothing would slow every fork for a grace period. */
	if (files)
		st_warm_up_start(&l->warm_up);
}

/* Waits for st_loader_prepare(): the object is then l's (once). */
static void prep_join(struct st_loader *l)
{
	if (l->prep.opening)
		pthread_join(l->prep.open, NULL);
	l->prep.opening = false;
	if (!l->prep.skel)
		return;
	l->skel = l->prep.skel;
	l->prep.skel = NULL;
}

/*
 * Opens, configures and loads the skeleton, with only the programs the
 * probes need: verifying a program is most of the load's cost. The
 * fault-in is loaded apart (fault_in.h).
 */
static int open_and_load(struct st_loader *l, const struct st_compiled *c, char *err, size_t errlen)
{
	struct bpf_program *progs[ST_NR_MAIN_PROGS];
	uint32_t i;
	int ret;

	prep_join(l);
	if (!l->skel) {
		ret = l->prep.err;
		snprintf(err, errlen, "cannot open the BPF program: %s", strerror(-ret));
		return ret;
	}
	ret = configure(l, c);
	if (ret) {
		snprintf(err, errlen, "cannot size the BPF maps: %s", strerror(-ret));
		return ret;
	}
	st_loader_main_progs(l, progs);
	/* fentry and fexit are loaded per function (st_tramp_attach()), iter per iterator */
	for (i = 0, ret = 0; i < ST_NR_MAIN_PROGS && !ret; i++)
		ret = set_prog(l, progs[i], i < ST_PROG_FENTRY && serves_some(l, c, progs[i]),
			       i <= ST_PROG_EVENT);
	/* The kprobes a kprobe_multi link takes go to its own program (kprobes.h). */
	if (!ret)
		ret = bpf_program__set_autoload(l->skel->progs.sidetrace_kprobe_multi, l->kmulti);
	if (!ret && l->kmulti && st_kprobe_multi_takes_all(c))
		ret = bpf_program__set_autoload(l->skel->progs.sidetrace_kprobe, false);
	if (!ret)
		ret = bpf_program__set_autoload(l->skel->progs.sidetrace_fault_in, false);
	if (!ret)
		ret = bpf_program__set_autoload(l->skel->progs.sidetrace_user, c->user_aggs);
	if (!ret)
		ret = bpf_program__set_autoload(l->skel->progs.sidetrace_kread, c->kernel_reads);
	if (!ret)
		ret = bpf_program__set_autoload(l->skel->progs.sidetrace_debugf, c->user_debugf);
	if (!ret)
		ret = st_watch_configure(l, c);
	if (ret) {
		snprintf(err, errlen, "cannot set up the BPF programs: %s", strerror(-ret));
		return ret;
	}
	/* Without the tracepoints, -c still traces the command's own process. */
	ret = st_follow_configure(l, l->follow, err, errlen);
	if (ret && l->follow) {
		st_warnf("the command's descendants are not traced: %s", err);
		l->follow = false;
		ret = st_follow_configure(l, false, err, errlen);
	}
	if (ret)
		return ret;
	ret = sidetrace_bpf__load(l->skel);
	if (ret) {
		snprintf(err, errlen,
			 "cannot load the BPF program: %s (run with -v for the kernel's log)",
			 strerror(-ret));
		return ret;
	}
	return 0;
}

/* Numbers the probe sites: probe i's sites are site_base[i] onwards. */
static int number_sites(struct st_loader *l, const struct st_compiled *c)
{
	uint32_t i;

	l->site_base = calloc(c->nr_probes + 1, sizeof(*l->site_base));
	if (!l->site_base)
		return -ENOMEM;
	for (i = 0; i < c->nr_probes; i++) {
		l->site_base[i] = l->nr_sites;
		l->nr_sites += c->probes[i].event->nr_sites;
	}
	l->site_base[c->nr_probes] = l->nr_sites;
	l->sites_used = l->site_cap = l->nr_sites;
	/* Room for a new build of every file, twice over, and for sites that appear. */
	if (c->reattach)
		l->site_cap += 2 * l->nr_sites + ST_REATTACH_SPARE_SITES;
	return 0;
}

/* Keys 0 .. n-1 of an array map. */
static uint32_t *array_keys(uint32_t n)
{
	uint32_t *keys = malloc((n ? n : 1) * sizeof(*keys)), i;

	for (i = 0; keys && i < n; i++)
		keys[i] = i;
	return keys;
}

/* Kernels without batch operations on arrays refuse them so. */
static bool no_batch(int err)
{
	return err == -EINVAL || err == -ENOTSUP || err == -524 /* ENOTSUPP */;
}

/*
 * Writes entries 0 .. n-1 of an array map from vals, in one system call
 * where the kernel can (thousands of sites: one call each would cost
 * more than the attachment). 0 or a negative errno.
 */
static int update_all(int fd, const void *vals, size_t size, uint32_t n)
{
	uint32_t *keys = array_keys(n), count = n, i;
	int ret = 0;

	if (!keys)
		return -ENOMEM;
	if (n && bpf_map_update_batch(fd, keys, vals, &count, NULL))
		ret = -errno;
	for (i = 0; no_batch(ret) && i < n; i++)
		ret = bpf_map_update_elem(fd, &i, (const char *)vals + i * size, BPF_ANY) ? -errno
											  : 0;
	free(keys);
	return no_batch(ret) ? 0 : ret;
}

int st_map_lookup_all(int fd, void *vals, size_t size, uint32_t n)
{
	uint32_t *keys = array_keys(n), count = n, next, i;
	int ret = 0;

	if (!keys)
		return -ENOMEM;
	/* ENOENT: the batch reached the map's end, count entries were read. */
	if (n && bpf_map_lookup_batch(fd, NULL, &next, keys, vals, &count, NULL) &&
	    (errno != ENOENT || count != n))
		ret = -errno;
	for (i = 0; no_batch(ret) && i < n; i++)
		ret = bpf_map_lookup_elem(fd, &i, (char *)vals + i * size) ? -errno : 0;
	free(keys);
	return ret;
}

/* Writes the probe and site configurations into the loaded maps. */
static int write_config(struct st_loader *l, const struct st_compiled *c, char *err, size_t errlen)
{
	struct st_probe_cfg *cfgs = calloc(c->nr_probes + 1, sizeof(*cfgs));
	struct st_site_cfg *sites = calloc(l->nr_sites + 1, sizeof(*sites));
	const struct st_compiled_probe *p;
	uint32_t i, j;
	int ret = -ENOMEM;

	if (!cfgs || !sites) {
		snprintf(err, errlen, "out of memory");
		goto cleanup;
	}
	for (i = 0, ret = 0; i < c->nr_probes && !ret; i++) {
		p = &c->probes[i];
		cfgs[i] = p->cfg;
		for (j = 0; j < p->event->nr_sites && !ret; j++)
			ret = make_site(l, p, p->event, j, l->site_base[i] + j,
					&sites[l->site_base[i] + j], err, errlen);
	}
	if (ret)
		goto cleanup;
	ret = update_all(bpf_map__fd(l->skel->maps.st_probes), cfgs, sizeof(*cfgs), c->nr_probes);
	if (!ret)
		ret = update_all(bpf_map__fd(l->skel->maps.st_sites), sites, sizeof(*sites),
				 l->nr_sites);
	if (ret)
		snprintf(err, errlen, "cannot write the probe configuration: %s", strerror(-ret));
cleanup:
	free(cfgs);
	free(sites);
	return ret;
}

int st_loader_write_gen(struct st_loader *l, const struct st_compiled *c, struct st_site_gen *gen,
			char *err, size_t errlen)
{
	uint32_t i, k, next = l->sites_used, g = l->nr_gens + 1;
	int fd = bpf_map__fd(l->skel->maps.st_sites), ret = 0;
	const struct st_event *ev;
	struct st_site_cfg site;

	for (i = 0; i < c->nr_probes; i++) {
		ev = gen->events[i];
		gen->site_base[i] = next;
		next += ev ? ev->nr_sites : 0;
	}
	if (next > l->site_cap || l->nr_gens == ST_MAX_SITE_GENS) {
		snprintf(err, errlen, "no room left for the sites of a new file (%u of %u used)",
			 l->sites_used, l->site_cap);
		return -ENOSPC;
	}
	ret = st_ro_strings_add(&l->ro, c, gen->events, gen->site_base, g);
	for (i = 0; i < c->nr_probes && !ret; i++) {
		ev = gen->events[i];
		for (k = 0; ev && k < ev->nr_sites && !ret; k++) {
			ret = make_site(l, &c->probes[i], ev, k, gen->site_base[i] + k, &site, err,
					errlen);
			if (!ret && bpf_map_update_elem(fd, &(uint32_t){gen->site_base[i] + k},
							&site, BPF_ANY)) {
				ret = -errno;
				snprintf(err, errlen, "cannot write a site's configuration: %s",
					 strerror(errno));
			}
		}
	}
	if (!ret)
		l->sites_used = next;
	return ret;
}

/* Whether some probe of c is at a file's sites: uprobes, a watchpoint's uprobe. */
static bool probes_files(const struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (st_family_at_files(st_event_kind(c->probes[i].event)->family))
			return true;
	return false;
}

int st_loader_load(struct st_loader *l, const struct st_compiled *c, char *err, size_t errlen)
{
	int ret;

	ret = st_loader_check_environment(err, errlen);
	if (ret)
		return ret;
	if (!l->prep.started)
		st_loader_prepare(l, probes_files(c));
	l->ncpus = libbpf_num_possible_cpus();
	if (l->ncpus < 0) {
		snprintf(err, errlen, "cannot count the possible CPUs: %s", strerror(-l->ncpus));
		return l->ncpus;
	}
	l->flat_kept = calloc(ST_MAX_MAPS, sizeof(*l->flat_kept));
	if (!l->flat_kept || number_sites(l, c)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	l->follow = c->follow;
	/*
	 * Only the uprobe programs take uprobe_multi links. Probed here, on
	 * the way to the attachment that waits for the warm-up's grace
	 * period anyway, it delays no session that probes no file.
	 */
	l->multi = probes_files(c) && st_uprobe_multi_supported();
	l->kmulti = st_kprobe_multi_wanted(c);
	ret = open_and_load(l, c, err, errlen);
	if (ret)
		return ret;
	/* Strings need it (fault_in.bpf.h). */
	if (reads_strings(c))
		st_fault_in_start(l);
	l->aggr_fd = bpf_map__fd(l->skel->maps.st_aggr);
	l->compact_fd = bpf_map__fd(l->skel->maps.st_aggr_compact);
	l->values_fd = bpf_map__fd(l->skel->maps.st_values);
	l->counters_fd = bpf_map__fd(l->skel->maps.st_counters);
	l->flat_fd = bpf_map__fd(l->skel->maps.st_flat);
	l->events_fd = bpf_map__fd(l->skel->maps.st_events);
	if (c->user_aggs) {
		l->user_fd = bpf_program__fd(l->skel->progs.sidetrace_user);
		l->user_req_fd = bpf_map__fd(l->skel->maps.st_user_req);
	}
	if (c->kernel_reads) {
		l->kread_fd = bpf_program__fd(l->skel->progs.sidetrace_kread);
		l->kread_req_fd = bpf_map__fd(l->skel->maps.st_kread);
	}
	if (c->user_debugf) {
		l->debugf_fd = bpf_program__fd(l->skel->progs.sidetrace_debugf);
		l->debugf_req_fd = bpf_map__fd(l->skel->maps.st_debugf);
	}
	if (st_ro_strings_open(&l->ro, l->site_cap) ||
	    st_ro_strings_add(&l->ro, c, NULL, l->site_base, 0)) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return write_config(l, c, err, errlen);
}

bool st_loader_exit_requested(const struct st_loader *l)
{
	return l->skel && l->skel->bss &&
	       __atomic_load_n(&l->skel->bss->st_exit_requested, __ATOMIC_RELAXED);
}

int st_loader_map_err(const struct st_loader *l)
{
	if (!l || !l->skel || !l->skel->bss)
		return 0;
	return -__atomic_load_n(&l->skel->bss->st_map_err, __ATOMIC_RELAXED);
}

void st_loader_begin(const struct st_loader *l)
{
	if (l->skel && l->skel->bss)
		__atomic_store_n(&l->skel->bss->st_stopped, 0, __ATOMIC_RELEASE);
}

void st_loader_stop(const struct st_loader *l, bool settle)
{
	if (!l->skel || !l->skel->bss)
		return;
	__atomic_store_n(&l->skel->bss->st_stopped, 1, __ATOMIC_RELAXED);
	/*
	 * A uprobe's programs run under rcu_read_lock(), and this command
	 * waits for a grace period (synchronize_rcu()); where it is refused
	 * (nohz_full), a program in flight may still add a record unread.
	 */
	if (settle)
		syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0);
}

void st_loader_close(struct st_loader *l)
{
	uint32_t i;

	prep_join(l);
	st_warm_up_join(&l->warm_up);
	st_fault_in_close(l);
	st_watch_close(l);
	if (l->iterating)
		close(l->iter_fd);
	st_detach_all(l->links, l->nr_links, l->link_fds, l->nr_link_fds, &l->warm_up);
	free(l->links);
	free(l->link_fds);
	free(l->fault_in_on);
	free(l->site_base);
	free(l->flat_kept);
	for (i = 0; i < l->nr_gens; i++) {
		free(l->gens[i].events);
		free(l->gens[i].site_base);
		st_target_set_free(&l->gens[i].targets);
	}
	st_ro_strings_close(&l->ro);
	sidetrace_bpf__destroy(l->skel);
	reset(l);
}
