// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of what a caller of kmap_atomic(page, type) relies on in
 * every kernel: with the typed slots (CONFIG_KMAP_ATOMIC_SLOTS) and
 * without them, where the typed forms map through kmap_local (the path a
 * PREEMPT_RT kernel takes), with or without highmem.
 *
 * What a mapping saw is recorded while it is held and asserted after the
 * unmap: a failing expectation allocates, which it must not do with
 * preemption or page faults off. Each case runs with migration off, so
 * that the check that an unmapped address faults looks at the CPU (typed
 * slot) or the task (kmap_local) that mapped it, not at another CPU's.
 */
#include <kunit/test.h>
#include <linux/highmem.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "kunit_pages.h"
#include "test_pattern.h"

/*
 * The highest kind of page this machine has, so that a case runs
 * everywhere: above 4 GiB with PAE, else highmem, else lowmem.
 */
static struct page *best_page(unsigned int n)
{
	enum page_kind kind = HIGHMEM_ABOVE_4G;

	while (kind > LOWMEM && !chunks[kind])
		kind--;
	return chunks[kind] ? test_page(kind, n) : NULL;
}

static struct page *second_best_page(unsigned int n)
{
	if (chunks[HIGHMEM_BELOW_4G])
		return test_page(HIGHMEM_BELOW_4G, n);
	return best_page(n);
}

/*
 * Preemption and page faults, as the map should leave them: the counts,
 * not pagefault_disabled(), which is only true or false.
 */
struct atomic_state {
	int preempt;
	int pagefault;
};

static struct atomic_state atomic_state_now(void)
{
	return (struct atomic_state){ preempt_count(), current->pagefault_disabled };
}

/*
 * Each map disables preemption (migration on PREEMPT_RT) and page faults
 * once, in every kernel.
 */
static void expect_raised_by(struct kunit *test, struct atomic_state inside,
			     struct atomic_state before, int maps)
{
	if (IS_ENABLED(CONFIG_PREEMPT_COUNT) && !IS_ENABLED(CONFIG_PREEMPT_RT))
		KUNIT_EXPECT_EQ_MSG(test, inside.preempt, before.preempt + maps,
				    "preemption is not disabled once per map");
	KUNIT_EXPECT_EQ_MSG(test, inside.pagefault, before.pagefault + maps,
			    "page faults are not disabled once per map");
}

/* Entries on this task's kmap_local stack: a typed unmap must pop its own. */
static int kmap_local_depth(void)
{
#ifdef CONFIG_KMAP_LOCAL
	return current->kmap_ctrl.idx;
#else
	return 0;
#endif
}

/*
 * What @n kmap_local_page() maps add to the stack (each has a guard entry
 * with CONFIG_DEBUG_KMAP_LOCAL), and what @n typed maps add: nothing with
 * the slots, as many without them.
 */
#define LOCAL_ENTRIES(n)	((n) * (IS_ENABLED(CONFIG_DEBUG_KMAP_LOCAL) ? 2 : 1))
#define TYPED_ENTRIES(n)	(IS_ENABLED(CONFIG_KMAP_ATOMIC_SLOTS) ? 0 : LOCAL_ENTRIES(n))

/* Both pages highmem, so that the typed maps make mappings at all. */
static void need_two_highmem(struct kunit *test, struct page *a, struct page *b)
{
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	if (!PageHighMem(a) || !PageHighMem(b))
		kunit_skip(test, "no highmem here: a lowmem page needs no mapping");
}

/* Without the slots, 2.6's release in any order needs KMAP_ATOMIC_ANY_ORDER. */
static void need_any_order(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_KMAP_ATOMIC_SLOTS) && !IS_ENABLED(CONFIG_KMAP_ATOMIC_ANY_ORDER))
		kunit_skip(test, "kmap_local releases in reverse order: no KMAP_ATOMIC_ANY_ORDER");
}

static void expect_restored(struct kunit *test, struct atomic_state before)
{
	struct atomic_state now = atomic_state_now();

	KUNIT_EXPECT_EQ_MSG(test, now.preempt, before.preempt,
			    "the unmap did not give back the preemption count");
	KUNIT_EXPECT_EQ_MSG(test, now.pagefault, before.pagefault,
			    "the unmap did not enable page faults again");
}

/*
 * After the unmap, a mapped address maps nothing: its pte was cleared. A
 * lowmem page's own address (no mapping was made) stays, of course.
 */
