#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# packages.sh WHAT...: the Debian packages that tools/packages.debian
# lists for any of WHAT (build, test, bench, ci), one a line.

exec awk -v what="$*" '
	BEGIN { n = split(what, w, " ") }
	/^#/ || NF < 2 { next }
	{
		for (i = 2; i <= NF; i++)
			for (j = 1; j <= n; j++)
				if ($i == w[j]) {
					print $1
					next
				}
	}' "$(dirname "$0")/packages.debian"
