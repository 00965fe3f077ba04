// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for typed atomic kmaps (CONFIG_KMAP_ATOMIC_SLOTS).
 *
 * Mappings are made on the CPU under test by smp_call_on_cpu(), inside
 * the context each slot is for; what they saw is recorded and asserted
 * afterwards in the test thread, since a failing expectation allocates
 * and must not run with preemption or interrupts off.
 */
#include <kunit/test.h>
#include <asm/pgtable_types.h>
#include <linux/cpumask.h>
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "kmap_atomic.h"
#include "kunit_pages.h"
#include "test_nmi.h"
#include "test_pattern.h"

/*
 * The kernel's pte for @vaddr, through x86's lookup_address(), which a
 * module may call (virt_to_kpte() needs init_mm, which it may not).
 */
static inline pte_t *kernel_pte(unsigned long vaddr)
{
	unsigned int level;
	pte_t *ptep = lookup_address(vaddr, &level);

	return ptep && level == PG_LEVEL_4K ? ptep : NULL;
}

/*
 * Put back @old, a none pte, where a test wrote a present one: cleared,
 * low half first, never written in PAE's two halves the other way round
 * (set_pte() writes the high half first, which over a present pte would
 * leave a present pte of another frame for a moment).
 */
static void put_back_none(pte_t *ptep, pte_t old)
{
	WARN_ON_ONCE(!pte_none(old));
	pte_clear(NULL, 0, ptep);
}

/* What one map .. unmap saw; filled in atomic context, checked later. */
struct probe {
	struct page *page;
	/*
	 * A highmem page mapped in the slot and read just before, so that
	 * the TLB holds its translation when the page under test is mapped.
	 */
	struct page *decoy;
	enum km_type type;
	u32 seed;
	const u32 *alias;	/* a kmap() of the page, made beforehand */

	void *addr;
	unsigned int cpu;
	/* Changes of preempt_count() and of the page-fault-disable count. */
	int held_preempt, held_pagefault;
	bool held_preemptible;
	bool read_ok;		/* the slot shows what the alias wrote */
	bool alias_ok;		/* the alias shows what the slot wrote */
	struct page *to_page, *to_page_last_byte;
	bool slot_pte_kept;	/* a lowmem map left the slot's pte alone */
	int after_preempt, after_pagefault;
	/* After the unmap: reading the old address, and its page. */
	long read_after_unmap;
	struct page *to_page_after_unmap;
	bool nmi_ran;		/* for an NMI slot: it ran in an NMI */
	unsigned long reports;	/* kmap_atomic_reports() after minus before */
};

static pte_t slot_pte(unsigned int cpu, enum km_type type)
{
	return ptep_get(kernel_pte(kmap_atomic_slot_addr(cpu, type)));
}

static void probe_map(struct probe *p)
{
	int before = preempt_count();
	int pf_before = current->pagefault_disabled;
	unsigned long reports = kmap_atomic_reports();
	unsigned int cpu = raw_smp_processor_id();
	pte_t pte_before;
	u32 *addr, word;

	addr = kmap_atomic(p->decoy, p->type);
	word = READ_ONCE(*addr);
	kunmap_atomic(addr, p->type);

	pte_before = slot_pte(cpu, p->type);
	addr = kmap_atomic(p->page, p->type);
	p->addr = addr;
	p->cpu = smp_processor_id();
	p->held_preempt = preempt_count() - before;
	p->held_pagefault = current->pagefault_disabled - pf_before;
	p->held_preemptible = preemptible();
	p->read_ok = holds(addr, p->seed);
	fill(addr, ~p->seed);
	p->alias_ok = holds(p->alias, ~p->seed);
	p->to_page = kmap_atomic_to_page(addr);
	p->to_page_last_byte = kmap_atomic_to_page((char *)addr + PAGE_SIZE - 1);
	p->slot_pte_kept = pte_same(pte_before, slot_pte(cpu, p->type));
	/* Any address inside the page unmaps it. */
	kunmap_atomic((char *)addr + PAGE_SIZE / 2, p->type);
	p->after_preempt = preempt_count() - before;
	p->after_pagefault = current->pagefault_disabled - pf_before;
	p->read_after_unmap = copy_from_kernel_nofault(&word, addr, sizeof(word));
	p->to_page_after_unmap = kmap_atomic_to_page(addr);
	p->reports = kmap_atomic_reports() - reports;
}

static void probe_map_fn(void *arg)
{
	probe_map(arg);
}

/*
 * Run @p in the context its slot is for: interrupts or bottom halves off,
 * or a real NMI for the NMI slots (KM_NMI, KM_NMI_PTE, KM_KDB).
 */
static void probe_in_slot_context(struct probe *p)
{
	unsigned long flags;

	switch (kmap_atomic_slot_context(p->type)) {
	case KM_CTX_NMI:
	case KM_CTX_DEBUGGER:
		p->nmi_ran = kmap_test_run_in_nmi(probe_map_fn, p);
		break;
	case KM_CTX_IRQ:
		local_irq_save(flags);
		probe_map(p);
		local_irq_restore(flags);
		break;
	case KM_CTX_SOFTIRQ:
		local_bh_disable();
		probe_map(p);
		local_bh_enable();
		break;
	case KM_CTX_TASK:
		probe_map(p);
		break;
	}
}

static int probe_on_cpu(void *arg)
{
	probe_in_slot_context(arg);
	return 0;
}

static void probe_prepare(struct probe *p, struct page *page, enum km_type type, u32 seed)
{
	p->page = page;
	/*
	 * The chunk's last page (32 of them): no slot's own page, which is
	 * test_page(kind, type) for the 20 types.
	 */
	p->decoy = test_page(chunks[HIGHMEM_BELOW_4G] ? HIGHMEM_BELOW_4G : LOWMEM,
			     KMAP_TEST_CHUNK_PAGES - 1);
	p->type = type;
	p->seed = seed;
	p->alias = kmap(page);
	fill((u32 *)p->alias, seed);
}

