/* SPDX-License-Identifier: MIT */
/*
 * The stacks that ustack and kstack name (st_stacks), as text: each frame
 * "function+offset", innermost first, from the kernel's symbols or the
 * traced file's. A user stack is named after its process has exited: the
 * session keeps the mappings of every process whose stack was taken
 * (st_stack_pids), read while it lives.
 */
#ifndef SIDETRACE_BPFLOAD_STACKS_H
#define SIDETRACE_BPFLOAD_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "compile/compile.h"

struct st_loader;
struct st_stacks;

/* A session's names of stacks, none read yet; NULL: out of memory. */
struct st_stacks *st_stacks_new(void);

/*
 * Reads the mappings of the processes whose stacks were taken since the
 * last call (a process already gone keeps its frames as addresses).
 * 0, or -ENOMEM.
 */
int st_stacks_poll(struct st_stacks *s, const struct st_loader *l);

/*
 * The frames of stack v (a ustack value, or a kstack id) of a session of
 * c, one a line, innermost first (malloc'ed); "" for a stack without
 * frames (a user-mode sample's kernel stack), "[unknown]" for one the
 * kernel could not take. A user frame the kernel gave by its file's build
 * id is named from that file, found among the processes' mappings, c's
 * traced files and the libraries they need; perf: each with its address
 * first, and a user frame its file after it, as perf prints them
 * (bpfload/stacks.c). NULL: out of memory.
 */
char *st_stack_text(struct st_stacks *s, const struct st_loader *l, const struct st_compiled *c,
		    bool user, bool perf, uint64_t v);

/*
 * The innermost n frames of stack v (a ustack value, or a kstack id) as
 * the kernel keeps them, into out (n * ST_STACK_FRAME_BYTES bytes, zero
 * past its last frame), so that two stacks print the same n frames when
 * these bytes are equal. False for a stack without frames or unreadable.
 */
#define ST_STACK_FRAME_BYTES 32 /* sizeof(struct bpf_stack_build_id), a user frame's */
bool st_stack_prefix(const struct st_loader *l, bool user, uint64_t v, uint32_t n, void *out);

/* An address no symbol names, as bpftrace prints one: "0x1f", and 0 as "0". */
#define ST_ADDRESS_TEXT (sizeof("0x") + 16)
void st_address_text(uint64_t addr, char buf[ST_ADDRESS_TEXT]);

/* ksym(addr): the kernel function holding addr, by name, or the address (malloc'ed). */
char *st_ksym_text(struct st_stacks *s, uint64_t addr);

/*
 * usym(addr): the function holding user address addr in process pid, by
 * name, from the mappings read when the process was announced; its
 * file+offset, or the address, where none names it (malloc'ed).
 */
char *st_usym_text(struct st_stacks *s, uint32_t pid, uint64_t addr);

void st_stacks_free(struct st_stacks *s);

#endif /* SIDETRACE_BPFLOAD_STACKS_H */