static void expect_unmapped(struct kunit *test, struct page *page, void *addr)
{
	u32 word;

	if (addr == page_address(page))
		return;
	KUNIT_EXPECT_PTR_EQ_MSG(test, kmap_atomic_to_page(addr), NULL,
				"%p still maps a page after its unmap", addr);
	KUNIT_EXPECT_EQ_MSG(test, copy_from_kernel_nofault(&word, addr, sizeof(word)),
			    -EFAULT, "%p can still be read after its unmap", addr);
}

static const void *kind_params(const void *prev, char *desc)
{
	static const enum page_kind kinds[] = {
		LOWMEM, HIGHMEM_BELOW_4G, HIGHMEM_ABOVE_4G
	};
	const enum page_kind *k = prev ? (const enum page_kind *)prev + 1 : kinds;

	if (k == kinds + ARRAY_SIZE(kinds))
		return NULL;
	strscpy(desc, page_kind_names[*k], KUNIT_PARAM_DESC_SIZE);
	return k;
}

/*
 * KM_USER0 and KM_USER1 in turn: the data goes through the mapping,
 * kmap_atomic_to_page() finds the page from anywhere inside it, an
 * address inside the page unmaps it (2.6's callers passed base + offset),
 * and afterwards the counts are back and a highmem address faults.
 */
static void map_write_unmap(struct kunit *test)
{
	enum page_kind kind = *(const enum page_kind *)test->param_value;
	static const enum km_type types[] = { KM_USER0, KM_USER1 };
	struct atomic_state before, inside;
	struct page *page, *first, *last;
	unsigned int i;
	u32 *addr;

	need_kind(test, kind);
	migrate_disable();
	for (i = 0; i < ARRAY_SIZE(types); i++) {
		page = test_page(kind, i);
		before = atomic_state_now();
		addr = kmap_atomic(page, types[i]);
		inside = atomic_state_now();
		fill(addr, 0x5eed0000 + i);
		first = kmap_atomic_to_page(addr);
		last = kmap_atomic_to_page(addr + WORDS - 1);
		kunmap_atomic(addr + 17, types[i]);

		expect_raised_by(test, inside, before, 1);
		expect_restored(test, before);
		KUNIT_EXPECT_PTR_EQ(test, first, page);
		KUNIT_EXPECT_PTR_EQ(test, last, page);
		KUNIT_EXPECT_TRUE_MSG(test, page_holds(page, 0x5eed0000 + i),
				      "what was written through the map is not in the page");
		expect_unmapped(test, page, addr);
	}
	migrate_enable();
}

/*
 * The porting guide's copy: the source in KM_USER0, the destination in
 * KM_USER1, both held at once, unmapped last-mapped first (the other
 * order is release_in_map_order()).
 */
static void copy_between_two_slots(struct kunit *test)
{
	struct page *src_page = best_page(2);
	struct page *dst_page = second_best_page(3);
	struct page *src_seen, *dst_seen;
	struct atomic_state before, inside;
	void *src, *dst;

	KUNIT_ASSERT_NOT_NULL(test, src_page);
	migrate_disable();
	fill_page(src_page, 0xc0b1);
	fill_page(dst_page, 0);
	before = atomic_state_now();
	src = kmap_atomic(src_page, KM_USER0);
	dst = kmap_atomic(dst_page, KM_USER1);
	inside = atomic_state_now();
	memcpy(dst, src, PAGE_SIZE);
	src_seen = kmap_atomic_to_page(src);
	dst_seen = kmap_atomic_to_page(dst);
	kunmap_atomic(dst, KM_USER1);
	kunmap_atomic(src, KM_USER0);

	expect_raised_by(test, inside, before, 2);
	expect_restored(test, before);
	KUNIT_EXPECT_PTR_NE(test, src, dst);
	KUNIT_EXPECT_PTR_EQ(test, src_seen, src_page);
	KUNIT_EXPECT_PTR_EQ(test, dst_seen, dst_page);
	KUNIT_EXPECT_TRUE(test, page_holds(dst_page, 0xc0b1));
	expect_unmapped(test, src_page, src);
	expect_unmapped(test, dst_page, dst);
	migrate_enable();
}

/*
 * 2.6's copy_user_highpage() order: KM_USER0, KM_USER1 mapped, KM_USER0
 * unmapped first. The first unmap must take its own mapping away and
 * leave the other one mapped, whose holder writes on through it; after the
 * second, both fault, the stack is as before, and the next map at the
 * same place (the same kmap_local entry without the slots) reaches its own
 * page, not a translation of the first one left in the TLB.
 */
