// SPDX-License-Identifier: GPL-2.0
/// Each typed kmap_atomic() must be undone, in the same function, by one
/// kunmap_atomic() of the address it returned with the type it was mapped
/// with, before its slot is mapped again. Finds:
///
///  unmap-type     kunmap_atomic(addr, T2) of what kmap_atomic(.., T1)
///                 returned, T1 != T2: the unmap leaves the slot held and
///                 is refused ("nothing changes");
///  unmap-missing  a return between the map and its unmap: the slot stays
///                 held, preemption and page faults stay off;
///  unmap-page     the page (or pfn) passed to kunmap_atomic() instead of
///                 the address kmap_atomic() returned;
///  slot-reuse     a second map of a KM_* slot while the first map of it is
///                 still held (no kunmap_atomic(.., T) of that slot between
///                 them): the second overwrites the first's pte;
///  map-discarded  kmap_atomic() as a statement, or cast to void: the
///                 address that the unmap needs is lost, the slot is held;
///                 except for a page that is lowmem by construction
///                 (ZERO_PAGE(), virt_to_page(), a page the function
///                 allocated without __GFP_HIGHMEM), which takes no slot:
///                 2.6 code mapped one on purpose to raise the counts that
///                 a later unmap of a lowmem pointer gives back (2.6.32's
///                 shmem_swp_balance_unmap()). kmap_atomic_pfn() always
///                 takes its slot.
///
/// A path where the map returned NULL (an NMI's, with every spare in use)
/// maps nothing. A function that returns the address it mapped (x, x + E,
/// (T)x, (T)(x + E)) hands the mapping to its caller and is left alone;
/// returning anything else computed from it (p[0], f(p)) still leaks the
/// slot. A map whose slot is unmapped by any kunmap_atomic() of that type
/// on the path (an alias of the address) is left alone too.
//
// Keywords: kmap_atomic, kunmap_atomic, km_type
// Confidence: High
// Comments: the typed API of this series (include/linux/highmem-typed.h)
// Options: --no-includes --include-headers

virtual report
virtual org

@initialize:python@
@@
import re

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


def mismatch(p1, p2, x, t1, t2):
    if t1 != t2 and t1.startswith("KM_") and t2.startswith("KM_"):
        emit(p2, "unmap-type",
             "kunmap_atomic(%s, %s) of the mapping kmap_atomic() made in %s at line %s: unmap with the type it was mapped with"
             % (x, t2, t1, p1[0].line))


def missing(p1, p2, t):
    emit(p2, "unmap-missing",
         "return with %s (mapped at line %s) still mapped: kunmap_atomic() it on this path too"
         % (t, p1[0].line))


def reuse(p1, p2, t):
    where = ("on the loop's next pass" if p1[0].line == p2[0].line
             else "while line %s's mapping of it is held" % p1[0].line)
    emit(p2, "slot-reuse",
         "%s mapped again %s: the second map overwrites the first's pte; kunmap_atomic(.., %s) the first mapping before this one, or use the other slot of the pair"
         % (t, where, t))


# (file, function, variable) of pages allocated there with only constant
# GFP_* flags that have no highmem in them: lowmem by construction.
lowmem_vars = set()


def lowmem_gfp(g):
    names = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", g)
    return (names and all(re.match(r"^_*GFP_", n) for n in names)
            and not re.search(r"HIGHMEM|HIGHUSER", g))


def lowmem_page(p, page):
    page = re.sub(r"\s+", "", page)
    if re.match(r"^(ZERO_PAGE|virt_to_page)\(", page):
        return True
    return (p[0].file, p[0].current_element, page) in lowmem_vars


def discarded(p, t):
    emit(p, "map-discarded",
         "the address kmap_atomic(.., %s) returns is thrown away: nothing can kunmap_atomic() it, the slot stays held"
         % t)


def page(p1, p2, pg, t):
    pg = pg.replace(" -> ", "->")
    what = "line %s" % p1[0].line if p1 else "the map"
    emit(p2, "unmap-page",
         "kunmap_atomic(%s, %s) is given the page, not the address kmap_atomic() returned at %s"
         % (pg, t, what))

@script:python depends on org@
@@
mode["org"] = True

// unmap-type

@type_assign exists@
expression x, E, P, Pr;
identifier T1, T2;
position p1, p2;
@@
x = \(kmap_atomic@p1(P, T1)\|kmap_atomic_pfn@p1(P, T1)\|kmap_atomic_prot@p1(P, T1, Pr)\)
... when != x = E
    when != kunmap_atomic(<+...x...+>, ...)
kunmap_atomic@p2(<+...x...+>, T2)

@script:python@
x << type_assign.x;
T1 << type_assign.T1;
T2 << type_assign.T2;
p1 << type_assign.p1;
p2 << type_assign.p2;
@@
mismatch(p1, p2, x, T1, T2)

@type_decl exists@
identifier x, T1, T2;
type TX;
expression E, P, Pr;
position p1, p2;
@@
TX x = \(kmap_atomic@p1(P, T1)\|kmap_atomic_pfn@p1(P, T1)\|kmap_atomic_prot@p1(P, T1, Pr)\);
... when != x = E
    when != kunmap_atomic(<+...x...+>, ...)
kunmap_atomic@p2(<+...x...+>, T2)

