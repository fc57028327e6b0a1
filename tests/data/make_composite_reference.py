#!/usr/bin/env python3
"""Reference values for the composite motions (inertia, sequence, tracks, spring forms), at 50 significant digits.

Run: python3 tests/data/make_composite_reference.py > tests/data/composite_reference.json
(needs mpmath). Every parameter is read as the exact binary value of its double, as in
shared/reference/README.md; the closed forms and the conventions are the same (spring
u = u0·C + (v0 + σ·u0)·S; decay x = x0 + v0·t·hex(-λt); gravity x0 + v0·t + a·t²/2). The
pieces and the joins come from issue 17, written here from its formulas (not from the Rust):

- inertia: t_B = -log1p(-λ(B - x0)/v0)/λ, v_B = v0 - λ(B - x0), then the bounce spring;
- sequence: step i starts at T_i = T_(i-1) + L_(i-1) from the exact state of step i - 1 at its
  local time L_(i-1). L is the step's `duration`, else its arrival (gravity at `to`), else its
  rest time. Rest times in closed form where the rest rule is one (a decay's envelope
  |v0|/λ·e^(-λt) and |v0|·e^(-λt) against rest_delta and rest_speed; a bounce's k-th impact);
  a spring's rest time is where its envelope crosses the thresholds, found numerically (no
  closed form gives it): that one time is read from the Rust (`RUST_REST_TIMES`, each checked here to be a time at which
  the spring is within the thresholds) and the next step is evaluated from the exact state
  at that double time, in high precision. A motion to a `to` (a whole sequence, a track)
  that ends at rest rests within min(rest_delta, 0.1 % of its travel) (`end_rest`);
- tracks: frame i at min(i/fps, D), D the latest end of any track; a track that has ended
  holds its end value with velocity 0: its `to`, rest position or floor when it rests or
  arrives, its position at L_k when a `duration` (its own or the motion's) cuts it;
- spring forms: each form resolved to (m, k, c) with the issue's formulas, exact π.
"""
import json
from mpmath import (mp, mpf, exp, log, log1p, sqrt, cos, sin, cosh, sinh, pi, ceil,
                    lambertw, nstr)

mp.dps = 50
FPS = 60.0
# How far below a join its limit from below is taken (far below every double's resolution).
BELOW = mpf(10) ** -40
# Far below every double's resolution, far above 50 digits' rounding.
HAIR = mpf(10) ** -40


# ---------------------------------------------------------------- closed forms of one motion

def spring(x0, v0, to, m, k, c):
    """m·u'' + c·u' + k·u = 0 with u = x - to: u = u0·C + (v0 + σu0)·S, v = v0·C - (ω0²u0 + σv0)·S
    (σ = c/2m, ω0² = k/m; C, S as in shared/reference/README.md for each regime)."""
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
    """x = x0 + v0·(1 - e^(-λt))/λ (x0 + v0·t for λ = 0), v = v0·e^(-λt)."""
    x0, v0, lam = mpf(x0), mpf(v0), mpf(lam)

    def state(t):
        t = mpf(t)
        if lam == 0:
            return x0 + v0 * t, v0
        return x0 + v0 * (1 - exp(-lam * t)) / lam, v0 * exp(-lam * t)

    return state


def gravity(x0, v0, a):
    """x = x0 + v0·t + a·t²/2, v = v0 + a·t."""
    x0, v0, a = mpf(x0), mpf(v0), mpf(a)
    return lambda t: (x0 + v0 * mpf(t) + a * mpf(t) ** 2 / 2, v0 + a * mpf(t))


def gravity_time_to(x0, v0, a, to):
    """The smallest t > 0 with x0 + v0·t + a·t²/2 = to (a root at t = 0 does not count), or None."""
    x0, v0, a, to = map(mpf, (x0, v0, a, to))
    d = to - x0
    if a == 0:
        roots = [d / v0] if v0 != 0 else []
    else:
        disc = v0 * v0 + 2 * a * d
        if disc < 0:
            return None
        roots = [(-v0 - sqrt(disc)) / a, (-v0 + sqrt(disc)) / a]
        if d == 0:
            roots = [-2 * v0 / a]
    positive = [r for r in roots if r > 0]
    return min(positive) if positive else None


def bounce(x0, v0, a, floor, e):
    """A fall onto `floor` that bounces: the fall until t1 = time to the floor, impact velocity
    v1 = v0 + a·t1; bounce k >= 1 leaves at the k-th impact t_k = t1 + Δ1·(1 - e^(k-1))/(1 - e)
    (Δ1 = 2e|v1|/|a|) with velocity -e^k·v1 and is a parabola; from t1 + Δ1/(1 - e) on it lies
    on the floor. At an impact instant the state is the one just after the impact.
    Returns (state, impact(k), end time, v1)."""
    x0, v0, a, floor, e = map(mpf, (x0, v0, a, floor, e))
    t1 = gravity_time_to(x0, v0, a, floor)
    v1 = v0 + a * t1
    first = 2 * e * abs(v1) / abs(a)
    end = t1 + first / (1 - e)
    fall = gravity(x0, v0, a)

    def impact(k):
        return t1 + first * (1 - e ** (k - 1)) / (1 - e)

    def state(t):
        t = mpf(t)
        if t < t1:
            return fall(t)
        if t >= end:
            return floor, mpf(0)
        k = 1
        while impact(k + 1) <= t:
            k += 1
        s, launch = t - impact(k), -v1 * e ** k
        return floor + s * (launch + a * s / 2), launch + a * s

    return state, impact, end, v1


