// SPDX-FileCopyrightText: 2026 The tessera authors
// SPDX-License-Identifier: Apache-2.0
// The tessera executable's jemalloc settings, read by jemalloc when it
// starts; MALLOC_CONF in the environment still overrides them.
//
// thp:always: jemalloc asks the kernel for transparent huge pages for its
// memory (madvise, so it works under the kernel's default "madvise" mode).
// Filter and Score walk thousands of node infos per cycle, scattered over
// the heap; with 4 KiB pages nearly every visit also misses the TLB, and a
// miss is dear in a virtual machine (two page tables to walk). Huge pages
// took simulate at 100,000 nodes from 754-768 to 2,001-2,088 pods/s, and cut
// the first-touch page faults of short runs (docs/benchmarks.md).
#ifdef TESSERA_JEMALLOC

extern "C" {
extern const char* malloc_conf;
const char* malloc_conf = "thp:always";
}

#endif
