"""Public programs nobody here wrote, original against accelerated: Rodinia's OpenMP
programs (built serial), LLNL's LULESH, ANL's XSBench, the HPCG reference benchmark, the
Livermore Loops and a handful of MiBench's programs.

None is ever part of the repository or of a test: fetch them next to the project (for
instance `yuhc/gpu-rodinia`, `LLNL/LULESH`, `ANL-CESAR/XSBench`, `hpcg-benchmark/hpcg`,
`pjmore/parallel-livermore` and `embecosm/mibench`) and point this script at Rodinia's
`openmp` folder, LULESH's own, XSBench's `openmp-threading` and the top folders of the
others:

    .venv/bin/python benchmarks/public_differential.py [--rodinia PATH/openmp]
        [--lulesh PATH] [--xsbench PATH/openmp-threading] [--hpcg PATH]
        [--livermore PATH] [--mibench PATH] [--only NAME ...] [--json FILE]
        [--mode forced-cpu|forced-gpu|...] [--keep DIR [--build-only]] [--from DIR]

`--keep DIR --build-only` builds the binaries and inputs into DIR, and `--from DIR` runs
them on another machine (a GPU's, without the compiler).

Each program that prints or writes its results is built three ways from its own sources
(`clang-22 -O2`; `idiom accelerate`; `idiom accelerate --no-reassociate`), without
`-fopenmp`: a header of serial stand-ins for the OpenMP calls they make is written into a
private folder. Inputs are small, made up (hotspot's grids written here), so that every
replacement can be forced onto the CPU's OpenCL device (`forced-cpu`: every threshold at
1) in a few minutes. The exact build must print or write the original's output, every
number equal; the reassociating one within a relative tolerance (srad's single-
precision sums of a region, amplified by its diffusion, move its output by about 2e-5).
Lines that print timings are left out. The launches that ran (`IDIOM_STATS`) are counted,
so a replacement that silently fell back shows. Exit status 1 when any run disagrees.

HPCG is built serial (`-DHPCG_NO_MPI -DHPCG_NO_OPENMP`, every `src/*.cpp`) and run on a
16x16x16 grid with `--rt=0`, its "QuickPath": one CG set, so that nothing it runs depends
on a measured time (with a running time the number of timed CG sets is the running time
over the slowest CG's). It prints nothing; it writes a log and a key=value report, both
named after the time they were written, so each run has its own working folder and the
two files are found by their patterns. Compared: the log (iteration counts and scaled
residuals of its spectral tests, its departures from symmetry, the timed set's scaled
residual) and the report but for the values of keys that hold a time or a rate (setup,
kernel and total times, GB/s, GFLOP/s, the ratings of its final summary line, which keeps
its "VALID" or "INVALID"). Some of its figures are rounding noise: the scaled residuals
of converged or 50-iteration CGs (1e-14 to 1e-41) and the departures from symmetry,
|x'Ay - y'Ax| in units of epsilon, which a dot product summed in another order moves by
any amount (a tree-summed one rounds x'Ay and y'Ax to the same double, a departure of 0);
the reassociating build is not held to them (the last number of such a line is left out),
HPCG's own checks of them are: its symmetry and spectral tests' PASSED or FAILED, its
residual's check, its "VALID". The exact build is held to every one of them.

The Livermore Loops are Roy Longbottom's C version of the 24 kernels (`lloops.c`, with
its `cpuidc.c`), which runs each kernel at three spans for about a second each (its
running time is fixed, not its size: some 80 seconds; forced, one to two million
launches) and prints a table of checksums, one row a kernel. Of a row only the kernel's
number, its passes, its flops a pass, its span, its checksum and its number of correct
digits are compared (`fields`: the extra loops, the total of flops, the seconds and the
MFLOPS depend on the clock); the reassociating build is not held to the digits (those of
its checksum equal to its reference's, which the checksum's last bit moves). The lines of
its calibration, its rates, the CPU's clock in its copy of /proc/cpuinfo and a debugging
line (`q=%f, r=%f, t=%f` of two doubles and an array: the third number is whatever a
register holds, printed once a calibration round, and the rounds depend on the clock)
are left out.

MiBench's programs are run on the small inputs of their `runme_small.sh` (CRC32 on
`small.pcm`: the large one it names is not in the repository), copied at build time from
the suite's folder (`inputs`) into a folder of the program's own, `{inputs}` in its
arguments, so that `--from` finds them. Built `-std=gnu89` (implicit `int`s and
declarations). Left out: rijndael (its `aesxam.c` does arithmetic on an `fpos_t`, a
struct in glibc: it does not compile), and what needs more than its own folder (jpeg,
lame, tiff, ghostscript...). Susan runs its three modes and a fourth, edges' "principle"
(`-e -p`), the one that runs the loop it replaces. Programs whose output is binary
(susan's images, blowfish's ciphertext, adpcm's and gsm's codes) are compared byte for
byte (`binary`: 16 bytes a line, in hexadecimal); adpcm reads its samples on its
standard input (`stdin`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from benchmarks.real_differential import MODES
from measure.compare import first_difference

ROOT = Path(__file__).resolve().parents[1]
SERIAL_OMP = """/* Serial stand-ins for the OpenMP calls (the programs are built without OpenMP). */
#ifndef SERIAL_OMP_H
#define SERIAL_OMP_H
#include <time.h>
static inline double omp_get_wtime(void) {
  struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static inline void omp_set_num_threads(int n) { (void)n; }
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_max_threads(void) { return 1; }
static inline int omp_get_thread_num(void) { return 0; }
static inline int omp_get_num_procs(void) { return 1; }
#ifdef SERIAL_FIXED_TIME /* a program that seeds from the clock: the same seed every run */
#define time(t) ((time_t)1700000000)
#endif
#endif
"""
TIMING_WORDS = ("time", "took", "consumed", "fom", "lookups/s")
REPLACED = re.compile(r"(\d+) idiom instance\(s\) found, (\d+) replaced")
LAST_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?=\D*$)")


@dataclass(frozen=True)
class Program:
    # "rodinia" (its openmp folder), "lulesh", "xsbench" (openmp-threading), "hpcg",
    # "livermore", "mibench"
    suite: str
    name: str
    sources: tuple[str, ...]  # relative to the suite's folder, or patterns (`src/*.cpp`)
    # `{out}` is the output file, `{dir}` the scratch folder, `{inputs}` the copies of
    # `inputs`
    args: tuple[str, ...]
    output_file: bool = False  # the results are written to `{out}`, else printed
    flags: tuple[str, ...] = ()  # -I folders relative to the suite's; an absolute one stays
    tolerance: float = 1e-5  # for the reassociating build
    # Files the program writes under names not fixed (patterns, one file each, read in
    # this order) in a working folder of its own, instead of what it prints or `{out}`.
    output_files: tuple[str, ...] = ()
    timing_words: tuple[str, ...] = ()  # besides TIMING_WORDS
    keep_keys: bool = False  # of a timing line `key=value`, keep `key=` (not drop it)
    # Lines whose last number is rounding noise, left out for the reassociating build.
    noisy: tuple[str, ...] = ()
    # A pattern of named groups: a line it matches (from its start) is compared as
    # `name=value` of each group, the rest left out (a line that mixes results and
    # timings); before `timing_words` and `noisy` apply.
    fields: str = ""
    inputs: tuple[str, ...] = ()  # files relative to the suite's folder, into `{inputs}`
    stdin: str = ""  # a file (placeholders as in `args`) read on the standard input
    binary: bool = False  # the output is bytes: compared as hexadecimal, 16 bytes a line


PROGRAMS = (
    Program(
        "rodinia",
        "srad",
        ("srad/srad_v2/srad.cpp",),
        ("256", "256", "0", "127", "0", "127", "1", "0.5", "2"),
        flags=("-DOUTPUT",),
        tolerance=1e-4,
    ),
    Program(
        "rodinia",
        "lud",
        ("lud/omp/lud.c", "lud/omp/lud_omp.c", "lud/common/common.c"),
        ("-v", "-s", "256"),
        flags=("-Ilud/common",),
    ),
    Program(
        "rodinia",
        "streamcluster",
        ("streamcluster/streamcluster_omp.cpp",),
        ("5", "10", "8", "512", "512", "100", "none", "{out}", "1"),
        output_file=True,
    ),
    Program(
        "rodinia",
        "particlefilter",
        ("particlefilter/ex_particle_OPENMP_seq.c",),
        ("-x", "64", "-y", "64", "-z", "5", "-np", "2000"),
        flags=("-std=gnu89", "-DSERIAL_FIXED_TIME"),
    ),
    Program(
        "rodinia",
        "hotspot",
        ("hotspot/hotspot_openmp.cpp",),
        ("128", "128", "20", "1", "{dir}/temp2d", "{dir}/power2d", "{out}"),
        output_file=True,
    ),
    Program(
        "rodinia",
        "hotspot3D",
        ("hotspot3D/3D.c",),
        ("64", "8", "20", "{dir}/power3d", "{dir}/temp3d", "{out}"),
        output_file=True,
    ),
    Program(
        "lulesh",
        "lulesh",
        ("lulesh.cc", "lulesh-comm.cc", "lulesh-viz.cc", "lulesh-util.cc", "lulesh-init.cc"),
        ("-s", "20", "-i", "100"),
        flags=("-DUSE_MPI=0", "-I."),
    ),
    Program(
        "xsbench",
        "xsbench",
        ("Main.c", "io.c", "Simulation.c", "GridInit.c", "XSutils.c", "Materials.c"),
        ("-s", "small", "-l", "100000", "-m", "event"),  # a checksum of every lookup
        flags=("-std=gnu99",),
    ),
    *(
        Program(
            "hpcg",
            name,
            ("src/*.cpp",),
            ("--nx=16", "--ny=16", "--nz=16", "--rt=0"),  # QuickPath: one CG set, not timed
            flags=("-DHPCG_NO_MPI", "-DHPCG_NO_OPENMP", "-Isrc", *extra),
            output_files=("hpcg2*.txt", "HPCG-Benchmark_*.txt"),  # its log, its report
            timing_words=("gflop/s", "gb/s", "rating"),
            keep_keys=True,
            noisy=("scaled residual", "departure"),
        )
        # Its rows allocated one by one, or padded in one block each (its build option).
        for name, extra in (("hpcg", ()), ("hpcg-contiguous", ("-DHPCG_CONTIGUOUS_ARRAYS",)))
    ),
    Program(
        "livermore",
        "livermore",
        ("lloops.c", "cpuidc.c"),
        ("N",),  # no pause for a line of comments at the end
        flags=("-std=gnu89",),
        # number, passes, x extra loops, flops, total flops, seconds, MFLOPS (the last two
        # may run together), span, checksum, correct digits
        fields=(
            r"\s*(?P<kernel>\d+)\s+(?P<passes>\d+) x\s*\d+\s+(?P<flops>\d+)\s.*"
            r"\s(?P<span>\d+)\s+(?P<checksum>\S+)\s+(?P<digits>\d+)\s*$"
        ),
        timing_words=("seconds", "rate", "mean", "mhz", "q="),
        noisy=("digits=",),  # its checksum's digits equal to its reference's: the last ulp
    ),
    Program(
        "mibench",
        "basicmath",
        (
            "automotive/basicmath/basicmath_small.c",
            "automotive/basicmath/rad2deg.c",
            "automotive/basicmath/cubic.c",
            "automotive/basicmath/isqrt.c",
        ),
        (),
        flags=("-std=gnu89",),
    ),
    Program(
        "mibench",
        "bitcount",
        (
            "automotive/bitcount/bitcnt_[1-4].c",
            "automotive/bitcount/bitcnts.c",
            "automotive/bitcount/bitfiles.c",
            "automotive/bitcount/bitstrng.c",
            "automotive/bitcount/bstr_i.c",
        ),
        ("75000",),
        flags=("-std=gnu89",),
        fields=r"(?P<counter>.*\S)\s*> Time:.*Bits: (?P<bits>\d+)",  # not its time
        timing_words=("best", "worst"),  # the fastest and the slowest counter
    ),
    Program(
        "mibench",
        "qsort",
        ("automotive/qsort/qsort_small.c",),
        ("{inputs}/input_small.dat",),
        flags=("-std=gnu89",),
        inputs=("automotive/qsort/input_small.dat",),
    ),
    *(
        Program(
            "mibench",
            f"susan-{mode}",
            ("automotive/susan/susan.c",),
            ("{inputs}/input_small.pgm", "{out}", *options),
            output_file=True,
            flags=("-std=gnu89",),
            inputs=("automotive/susan/input_small.pgm",),
            binary=True,
        )
        for mode, options in (
            ("smoothing", ("-s",)),
            ("edges", ("-e",)),
            ("corners", ("-c",)),
            ("principle", ("-e", "-p")),  # not in runme_small.sh: its one replaced loop
        )
    ),
    Program(
        "mibench",
        "dijkstra",
        ("network/dijkstra/dijkstra_small.c",),
        ("{inputs}/input.dat",),
        flags=("-std=gnu89",),
        inputs=("network/dijkstra/input.dat",),
    ),
    Program(
        "mibench",
        "patricia",
        ("network/patricia/patricia.c", "network/patricia/patricia_test.c"),
        ("{inputs}/small.udp",),
        flags=("-std=gnu89", "-I/usr/include/tirpc"),  # its <rpc/rpc.h>
        inputs=("network/patricia/small.udp",),
    ),
    Program(
        "mibench",
        "stringsearch",
        ("office/stringsearch/bmh*srch.c", "office/stringsearch/pbmsrch_small.c"),
        (),
        flags=("-std=gnu89",),
    ),
    Program(
        "mibench",
        "sha",
        ("security/sha/sha.c", "security/sha/sha_driver.c"),
        ("{inputs}/input_small.asc",),
        flags=("-std=gnu89",),
        inputs=("security/sha/input_small.asc",),
    ),
    Program(
        "mibench",
        "blowfish",
        tuple(
            f"security/blowfish/bf{s}.c"
            for s in ("", "_cbc", "_cfb64", "_ecb", "_enc", "_ofb64", "_skey")
        ),
        ("e", "{inputs}/input_small.asc", "{out}", "1234567890abcdeffedcba0987654321"),
        output_file=True,
        flags=("-std=gnu89",),
        inputs=("security/blowfish/input_small.asc",),
        binary=True,
    ),
    Program(
        "mibench",
        "crc32",
        ("telecomm/CRC32/crc_32.c",),
        ("{inputs}/small.pcm",),
        flags=("-std=gnu89",),
        inputs=("telecomm/adpcm/data/small.pcm",),
    ),
    Program(
        "mibench",
        "fft",
        ("telecomm/FFT/main.c", "telecomm/FFT/fftmisc.c", "telecomm/FFT/fourierf.c"),
        ("4", "4096"),
        flags=("-std=gnu89",),
    ),
    Program(
        "mibench",
        "fft-inverse",
        ("telecomm/FFT/main.c", "telecomm/FFT/fftmisc.c", "telecomm/FFT/fourierf.c"),
        ("4", "8192", "-i"),
        flags=("-std=gnu89",),
    ),
    Program(
        "mibench",
        "adpcm-encode",
        ("telecomm/adpcm/src/adpcm.c", "telecomm/adpcm/src/rawcaudio.c"),
        (),
        flags=("-std=gnu89",),
        inputs=("telecomm/adpcm/data/small.pcm",),
        stdin="{inputs}/small.pcm",
        binary=True,
    ),
    Program(
        "mibench",
        "adpcm-decode",
        ("telecomm/adpcm/src/adpcm.c", "telecomm/adpcm/src/rawdaudio.c"),
        (),
        flags=("-std=gnu89",),
        inputs=("telecomm/adpcm/data/small.adpcm",),
        stdin="{inputs}/small.adpcm",
        binary=True,
    ),
    *(
        Program(
            "mibench",
            f"gsm-{name}",
            ("telecomm/gsm/src/*.c",),
            ("-fps", *option, "-c", f"{{inputs}}/{file}"),  # toast; -d: untoast
            flags=(
                "-std=gnu89",
                "-DSASR",
                "-DSTUPID_COMPILER",
                "-DNeedFunctionPrototypes=1",
                "-Wno-error=incompatible-pointer-types",
                "-Itelecomm/gsm/inc",
            ),
            inputs=(f"telecomm/gsm/data/{file}",),
            binary=True,
        )
        for name, option, file in (
            ("encode", (), "small.au"),
            ("decode", ("-d",), "small.au.run.gsm"),
        )
    ),
)


@dataclass
class Row:
    program: str
    build: str
    agrees: bool
    difference: str | None
    launches: dict[str, int] = field(default_factory=dict)
    replaced: str = ""


def write_inputs(folder: Path) -> None:
    """hotspot's temperatures and powers, one value a line: made up, reproducible."""
    rng = random.Random(5)
    for name, count in (("2d", 128 * 128), ("3d", 64 * 64 * 8)):
        temps = "".join(f"{320 + 10 * rng.random():.6f}\n" for _ in range(count))
        powers = "".join(f"{1e-3 * rng.random():.9f}\n" for _ in range(count))
        (folder / f"temp{name}").write_text(temps)
        (folder / f"power{name}").write_text(powers)


def build(program: Program, root: Path, folder: Path) -> dict[str, str]:
    """The three binaries (`original`, `accelerated`, `exact`) in `folder`, and the
    program's `inputs` copied into its own; for the two accelerated ones, how many
    instances were found and replaced."""
    if program.inputs:
        inputs = folder / f"{program.name}.inputs"
        inputs.mkdir(exist_ok=True)
        for name in program.inputs:
            shutil.copyfile(root / name, inputs / Path(name).name)
    sources = [
        str(path)
        for s in program.sources
        for path in (sorted(root.glob(s)) if any(c in s for c in "*?[") else [root / s])
    ]
    flags = [f"-I{folder}", "-include", "omp.h", "-w"]
    flags += [f"-I{root / f[2:]}" if f.startswith("-I") else f for f in program.flags]
    cxx = any(s.endswith((".cpp", ".cc", ".cxx")) for s in sources)
    clang = "clang++-22" if cxx else "clang-22"
    original = folder / f"{program.name}.original"
    subprocess.run([clang, "-O2", *flags, *sources, "-o", str(original), "-lm"], check=True)
    idiom = [sys.executable, "-m", "cli.main", "accelerate", *(f"-X={f}" for f in flags)]
    replaced = {}
    for name, extra in (("accelerated", []), ("exact", ["--no-reassociate"])):
        binary = folder / f"{program.name}.{name}"
        done = subprocess.run([*idiom, *extra, "-o", str(binary), *sources], cwd=ROOT,
                              capture_output=True, text=True, check=True)  # fmt: skip
        said = " ".join(done.stdout.split())
        counts = REPLACED.search(said)
        replaced[name] = f"{counts[2]} of {counts[1]} replaced" if counts else "?"
        if "no idiom found" in said:
            replaced[name] = "0 of 0 replaced"
    return replaced


def run(
    program: Program, binary: Path, env: dict[str, str], folder: Path
) -> tuple[str, Counter[str]]:
    """The program's results (printed or written) without timing lines, and its launches."""
    out = folder / f"{binary.name}.out"
    stats = folder / f"{binary.name}.stats"
    stats.unlink(missing_ok=True)
    places = {"out": out, "dir": folder, "inputs": folder / f"{program.name}.inputs"}
    args = [a.format(**places) for a in program.args]
    environment = {**os.environ, **env, "IDIOM_STATS": str(stats)}
    cwd = folder
    if program.output_files:  # a working folder of its own, for files named as it likes
        cwd = Path(tempfile.mkdtemp(prefix=f"{binary.name}-", dir=folder))
    with open(program.stdin.format(**places) if program.stdin else os.devnull, "rb") as feed:
        done = subprocess.run([str(binary), *args], env=environment, cwd=cwd, stdin=feed,
                              capture_output=True, check=False)  # fmt: skip
    output = out.read_bytes() if program.output_file and out.exists() else done.stdout
    text = hexadecimal(output) if program.binary else output.decode(errors="replace")
    if program.output_files:
        text = "".join(written(cwd, pattern) for pattern in program.output_files)
    words = TIMING_WORDS + program.timing_words
    kept = []
    for whole in text.splitlines():
        match = re.match(program.fields, whole) if program.fields else None
        line = " ".join(f"{k}={v}" for k, v in match.groupdict().items()) if match else whole
        if not any(w in line.lower() for w in words):
            kept.append(line)
        elif program.keep_keys and "=" in line:
            kept.append(line.rsplit("=", 1)[0] + "=")
    launches: Counter[str] = Counter()
    if stats.exists():
        for line in stats.read_text().splitlines():
            record = json.loads(line)
            if record.get("entry") == "cl_run" and record.get("status") == 0:
                launches[str(record.get("kernel"))] += 1
    return f"exit {done.returncode}\n" + "\n".join(kept), launches


def hexadecimal(output: bytes) -> str:
    """`output` 16 bytes a line, each byte in hexadecimal (two digits, spaced: no word of
    a line reads as a number), after its offset."""
    return "".join(
        f"{start:08x}: {output[start : start + 16].hex(' ')}\n"
        for start in range(0, len(output), 16)
    )


def written(cwd: Path, pattern: str) -> str:
    """The one file in `cwd` named by `pattern`, under a line naming the pattern."""
    found = sorted(cwd.glob(pattern))
    if len(found) != 1:
        return f"== {pattern}: {len(found)} files\n"
    return f"== {pattern}\n{found[0].read_text()}"


def without_noise(text: str, words: tuple[str, ...]) -> str:
    """`text` with the last number of each line holding one of `words` left out."""
    if not words:
        return text
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if any(w in line.lower() for w in words):
            lines[number] = LAST_NUMBER.sub("(noise)", line, count=1)
    return "\n".join(lines)


def evaluate(program: Program, folder: Path, mode: str, replaced: dict[str, str]) -> list[Row]:
    expected, _ = run(program, folder / f"{program.name}.original", {}, folder)
    rows = []
    for name in ("accelerated", "exact"):
        produced, launches = run(program, folder / f"{program.name}.{name}", MODES[mode], folder)
        if name == "exact":
            difference = first_difference(expected, produced, tolerance=0.0)
        else:
            difference = first_difference(
                without_noise(expected, program.noisy),
                without_noise(produced, program.noisy),
                tolerance=program.tolerance,
            )
        rows.append(Row(program.name, name, difference is None, difference, dict(launches),
                        replaced[name]))  # fmt: skip
    return rows


def build_all(args: argparse.Namespace, folder: Path) -> dict[str, dict[str, str]]:
    """Every program asked for, built into `folder` with its inputs; what each build
    replaced, also written to `folder/built.json` (read by `--from`)."""
    roots = {
        "rodinia": args.rodinia,
        "lulesh": args.lulesh,
        "xsbench": args.xsbench,
        "hpcg": args.hpcg,
        "livermore": args.livermore,
        "mibench": args.mibench,
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "omp.h").write_text(SERIAL_OMP)
    write_inputs(folder)
    built = {}
    for program in PROGRAMS:
        root = roots[program.suite]
        if root is not None and (not args.only or program.name in args.only):
            built[program.name] = build(program, root.resolve(), folder)
    (folder / "built.json").write_text(json.dumps(built, indent=1))
    return built


def print_row(row: Row) -> None:
    print(
        f"{row.program:15} {row.build:11} agrees={row.agrees} "
        f"launches={sum(row.launches.values())} {row.replaced}",
        flush=True,
    )
    if row.difference:
        print(f"    {row.difference[:300]}", flush=True)


def add_kept_build_arguments(parser: argparse.ArgumentParser) -> None:
    """`--keep DIR [--build-only]`, `--from DIR` and `--json FILE`, as the public code's
    differential scripts take them."""
    parser.add_argument("--keep", type=Path, help="build into this folder and keep it")
    parser.add_argument("--build-only", action="store_true", help="with --keep: build, run nothing")
    parser.add_argument(
        "--from", dest="built", type=Path, help="run what --keep built there, building nothing"
    )
    parser.add_argument("--json", type=Path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rodinia", type=Path, help="Rodinia's openmp folder")
    parser.add_argument("--lulesh", type=Path, help="LULESH's folder")
    parser.add_argument("--xsbench", type=Path, help="XSBench's openmp-threading folder")
    parser.add_argument("--hpcg", type=Path, help="HPCG's folder (its src/ and setup/)")
    parser.add_argument("--livermore", type=Path, help="the Livermore Loops' (lloops.c)")
    parser.add_argument("--mibench", type=Path, help="MiBench's folder (automotive/ ...)")
    parser.add_argument("--mode", default="forced-cpu", choices=list(MODES))
    parser.add_argument("--only", nargs="+", help="program names")
    add_kept_build_arguments(parser)
    args = parser.parse_args()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="idiom-public-") as scratch:
        if args.built is not None:
            folder = args.built.resolve()
            built = json.loads((folder / "built.json").read_text())
        else:
            folder = (args.keep or Path(scratch)).resolve()
            built = build_all(args, folder)
        if args.build_only:
            return
        for program in PROGRAMS:
            if program.name in built:
                for row in evaluate(program, folder, args.mode, built[program.name]):
                    rows.append(row)
                    print_row(row)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    sys.exit(0 if all(r.agrees for r in rows) else 1)


if __name__ == "__main__":
    main()
