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

/*
 * st_thread_start() on the CPUs allowed but the caller's, where there are
 * others: for work that is to run beside the caller's at once. A new
 * thread was at times left queued behind its busy creator for the best
 * part of a millisecond while another CPU idled. Once running, the thread
 * may move to any CPU the caller may use (one that a busy process holds
 * is no place to stay).
 */
bool st_thread_start_aside(pthread_t *thread, void *(*fn)(void *), void *arg);

#endif /* SIDETRACE_UTIL_THREAD_H */
