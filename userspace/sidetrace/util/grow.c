// SPDX-License-Identifier: MIT
/* Arrays that grow by doubling (grow.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

int st_grow(void *arr, size_t *cap, size_t nr, size_t elem, size_t first)
{
	size_t n = *cap ? 2 * *cap : first;
	void *v;

	if (nr < *cap)
		return 0;
	if (n <= nr)
		n = nr + 1;
	if (!elem || n > SIZE_MAX / elem)
		return -ENOMEM;
	/* The caller's array pointer is of its own type: copied, not cast. */
	memcpy(&v, arr, sizeof(v));
	v = realloc(v, n * elem);
	if (!v)
		return -ENOMEM;
	memcpy(arr, &v, sizeof(v));
	*cap = n;
	return 0;
}
