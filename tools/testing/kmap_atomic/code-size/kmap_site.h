/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kmap_site.c's call sites: exported, so that they stay, and declared
 * here for -Wmissing-prototypes (on by default since 6.12).
 */
#ifndef _KMAP_SITE_H
#define _KMAP_SITE_H

#include <linux/types.h>

struct page;

void site_none(struct page *page, u32 v);
void site_typed(struct page *page, u32 v);
void site_untyped(struct page *page, u32 v);
void site_local(struct page *page, u32 v);

#endif