static void probe_check(struct kunit *test, struct probe *p, unsigned int cpu)
{
	const char *slot = kmap_atomic_slot_name(p->type);

	if (kmap_atomic_slot_context(p->type) >= KM_CTX_NMI)
		KUNIT_ASSERT_TRUE_MSG(test, p->nmi_ran, "%s: the probe did not run in an NMI",
				      slot);
	if (PageHighMem(p->page)) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, p->addr, (void *)kmap_atomic_slot_addr(cpu, p->type),
					"%s on CPU%u is not at its slot's address", slot, cpu);
		KUNIT_EXPECT_EQ_MSG(test, p->read_after_unmap, (long)-EFAULT,
				    "%s: reading the address after the unmap (the pte must be cleared and flushed)",
				    slot);
		KUNIT_EXPECT_PTR_EQ_MSG(test, p->to_page_after_unmap, NULL,
					"%s: kmap_atomic_to_page() after the unmap", slot);
	} else {
		KUNIT_EXPECT_PTR_EQ_MSG(test, p->addr, page_address(p->page),
					"%s: a lowmem page must map at page_address()", slot);
		KUNIT_EXPECT_TRUE_MSG(test, p->slot_pte_kept,
				      "%s: a lowmem map changed the slot's pte", slot);
	}
	KUNIT_EXPECT_EQ_MSG(test, p->cpu, cpu, "%s ran on the wrong CPU", slot);
	KUNIT_EXPECT_EQ_MSG(test, p->held_preempt, 1,
			    "%s: preempt_count() while mapped minus before", slot);
	KUNIT_EXPECT_FALSE_MSG(test, p->held_preemptible, "%s: preemptible while mapped", slot);
	KUNIT_EXPECT_EQ_MSG(test, p->held_pagefault, 1,
			    "%s: page-fault-disable count while mapped minus before", slot);
	KUNIT_EXPECT_TRUE_MSG(test, p->read_ok,
			      "%s: the mapping does not show the page's data (a stale translation of the page mapped before?)",
			      slot);
	KUNIT_EXPECT_TRUE_MSG(test, p->alias_ok,
			      "%s: data written through the mapping is not in the page", slot);
	KUNIT_EXPECT_PTR_EQ_MSG(test, p->to_page, p->page, "%s: kmap_atomic_to_page(addr)", slot);
	KUNIT_EXPECT_PTR_EQ_MSG(test, p->to_page_last_byte, p->page,
				"%s: kmap_atomic_to_page(addr + PAGE_SIZE - 1)", slot);
	KUNIT_EXPECT_EQ_MSG(test, p->after_preempt, 0, "%s: preempt_count() not restored", slot);
	KUNIT_EXPECT_EQ_MSG(test, p->after_pagefault, 0,
			    "%s: page-fault-disable count not restored", slot);
	KUNIT_EXPECT_EQ_MSG(test, p->reports, 0UL, "%s: correct use drew a report", slot);
}

/* Every slot x every online CPU x every page kind. */
struct slot_case {
	enum km_type type;
	unsigned int cpu;
	enum page_kind kind;
};

static struct slot_case slot_cases[KM_TYPE_NR * NR_CPUS * PAGE_KIND_NR];

static const void *slot_case_gen(const void *prev, char *desc)
{
	unsigned int i = prev ? (const struct slot_case *)prev - slot_cases + 1 : 0;
	struct slot_case *c;

	for (; i < ARRAY_SIZE(slot_cases); i++) {
		c = &slot_cases[i];
		c->kind = i % PAGE_KIND_NR;
		c->type = i / PAGE_KIND_NR % KM_TYPE_NR;
		c->cpu = i / PAGE_KIND_NR / KM_TYPE_NR;
		if (!cpu_online(c->cpu))
			continue;
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s cpu%u %s",
			 kmap_atomic_slot_name(c->type), c->cpu, page_kind_names[c->kind]);
		return c;
	}
	return NULL;
}

static void slot_on_cpu(struct kunit *test)
{
	const struct slot_case *c = test->param_value;
	struct probe p = {};
	int ret;

	need_kind(test, c->kind);
	probe_prepare(&p, test_page(c->kind, c->type), c->type, 0x5107 + c->cpu);
	ret = smp_call_on_cpu(c->cpu, probe_on_cpu, &p, false);
	kunmap(p.page);
	KUNIT_ASSERT_EQ(test, ret, 0);
	probe_check(test, &p, c->cpu);
}

/*
 * The ends of the range: slot 0 of CPU 0, and the last slot and the last
 * page of the range, which belong to the last CPU the kernel is built for.
 * An offline CPU's slots are never mapped by kmap_atomic(), so their ptes
 * are set here to check that kmap_atomic_to_page() reads the right ones.
 */
static void to_page_range_ends(struct kunit *test)
{
	unsigned int last_cpu = (FIX_KMAP_ATOMIC_END - FIX_KMAP_ATOMIC_BEGIN) / KM_SLOTS_PER_CPU;
	unsigned long ends[] = {
		kmap_atomic_slot_addr(last_cpu, KM_TYPE_NR - 1),
		__fix_to_virt(FIX_KMAP_ATOMIC_END),
	};
	struct page *page;
	unsigned int i;
	pte_t *ptep, old;

	need_kind(test, HIGHMEM_BELOW_4G);
	page = test_page(HIGHMEM_BELOW_4G, 0);
	if (cpu_online(last_cpu))
		kunit_skip(test, "CPU%u is online: slot_on_cpu maps its last slot", last_cpu);
	for (i = 0; i < ARRAY_SIZE(ends); i++) {
		ptep = kernel_pte(ends[i]);
		KUNIT_ASSERT_NOT_NULL(test, ptep);
		old = ptep_get(ptep);
		set_pte(ptep, mk_pte(page, kmap_prot));
		KUNIT_EXPECT_PTR_EQ_MSG(test, kmap_atomic_to_page((void *)ends[i]), page,
					"at %#lx, CPU%u's slot %u", ends[i], last_cpu,
					(unsigned int)((ends[i] - ends[0]) / PAGE_SIZE));
		put_back_none(ptep, old);
	}
}

/*
 * is_kmap_addr(), which hardened usercopy asks before it lets a copy run
 * past a page, knows every CPU's typed slots: each byte of the top page
 * (FIX_KMAP_ATOMIC_BEGIN's: a bound by byte would leave it out), of CPU
 * 0's first slot and last spare, of the last CPU's, down to the bottom of
 * the range and not a byte below it.
 */
