#!/usr/bin/env python3
"""Reference values for the piecewise motions (inertia, sequence), at 50 significant digits.

Run: python3 tests/data/make_composite_reference.py > tests/data/composite_reference.json
(needs mpmath). Every parameter is read as the exact binary value of its double, as in
shared/reference/README.md; the closed forms and the conventions are the same (spring
u = u0·C + (v0 + σ·u0)·S; decay x = x0 + v0·t·hex(-λt)). The joins are computed here in high
precision from the formulas of the issue: t_B = -log1p(-λ(B - x0)/v0)/λ, v_B = v0 - λ(B - x0);
a sequence hands over the exact state of the previous step at its (double) duration.
"""
import json
from mpmath import mp, mpf, exp, log, log1p, sqrt, cos, sin, cosh, sinh, nstr

mp.dps = 50


def spring(x0, v0, to, m, k, c):
    x0, v0, to, m, k, c = map(mpf, (x0, v0, to, m, k, c))
    u0 = x0 - to
    sigma = c / (2 * m)
    w2 = k / m
    disc = sigma * sigma - w2

    def state(t):
        t = mpf(t)
        e = exp(-sigma * t)
        if disc < 0:
            w = sqrt(-disc)
            C, S = e * cos(w * t), e * sin(w * t) / w
        elif disc == 0:
            C, S = e, e * t
        else:
            g = sqrt(disc)
            C, S = e * cosh(g * t), e * sinh(g * t) / g
        u = u0 * C + (v0 + sigma * u0) * S
        v = v0 * C - (w2 * u0 + sigma * v0) * S
        return to + u, v

    return state


def decay(x0, v0, lam):
    x0, v0, lam = mpf(x0), mpf(v0), mpf(lam)

    def state(t):
        t = mpf(t)
        if lam == 0:
            return x0 + v0 * t, v0
        return x0 + v0 * (1 - exp(-lam * t)) / lam, v0 * exp(-lam * t)

    return state


def gravity(x0, v0, a):
    x0, v0, a = mpf(x0), mpf(v0), mpf(a)
    return lambda t: (x0 + v0 * mpf(t) + a * mpf(t) ** 2 / 2, v0 + a * mpf(t))


def inertia(p):
    x0, v0, f = mpf(p["from"]), mpf(p["velocity"]), mpf(p["friction"])
    k, c = p.get("bounce_stiffness", 500.0), p.get("bounce_damping", 10.0)
    lo, hi, snap = p.get("min"), p.get("max"), p.get("snap", [])
    lam = -log(f)
    if lo is not None and x0 < lo:
        return "starts below min", None, spring(x0, v0, lo, 1, k, c)
    if hi is not None and x0 > hi:
        return "starts above max", None, spring(x0, v0, hi, 1, k, c)
    if snap:
        free = x0 if v0 == 0 else x0 + v0 / lam
        target = min(snap, key=lambda s: (abs(mpf(s) - free), s))
        if v0 != 0 and target != x0 and (target > x0) == (v0 > 0):
            return "snap ahead", None, decay(x0, v0, v0 / (mpf(target) - x0))
        return "snap behind", None, spring(x0, v0, target, 1, k, c)
    bound = hi if v0 > 0 else lo if v0 < 0 else None
    if bound is not None:
        q = lam * (mpf(bound) - x0) / v0
        if q < 1:
            tb = (mpf(bound) - x0) / v0 if lam == 0 else -log1p(-q) / lam
            vb = v0 - lam * (mpf(bound) - x0)
            d, s = decay(x0, v0, lam), spring(bound, vb, bound, 1, k, c)
            name = "hits max" if v0 > 0 else "hits min"
            return name, (tb, vb), lambda t: d(t) if mpf(t) < tb else s(mpf(t) - tb)
    return "free", None, decay(x0, v0, lam)


def step_motion(step, x, v):
    kind = step["kind"]
    if kind == "spring":
        return spring(x, v, step["to"], step.get("mass", 1.0), step["stiffness"], step["damping"])
    if kind == "gravity":
        return gravity(x, v, step["acceleration"])
    if kind == "friction":
        return decay(x, v, -log(mpf(step["friction"])))
    raise ValueError(kind)


