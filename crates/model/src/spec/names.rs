//! The names a motion and a prefix of generated names may take: CSS identifiers that are no
//! CSS keyword ([`CSS_KEYWORDS`]), and for a motion none of the files the bake writes besides
//! ([`RESERVED_NAMES`]) or of the devices Windows reserves ([`WINDOWS_DEVICE_NAMES`]).

/// Motion names that would clash with files the bake writes besides each motion's, each with
/// that file: their outputs would be overwritten, or would overwrite them.
pub const RESERVED_NAMES: &[(&str, &str)] = &[
    ("all", "png/all.png is the contact sheet of every motion"),
    (
        "index",
        "js/index.js re-exports every motion of the JS package",
    ),
    (
        "motion",
        "js/motion.d.ts holds the type every JS module shares",
    ),
    (
        "runtime",
        "js/runtime.js is the runtime every JS module's `play` shares",
    ),
];

/// Names Windows gives to devices, whatever the extension (`con.css` is the console): a
/// folder holding a file so named cannot be checked out there.
pub const WINDOWS_DEVICE_NAMES: &[&str] = &[
    "con", "prn", "aux", "nul", "com0", "com1", "com2", "com3", "com4", "com5", "com6", "com7",
    "com8", "com9", "lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
];

/// Longest accepted name.
pub const MAX_NAME_LEN: usize = 64;

/// Longest prefix of generated names.
pub const MAX_PREFIX_LEN: usize = 32;

/// Checks a prefix of generated names: empty, or a letter, then letters, digits, `-` and `_`,
/// at most [`MAX_PREFIX_LEN`] (so that prefix and name make a CSS identifier).
pub fn check_prefix(prefix: &str) -> Result<(), String> {
    let mut chars = prefix.chars();
    match chars.next() {
        None => return Ok(()),
        Some(c) if !c.is_ascii_alphabetic() => {
            return Err(format!(
                "must start with a letter (A-Z, a-z), got {prefix:?}"
            ));
        }
        _ => {}
    }
    if let Some(bad) = chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_')) {
        return Err(format!(
            "may hold only letters, digits, '-' and '_', found {bad:?} in {prefix:?}"
        ));
    }
    if prefix.len() > MAX_PREFIX_LEN {
        return Err(format!(
            "must be at most {MAX_PREFIX_LEN} characters, got {}",
            prefix.len()
        ));
    }
    Ok(())
}

/// Checks a name: a letter, then letters, digits, `-` and `_`, at most [`MAX_NAME_LEN`].
pub fn check_name(name: &str) -> Result<(), String> {
    let mut chars = name.chars();
    match chars.next() {
        None => return Err("must not be empty".into()),
        Some(c) if !c.is_ascii_alphabetic() => {
            return Err(format!("must start with a letter (A-Z, a-z), got {name:?}"));
        }
        _ => {}
    }
    if let Some(bad) = chars.find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_')) {
        return Err(format!(
            "may hold only letters, digits, '-' and '_', found {bad:?} in {name:?}"
        ));
    }
    if name.len() > MAX_NAME_LEN {
        return Err(format!(
            "must be at most {MAX_NAME_LEN} characters, got {}",
            name.len()
        ));
    }
    if let Some(word) = CSS_KEYWORDS.iter().find(|w| name.eq_ignore_ascii_case(w)) {
        return Err(format!(
            "must not be the CSS keyword {word:?}: `animation` and `@keyframes` read it as something else"
        ));
    }
    Ok(())
}

/// Checks a motion's name: [`check_name`], and none of the [`RESERVED_NAMES`] or the
/// [`WINDOWS_DEVICE_NAMES`] (ignoring ASCII case, as file systems may).
pub fn check_motion_name(name: &str) -> Result<(), String> {
    check_name(name)?;
    if let Some((_, file)) = RESERVED_NAMES
        .iter()
        .find(|(r, _)| r.eq_ignore_ascii_case(name))
    {
        return Err(format!(
            "{name:?} is reserved: {file}, and a motion so named would write over it (names that differ only in case clash on case-insensitive file systems)"
        ));
    }
    if let Some(device) = WINDOWS_DEVICE_NAMES
        .iter()
        .find(|d| d.eq_ignore_ascii_case(name))
    {
        return Err(format!(
            "{name:?} is reserved: Windows reads a file named {device}.<anything> as a device, so the outputs could not be checked out there"
        ));
    }
    Ok(())
}

/// Words a name may not be (ASCII case-insensitively): keywords of the `animation` shorthand,
/// CSS-wide keywords and the words `@keyframes` names exclude. A motion so named would not
/// animate (`animation: ease 1s linear both` runs keyframes named `linear`).
pub const CSS_KEYWORDS: &[&str] = &[
    "none",
    "initial",
    "inherit",
    "unset",
    "revert",
    "revert-layer",
    "default",
    "auto",
    "linear",
    "ease",
    "ease-in",
    "ease-out",
    "ease-in-out",
    "step-start",
    "step-end",
    "infinite",
    "normal",
    "reverse",
    "alternate",
    "alternate-reverse",
    "forwards",
    "backwards",
    "both",
    "running",
    "paused",
];
