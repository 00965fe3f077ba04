// SPDX-License-Identifier: GPL-2.0
/// A typed kmap_atomic() disables preemption and page faults until its
/// kunmap_atomic(): nothing between them may sleep. Finds, between a map
/// and the unmap of its slot (tag "sleep"), a call that sleeps or may:
/// msleep(), ssleep(), usleep_range(), schedule*(), cond_resched(),
/// might_sleep(), mutex_lock*(), down*(), wait_event*(),
/// wait_for_completion*(), vmalloc(), vzalloc(), vfree(), any call given
/// GFP_KERNEL, GFP_USER, GFP_NOFS, GFP_NOIO, GFP_HIGHUSER or
/// GFP_KERNEL_ACCOUNT (kmalloc(), kzalloc(), alloc_page(), ...), and
/// copy_to_user(), copy_from_user(), clear_user() (with page faults off
/// they fail rather than fault the page in: use the _inatomic forms and
/// handle a short copy, or map with kmap_local_page()).
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
identifier fn = {msleep, msleep_interruptible, ssleep, usleep_range,
                 schedule, schedule_timeout, schedule_timeout_interruptible,
                 schedule_timeout_uninterruptible, schedule_timeout_killable,
                 io_schedule, cond_resched, might_sleep,
                 mutex_lock, mutex_lock_interruptible, mutex_lock_killable,
                 mutex_lock_nested, down, down_interruptible, down_killable,
                 down_timeout, down_read, down_write,
                 wait_event, wait_event_interruptible, wait_event_timeout,
                 wait_event_interruptible_timeout, wait_event_killable,
                 wait_event_freezable, wait_for_completion,
                 wait_for_completion_interruptible,
                 wait_for_completion_timeout, wait_for_completion_killable,
                 vmalloc, vzalloc, vmalloc_user, vfree,
                 copy_to_user, copy_from_user, clear_user};
position p1, p2;
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
identifier fn = {msleep, msleep_interruptible, ssleep, usleep_range,
                 schedule, schedule_timeout, schedule_timeout_interruptible,
                 schedule_timeout_uninterruptible, schedule_timeout_killable,
                 io_schedule, cond_resched, might_sleep,
                 mutex_lock, mutex_lock_interruptible, mutex_lock_killable,
                 mutex_lock_nested, down, down_interruptible, down_killable,
                 down_timeout, down_read, down_write,
                 wait_event, wait_event_interruptible, wait_event_timeout,
                 wait_event_interruptible_timeout, wait_event_killable,
                 wait_event_freezable, wait_for_completion,
                 wait_for_completion_interruptible,
                 wait_for_completion_timeout, wait_for_completion_killable,
                 vmalloc, vzalloc, vmalloc_user, vfree,
                 copy_to_user, copy_from_user, clear_user};
position p1, p2;
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
identifier gfp = {GFP_KERNEL, GFP_USER, GFP_NOFS, GFP_NOIO, GFP_HIGHUSER,
                  GFP_HIGHUSER_MOVABLE, GFP_KERNEL_ACCOUNT};
position p1, p2;
@@
\(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\)
... when != kunmap_atomic(..., T)
alloc@p2(..., gfp, ...)

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
identifier gfp = {GFP_KERNEL, GFP_USER, GFP_NOFS, GFP_NOIO, GFP_HIGHUSER,
                  GFP_HIGHUSER_MOVABLE, GFP_KERNEL_ACCOUNT};
position p1, p2;
@@
TX x = \(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\);
... when != kunmap_atomic(..., T)
alloc@p2(..., gfp, ...)

@script:python@
T << sleep_gfp_decl.T;
alloc << sleep_gfp_decl.alloc;
p1 << sleep_gfp_decl.p1;
p2 << sleep_gfp_decl.p2;
@@
sleeps(p1, p2, alloc, T)