def bounce_rest_time(impact, end, v1, a, e, rest_delta, rest_speed):
    """The first impact k after which every bounce stays below rest_delta in height and
    rest_speed in speed: e^k·|v1| <= min(rest_speed, √(2|a|·rest_delta)), k >= 1; its time
    t_k (or the end of the bounces, if sooner)."""
    e = mpf(e)
    limit = min(mpf(rest_speed), sqrt(2 * abs(mpf(a)) * mpf(rest_delta)))
    if e == 0 or abs(v1) * e <= limit:
        k = 1
    else:
        k = max(1, int(ceil(log(limit / abs(v1)) / log(e))))
    return min(impact(k), end)


def decay_rest_time(v0, lam, rest_delta, rest_speed):
    """When a decay provably rests: its distance to rest |v0|/λ·e^(-λt) <= rest_delta and its
    speed |v0|·e^(-λt) <= rest_speed, i.e. max(ln(|v0|/(λ·rest_delta)), ln(|v0|/rest_speed))/λ,
    each 0 if already below."""
    v0, lam = abs(mpf(v0)), mpf(lam)
    if v0 == 0:
        return mpf(0)
    times = [log(amplitude / mpf(threshold)) / lam
             for amplitude, threshold in ((v0 / lam, rest_delta), (v0, rest_speed))]
    return max([mpf(0)] + times)


def solve_decay(x0, to, end_velocity, duration):
    """Decay(from, to, end_velocity) over `duration` T (shared/reference/README.md): with
    A = -T·vT/D, v0 = vT·W₋₁(A·e^A)/A for -1 < A < 0, vT·W₀(A·e^A)/A for A < -1, vT at A = -1;
    λ = -ln(vT/v0)/T."""
    x0, to, vt, T = map(mpf, (x0, to, end_velocity, duration))
    A = -T * vt / (to - x0)
    if A == -1:
        return vt, mpf(0)
    w = lambertw(A * exp(A), -1 if A > -1 else 0).real
    v0 = vt * w / A
    return v0, -log(vt / v0) / T


# ---------------------------------------------------------------- every platform's spring

def resolve_spring_form(p):
    """(m, k, c) from the one form of parameters in `p` (issue 17):
    physical m, k, c; perceptual (P, b): m = 1, k = (2π/P)², c = 4π(1 - b)/P (b >= 0) or
    4π/(P(1 + b)) (b < 0); response (R, f): k = (2π/R)², c = 4π·f/R, m = 1; Android (k, ζ, m):
    c = 2ζ√(km); motion.dev (V, b): k = (2π/(1.2·V))², c = 2·clamp(1 - b, 0.05, 1)·√k, m = 1;
    Origami (T, F): k = (T - 30)·3.62 + 194, c = (F - 8)·3 + 25, m = 1."""
    g = lambda name, default=None: mpf(p[name]) if name in p else default
    if "perceptual_duration" in p:
        P, b = g("perceptual_duration"), g("bounce", mpf(0))
        c = 4 * pi * (1 - b) / P if b >= 0 else 4 * pi / (P * (1 + b))
        return mpf(1), (2 * pi / P) ** 2, c
    if "response" in p:
        R, f = g("response"), g("damping_fraction")
        return mpf(1), (2 * pi / R) ** 2, 4 * pi * f / R
    if "damping_ratio" in p:
        m, k = g("mass", mpf(1)), g("stiffness")
        return m, k, 2 * g("damping_ratio") * sqrt(k * m)
    if "visual_duration" in p:
        k = (2 * pi / (mpf(6) / 5 * g("visual_duration"))) ** 2
        ratio = min(max(1 - g("bounce", mpf(0)), mpf(1) / 20), mpf(1))
        return mpf(1), k, 2 * ratio * sqrt(k)
    if "origami_tension" in p:
        T, F = g("origami_tension"), g("origami_friction")
        return mpf(1), (T - 30) * mpf(362) / 100 + 194, (F - 8) * 3 + 25
    return g("mass", mpf(1)), g("stiffness", mpf(170)), g("damping", mpf(26))


def spring_equivalents(m, k, c):
    """The spring (m, k, c) in every form, with k' = k/m, c' = c/m, ζ = c'/(2√k'):
    P = R = 2π/√k'; b = 1 - ζ (ζ <= 1) or 1/ζ - 1; f = ζ; Android (k', ζ); motion.dev
    V = P/1.2, b = 1 - ζ when 0.05 <= ζ <= 1; Origami T = (k' - 194)/3.62 + 30,
    F = (c' - 25)/3 + 8."""
    k, c = k / m, c / m
    zeta = c / (2 * sqrt(k))
    period = 2 * pi / sqrt(k)
    groups = {
        "perceptual": {"perceptual_duration": period, "bounce": 1 - zeta if zeta <= 1 else 1 / zeta - 1},
        "response": {"response": period, "damping_fraction": zeta},
        "android": {"stiffness": k, "damping_ratio": zeta},
    }
    # ζ = 1/20 or 1 exactly (a clamped or critical motion.dev spring) may come out a hair
    # off at 50 digits; the group is there at both ends.
    if mpf(1) / 20 - HAIR <= zeta <= 1 + HAIR:
        groups["motion_dev"] = {"visual_duration": period * 5 / 6, "bounce": 1 - zeta}
    groups["origami"] = {"origami_tension": (k - 194) * 100 / mpf(362) + 30,
                         "origami_friction": (c - 25) / 3 + 8}
    return groups


# ---------------------------------------------------------------- inertia