static void release_in_map_order(struct kunit *test)
{
	struct page *a = best_page(6), *b = second_best_page(7), *c = best_page(8);
	int depth = kmap_local_depth(), depth_inside, a_read;
	struct page *a_seen, *b_seen;
	struct atomic_state before;
	u32 *src, *dst, *again, word;

	need_two_highmem(test, a, b);
	need_any_order(test);
	migrate_disable();
	fill_page(a, 0xa);
	fill_page(c, 0xc);
	before = atomic_state_now();
	src = kmap_atomic(a, KM_USER0);
	dst = kmap_atomic(b, KM_USER1);
	depth_inside = kmap_local_depth();
	memcpy(dst, src, PAGE_SIZE);
	kunmap_atomic(src, KM_USER0);
	a_seen = kmap_atomic_to_page(src);
	a_read = copy_from_kernel_nofault(&word, src, sizeof(word));
	b_seen = kmap_atomic_to_page(dst);
	fill(dst, 0xb);
	kunmap_atomic(dst, KM_USER1);
	expect_restored(test, before);
	KUNIT_EXPECT_EQ_MSG(test, depth_inside, depth + TYPED_ENTRIES(2),
			    "the two maps did not take the entries they should");
	KUNIT_EXPECT_EQ_MSG(test, kmap_local_depth(), depth,
			    "kmap_local's stack is not as before the two maps");

	again = kmap_atomic(c, KM_USER0);
	fill(again, 0xc2);
	kunmap_atomic(again, KM_USER0);

	KUNIT_EXPECT_PTR_EQ_MSG(test, a_seen, NULL, "KM_USER0 still maps a page after its unmap");
	KUNIT_EXPECT_EQ_MSG(test, a_read, -EFAULT, "KM_USER0 can be read after its unmap");
	KUNIT_EXPECT_PTR_EQ_MSG(test, b_seen, b,
				"KM_USER1 lost its page when KM_USER0 was unmapped");
	KUNIT_EXPECT_TRUE_MSG(test, page_holds(b, 0xb),
			      "what was written through KM_USER1 is not in its page");
	KUNIT_EXPECT_TRUE_MSG(test, page_holds(a, 0xa),
			      "the first page changed after its unmap");
	KUNIT_EXPECT_TRUE_MSG(test, page_holds(c, 0xc2),
			      "the next map did not reach its own page");
	expect_unmapped(test, a, src);
	expect_unmapped(test, b, dst);
	expect_unmapped(test, c, again);
	migrate_enable();
}

/*
 * Few enough that without the reuse the stack's growth fails the case
 * before it reaches kmap_local's BUG() at KM_MAX_IDX entries.
 */
#define REMAPS 5

/*
 * Two mappings remapped in turn, each at its own page boundaries, as a
 * 2.6 scatterlist walk did with its source and destination: the older
 * one is always the one released, under the newer. Both keep their
 * pages all along, and the stack keeps two entries at most (without the
 * slots, released entries are taken again, not piled up).
 */

static void remap_in_turn(struct kunit *test)
{
	static const enum km_type types[] = { KM_USER0, KM_USER1 };
	struct page *pages[] = { best_page(9), second_best_page(10) };
	int depth = kmap_local_depth(), deepest = depth;
	unsigned int i, lost = 0;
	struct atomic_state before;
	u32 *addr[2];

	need_two_highmem(test, pages[0], pages[1]);
	need_any_order(test);
	migrate_disable();
	fill_page(pages[0], 0x90);
	fill_page(pages[1], 0x91);
	before = atomic_state_now();
	addr[0] = kmap_atomic(pages[0], KM_USER0);
	addr[1] = kmap_atomic(pages[1], KM_USER1);
	for (i = 0; i < REMAPS; i++) {
		unsigned int s = i % 2;

		kunmap_atomic(addr[s], types[s]);
		addr[s] = kmap_atomic(pages[s], types[s]);
		if (!holds(addr[0], 0x90) || !holds(addr[1], 0x91))
			lost++;
		deepest = max(deepest, kmap_local_depth());
	}
	kunmap_atomic(addr[0], KM_USER0);
	kunmap_atomic(addr[1], KM_USER1);

	expect_restored(test, before);
	KUNIT_EXPECT_EQ_MSG(test, lost, 0U, "a mapping lost its page when the other was remapped");
	KUNIT_EXPECT_LE_MSG(test, deepest, depth + TYPED_ENTRIES(2),
			    "kmap_local's stack grew with the remaps");
	KUNIT_EXPECT_EQ(test, kmap_local_depth(), depth);
	expect_unmapped(test, pages[0], addr[0]);
	expect_unmapped(test, pages[1], addr[1]);
	migrate_enable();
}

/*
 * Without the slots on x86-32, an unmap of a mapping already released is
 * reported and changes nothing: not the counts, not the other mapping.
 * With the slots, the kmap_atomic_misuse suite tests their refusals.
 */
