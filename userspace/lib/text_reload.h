/* SPDX-License-Identifier: MIT */
/* A page of the process's text mapped again from its file (text_reload.c). */
#ifndef SIDE_LIB_TEXT_RELOAD_H
#define SIDE_LIB_TEXT_RELOAD_H

#include <stdbool.h>
#include <stdint.h>

/* The x86 bytes the kernel writes at a probed site, read by sites.c and text_reload.c. */
#define SIDE_X86_CALL_REL32 0xe8
#define SIDE_X86_INT3 0xcc

/*
 * Maps the page of text at page again from its file, in one step, as the
 * loader mapped it: the new page holds the breakpoints of the uprobes
 * registered there now, which the kernel writes into any new mapping of
 * the file, and nothing else the process or a past tracer changed. Only
 * if the page differs from its file by uprobes alone; false where the page
 * is left as it was (no file, the file replaced, other changes, errors).
 * Async-signal-safe: runs in a fork() handler.
 */
bool side_text_reload(uintptr_t page, long page_size) __attribute__((visibility("hidden")));

#endif /* SIDE_LIB_TEXT_RELOAD_H */
