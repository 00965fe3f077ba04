/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the KUnit suites of typed atomic kmaps: one physically contiguous
 * chunk of pages of each kind (lowmem, highmem below 4 GiB, highmem above),
 * found once per suite. Each suite that includes this has its own.
 */
#ifndef _MM_KMAP_ATOMIC_KUNIT_PAGES_H
#define _MM_KMAP_ATOMIC_KUNIT_PAGES_H

#include <kunit/test.h>
#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/pfn.h>
#include <linux/sizes.h>
#include <asm/pgtable_types.h>

enum page_kind { LOWMEM, HIGHMEM_BELOW_4G, HIGHMEM_ABOVE_4G, PAGE_KIND_NR };

static const char * const page_kind_names[PAGE_KIND_NR] = {
	[LOWMEM] = "lowmem",
	[HIGHMEM_BELOW_4G] = "highmem",
	[HIGHMEM_ABOVE_4G] = "above-4G",
};

#define CHUNK_ORDER	4
#define CHUNK_PAGES	BIT(CHUNK_ORDER)
static struct page *chunks[PAGE_KIND_NR];

static struct page *test_page(enum page_kind kind, unsigned int n)
{
	return chunks[kind] + n % CHUNK_PAGES;
}

static enum page_kind kind_of(struct page *page)
{
	if (!PageHighMem(page))
		return LOWMEM;
	return PFN_PHYS(page_to_pfn(page)) >= SZ_4G ? HIGHMEM_ABOVE_4G : HIGHMEM_BELOW_4G;
}

/*
 * Highmem comes from the buddy allocator in no particular physical order:
 * allocate until a chunk of each kind turns up, then give the rest back.
 * A lowmem chunk means highmem has run out (or there is none): stop there.
 */
static int test_chunks_get(struct kunit_suite *suite)
{
	bool above_4g = IS_ENABLED(CONFIG_PHYS_ADDR_T_64BIT);
	struct page *page, *next;
	unsigned int tries;
	LIST_HEAD(spare);

	chunks[LOWMEM] = alloc_pages(GFP_KERNEL, CHUNK_ORDER);
	for (tries = 0; IS_ENABLED(CONFIG_HIGHMEM) && tries < 65536; tries++) {
		if (chunks[HIGHMEM_BELOW_4G] && (chunks[HIGHMEM_ABOVE_4G] || !above_4g))
			break;
		page = alloc_pages(GFP_HIGHUSER | __GFP_NOWARN, CHUNK_ORDER);
		if (!page)
			break;
		if (!PageHighMem(page)) {
			__free_pages(page, CHUNK_ORDER);
			break;
		}
		if (!chunks[kind_of(page)])
			chunks[kind_of(page)] = page;
		else
			list_add(&page->lru, &spare);
	}
	list_for_each_entry_safe(page, next, &spare, lru) {
		list_del(&page->lru);
		__free_pages(page, CHUNK_ORDER);
	}
	return 0;
}

static void test_chunks_put(struct kunit_suite *suite)
{
	enum page_kind kind;

	for (kind = 0; kind < PAGE_KIND_NR; kind++) {
		if (chunks[kind])
			__free_pages(chunks[kind], CHUNK_ORDER);
		chunks[kind] = NULL;
	}
}

/*
 * The kernel's pte for @vaddr, through lookup_address(), which a module may
 * call (virt_to_kpte() needs init_mm, which it may not).
 */
static inline pte_t *kernel_pte(unsigned long vaddr)
{
	unsigned int level;
	pte_t *ptep = lookup_address(vaddr, &level);

	return ptep && level == PG_LEVEL_4K ? ptep : NULL;
}

/*
 * Does this machine have pages of @kind? Highmem starts below 4 GiB; it
 * reaches above when the highmem zone ends there.
 */
static bool kind_exists(enum page_kind kind)
{
	struct page *high = chunks[HIGHMEM_BELOW_4G] ?: chunks[HIGHMEM_ABOVE_4G];

	if (kind == LOWMEM)
		return true;
	if (kind == HIGHMEM_BELOW_4G)
		return totalhigh_pages() != 0;
	return high && zone_end_pfn(page_zone(high)) > PHYS_PFN(SZ_4G);
}

/* Skip where the machine has no such page; fail where the finder missed it. */
static void need_kind(struct kunit *test, enum page_kind kind)
{
	if (chunks[kind])
		return;
	KUNIT_ASSERT_FALSE_MSG(test, kind_exists(kind),
			       "this machine has %s pages, but no free chunk of them was found",
			       page_kind_names[kind]);
	kunit_skip(test, "no %s page in this machine (MEM=6G gives all three kinds)",
		   page_kind_names[kind]);
}

#endif /* _MM_KMAP_ATOMIC_KUNIT_PAGES_H */
