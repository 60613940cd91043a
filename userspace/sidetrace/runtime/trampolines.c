// SPDX-License-Identifier: MIT
/* fentry: and fexit: probes, one loaded instance per function (trampolines.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "discovery/kfuncs.h"
#include "runtime/trampolines.h"
#include "sidetrace.skel.h"

/* The kernel's ENOTSUPP, which reaches user space unnamed. */
#define ST_ENOTSUPP 524

/* The instance's maps are the loaded object's: the same name, the same fd. */
static int reuse_maps(const struct st_loader *l, struct sidetrace_bpf *inst)
{
	struct bpf_map *m, *own;
	int err;

	bpf_object__for_each_map(m, inst->obj)
	{
		own = bpf_object__find_map_by_name(l->skel->obj, bpf_map__name(m));
		if (!own)
			return -ENOENT;
		err = bpf_map__reuse_fd(m, bpf_map__fd(own));
		if (err)
			return err;
	}
	return 0;
}

/* Only the program named as prog is loaded, for func. */
static int only_prog(struct sidetrace_bpf *inst, const struct bpf_program *prog, const char *func,
		     struct bpf_program **mine)
{
	struct bpf_program *p;
	bool on;
	int err;

	*mine = NULL;
	bpf_object__for_each_program(p, inst->obj)
	{
		on = !strcmp(bpf_program__name(p), bpf_program__name(prog));
		err = bpf_program__set_autoload(p, on);
		if (!err && on) {
			*mine = p;
			err = bpf_program__set_attach_target(p, 0, func);
		}
		if (err)
			return err;
	}
	return *mine ? 0 : -ENOENT;
}

/* Why the kernel refused to load the instance, and what works instead. */
static void load_failed(int ret, const char *kind, const char *func, char *err, size_t errlen)
{
	char why[256];
	const char *instead;

	instead = st_kprobes_supported(why, sizeof(why))
			  ? "kprobe:/kretprobe: read the same arguments here"
			  : "this kernel has no kprobes either: tracepoints work here "
			    "(sidetrace -l 'tracepoint:*')";
	if (ret == -EPERM || ret == -EOPNOTSUPP || ret == -ST_ENOTSUPP || ret == -EINVAL)
		snprintf(err, errlen,
			 "this kernel refuses %s programs (loading one for %s: %s; it has no "
			 "BPF trampolines, or the function cannot have one); %s",
			 kind, func, strerror(-ret), instead);
	else
		snprintf(err, errlen, "cannot load the %s program for %s: %s", kind, func,
			 strerror(-ret));
}

int st_tramp_attach(struct st_loader *l, const struct bpf_program *prog, const char *func,
		    uint64_t cookie, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_trace_opts, opts, .cookie = cookie);
	const char *kind = prog == l->skel->progs.sidetrace_fexit ? "fexit" : "fentry";
	struct sidetrace_bpf *inst;
	struct bpf_program *mine;
	struct bpf_link *link;
	int ret;

	inst = sidetrace_bpf__open();
	if (!inst) {
		ret = -errno;
		snprintf(err, errlen, "cannot open the BPF program: %s", strerror(-ret));
		return ret;
	}
	ret = reuse_maps(l, inst);
	if (ret) {
		snprintf(err, errlen, "cannot share the maps with the %s program: %s", kind,
			 strerror(-ret));
		goto cleanup;
	}
	ret = only_prog(inst, prog, func, &mine);
	if (ret) {
		snprintf(err, errlen, "cannot set up the %s program for %s: %s", kind, func,
			 strerror(-ret));
		goto cleanup;
	}
	ret = sidetrace_bpf__load(inst);
	if (ret) {
		load_failed(ret, kind, func, err, errlen);
		goto cleanup;
	}
	link = bpf_program__attach_trace_opts(mine, &opts);
	if (!link) {
		ret = -errno;
		snprintf(err, errlen, "cannot attach %s:%s: %s", kind, func, strerror(-ret));
		goto cleanup;
	}
	l->links[l->nr_links++] = link;
cleanup:
	sidetrace_bpf__destroy(inst);
	return ret;
}
