/* SPDX-License-Identifier: MIT */
/* Helper threads of the collector. */
#ifndef SIDETRACE_UTIL_THREAD_H
#define SIDETRACE_UTIL_THREAD_H

#include <pthread.h>
#include <stdbool.h>

/*
 * Starts fn(arg) in a thread that takes no signal (they are for the main
 * thread's loop). Whether it started: join it then.
 */
bool st_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif /* SIDETRACE_UTIL_THREAD_H */
