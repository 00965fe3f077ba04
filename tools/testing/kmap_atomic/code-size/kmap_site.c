// SPDX-License-Identifier: GPL-2.0
/*
 * What one call site of each kind of map + unmap costs in text: each
 * function maps a page, writes a word and unmaps it; site_none writes
 * through page_address() only, and is taken off the others by
 * scripts/code-size.sh. Built, never loaded.
 */
#include <linux/highmem.h>
#include <linux/module.h>

#include "kmap_site.h"

noinline void site_none(struct page *page, u32 v)
{
	WRITE_ONCE(*(u32 *)page_address(page), v);
}
EXPORT_SYMBOL_GPL(site_none);

noinline void site_typed(struct page *page, u32 v)
{
	u32 *addr = kmap_atomic(page, KM_USER0);

	WRITE_ONCE(*addr, v);
	kunmap_atomic(addr, KM_USER0);
}
EXPORT_SYMBOL_GPL(site_typed);

noinline void site_untyped(struct page *page, u32 v)
{
	u32 *addr = kmap_atomic(page);

	WRITE_ONCE(*addr, v);
	kunmap_atomic(addr);
}
EXPORT_SYMBOL_GPL(site_untyped);

noinline void site_local(struct page *page, u32 v)
{
	u32 *addr = kmap_local_page(page);

	WRITE_ONCE(*addr, v);
	kunmap_local(addr);
}
EXPORT_SYMBOL_GPL(site_local);

MODULE_DESCRIPTION("Text per call site of typed and upstream kmaps (make bench)");
MODULE_LICENSE("GPL");
