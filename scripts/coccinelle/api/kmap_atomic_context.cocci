// SPDX-License-Identifier: GPL-2.0
/// A typed atomic kmap names a per-CPU slot, and each slot belongs to one
/// context (Documentation/mm/kmap-atomic.rst, "The context rules"): two
/// users of one slot on one CPU at once overwrite each other's mapping.
/// Finds typed maps whose slot the function's context forbids:
///
///  context-hardirq  KM_USER*, KM_PTE*, KM_SOFTIRQ*, KM_SKB_*, KM_SYNC_*,
///                   KM_UML_USERCOPY, KM_NMI, KM_NMI_PTE, KM_KDB in a hard-irq
///                   handler (request_irq(), request_threaded_irq()'s first
///                   handler, devm_request_irq(), init_irq_work(), an
///                   hrtimer's .function unless the timer is set up with a
///                   HRTIMER_MODE_*_SOFT mode);
///  context-softirq  KM_USER*, KM_PTE*, KM_SYNC_*, KM_UML_USERCOPY,
///                   KM_NMI, KM_NMI_PTE, KM_KDB in a softirq handler (tasklet_init(),
///                   tasklet_setup(), DECLARE_TASKLET(), timer_setup(),
///                   DEFINE_TIMER(), netif_napi_add()'s poll, a *_SOFT
///                   hrtimer's .function);
///  context-process  KM_NMI, KM_NMI_PTE, KM_KDB in process context (a work
///                   item, a kthread, a threaded irq's thread function, or
///                   a function that sleeps), and KM_SOFTIRQ*, KM_SKB_* in
///                   process context (a work item,
///                   a kthread, a threaded irq's thread function, or a
///                   function that sleeps) with bottom halves and
///                   interrupts on, from the top of the function or after
///                   a call that turns bottom halves back on;
///  context-nmi      any slot but KM_NMI, KM_NMI_PTE and KM_KDB in an NMI
///                   handler (register_nmi_handler(), request_nmi()): an NMI
///                   interrupts whoever holds the others;
///  irqs-on          KM_IRQ*, KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ, KM_BOUNCE_READ,
///                   KM_IRQ_PTE outside a hard-irq or NMI handler, on a path from the top of
///                   the function that does not disable interrupts first,
///                   or on a path from a call that turns them back on
///                   (spin_unlock_irqrestore(), local_irq_enable(), ...).
///
/// The calls that disable and enable interrupts or bottom halves, and those
/// that sleep, are listed once, in kmap_atomic_lists.py beside this file.
/// Contexts are found in the file being checked. A function whose context
/// is not known (a helper called from elsewhere) gets no context-* finding;
/// irqs-on spares a function that asserts interrupts off
/// (lockdep_assert_irqs_disabled(), WARN_ON*()/BUG_ON(!irqs_disabled())),
/// one its own file calls with interrupts off and one a hard-irq handler of
/// its file calls (by file and name: a static function of the same name in
/// another file is another function). IPI functions (on_each_cpu(),
/// smp_call_function*(), INIT_CSD()) and IRQ_WORK_INIT*() count as
/// hard-irq handlers too.
//
// Keywords: kmap_atomic, km_type, KM_USER0, KM_IRQ0, KM_SOFTIRQ0
// Confidence: High
// Comments: the typed API of this series (include/linux/highmem-typed.h)
// Options: --no-includes --include-headers

virtual report
virtual org

@initialize:python@
@@
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(cocci.cocci_file)))
from kmap_atomic_lists import (BH_OFF, BH_ON, IRQS_ENABLE, IRQS_OFF,
                               IRQS_RESTORE, sleeping_gfp, sleeps)

PROCESS_SLOTS = ("KM_USER0", "KM_USER1", "KM_PTE0", "KM_PTE1", "KM_SYNC_ICACHE",
                 "KM_SYNC_DCACHE", "KM_UML_USERCOPY")