def inertia(p):
    """Issue 17's inertia: friction inside the bounds, the bounce spring from the bound hit
    (t_B, v_B) on; the spring to the nearest bound when starting outside; with snap points, the
    friction that rests on the target ahead within two free glides (λ = v0/(target - x0) at
    least half the fling's own) or the spring to it.
    Returns (case, (t_B, v_B) or None, state, where it rests, the λ of a decay that ends it
    (None when a spring does))."""
    x0, v0, f = mpf(p["from"]), mpf(p["velocity"]), mpf(p["friction"])
    k, c = p.get("bounce_stiffness", 500.0), p.get("bounce_damping", 10.0)
    lo, hi, snap = p.get("min"), p.get("max"), p.get("snap", [])
    lam = -log(f)
    if lo is not None and x0 < lo:
        return "starts below min", None, spring(x0, v0, lo, 1, k, c), mpf(lo), None
    if hi is not None and x0 > hi:
        return "starts above max", None, spring(x0, v0, hi, 1, k, c), mpf(hi), None
    if snap:
        free = x0 if v0 == 0 else x0 + v0 / lam
        target = min(snap, key=lambda s: (abs(mpf(s) - free), s))
        q = lam * (mpf(target) - x0) / v0 if v0 != 0 else mpf(0)
        if 0 < q <= 2:
            snap_lam = v0 / (mpf(target) - x0)
            return "snap ahead", None, decay(x0, v0, snap_lam), mpf(target), snap_lam
        return "snap behind", None, spring(x0, v0, target, 1, k, c), mpf(target), None
    bound = hi if v0 > 0 else lo if v0 < 0 else None
    if bound is not None:
        q = lam * (mpf(bound) - x0) / v0
        if q < 1:
            tb = (mpf(bound) - x0) / v0 if lam == 0 else -log1p(-q) / lam
            vb = v0 - lam * (mpf(bound) - x0)
            d, s = decay(x0, v0, lam), spring(bound, vb, bound, 1, k, c)
            name = "hits max" if v0 > 0 else "hits min"
            state = lambda t: d(t) if mpf(t) < tb else s(mpf(t) - tb)
            return name, (tb, vb), state, mpf(bound), None
    return "free", None, decay(x0, v0, lam), x0 + v0 / lam, lam


# ---------------------------------------------------------------- one motion as a step or track

class Piece:
    """One closed form started at (x, v): `state(t)` in local time, `length` when it ends on
    its own (None if it does not), `end` the value it holds once ended, `how` why it ends."""

    def __init__(self, state, length=None, end=None, how=None):
        self.state, self.length, self.end, self.how = state, length, end, how


def piece(kind, p, x, v, rest, rust_rest=None):
    """The motion `kind` with parameters `p` from state (x, v); `rest` = (rest_delta,
    rest_speed) for the rest times; `rust_rest` the Rust's rest time for a spring."""
    if kind == "Spring":
        m, k, c = resolve_spring_form(p)
        state = spring(x, v, p["to"], m, k, c)
        if rust_rest is None:
            return Piece(state, end=mpf(p["to"]))
        u, w = state(rust_rest)
        assert abs(u - p["to"]) <= rest[0] and abs(w) <= rest[1], "not at rest at the Rust's time"
        return Piece(state, mpf(rust_rest), mpf(p["to"]), "rests (time from the Rust)")
    if kind == "Friction":
        if "to" in p:
            lam = mpf(v) / (mpf(p["to"]) - mpf(x))
            end = mpf(p["to"])
        else:
            lam = -log(mpf(p["friction"]))
            if lam == 0:
                return Piece(decay(x, v, 0))  # friction 1 glides on and never rests
            end = mpf(x) + mpf(v) / lam
        return Piece(decay(x, v, lam), decay_rest_time(v, lam, *rest), end, "rests")
    if kind == "Decay":
        if "to" in p:
            v0, lam = solve_decay(x, p["to"], p["end_velocity"], p["duration"])
            return Piece(decay(x, v0, lam), mpf(p["duration"]), mpf(p["to"]), "arrives")
        return Piece(decay(x, v, p["lambda"]))
    if kind == "Gravity":
        if "restitution" in p:
            state, impact, end, v1 = bounce(x, v, p["acceleration"], p["to"], p["restitution"])
            t = bounce_rest_time(impact, end, v1, p["acceleration"], p["restitution"], *rest)
            return Piece(state, t, mpf(p["to"]), "rests (impact)")
        state = gravity(x, v, p["acceleration"])
        if "to" in p:
            return Piece(state, gravity_time_to(x, v, p["acceleration"], p["to"]), mpf(p["to"]),
                         "arrives")
        return Piece(state)
    if kind == "Inertia":
        _, _, state, end, lam = inertia(dict(p, **{"from": x, "velocity": v}))
        if lam is not None:
            return Piece(state, decay_rest_time(v, lam, *rest), end, "rests")
        return Piece(state, mpf(rust_rest) if rust_rest else None, end,
                     "rests (time from the Rust)" if rust_rest else None)
    if kind == "Sequence":
        return sequence_piece(p["steps"], rest)
    raise ValueError(kind)


def ron_value(x):
    return "[" + ", ".join(ron_value(y) for y in x) + "]" if isinstance(x, list) else repr(float(x))


def ron_call(kind, p, skip=()):
    return f"{kind}(" + ", ".join(f"{k}: {ron_value(v)}" for k, v in p.items() if k not in skip) + ")"


# ---------------------------------------------------------------- composites