@script:python@
x << type_decl.x;
T1 << type_decl.T1;
T2 << type_decl.T2;
p1 << type_decl.p1;
p2 << type_decl.p2;
@@
mismatch(p1, p2, x, T1, T2)

// unmap-missing

@missing_assign exists@
local idexpression x;
expression E, E2, E3, P, Pr, T;
global idexpression G;
identifier fld;
type TY;
position p1, p2;
@@
x = \(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\)
... when != kunmap_atomic(<+...x...+>, ...)
    when != kunmap_atomic(..., T)
    when != E = x
    when != *E = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != E->fld = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != E.fld = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != E[E3] = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != G = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != true !x || ...
    when != true x == NULL || ...
(
return \(x\|x + E2\|(TY)x\|(TY)(x + E2)\);
|
return@p2 ...;
)

@script:python@
T << missing_assign.T;
p1 << missing_assign.p1;
p2 << missing_assign.p2;
@@
missing(p1, p2, T)

@missing_decl exists@
identifier x;
type TX, TY;
identifier fld;
global idexpression G;
expression E, E2, E3, P, Pr, T;
position p1, p2;
@@
TX x = \(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\);
... when != kunmap_atomic(<+...x...+>, ...)
    when != kunmap_atomic(..., T)
    when != E = x
    when != *E = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != E->fld = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != E.fld = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != E[E3] = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != G = \(x + E2\|(TY)x\|(TY)(x + E2)\)
    when != true !x || ...
    when != true x == NULL || ...
(
return \(x\|x + E2\|(TY)x\|(TY)(x + E2)\);
|
return@p2 ...;
)

@script:python@
T << missing_decl.T;
p1 << missing_decl.p1;
p2 << missing_decl.p2;
@@
missing(p1, p2, T)

// slot-reuse: two maps of one slot with no unmap of it between them,
// unless the second one's page is lowmem by construction (it takes no
// slot: 2.6's shmem mapped ZERO_PAGE(0) so).

@slot_reuse exists@
expression P1, P2, Pr1, Pr2;
identifier T =~ "^KM_";
position p1, p2;
@@
\(kmap_atomic@p1(P1, T)\|kmap_atomic_pfn@p1(P1, T)\|kmap_atomic_prot@p1(P1, T, Pr1)\)
... when != kunmap_atomic(..., T)
\(kmap_atomic@p2(P2, T)\|kmap_atomic_pfn@p2(P2, T)\|kmap_atomic_prot@p2(P2, T, Pr2)\)

@script:python@
T << slot_reuse.T;
P2 << slot_reuse.P2;
p1 << slot_reuse.p1;
p2 << slot_reuse.p2;
@@
if not lowmem_page(p2, P2):
    reuse(p1, p2, T)

// map-discarded: the map's result not kept, unless its page is lowmem by
// construction.

@lowmem_alloc@
idexpression struct page *x;
expression G, O;
position q;
@@
(
x = alloc_page@q(G)
|
x = alloc_pages@q(G, O)
)

@script:python@
x << lowmem_alloc.x;
G << lowmem_alloc.G;
q << lowmem_alloc.q;
@@
if lowmem_gfp(G):
    lowmem_vars.add((q[0].file, q[0].current_element, re.sub(r"\s+", "", x)))

@map_discarded@
expression P, T;
position p;
@@
(
kmap_atomic@p(P, T);
|
 (void)kmap_atomic@p(P, T);
)

@script:python@
P << map_discarded.P;
T << map_discarded.T;
p << map_discarded.p;
@@
if not lowmem_page(p, P):
    discarded(p, T)

@map_discarded_pfn@
expression P, Pr, T;
position p;
@@
(
\(kmap_atomic_pfn@p(P, T)\|kmap_atomic_prot@p(P, T, Pr)\);
|
 (void)\(kmap_atomic_pfn@p(P, T)\|kmap_atomic_prot@p(P, T, Pr)\);
)

@script:python@
T << map_discarded_pfn.T;
p << map_discarded_pfn.p;
@@
discarded(p, T)

// unmap-page: the argument of the map, or anything typed struct page *.

@page_same exists@
expression P, T, T2, Pr, E;
position p1, p2;
@@
\(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\)
... when != P = E
kunmap_atomic@p2(P, T2)

@script:python@
P << page_same.P;
T2 << page_same.T2;
p1 << page_same.p1;
p2 << page_same.p2;
@@
page(p1, p2, P, T2)

@page_same_decl exists@
identifier x;
type TX;
expression P, T, T2, Pr, E;
position p1, p2;
@@
TX x = \(kmap_atomic@p1(P, T)\|kmap_atomic_pfn@p1(P, T)\|kmap_atomic_prot@p1(P, T, Pr)\);
... when != P = E
kunmap_atomic@p2(P, T2)

@script:python@
P << page_same_decl.P;
T2 << page_same_decl.T2;
p1 << page_same_decl.p1;
p2 << page_same_decl.p2;
@@
page(p1, p2, P, T2)

@page_typed@
struct page *P;
expression T;
position p2;
@@
kunmap_atomic@p2(P, T)

@script:python@
P << page_typed.P;
T << page_typed.T;
p2 << page_typed.p2;
@@
page(None, p2, P, T)
