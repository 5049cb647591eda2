"""Measuring accelerated programs: what `idiom bench` and the benchmarks report.

`bench` times original against accelerated binaries, alternately, and finds each program's
ceiling; `ceiling` is the time the accelerated work takes in the library alone, from the
runtime's `IDIOM_STATS` lines; `paired` gives a confidence interval from paired runs;
`compare` compares a program's output with its accelerated version's; `launches` reads the
GPU benchmarks' figures on launches from those lines.
"""