def end_rest(rest, start, end):
    """The rest thresholds a motion from `start` to `end` is baked to (`Model::end_delta`):
    within min(rest_delta, 0.1 % of its travel) of rest, so that its easing ends without a
    visible step over any range; `rest` as it is when it does not travel."""
    if end is None or float(end) == float(start):
        return rest
    return (min(rest[0], 1e-3 * abs(float(end) - float(start))), rest[1])


def sequence_pieces(steps, rest):
    """[(T_i, piece_i)]: step i starts at T_i from step i - 1's exact state at its length. A
    last step that rests does so within `end_rest` of the whole sequence's travel."""
    pieces, start, x, v = [], mpf(0), None, None
    first = steps[0][1]["from"]
    for i, (kind, p, duration, rust_rest) in enumerate(steps):
        if x is None:
            x, v = p["from"], p.get("velocity", 0.0)
        solve = dict(p, duration=duration) if kind == "Decay" and "to" in p else p
        piece_ = piece(kind, solve, x, v, rest, rust_rest)
        if i + 1 == len(steps) and duration is None and (piece_.how or "").startswith("rests"):
            piece_ = piece(kind, solve, x, v, end_rest(rest, first, piece_.end), rust_rest)
        if duration is not None:
            # A solved decay arrives at its `to` at its duration.
            piece_.length, piece_.how = mpf(duration), "arrives" if piece_.how == "arrives" else "duration"
        length = piece_.length
        pieces.append((start, piece_, length))
        if length is not None:
            x, v = piece_.state(length)
            start += length
    return pieces


def sequence_piece(steps, rest):
    """A whole sequence as one piece (a track): x(t) = x_i(t - T_i) for T_i <= t < T_(i+1); it
    ends as its last step does (its `duration`, arrival or rest), at that step's end value."""
    pieces = sequence_pieces(steps, rest)

    def state(t):
        t = mpf(t)
        start, p, _ = [q for q in pieces if q[0] <= t][-1]
        return p.state(t - start)

    start, last, length = pieces[-1]
    end = None if length is None else start + length
    return Piece(state, end, last.end, last.how)


def sequence_motion_ron(steps):
    parts = []
    for i, (kind, p, step_duration, _) in enumerate(steps):
        motion = ron_call(kind, p, skip=() if i == 0 else ("from", "velocity"))
        parts.append(f"(motion: {motion}" + (f", duration: {step_duration!r})" if step_duration else ")"))
    return f"Sequence([{', '.join(parts)}])"


def sequence_ron(steps, duration, rest):
    whole = f"duration: {duration!r}, " if duration is not None else ""
    return (f'(name: "s", {whole}rest_delta: {rest[0]!r}, rest_speed: {rest[1]!r}, '
            f"motion: {sequence_motion_ron(steps)})")


def sequence_case(ident, steps, duration, rest):
    """A sequence: frames at min(i/fps, D), D its `duration`, else when its last step ends: at
    its arrival (the last frame is the arrival state, x = `to`), or at the first frame time at
    or after its rest (the last frame is the rest value with velocity 0, as every bake that
    rests ends). Joins with the state on each side (the previous step at its length, the next
    one at 0)."""
    pieces = sequence_pieces(steps, rest)
    whole = sequence_piece(steps, rest)
    if duration is not None:
        D, last = duration, None
    elif whole.how.startswith("rests"):
        D, last = intervals(float(whole.length) * FPS) / FPS, (whole.end, mpf(0))
    else:
        D, last = float(whole.length), (whole.end, whole.state(whole.length)[1])

    def state(t):
        return last if last is not None and t == D else whole.state(t)

    joins = []
    for (s0, p0, l0), (s1, p1, _) in zip(pieces, pieces[1:]):
        # `left`: the step's own state at its length, which it hands over; `left_limit`: the
        # limit from below (they differ only at a bounce's impact: velocity reversed, times e).
        joins.append({"time": float(s1), "time_exact": nstr(s1, 20), "ends": p0.how,
                      "left_limit": pair(p0.state(l0 - BELOW)), "left": pair(p0.state(l0)),
                      "right": pair(p1.state(0))})
    case = {"id": ident, "kind": "sequence", "ron": sequence_ron(steps, duration, rest),
            "joins": joins, "duration": D}
    fill(case, frame_times(D), state)
    return case


# Rest times of springs, read from the Rust (where curvebake's envelope crosses the thresholds,
# found numerically; no closed form gives it): the Rust test checks that it still computes exactly these.
RUST_REST_TIMES = {
    "press": 0.3483484074305998,
    "sheet-translateY": 0.7220437882336946,
    "sheet-scale": 0.5473600838557595,
}

# curvebake's default rest thresholds: px and deg (REST_FOR_PIXELS), numbers (REST_FOR_UNITLESS).
REST_PX, REST_NUMBER = (0.25, 2.0), (1e-3, 1e-2)


