// Types shared by the modules curvebake generates.

/** A custom property the keyframes animate, as given to CSS.registerProperty. */
export interface CustomProperty {
  readonly name: string;
  readonly syntax: "<length>" | "<angle>" | "<percentage>" | "<number>";
  readonly inherits: false;
  readonly initialValue: string;
}

/** What `prefers-reduced-motion: reduce` does in `animate()`. */
export type ReducedMotion = "jump" | "fade" | "keep";

/** Where a track is not smooth: its time (s), and position and velocity just before and from
 * it on. */
export type Join = readonly [t: number, xBefore: number, vBefore: number, xAfter: number, vAfter: number];

/** One baked motion: what every module exports, and its default export. */
export interface Motion<Name extends string = string, Track extends string = string> {
  /** Motion name. */
  readonly name: Name;
  /** Motion kind (spring, friction, gravity, decay, inertia, sequence, explosion-ring,
   * tracks; each module's own declarations give its literal). */
  readonly kind: string;
  /** The property as written in the curve file; null for a ring. */
  readonly property: string | null;
  /** Unit of the keyframe values. */
  readonly unit: string;
  /** Frames per second. */
  readonly fps: number;
  /** Duration in seconds. */
  readonly duration: number;
  /** Duration in milliseconds. */
  readonly durationMs: number;
  /** Frame count: frame i is at min(i / fps, duration) seconds. */
  readonly frames: number;
  /** The progress as a CSS `linear()` easing, or null for a motion without an end value. */
  readonly easing: string | null;
  /** What `prefers-reduced-motion: reduce` does in `animate()`. */
  readonly reducedMotion: ReducedMotion;
  /** Custom properties the keyframes animate. */
  readonly customProperties: readonly CustomProperty[];
  /** Position per frame, per track (float32, or float64 where values need it). */
  readonly tracks: { readonly [K in Track]: Float32Array | Float64Array };
  /** Velocity per frame (units per second), per track, in the positions' type. */
  readonly velocities: { readonly [K in Track]: Float32Array | Float64Array };
  /** Per track, where the motion is not smooth between frames (an impact, a hand-off, a bound
   * hit, a track's end), and the end if the last frame holds the rest value. */
  readonly joins: { readonly [K in Track]: readonly Join[] };
  /** The position of `track` (the first by default) at `seconds`, clamped to the bake: the
   * tables read between frames by cubic Hermite with the velocities, a piece ending at each
   * join, within h⁴/384·max|x⁗| of the motion (h = 1/fps). */
  valueAt(seconds: number, track?: Track): number;
  /** Web Animations API keyframes, linear in between. */
  readonly keyframes: Keyframe[];
  /** Timing that plays the keyframes as baked. */
  readonly timing: { readonly duration: number; readonly easing: "linear"; readonly fill: "both" | "backwards" };
  /** Registers `customProperties`; a property already registered is left as it is. */
  readonly registerProperties: () => void;
  /** Plays the motion on `element`; `options` add to or override `timing`. */
  readonly animate: (element: Element, options?: KeyframeAnimationOptions) => Animation;
}

/** A motion playing with input (a module's `play`): its keyframes are computed once, at start
 * and at each retarget, from the closed form; nothing runs per frame. */
export interface Playing {
  /** Continues from the exact position and velocity of now towards `to`: a spring to `to`, a
   * fling onto the snap point `to`, gravity until it reaches `to`. Nothing jumps. */
  retarget(to: number): void;
  /** The position now: the closed form at the animation's current time (the rest value once
   * it has ended; after `cancel()`, the position at the instant it was cancelled). */
  position(): number;
  /** The velocity now, in units per second (0 once it has ended; after `cancel()`, the
   * velocity it had when cancelled). */
  velocity(): number;
  /** Resolves with the animation when the motion ends (after the retargets made until then;
   * a retarget after the end plays a new run, with a promise of its own); rejects with an
   * `AbortError` on `cancel()`. */
  readonly finished: Promise<Animation>;
  /** Stops it and removes its effect, as `Animation.cancel()` does: the element shows its own
   * value again (to keep it where it is, write `position()` to its style first). A retarget
   * afterwards plays again from the instant it was cancelled. */
  cancel(): void;
  /** The Web Animation playing it (a retarget re-times this one): pause, seek or change its rate. */
  readonly animation: Animation;
}

/** Input of a spring's `play`; each defaults to the baked value
 * (left out or `undefined`). */
export interface SpringInput {
  readonly from?: number | undefined;
  readonly to?: number | undefined;
  /** Units per second; a velocity away from `to` is fine. */
  readonly velocity?: number | undefined;
}

/** Input of a fling's `play` (friction, decay, inertia); each defaults to the baked value
 * (left out or `undefined`). */
export interface FlingInput {
  readonly from?: number | undefined;
  /** Units per second. */
  readonly velocity?: number | undefined;
  /** Rest exactly here (one snap point). */
  readonly to?: number | undefined;
  /** Rest on the snap point nearest where friction alone would stop (the lower of two):
   * friction carries it there when the point is ahead and at most twice as far as friction
   * alone would go, else the bounce spring takes it (a slow release far from every point). */
  readonly snap?: readonly number[] | undefined;
  /** Bounds: a fling past one hands its velocity to the bounce spring there; one that starts
   * outside springs back to it. With snap points the fling rests on one of them: give points
   * within the bounds. */
  readonly min?: number | undefined;
  readonly max?: number | undefined;
}

/** Input of the `play` of gravity without a floor; each defaults to the baked value
 * (left out or `undefined`). */
export interface GravityInput {
  readonly from?: number | undefined;
  /** Units per second. */
  readonly velocity?: number | undefined;
  /** End on reaching it (else after the baked duration). */
  readonly to?: number | undefined;
}
