/* The cost model of IDIOM_DEVICE=auto (idiom_policy.c); not part of the ABI.
 *
 * A launch is worth making where the device does its work in less host time than the loop:
 *
 *   host  = the larger of work * IDIOM_HOST_NS_PER_WORK  (default 0.5 ns per iteration)
 *           and the bytes of the arrays the loop reads and writes / IDIOM_HOST_GBS
 *           (default 12 GB/s: one core streaming; a loop over large arrays is bound by
 *           memory, not by its iterations; checks are weighed by their work only)
 *           + bytes newer on the device that the loop reads or writes / bandwidth
 *   each  = overhead + kernel + every-call bytes / IDIOM_TRANSFER_GBS
 *   once  = bytes the device does not hold yet, of buffers that stay there, / bandwidth
 *           + bytes of such buffers the launch writes / bandwidth, where that opens a window:
 *           the host will want them back when it next touches them (NAS SP class B opened
 *           4000 windows that saved their upload and then copied 6.7 GB back)
 *   (bandwidth: IDIOM_TRANSFER_GBS, default 8 GB/s)
 *
 * `overhead` (the host time of a launch beside its kernel, default IDIOM_LAUNCH_US = 20 us)
 * and `kernel` (per unit of work) are measured on the site's launches that moved little data
 * (its first excepted: it loads the kernel), a moving average. A site (a kernel of a program)
 * that declines as "the host is faster" with its data on the device launches again at its
 * 16th, 64th, 256th, ... such decline to measure again. A launch goes to the device
 * when its work reaches IDIOM_GPU_MIN_WORK and it pays its copies alone (host - each >=
 * once; large enough alone, until a window of its site closed early), or when each < host
 * and the data is there (once = 0). When the data is not there, the upload is paid only for a window:
 * the launches that follow on the same device data. The site rents first: it declines, adding
 * up what it lost (host - each), until that reaches the upload (times its backoff), then
 * uploads; from then on its launches find their data there, until the host touches it. A window
 * that closes before it saved its upload multiplies the site's backoff by how many times it
 * fell short (2 to 8); one that saved it marks
 * the site as having long windows, and such a site uploads at its first call the next time.
 * This loses at most about twice the best choice made knowing the future (the ski rental).
 *
 * A check (a kernel finding the range of indices a sparse product or a histogram will use)
 * does little work itself, but declining it runs the original loop in place of the launch it
 * checks for: its work is weighed as its own times the ratio of that launch's work to it,
 * measured on the launch that follows it (16 until then).
 *
 * Loading the OpenCL platform and creating the device's context is paid once per process
 * (0.22 s for PoCL on a 2-core machine, 0.33 s on an H200 machine): before it is loaded, a
 * launch the model would make declines until what the launches so far would have gained
 * (host - each, all sites together) reaches a quarter of that start-up, the same ski rental
 * with the model's host estimates taken as the lower bounds they are. The start-up is
 * measured where it happens and remembered with the program's sites (IDIOM_START_UP_MS fixes
 * it; 300 ms until measured), and so is whether the program's launches of its last run that
 * loaded the platform gained more than the whole start-up: such a program loads it at its first
 * launch, and one whose launches did not waits until the launches would have gained all of it
 * (a class W NAS SP on the H200 machine, 2.7 s, lost 0.3-0.5 s at every run to loading the
 * platform for launches that gained less than it).
 *
 * `overhead` is first measured on launches that wait for their kernels; a launch that returns
 * before its kernel ran (its outputs stay on the device) costs the host only its own time,
 * which is what later such launches of the site cost: the lower of the two is kept. Under
 * auto, NAS CG class B's launches on resident data took a median of 40.6 us of host time on
 * the H200 machine against 11.5 us under gpu, and its vector updates declined 2,869 times as
 * slower than the host's loop (docs/results/nas_cg_b_h200_warps_2026-11-30.json).
 */
#ifndef IDIOM_POLICY_H
#define IDIOM_POLICY_H

#include <stdint.h>

#include "idiom_internal.h"

typedef struct {
    int64_t work;             /* the launch's iterations, as the guard counted them */
    int64_t upload_bytes;     /* bytes of buffers that stay on the device, not there yet */
    int64_t every_call_bytes; /* bytes copied in and back at every launch (not resident) */
    int64_t declining_bytes;  /* bytes newer on the device that the loop would need back */
    int64_t touched_bytes;    /* bytes of every array the launch reads or writes */
    int64_t written_bytes;    /* bytes of buffers it writes that stay on the device */
    int64_t resident_bytes;   /* bytes of buffers that stay on the device and are there */
    int check;                /* the launch checks what a launch after it will use */
    int platform_loaded;      /* the device's OpenCL platform and context are up */
} idiom_launch_cost;

typedef struct {
    int device;         /* 1: launch; 0: decline */
    const char *reason; /* a static string, for IDIOM_STATS and IDIOM_VERBOSE */
    double host;        /* the model's estimates, in seconds */
    double launch;
} idiom_choice;

/* The choice for a launch of site `key` on `device` (its kind, "GPU" or "CPU": with the
   program, the key of what is remembered). Counts the choice in the site's rental. */
IDIOM_HIDDEN idiom_choice idiom__policy_choose(uint64_t key, const char *device,
                                               const idiom_launch_cost *cost);

/* A launch of site `key` that moved (almost) nothing took `seconds` of host time, `kernel` of
   them on the device. */
IDIOM_HIDDEN void idiom__policy_measured(uint64_t key, int64_t work, double seconds,
                                         double kernel);

/* A launch of site `key` that returned before its kernel ran (its outputs stay on the device)
   took `seconds` of host time: what such a launch costs the program, since its kernel runs
   beside the host. */
IDIOM_HIDDEN void idiom__policy_launched(uint64_t key, double seconds);

/* Loading the OpenCL platform and the device's context took `seconds`. */
IDIOM_HIDDEN void idiom__policy_started(double seconds);

/* Under auto, asked once per process before any launch: 1 where this run of the program
   should run as compiled (the original world, no launch at all), because the last rewritten
   run of the program with the same arguments gained less than a twentieth of its time with
   its launches on `device`; then the next
   1, 2, 4, ... up to 16 runs do, before one tries the device again. Otherwise 0, and this
   run's gains are judged at exit. A run's wall time, where one as compiled with the same
   arguments was timed, overrules the estimates by more than 25% and 0.1 s either way; a short
   rewritten run that the estimates say gained sends the next run to the original world once,
   to be timed (IDIOM_AUTO_CHECK=0: estimates only). */
IDIOM_HIDDEN int idiom__policy_runs_as_compiled(const char *device);

/* Whether this run will load the platform at its first launch on `device`: the program's last
   run that loaded it gained more than the start-up, and this run is not one to run as
   compiled. Reads what earlier runs learnt (once); changes nothing. */
IDIOM_HIDDEN int idiom__policy_loads_at_first_launch(const char *device);

/* Whether site `key` wants its launch measured (it has few measurements, or this launch is
   a probe): such a launch waits for its kernel, so that its cost can be timed. */
IDIOM_HIDDEN int idiom__policy_measuring(uint64_t key);

#endif /* IDIOM_POLICY_H */