def intervals(frames):
    """Frame intervals for D·fps frames: the nearest whole number within 1e-9, else the ceiling."""
    nearest = round(frames)
    return nearest if abs(frames - nearest) <= 1e-9 * max(nearest, 1) else int(-(-frames // 1))


def tracks_case(ident, name, tracks, duration=None):
    """Tracks on one timeline: track k ends at L_k (its `duration`, arrival or rest; the
    motion's `duration` if it never ends) and holds its end value with velocity 0 from then on:
    its `to`, rest position or floor when it rests or arrives, else its position at L_k.
    D = max L_k (the motion's `duration` if given), reached at the first frame time at or after
    it when the longest track rests; frame i at min(i/fps, D)."""
    out, ends, ron = {}, [], []
    for prop, kind, p, track_duration, rest, rust_rest in tracks:
        solve = dict(p, duration=track_duration) if kind == "Decay" and "to" in p else p
        if kind == "Sequence":
            q = piece(kind, p, None, None, rest)
            motion = sequence_motion_ron(p["steps"])
        else:
            q = piece(kind, solve, p["from"], p.get("velocity", 0.0), rest, rust_rest)
            # Only a motion to a `to` travels (`Model::endpoints`; the inertia tracks here glide
            # free, with no target).
            travels = kind in ("Spring", "Gravity", "Decay", "Friction") and "to" in p
            if travels and track_duration is None and (q.how or "").startswith("rests"):
                tight = end_rest(rest, p["from"], q.end)
                q = piece(kind, solve, p["from"], p.get("velocity", 0.0), tight, rust_rest)
            motion = ron_call(kind, p)
        if track_duration is not None:
            length = mpf(track_duration)
            end = q.end if q.how == "arrives" else q.state(length)[0]
        elif q.length is not None:
            length = q.length
            end = q.end if q.how.startswith(("rests", "arrives")) else q.state(length)[0]
        else:
            length = mpf(duration)
            end = q.state(length)[0]
        ends.append((prop, q, length, end))
        ron.append(f"(property: {prop!r}, motion: {motion}"
                   + (f", duration: {track_duration!r})" if track_duration else ")"))
    longest = max(ends, key=lambda e: e[2])
    if duration is not None:
        D = duration
    elif longest[1].how and longest[1].how.startswith("rests"):
        D = intervals(float(longest[2]) * FPS) / FPS
    else:
        D = float(longest[2])
    ts = frame_times(D)
    for prop, q, length, end in ends:
        def state(t, q=q, length=length, end=end):
            return (end, mpf(0)) if mpf(t) >= length else q.state(t)
        table = {"end": float(length), "end_exact": nstr(length, 20),
                 "end_from_rust": bool(q.how and "Rust" in q.how),
                 "end_value": float(end), "left_limit": pair(q.state(length - BELOW)),
                 "left": pair(q.state(length)), "right": pair((end, 0))}
        fill(table, ts, state, with_times=False)
        out[prop] = table
    whole = f"duration: {duration!r}, " if duration is not None else ""
    ron_text = f'(name: "{name}", {whole}tracks: [{", ".join(ron)}])'.replace("'", '"')
    case = {"id": ident, "kind": "tracks", "ron": ron_text, "duration": D, "t": ts, "tracks": out}
    return case


def spring_form_case(ident, p, duration):
    """A spring in one platform's form: the resolved (m, k, c), its equivalents in every form,
    and its frames."""
    m, k, c = resolve_spring_form(p)
    state = spring(p["from"], p.get("velocity", 0.0), p["to"], m, k, c)
    case = {"id": ident, "kind": "spring_form", "form": p,
            "ron": f'(name: "s", duration: {duration!r}, motion: {ron_call("Spring", p)})',
            "resolved": {"mass": exact(m), "stiffness": exact(k), "damping": exact(c)},
            "equivalents": {g: {n: exact(x) for n, x in vals.items()}
                            for g, vals in spring_equivalents(m, k, c).items()},
            "duration": duration}
    fill(case, frame_times(duration), state)
    return case


# ---------------------------------------------------------------- output

def out(x):
    return float(x), nstr(x, 20, strip_zeros=False)


def exact(x):
    return {"value": float(x), "exact": nstr(x, 20)}


def pair(s):
    return [exact(s[0]), exact(s[1])]


def frame_times(duration, fps=FPS, extra=()):
    n = intervals(duration * fps)
    return sorted(set([min(i / fps, duration) for i in range(n + 1)] + list(extra)))


def fill(case, ts, state, with_times=True):
    xs, vs = zip(*(state(t) for t in ts))
    if with_times:
        case["t"] = ts
    case["position"] = [float(x) for x in xs]
    case["velocity"] = [float(v) for v in vs]
    case["position_exact"] = [nstr(x, 20) for x in xs]
    case["velocity_exact"] = [nstr(v, 20) for v in vs]
    case["scale"] = float(max(max(abs(x) for x in xs), max(abs(v) for v in vs)))


# ---------------------------------------------------------------- the cases

INERTIA = [
    ("inertia-hits-max", {"from": 0.0, "velocity": 2400.0, "friction": 0.05, "min": 0.0, "max": 600.0}, 2.2),
    ("inertia-hits-min", {"from": 120.5, "velocity": -3100.25, "friction": 0.12, "min": -400.0, "max": 800.0, "bounce_stiffness": 320.0, "bounce_damping": 18.0}, 2.0),
    ("inertia-hits-max-slow-friction", {"from": -3.0, "velocity": 40.0, "friction": 0.999, "max": 1.5}, 1.5),
    ("inertia-starts-above-max", {"from": 700.0, "velocity": 300.0, "friction": 0.05, "min": 0.0, "max": 600.0}, 1.5),
    ("inertia-starts-below-min", {"from": -80.0, "velocity": -300.0, "friction": 0.05, "min": 0.0, "max": 600.0}, 1.5),
    ("inertia-snap-ahead", {"from": 0.0, "velocity": -1500.0, "friction": 0.02, "min": -1280.0, "max": 0.0, "snap": [0.0, -320.0, -640.0, -960.0, -1280.0]}, 2.0),
    ("inertia-snap-behind", {"from": 310.0, "velocity": 10.0, "friction": 0.05, "snap": [300.0, 400.0]}, 1.5),
    # Released slowly 100 px short of the nearest page (15 free glides): the spring, not a crawl.
    ("inertia-snap-slow-far", {"from": 300.0, "velocity": 20.0, "friction": 0.05, "snap": [100.0, 400.0]}, 2.0),
    ("inertia-free", {"from": 10.0, "velocity": 100.0, "friction": 0.05, "min": 0.0, "max": 600.0}, 1.5),
    # λ = 0: t_B = (B - x0)/v0, v_B = v0.
    ("inertia-hits-min-no-friction", {"from": 50.0, "velocity": -200.0, "friction": 1.0, "min": 0.0, "max": 100.0}, 1.5),
    ("inertia-hits-max-overdamped-bounce", {"from": 0.0, "velocity": 3000.0, "friction": 0.1, "max": 500.0, "bounce_stiffness": 200.0, "bounce_damping": 80.0}, 2.0),
    ("inertia-snap-no-velocity", {"from": 130.0, "velocity": 0.0, "friction": 0.1, "min": 0.0, "max": 200.0, "snap": [0.0, 100.0, 200.0]}, 1.5),
    # Starting on the bound, moving out: it is hit at t_B = 0 with v_B = v0.
    ("inertia-on-max-moving-out", {"from": 600.0, "velocity": 500.0, "friction": 0.05, "min": 0.0, "max": 600.0}, 1.5),
    # The snap point nearest the free rest is where it starts: the spring back to it.
    ("inertia-snap-target-at-start", {"from": 300.0, "velocity": 20.0, "friction": 0.05, "snap": [300.0, 400.0]}, 1.5),
    # Outside the bounds comes first: the spring to max, although the free rest is nearest 0.
    ("inertia-starts-above-max-with-snap", {"from": 700.0, "velocity": -3000.0, "friction": 0.05, "min": 0.0, "max": 600.0, "snap": [0.0, 300.0, 600.0]}, 1.5),
]

# (kind, parameters, step duration or None, the Rust's rest time for a spring that rests).
SEQUENCES = [
    # The issue's example: the first spring is interrupted mid-overshoot (it passes 100 at
    # about 0.14 s, turns at π/ωd = 0.222 s and is still above 100 at 0.25 s).
    ("sequence-handoff-mid-overshoot", [
        ("Spring", {"from": 0.0, "velocity": 0.0, "to": 100.0, "stiffness": 300.0, "damping": 20.0}, 0.25, None),
        ("Spring", {"to": 0.0, "stiffness": 170.0, "damping": 26.0}, None, None),
    ], 1.5, REST_PX),
    ("sequence-gravity-friction-spring", [
        ("Gravity", {"from": 0.0, "velocity": -900.0, "acceleration": 2400.0}, 0.3, None),
        ("Friction", {"friction": 0.2}, 0.4, None),
        ("Spring", {"to": -120.0, "stiffness": 195.0, "damping": 22.0, "mass": 1.0}, None, None),
    ], 2.0, REST_PX),
    # Steps that end on their own: a solved decay arrives at its `to` (with its end velocity),
    # a friction snaps onto `to` and rests (closed-form rest time), a decay is interrupted, a
    # fall bounces on a floor and rests at an impact (closed form), a spring takes over.
    ("sequence-arrives-rests-bounces", [
        ("Decay", {"from": 0.0, "to": 300.0, "end_velocity": 200.0}, 0.5, None),
        ("Friction", {"to": 340.0}, None, None),
        ("Decay", {"lambda": 2.0}, 0.3, None),
        ("Gravity", {"acceleration": -3000.0, "to": 300.0, "restitution": 0.45}, None, None),
        ("Spring", {"to": 250.0, "response": 0.4, "damping_fraction": 0.7}, None, None),
    ], 3.5, REST_PX),
    # Gravity that arrives at `to` hands over its impact velocity to a spring resting there
    # (a landing), which is interrupted mid-overshoot by an inertia that hits its max.
    ("sequence-landing-then-fling", [
        ("Gravity", {"from": -200.0, "velocity": -300.0, "acceleration": 2000.0, "to": 0.0}, None, None),
        ("Spring", {"to": 0.0, "stiffness": 400.0, "damping": 10.0}, 0.1, None),
        ("Inertia", {"friction": 0.05, "min": -60.0, "max": 40.0}, None, None),
    ], 2.0, REST_PX),
    # Press and release: a spring that rests (its rest time from the Rust) hands over to a
    # spring in another form, then a friction fling that rests in closed form, then a fall.
    ("sequence-press-release", [
        ("Spring", {"from": 1.0, "velocity": 0.0, "to": 0.94, "stiffness": 600.0, "damping": 30.0}, None, "press"),
        ("Spring", {"to": 1.0, "visual_duration": 0.3, "bounce": 0.4}, 0.2, None),
        ("Friction", {"friction": 0.01}, None, None),
        ("Gravity", {"acceleration": -4.0}, 0.25, None),
    ], 2.5, REST_NUMBER),
    # A bounce rests at its 9th impact, on the floor and leaving it at e^9·|v1|: the hop that
    # follows starts exactly on its `to` (that root at t = 0 does not count) and lands again;
    # a decay that speeds up (λ < 0), then a spring in Origami's form.
    ("sequence-bounce-rests-then-hop", [
        ("Gravity", {"from": 0.0, "velocity": 0.0, "acceleration": 2000.0, "to": 200.0, "restitution": 0.5}, None, None),
        ("Gravity", {"acceleration": 2000.0, "to": 200.0}, None, None),
        ("Decay", {"lambda": -1.5}, 0.2, None),
        ("Spring", {"to": 150.0, "origami_tension": 40.0, "origami_friction": 7.0}, None, None),
    ], 2.5, REST_PX),
    # A drag (an interrupted spring) released into an inertia with snap points.
    # A decay solved to speed up (A < -1: the W₀ branch) arrives and hands over to an inertia
    # that glides onto the snap point ahead and rests (closed form), then a fall onto a level
    # it arrives at, then a spring.
    ("sequence-speeding-decay-snap-fall", [
        ("Decay", {"from": 0.0, "to": 100.0, "end_velocity": 400.0}, 0.5, None),
        ("Inertia", {"friction": 0.05, "snap": [150.0, 250.0, 400.0]}, None, None),
        ("Gravity", {"acceleration": -2400.0, "to": 200.0}, None, None),
        ("Spring", {"to": 200.0, "stiffness": 300.0, "damping": 12.0}, None, None),
    ], 2.5, REST_PX),
    # A toss that arrives at a shelf on its way up (the first root), snaps onto a higher one
    # with friction (rests in closed form), then a spring in the perceptual form.
    ("sequence-toss-onto-shelf", [
        ("Gravity", {"from": 0.0, "velocity": -900.0, "acceleration": 2400.0, "to": -100.0}, None, None),
        ("Friction", {"to": -160.0}, None, None),
        ("Spring", {"to": -100.0, "perceptual_duration": 0.3, "bounce": 0.2}, None, None),
    ], 2.0, REST_PX),
    # A dead drop (restitution 0) rests at its first impact, on the floor at speed 0.
    ("sequence-dead-drop", [
        ("Gravity", {"from": 0.0, "velocity": -200.0, "acceleration": 2000.0, "to": 100.0, "restitution": 0.0}, None, None),
        ("Spring", {"to": 50.0, "stiffness": 250.0, "damping": 20.0}, None, None),
    ], 1.5, REST_PX),
    # No `duration`: the bake ends when the last step arrives (a fall onto its `to`)...
    ("sequence-ends-on-arrival", [
        ("Spring", {"from": 0.0, "velocity": 0.0, "to": -50.0, "stiffness": 300.0, "damping": 10.0}, 0.1, None),
        ("Gravity", {"acceleration": 2500.0, "to": 80.0}, None, None),
    ], None, REST_PX),
    # ... or when it rests (a fling, in closed form): the last frame is its rest value.
    ("sequence-ends-at-rest", [
        ("Gravity", {"from": 0.0, "velocity": 0.0, "acceleration": 900.0, "to": 30.0}, None, None),
        ("Friction", {"friction": 0.1}, None, None),
    ], None, REST_PX),
    ("sequence-drag-then-snap", [
        ("Spring", {"from": 0.0, "velocity": 0.0, "to": -250.0, "stiffness": 500.0, "damping": 15.0}, 0.12, None),
        ("Inertia", {"friction": 0.02, "min": -960.0, "max": 0.0, "snap": [0.0, -320.0, -640.0, -960.0]}, None, None),
    ], 1.5, REST_PX),
]

# (property, kind, parameters, track duration, rest thresholds, the Rust's rest time key)
TRACKS = [
    # The issue's sheet: the slide and the scale rest (times from the Rust), the fade arrives
    # at 0.3 s and holds.
    ("tracks-sheet-enter", "sheet-enter", [
        ("translateY", "Spring", {"from": 480.0, "to": 0.0, "stiffness": 260.0, "damping": 24.0}, None, REST_PX, "sheet-translateY"),
        ("opacity", "Decay", {"from": 0.0, "to": 1.0, "end_velocity": 0.2}, 0.3, REST_NUMBER, None),
        ("scale", "Spring", {"from": 0.96, "to": 1.0, "perceptual_duration": 0.4, "bounce": 0.1}, None, REST_NUMBER, "sheet-scale"),
    ]),
    # A 2D toss: x glides with friction and rests (closed form), y flies up, falls onto its
    # floor and bounces until it rests at an impact (closed form).
    ("tracks-toss-2d", "toss-2d", [
        ("translateX", "Friction", {"from": 0.0, "velocity": 700.0, "friction": 0.05}, None, REST_PX, None),
        ("translateY", "Gravity", {"from": 0.0, "velocity": -900.0, "acceleration": 2400.0, "to": 0.0, "restitution": 0.4}, None, REST_PX, None),
    ]),
    # Different lengths the other way round: a short bounce, a long overdamped spring.
    ("tracks-fling-and-settle", "fling-and-settle", [
        ("translateX", "Gravity", {"from": 0.0, "velocity": 0.0, "acceleration": 3000.0, "to": 150.0, "restitution": 0.2}, None, REST_PX, None),
        ("rotate", "Friction", {"from": 0.0, "velocity": 90.0, "to": 45.0}, None, REST_PX, None),
    ]),
    # A spring interrupted by its track's `duration` (holds x(0.2), not its `to`), a sequence
    # as a track (ends when its last step, a fling, rests), a free inertia (rests in closed form).
    ("tracks-interrupted-sequence-inertia", "mixed", [
        ("translateX", "Spring", {"from": 0.0, "to": 100.0, "stiffness": 300.0, "damping": 10.0}, 0.2, REST_PX, None),
        ("rotate", "Sequence", {"steps": [
            ("Spring", {"from": 0.0, "velocity": 0.0, "to": 90.0, "stiffness": 300.0, "damping": 20.0}, 0.15, None),
            ("Friction", {"friction": 0.02}, None, None)]}, None, REST_PX, None),
        ("scale", "Inertia", {"from": 1.0, "velocity": 0.5, "friction": 0.05, "max": 1.5}, None, REST_NUMBER, None),
    ]),
    # The longest track arrives (D is its arrival, not a frame time after it); a spring whose
    # own `duration` outlasts its rest holds its position there, not its `to`; a decay cut by
    # its `duration`.
    ("tracks-longest-arrives", "arrive", [
        ("translateX", "Gravity", {"from": 0.0, "velocity": 0.0, "acceleration": 1000.0, "to": 499.0}, None, REST_PX, None),
        ("opacity", "Spring", {"from": 0.0, "to": 1.0, "stiffness": 200.0, "damping": 30.0}, 0.9, REST_NUMBER, None),
        ("scale", "Decay", {"from": 1.0, "velocity": -0.5, "lambda": 4.0}, 0.4, REST_NUMBER, None),
    ]),
    # The motion's `duration`: tracks that never rest (an undamped spring, friction 1) run to
    # it and end at their position there; a short interrupted track holds its position.
    ("tracks-never-rest-with-duration", "undamped", [
        ("translateY", "Spring", {"from": 0.0, "to": 50.0, "stiffness": 100.0, "damping": 0.0}, None, REST_PX, None),
        ("opacity", "Friction", {"from": 0.0, "velocity": 0.8, "friction": 1.0}, None, REST_NUMBER, None),
        ("scale", "Spring", {"from": 0.5, "to": 1.0, "response": 0.3, "damping_fraction": 0.9}, 0.25, REST_NUMBER, None),
    ], 1.0),
]

SPRING_FORMS = [
    ("spring-response", {"from": 0.0, "to": 300.0, "response": 0.55, "damping_fraction": 0.825}, 1.5),
    ("spring-response-critical", {"from": 300.0, "to": 0.0, "velocity": 1200.0, "response": 0.3, "damping_fraction": 1.0}, 1.0),
    ("spring-android", {"from": 100.0, "to": 0.0, "velocity": -2000.0, "stiffness": 1500.0, "damping_ratio": 0.5}, 1.0),
    ("spring-android-overdamped-mass", {"from": 0.0, "to": 1.0, "stiffness": 200.0, "damping_ratio": 2.0, "mass": 2.0}, 2.0),
    ("spring-motion-dev", {"from": 0.0, "to": 100.0, "visual_duration": 0.3, "bounce": 0.25}, 1.0),
    ("spring-motion-dev-clamped", {"from": 0.0, "to": 100.0, "visual_duration": 0.5, "bounce": 0.98}, 1.5),
    ("spring-motion-dev-critical", {"from": 50.0, "to": -50.0, "velocity": 400.0, "visual_duration": 0.4}, 1.0),
    ("spring-origami-rebound-default", {"from": 0.0, "to": 1.0, "origami_tension": 40.0, "origami_friction": 7.0}, 1.5),
    ("spring-origami-low", {"from": 0.0, "to": 200.0, "velocity": -500.0, "origami_tension": 10.0, "origami_friction": 3.0}, 2.0),
    ("spring-perceptual", {"from": 0.96, "to": 1.0, "perceptual_duration": 0.4, "bounce": 0.1}, 1.0),
    ("spring-perceptual-negative-bounce", {"from": 0.0, "to": 360.0, "velocity": 90.0, "perceptual_duration": 0.5, "bounce": -0.3}, 1.5),
    ("spring-perceptual-critical", {"from": -20.0, "to": 20.0, "perceptual_duration": 0.35, "bounce": 0.0}, 1.0),
    ("spring-response-undamped", {"from": 0.0, "to": 10.0, "response": 0.5, "damping_fraction": 0.0}, 1.0),
    ("spring-android-near-critical", {"from": 0.0, "to": 100.0, "velocity": 50.0, "stiffness": 400.0, "damping_ratio": 1.0000001}, 1.0),
    ("spring-android-strongly-overdamped", {"from": 0.0, "to": 100.0, "stiffness": 100.0, "damping_ratio": 1000.0}, 1.0),
    ("spring-perceptual-bounce-near-minus-one", {"from": 0.0, "to": 1.0, "velocity": 3.0, "perceptual_duration": 0.3, "bounce": -0.95}, 1.0),
    ("spring-origami-stiff", {"from": 1.0, "to": 0.0, "origami_tension": 200.0, "origami_friction": 30.0}, 1.0),
]


def main():
    cases = []
    for ident, p, duration in INERTIA:
        name, join, state, _, _ = inertia(p)
        extra = ()
        case = {"id": ident, "kind": "inertia", "params": p, "case": name,
                "ron": f'(name: "i", duration: {duration!r}, motion: {ron_call("Inertia", p)})'}
        if join:
            tb, vb = join
            case["bound_time"], case["bound_time_exact"] = out(tb)
            case["bound_velocity"], case["bound_velocity_exact"] = out(vb)
            extra = (float(tb),)
        ts = frame_times(duration, extra=extra)
        case["duration"] = duration
        fill(case, ts, state)
        cases.append(case)
    for ident, steps, duration, rest in SEQUENCES:
        steps = [(k, p, d, RUST_REST_TIMES[r] if r else None) for k, p, d, r in steps]
        cases.append(sequence_case(ident, steps, duration, rest))
    for ident, name, tracks, *duration in TRACKS:
        tracks = [(*t[:5], RUST_REST_TIMES[t[5]] if t[5] else None) for t in tracks]
        cases.append(tracks_case(ident, name, tracks, *duration))
    for ident, p, duration in SPRING_FORMS:
        cases.append(spring_form_case(ident, p, duration))
    print(json.dumps({"description": __doc__.strip().split("\n")[0], "digits": 20,
                      "count": len(cases), "cases": cases}, indent=1))


main()