static void unmap_twice_changes_nothing(struct kunit *test)
{
	struct page *a = best_page(11), *b = second_best_page(12);
	struct atomic_state before, released, after;
	int depth = kmap_local_depth();
	unsigned long reports;
	struct page *b_seen;
	u32 *src, *dst;

	if (IS_ENABLED(CONFIG_KMAP_ATOMIC_SLOTS) || !IS_ENABLED(CONFIG_KMAP_ATOMIC_ANY_ORDER))
		kunit_skip(test, "for kernels without the slots on x86-32");
	need_two_highmem(test, a, b);
	migrate_disable();
	before = atomic_state_now();
	src = kmap_atomic(a, KM_USER0);
	dst = kmap_atomic(b, KM_USER1);
	kunmap_atomic(src, KM_USER0);
	released = atomic_state_now();
	reports = kmap_atomic_reports();
	kmap_test_misuses();
	pr_info("KMAP-EXPECT-BEGIN an unmap of a released mapping\n");
	kunmap_atomic(src, KM_USER0);
	pr_info("KMAP-EXPECT-END an unmap of a released mapping\n");
	after = atomic_state_now();
	reports = kmap_atomic_reports() - reports;
	b_seen = kmap_atomic_to_page(dst);
	fill(dst, 0x77);
	kunmap_atomic(dst, KM_USER1);

	KUNIT_EXPECT_EQ_MSG(test, reports, 1UL, "the second unmap was not reported once");
	KUNIT_EXPECT_EQ_MSG(test, after.preempt, released.preempt,
			    "the second unmap gave back the preemption count again");
	KUNIT_EXPECT_EQ_MSG(test, after.pagefault, released.pagefault,
			    "the second unmap enabled page faults again");
	KUNIT_EXPECT_PTR_EQ_MSG(test, b_seen, b, "the second unmap took KM_USER1's mapping");
	KUNIT_EXPECT_TRUE(test, page_holds(b, 0x77));
	expect_restored(test, before);
	KUNIT_EXPECT_EQ(test, kmap_local_depth(), depth);
	migrate_enable();
}

/*
 * A released entry stays on kmap_local's stack while a newer mapping is
 * live above it. An interrupt that maps and unmaps meanwhile must not
 * take it (its own entries go above), and a context switch saves and
 * restores it as it is (here after kmap_local_page() above it, which
 * leaves the task preemptible). Then the release of the top pops both.
 */
struct irq_typed_map {
	struct irq_work work;
	struct page *page;
	void *addr;
	int depth_before, depth_inside, depth_after;
	bool ok, hardirq;
};

static void irq_typed_map_fn(struct irq_work *work)
{
	struct irq_typed_map *m = container_of(work, struct irq_typed_map, work);
	u32 *addr;

	m->hardirq = in_hardirq();
	m->depth_before = kmap_local_depth();
	addr = kmap_atomic(m->page, KM_IRQ0);
	m->addr = addr;
	m->depth_inside = kmap_local_depth();
	m->ok = holds(addr, 0x1e);
	kunmap_atomic(addr, KM_IRQ0);
	m->depth_after = kmap_local_depth();
}

