//! Input: finding and reading curve files. [`schema`] is the RON shape of a file, read by
//! the fast [`plain_ron`] reader or, for anything else, the `ron` crate ([`load`]), which also
//! words every syntax error; [`intake`] hands the motions out in windows as the bake goes.

pub mod intake;
pub mod load;
pub mod plain_ron;
pub mod schema;
