/** Registers `customProperties`; a property already registered is left as it is. */
export function registerProperties() {
  if (typeof CSS === "undefined" || typeof CSS.registerProperty !== "function") return;
  for (const p of customProperties) {
    try {
      CSS.registerProperty(p);
    } catch (e) {
      if (!(e && e.name === "InvalidModificationError")) throw e;
    }
  }
}
