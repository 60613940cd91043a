// SPDX-License-Identifier: MIT
/* The kernel's memory read for the collector's clauses: see kread.h. */
#include <errno.h>
#include <string.h>

#include <bpf/bpf.h>

#include "bpfload/kread.h"
#include "bpfload/loader.h"
#include "sidetrace.h"

int st_kernel_read(const struct st_loader *l, uint64_t addr, void *buf, uint32_t len,
		   uint64_t *task)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	struct st_kread_req req = {.addr = addr, .len = len};
	uint32_t zero = 0;

	if (len)
		memset(buf, 0, len);
	if (!l || l->kread_fd < 0)
		return -ENOTSUP;
	if (len > ST_KREAD_MAX)
		return -EINVAL;
	if (bpf_map_update_elem(l->kread_req_fd, &zero, &req, BPF_ANY) ||
	    bpf_prog_test_run_opts(l->kread_fd, &run) ||
	    bpf_map_lookup_elem(l->kread_req_fd, &zero, &req))
		return -errno;
	if (task)
		*task = req.task;
	if (len && !req.ok)
		return -EFAULT;
	if (len)
		memcpy(buf, req.buf, len);
	return 0;
}

int st_kernel_debugf(const struct st_loader *l, const struct st_debugf_req *req)
{
	LIBBPF_OPTS(bpf_test_run_opts, run);
	uint32_t zero = 0;

	if (!l || l->debugf_fd < 0)
		return -ENOTSUP;
	if (bpf_map_update_elem(l->debugf_req_fd, &zero, req, BPF_ANY) ||
	    bpf_prog_test_run_opts(l->debugf_fd, &run))
		return -errno;
	return 0;
}
