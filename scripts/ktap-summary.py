#!/usr/bin/env python3
"""Summarise a test boot's console log.

Reads the KTAP documents in it (KUnit's and the userspace checks'; nested
subtests, plans, skips), the harness exit line and any kernel report
(oops, BUG, WARNING, lockdep, scheduling while atomic, RCU stalls, hung
tasks) that no test said it expects. Prints each failure with its log excerpt, then a last line
"N passed, N failed[, N skipped]". Exits 1 if anything failed.

A test that provokes a report on purpose brackets it with the lines
"KMAP-EXPECT-BEGIN <what>" and "KMAP-EXPECT-END <what>" on the console.
A bracket excuses only the reports it expects: by default the series' own
WARNINGs ("kmap_atomic: ...", "bvec_kmap_irq: ..." or "bio_kmap: ..." as the WARNING's
message or title; never an oops or BUG after such a line); a bracket that expects another kind names it, as a regular
expression matched against the report's title and the three lines before
it, at the end of its BEGIN line: "KMAP-EXPECT-BEGIN <what> [reports: RE]".
Any other report inside a bracket fails like one outside.

Further KTAP files (results of checks run on the host) are counted too.

Usage: ktap-summary.py BOOT_LOG [BOOT_LOG ...] [HOST_KTAP ...]
(a file whose name ends in .log is a boot's console log, any other a KTAP
file; the counts add up over all of them)
"""
import os
import re
import sys

VERSION = re.compile(r'^K?TAP version \d+$')
SUBTEST = re.compile(r'^# Subtest: (.*)$')
PLAN = re.compile(r'^1\.\.(\d+)')
RESULT = re.compile(r'^(not ok|ok) (\d+)(?: (?:- )?([^#]*?))?\s*(?:#\s*(SKIP|TODO)\b\s*(.*))?$')
REPORT = re.compile(r'(WARNING:|BUG:|kernel BUG at|Oops[: ]|Kernel panic|general protection fault'
                    r'|UBSAN:|scheduling while atomic|INFO: possible|lockdep is turned off'
                    r'|rcu: INFO: |INFO: rcu_|INFO: task .* blocked for more than)')
EXPECT = re.compile(r'KMAP-EXPECT-(BEGIN|END) ?(.*?)(?: \[reports: (.*)\])?$')
OWN_REPORTS = r'^(kmap_atomic|bvec_kmap_irq|bio_kmap): '
STAMP = re.compile(r'^\[[ 0-9.]+\] ')
MESSAGE_LINES = 3       # a WARN's message comes just before its title
EXIT = re.compile(r'^KMAP-HARNESS-EXIT: (\d+)$')
EXCERPT_LINES = 40
END_TRACE = re.compile(r'---\[ end trace')
RULE = re.compile(r'^={40,}$')   # UBSAN's and KASAN's frames
TITLE = re.compile(r'^(\[[ 0-9.]+\] )?' + REPORT.pattern)
REPORT_LINES = 80       # a report without an end-trace line ends here


class Block:
    """One KTAP (sub)document: the results at one indentation."""

    def __init__(self, depth, start):
        self.depth = depth
        self.name = None
        self.plan = None
        self.results = 0
        self.mark = start      # first log line since this block's last result
        self.leaf_failures = 0