NMI_SLOTS = ("KM_NMI", "KM_NMI_PTE", "KM_KDB")
SOFTIRQ_SLOTS = ("KM_SOFTIRQ0", "KM_SOFTIRQ1", "KM_SKB_SUNRPC_DATA",
                 "KM_SKB_DATA_SOFTIRQ")
mode = {"org": False}
# (file, function) -> how it was registered, per kind of context
hardirq = {}
softirq = {}
nmi = {}
process = {}
# (file, function) called with interrupts off, or that says they are
irqs_off_by_caller = set()
# (file, "&timer") of the hrtimers set up with a *_SOFT mode
soft_hrtimers = set()
reported = set()
bh_calls_at = {}  # (file, function) -> [(line, column, +1 off / -1 on)]


def fn_key(p):
    return (p[0].file, p[0].current_element)


def timer_key(p, e):
    return (p[0].file, re.sub(r"[\s()]", "", e))


def register(table, p, fn, how):
    table.setdefault((p[0].file, fn), how)


def emit(p, tag, msg):
    key = (p[0].file, p[0].line, tag)
    if key in reported:
        return
    reported.add(key)
    if mode["org"]:
        cocci.print_main("%s [%s]" % (msg, tag), p)
    else:
        print("%s:%s: %s [%s]" % (p[0].file, p[0].line, msg, tag))

@script:python depends on org@
@@
mode["org"] = True

// Where each function runs, from how the file registers it.

@hardirq_reg@
identifier h, reg = {request_irq, request_threaded_irq, init_irq_work};
expression E;
position p;
@@
reg@p(E, h, ...)

@script:python@
h << hardirq_reg.h;
reg << hardirq_reg.reg;
p << hardirq_reg.p;
@@
register(hardirq, p, h, reg + "()")

@hardirq_devm_reg@
identifier h, reg = {devm_request_irq, devm_request_threaded_irq};
expression D, E;
position p;
@@
reg@p(D, E, h, ...)

@script:python@
h << hardirq_devm_reg.h;
reg << hardirq_devm_reg.reg;
p << hardirq_devm_reg.p;
@@
register(hardirq, p, h, reg + "()")

@nmi_reg@
identifier h, reg = {register_nmi_handler, request_nmi};
expression E;
position p;
@@
reg@p(E, h, ...)

@script:python@
h << nmi_reg.h;
reg << nmi_reg.reg;
p << nmi_reg.p;
@@
register(nmi, p, h, reg + "()")

// An hrtimer's function runs in hard-irq context, or in a softirq if the
// timer was set up with a *_SOFT mode.
@hrtimer_init@
expression E, C, M;
position p;
@@
\(hrtimer_init@p(E, C, M)\|hrtimer_init_on_stack@p(E, C, M)\)

@script:python@
E << hrtimer_init.E;
M << hrtimer_init.M;
p << hrtimer_init.p;
@@
if re.search(r"_SOFT\b", M):
    soft_hrtimers.add(timer_key(p, E))

@hrtimer_reg@
identifier h;
struct hrtimer T;
position p;
@@
T.function =@p h

@script:python@
h << hrtimer_reg.h;
T << hrtimer_reg.T;
p << hrtimer_reg.p;
@@
if timer_key(p, "&" + T) in soft_hrtimers:
    register(softirq, p, h, "a HRTIMER_MODE_*_SOFT hrtimer's .function")
else:
    register(hardirq, p, h, "an hrtimer's .function")

@hrtimer_ptr_reg@
identifier h;
struct hrtimer *TP;
position p;
@@
TP->function =@p h

@script:python@
h << hrtimer_ptr_reg.h;
TP << hrtimer_ptr_reg.TP;
p << hrtimer_ptr_reg.p;
@@
if timer_key(p, TP) in soft_hrtimers:
    register(softirq, p, h, "a HRTIMER_MODE_*_SOFT hrtimer's .function")
