/** What "fade" adds under `prefers-reduced-motion: reduce`: the element fades in (`animate`
 * and `play`), over the CSS's fade (`REDUCED_FADE_SECONDS`, a test keeps them equal). */
const fadeIn = (element) => element.animate({opacity: [0, 1]}, {duration: 200, easing: "ease-out"});

/** Plays the motion on `element`; `options` add to or override `timing`. Under
 * `prefers-reduced-motion: reduce` it follows `reducedMotion`: "jump" shows the end at
 * once (duration 0), "fade" does that and fades the element in, "keep" plays it as is. */
export function animate(element, options) {
  const reduce = reducedMotion !== "keep" && typeof matchMedia === "function" &&
    matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (!reduce) return element.animate(keyframes, {...timing, ...options});
  const a = element.animate(keyframes, {...timing, ...options, duration: 0});
  if (reducedMotion === "fade") fadeIn(element);
  return a;
}

export default {name, kind, property, unit, fps, duration, durationMs, frames, customProperties, tracks, velocities, joins, valueAt, keyframes, timing, easing, reducedMotion, registerProperties, animate};
