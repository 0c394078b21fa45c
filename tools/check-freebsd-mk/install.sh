#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# A stand-in for FreeBSD's install(1), enough of it for the installs
# FreeBSD's share/mk makes with -DNO_ROOT: it copies files (or makes
# directories, -d) as its options say, never changes their owner, and
# appends each to the METALOG (-M) as FreeBSD's does, a path below the
# destination root (-D) with its owner, group, mode, size and tags (-T):
#
#	./bin/cat type=file uname=root gname=wheel mode=0555 size=9016 tags=package=runtime
#
# Like FreeBSD's, it does not make the directory it installs into.

set -u
prog=${0##*/}
destdir=
metalog=
owner=root
group=wheel
mode=0755
tags=
dirmode=

usage()
{
	echo "usage: $prog [-bCcpSsUv] [-D destdir] [-M metalog] [-T tags]" \
	    "[-g group] [-m mode] [-o owner] file ... target" >&2
	exit 1
}

while getopts B:bCcD:df:g:h:l:M:m:N:o:pSsT:Uv opt; do
	case $opt in
	D)	destdir=${OPTARG%/} ;;
	d)	dirmode=1 ;;
	g)	group=$OPTARG ;;
	M)	metalog=$OPTARG ;;
	m)	mode=$OPTARG ;;
	o)	owner=$OPTARG ;;
	T)	tags=$OPTARG ;;
	l)	echo "$prog: links (-l) are not supported" >&2; exit 1 ;;
	B|b|C|c|f|h|N|p|S|s|U|v) ;;
	*)	usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage

case $mode in
0*)	;;
*)	mode=0$mode ;;
esac

log()
{
	[ -n "$metalog" ] || return 0
	line=".${1#"$destdir"} type=$2 uname=$owner gname=$group mode=$mode"
	[ "$2" = file ] && line="$line size=$(wc -c < "$1" | tr -d ' ')"
	[ -n "$tags" ] && line="$line tags=$tags"
	echo "$line" >> "$metalog"
}

if [ -n "$dirmode" ]; then
	for d in "$@"; do
		mkdir -p "$d" && chmod "$mode" "$d" && log "$d" dir || exit 1
	done
	exit 0
fi

[ $# -ge 2 ] || usage
eval "target=\${$#}"
n=$(($# - 1))
if [ -d "$target" ]; then
	todir=1
elif [ $n -gt 1 ]; then
	echo "$prog: $target: not a directory" >&2
	exit 1
else
	todir=
fi
while [ $n -gt 0 ]; do
	src=$1
	shift
	n=$((n - 1))
	if [ -n "$todir" ]; then
		dst=${target%/}/${src##*/}
	else
		dst=$target
	fi
	rm -f "$dst" && cp "$src" "$dst" && chmod "$mode" "$dst" &&
	    log "$dst" file || exit 1
done
