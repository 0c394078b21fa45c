# SPDX-License-Identifier: BSD-2-Clause
#
# Writes a Makefile of the tree as it reads on one system: the host
# variables of share/mk/host.opts.mk replaced by their values, and each
# .if on one of its MK_ knobs resolved, keeping the branch that holds.
# Every other line, other conditionals included, is left as it is.
#
# usage: awk -v vars="LOCK_HOST=flock MK_TAC=no ..." -f hostmk.awk Makefile

BEGIN {
	n = split(vars, kv, " ")
	for (i = 1; i <= n; i++) {
		eq = index(kv[i], "=")
		val[substr(kv[i], 1, eq - 1)] = substr(kv[i], eq + 1)
	}
	depth = 0
	status = 0
}

# A frame for each open conditional: "keep" for one left in the output,
# or the truth of a resolved one, "yes" or "no".
function shown(	i) {
	for (i = 1; i <= depth; i++)
		if (frame[i] == "no")
			return (0)
	return (1)
}

function knob_test(line,	f, name, op, want) {
	if (line !~ /^\.if[ \t]+\$\{MK_[A-Z0-9_]+\}[ \t]*[!=]=[ \t]*"(yes|no)"[ \t]*$/)
		return ("")
	split(line, f, /[${} \t"]+/)
	name = f[2]
	if (!(name in val))
		return ("")
	op = f[3]
	want = f[4]
	if ((val[name] == want) == (op == "=="))
		return ("yes")
	return ("no")
}

/^\.[ \t]*if/ {
	t = knob_test($0)
	frame[++depth] = t == "" ? "keep" : t
	if (t != "")
		next
}

/^\.[ \t]*elif/ && depth > 0 && frame[depth] != "keep" {
	printf("%s:%d: .elif after a host knob is not resolved\n",
	    FILENAME, FNR) > "/dev/stderr"
	status = 1
	next
}

/^\.[ \t]*else/ && depth > 0 && frame[depth] != "keep" {
	frame[depth] = frame[depth] == "yes" ? "no" : "yes"
	next
}

/^\.[ \t]*endif/ && depth > 0 {
	kept = frame[depth] == "keep"
	depth--
	if (!kept)
		next
}

{
	if (!shown())
		next
	line = $0
	for (name in val)
		gsub("\\$\\{" name "\\}", val[name], line)
	print line
}

END {
	exit status
}
