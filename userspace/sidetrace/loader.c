// SPDX-License-Identifier: MIT
/*
 * Loading and attaching the generic BPF program (bpf/sidetrace.bpf.c),
 * whose object is embedded as a skeleton: no compiler runs here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "loader.h"
#include "sidetrace.skel.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"

static int check_environment(char *err, size_t errlen)
{
	if (geteuid() != 0) {
		snprintf(err, errlen,
			 "tracing needs root (CAP_BPF and CAP_PERFMON) to load BPF programs");
		return -EPERM;
	}
	if (access(BTF_PATH, R_OK)) {
		snprintf(err, errlen,
			 "this kernel has no BTF (%s is missing): sidetrace needs a kernel built with CONFIG_DEBUG_INFO_BTF",
			 BTF_PATH);
		return -ENOTSUP;
	}
	return 0;
}

/* Sizes the maps and sets the read-only configuration before load. */
static int configure(struct sidetrace_bpf *skel, const struct st_compiled *c)
{
	uint32_t nr = c->nr_probes ? c->nr_probes : 1;
	int err;

	err = bpf_map__set_max_entries(skel->maps.st_probes, nr);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_fault_armed, nr);
	if (!err)
		err = bpf_map__set_max_entries(skel->maps.st_counters,
					       nr * ST_NR_COUNTERS);
	if (!err)
		err = bpf_map__set_key_size(skel->maps.st_aggr, c->key_size);
	if (err)
		return err;
	memcpy((void *)skel->rodata->st_maps, c->maps, sizeof(c->maps));
	return 0;
}

static bool reads_strings(const struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (c->probes[i].cfg.str_loads)
			return true;
	return false;
}

/* Opens, configures and loads the skeleton; with_fault_in: see below. */
static int open_and_load(struct st_loader *l, const struct st_compiled *c,
			 bool with_fault_in, char *err, size_t errlen)
{
	struct bpf_program *fault_in;
	int ret;

	l->skel = sidetrace_bpf__open();
	if (!l->skel) {
		ret = -errno;
		snprintf(err, errlen, "cannot open the BPF program: %s",
			 strerror(-ret));
		return ret;
	}
	ret = configure(l->skel, c);
	if (ret) {
		snprintf(err, errlen, "cannot size the BPF maps: %s",
			 strerror(-ret));
		return ret;
	}
	fault_in = l->skel->progs.sidetrace_fault_in;
	ret = bpf_program__set_autoload(fault_in, with_fault_in);
	if (!ret && with_fault_in)
		ret = bpf_program__set_flags(fault_in, BPF_F_SLEEPABLE);
	if (ret) {
		snprintf(err, errlen, "cannot set up the fault-in program: %s",
			 strerror(-ret));
		return ret;
	}
	ret = sidetrace_bpf__load(l->skel);
	if (ret) {
		snprintf(err, errlen,
			 "cannot load the BPF program: %s (run with -v for the kernel's log)",
			 strerror(-ret));
		return ret;
	}
	l->fault_in = with_fault_in;
	return 0;
}

int st_loader_load(struct st_loader *l, const struct st_compiled *c,
		   char *err, size_t errlen)
{
	uint32_t i;
	int ret;

	memset(l, 0, sizeof(*l));
	l->aggr_fd = -1;
	l->counters_fd = -1;
	ret = check_environment(err, errlen);
	if (ret)
		return ret;
	l->ncpus = libbpf_num_possible_cpus();
	if (l->ncpus < 0) {
		snprintf(err, errlen, "cannot count the possible CPUs: %s",
			 strerror(-l->ncpus));
		return l->ncpus;
	}
	/*
	 * Strings need the sleepable fault-in program; a kernel without
	 * sleepable uprobe programs refuses it, and then strings whose page
	 * is not mapped count as decode errors instead.
	 */
	ret = open_and_load(l, c, reads_strings(c), err, errlen);
	if (ret && l->skel && reads_strings(c)) {
		sidetrace_bpf__destroy(l->skel);
		l->skel = NULL;
		ret = open_and_load(l, c, false, err, errlen);
	}
	if (ret)
		return ret;
	l->aggr_fd = bpf_map__fd(l->skel->maps.st_aggr);
	l->counters_fd = bpf_map__fd(l->skel->maps.st_counters);
	for (i = 0; i < c->nr_probes; i++) {
		ret = bpf_map_update_elem(bpf_map__fd(l->skel->maps.st_probes),
					  &i, &c->probes[i].cfg, BPF_ANY);
		if (ret) {
			ret = -errno;
			snprintf(err, errlen,
				 "cannot write the configuration of %s: %s",
				 c->probes[i].name, strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int st_loader_attach(struct st_loader *l, const struct st_compiled *c,
		     pid_t pid, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_usdt_opts, opts);
	struct bpf_link *link, **links;
	int sites = 0, ret;
	uint32_t i;

	/* Up to two links per probe: the program and its fault-in helper. */
	links = calloc(2 * c->nr_probes + 1, sizeof(*links));
	l->fault_in_on = calloc(c->nr_probes + 1, sizeof(*l->fault_in_on));
	l->links = links;
	if (!links || !l->fault_in_on) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < c->nr_probes; i++) {
		const struct st_event *ev = c->probes[i].event;

		/* The cookie tells the program which configuration applies. */
		opts.usdt_cookie = i;
		link = bpf_program__attach_usdt(l->skel->progs.sidetrace_event,
						pid, ev->path, ev->usdt_provider,
						ev->usdt_name, &opts);
		if (!link) {
			ret = -errno;
			snprintf(err, errlen, "cannot attach to %s in %s: %s",
				 c->probes[i].name, ev->path, strerror(-ret));
			return ret;
		}
		links[l->nr_links++] = link;
		sites += ev->nr_sites;
	}
	l->pid = pid;
	return sites;
}

int st_loader_poll_fault_in(struct st_loader *l, const struct st_compiled *c,
			    char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_usdt_opts, opts);
	int fd, ret, attached = 0;
	struct bpf_link *link;
	uint32_t i, armed;

	if (!l->fault_in)
		return 0;
	fd = bpf_map__fd(l->skel->maps.st_fault_armed);
	for (i = 0; i < c->nr_probes; i++) {
		const struct st_event *ev = c->probes[i].event;

		if (l->fault_in_on[i] || bpf_map_lookup_elem(fd, &i, &armed) || !armed)
			continue;
		/* Attached after sidetrace_event, so that the kernel runs it first. */
		opts.usdt_cookie = i;
		link = bpf_program__attach_usdt(l->skel->progs.sidetrace_fault_in,
						l->pid, ev->path, ev->usdt_provider,
						ev->usdt_name, &opts);
		if (!link) {
			ret = -errno;
			snprintf(err, errlen, "cannot attach the string fault-in to %s: %s",
				 c->probes[i].name, strerror(-ret));
			return ret;
		}
		l->links[l->nr_links++] = link;
		l->fault_in_on[i] = true;
		attached++;
	}
	return attached;
}

bool st_loader_exit_requested(const struct st_loader *l)
{
	return l->skel && l->skel->bss &&
	       __atomic_load_n(&l->skel->bss->st_exit_requested, __ATOMIC_RELAXED);
}

void st_loader_close(struct st_loader *l)
{
	uint32_t i;

	for (i = 0; i < l->nr_links; i++)
		bpf_link__destroy(l->links[i]);
	free(l->links);
	free(l->fault_in_on);
	sidetrace_bpf__destroy(l->skel);
	memset(l, 0, sizeof(*l));
	l->aggr_fd = -1;
	l->counters_fd = -1;
}
