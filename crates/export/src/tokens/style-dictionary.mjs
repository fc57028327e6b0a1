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
// (DTCG has no type for it), e.g. `translate 866.667ms linear(...) 0ms`, usable as `transition` or as the
// `animation-timing-function` source of a design system.

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

/** Registers the transforms and the transform group `curvebake/css`. */
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
  const css = StyleDictionary.hooks.transformGroups.css.filter(
    (name) => name !== 'transition/css/shorthand',
  );
  StyleDictionary.registerTransformGroup({
    name: 'curvebake/css',
    transforms: [...css, 'curvebake/duration/css', 'curvebake/transition/css'],
  });
}
