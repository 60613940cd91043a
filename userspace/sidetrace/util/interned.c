// SPDX-License-Identifier: MIT
/* Interned literal strings (interned.h). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/interned.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char *texts[ST_INTERNED_MAX + 1]; /* [0] unused: id 0 is none */
static unsigned int nr;

int st_intern(const char *s)
{
	unsigned int i;
	int ret;

	pthread_mutex_lock(&lock);
	for (i = 1; i <= nr && strcmp(texts[i], s); i++)
		;
	if (i <= nr) {
		ret = (int)i;
	} else if (nr == ST_INTERNED_MAX) {
		ret = -ENOSPC;
	} else {
		texts[nr + 1] = strdup(s);
		ret = texts[nr + 1] ? (int)++nr : -ENOMEM;
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

const char *st_interned(unsigned int id)
{
	const char *s;

	pthread_mutex_lock(&lock);
	s = id && id <= nr ? texts[id] : NULL;
	pthread_mutex_unlock(&lock);
	return s;
}
