// SPDX-License-Identifier: MIT
/* The fault-in program, loaded in the background (fault_in.h). */
#define _GNU_SOURCE
#include <sched.h>
#include <stddef.h>

#include <bpf/libbpf.h>

#include "bpfload/fault_in.h"
#include "bpfload/instance.h"
#include "bpfload/loader.h"
#include "bpfload/uprobes.h"
#include "util/thread.h"
#include "sidetrace.skel.h"

static void *load(void *arg)
{
	struct st_loader *l = arg;
	struct st_fault_in *f = &l->fault;
	struct bpf_program *mine;
	int ret;

	/*
	 * The kernel verifies the program in this thread for milliseconds:
	 * on a CPU the session's reader needs, that long a pause fills the
	 * event buffer of a process printing at full speed. Idle priority
	 * yields to it (and to everyone); the program is wanted later.
	 */
	sched_setscheduler(0, SCHED_IDLE, &(struct sched_param){0});
	ret = st_instance_open(l, l->skel->progs.sidetrace_fault_in, 0, &f->inst, &mine);
	if (!ret)
		ret = bpf_program__set_flags(mine, BPF_F_SLEEPABLE);
	if (!ret && l->multi)
		ret = bpf_program__set_expected_attach_type(mine, ST_BPF_TRACE_UPROBE_MULTI);
	if (!ret)
		ret = sidetrace_bpf__load(f->inst);
	if (!ret)
		f->loaded = mine;
	return NULL;
}

void st_fault_in_start(struct st_loader *l)
{
	l->fault.running = st_thread_start(&l->fault.thread, load, l);
}

struct bpf_program *st_fault_in_prog(struct st_loader *l)
{
	struct st_fault_in *f = &l->fault;

	if (f->running)
		pthread_join(f->thread, NULL);
	f->running = false;
	f->prog = f->loaded;
	return f->prog;
}

void st_fault_in_close(struct st_loader *l)
{
	st_fault_in_prog(l);
	sidetrace_bpf__destroy(l->fault.inst);
	l->fault.inst = NULL;
	l->fault.loaded = NULL;
	l->fault.prog = NULL;
}
