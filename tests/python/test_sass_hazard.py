"""The wgmma register hazards, checked statically in the built library's sm_90a code.

A wgmma reads its A fragment registers (register-A form) and its accumulators asynchronously until a wait retires
it; ptxas once gave such registers to the next tap's loads across a loop back-edge (Session 27's RX race). The checker
(dev/python/sass_wgmma_hazard.py) walks the SASS; here it runs on the library that the tests load, and on small
hand-written SASS to show it tells a hazard from a safe schedule. Needs no GPU: only a CUDA build and cuobjdump
(the CUDA toolkit's, or pip's nvidia-cuda-cuobjdump and nvidia-cuda-nvdisasm, which .ci/run installs).
"""
import importlib.util
import os
import subprocess

import pytest

import convt1d
from helpers import REPO

_spec = importlib.util.spec_from_file_location("sass_wgmma_hazard",
                                               os.path.join(REPO, "dev", "python", "sass_wgmma_hazard.py"))
hz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hz)


def _sass(body):
    """cuobjdump-style text for one function from (opcode text) lines, 16 bytes apart."""
    lines = ["\t\tFunction : f"]
    for i, text in enumerate(body):
        lines.append(f"        /*{16 * i:04x}*/                   {text} ;   /* 0x0 */")
    return "\n".join(lines)


# A two-tap loop: each tap loads two fragments and issues two MMAs with a wait <= 1 after each.
def _loop(first_load_reg, wait_at_tap_start=False):
    return _sass([
        "MOV R2, RZ",                                              # 0x00
        "WARPGROUP.DEPBAR.LE gsb0, 0x0" if wait_at_tap_start else "NOP",  # 0x10: the loop head
        f"LDSM.16.MT88.4 R{first_load_reg}, [R2]",                # 0x20
        "LDSM.16.MT88.4 R104, [R2+0x10]",                         # 0x30
        "WARPGROUP.ARRIVE",
        "HGMMA.64x128x16.F32 R24, R100, gdesc[UR16], R24, gsb0",  # reads R100-103
        "WARPGROUP.DEPBAR.LE gsb0, 0x1",
        "WARPGROUP.ARRIVE",
        "HGMMA.64x128x16.F32 R24, R104, gdesc[UR16], R24, gsb0",  # reads R104-107: pending at the back-edge
        "WARPGROUP.DEPBAR.LE gsb0, 0x1",
        "IADD3 R2, R2, 0x1, RZ",
        "ISETP.NE.AND P0, PT, R2, 0x4, PT",
        "@P0 BRA 0x10",
        "WARPGROUP.DEPBAR.LE gsb0, 0x0",
        "EXIT",
    ])


def test_checker_finds_a_write_to_pending_fragment_registers():
    # The next tap's second load reuses R104-107 while the last MMA may still read them.
    funcs = hz.parse(_loop(100))
    found = hz.check(funcs["f"])
    assert [(a, regs) for a, _, regs, _, _ in found] == [(0x30, [104, 105, 106, 107])]
    # Both the write and the MMA it meets sit in the one block that loads with ldmatrix.
    assert found[0][4] == "ldsm_taps"


def test_checker_accepts_a_retired_fragment_or_a_wait():
    assert hz.check(hz.parse(_loop(100, wait_at_tap_start=True))["f"]) == []
    # Two taps per trip, the second tap's last fragment in other registers: no load meets a pending MMA's.
    tap = lambda last: [f"LDSM.16.MT88.4 R100, [R2]", f"LDSM.16.MT88.4 R{last}, [R2+0x10]", "WARPGROUP.ARRIVE",
                        "HGMMA.64x128x16.F32 R24, R100, gdesc[UR16], R24, gsb0", "WARPGROUP.DEPBAR.LE gsb0, 0x1",
                        "WARPGROUP.ARRIVE", f"HGMMA.64x128x16.F32 R24, R{last}, gdesc[UR16], R24, gsb0",
                        "WARPGROUP.DEPBAR.LE gsb0, 0x1"]
    body = ["MOV R2, RZ"] + tap(104) + tap(108) + ["IADD3 R2, R2, 0x1, RZ", "ISETP.NE.AND P0, PT, R2, 0x4, PT",
                                                  "@P0 BRA 0x10", "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"]
    assert hz.check(hz.parse(_sass(body))["f"]) == []
    # The same with both taps' last fragments in R104: the second tap's load meets the first's MMA.
    body = ["MOV R2, RZ"] + tap(104) + tap(104) + body[-5:]
    assert [a for a, *_ in hz.check(hz.parse(_sass(body))["f"])] == [0x20, 0xa0]


