#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
#
# A stand-in for FreeBSD's tools/tools/locale/etc/final-maps/map.UTF-8,
# one of the large files the public FreeBSD repository's copy lacks, for
# the one locale a small world still builds from it: share/ctypedef's
# C.UTF-8.  The names come from Debian's unicode-data (UnicodeData.txt),
# the short names (<A>, <zero>, <tab>, ...) from FreeBSD's own
# map.ISO8859-1, and the algorithmic ones (CJK_UNIFIED_IDEOGRAPH-4E00,
# ...) from their code points.  C.UTF-8.src may name characters newer
# than that UnicodeData.txt; localedef takes an unknown name for a syntax
# error, so a copy of the source without them is written too, and how
# many were left out is said on stderr.
#
# usage: utf8map.py UnicodeData.txt map.ISO8859-1 C.UTF-8.src \
#	map.UTF-8.out C.UTF-8.src.out

import re
import sys

# Names whose suffix is their code point in hexadecimal.
ALGORITHMIC = re.compile(
    r'(CJK_UNIFIED_IDEOGRAPH|TANGUT_IDEOGRAPH|PRIVATE_USE_AREA)-([0-9A-F]{4,6})$')


def utf8(cp):
    return ''.join('\\x%02X' % b for b in chr(cp).encode('utf-8'))


def hangul_name(cp):
    lead = ['G', 'GG', 'N', 'D', 'DD', 'R', 'M', 'B', 'BB', 'S', 'SS', '',
            'J', 'JJ', 'C', 'K', 'T', 'P', 'H']
    vowel = ['A', 'AE', 'YA', 'YAE', 'EO', 'E', 'YEO', 'YE', 'O', 'WA',
             'WAE', 'OE', 'YO', 'U', 'WEO', 'WE', 'WI', 'YU', 'EU', 'YI', 'I']
    tail = ['', 'G', 'GG', 'GS', 'N', 'NJ', 'NH', 'D', 'L', 'LG', 'LM', 'LB',
            'LS', 'LT', 'LP', 'LH', 'M', 'B', 'BS', 'S', 'SS', 'NG', 'J', 'C',
            'K', 'T', 'P', 'H']
    i = cp - 0xAC00
    return 'HANGUL_SYLLABLE_' + lead[i // 588] + vowel[i % 588 // 28] + \
        tail[i % 28]


def unicode_names(path):
    names = {}
    for line in open(path, encoding='utf-8'):
        field = line.split(';')
        cp, name = int(field[0], 16), field[1]
        if name.startswith('<Hangul Syllable, First'):
            for h in range(0xAC00, 0xD7A4):
                names[hangul_name(h)] = h
        elif not name.startswith('<'):
            names[name.replace(' ', '_')] = cp
    return names


def short_names(path):
    names = {}
    for line in open(path, encoding='latin-1'):
        m = re.match(r'<([^>]+)>\s+\\x([0-9A-Fa-f]{2})\s*$', line)
        if m and not m.group(1).startswith(('code_set', 'mb_')):
            names[m.group(1)] = int(m.group(2), 16)
    return names


def source_names(path):
    return set(re.findall(r'<([^<>]+)>', open(path, encoding='utf-8').read()))


# The LC_CTYPE source as (keyword, items); an item is a list of the
# names it needs: one name, a range's two ends, a case pair's two.
def parse_source(path):
    head, classes, tail = [], [], []
    current = None
    for line in open(path, encoding='utf-8'):
        line = line.rstrip('\n')
        if current is None and not classes and not line.startswith(
                ('alpha', 'cntrl', 'digit', 'graph', 'lower', 'punct',
                 'space', 'tolower', 'toupper', 'upper', 'blank', 'print',
                 'xdigit')):
            head.append(line)
            continue
        if line.startswith('END LC_CTYPE'):
            tail.append(line)
            current = None
            continue
        if tail:
            tail.append(line)
            continue
        if not line.startswith('\t') and line.strip():
            keyword, _, rest = line.partition('\t')
            current = [keyword, '']
            classes.append(current)
            line = rest
        current[1] += line.strip().rstrip('/')
    parsed = []
    for keyword, body in classes:
        items = []
        tokens = [t for t in body.split(';') if t]
        i = 0
        while i < len(tokens):
            if i + 2 < len(tokens) and tokens[i + 1] == '...':
                items.append(tokens[i:i + 3])
                i += 3
            else:
                items.append([tokens[i]])
                i += 1
        parsed.append((keyword, items))
    return head, parsed, tail


def main(udata, iso, src, mapout, srcout):
    names = unicode_names(udata)
    for name, byte in short_names(iso).items():
        names.setdefault(name, byte)
    for name in source_names(src):
        m = ALGORITHMIC.match(name)
        if m:
            names.setdefault(name, int(m.group(2), 16))
    with open(mapout, 'w', encoding='utf-8') as out:
        out.write('<code_set_name> "UTF-8"\n<mb_cur_min> 1\n'
                  '<mb_cur_max> 4\n\nCHARMAP\n')
        for name, cp in sorted(names.items(), key=lambda kv: kv[1]):
            if not 0xD800 <= cp <= 0xDFFF:
                out.write('<%s> %s\n' % (name, utf8(cp)))
        out.write('END CHARMAP\n')
    head, parsed, tail = parse_source(src)
    dropped = set()
    with open(srcout, 'w', encoding='utf-8') as out:
        out.write('\n'.join(head) + '\n')
        for keyword, items in parsed:
            kept = []
            for item in items:
                need = set(re.findall(r'<([^<>]+)>', ''.join(item)))
                unknown = {n for n in need if n not in names}
                if unknown:
                    dropped |= unknown
                else:
                    kept.append(';'.join(item))
            out.write(keyword + '\t' + ';/\n\t'.join(kept) + '\n')
        out.write('\n'.join(tail) + '\n')
    sys.stderr.write('utf8map: %d names in map.UTF-8; %d names of %s '
                     'newer than %s left out\n' %
                     (len(names), len(dropped), src, udata))


if __name__ == '__main__':
    if len(sys.argv) != 6:
        sys.exit('usage: utf8map.py UnicodeData.txt map.ISO8859-1 '
                 'C.UTF-8.src map.UTF-8.out C.UTF-8.src.out')
    main(*sys.argv[1:])
