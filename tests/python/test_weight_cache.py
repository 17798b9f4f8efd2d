"""The packed-weight cache (convt1d_forward_cuda_cached; ConvTranspose1d.cache_packed_weights).

A cached call must give the uncached call's bits (same kernels, same packed values), launch no packing pass once the
copy exists, repack when the weight changes in a way autograd counts, and compute as without a cache wherever it does
not serve (gradients, CPU). The GPU tests skip without a GPU; the module tests on CPU run everywhere."""
import copy
import pickle

import pytest
import torch

import convt1d
from convt1d import _lib
from helpers import cuda_ready, kernels_run, rel_err

# Layers of the kinds the tensor-core forwards pack for (register-A stride 8, batch 1, grouped, stride 1 dilated)
# and one too small for them.
LAYERS = [
    dict(name="rs_stride8", N=2, Cin=256, Cout=128, K=16, L=512, stride=8, padding=4, groups=1, dilation=1),
    dict(name="batch1_x8", N=1, Cin=512, Cout=256, K=16, L=200, stride=8, padding=4, groups=1, dilation=1),
    dict(name="grouped2", N=2, Cin=256, Cout=256, K=4, L=1024, stride=2, padding=1, groups=2, dilation=1),
    dict(name="stride1_dil3", N=2, Cin=64, Cout=64, K=3, L=4096, stride=1, padding=0, groups=1, dilation=3),
    dict(name="tiny", N=1, Cin=4, Cout=4, K=3, L=16, stride=2, padding=1, groups=1, dilation=1),
]
MODES = {"tf32": (torch.float32, True), "strict": (torch.float32, False), "f16": (torch.float16, True),
         "bf16": (torch.bfloat16, True)}

cuda = pytest.mark.skipif(not cuda_ready(), reason="needs a CUDA GPU and a CUDA build of libconvt1d")


@pytest.fixture
def tf32_flag():
    old = torch.backends.cudnn.allow_tf32
    yield
    torch.backends.cudnn.allow_tf32 = old


def make_module(c, dtype, device):
    torch.manual_seed(hash(c["name"]) % 1000)
    return convt1d.ConvTranspose1d(c["Cin"], c["Cout"], c["K"], stride=c["stride"], padding=c["padding"],
                                   groups=c["groups"], dilation=c["dilation"], bias=True, device=device, dtype=dtype)


def new_input(c, dtype, device):
    return torch.randn(c["N"], c["Cin"], c["L"], dtype=dtype, device=device)


def reference(c, x, m):
    """The layer's output in float64 (cuDNN), from m's current weight and bias."""
    return torch.nn.functional.conv_transpose1d(x.double(), m.weight.detach().double(), m.bias.detach().double(),
                                                stride=c["stride"], padding=c["padding"], groups=c["groups"],
                                                dilation=c["dilation"])


def packs(names):
    """Launches of the forward's weight packing pass (wgmma_pack_kernel<TY>; the SS kernel's wgmma_prepass_kernel<TY>,
    which packs and transposes the input; the scalar wgmma_transpose_kernel<TY, true> under CONVT1D_WGMMA_PACK=0)."""
    return sum(1 for n in names if "wgmma_pack_kernel" in n or "wgmma_prepass_kernel" in n
               or ("wgmma_transpose_kernel" in n and "true>" in n))


