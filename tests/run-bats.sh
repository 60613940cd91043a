#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs the bats suites (tests/bats) against $SIDETRACE as the caller set
# it. Each test is bounded by BATS_TEST_TIMEOUT (300 s unless set; the
# slowest takes about 25 s under ASan): a test that hangs fails by its
# name instead of holding the whole run. Prints each result as it comes
# and ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.."
export BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300}
bats --tap tests/bats 2>&1 | awk '
	{ print; fflush() }
	/^ok / { p++ }
	/^not ok / { f++ }
	END { printf "%d passed, %d failed\n", p, f }'