static void released_entry_across_irq_and_schedule(struct kunit *test)
{
	struct irq_typed_map m = {
		.work = IRQ_WORK_INIT_HARD(irq_typed_map_fn),
		.page = best_page(13),
	};
	struct page *a = second_best_page(14), *l = best_page(15);
	int depth = kmap_local_depth(), depth_released, a_read;
	struct atomic_state before, released;
	struct page *a_seen;
	u32 *src, *local, word;
	bool local_ok;

	if (IS_ENABLED(CONFIG_KMAP_ATOMIC_SLOTS))
		kunit_skip(test, "with the slots, a typed map is not on kmap_local's stack");
	need_any_order(test);
	need_two_highmem(test, a, l);
	migrate_disable();
	fill_page(m.page, 0x1e);
	fill_page(l, 0x10ca1);
	before = atomic_state_now();
	src = kmap_atomic(a, KM_USER0);
	local = kmap_local_page(l);
	kunmap_atomic(src, KM_USER0);
	released = atomic_state_now();
	depth_released = kmap_local_depth();
	irq_work_queue(&m.work);
	irq_work_sync(&m.work);
	schedule_timeout_uninterruptible(1);
	local_ok = holds(local, 0x10ca1);
	a_seen = kmap_atomic_to_page(src);
	a_read = copy_from_kernel_nofault(&word, src, sizeof(word));
	kunmap_local(local);

	KUNIT_EXPECT_EQ_MSG(test, released.preempt, before.preempt,
			    "preemption is still off after the typed unmap: no switch was tested");
	KUNIT_EXPECT_EQ(test, released.pagefault, before.pagefault);
	KUNIT_EXPECT_EQ_MSG(test, depth_released, depth + TYPED_ENTRIES(1) + LOCAL_ENTRIES(1),
			    "the released entry and kmap_local_page()'s are not both on the stack");
	KUNIT_EXPECT_TRUE(test, m.hardirq);
	KUNIT_EXPECT_EQ(test, m.depth_before, depth_released);
	KUNIT_EXPECT_EQ_MSG(test, m.depth_inside, m.depth_before + TYPED_ENTRIES(1),
			    "the interrupt's map pushed no entry of its own");
	KUNIT_EXPECT_NE_MSG(test, (unsigned long)m.addr & PAGE_MASK, (unsigned long)src & PAGE_MASK,
			    "the interrupt's map took the task's released entry");
	KUNIT_EXPECT_TRUE_MSG(test, m.ok, "the interrupt's map did not reach its page");
	KUNIT_EXPECT_EQ_MSG(test, m.depth_after, m.depth_before,
			    "the interrupt left kmap_local's stack changed");
	KUNIT_EXPECT_TRUE_MSG(test, local_ok, "kmap_local_page() lost its page across the switch");
	KUNIT_EXPECT_PTR_EQ_MSG(test, a_seen, NULL,
				"the released mapping maps again after the switch");
	KUNIT_EXPECT_EQ(test, a_read, -EFAULT);
	KUNIT_EXPECT_EQ_MSG(test, kmap_local_depth(), depth,
			    "the release of the top did not pop the released entry");
	migrate_enable();
}

/* The task that preempts the holder on its CPU: maps the same type. */
struct preempter {
	struct page *page;
	void *addr;			/* where its map put the page */
	bool read_own, done;
	int cpu;
};