def test_checker_counts_groups_and_wait_depth():
    # Two MMAs in one group, then wait <= 1 with one newer group: both retired.
    body = ["WARPGROUP.ARRIVE",
            "HGMMA.64x64x16.F32 R24, R100, gdesc[UR8], R24",
            "HGMMA.64x64x16.F32 R24, R104, gdesc[UR8], R24, gsb0",
            "HGMMA.64x64x16.F32 R24, R108, gdesc[UR8], R24, gsb0",
            "WARPGROUP.DEPBAR.LE gsb0, 0x1",
            "MOV R100, RZ",   # retired: fine
            "MOV R105, RZ",   # retired: fine
            "MOV R110, RZ",   # its group is still pending
            "EXIT"]
    found = hz.check(hz.parse(_sass(body))["f"])
    assert [(regs, kind) for _, _, regs, _, kind in found] == [([110], "other")]


def test_checker_finds_a_pending_accumulator_touched():
    body = ["WARPGROUP.ARRIVE",
            "HGMMA.64x32x16.F32 R24, gdesc[UR4], R24, gsb0",   # accumulators R24-R39
            "FADD R40, R39, 1",                                 # read while pending
            "WARPGROUP.DEPBAR.LE gsb0, 0x0",
            "FADD R41, R39, 1",                                 # retired: fine
            "WARPGROUP.ARRIVE",
            "HGMMA.64x32x16.F32 R24, gdesc[UR4], R24",
            "HGMMA.64x32x16.F32 R24, gdesc[UR6], R24, gsb0",   # a chain of MMAs on one accumulator: fine
            "MOV R30, RZ",                                      # written while pending
            "WARPGROUP.DEPBAR.LE gsb0, 0x0",
            "EXIT"]
    found = hz.check(hz.parse(_sass(body))["f"])
    assert [(a, regs, kind) for a, _, regs, _, kind in found] == [(0x20, [39], "accumulator"),
                                                                  (0x80, [30], "accumulator")]


def test_checker_tells_ldmatrix_taps_from_other_hazards():
    # An ldmatrix tap and a tap of plain loads alternate by a branch; the plain tap's load meets the ldmatrix tap's
    # pending MMA: not an ldmatrix-tap hazard (only two ldmatrix taps in a row are kept from running, by run_rs).
    body = ["MOV R2, RZ",                                                # 0x00
            "ISETP.NE.AND P0, PT, R2, 0x1, PT",                          # 0x10: loop head
            "@P0 BRA 0x80",                                              # 0x20
            "LDS R104, [R2]",                                            # 0x30: plain tap
            "WARPGROUP.ARRIVE",
            "HGMMA.64x128x16.F32 R24, R100, gdesc[UR16], R24, gsb0",
            "WARPGROUP.DEPBAR.LE gsb0, 0x1",
            "BRA 0xc0",                                                  # 0x70
            "LDSM.16.MT88.4 R104, [R2]",                                 # 0x80: ldmatrix tap
            "WARPGROUP.ARRIVE",
            "HGMMA.64x128x16.F32 R24, R104, gdesc[UR16], R24, gsb0",
            "WARPGROUP.DEPBAR.LE gsb0, 0x1",
            "IADD3 R2, R2, 0x1, RZ",                                     # 0xc0
            "ISETP.NE.AND P1, PT, R2, 0x4, PT",
            "@P1 BRA 0x10",
            "EXIT"]
    found = {a: kind for a, _, _, _, kind in hz.check(hz.parse(_sass(body))["f"])}
    assert found == {0x30: "other", 0x80: "ldsm_taps"}


@pytest.mark.skipif(not convt1d.has_cuda(), reason="a CPU-only build has no GPU code")
def test_built_library_has_no_register_a_hazard():
    tool = hz.find_cuobjdump()
    if tool is None:
        pytest.skip("no cuobjdump (CUDA toolkit or pip's nvidia-cuda-cuobjdump)")
    sass = subprocess.run([tool, "-sass", "-arch", "sm_90a", convt1d.library_path], capture_output=True, text=True,
                          timeout=600, check=True).stdout
    funcs = hz.parse(sass)
    checked = {n: ins for n, ins in funcs.items() if hz.uses_wgmma(ins)}
    if not funcs:
        pytest.skip("the library has no sm_90a code (built for other GPUs only)")
    # The register-A forward (every element type and tile) among them.
    assert sum("fwd_wgmma_rs_kernel" in n and hz.uses_register_a(ins) for n, ins in checked.items()) >= 50
    # Two ldmatrix taps in a row (the 16-bit forward's taps whose shift is a multiple of 8) would meet: run_rs never
    # runs them so (ldmatrix off where the tap step is a multiple of 8; test_cuda_wgmma.py::
    # test_wgmma_rs_ldmatrix_taps runs those layers). Any other write to a pending MMA's registers fails here.
    bad = {n: [h for h in hz.check(ins) if h[4] != "ldsm_taps"] for n, ins in checked.items()}
    bad = {n: found for n, found in bad.items() if found}
    assert not bad, "\n".join(f"{n}: {found[:3]}" for n, found in bad.items())
