// SPDX-License-Identifier: MIT
/* Instances of the embedded object on a session's maps (instance.h). */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpfload/instance.h"
#include "sidetrace.skel.h"

/*
 * The instance's maps are the loaded object's: the same name, the same
 * fd; but for its own constants (bpf/kernel.bpf.h st_dpath).
 */
static int reuse_maps(const struct st_loader *l, struct sidetrace_bpf *inst)
{
	struct bpf_map *m, *own;
	int err;

	bpf_object__for_each_map(m, inst->obj)
	{
		if (m == inst->maps.rodata_inst)
			continue;
		own = bpf_object__find_map_by_name(l->skel->obj, bpf_map__name(m));
		if (!own)
			return -ENOENT;
		err = bpf_map__reuse_fd(m, bpf_map__fd(own));
		if (err)
			return err;
	}
	return 0;
}

/* Only the program named as prog is loaded. */
static int only_prog(struct sidetrace_bpf *inst, const struct bpf_program *prog,
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
		if (err)
			return err;
		if (on)
			*mine = p;
	}
	return *mine ? 0 : -ENOENT;
}

int st_instance_open(const struct st_loader *l, const struct bpf_program *prog, uint32_t dpath,
		     struct sidetrace_bpf **inst, struct bpf_program **mine)
{
	int ret;

	*inst = sidetrace_bpf__open();
	if (!*inst)
		return -errno;
	(*inst)->rodata_inst->st_dpath = dpath;
	ret = reuse_maps(l, *inst);
	if (!ret)
		ret = only_prog(*inst, prog, mine);
	if (ret) {
		sidetrace_bpf__destroy(*inst);
		*inst = NULL;
	}
	return ret;
}
