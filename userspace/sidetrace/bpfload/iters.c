// SPDX-License-Identifier: MIT
/* iter: probes, the iterator's program in an instance of its own (iters.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfload/instance.h"
#include "bpfload/iters.h"
#include "sidetrace.skel.h"

/* Objects a read of the iterator runs the clauses on: a byte each (iters.h). */
#define ITER_OBJECTS_PER_READ 64

/* Why the kernel refused the iterator's program, and what works instead. */
static void load_failed(int ret, const char *target, char *err, size_t errlen)
{
	if (ret == -EPERM || ret == -EOPNOTSUPP || ret == -EINVAL || ret == -ENOENT ||
	    ret == -ESRCH)
		snprintf(err, errlen,
			 "this kernel refuses iter programs (loading one for iter:%s: %s; it has "
			 "no BPF iterators, or not this one); /proc lists the tasks and their "
			 "files, and tracepoints work here (sidetrace -l 'tracepoint:*')",
			 target, strerror(-ret));
	else
		snprintf(err, errlen, "cannot load the iter program for %s: %s", target,
			 strerror(-ret));
}

int st_iter_attach(struct st_loader *l, const struct bpf_program *prog, const char *target,
		   uint64_t cookie, uint32_t dpath, char *err, size_t errlen)
{
	struct sidetrace_bpf *inst;
	struct bpf_program *mine;
	struct bpf_link *link;
	int ret, fd;

	if (l->iterating) {
		snprintf(err, errlen, "a session reads one iterator");
		return -EINVAL;
	}
	ret = st_instance_open(l, prog, dpath, &inst, &mine);
	if (!ret)
		ret = bpf_program__set_attach_target(mine, 0, target);
	if (ret) {
		snprintf(err, errlen, "cannot set up the iter program for %s: %s", target,
			 strerror(-ret));
		goto cleanup;
	}
	ret = sidetrace_bpf__load(inst);
	if (ret) {
		load_failed(ret, target, err, errlen);
		goto cleanup;
	}
	link = bpf_program__attach_iter(mine, NULL);
	if (!link) {
		ret = -errno;
		/* The kernel wants an object to walk where the link names none. */
		snprintf(err, errlen, "cannot attach iter:%s: %s%s", target, strerror(-ret),
			 ret == -EBADF || ret == -EINVAL
				 ? " (this iterator walks one map, socket map or cgroup, which an "
				   "iter: probe cannot name)"
				 : "");
		goto cleanup;
	}
	l->links[l->nr_links++] = link;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot open the iterator iter:%s: %s", target,
			 strerror(-ret));
		goto cleanup;
	}
	l->skel->bss->st_iter_cookie = cookie;
	l->iter_fd = fd;
	l->iterating = true;
cleanup:
	sidetrace_bpf__destroy(inst);
	return ret;
}

int st_iter_step(struct st_loader *l, char *err, size_t errlen)
{
	char beats[ITER_OBJECTS_PER_READ];
	ssize_t n;
	int ret;

	if (!l->iterating)
		return 0;
	n = read(l->iter_fd, beats, sizeof(beats));
	if (n > 0 || (n < 0 && errno == EINTR))
		return 1;
	ret = n < 0 ? -errno : 0;
	if (ret)
		snprintf(err, errlen, "reading the iterator: %s", strerror(-ret));
	close(l->iter_fd);
	l->iterating = false;
	return ret;
}