static void is_kmap_addr_knows_the_slots(struct kunit *test)
{
	unsigned int last_cpu = (FIX_KMAP_ATOMIC_END - FIX_KMAP_ATOMIC_BEGIN) / KM_SLOTS_PER_CPU;
	unsigned int last_slot = KM_TYPE_NR + KM_SPARE_SLOTS - 1;
	unsigned long in[] = {
		__fix_to_virt(FIX_KMAP_ATOMIC_BEGIN),
		kmap_atomic_slot_addr(0, 0),
		kmap_atomic_slot_addr(0, last_slot),
		kmap_atomic_slot_addr(last_cpu, 0),
		kmap_atomic_slot_addr(last_cpu, last_slot),
		__fix_to_virt(FIX_KMAP_ATOMIC_END),
	};
	unsigned long below = __fix_to_virt(FIX_KMAP_ATOMIC_END) - 1;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		KUNIT_EXPECT_TRUE_MSG(test, is_kmap_addr((void *)in[i]),
				      "first byte of %#lx (address %u)", in[i], i);
		KUNIT_EXPECT_TRUE_MSG(test, is_kmap_addr((void *)(in[i] + PAGE_SIZE - 1)),
				      "last byte of %#lx (address %u)", in[i], i);
	}
	KUNIT_EXPECT_FALSE_MSG(test, is_kmap_addr((void *)below),
			       "%#lx, below the typed slots", below);
	/* Above the top: the padding to a cache line, where there is any. */
	if (FIX_KMAP_ATOMIC_BEGIN > FIX_KMAP_ATOMIC_FREE)
		KUNIT_EXPECT_FALSE_MSG(test, is_kmap_addr((void *)(in[0] + PAGE_SIZE)),
				       "%#lx, above the typed slots", in[0] + PAGE_SIZE);
}

/*
 * kmap_atomic_to_page() for the mappings that are not typed slots, on CPU0
 * so that kmap_local_page() takes the first kmap_local slot of all, the
 * one 6.1's __kmap_to_page() missed. With CONFIG_DEBUG_KMAP_LOCAL that slot
 * is a guard page kmap_local never maps, so its pte is set here instead.
 */
struct other_maps {
	struct page *page, *page2;
	void *local, *kmapped;
	struct page *local_page, *atomic_page, *lowmem_page;
	struct page *first_slot_page, *upstream_first_slot_page;
	bool local_at_first_slot;
};

static int other_maps_on_cpu0(void *arg)
{
	unsigned long first = __fix_to_virt(FIX_KMAP_BEGIN);
	struct other_maps *m = arg;
	struct page *low = test_page(LOWMEM, 0);
	void *atomic;
	pte_t *ptep, old;

	m->local = kmap_local_page(m->page);
	m->local_page = kmap_atomic_to_page(m->local);
	if (IS_ENABLED(CONFIG_DEBUG_KMAP_LOCAL)) {
		preempt_disable();
		ptep = kernel_pte(first);
		old = ptep_get(ptep);
		set_pte(ptep, mk_pte(m->page2, kmap_prot));
		m->first_slot_page = kmap_atomic_to_page((void *)first);
		put_back_none(ptep, old);
		preempt_enable();
	} else {
		m->local_at_first_slot = (unsigned long)m->local == first;
		m->first_slot_page = m->local_page;
		pr_info("KMAP-EXPECT-BEGIN kmap_to_page() warns once on a kmap_local address [reports: at mm/highmem\\.c:[0-9]+ __kmap_to_page]\n");
		m->upstream_first_slot_page = kmap_to_page(m->local);
		pr_info("KMAP-EXPECT-END kmap_to_page() warns once on a kmap_local address\n");
	}
	atomic = kmap_atomic(m->page2);
	m->atomic_page = kmap_atomic_to_page(atomic);
	kunmap_atomic(atomic);
	kunmap_local(m->local);
	m->lowmem_page = kmap_atomic_to_page(page_address(low) + 100);
	return 0;
}

static void to_page_other_mappings(struct kunit *test)
{
	struct other_maps m = {};

	need_kind(test, HIGHMEM_BELOW_4G);
	m.page = test_page(HIGHMEM_BELOW_4G, 0);
	m.page2 = test_page(HIGHMEM_BELOW_4G, 1);
	KUNIT_ASSERT_EQ(test, smp_call_on_cpu(0, other_maps_on_cpu0, &m, false), 0);
	KUNIT_EXPECT_PTR_EQ_MSG(test, m.local_page, m.page, "kmap_local_page() address");
	KUNIT_EXPECT_PTR_EQ_MSG(test, m.atomic_page, m.page2, "one-argument kmap_atomic() address");
	KUNIT_EXPECT_PTR_EQ_MSG(test, m.lowmem_page, test_page(LOWMEM, 0), "lowmem address");
	if (IS_ENABLED(CONFIG_DEBUG_KMAP_LOCAL)) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, m.first_slot_page, m.page2,
					"the first kmap_local slot's address");
	} else {
		KUNIT_EXPECT_TRUE_MSG(test, m.local_at_first_slot,
				      "kmap_local_page() on an idle CPU0 should take the first slot");
		KUNIT_EXPECT_PTR_EQ_MSG(test, m.upstream_first_slot_page, m.page,
					"kmap_to_page() on the first kmap_local slot");
	}

	m.kmapped = kmap(m.page);
	KUNIT_EXPECT_TRUE_MSG(test, is_kmap_addr(m.kmapped),
			      "kmap() of highmem is a pkmap address");
	KUNIT_EXPECT_PTR_EQ_MSG(test, kmap_atomic_to_page(m.kmapped + 4000), m.page,
				"kmap() address");
	kunmap(m.page);
}

/*
 * kmap_atomic_to_page() of addresses no kmap gave: vmalloc memory, this
 * suite's own code (module text when built as a module, else kernel text
 * in lowmem), a user address, and a fixmap page that is no kmap's (the one
 * below kmap_local's range). That a slot maps nothing after its unmap is
 * slot_on_cpu's.
 */
