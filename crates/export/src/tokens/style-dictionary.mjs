// curvebake: Style Dictionary 5 transforms for curves.tokens.json. Generated; do not edit.
//
//   import StyleDictionary from 'style-dictionary';
//   import { register } from './style-dictionary.mjs';
//   register(StyleDictionary);
//   const sd = new StyleDictionary({
//     source: ['curves.tokens.json'],
//     platforms: { css: { transformGroup: 'curvebake/css', buildPath: 'build/',
//       files: [{ destination: 'motion.css', format: 'css/variables' }] } },
//   });
//   await sd.buildAllPlatforms();
//
// gives, per motion, --motion-<name>-duration (e.g. 866.667ms), --motion-<name>-easing (the
// nearest cubic-bezier(), as the DTCG value says) and --motion-<name>-transition: the CSS
// property, the duration and the EXACT linear() easing from $extensions["dev.curvebake"]
// (DTCG has no type for it), e.g. `translate 866.667ms linear(...) 0ms`, usable as
// `transition` or as the `animation-timing-function` source of a design system. The groups
// curvebake/scss, curvebake/less, curvebake/ios-swift, curvebake/compose and curvebake/android
// do the same for Style Dictionary's other stock platforms (see register).

/** DTCG 2025.10 duration objects ({value, unit}) as CSS times. */
function cssTime(value) {
  if (value && typeof value === 'object' && 'value' in value && 'unit' in value) {
    return `${value.value}${value.unit}`;
  }
  return value;
}

/** The CSS property a curvebake motion's track animates. */
function cssProperty(data) {
  switch (data.property) {
    case 'translateX':
    case 'translateY':
      return 'translate';
    case 'scale':
    case 'rotate':
    case 'opacity':
      return data.property;
    default:
      return data.property.startsWith('--') ? data.property : 'all';
  }
}

/** A token's value before transforms (Style Dictionary 5 keeps DTCG's `$value`). */
function valueOf(token) {
  return token.$value !== undefined ? token.$value : token.value;
}

/** Its type. */
function typeOf(token) {
  return token.$type !== undefined ? token.$type : token.type;
}

/**
 * Registers the transforms and the transform groups: `curvebake/css`, `curvebake/scss` and
 * `curvebake/less` (Style Dictionary's, with durations as CSS times and each transition as
 * `<property> <duration> <exact linear()> <delay>`), and `curvebake/ios-swift`,
 * `curvebake/compose` and `curvebake/android` (theirs, with durations as numbers in the
 * platform's unit and the cubic Bézier as its code: see NATIVE).
 */
export function register(StyleDictionary) {
  StyleDictionary.registerTransform({
    name: 'curvebake/duration/css',
    type: 'value',
    filter: (token) => typeOf(token) === 'duration',
    transform: (token) => cssTime(valueOf(token)),
  });
  StyleDictionary.registerTransform({
    name: 'curvebake/transition/css',
    type: 'value',
    transitive: true,
    filter: (token) => typeOf(token) === 'transition',
    transform: (token) => {
      const value = valueOf(token);
      const data = token.$extensions && token.$extensions['dev.curvebake'];
      const easing =
        data && data.linear
          ? data.linear
          : Array.isArray(value.timingFunction)
            ? `cubic-bezier(${value.timingFunction.join(', ')})`
            : value.timingFunction;
      const property = data ? `${cssProperty(data)} ` : '';
      return `${property}${cssTime(value.duration)} ${easing} ${cssTime(value.delay)}`;
    },
  });
  // The web's groups: Style Dictionary's own, its transition shorthand replaced by ours.
  for (const web of ['css', 'scss', 'less']) {
    const stock = StyleDictionary.hooks.transformGroups[web].filter(
      (name) => name !== 'transition/css/shorthand',
    );
    StyleDictionary.registerTransformGroup({
      name: `curvebake/${web}`,
      transforms: [...stock, 'curvebake/duration/css', 'curvebake/transition/css'],
    });
  }
  // The platforms' groups: their own, with durations, easings and transitions as code.
  for (const [platform, forms] of Object.entries(NATIVE)) {
    registerNative(StyleDictionary, platform, forms);
  }
}

/** A DTCG duration ({value, unit}) in milliseconds. */
function milliseconds(value) {
  return value.unit === 's' ? value.value * 1000 : value.value;
}

/** `x` rounded to `decimals` decimals, as a number (no `-0`). */
function round(x, decimals) {
  const scale = 10 ** decimals;
  return Math.round(x * scale) / scale + 0;
}

/** A Kotlin `Float` literal. */
function kotlinFloat(x) {
  return `${x}f`;
}

/**
 * Per platform: a duration of `ms` milliseconds in its unit (a number), an easing of
 * control points [x1, y1, x2, y2] as code, and a transition of a duration (in the platform's
 * unit), a delay in ms and an easing (as code).
 */
const NATIVE = {
  // SwiftUI: TimeInterval in seconds, UnitCurve and Animation (iOS 17, macOS 14).
  'ios-swift': {
    duration: (ms) => round(ms / 1000, 6),
    easing: ([x1, y1, x2, y2]) =>
      `UnitCurve.bezier(startControlPoint: UnitPoint(x: ${x1}, y: ${y1}), ` +
      `endControlPoint: UnitPoint(x: ${x2}, y: ${y2}))`,
    transition: (duration, delay, easing) =>
      `Animation.timingCurve(${easing}, duration: ${duration})` +
      (delay ? `.delay(${round(delay / 1000, 6)})` : ''),
  },
  // Jetpack Compose: durationMillis (an Int), CubicBezierEasing and tween.
  compose: {
    duration: (ms) => Math.round(ms),
    easing: (points) => `CubicBezierEasing(${points.map(kotlinFloat).join(', ')})`,
    transition: (duration, delay, easing) =>
      `tween<Float>(durationMillis = ${duration}, delayMillis = ${Math.round(delay)}, ` +
      `easing = ${easing})`,
  },
  // Android resources: milliseconds (an <integer>), control points for a PathInterpolator
  // (x1,y1,x2,y2), a transition as "<duration ms> <delay ms> <x1,y1,x2,y2>".
  android: {
    duration: (ms) => Math.round(ms),
    easing: (points) => points.join(','),
    transition: (duration, delay, easing) => `${duration} ${Math.round(delay)} ${easing}`,
  },
};

/** Registers the transforms of `platform` and its group `curvebake/<platform>`. */
function registerNative(StyleDictionary, platform, forms) {
  // A value already transformed (an alias resolved to its token's form) is kept.
  const duration = (value) =>
    value && typeof value === 'object' ? forms.duration(milliseconds(value)) : value;
  const easing = (value) => (Array.isArray(value) ? forms.easing(value) : value);
  const transforms = [
    ['duration', false, (value) => duration(value)],
    ['cubicBezier', false, (value) => easing(value)],
    [
      'transition',
      true,
      (value) =>
        forms.transition(
          duration(value.duration),
          milliseconds(value.delay),
          easing(value.timingFunction),
        ),
    ],
  ];
  for (const [type, transitive, transform] of transforms) {
    StyleDictionary.registerTransform({
      name: `curvebake/${type}/${platform}`,
      type: 'value',
      transitive,
      filter: (token) => typeOf(token) === type,
      transform: (token) => transform(valueOf(token)),
    });
  }
  StyleDictionary.registerTransformGroup({
    name: `curvebake/${platform}`,
    transforms: [
      ...StyleDictionary.hooks.transformGroups[platform],
      ...transforms.map(([type]) => `curvebake/${type}/${platform}`),
    ],
  });
}