static int preempter_fn(void *arg)
{
	struct preempter *p = arg;
	u32 *addr = kmap_atomic(p->page, KM_USER0);

	p->addr = addr;
	p->read_own = holds(addr, 0xb0b);
	fill(addr, 0xb0b0);
	p->cpu = raw_smp_processor_id();
	kunmap_atomic(addr, KM_USER0);
	WRITE_ONCE(p->done, true);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/*
 * PREEMPT_RT holds a typed map with migration off, not preemption: a
 * task holding KM_USER0 may be preempted, and the task that runs next
 * on that CPU may map KM_USER0 too. Both keep their pages: kmap_local
 * puts each task's mappings back when it is switched in.
 */
static void preempted_holder_keeps_its_page(struct kunit *test)
{
	struct preempter p = { .page = best_page(16) };
	struct page *mine = second_best_page(17), *seen;
	unsigned long switches, deadline;
	struct task_struct *t;
	bool kept, preempted;
	int cpu;
	u32 *addr;

	if (!IS_ENABLED(CONFIG_PREEMPT_RT))
		kunit_skip(test, "a typed map holds preemption off without PREEMPT_RT");
	need_two_highmem(test, mine, p.page);
	fill_page(mine, 0xa0a);
	fill_page(p.page, 0xb0b);
	migrate_disable();
	cpu = raw_smp_processor_id();
	t = kthread_create_on_cpu(preempter_fn, &p, cpu, "kmap_preempter/%u");
	if (IS_ERR(t)) {
		migrate_enable();
		KUNIT_FAIL(test, "no preempting thread: %ld", PTR_ERR(t));
		return;
	}
	sched_set_fifo(t);
	addr = kmap_atomic(mine, KM_USER0);
	switches = current->nivcsw;
	wake_up_process(t);
	/* Busy, not sleeping: only a preemption lets the thread run here. */
	deadline = jiffies + 10 * HZ;
	while (!READ_ONCE(p.done) && time_before(jiffies, deadline))
		cpu_relax();
	preempted = current->nivcsw != switches;
	kept = holds(addr, 0xa0a);
	seen = kmap_atomic_to_page(addr);
	kunmap_atomic(addr, KM_USER0);
	migrate_enable();
	kthread_stop(t);

	KUNIT_ASSERT_TRUE_MSG(test, READ_ONCE(p.done),
			      "the FIFO thread on CPU %d did not run while the holder spun", cpu);
	KUNIT_EXPECT_TRUE_MSG(test, preempted, "the holder was not preempted");
	KUNIT_EXPECT_EQ(test, p.cpu, cpu);
	/* Both are their task's first kmap_local entry: one fixmap address. */
	KUNIT_EXPECT_PTR_EQ_MSG(test, p.addr, (void *)addr,
				"the preempting map took another address: no slot was shared");
	KUNIT_EXPECT_TRUE_MSG(test, p.read_own, "the preempting task read another page");
	KUNIT_EXPECT_TRUE_MSG(test, kept, "the preempted holder's mapping lost its page");
	KUNIT_EXPECT_PTR_EQ(test, seen, mine);
	KUNIT_EXPECT_TRUE(test, page_holds(mine, 0xa0a));
	KUNIT_EXPECT_TRUE_MSG(test, page_holds(p.page, 0xb0b0),
			      "the preempting task's write did not reach its page");
}

/* kmap_atomic_pfn(pfn, type) maps the frame. */
static void map_by_pfn(struct kunit *test)
{
	struct page *page = best_page(4);
	struct atomic_state before, inside;
	struct page *seen;
	bool ok;
	u32 *addr;

	KUNIT_ASSERT_NOT_NULL(test, page);
	migrate_disable();
	fill_page(page, 0xf00d);
	before = atomic_state_now();
	addr = kmap_atomic_pfn(page_to_pfn(page), KM_USER0);
	inside = atomic_state_now();
	ok = holds(addr, 0xf00d);
	seen = kmap_atomic_to_page(addr);
	kunmap_atomic(addr, KM_USER0);

	expect_raised_by(test, inside, before, 1);
	expect_restored(test, before);
	KUNIT_EXPECT_TRUE_MSG(test, ok, "the frame's data is not at the address");
	KUNIT_EXPECT_PTR_EQ(test, seen, page);
	expect_unmapped(test, page, addr);
	migrate_enable();
}

/*
 * 2.6's lowmem rule, which shmem relied on: ZERO_PAGE(0) mapped in KM_USER1
 * is unmapped by a pointer into slab memory, with no report (without the
 * slots nothing is counted, and kmap_local's own WARN would show instead).
 * Without the slots, CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP (which x86's
 * DEBUG_HIGHMEM selects) maps lowmem pages too, and the rule cannot hold.
 */
static void lowmem_unmap_by_another_pointer(struct kunit *test)
{
	unsigned long reports = kmap_atomic_reports();
	int depth = kmap_local_depth();
	struct atomic_state before;
	void *zero, *slab;

	if (!IS_ENABLED(CONFIG_KMAP_ATOMIC_SLOTS) &&
	    IS_ENABLED(CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP))
		kunit_skip(test, "kmap_local maps lowmem here (DEBUG_KMAP_LOCAL_FORCE_MAP)");
	slab = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, slab);
	before = atomic_state_now();
	zero = kmap_atomic(ZERO_PAGE(0), KM_USER1);
	kunmap_atomic(slab, KM_USER1);

	expect_restored(test, before);
	KUNIT_EXPECT_PTR_EQ(test, zero, page_address(ZERO_PAGE(0)));
	KUNIT_EXPECT_EQ_MSG(test, kmap_atomic_reports(), reports,
			    "a lowmem unmap by another lowmem pointer was reported");
	KUNIT_EXPECT_EQ_MSG(test, kmap_local_depth(), depth,
			    "a lowmem map left kmap_local's stack changed");
}

/*
 * Without the slots, 2.6's wrong pointer as a buggy driver runs it:
 * kmap_atomic(page, type), then kunmap_atomic(buf, type) with a lowmem
 * buffer, WRONG_LOOPS times with no corrective unmap, in a task, with
 * bottom halves off and in a hard interrupt. Each is reported and
 * releases the map it stands for, as with the slots: kmap_local's stack
 * stays where it was (kmap_local BUG()s past KM_MAX_IDX entries), and the
 * counts are given back once per map. With the slots, the
 * kmap_atomic_survive suite runs the same.
 */
#define WRONG_LOOPS	1000

enum wrong_where { WRONG_IN_TASK, WRONG_BH_OFF, WRONG_IN_HARDIRQ, WRONG_WHERE_NR };

static const char * const wrong_where_names[WRONG_WHERE_NR] = {
	"a task", "bottom halves off", "a hard interrupt",
};

static const enum km_type wrong_type[WRONG_WHERE_NR] = { KM_USER0, KM_SOFTIRQ0, KM_IRQ0 };

struct wrong_loop {
	struct irq_work work;
	struct page *page;
	u32 *buf;
	enum km_type type;
	unsigned int lost;
	int depth_before, depth_after;
	struct atomic_state before, after;
	bool hardirq;
};