else:
    register(hardirq, p, h, "an hrtimer's .function")

// IPIs and irq_work initialisers run their function in hard-irq context too.
@hardirq_ipi_reg@
identifier h, reg = {on_each_cpu, smp_call_function, IRQ_WORK_INIT,
                     IRQ_WORK_INIT_HARD, IRQ_WORK_INIT_LAZY};
position p;
@@
reg@p(h, ...)

@script:python@
h << hardirq_ipi_reg.h;
reg << hardirq_ipi_reg.reg;
p << hardirq_ipi_reg.p;
@@
register(hardirq, p, h, reg + "()")

@hardirq_ipi_cpu_reg@
identifier h, reg = {smp_call_function_single, smp_call_function_many,
                     on_each_cpu_mask, INIT_CSD};
expression E;
position p;
@@
reg@p(E, h, ...)

@script:python@
h << hardirq_ipi_cpu_reg.h;
reg << hardirq_ipi_cpu_reg.reg;
p << hardirq_ipi_cpu_reg.p;
@@
register(hardirq, p, h, reg + "()")

@softirq_reg@
identifier h, reg = {tasklet_init, tasklet_setup, timer_setup,
                     timer_setup_on_stack};
expression E;
position p;
@@
reg@p(E, h, ...)

@script:python@
h << softirq_reg.h;
reg << softirq_reg.reg;
p << softirq_reg.p;
@@
register(softirq, p, h, reg + "()")

// A NAPI poll function runs in the NET_RX softirq.
@softirq_napi_reg@
identifier h, reg = {netif_napi_add, netif_napi_add_weight, netif_napi_add_tx,
                     netif_napi_add_tx_weight, netif_tx_napi_add};
expression D, N;
position p;
@@
reg@p(D, N, h, ...)

@script:python@
h << softirq_napi_reg.h;
reg << softirq_napi_reg.reg;
p << softirq_napi_reg.p;
@@
register(softirq, p, h, reg + "()")

// Tasklets and timers defined at file scope.
@softirq_decl_reg@
declarer reg = {DECLARE_TASKLET, DECLARE_TASKLET_OLD, DECLARE_TASKLET_DISABLED,
                DEFINE_TIMER};
identifier name, h;
position p;
@@
reg@p(name, h, ...);

@script:python@
h << softirq_decl_reg.h;
reg << softirq_decl_reg.reg;
p << softirq_decl_reg.p;
@@
register(softirq, p, h, reg + "()")

@process_reg@
identifier h, reg = {INIT_WORK, INIT_DELAYED_WORK, INIT_WORK_ONSTACK,
                     kthread_run, kthread_create};
expression E;
position p;
@@
(
reg@p(E, h)
|
reg@p(h, ...)
)

@script:python@
h << process_reg.h;
reg << process_reg.reg;
p << process_reg.p;
@@
register(process, p, h, "registered by " + reg + "()")

@process_thread_reg@
identifier h;
expression D, E1, E2;
position p;
@@
(
request_threaded_irq@p(E1, E2, h, ...)
|
devm_request_threaded_irq@p(D, E1, E2, h, ...)
)

@script:python@
h << process_thread_reg.h;
p << process_thread_reg.p;
@@
register(process, p, h, "a threaded irq's thread function")

// A function that sleeps runs in process context.
@sleeps_rule@
identifier f;
identifier sleeper : script:python() { sleeps(sleeper) };
identifier alloc;
expression G : script:python() { sleeping_gfp(G) };
position p;
@@
f(...) {
<+...
(
sleeper@p(...)
|
alloc@p(..., G, ...)
)
...+>
}

@script:python@
f << sleeps_rule.f;
p << sleeps_rule.p;
@@
register(process, p, f, "it sleeps")

// Functions that say interrupts are off when they are called, and the
// helpers a hard-irq handler of this file calls. irqs_disabled() alone
// (if (irqs_disabled()) ...) says nothing about the path that maps.
@asserts_irqs_off@
identifier w = {WARN_ON, WARN_ON_ONCE, BUG_ON, VM_BUG_ON, VM_WARN_ON,
                VM_WARN_ON_ONCE};
