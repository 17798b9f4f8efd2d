/* The packed-weight cache of convt1d_forward_cuda_cached (include/convt1d.h): device copies of a weight in the
 * tensor-core forwards' layouts, kept across calls so that inference skips the packing pass.
 *
 * An entry is one layout (PackKey). While the call that made it queues the pack (`filling`), another call packs into
 * its own scratch: the copy is not written yet and no event says when it will be. Then an event is recorded after the
 * pack. A call on another stream waits for that event until it has completed once
 * (then `done`, and no call asks again). Memory is cudaMalloc'd (not the stream-ordered pool: the copies outlive the
 * calls and their streams) and freed by clear / destroy with cudaFree, which waits for the device first. */
#include <string.h>

#include <mutex>
#include <new>

#include "kernels.cuh"

namespace {

constexpr int kMaxEntries = 64; /* a grouped layer's views take one entry per group and layout */

struct Entry {
    PackKey key;
    void *ptr = nullptr;
    size_t bytes = 0;
    int dev = 0;
    cudaEvent_t ready = nullptr; /* recorded after the pack */
    cudaStream_t stream = nullptr; /* the stream the pack was queued on */
    bool filling = false;          /* the pack is not queued yet */
    bool done = false;             /* the pack has completed: nothing to wait for */
};

bool same_key(const PackKey &a, const PackKey &b) { return memcmp(a.v, b.v, sizeof(a.v)) == 0; }

bool capturing(cudaStream_t s) {
    cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    if (cudaStreamIsCapturing(s, &cs) != cudaSuccess) {
        cudaGetLastError();
        return true; /* unknown: do not fill or wait */
    }
    return cs != cudaStreamCaptureStatusNone;
}

void release(Entry &e) {
    int cur = 0;
    const bool have_cur = cudaGetDevice(&cur) == cudaSuccess;
    if (have_cur && cur != e.dev) cudaSetDevice(e.dev);
    if (e.ready) cudaEventDestroy(e.ready);
    if (e.ptr) cudaFree(e.ptr); /* waits for the device: no kernel still reads the copy */
    if (have_cur && cur != e.dev) cudaSetDevice(cur);
    cudaGetLastError();
    e = Entry();
}

} // namespace

struct convt1d_weight_cache {
    std::mutex mu;
    Entry entries[kMaxEntries];
    int n = 0;
    uint64_t uses = 0; /* launches served by a copy (read or filled) */
};

void weight_cache_get(convt1d_weight_cache *c, const PackKey &key, size_t bytes, cudaStream_t stream, void **wp,
                      bool *fill) {
    *wp = nullptr;
    *fill = false;
    int dev = 0;
    if (!c || cudaGetDevice(&dev) != cudaSuccess) return;
    std::lock_guard<std::mutex> lock(c->mu);
    for (int i = 0; i < c->n; ++i) {
        Entry &e = c->entries[i];
        if (e.dev != dev || e.bytes != bytes || !same_key(e.key, key)) continue;
        if (e.filling) return; /* by another call */
        if (!e.done) {
            /* Not known to be complete. A capture must not query an event (a call the global capture mode forbids) nor
             * wait on one recorded outside it: it packs into its scratch, until an eager call sees the pack done. */
            if (capturing(stream)) return;
            if (cudaEventQuery(e.ready) == cudaSuccess) {
                e.done = true;
            } else {
                cudaGetLastError(); /* cudaErrorNotReady */
                if (stream != e.stream && cudaStreamWaitEvent(stream, e.ready, 0) != cudaSuccess) {
                    cudaGetLastError();
                    return;
                }
            }
        }
        *wp = e.ptr;
        ++c->uses;
        return;
    }
    if (c->n == kMaxEntries || capturing(stream)) return;
    Entry &e = c->entries[c->n];
    e.dev = dev;
    if (cudaMalloc(&e.ptr, bytes) != cudaSuccess ||
        cudaEventCreateWithFlags(&e.ready, cudaEventDisableTiming) != cudaSuccess) {
        cudaGetLastError(); /* no memory for a copy: this call packs into its scratch as without a cache */
        release(e);
        return;
    }
    e.key = key;
    e.bytes = bytes;
    e.stream = stream;
    e.filling = true;
    ++c->n;
    ++c->uses;
    *wp = e.ptr;
    *fill = true;
}

void weight_cache_filled(convt1d_weight_cache *c, const void *wp, cudaStream_t stream) {
    std::lock_guard<std::mutex> lock(c->mu);
    for (int i = 0; i < c->n; ++i) {
        Entry &e = c->entries[i];
        if (e.ptr != wp) continue;
        if (cudaEventRecord(e.ready, stream) != cudaSuccess) {
            /* No event to order another stream after the pack: wait for it here, once. */
            cudaGetLastError();
            cudaStreamSynchronize(stream);
            cudaGetLastError();
            e.done = true;
        }
        e.filling = false;
        return;
    }
}

void weight_cache_failed(convt1d_weight_cache *c, const void *wp) {
    std::lock_guard<std::mutex> lock(c->mu);
    for (int i = 0; i < c->n; ++i) {
        if (c->entries[i].ptr != wp) continue;
        release(c->entries[i]);
        c->entries[i] = c->entries[--c->n];
        c->entries[c->n] = Entry();
        return;
    }
}

convt1d_status convt1d_weight_cache_create(convt1d_weight_cache **cache) {
    if (!cache) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "cache must not be NULL");
    *cache = new (std::nothrow) convt1d_weight_cache();
    if (!*cache) return convt1d_fail(CONVT1D_ERROR_OUT_OF_MEMORY, "weight cache: out of host memory");
    return CONVT1D_SUCCESS;
}

convt1d_status convt1d_weight_cache_clear(convt1d_weight_cache *cache) {
    if (!cache) return CONVT1D_SUCCESS;
    std::lock_guard<std::mutex> lock(cache->mu);
    for (int i = 0; i < cache->n; ++i) release(cache->entries[i]);
    cache->n = 0;
    return CONVT1D_SUCCESS;
}

void convt1d_weight_cache_destroy(convt1d_weight_cache *cache) {
    if (!cache) return;
    convt1d_weight_cache_clear(cache);
    delete cache;
}

convt1d_status convt1d_weight_cache_info(const convt1d_weight_cache *cache, size_t *bytes, int *entries,
                                         uint64_t *uses) {
    if (!cache) return convt1d_fail(CONVT1D_ERROR_NULL_POINTER, "cache must not be NULL");
    convt1d_weight_cache *c = const_cast<convt1d_weight_cache *>(cache);
    std::lock_guard<std::mutex> lock(c->mu);
    size_t b = 0;
    for (int i = 0; i < c->n; ++i) b += c->entries[i].bytes;
    if (bytes) *bytes = b;
    if (entries) *entries = c->n;
    if (uses) *uses = c->uses;
    return CONVT1D_SUCCESS;
}
