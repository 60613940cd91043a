// SPDX-License-Identifier: MIT
/* kprobe_multi links: many kernel functions in one link (kprobes.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfload/kprobes.h"
#include "bpfload/noop_prog.h"
#include "kinds/probe_kinds.h"
#include "sidetrace.skel.h"

/*
 * Probes for kprobe_multi links: a program loads for them, and a link of
 * a name no kernel function has fails its lookup (ESRCH; ENOENT where
 * the names are looked up otherwise), not the link's creation.
 */
static bool multi_supported(void)
{
	const char *sym = "sidetrace_no_such_function";
	LIBBPF_OPTS(bpf_link_create_opts, lopts, .kprobe_multi.syms = &sym, .kprobe_multi.cnt = 1);
	int prog_fd, fd;

	if (getenv("SIDETRACE_NO_KPROBE_MULTI"))
		return false;
	prog_fd = st_noop_prog(BPF_TRACE_KPROBE_MULTI);
	if (prog_fd < 0)
		return false;
	fd = bpf_link_create(prog_fd, 0, BPF_TRACE_KPROBE_MULTI, &lopts);
	if (fd >= 0)
		close(fd);
	close(prog_fd);
	return fd == -ESRCH || fd == -ENOENT;
}

bool st_kprobe_multi_takes(const struct st_event *ev)
{
	return st_event_kind(ev)->family == ST_FAMILY_KPROBE && !ev->kfunc_offset &&
	       !ev->kfunc_module;
}

bool st_kprobe_multi_takes_all(const struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (st_event_kind(c->probes[i].event)->family == ST_FAMILY_KPROBE &&
		    !st_kprobe_multi_takes(c->probes[i].event))
			return false;
	return true;
}

bool st_kprobe_multi_wanted(const struct st_compiled *c)
{
	uint32_t i;

	for (i = 0; i < c->nr_probes; i++)
		if (st_kprobe_multi_takes(c->probes[i].event))
			return multi_supported();
	return false;
}

int st_kprobe_multi_attach(struct st_loader *l, const struct st_compiled *c, uint32_t first,
			   const bool *want, bool *done, const uint32_t *site_base, char *err,
			   size_t errlen)
{
	bool ret_probe = st_event_kind(c->probes[first].event)->retval;
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts, .retprobe = ret_probe);
	const struct st_event *ev;
	const char **syms = calloc(c->nr_probes, sizeof(*syms));
	__u64 *cookies = calloc(c->nr_probes, sizeof(*cookies));
	struct bpf_link *link;
	uint32_t j, n = 0;
	int ret = 0;

	if (!syms || !cookies) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto cleanup;
	}
	for (j = first; j < c->nr_probes; j++) {
		ev = c->probes[j].event;
		if (!want[j] || done[j] || !st_kprobe_multi_takes(ev) ||
		    st_event_kind(ev)->retval != ret_probe)
			continue;
		done[j] = true;
		syms[n] = ev->name;
		cookies[n++] = ST_COOKIE(site_base[j], j, 0);
	}
	opts.syms = syms;
	opts.cookies = cookies;
	opts.cnt = n;
	link = bpf_program__attach_kprobe_multi_opts(l->skel->progs.sidetrace_kprobe_multi, NULL,
						     &opts);
	if (!link) {
		ret = -errno;
		snprintf(err, errlen,
			 "cannot attach to %s and %u more %s by a kprobe_multi link: %s",
			 c->probes[first].name, n - 1, ret_probe ? "returns" : "functions",
			 strerror(-ret));
		goto cleanup;
	}
	l->links[l->nr_links++] = link;
cleanup:
	free(syms);
	free(cookies);
	return ret;
}
