/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_X86_KMAP_TYPES_H
#define _ASM_X86_KMAP_TYPES_H

/*
 * x86-32 uses the generic slot list, enum km_type with its context table.
 * With CONFIG_KMAP_ATOMIC_SLOTS each slot is one fixmap page per CPU:
 * slot 'type' of CPU 'cpu' is
 * FIX_KMAP_ATOMIC_BEGIN + cpu * KM_SLOTS_PER_CPU + type
 * (<asm/fixmap.h>). One list for every architecture keeps code that names
 * the slots portable.
 */
#include <linux/threads.h>
#include <asm-generic/kmap_types.h>

/* The fixmap pages the slots take: KM_SLOTS_PER_CPU per possible CPU. */
#define KM_FIXMAP_PAGES		(KM_SLOTS_PER_CPU * NR_CPUS)

#endif /* _ASM_X86_KMAP_TYPES_H */
