// SPDX-License-Identifier: GPL-2.0
/// A typed kmap_atomic() disables preemption and page faults until its
/// kunmap_atomic(): nothing between them may sleep. Finds, between a map
/// and the unmap of its slot (tag "sleep"), a call that sleeps or may:
/// msleep(), ssleep(), usleep_range(), schedule*(), cond_resched(),
/// might_sleep(), mutex_lock*(), down*(), wait_event*(),
/// wait_for_completion*(), vmalloc(), vzalloc(), vfree(), any call given
/// a GFP mask that can sleep (GFP_KERNEL, GFP_KERNEL_ACCOUNT, GFP_USER,
/// GFP_NOFS, GFP_NOIO, GFP_HIGHUSER, GFP_HIGHUSER_MOVABLE, alone or in an
/// expression such as GFP_KERNEL | __GFP_NOWARN: kmalloc(), kzalloc(),
/// alloc_page(), ...), and copy_to_user(), copy_from_user(), clear_user()
/// (with page faults off they fail rather than fault the page in: use the
/// _inatomic forms and handle a short copy, or map with kmap_local_page()).
/// The lists are in kmap_atomic_lists.py beside this file, shared with
/// kmap_atomic_context.cocci.
///
/// Only direct calls are seen, not sleeping calls inside functions called
/// between map and unmap.
//
// Keywords: kmap_atomic, might_sleep, GFP_KERNEL
// Confidence: High
// Comments: the typed API of this series (include/linux/highmem-typed.h)
// Options: --no-includes --include-headers

virtual report
virtual org

@initialize:python@
@@
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(cocci.cocci_file)))
from kmap_atomic_lists import sleeping_gfp
from kmap_atomic_lists import sleeps as sleeping_call

mode = {"org": False}
reported = set()


def emit(p, tag, msg):
    key = (p[0].file, p[0].line, tag)
    if key in reported:
        return
    reported.add(key)
    if mode["org"]:
        cocci.print_main("%s [%s]" % (msg, tag), p)
    else:
        print("%s:%s: %s [%s]" % (p[0].file, p[0].line, msg, tag))


def sleeps(p1, p2, fn, t):
    emit(p2, "sleep",
         "%s() may sleep, but %s (mapped at line %s) is held: preemption and page faults are off until kunmap_atomic(); move it out or map with kmap_local_page()"
         % (fn, t, p1[0].line))

@script:python depends on org@
@@
mode["org"] = True

@sleep_call_expr exists@
expression P, Pr, T;
identifier fn;
position p1;
position p2 : script:python(fn) { sleeping_call(fn) };
@@
\(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\)
... when != kunmap_atomic(..., T)
fn@p2(...)

@script:python@
T << sleep_call_expr.T;
fn << sleep_call_expr.fn;
p1 << sleep_call_expr.p1;
p2 << sleep_call_expr.p2;
@@
sleeps(p1, p2, fn, T)

@sleep_call_decl exists@
identifier x;
type TX;
expression P, Pr, T;
identifier fn;
position p1;
position p2 : script:python(fn) { sleeping_call(fn) };
@@
TX x = \(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\);
... when != kunmap_atomic(..., T)
fn@p2(...)

@script:python@
T << sleep_call_decl.T;
fn << sleep_call_decl.fn;
p1 << sleep_call_decl.p1;
p2 << sleep_call_decl.p2;
@@
sleeps(p1, p2, fn, T)

@sleep_gfp_expr exists@
expression P, Pr, T;
identifier alloc;
expression G : script:python() { sleeping_gfp(G) };
position p1, p2;
@@
\(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\)
... when != kunmap_atomic(..., T)
alloc@p2(..., G, ...)

@script:python@
T << sleep_gfp_expr.T;
alloc << sleep_gfp_expr.alloc;
p1 << sleep_gfp_expr.p1;
p2 << sleep_gfp_expr.p2;
@@
sleeps(p1, p2, alloc, T)

@sleep_gfp_decl exists@
identifier x;
type TX;
expression P, Pr, T;
identifier alloc;
expression G : script:python() { sleeping_gfp(G) };
position p1, p2;
@@
TX x = \(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\);
... when != kunmap_atomic(..., T)
alloc@p2(..., G, ...)

@script:python@
T << sleep_gfp_decl.T;
alloc << sleep_gfp_decl.alloc;
p1 << sleep_gfp_decl.p1;
p2 << sleep_gfp_decl.p2;
@@
sleeps(p1, p2, alloc, T)