position p;
@@
(
lockdep_assert_irqs_disabled@p()
|
w@p(!irqs_disabled())
)

@script:python@
p << asserts_irqs_off.p;
@@
irqs_off_by_caller.add(fn_key(p))

@calls@
identifier g;
position p;
@@
g@p(...)

@script:python@
g << calls.g;
p << calls.p;
@@
if fn_key(p) in hardirq:
    irqs_off_by_caller.add((p[0].file, g))

// Functions this file calls with interrupts disabled.
@called_irqs_off exists@
identifier irq_off : script:python() { irq_off in IRQS_OFF };
identifier irq_on : script:python() { irq_on in IRQS_RESTORE or irq_on in IRQS_ENABLE };
identifier g;
position p;
@@
irq_off(...)
... when != irq_on(...)
g@p(...)

@script:python@
g << called_irqs_off.g;
p << called_irqs_off.p;
@@
irqs_off_by_caller.add((p[0].file, g))

// Typed maps whose slot the context forbids.

@typed_map@
expression P, Pr;
identifier T =~ "^KM_";
position p;
@@
(
kmap_atomic@p(P, T)
|
kmap_atomic_pfn@p(P, T)
|
kmap_atomic_prot@p(P, T, Pr)
)

@script:python@
T << typed_map.T;
p << typed_map.p;
@@
fn = p[0].current_element
key = fn_key(p)
if key in nmi:
    if T not in NMI_SLOTS:
        emit(p, "context-nmi",
             "%s in %s(), an NMI handler (%s): only KM_NMI, KM_NMI_PTE and KM_KDB are for NMIs, which interrupt whoever holds the others (KM_IRQ* included); use KM_NMI"
             % (T, fn, nmi[key]))
elif key in hardirq and (T in PROCESS_SLOTS or T in SOFTIRQ_SLOTS or T in NMI_SLOTS):
    if T in PROCESS_SLOTS:
        why = "KM_USER*/KM_PTE*/KM_SYNC_*/KM_UML_USERCOPY are for process context only"
    elif T in NMI_SLOTS:
        why = "KM_NMI/KM_NMI_PTE/KM_KDB are for NMIs (and the debugger), which may interrupt this handler"
    else:
        why = "KM_SOFTIRQ*/KM_SKB_* are for softirqs and bottom-halves-off code, not hard interrupts"
    emit(p, "context-hardirq",
         "%s in %s(), a hard-irq handler (%s): %s; use KM_IRQ0/KM_IRQ1"
         % (T, fn, hardirq[key], why))
elif key in process and key not in hardirq and key not in softirq and T in NMI_SLOTS:
    emit(p, "context-process",
         "%s in %s(), process context (%s): KM_NMI/KM_NMI_PTE are for NMI handlers and KM_KDB for the debugger; use KM_USER0/KM_USER1"
         % (T, fn, process[key]))
elif key in softirq and key not in hardirq and (T in PROCESS_SLOTS or T in NMI_SLOTS):
    emit(p, "context-softirq",
         "%s in %s(), a softirq handler (%s): KM_USER*/KM_PTE*/KM_SYNC_*/KM_UML_USERCOPY are for process context, KM_NMI*/KM_KDB for NMIs; use KM_SOFTIRQ0/KM_SOFTIRQ1"
         % (T, fn, softirq[key]))

// KM_SOFTIRQ*/KM_SKB_* reached from the top of a process-context function
// with neither bottom halves nor interrupts disabled.

@bh_on exists@
identifier bh_off : script:python() { bh_off in BH_OFF };
identifier irq_off : script:python() { irq_off in IRQS_OFF };
identifier f;
expression P, Pr;
identifier T = {KM_SOFTIRQ0, KM_SOFTIRQ1, KM_SKB_SUNRPC_DATA,
                KM_SKB_DATA_SOFTIRQ};
