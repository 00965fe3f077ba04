// SPDX-License-Identifier: GPL-2.0
/// Convert typed atomic kmaps to kmap_local_page(): in patch mode,
///
///   x = kmap_atomic(page, T); ... kunmap_atomic(x, T);
///
/// becomes x = kmap_local_page(page); ... kunmap_local(x);
/// (kmap_atomic_prot(page, T, prot) becomes kmap_local_page_prot(page,
/// prot), kmap_atomic_pfn(pfn, T) kmap_local_pfn(pfn)), in each function
/// whose typed pairs nest: kmap_local's mappings are a stack, so they must
/// be unmapped in the reverse order of mapping. In report and org mode it
/// says where they do not (tag "nesting": map A, map B, unmap A, unmap B),
/// which 2.6 allowed and the typed slots still allow; such a function is
/// left as it is. A map without a kunmap_atomic(x, T) on every path in the
/// same function (one that hands its mapping to its caller, say) is left
/// as it is too. So is every typed map of a function that also maps or
/// unmaps without a type (kmap_local_page(), kmap_local_page_prot(),
/// kmap_local_pfn(), kunmap_local(), one-argument kmap_atomic(),
/// kmap_atomic_pfn() and kunmap_atomic(), two-argument kmap_atomic_prot()):
/// those are on the same kmap_local stack, and converting the typed maps
/// around them could unmap out of order; the report says so (tag
/// "nesting").
///
/// kmap_local_page() neither disables preemption nor page faults: check
/// that the code between map and unmap does not rely on either (per-CPU
/// data, __copy_*_user_inatomic()) before taking the patch.
//
// Keywords: kmap_atomic, kmap_local_page, kunmap_local
// Confidence: Moderate
// Comments: run in report mode first; what it lists is not converted
// Options: --no-includes --include-headers

virtual patch
virtual report
virtual org

@initialize:python@
@@
mode = {"report": False, "org": False}
crossed = set()        # (file, function) with pairs that do not nest
untyped = {}           # (file, function) -> an untyped map or unmap in it
reported = set()


def emit(p, tag, msg):
    key = (p[0].file, p[0].line, tag)
    if key in reported:
        return
    reported.add(key)
    if mode["org"]:
        cocci.print_main("%s [%s]" % (msg, tag), p)
    elif mode["report"]:
        print("%s:%s: %s [%s]" % (p[0].file, p[0].line, msg, tag))


def not_nested(pa, pb, ua, ta, tb):
    if ta == tb:
        return
    crossed.add((pa[0].file, pa[0].current_element))
    emit(ua, "nesting",
         "%s (mapped at line %s) is unmapped before %s (mapped after it, at line %s): kmap_local mappings must be unmapped in reverse order; %s() is not converted to kmap_local_page()"
         % (ta, pa[0].line, tb, pb[0].line, ua[0].current_element))


def saw_untyped(p, fn):
    untyped.setdefault((p[0].file, p[0].current_element),
                       (fn, p[0].line))


def typed_in_mixed(p, t):
    key = (p[0].file, p[0].current_element)
    if key not in untyped or key in crossed:
        return
    crossed.add(key)
    fn, line = untyped[key]
    emit(p, "nesting",
         "%s (mapped here) shares %s() with %s() at line %s, on the kmap_local stack it would have to nest with: %s() is not converted to kmap_local_page()"
         % (t, p[0].current_element, fn, line, p[0].current_element))


def nests(p):
    return (p[0].file, p[0].current_element) not in crossed

@script:python depends on report@
@@
mode["report"] = True

@script:python depends on org@
@@
mode["org"] = True

// The typed pairs that do not nest: map A, map B, unmap A before B.

@crossed_expr_expr exists@
expression PA, PB, PrA, PrB, TA, TB;
position pa, pb, ua;
@@
\(kmap_atomic@pa(PA, TA)\|kmap_atomic_pfn@pa(PA, TA)\|kmap_atomic_prot@pa(PA, TA, PrA)\)
... when != kunmap_atomic(..., TA)
\(kmap_atomic@pb(PB, TB)\|kmap_atomic_pfn@pb(PB, TB)\|kmap_atomic_prot@pb(PB, TB, PrB)\)
... when != kunmap_atomic(..., TB)
kunmap_atomic@ua(..., TA);

@script:python@
TA << crossed_expr_expr.TA;
TB << crossed_expr_expr.TB;
pa << crossed_expr_expr.pa;
pb << crossed_expr_expr.pb;
ua << crossed_expr_expr.ua;
@@
not_nested(pa, pb, ua, TA, TB)

