/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the tests of typed atomic kmaps (the KUnit suites and the stress
 * test): the kinds of page a mapping may hold, and a bounded search of the
 * buddy allocator for physically contiguous chunks of each kind.
 */
#ifndef _MM_KMAP_ATOMIC_TEST_PAGES_H
#define _MM_KMAP_ATOMIC_TEST_PAGES_H

#include <linux/gfp.h>
#include <linux/highmem.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/pfn.h>
#include <linux/sizes.h>

enum page_kind { LOWMEM, HIGHMEM_BELOW_4G, HIGHMEM_ABOVE_4G, PAGE_KIND_NR };

static const char * const page_kind_names[PAGE_KIND_NR] = {
	[LOWMEM] = "lowmem",
	[HIGHMEM_BELOW_4G] = "highmem",
	[HIGHMEM_ABOVE_4G] = "above-4G",
};

#define KMAP_TEST_CHUNK_ORDER	5
#define KMAP_TEST_CHUNK_PAGES	BIT(KMAP_TEST_CHUNK_ORDER)
/*
 * Chunks looked at, at most: 4 GiB of them. Enough for the machines the
 * tests boot (6 GiB); with more highmem (PAE allows 64 GiB) a kind may be
 * missed, and need_kind() then says so.
 */
#define KMAP_TEST_CHUNK_TRIES	(SZ_4G >> (PAGE_SHIFT + KMAP_TEST_CHUNK_ORDER))

static inline enum page_kind kmap_test_page_kind(struct page *page)
{
	if (!PageHighMem(page))
		return LOWMEM;
	return PFN_PHYS(page_to_pfn(page)) >= SZ_4G ? HIGHMEM_ABOVE_4G : HIGHMEM_BELOW_4G;
}

static inline void kmap_test_chunks_put(struct list_head got[PAGE_KIND_NR])
{
	struct page *page, *next;
	enum page_kind kind;

	for (kind = 0; kind < PAGE_KIND_NR; kind++) {
		list_for_each_entry_safe(page, next, &got[kind], lru) {
			list_del(&page->lru);
			__free_pages(page, KMAP_TEST_CHUNK_ORDER);
		}
	}
}

/*
 * Put @want chunks of each kind on @got[kind], as far as the machine has
 * them; @nr[kind] says how many. Highmem comes in no particular physical
 * order: take chunks until there are enough of each kind this machine has,
 * highmem runs out (the allocator falls back to lowmem) or
 * KMAP_TEST_CHUNK_TRIES have been looked at, then give the rest back.
 * Above 4 GiB is looked for only when the highmem zone reaches there, and
 * no highmem chunk waits for reclaim (__GFP_NORETRY): a test that finds no
 * page of a kind skips or says so, it does not squeeze the machine. 0, or
 * -ENOMEM when even the lowmem chunks cannot be had (then nothing is kept).
 */
static inline int kmap_test_chunks_get(struct list_head got[PAGE_KIND_NR],
				       unsigned int nr[PAGE_KIND_NR], unsigned int want)
{
	const gfp_t gfp = __GFP_NOWARN | __GFP_NORETRY;
	bool above_4g = false;	/* known from the first highmem chunk's zone */
	struct page *page, *next;
	enum page_kind kind;
	unsigned long tries;
	LIST_HEAD(spare);

	for (kind = 0; kind < PAGE_KIND_NR; kind++) {
		INIT_LIST_HEAD(&got[kind]);
		nr[kind] = 0;
	}
	for (; nr[LOWMEM] < want; nr[LOWMEM]++) {
		/* Lowmem is always there: this one may reclaim. */
		page = alloc_pages(GFP_KERNEL | __GFP_NOWARN, KMAP_TEST_CHUNK_ORDER);
		if (!page) {
			kmap_test_chunks_put(got);
			return -ENOMEM;
		}
		list_add_tail(&page->lru, &got[LOWMEM]);
	}
	for (tries = 0; totalhigh_pages() && tries < KMAP_TEST_CHUNK_TRIES; tries++) {
		if (nr[HIGHMEM_BELOW_4G] >= want && (nr[HIGHMEM_ABOVE_4G] >= want || !above_4g))
			break;
		page = alloc_pages(GFP_HIGHUSER | gfp, KMAP_TEST_CHUNK_ORDER);
		if (!page)
			break;
		if (!PageHighMem(page)) {
			__free_pages(page, KMAP_TEST_CHUNK_ORDER);
			break;
		}
		above_4g = zone_end_pfn(page_zone(page)) > PHYS_PFN(SZ_4G);
		/* A chunk is aligned to its size: all of it is of one kind. */
		kind = kmap_test_page_kind(page);
		if (nr[kind] < want) {
			list_add_tail(&page->lru, &got[kind]);
			nr[kind]++;
		} else {
			list_add(&page->lru, &spare);
		}
	}
	list_for_each_entry_safe(page, next, &spare, lru) {
		list_del(&page->lru);
		__free_pages(page, KMAP_TEST_CHUNK_ORDER);
	}
	return 0;
}

#endif /* _MM_KMAP_ATOMIC_TEST_PAGES_H */
