/** The keyframes, once `customProperties` are registered (so that they interpolate). */
function registered(keyframes) {
  registerProperties();
  return keyframes;
}