static void wrong_pointer_loop(struct wrong_loop *w)
{
	unsigned int i;
	u32 *p;

	w->hardirq = in_hardirq();
	w->depth_before = kmap_local_depth();
	w->before = atomic_state_now();
	for (i = 0; i < WRONG_LOOPS; i++) {
		p = kmap_atomic(w->page, w->type);
		w->lost += !holds(p, 0x26b0);
		kunmap_atomic(w->buf, w->type);
	}
	w->depth_after = kmap_local_depth();
	w->after = atomic_state_now();
}

static void wrong_pointer_irq_fn(struct irq_work *work)
{
	wrong_pointer_loop(container_of(work, struct wrong_loop, work));
}

static void wrong_pointer_in_a_loop(struct kunit *test)
{
	struct page *page = best_page(16);
	unsigned long reports;
	unsigned int where;

	if (IS_ENABLED(CONFIG_KMAP_ATOMIC_SLOTS) || !IS_ENABLED(CONFIG_KMAP_ATOMIC_ANY_ORDER))
		kunit_skip(test, "for kernels without the slots on x86-32");
	need_two_highmem(test, page, page);
	fill_page(page, 0x26b0);
	kmap_test_misuses();
	migrate_disable();
	for (where = 0; where < WRONG_WHERE_NR; where++) {
		struct wrong_loop w = {
			.work = IRQ_WORK_INIT_HARD(wrong_pointer_irq_fn),
			.page = page,
			.type = wrong_type[where],
		};
		const char *name = wrong_where_names[where];

		w.buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, w.buf);
		reports = kmap_atomic_reports();
		pr_info("KMAP-EXPECT-BEGIN the wrong pointer in a loop in %s\n", name);
		if (where == WRONG_IN_HARDIRQ) {
			irq_work_queue(&w.work);
			irq_work_sync(&w.work);
			KUNIT_EXPECT_TRUE_MSG(test, w.hardirq,
					      "irq_work did not run in a hard interrupt");
		} else {
			if (where == WRONG_BH_OFF)
				local_bh_disable();
			wrong_pointer_loop(&w);
			if (where == WRONG_BH_OFF)
				local_bh_enable();
		}
		pr_info("KMAP-EXPECT-END the wrong pointer in a loop in %s\n", name);
		reports = kmap_atomic_reports() - reports;

		KUNIT_EXPECT_EQ_MSG(test, w.lost, 0U, "maps that did not show their page in %s",
				    name);
		KUNIT_EXPECT_EQ_MSG(test, reports, (unsigned long)WRONG_LOOPS,
				    "wrong pointers reported in %s", name);
		KUNIT_EXPECT_EQ_MSG(test, w.depth_after, w.depth_before,
				    "kmap_local's stack after the loop in %s", name);
		KUNIT_EXPECT_EQ_MSG(test, w.after.preempt, w.before.preempt,
				    "preempt_count() after the loop in %s", name);
		KUNIT_EXPECT_EQ_MSG(test, w.after.pagefault, w.before.pagefault,
				    "page-fault count after the loop in %s", name);
	}
	migrate_enable();
}

/*
 * The 2.6-correct code that looks like it draws no report and releases
 * nothing: a lowmem map over a highmem one, of another type, then of the
 * same type, each unmapped by another lowmem pointer (2.6's rule, which
 * shmem relied on), then the highmem one by its own address; and a lowmem
 * map of a type over a highmem one of that type, after an out-of-order
 * unmap of a highmem map made before it.
 */
static void lowmem_unmap_over_a_highmem_map(struct kunit *test)
{
	struct page *page = best_page(17), *other = second_best_page(18);
	int depth = kmap_local_depth();
	struct atomic_state before;
	bool kept, kept_same, kept_after_reorder;
	u32 *high, *above;
	void *slab;

	if (!IS_ENABLED(CONFIG_KMAP_ATOMIC_SLOTS) &&
	    IS_ENABLED(CONFIG_DEBUG_KMAP_LOCAL_FORCE_MAP))
		kunit_skip(test, "kmap_local maps lowmem here (DEBUG_KMAP_LOCAL_FORCE_MAP)");
	need_two_highmem(test, page, other);
	need_any_order(test);
	slab = kunit_kzalloc(test, 64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, slab);
	fill_page(page, 0x26c0);
	migrate_disable();
	before = atomic_state_now();
	high = kmap_atomic(page, KM_USER0);
	kmap_atomic(ZERO_PAGE(0), KM_USER1);
	kunmap_atomic(slab, KM_USER1);
	kept = holds(high, 0x26c0);
	kmap_atomic(ZERO_PAGE(0), KM_USER0);
	kunmap_atomic(slab, KM_USER0);
	kept_same = holds(high, 0x26c0);
	kunmap_atomic(high, KM_USER0);

	above = kmap_atomic(other, KM_USER1);
	high = kmap_atomic(page, KM_USER0);
	kunmap_atomic(above, KM_USER1);		/* out of order, legal in 2.6 */
	kmap_atomic(ZERO_PAGE(0), KM_USER0);
	kunmap_atomic(slab, KM_USER0);
	kept_after_reorder = holds(high, 0x26c0);
	kunmap_atomic(high, KM_USER0);
	migrate_enable();

	KUNIT_EXPECT_TRUE_MSG(test, kept, "a lowmem unmap of KM_USER1 took KM_USER0's map");
	KUNIT_EXPECT_TRUE_MSG(test, kept_same,
			      "a lowmem unmap of the lowmem KM_USER0 map took the highmem one under it");
	KUNIT_EXPECT_TRUE_MSG(test, kept_after_reorder,
			      "after an out-of-order unmap, a lowmem unmap took the highmem map under it");
	expect_restored(test, before);
	expect_unmapped(test, page, high);
	KUNIT_EXPECT_EQ(test, kmap_local_depth(), depth);
}

