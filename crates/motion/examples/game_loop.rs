//! A game or app that evaluates motions at run time, at whatever instants its frames fall on:
//! no table, no integration step, exact at any t.
//!
//! ```sh
//! cargo run -p curvebake-motion --example game_loop
//! ```

use curvebake_motion::{Bounce, Gravity, Motion, Settle, Spring};

fn main() -> Result<(), curvebake_motion::MotionError> {
    // A card that drops 240 px into place: mass 1, stiffness 220, damping 18.
    let card = Spring::new(-240.0, 0.0, 0.0, 1.0, 220.0, 18.0)?;
    // A ball dropped 250 px onto a floor, keeping half its speed at each bounce.
    let ball = Bounce::new(Gravity::new(-250.0, 0.0, 2400.0)?, 0.0, 0.5)?;

    // When each is at rest: within 0.1 px of its end and slower than 1 px/s, from then on.
    let card_rests = card.settle_time(0.1, 1.0).expect("a damped spring rests");
    let ball_rests = ball
        .settle_time(0.1, 1.0)
        .expect("a bounce with restitution < 1 rests");
    println!("card rests after {card_rests:.3} s, ball after {ball_rests:.3} s");

    // A display at 144 Hz whose frames start 3 ms into the motion: any instant is exact.
    let mut t = 0.003;
    while t < card_rests.max(ball_rests) {
        let (x, v) = card.state(t);
        println!(
            "t {t:.4} s  card {x:8.3} px ({v:9.3} px/s)  ball {:8.3} px",
            ball.position(t)
        );
        t += 1.0 / 144.0 * 8.0; // every eighth frame, to keep the print short
    }
    Ok(())
}
