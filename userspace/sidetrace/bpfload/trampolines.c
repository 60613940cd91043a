// SPDX-License-Identifier: MIT
/* fentry: and fexit: probes, one loaded instance per function (trampolines.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "kernel/kfuncs.h"
#include "bpfload/instance.h"
#include "bpfload/trampolines.h"
#include "sidetrace.skel.h"

/* The kernel's ENOTSUPP, which reaches user space unnamed. */
#define ST_ENOTSUPP 524

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

/*
 * Whether the kernel refuses func's program for its path() alone: it
 * lets bpf_d_path() name a path in some functions' trampolines only.
 */
static bool path_refused(struct st_loader *l, const struct bpf_program *prog, const char *func)
{
	struct sidetrace_bpf *inst;
	struct bpf_program *mine;
	bool refused;

	if (st_instance_open(l, prog, 0, &inst, &mine))
		return false;
	refused = !bpf_program__set_attach_target(mine, 0, func) && !sidetrace_bpf__load(inst);
	sidetrace_bpf__destroy(inst);
	return refused;
}

int st_tramp_attach(struct st_loader *l, const struct bpf_program *prog, const char *func,
		    uint64_t cookie, uint32_t dpath, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_trace_opts, opts, .cookie = cookie);
	const char *kind = prog == l->skel->progs.sidetrace_fexit ? "fexit" : "fentry";
	struct sidetrace_bpf *inst;
	struct bpf_program *mine;
	struct bpf_link *link;
	int ret;

	ret = st_instance_open(l, prog, dpath, &inst, &mine);
	if (!ret)
		ret = bpf_program__set_attach_target(mine, 0, func);
	if (ret) {
		snprintf(err, errlen, "cannot set up the %s program for %s: %s", kind, func,
			 strerror(-ret));
		goto cleanup;
	}
	ret = sidetrace_bpf__load(inst);
	if (ret && dpath && path_refused(l, prog, func)) {
		snprintf(err, errlen,
			 "the kernel refuses path() in %s:%s: it lets a program name a path "
			 "(bpf_d_path()) in the trampolines of some functions only, such as "
			 "filp_close, security_file_open and vfs_truncate, and in iter:task_file",
			 kind, func);
		goto cleanup;
	}
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
