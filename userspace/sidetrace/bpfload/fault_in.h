/* SPDX-License-Identifier: MIT */
/*
 * The sleepable fault-in program (bpf/fault_in.bpf.h), loaded by a thread
 * of its own once the session's programs are: it is attached only after
 * a string read failed, or at the start for dynamic fields, so the
 * kernel's 4-7 ms of verifying it need not delay the first event.
 */
#ifndef SIDETRACE_BPFLOAD_FAULT_IN_H
#define SIDETRACE_BPFLOAD_FAULT_IN_H

#include <pthread.h>
#include <stdbool.h>

struct sidetrace_bpf;
struct bpf_program;
struct st_loader;

struct st_fault_in {
	pthread_t thread;
	bool running; /* thread is to be joined */
	struct sidetrace_bpf *inst; /* bpfload/instance.h */
	struct bpf_program *loaded; /* the thread's result */
	/* loaded, once joined: read by the main thread without waiting */
	struct bpf_program *prog;
};

/*
 * Starts loading it on l's maps (l loaded); best effort: where the
 * kernel refuses sleepable uprobe programs, a string in a page the
 * application never touched counts as a decode error instead.
 */
void st_fault_in_start(struct st_loader *l);

/* Waits for the load: the loaded program, or NULL (not started, or refused). */
struct bpf_program *st_fault_in_prog(struct st_loader *l);

/* Joins the thread and frees the instance (its links are the loader's). */
void st_fault_in_close(struct st_loader *l);

#endif /* SIDETRACE_BPFLOAD_FAULT_IN_H */