static void to_page_other_addresses(struct kunit *test)
{
	const u8 *text = (const u8 *)to_page_other_addresses;
	struct page *vpage, *tpage, *user_page, *unmapped_page;
	unsigned int in_text = min_t(unsigned int, 16, PAGE_SIZE - offset_in_page(text));
	bool vdata_ok = false, text_ok = false;
	u32 *v;
	u8 *p;

	v = vmalloc(2 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, v);
	v[PAGE_SIZE / sizeof(u32) + 3] = 0x7e57da7a;
	vpage = kmap_atomic_to_page(&v[PAGE_SIZE / sizeof(u32) + 3]);
	if (vpage) {
		p = kmap_local_page(vpage);
		vdata_ok = ((u32 *)p)[3] == 0x7e57da7a;
		kunmap_local(p);
	}
	vfree(v);

	tpage = kmap_atomic_to_page((void *)text);
	if (tpage) {
		p = kmap_local_page(tpage);
		text_ok = !memcmp(p + offset_in_page(text), text, in_text);
		kunmap_local(p);
	}
	user_page = kmap_atomic_to_page((void *)0x08048000UL);
	unmapped_page = kmap_atomic_to_page((void *)(fix_to_virt(FIX_KMAP_BEGIN) + PAGE_SIZE));

	KUNIT_EXPECT_TRUE_MSG(test, vdata_ok, "a vmalloc address: page %p does not hold its data",
			      vpage);
	KUNIT_EXPECT_TRUE_MSG(test, text_ok, "a %s text address: page %p does not hold the code",
			      IS_MODULE(CONFIG_KMAP_ATOMIC_KUNIT_TEST) ? "module" : "kernel",
			      tpage);
	KUNIT_EXPECT_PTR_EQ_MSG(test, user_page, NULL, "a user address");
	KUNIT_EXPECT_PTR_EQ_MSG(test, unmapped_page, NULL, "a fixmap page that no kmap uses");
}

/*
 * Each CPU writes only its own slots' ptes: each CPU's block of ptes must
 * be whole cache lines of its own, one block in one page table.
 */
static void slot_ptes_own_cache_lines(struct kunit *test)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		unsigned int first = FIX_KMAP_ATOMIC_BEGIN + cpu * KM_SLOTS_PER_CPU;
		unsigned long low = (unsigned long)kernel_pte(__fix_to_virt(first +
							KM_SLOTS_PER_CPU - 1));
		unsigned long high = (unsigned long)kernel_pte(__fix_to_virt(first));

		KUNIT_ASSERT_NE_MSG(test, low, 0UL, "CPU%u's slots have no pte", cpu);
		KUNIT_EXPECT_EQ_MSG(test, low % KM_PTE_LINE_BYTES, 0UL,
				    "CPU%u's slot ptes do not start a %lu-byte line", cpu,
				    (unsigned long)KM_PTE_LINE_BYTES);
		KUNIT_EXPECT_EQ_MSG(test, high - low, (KM_SLOTS_PER_CPU - 1) * sizeof(pte_t),
				    "CPU%u's slot ptes are not one block of whole lines", cpu);
	}
}

/* Two slots of one context held together for a page copy. */
struct slot_pair {
	enum km_type src, dst;
	enum page_kind src_kind, dst_kind;
};

static struct slot_pair slot_pairs[3 * PAGE_KIND_NR * PAGE_KIND_NR];

static const void *slot_pair_gen(const void *prev, char *desc)
{
	static const enum km_type pairs[][2] = {
		{ KM_USER0, KM_USER1 }, { KM_PTE0, KM_PTE1 }, { KM_BIO_SRC_IRQ, KM_BIO_DST_IRQ },
	};
	unsigned int i = prev ? (const struct slot_pair *)prev - slot_pairs + 1 : 0;
	struct slot_pair *c;

	if (i >= ARRAY_SIZE(slot_pairs))
		return NULL;
	c = &slot_pairs[i];
	c->src = pairs[i / (PAGE_KIND_NR * PAGE_KIND_NR)][0];
	c->dst = pairs[i / (PAGE_KIND_NR * PAGE_KIND_NR)][1];
	c->src_kind = i / PAGE_KIND_NR % PAGE_KIND_NR;
	c->dst_kind = i % PAGE_KIND_NR;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s -> %s %s",
		 kmap_atomic_slot_name(c->src), page_kind_names[c->src_kind],
		 kmap_atomic_slot_name(c->dst), page_kind_names[c->dst_kind]);
	return c;
}

static void slot_pair_copy(struct kunit *test)
{
	const struct slot_pair *c = test->param_value;
	struct page *src, *dst;
	unsigned long flags = 0;
	bool irq = kmap_atomic_slot_context(c->src) == KM_CTX_IRQ;
	void *s, *d;

	need_kind(test, c->src_kind);
	need_kind(test, c->dst_kind);
	src = test_page(c->src_kind, 2);
	dst = test_page(c->dst_kind, 3);
	fill_page(src, 0xc0ffee);
	fill_page(dst, 0);

	if (irq)
		local_irq_save(flags);
	s = kmap_atomic(src, c->src);
	d = kmap_atomic(dst, c->dst);
	memcpy(d, s, PAGE_SIZE);
	/* Typed slots need not be released in reverse order. */
	kunmap_atomic(s, c->src);
	kunmap_atomic(d, c->dst);
	if (irq)
		local_irq_restore(flags);

	if (PageHighMem(src) && PageHighMem(dst))
		KUNIT_EXPECT_PTR_NE(test, s, d);
	KUNIT_EXPECT_TRUE_MSG(test, page_holds(dst, 0xc0ffee), "the copy did not reach the page");
	KUNIT_EXPECT_TRUE(test, preemptible());
}

/* Nested typed maps count up, and unmapping brings the counts back. */
static void preempt_and_pagefault_nesting(struct kunit *test)
{
	int preempt[3], pagefault[3];
	int before = preempt_count();
	void *a, *b;

	need_kind(test, HIGHMEM_ABOVE_4G);
	KUNIT_ASSERT_FALSE(test, pagefault_disabled());
	a = kmap_atomic(test_page(HIGHMEM_ABOVE_4G, 4), KM_USER0);
	b = kmap_atomic(test_page(LOWMEM, 4), KM_USER1);
	preempt[0] = preempt_count() - before;
	pagefault[0] = current->pagefault_disabled;
	kunmap_atomic(a, KM_USER0);
	preempt[1] = preempt_count() - before;
	pagefault[1] = current->pagefault_disabled;
	kunmap_atomic(b, KM_USER1);
	preempt[2] = preempt_count() - before;
	pagefault[2] = current->pagefault_disabled;

	KUNIT_EXPECT_EQ_MSG(test, preempt[0], 2, "preempt_count() rise with two slots held");
	KUNIT_EXPECT_EQ_MSG(test, pagefault[0], 2, "page-fault-disable count, two slots held");
	KUNIT_EXPECT_EQ_MSG(test, preempt[1], 1, "preempt_count() rise after one unmap");
	KUNIT_EXPECT_EQ_MSG(test, pagefault[1], 1, "page-fault-disable count after one unmap");
	KUNIT_EXPECT_EQ_MSG(test, preempt[2], 0, "preempt_count() rise after both unmaps");
	KUNIT_EXPECT_EQ_MSG(test, pagefault[2], 0, "page-fault-disable count after both");
	KUNIT_EXPECT_TRUE(test, preemptible());
}

