/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_KMAP_TYPES_H
#define _ASM_X86_KMAP_TYPES_H

/*
 * x86-32 uses the generic slot list, enum km_type with its context table.
 * With CONFIG_KMAP_ATOMIC_SLOTS each slot is one fixmap page per CPU: slot
 * 'idx' (an enum km_type, or a spare after KM_TYPE_NR) of CPU 'cpu' is
 * FIX_KMAP_ATOMIC_BEGIN + cpu * KM_SLOTS_PER_CPU + idx * KM_SLOT_STRIDE +
 * KM_SLOT_STRIDE - 1 (<asm/fixmap.h>, kmap_atomic_slot_addr()).
 */
#include <linux/cache.h>
#include <linux/threads.h>
#include <asm/pgtable_types.h>
#include <asm-generic/kmap_types.h>

/*
 * Each CPU writes only its own slots' ptes. Its block of ptes fills whole
 * cache lines (64 bytes, or L1_CACHE_BYTES where that is larger), and the
 * range starts on a line, so no two CPUs' ptes share a line.
 */
#define KM_PTE_LINE_BYTES	(L1_CACHE_BYTES > 64 ? L1_CACHE_BYTES : 64)
#define KM_PTES_PER_LINE	(KM_PTE_LINE_BYTES / sizeof(pte_t))

/*
 * With CONFIG_DEBUG_KMAP_ATOMIC each slot's page has a page that is never
 * mapped above it (and the next slot's below), so that running off either
 * end of a mapped page faults instead of landing in another slot.
 */
#ifdef CONFIG_DEBUG_KMAP_ATOMIC
#define KM_SLOT_STRIDE		2
#else
#define KM_SLOT_STRIDE		1
#endif

/* The fixmap pages of one CPU: its slots, their guards, padding to a line. */
#define KM_SLOTS_PER_CPU						\
	(((KM_TYPE_NR + KM_SPARE_SLOTS) * KM_SLOT_STRIDE +		\
	  KM_PTES_PER_LINE - 1) / KM_PTES_PER_LINE * KM_PTES_PER_LINE)

/* The fixmap pages the slots take: KM_SLOTS_PER_CPU per possible CPU. */
#define KM_FIXMAP_PAGES		(KM_SLOTS_PER_CPU * NR_CPUS)

/*
 * The first slot's fixmap index, rounded up from @free, the first free
 * index: FIXADDR_TOP is the last page of a page table (fixmap index 0 is
 * its last pte), so with an index that is a multiple of KM_SLOTS_PER_CPU
 * (which divides PTRS_PER_PTE) each CPU's block starts on a cache line and
 * lies in one page table.
 */
#define KM_FIXMAP_BEGIN(free)						\
	(((free) + KM_SLOTS_PER_CPU - 1) / KM_SLOTS_PER_CPU * KM_SLOTS_PER_CPU)

#endif /* _ASM_X86_KMAP_TYPES_H */
