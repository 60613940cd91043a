// SPDX-License-Identifier: MIT
/*
 * Drives libkv.so, linked (default) or through dlopen() (-D), so tests can
 * check that events of shared libraries are traced either way.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libkv.h"

struct kv_ops {
	void (*put)(const char *key, uint32_t size);
	int (*get)(const char *key, uint32_t *size);
};

static int load_dynamic(struct kv_ops *ops, void **handle)
{
	char path[4096];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 16);
	char *slash;

	if (n < 0)
		return -1;
	path[n] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash ? slash + 1 : path, "libkv.so");
	*handle = dlopen(path, RTLD_NOW);
	if (!*handle) {
		fprintf(stderr, "kv_client: %s\n", dlerror());
		return -1;
	}
	*(void **)&ops->put = dlsym(*handle, "kv_put");
	*(void **)&ops->get = dlsym(*handle, "kv_get");
	return ops->put && ops->get ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct kv_ops ops = {kv_put, kv_get};
	void *handle = NULL;
	long rounds = 100;
	double pause = 0;
	char key[16];
	uint32_t size;
	int c, ret = 1;
	long i;

	while ((c = getopt(argc, argv, "Dn:w:p")) != -1) {
		switch (c) {
		case 'D':
			if (load_dynamic(&ops, &handle))
				return 1;
			break;
		case 'n':
			rounds = strtol(optarg, NULL, 0);
			break;
		case 'w':
			pause = strtod(optarg, NULL);
			break;
		case 'p':
			printf("%d\n", getpid());
			fflush(stdout);
			break;
		default:
			fprintf(stderr,
				"Usage: %s [-D] [-n ROUNDS] [-w SECONDS_BEFORE_START] [-p]\n",
				argv[0]);
			return 2;
		}
	}
	if (pause > 0)
		usleep((useconds_t)(pause * 1e6));
	/* Each round: one put of key i%10, then gets of two keys (one may miss). */
	for (i = 0; i < rounds; i++) {
		snprintf(key, sizeof(key), "k%ld", i % 10);
		ops.put(key, (uint32_t)(i * 7 % 100));
		ops.get(key, &size);
		snprintf(key, sizeof(key), "m%ld", i % 3);
		ops.get(key, &size);
	}
	printf("done %ld rounds\n", rounds);
	ret = 0;
	if (handle)
		dlclose(handle);
	return ret;
}
