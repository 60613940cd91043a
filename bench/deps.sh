#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages only the benchmarks need (LTTng-UST, the
# peer of bench/stream.sh), those missing, as scripts/deps.sh does.
set -eu
exec "$(dirname "$0")/../scripts/deps.sh" liblttng-ust-dev lttng-tools babeltrace2