def sequence(steps, x0, v0):
    pieces, start, x, v = [], mpf(0), mpf(x0), mpf(v0)
    for step in steps:
        m = step_motion(step, x, v)
        pieces.append((start, m))
        if "duration" in step:
            x, v = m(step["duration"])
            start += mpf(step["duration"])
    handoffs = [p[0] for p in pieces[1:]]

    def state(t):
        t = mpf(t)
        s, m = [p for p in pieces if p[0] <= t][-1]
        return m(t - s)

    return handoffs, state


def out(x):
    return float(x), nstr(x, 20, strip_zeros=False)


def frame_times(duration, fps=60.0, extra=()):
    n = int(duration * fps + 0.5)
    return sorted(set([min(i / fps, duration) for i in range(n + 1)] + list(extra)))


INERTIA = [
    ("inertia-hits-max", {"from": 0.0, "velocity": 2400.0, "friction": 0.05, "min": 0.0, "max": 600.0}, 2.2),
    ("inertia-hits-min", {"from": 120.5, "velocity": -3100.25, "friction": 0.12, "min": -400.0, "max": 800.0, "bounce_stiffness": 320.0, "bounce_damping": 18.0}, 2.0),
    ("inertia-hits-max-slow-friction", {"from": -3.0, "velocity": 40.0, "friction": 0.999, "max": 1.5}, 1.5),
    ("inertia-starts-above-max", {"from": 700.0, "velocity": 300.0, "friction": 0.05, "min": 0.0, "max": 600.0}, 1.5),
    ("inertia-starts-below-min", {"from": -80.0, "velocity": -300.0, "friction": 0.05, "min": 0.0, "max": 600.0}, 1.5),
    ("inertia-snap-ahead", {"from": 0.0, "velocity": -1500.0, "friction": 0.02, "min": -1280.0, "max": 0.0, "snap": [0.0, -320.0, -640.0, -960.0, -1280.0]}, 2.0),
    ("inertia-snap-behind", {"from": 310.0, "velocity": 10.0, "friction": 0.05, "snap": [300.0, 400.0]}, 1.5),
    ("inertia-free", {"from": 10.0, "velocity": 100.0, "friction": 0.05, "min": 0.0, "max": 600.0}, 1.5),
]

SEQUENCES = [
    # The example: the first spring is interrupted mid-overshoot (it passes 100 at
    # about 0.14 s, turns at π/ωd = 0.222 s and is still above 100 at 0.25 s).
    ("sequence-handoff-mid-overshoot", 0.0, 0.0, [
        {"kind": "spring", "to": 100.0, "stiffness": 300.0, "damping": 20.0, "duration": 0.25},
        {"kind": "spring", "to": 0.0, "stiffness": 170.0, "damping": 26.0},
    ], 1.5),
    ("sequence-gravity-friction-spring", 0.0, -900.0, [
        {"kind": "gravity", "acceleration": 2400.0, "duration": 0.3},
        {"kind": "friction", "friction": 0.2, "duration": 0.4},
        {"kind": "spring", "to": -120.0, "stiffness": 195.0, "damping": 22.0, "mass": 1.0},
    ], 2.0),
]


def main():
    cases = []
    for ident, p, duration in INERTIA:
        name, join, state = inertia(p)
        extra = ()
        case = {"id": ident, "kind": "inertia", "params": p, "case": name}
        if join:
            tb, vb = join
            case["bound_time"], case["bound_time_exact"] = out(tb)
            case["bound_velocity"], case["bound_velocity_exact"] = out(vb)
            extra = (float(tb),)
        ts = frame_times(duration, extra=extra)
        case["duration"] = duration
        fill(case, ts, state)
        cases.append(case)
    for ident, x0, v0, steps, duration in SEQUENCES:
        handoffs, state = sequence(steps, x0, v0)
        case = {"id": ident, "kind": "sequence", "from": x0, "start_velocity": v0, "steps": steps,
                "duration": duration, "handoffs": [float(h) for h in handoffs]}
        fill(case, frame_times(duration, extra=[float(h) for h in handoffs]), state)
        cases.append(case)
    print(json.dumps({"description": __doc__.strip().split("\n")[0], "digits": 20,
                      "count": len(cases), "cases": cases}, indent=1))


def fill(case, ts, state):
    xs, vs = zip(*(state(t) for t in ts))
    case["t"] = ts
    case["position"] = [float(x) for x in xs]
    case["velocity"] = [float(v) for v in vs]
    case["position_exact"] = [nstr(x, 20) for x in xs]
    case["velocity_exact"] = [nstr(v, 20) for v in vs]
    case["scale"] = float(max(max(abs(x) for x in xs), max(abs(v) for v in vs)))


main()
