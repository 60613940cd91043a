// SPDX-License-Identifier: MIT
/* Helper threads of the collector (thread.h). */
#include <signal.h>

#include "util/thread.h"

bool st_thread_start(pthread_t *thread, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	bool started;

	sigfillset(&all);
	if (pthread_sigmask(SIG_SETMASK, &all, &old))
		return false;
	started = !pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return started;
}