/* kmap_atomic_pfn(pfn, type) always uses the slot, even for lowmem. */
static void pfn_uses_slot(struct kunit *test)
{
	struct page *low = test_page(LOWMEM, 5);
	struct page *to_page;
	unsigned long slot;
	void *addr, *prot_addr;
	bool read_ok;

	fill(page_address(low), 0x9f9);
	addr = kmap_atomic_pfn(page_to_pfn(low), KM_USER0);
	slot = kmap_atomic_slot_addr(smp_processor_id(), KM_USER0);
	read_ok = holds(addr, 0x9f9);
	to_page = kmap_atomic_to_page(addr);
	kunmap_atomic(addr, KM_USER0);
	prot_addr = kmap_atomic_prot(low, KM_USER1, kmap_prot);
	kunmap_atomic(prot_addr, KM_USER1);

	KUNIT_EXPECT_PTR_EQ(test, addr, (void *)slot);
	KUNIT_EXPECT_TRUE_MSG(test, read_ok, "the pfn's slot does not show the page's data");
	KUNIT_EXPECT_PTR_EQ(test, to_page, low);
	KUNIT_EXPECT_PTR_EQ_MSG(test, prot_addr, page_address(low),
				"kmap_atomic_prot() of a lowmem page");
}

/*
 * The pte template (mm/kmap_atomic/core.c): kmap_prot's pte computed at boot,
 * the frame ORed in at map time. A page of each kind is mapped with
 * kmap_atomic(page, type) (kmap_atomic_pfn() for lowmem, which uses the
 * slot), and with kmap_atomic_prot() and a read-only protection, which
 * takes pfn_pte(): each slot's pte must be pfn_pte()'s, and what the
 * slot shows and writes must be the page's, read back through
 * kmap_local_page(). Above 4 GiB a frame bit lost from the template maps
 * another page.
 */
struct template_probe {
	struct page *page;
	pte_t pte, prot_pte;
	bool read_ok, prot_read_ok;
};

static void template_probe(struct template_probe *t, enum page_kind kind)
{
	unsigned long pfn = page_to_pfn(t->page);
	unsigned int cpu;
	u32 *addr;

	preempt_disable();
	cpu = smp_processor_id();
	addr = kind == LOWMEM ? kmap_atomic_pfn(pfn, KM_USER0) : kmap_atomic(t->page, KM_USER0);
	t->pte = slot_pte(cpu, KM_USER0);
	t->read_ok = holds(addr, 0x7e3);
	fill(addr, ~0x7e3);
	kunmap_atomic(addr, KM_USER0);
	if (kind != LOWMEM) {
		addr = kmap_atomic_prot(t->page, KM_USER1, PAGE_KERNEL_RO);
		t->prot_pte = slot_pte(cpu, KM_USER1);
		t->prot_read_ok = holds(addr, ~0x7e3);
		kunmap_atomic(addr, KM_USER1);
	}
	preempt_enable();
}

static const void *kind_gen(const void *prev, char *desc)
{
	const enum page_kind *kind = prev;
	static const enum page_kind kinds[] = { LOWMEM, HIGHMEM_BELOW_4G, HIGHMEM_ABOVE_4G };

	kind = kind ? kind + 1 : kinds;
	if (kind >= kinds + ARRAY_SIZE(kinds))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", page_kind_names[*kind]);
	return kind;
}

static void template_maps_every_frame(struct kunit *test)
{
	enum page_kind kind = *(const enum page_kind *)test->param_value;
	struct template_probe t = {};
	unsigned long pfn;

	KUNIT_ASSERT_TRUE_MSG(test, kmap_atomic_template_in_use(),
			      "the pte template is not in use: its boot check failed (see the boot log's kmap_atomic line) or did not run");
	need_kind(test, kind);
	t.page = test_page(kind, 6);
	pfn = page_to_pfn(t.page);
	fill_page(t.page, 0x7e3);
	template_probe(&t, kind);

	KUNIT_EXPECT_EQ_MSG(test, (u64)pte_val(t.pte), (u64)pte_val(pfn_pte(pfn, kmap_prot)),
			    "page frame %#lx: the template's pte is not pfn_pte()'s", pfn);
	KUNIT_EXPECT_TRUE_MSG(test, t.read_ok, "page frame %#lx: the slot shows another page", pfn);
	KUNIT_EXPECT_TRUE_MSG(test, page_holds(t.page, ~0x7e3),
			      "page frame %#lx: what the slot wrote is not in the page", pfn);
	if (kind == LOWMEM)
		return;
	KUNIT_EXPECT_EQ_MSG(test, (u64)pte_val(t.prot_pte),
			    (u64)pte_val(pfn_pte(pfn, PAGE_KERNEL_RO)),
			    "page frame %#lx: kmap_atomic_prot()'s pte is not pfn_pte()'s", pfn);
	KUNIT_EXPECT_TRUE_MSG(test, t.prot_read_ok,
			      "page frame %#lx: the read-only slot shows another page", pfn);
}

/*
 * Typed, one-argument and kmap_local mappings held together on one CPU,
 * released in an order kmap_local alone would not allow for the typed
 * ones: after each step every mapping still held must show its own page.
 */
enum { T0, L1, A2, T3, L4, MAPS };
static const char * const interleave_steps[] = {
	"mapping all five", "the typed KM_USER0 unmap, out of order", "kunmap_local",
	"the typed KM_USER1 unmap", "the one-argument unmap",
};