@cuda
@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("c", LAYERS, ids=[c["name"] for c in LAYERS])
def test_cached_forward_same_bits_no_pack(c, mode, tf32_flag):
    dtype, tf32 = MODES[mode]
    torch.backends.cudnn.allow_tf32 = tf32
    m = make_module(c, dtype, "cuda")
    x1, x2 = new_input(c, dtype, "cuda"), new_input(c, dtype, "cuda")
    out = {}
    with torch.no_grad():
        plain = kernels_run(lambda: out.__setitem__("y", m(x1)))
        expect1 = out["y"]
        expect2 = m(x2)
        m.cache_packed_weights()
        first = kernels_run(lambda: out.__setitem__("y", m(x1)))
        assert torch.equal(out["y"], expect1)
        second = kernels_run(lambda: out.__setitem__("y", m(x2)))
        y = out["y"]
        assert torch.equal(y, expect2)
    nbytes, entries, uses = m._wcache.info()
    # Where the uncached forward packs, the first cached call packs into the cache and the next one reads it; where it
    # does not, the cached call reads no copy and holds none.
    assert packs(first) == packs(plain)
    assert packs(second) == 0
    assert (entries > 0) == (packs(plain) > 0) and (nbytes > 0) == (entries > 0)
    assert uses == 2 * packs(plain)
    if c["name"] == "rs_stride8" and torch.cuda.get_device_capability() == (9, 0):
        assert entries > 0  # the register-A forward packs on sm_90: the cache must serve it
    # The result is the layer's, not just the uncached call's: float64 reference by cuDNN.
    assert rel_err(y, reference(c, x2, m)) <= {"tf32": 5e-3, "strict": 1e-5, "f16": 2e-3, "bf16": 1e-2}[mode]


@cuda
def test_cache_follows_versioned_writes_and_clear():
    c = LAYERS[0]
    m = make_module(c, torch.float32, "cuda").cache_packed_weights()
    x = new_input(c, torch.float32, "cuda")
    with torch.no_grad():
        y0 = m(x)
        m.weight.mul_(2)  # counted by the version counter: repacked
        y1 = m(x)
        assert rel_err(y1 - m.bias.view(1, -1, 1), 2 * (y0 - m.bias.view(1, -1, 1))) <= 1e-6
        if m._wcache.info()[1] == 0:
            pytest.skip("this GPU's forward packs nothing for this layer")
        m.weight.data.mul_(0.5)  # not counted: the cache keeps the copy of 2 * w (the documented contract)
        assert torch.equal(m(x), y1)
        m.clear_weight_cache()
        assert torch.equal(m(x), y0)
        m.weight.copy_(m.weight.flip(0))  # a new weight of the same storage: version counted
        assert rel_err(m(x), reference(c, x, m)) <= 5e-3


@cuda
def test_cache_other_stream_graph_and_grad():
    c = LAYERS[0]
    m = make_module(c, torch.bfloat16, "cuda").cache_packed_weights()
    x = new_input(c, torch.bfloat16, "cuda")
    with torch.no_grad():
        expect = m(x)  # filled on the current stream
        s = torch.cuda.Stream()
        s.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(s):
            y = m(x)
        torch.cuda.current_stream().wait_stream(s)
        assert torch.equal(y, expect)
        # Captured after the copy exists: the graph reads the copy.
        static_x = x.clone()
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            gy = m(static_x)
        x2 = new_input(c, torch.bfloat16, "cuda")
        static_x.copy_(x2)
        g.replay()
        torch.cuda.synchronize()
        m.cache_packed_weights(False)
        assert torch.equal(gy, m(x2))
    # With gradients the cache does not serve; training works as without it.
    m.cache_packed_weights()
    xg = x.clone().requires_grad_()
    m(xg).float().square().sum().backward()
    assert xg.grad is not None and m.weight.grad is not None and torch.isfinite(m.weight.grad.float()).all()


def test_module_cache_api_on_cpu():
    """On CPU the cache is never used: same results; copies and pickles leave the cache behind."""
    c = LAYERS[4]
    m = make_module(c, torch.float32, "cpu")
    x = new_input(c, torch.float32, "cpu")
    expect = m(x)
    assert m.cache_packed_weights() is m and m._wcache_on
    with torch.no_grad():
        assert torch.equal(m(x), expect)
    m._wcache = _lib.WeightCache()
    assert m._wcache.info() == (0, 0, 0)
    for clone in (copy.deepcopy(m), pickle.loads(pickle.dumps(m))):
        assert clone._wcache is None and clone._wcache_on
        with torch.no_grad():
            assert torch.equal(clone(x), expect)
    m.cache_packed_weights(False)
    assert not m._wcache_on and m._wcache_key is None