@crossed_expr_decl exists@
expression PA, PB, PrA, PrB, TA, TB;
identifier xb;
type TXB;
position pa, pb, ua;
@@
\(kmap_atomic@pa(PA, TA)\|kmap_atomic_pfn@pa(PA, TA)\|kmap_atomic_prot@pa(PA, TA, PrA)\)
... when != kunmap_atomic(..., TA)
TXB xb = \(kmap_atomic@pb(PB, TB)\|kmap_atomic_pfn@pb(PB, TB)\|kmap_atomic_prot@pb(PB, TB, PrB)\);
... when != kunmap_atomic(..., TB)
kunmap_atomic@ua(..., TA);

@script:python@
TA << crossed_expr_decl.TA;
TB << crossed_expr_decl.TB;
pa << crossed_expr_decl.pa;
pb << crossed_expr_decl.pb;
ua << crossed_expr_decl.ua;
@@
not_nested(pa, pb, ua, TA, TB)

@crossed_decl_expr exists@
expression PA, PB, PrA, PrB, TA, TB;
identifier xa;
type TXA;
position pa, pb, ua;
@@
TXA xa = \(kmap_atomic@pa(PA, TA)\|kmap_atomic_pfn@pa(PA, TA)\|kmap_atomic_prot@pa(PA, TA, PrA)\);
... when != kunmap_atomic(..., TA)
\(kmap_atomic@pb(PB, TB)\|kmap_atomic_pfn@pb(PB, TB)\|kmap_atomic_prot@pb(PB, TB, PrB)\)
... when != kunmap_atomic(..., TB)
kunmap_atomic@ua(..., TA);

@script:python@
TA << crossed_decl_expr.TA;
TB << crossed_decl_expr.TB;
pa << crossed_decl_expr.pa;
pb << crossed_decl_expr.pb;
ua << crossed_decl_expr.ua;
@@
not_nested(pa, pb, ua, TA, TB)

@crossed_decl_decl exists@
expression PA, PB, PrA, PrB, TA, TB;
identifier xa;
type TXA;
identifier xb;
type TXB;
position pa, pb, ua;
@@
TXA xa = \(kmap_atomic@pa(PA, TA)\|kmap_atomic_pfn@pa(PA, TA)\|kmap_atomic_prot@pa(PA, TA, PrA)\);
... when != kunmap_atomic(..., TA)
TXB xb = \(kmap_atomic@pb(PB, TB)\|kmap_atomic_pfn@pb(PB, TB)\|kmap_atomic_prot@pb(PB, TB, PrB)\);
... when != kunmap_atomic(..., TB)
kunmap_atomic@ua(..., TA);

@script:python@
TA << crossed_decl_decl.TA;
TB << crossed_decl_decl.TB;
pa << crossed_decl_decl.pa;
pb << crossed_decl_decl.pb;
ua << crossed_decl_decl.ua;
@@
not_nested(pa, pb, ua, TA, TB)

// Functions that also map or unmap without a type: kmap_local_*() and the
// untyped kmap_atomic*() forms push and pop the same per-task stack, so
// converting their typed neighbours could break its order. Not converted.

@untyped_one@
identifier fn = {kmap_local_page, kmap_local_pfn, kunmap_local, kmap_atomic,
                 kmap_atomic_pfn, kunmap_atomic};
expression E;
position p;
@@
fn@p(E)

@script:python@
fn << untyped_one.fn;
p << untyped_one.p;
@@
saw_untyped(p, fn)

@untyped_prot@
identifier fn = {kmap_local_page_prot, kmap_atomic_prot};
expression E, Pr;
position p;
@@
fn@p(E, Pr)

@script:python@
fn << untyped_prot.fn;
p << untyped_prot.p;
@@
saw_untyped(p, fn)

@typed_map@
expression P, T, Pr;
position p;
@@
\(kmap_atomic@p(P, T)\|kmap_atomic_pfn@p(P, T)\|kmap_atomic_prot@p(P, T, Pr)\)

@script:python@
T << typed_map.T;
p << typed_map.p;
@@
typed_in_mixed(p, T)

// The pairs of functions where they nest. An assignment pattern matches a
// declaration's initialiser too (Coccinelle's isomorphisms).

@to_local depends on patch@
expression x, P, T;
position p : script:python() { nests(p) };
@@
  x =
- kmap_atomic@p(P, T)
+ kmap_local_page(P)
  ...
- kunmap_atomic(x, T);
+ kunmap_local(x);

@to_local_prot depends on patch@
expression x, P, T, Pr;
position p : script:python() { nests(p) };
@@
  x =
- kmap_atomic_prot@p(P, T, Pr)
+ kmap_local_page_prot(P, Pr)
  ...
- kunmap_atomic(x, T);
+ kunmap_local(x);

@to_local_pfn depends on patch@
expression x, P, T;
position p : script:python() { nests(p) };
@@
  x =
- kmap_atomic_pfn@p(P, T)
+ kmap_local_pfn(P)
  ...
- kunmap_atomic(x, T);
+ kunmap_local(x);