struct interleave {
	struct page *pages[MAPS];
	void *addr[MAPS];
	bool live[MAPS];
	/* per step, per mapping: wrong data, wrong kmap_atomic_to_page() */
	bool bad_data[ARRAY_SIZE(interleave_steps)][MAPS];
	bool bad_page[ARRAY_SIZE(interleave_steps)][MAPS];
};

static void interleave_check(struct interleave *il, unsigned int step)
{
	unsigned int j;

	for (j = 0; j < MAPS; j++) {
		if (!il->live[j])
			continue;
		il->bad_data[step][j] = !holds(il->addr[j], 0xab00 + j);
		il->bad_page[step][j] = kmap_atomic_to_page(il->addr[j]) != il->pages[j];
	}
}

static void interleave_unmap(struct interleave *il, unsigned int which, unsigned int step)
{
	switch (which) {
	case T0:
		kunmap_atomic(il->addr[T0], KM_USER0);
		break;
	case T3:
		kunmap_atomic(il->addr[T3], KM_USER1);
		break;
	case A2:
		kunmap_atomic(il->addr[A2]);
		break;
	default:
		kunmap_local(il->addr[which]);
		break;
	}
	il->live[which] = false;
	if (step < ARRAY_SIZE(interleave_steps))
		interleave_check(il, step);
}

static void interleaved_with_untyped(struct kunit *test)
{
	int before = preempt_count();
	struct interleave *il;
	unsigned int i, j;

	need_kind(test, HIGHMEM_BELOW_4G);
	need_kind(test, HIGHMEM_ABOVE_4G);
	il = kunit_kzalloc(test, sizeof(*il), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, il);
	for (i = 0; i < MAPS; i++) {
		il->pages[i] = test_page(i % 2 ? HIGHMEM_ABOVE_4G : HIGHMEM_BELOW_4G, 6 + i);
		fill_page(il->pages[i], 0xab00 + i);
		il->live[i] = true;
	}

	il->addr[T0] = kmap_atomic(il->pages[T0], KM_USER0);
	il->addr[L1] = kmap_local_page(il->pages[L1]);
	il->addr[A2] = kmap_atomic(il->pages[A2]);
	il->addr[T3] = kmap_atomic(il->pages[T3], KM_USER1);
	il->addr[L4] = kmap_local_page(il->pages[L4]);
	interleave_check(il, 0);
	interleave_unmap(il, T0, 1);
	interleave_unmap(il, L4, 2);
	interleave_unmap(il, T3, 3);
	interleave_unmap(il, A2, 4);
	interleave_unmap(il, L1, ARRAY_SIZE(interleave_steps));

	for (i = 0; i < MAPS; i++)
		for (j = i + 1; j < MAPS; j++)
			KUNIT_EXPECT_PTR_NE(test, il->addr[i], il->addr[j]);
	for (i = 0; i < ARRAY_SIZE(interleave_steps); i++) {
		for (j = 0; j < MAPS; j++) {
			KUNIT_EXPECT_FALSE_MSG(test, il->bad_data[i][j],
					       "mapping %u shows the wrong data after %s",
					       j, interleave_steps[i]);
			KUNIT_EXPECT_FALSE_MSG(test, il->bad_page[i][j],
					       "kmap_atomic_to_page(mapping %u) wrong after %s",
					       j, interleave_steps[i]);
		}
	}
	KUNIT_EXPECT_EQ(test, preempt_count(), before);
	KUNIT_EXPECT_FALSE(test, pagefault_disabled());
}

/* Slots used in a real hard interrupt (irq_work) and a real softirq. */
enum irq_source { SRC_IRQ_WORK, SRC_TASKLET, SRC_TIMER };

struct irq_probes {
	enum irq_source src;
	struct probe p[2];
	bool in_hardirq, in_softirq, irqs_kept;
	struct completion done;
	struct irq_work work;
	struct tasklet_struct tasklet;
	struct timer_list timer;
};

/* Two slots held at once, the second inside the first. */
static void probe_nested(struct irq_probes *ip)
{
	struct probe *a = &ip->p[0], *b = &ip->p[1];
	bool irqs_before = irqs_disabled();
	void *outer;

	outer = kmap_atomic(a->page, a->type);
	probe_map(b);
	a->read_ok = holds(outer, a->seed);
	kunmap_atomic(outer, a->type);
	/* The typed pair leaves the interrupt flag as it found it. */
	ip->irqs_kept = irqs_disabled() == irqs_before;
}

static void hardirq_fn(struct irq_work *work)
{
	struct irq_probes *ip = container_of(work, struct irq_probes, work);

	ip->in_hardirq = in_hardirq();
	probe_nested(ip);
	complete(&ip->done);
}

static void tasklet_fn(struct tasklet_struct *t)
{
	struct irq_probes *ip = from_tasklet(ip, t, tasklet);

	ip->in_softirq = in_serving_softirq();
	probe_nested(ip);
	complete(&ip->done);
}

static void timer_fn(struct timer_list *t)
{
	struct irq_probes *ip = from_timer(ip, t, timer);

	ip->in_softirq = in_serving_softirq();
	probe_nested(ip);
	complete(&ip->done);
}

static int irq_probes_on_cpu(void *arg)
{
	struct irq_probes *ip = arg;

	init_completion(&ip->done);
	switch (ip->src) {
	case SRC_IRQ_WORK:
		init_irq_work(&ip->work, hardirq_fn);
		irq_work_queue(&ip->work);
		break;
	case SRC_TASKLET:
		tasklet_setup(&ip->tasklet, tasklet_fn);
		tasklet_schedule(&ip->tasklet);
		break;
	case SRC_TIMER:
		timer_setup_on_stack(&ip->timer, timer_fn, TIMER_PINNED);
		mod_timer(&ip->timer, jiffies);
		break;
	}
	wait_for_completion(&ip->done);
	switch (ip->src) {
	case SRC_IRQ_WORK:
		irq_work_sync(&ip->work);
		break;
	case SRC_TASKLET:
		tasklet_kill(&ip->tasklet);
		break;
	case SRC_TIMER:
		del_timer_sync(&ip->timer);
		destroy_timer_on_stack(&ip->timer);
		break;
	}
	return 0;
}

struct irq_case {
	enum irq_source src;
	unsigned int cpu;
};

static struct irq_case irq_cases[3 * NR_CPUS];

