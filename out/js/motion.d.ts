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

/** One baked motion: what every module exports, and its default export. */
export interface Motion<Name extends string = string, Track extends string = string> {
  /** Motion name. */
  readonly name: Name;
  /** Motion kind (spring, friction, gravity, decay, inertia, sequence, explosion-ring; each
   * module's own declarations give its literal). */
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
  /** Web Animations API keyframes, linear in between. */
  readonly keyframes: Keyframe[];
  /** Timing that plays the keyframes as baked. */
  readonly timing: { readonly duration: number; readonly easing: "linear"; readonly fill: "both" };
  /** Registers `customProperties`; a property already registered is left as it is. */
  readonly registerProperties: () => void;
  /** Plays the motion on `element`; `options` add to or override `timing`. */
  readonly animate: (element: Element, options?: KeyframeAnimationOptions) => Animation;
}
