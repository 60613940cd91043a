# SPDX-License-Identifier: MIT
# The median of v[1..k] (the mean of the two middle values when k is
# even), for the bench reports: awk "$(cat bench/median.awk)"'...' or
# awk -f bench/median.awk -f REPORT.awk.
function med(v, k,    a, i, j, t) {
	for (i = 1; i <= k; i++) a[i] = v[i]
	for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
		t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
}