class Summary:
    def __init__(self, lines):
        self.lines = lines
        self.passed = self.failed = self.skipped = 0
        self.failures = []     # (title, excerpt lines)
        self.stack = []

    def fail(self, title, first, last):
        self.failed += 1
        self.failures.append((title, self.lines[max(first, last - EXCERPT_LINES):last]))

    def path(self, leaf):
        names = [b.name for b in self.stack if b.name]
        return '.'.join(names + [leaf or '?'])

    def close(self, block, i, why):
        """A block ends: at its parent's result line, or cut short."""
        if block.plan is None and block.depth <= 1 and why != 'parent':
            self.fail(f'{block.name or "KTAP document"}: no plan line (1..N)', block.mark, i)
        elif block.plan is not None and block.results != block.plan:
            self.fail(f'{block.name or "KTAP document"}: plan 1..{block.plan} '
                      f'but {block.results} results ({why})', block.mark, i)

    def pop_deeper(self, depth, i, why):
        child = None
        while self.stack and self.stack[-1].depth > depth:
            child = self.stack.pop()
            self.close(child, i, why if child.depth > depth + 1 else 'parent')
        return child

    def result(self, depth, m, i):
        child = self.pop_deeper(depth, i, 'cut short')
        if not self.stack or self.stack[-1].depth != depth:
            self.stack.append(Block(depth, i))
        block = self.stack[-1]
        block.results += 1
        ok, _, desc, directive, reason = m.groups()
        title = self.path(desc)
        if child is None or child.results == 0:
            if directive == 'SKIP':
                self.skipped += 1
            elif ok == 'ok':
                self.passed += 1
            else:
                self.fail(title, block.mark, i + 1)
                block.leaf_failures += 1
        elif ok == 'not ok' and child.leaf_failures == 0:
            # The parent failed though every case passed: a suite init, say.
            self.fail(title, block.mark, i + 1)
        if child is not None:
            block.leaf_failures += child.leaf_failures
        block.mark = i + 1

    def parse(self):
        for i, line in enumerate(self.lines):
            line = STAMP.sub('', line)      # printk times (Debian's PRINTK_TIME)
            text = line.lstrip(' ')
            depth = (len(line) - len(text)) // 4
            if VERSION.match(text):
                self.pop_deeper(depth - 1, i, 'cut short')
                self.stack.append(Block(depth, i))
            elif m := SUBTEST.match(text):
                top = self.stack[-1] if self.stack else None
                if top is None or top.depth != depth or top.name or top.results:
                    self.pop_deeper(depth - 1, i, 'cut short')
                    top = Block(depth, i)
                    self.stack.append(top)
                top.name = m.group(1).strip()
            elif m := PLAN.match(text):
                if self.stack and self.stack[-1].depth == depth:
                    self.stack[-1].plan = int(m.group(1))
            elif m := RESULT.match(text):
                self.result(depth, m, i)
        self.pop_deeper(-1, len(self.lines), 'the log ends')

    def expected(self, brackets, i):
        """Does an open bracket expect the report whose title is line i?

        The series' own reports are WARNs: by default a bracket excuses a
        WARNING whose message is one of them, never an oops or a BUG that a
        "kmap_atomic: fault at ..." description happens to precede.
        """
        text = [STAMP.sub('', l) for l in self.lines[max(0, i - MESSAGE_LINES):i + 1]]
        warning = 'WARNING:' in self.lines[i]
        return any(re.search(rx, l) for rx in brackets.values() for l in text
                   if rx != OWN_REPORTS or warning)

    def reports(self):
        """Kernel reports that no open bracket expects."""
        brackets = {}          # what -> the regular expression it expects
        inside = None          # the line where the report being read began
        for i, line in enumerate(self.lines):
            if m := EXPECT.search(line):
                what = m.group(2).strip()
                if m.group(1) == 'BEGIN':
                    brackets[what] = m.group(3) or OWN_REPORTS
                else:
                    brackets.pop(what, None)
                continue
            if inside is not None and (END_TRACE.search(line) or RULE.match(line)
                                       or i - inside > REPORT_LINES):
                inside = None
            # One report is one failure, however many of its lines match;
            # a title line starts the next one even where no end was seen
            # (a might_sleep() report has no end-of-trace line).
            if REPORT.search(line) and (inside is None or TITLE.match(line)):
                inside = i
                if not self.expected(brackets, i):
                    where = f' (inside the bracket of {", ".join(brackets)})' if brackets else ''
                    self.fail(f'console: unexpected kernel report{where}: {line.strip()}',
                              i - 5, i + 25)

    def harness_exit(self):
        codes = [int(m.group(1)) for line in self.lines if (m := EXIT.match(line.strip()))]
        if not codes:
            self.fail('harness: the boot never reached its exit line (a timeout, panic or hang)',
                      len(self.lines) - EXCERPT_LINES, len(self.lines))
        elif codes[-1] != 0 and not self.failures:
            self.fail(f'harness: the guest exited with status {codes[-1]}',
                      len(self.lines) - EXCERPT_LINES, len(self.lines))


def read(path, what):
    try:
        with open(path, errors='replace') as f:
            return [line.rstrip('\r\n').replace('\r', '') for line in f]
    except OSError as e:
        print(f'ktap-summary: cannot read the {what} {path}: {e.strerror}')
        return None


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: ktap-summary.py BOOT_LOG [BOOT_LOG ...] [HOST_KTAP ...]')
    boots = [p for p in sys.argv[1:] if p.endswith('.log')]
    summaries = []
    for p in sys.argv[1:]:
        boot = p in boots
        lines = read(p, 'boot log' if boot else 'KTAP file')
        # An unreadable file is one failure; the others still count.
        s = Summary(lines or [])
        if lines is None:
            s.fail(f'{p} could not be read', 0, 0)
            summaries.append(s)
            continue
        s.parse()
        if boot:
            # Kernel reports and the exit status belong to the boot.
            s.reports()
            s.harness_exit()
        if s.passed + s.failed == 0:
            s.fail(f'no test ran: {p} has no KTAP results', 0, 0)
        if len(boots) > 1:
            # Say which boot each failure is from.
            name = os.path.basename(os.path.realpath(p))
            s.failures = [(f'{name}: {t}', e) for t, e in s.failures]
        summaries.append(s)
    for s in summaries:
        for title, excerpt in s.failures:
            print(f'FAIL {title}')
            for line in excerpt:
                print(f'  | {line}')
    passed = sum(s.passed for s in summaries)
    failed = sum(s.failed for s in summaries)
    skipped = sum(s.skipped for s in summaries)
    for path in boots:
        print(f'log: {os.path.relpath(os.path.realpath(path))}')
    tail = f', {skipped} skipped' if skipped else ''
    print(f'{passed} passed, {failed} failed{tail}')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
