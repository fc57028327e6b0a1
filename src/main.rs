//! The `curvebake` command line.

fn main() {}