static const void *irq_case_gen(const void *prev, char *desc)
{
	static const char * const names[] = {
		[SRC_IRQ_WORK] = "KM_IRQ0+KM_IRQ1 in irq_work (hard interrupt)",
		[SRC_TASKLET] = "KM_SOFTIRQ0+KM_SOFTIRQ1 in a tasklet",
		[SRC_TIMER] = "KM_SOFTIRQ1+KM_SOFTIRQ0 in a timer",
	};
	unsigned int i = prev ? (const struct irq_case *)prev - irq_cases + 1 : 0;
	struct irq_case *c;

	for (; i < ARRAY_SIZE(irq_cases); i++) {
		c = &irq_cases[i];
		c->src = i % 3;
		c->cpu = i / 3;
		if (!cpu_online(c->cpu))
			continue;
		snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s cpu%u", names[c->src], c->cpu);
		return c;
	}
	return NULL;
}

static void slots_in_interrupts(struct kunit *test)
{
	static const enum km_type slots[][2] = {
		[SRC_IRQ_WORK] = { KM_IRQ0, KM_IRQ1 },
		[SRC_TASKLET] = { KM_SOFTIRQ0, KM_SOFTIRQ1 },
		[SRC_TIMER] = { KM_SOFTIRQ1, KM_SOFTIRQ0 },
	};
	const struct irq_case *c = test->param_value;
	struct irq_probes ip = { .src = c->src };
	int ret;

	need_kind(test, HIGHMEM_BELOW_4G);
	need_kind(test, HIGHMEM_ABOVE_4G);
	probe_prepare(&ip.p[0], test_page(HIGHMEM_BELOW_4G, 11), slots[c->src][0], 0x1a0 + c->cpu);
	probe_prepare(&ip.p[1], test_page(HIGHMEM_ABOVE_4G, 11), slots[c->src][1], 0x1b0 + c->cpu);
	ret = smp_call_on_cpu(c->cpu, irq_probes_on_cpu, &ip, false);
	kunmap(ip.p[0].page);
	kunmap(ip.p[1].page);
	KUNIT_ASSERT_EQ(test, ret, 0);

	/* Preconditions of the case, not what it tests. */
	if (c->src == SRC_IRQ_WORK)
		KUNIT_ASSERT_TRUE_MSG(test, ip.in_hardirq,
				      "irq_work did not run in a hard interrupt");
	else
		KUNIT_ASSERT_TRUE_MSG(test, ip.in_softirq, "the handler did not run in a softirq");
	KUNIT_EXPECT_TRUE_MSG(test, ip.irqs_kept, "the typed pair changed the interrupt flag");
	KUNIT_EXPECT_TRUE_MSG(test, ip.p[0].read_ok,
			      "the outer slot lost its page to the inner one");
	probe_check(test, &ip.p[1], c->cpu);
}

/*
 * A task holds KM_USER0 through a long loop on one CPU, raising a hard
 * interrupt (irq_work, KM_IRQ0) each round; each hard interrupt raises a
 * softirq (tasklet, KM_SOFTIRQ0), and every fourth softirq raises a hard
 * interrupt while it holds its own slot, so all three nest. Every party
 * checks its page against a copy in lowmem all along.
 */
#define STORM_IRQS	2000
#define STORM_LIMIT	(20 * HZ)

struct storm_party {
	struct page *page;
	u32 *shadow;		/* what the page should hold */
	unsigned long rounds, errors;
};

struct storm {
	struct storm_party task, irq, softirq;
	struct irq_work work;
	struct tasklet_struct tasklet;
	bool holding;		/* the task holds KM_USER0 */
	unsigned long irqs_while_held, softirqs_while_held, nested_irqs;
};

/* One round at @p: check the whole page, then change one word in both. */
static void storm_round(struct storm_party *sp, u32 *p)
{
	unsigned int w = sp->rounds % WORDS;

	if (memcmp(p, sp->shadow, PAGE_SIZE))
		sp->errors++;
	sp->shadow[w] = pattern(sp->rounds, w);
	p[w] = sp->shadow[w];
	sp->rounds++;
}

static void storm_irq(struct irq_work *work)
{
	struct storm *st = container_of(work, struct storm, work);
	u32 *p = kmap_atomic(st->irq.page, KM_IRQ0);

	storm_round(&st->irq, p);
	kunmap_atomic(p, KM_IRQ0);
	if (READ_ONCE(st->holding))
		st->irqs_while_held++;
	if (in_serving_softirq())
		st->nested_irqs++;
	tasklet_schedule(&st->tasklet);
}

static void storm_softirq(struct tasklet_struct *t)
{
	struct storm *st = from_tasklet(st, t, tasklet);
	struct storm_party *sp = &st->softirq;
	u32 *p = kmap_atomic(sp->page, KM_SOFTIRQ0);

	storm_round(sp, p);
	if (sp->rounds % 4 == 0) {
		/* A hard interrupt arrives now, while KM_SOFTIRQ0 is held. */
		irq_work_queue(&st->work);
		if (memcmp(p, sp->shadow, PAGE_SIZE))
			sp->errors++;
	}
	kunmap_atomic(p, KM_SOFTIRQ0);
	if (READ_ONCE(st->holding))
		st->softirqs_while_held++;
}

static int storm_on_cpu(void *arg)
{
	struct storm *st = arg;
	struct storm_party *tp = &st->task;
	unsigned long end = jiffies + STORM_LIMIT;
	u32 *p;

	init_irq_work(&st->work, storm_irq);
	tasklet_setup(&st->tasklet, storm_softirq);

	p = kmap_atomic(tp->page, KM_USER0);
	WRITE_ONCE(st->holding, true);
	while (READ_ONCE(st->irq.rounds) < STORM_IRQS && time_before(jiffies, end)) {
		storm_round(tp, p);
		irq_work_queue(&st->work);
	}
	if (memcmp(p, tp->shadow, PAGE_SIZE))
		tp->errors++;
	WRITE_ONCE(st->holding, false);
	kunmap_atomic(p, KM_USER0);

	irq_work_sync(&st->work);
	tasklet_kill(&st->tasklet);
	return 0;
}

static void storm_party_init(struct kunit *test, struct storm_party *sp, struct page *page)
{
	sp->page = page;
	sp->shadow = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, sp->shadow);
	fill(sp->shadow, page_to_pfn(page));
	memcpy_to_page(page, 0, (const char *)sp->shadow, PAGE_SIZE);
}

