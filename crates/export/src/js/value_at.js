/** The position of `track` (the first one by default) at `seconds`, clamped to [0, duration],
 * read from `tracks` and `velocities` between frames by cubic Hermite: on [a, b], h = b - a,
 * s = (t - a) / h, x = (2s³ - 3s² + 1)·x(a) + (s³ - 2s² + s)·h·v(a) + (3s² - 2s³)·x(b) +
 * (s³ - s²)·h·v(b). Each entry of `joins` inside a frame interval ends the piece there with
 * the motion's own values on that side, so every piece is smooth, and the reading is within
 * h⁴/384·max|x⁗| of the motion on it (plus the tables' float32 rounding). From `duration` on
 * it is the last frame. */
export function valueAt(seconds, track = Object.keys(tracks)[0]) {
  const x = tracks[track], v = velocities[track];
  const t = Math.min(Math.max(seconds, 0), duration);
  const i = Math.min(Math.floor(t * fps), frames - 2);
  let a = i / fps, xa = x[i], va = v[i];
  let b = Math.min((i + 1) / fps, duration), xb = x[i + 1], vb = v[i + 1];
  for (const [tj, xl, vl, xr, vr] of joins[track]) {
    if (tj < a) continue;
    if (tj > b) break;
    if (tj <= t) {
      a = tj; xa = xr; va = vr;
    } else {
      b = tj; xb = xl; vb = vl;
      break;
    }
  }
  const h = b - a;
  if (!(h > 0)) return xa;
  const s = (t - a) / h, s2 = s * s, s3 = s2 * s;
  return (2 * s3 - 3 * s2 + 1) * xa + (s3 - 2 * s2 + s) * h * va + (3 * s2 - 2 * s3) * xb +
    (s3 - s2) * h * vb;
}