position p;
@@
f(...) {
... when != bh_off(...)
    when != irq_off(...)
\(kmap_atomic@p(P, T)\|kmap_atomic_pfn@p(P, T)\|kmap_atomic_prot@p(P, T, Pr)\)
... when any
}

@script:python@
T << bh_on.T;
p << bh_on.p;
@@
key = fn_key(p)
if key in process and key not in hardirq and key not in softirq:
    emit(p, "context-process",
         "%s in %s(), process context (%s), with bottom halves on: KM_SOFTIRQ*/KM_SKB_* need a softirq or local_bh_disable(); use KM_USER0/KM_USER1"
         % (T, p[0].current_element, process[key]))

@bh_on_decl exists@
identifier bh_off : script:python() { bh_off in BH_OFF };
identifier irq_off : script:python() { irq_off in IRQS_OFF };
identifier f, x;
type TX;
expression P, Pr;
identifier T = {KM_SOFTIRQ0, KM_SOFTIRQ1, KM_SKB_SUNRPC_DATA,
                KM_SKB_DATA_SOFTIRQ};
position p;
@@
f(...) {
... when != bh_off(...)
    when != irq_off(...)
TX x = \(kmap_atomic@p(P, T)\|kmap_atomic_pfn@p(P, T)\|kmap_atomic_prot@p(P, T, Pr)\);
... when any
}

@script:python@
T << bh_on_decl.T;
p << bh_on_decl.p;
@@
key = fn_key(p)
if key in process and key not in hardirq and key not in softirq:
    emit(p, "context-process",
         "%s in %s(), process context (%s), with bottom halves on: KM_SOFTIRQ*/KM_SKB_* need a softirq or local_bh_disable(); use KM_USER0/KM_USER1"
         % (T, p[0].current_element, process[key]))

// The same after a call that turns bottom halves back on (local_bh_enable(),
// spin_unlock_bh(), ...) with none that turns them or interrupts off again.

// Every call that turns bottom halves off or back on, per function: an
// enabler that closes an inner section while an outer one is still open
// (counted in source order) leaves them off.
@bh_call@
identifier callee;
position rp : script:python(callee) { callee in BH_OFF or callee in BH_ON };
@@
callee@rp(...)

@script:python@
callee << bh_call.callee;
rp << bh_call.rp;
@@
bh_calls_at.setdefault((rp[0].file, rp[0].current_element), []).append(
    (int(rp[0].line), int(rp[0].column), 1 if callee in BH_OFF else -1))

@bh_back_on exists@
identifier bh_off : script:python() { bh_off in BH_OFF };
identifier irq_off : script:python() { irq_off in IRQS_OFF };
identifier enabler;
position q : script:python(enabler) { enabler in BH_ON };
expression P, Pr;
identifier T = {KM_SOFTIRQ0, KM_SOFTIRQ1, KM_SKB_SUNRPC_DATA,
                KM_SKB_DATA_SOFTIRQ};
position p;
@@
enabler@q(...)
... when != bh_off(...)
    when != irq_off(...)
\(kmap_atomic@p(P, T)\|kmap_atomic_pfn@p(P, T)\|kmap_atomic_prot@p(P, T, Pr)\)

@script:python@
enabler << bh_back_on.enabler;
T << bh_back_on.T;
p << bh_back_on.p;
q << bh_back_on.q;
@@
key = fn_key(p)
at = (int(q[0].line), int(q[0].column))
# Sections still open after the enabler, in source order (straight-line code).
calls = bh_calls_at.get((q[0].file, q[0].current_element), ())
nested = sum(d for l, c, d in calls if (l, c) <= at) > 0
if (not nested and key in process and key not in hardirq and key not in softirq
        and key not in nmi):
    emit(p, "context-process",
         "%s in %s(), process context (%s), after %s() at line %s turned bottom halves back on: KM_SOFTIRQ*/KM_SKB_* need them off until the unmap; use KM_USER0/KM_USER1"
         % (T, p[0].current_element, process[key], enabler, q[0].line))