static void storm_party_check(struct kunit *test, struct storm_party *sp, const char *who)
{
	void *now = kmap_local_page(sp->page);
	int differs = memcmp(now, sp->shadow, PAGE_SIZE);

	kunmap_local(now);
	KUNIT_EXPECT_EQ_MSG(test, sp->errors, 0UL, "%s saw its page change under it", who);
	KUNIT_EXPECT_EQ_MSG(test, differs, 0, "%s's page does not hold what it wrote", who);
}

/*
 * An interrupt that maps a slot between another unmap's pte clear and its
 * flush: the slot is free and its pte none, but this CPU's TLB may still
 * hold the old page. The interrupt's map flushes, and sees its own page.
 * The window is made by hand (the pte written, read through and cleared
 * without a flush), and the interrupt level too, so that it is exact.
 */
static void interrupt_map_flushes_stale_entry(struct kunit *test)
{
	struct page *old = test_page(HIGHMEM_BELOW_4G, 0), *new = test_page(HIGHMEM_BELOW_4G, 1);
	unsigned long flags, addr, before;
	bool free, stale_seen = false, own_seen = false;
	u32 *p = NULL;
	pte_t *ptep;

	need_kind(test, HIGHMEM_BELOW_4G);
	fill_page(old, 0x01d);
	fill_page(new, 0x2e3);
	before = kmap_atomic_reports();
	local_irq_save(flags);
	addr = kmap_atomic_slot_addr(smp_processor_id(), KM_IRQ0);
	ptep = kernel_pte(addr);
	free = ptep && pte_none(ptep_get(ptep));
	if (free) {
		set_pte(ptep, mk_pte(old, kmap_prot));
		stale_seen = holds((u32 *)addr, 0x01d);	/* now in this CPU's TLB */
		pte_clear(NULL, addr, ptep);		/* an unmap, stopped before its flush */
		__preempt_count_add(HARDIRQ_OFFSET);
		p = kmap_atomic(new, KM_IRQ0);
		own_seen = holds(p, 0x2e3);
		kunmap_atomic(p, KM_IRQ0);
		__preempt_count_sub(HARDIRQ_OFFSET);
	}
	local_irq_restore(flags);

	if (!free)
		kunit_skip(test, "KM_IRQ0 is in use on this CPU");
	KUNIT_ASSERT_TRUE_MSG(test, stale_seen, "the page written by hand is not mapped");
	KUNIT_EXPECT_EQ_MSG(test, (unsigned long)p, addr, "the interrupt did not get KM_IRQ0");
	KUNIT_EXPECT_TRUE_MSG(test, own_seen,
			      "the interrupt's map shows the page the stale TLB entry held");
	KUNIT_EXPECT_EQ_MSG(test, kmap_atomic_reports(), before, "reports of correct code");
}

static void task_slot_under_interrupt_storm(struct kunit *test)
{
	unsigned int cpu = cpumask_last(cpu_online_mask);
	struct storm *st;

	need_kind(test, HIGHMEM_BELOW_4G);
	need_kind(test, HIGHMEM_ABOVE_4G);
	st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, st);
	storm_party_init(test, &st->task, test_page(HIGHMEM_ABOVE_4G, 12));
	storm_party_init(test, &st->irq, test_page(HIGHMEM_BELOW_4G, 12));
	storm_party_init(test, &st->softirq, test_page(HIGHMEM_ABOVE_4G, 13));

	KUNIT_ASSERT_EQ(test, smp_call_on_cpu(cpu, storm_on_cpu, st, false), 0);
	kunit_info(test, "CPU%u: %lu task rounds holding KM_USER0, with %lu hard and %lu soft interrupts, %lu hard ones inside a softirq\n",
		   cpu, st->task.rounds, st->irqs_while_held, st->softirqs_while_held,
		   st->nested_irqs);
	KUNIT_EXPECT_GE_MSG(test, st->irq.rounds, (unsigned long)STORM_IRQS,
			    "the interrupt storm did not finish in %d s", STORM_LIMIT / HZ);
	KUNIT_EXPECT_GE(test, st->irqs_while_held, (unsigned long)STORM_IRQS);
	KUNIT_EXPECT_GE(test, st->softirqs_while_held, (unsigned long)STORM_IRQS / 2);
	KUNIT_EXPECT_GE(test, st->nested_irqs, (unsigned long)STORM_IRQS / 8);
	storm_party_check(test, &st->task, "the task (KM_USER0)");
	storm_party_check(test, &st->irq, "the hard interrupt (KM_IRQ0)");
	storm_party_check(test, &st->softirq, "the softirq (KM_SOFTIRQ0)");
}

static struct kunit_case kmap_atomic_cases[] = {
	KUNIT_CASE_PARAM(slot_on_cpu, slot_case_gen),
	KUNIT_CASE(to_page_range_ends),
	KUNIT_CASE(is_kmap_addr_knows_the_slots),
	KUNIT_CASE(to_page_other_mappings),
	KUNIT_CASE(to_page_other_addresses),
	KUNIT_CASE(slot_ptes_own_cache_lines),
	KUNIT_CASE_PARAM(slot_pair_copy, slot_pair_gen),
	KUNIT_CASE(preempt_and_pagefault_nesting),
	KUNIT_CASE(pfn_uses_slot),
	KUNIT_CASE_PARAM(template_maps_every_frame, kind_gen),
	KUNIT_CASE(interleaved_with_untyped),
	KUNIT_CASE_PARAM(slots_in_interrupts, irq_case_gen),
	KUNIT_CASE(task_slot_under_interrupt_storm),
	KUNIT_CASE(interrupt_map_flushes_stale_entry),
	{}
};

static struct kunit_suite kmap_atomic_suite = {
	.name = "kmap_atomic",
	.suite_init = test_chunks_get,
	.suite_exit = test_chunks_put,
	.init = kmap_test_quiet_init,
	.exit = kmap_test_quiet_exit,
	.test_cases = kmap_atomic_cases,
};

kunit_test_suite(kmap_atomic_suite);

MODULE_DESCRIPTION("KUnit tests for typed atomic kmaps");
MODULE_LICENSE("GPL");