/* KM_IRQ0 in a hard interrupt, KM_SOFTIRQ0 with bottom halves off. */
struct irq_read {
	struct irq_work work;
	struct page *page;
	struct page *seen;
	bool ok;
	bool in_hardirq;
};

static void irq_read_fn(struct irq_work *work)
{
	struct irq_read *r = container_of(work, struct irq_read, work);
	unsigned long flags;
	u32 *addr;

	local_irq_save(flags);
	addr = kmap_atomic(r->page, KM_IRQ0);
	r->ok = holds(addr, 0x1bad);
	r->seen = kmap_atomic_to_page(addr);
	r->in_hardirq = in_hardirq();
	kunmap_atomic(addr, KM_IRQ0);
	local_irq_restore(flags);
}

static void interrupt_and_softirq_slots(struct kunit *test)
{
	struct irq_read r = {
		.work = IRQ_WORK_INIT_HARD(irq_read_fn),
		.page = second_best_page(5),
	};
	struct page *softirq_seen;
	bool softirq_ok;
	u32 *addr;

	KUNIT_ASSERT_NOT_NULL(test, r.page);
	migrate_disable();
	fill_page(r.page, 0x1bad);
	irq_work_queue(&r.work);
	irq_work_sync(&r.work);
	KUNIT_EXPECT_TRUE_MSG(test, r.in_hardirq, "irq_work did not run in a hard interrupt");
	KUNIT_EXPECT_TRUE(test, r.ok);
	KUNIT_EXPECT_PTR_EQ(test, r.seen, r.page);

	local_bh_disable();
	addr = kmap_atomic(r.page, KM_SOFTIRQ0);
	softirq_ok = holds(addr, 0x1bad);
	softirq_seen = kmap_atomic_to_page(addr);
	kunmap_atomic(addr, KM_SOFTIRQ0);
	local_bh_enable();
	KUNIT_EXPECT_TRUE(test, softirq_ok);
	KUNIT_EXPECT_PTR_EQ(test, softirq_seen, r.page);
	expect_unmapped(test, r.page, addr);
	migrate_enable();
}

static struct kunit_case kmap_atomic_api_cases[] = {
	KUNIT_CASE_PARAM(map_write_unmap, kind_params),
	KUNIT_CASE(copy_between_two_slots),
	KUNIT_CASE(release_in_map_order),
	KUNIT_CASE(remap_in_turn),
	KUNIT_CASE(unmap_twice_changes_nothing),
	KUNIT_CASE(released_entry_across_irq_and_schedule),
	KUNIT_CASE(preempted_holder_keeps_its_page),
	KUNIT_CASE(map_by_pfn),
	KUNIT_CASE(lowmem_unmap_by_another_pointer),
	KUNIT_CASE(wrong_pointer_in_a_loop),
	KUNIT_CASE(lowmem_unmap_over_a_highmem_map),
	KUNIT_CASE(interrupt_and_softirq_slots),
	{}
};

static struct kunit_suite kmap_atomic_api_suite = {
	.name = "kmap_atomic_api",
	.suite_init = test_chunks_get,
	.suite_exit = test_chunks_put,
	.init = kmap_test_quiet_init,
	.exit = kmap_test_quiet_exit,
	.test_cases = kmap_atomic_api_cases,
};

kunit_test_suite(kmap_atomic_api_suite);

MODULE_DESCRIPTION("KUnit tests of the typed atomic kmap API, with the typed slots or without them");
MODULE_LICENSE("GPL");