// KM_IRQ*, KM_BIO_*_IRQ, KM_BOUNCE_READ reached from the top of a function
// with interrupts on.

@irqs_on exists@
identifier irq_off : script:python() { irq_off in IRQS_OFF };
identifier f;
expression P, Pr;
identifier T = {KM_IRQ0, KM_IRQ1, KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ,
                KM_BOUNCE_READ, KM_IRQ_PTE};
position p;
@@
f(...) {
... when != irq_off(...)
\(kmap_atomic@p(P, T)\|kmap_atomic_pfn@p(P, T)\|kmap_atomic_prot@p(P, T, Pr)\)
... when any
}

@script:python@
T << irqs_on.T;
p << irqs_on.p;
@@
key = fn_key(p)
fn = p[0].current_element
if key not in hardirq and key not in nmi and key not in irqs_off_by_caller:
    emit(p, "irqs-on",
         "%s in %s() with interrupts on: KM_IRQ*/KM_BIO_*_IRQ/KM_BOUNCE_READ/KM_IRQ_PTE need local_irq_save() or spin_lock_irqsave() before the map (or a hard-irq handler)"
         % (T, fn))

@irqs_on_decl exists@
identifier irq_off : script:python() { irq_off in IRQS_OFF };
identifier f, x;
type TX;
expression P, Pr;
identifier T = {KM_IRQ0, KM_IRQ1, KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ,
                KM_BOUNCE_READ, KM_IRQ_PTE};
position p;
@@
f(...) {
... when != irq_off(...)
TX x = \(kmap_atomic@p(P, T)\|kmap_atomic_pfn@p(P, T)\|kmap_atomic_prot@p(P, T, Pr)\);
... when any
}

@script:python@
T << irqs_on_decl.T;
p << irqs_on_decl.p;
@@
key = fn_key(p)
fn = p[0].current_element
if key not in hardirq and key not in nmi and key not in irqs_off_by_caller:
    emit(p, "irqs-on",
         "%s in %s() with interrupts on: KM_IRQ*/KM_BIO_*_IRQ/KM_BOUNCE_READ/KM_IRQ_PTE need local_irq_save() or spin_lock_irqsave() before the map (or a hard-irq handler)"
         % (T, fn))

// The same slots after a call that turns interrupts back on, with no call
// that disables them again before the map. After a restore, a function its
// callers call with interrupts off (or a hard-irq handler) still has them off.

@irqs_back_on exists@
identifier irq_off : script:python() { irq_off in IRQS_OFF };
identifier enabler;
position q : script:python(enabler) { enabler in IRQS_RESTORE or enabler in IRQS_ENABLE };
expression P, Pr;
identifier T = {KM_IRQ0, KM_IRQ1, KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ,
                KM_BOUNCE_READ, KM_IRQ_PTE};
position p;
@@
enabler@q(...)
... when != irq_off(...)
\(kmap_atomic@p(P, T)\|kmap_atomic_pfn@p(P, T)\|kmap_atomic_prot@p(P, T, Pr)\)

@script:python@
enabler << irqs_back_on.enabler;
T << irqs_back_on.T;
p << irqs_back_on.p;
q << irqs_back_on.q;
@@
key = fn_key(p)
fn = p[0].current_element
off_anyway = key in hardirq or key in nmi or key in irqs_off_by_caller
if not (off_anyway and enabler in IRQS_RESTORE):
    emit(p, "irqs-on",
         "%s in %s() after %s() at line %s turned interrupts back on: KM_IRQ*/KM_BIO_*_IRQ/KM_BOUNCE_READ/KM_IRQ_PTE need interrupts off until the unmap"
         % (T, fn, enabler, q[0].line))
