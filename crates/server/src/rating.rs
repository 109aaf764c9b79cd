//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012), with lichess's
//! parameters: a new rating is 1500 with deviation 500 and volatility 0.09, the system constant
//! tau is 0.75, and a rating is provisional while its deviation is above 110.
//!
//! Each rated game is one rating period of one game for each player. A player's deviation grows
//! with the time since its last rated game as lichess's does: step 6 of Glickman's procedure
//! takes `phi* = sqrt(phi^2 + t * sigma'^2)` with `t` the rating periods elapsed, at 0.21436
//! periods a day (lichess's `ratingPeriodsPerDay`), and the deviation is kept at most 500.

/// A new rating.
pub const START_RATING: f64 = 1500.0;
/// A new rating's deviation, and the most a deviation grows to.
pub const START_RD: f64 = 500.0;
/// A new rating's volatility.
pub const START_VOLATILITY: f64 = 0.09;
/// The system constant: how much the volatility may change.
pub const TAU: f64 = 0.75;
/// A deviation above this makes a rating provisional (shown with a `?`).
pub const PROVISIONAL_RD: f64 = 110.0;
/// Rating periods a day, for the deviation's growth between games.
pub const PERIODS_PER_DAY: f64 = 0.21436;
/// Glicko-2's scale: a rating of 1500 plus 173.7178 times the internal one.
const SCALE: f64 = 173.7178;
/// The volatility iteration's tolerance.
const EPSILON: f64 = 0.000_001;

/// A player's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
}

impl Default for Glicko {
    fn default() -> Glicko {
        Glicko {
            rating: START_RATING,
            rd: START_RD,
            volatility: START_VOLATILITY,
        }
    }
}

impl Glicko {
    /// Whether the rating is provisional.
    pub fn provisional(&self) -> bool {
        self.rd > PROVISIONAL_RD
    }
}

/// Glickman's g(phi): how much an opponent's uncertainty damps a result.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// The expected score against an opponent of internal rating `mu_j` and deviation `phi_j`.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The rating after one rating period of `results` (each an opponent's rating before the period,
/// and the score: 1 a win, 0.5 a draw, 0 a loss), with system constant `tau` and `periods`
/// rating periods elapsed since the player's last one (Glickman's procedure takes 1).
pub fn rate(player: Glicko, results: &[(Glicko, f64)], tau: f64, periods: f64) -> Glicko {
    let mu = (player.rating - START_RATING) / SCALE;
    let phi = player.rd / SCALE;
    let sigma = player.volatility;
    if results.is_empty() {
        let phi = (phi * phi + periods * sigma * sigma).sqrt();
        return Glicko {
            rd: (phi * SCALE).min(START_RD),
            ..player
        };
    }
    // Steps 3 and 4: the estimated variance and improvement.
    let opponents: Vec<(f64, f64, f64)> = results
        .iter()
        .map(|(o, s)| ((o.rating - START_RATING) / SCALE, o.rd / SCALE, *s))
        .collect();
    let v = 1.0
        / opponents
            .iter()
            .map(|&(mu_j, phi_j, _)| {
                let e = expected(mu, mu_j, phi_j);
                g(phi_j) * g(phi_j) * e * (1.0 - e)
            })
            .sum::<f64>();
    let improvement: f64 = opponents
        .iter()
        .map(|&(mu_j, phi_j, s)| g(phi_j) * (s - expected(mu, mu_j, phi_j)))
        .sum();
    let delta = v * improvement;
    // Step 5: the new volatility, by the Illinois algorithm.
    let sigma = volatility(delta, phi, v, sigma, tau);
    // Steps 6 and 7: the new deviation and rating.
    let phi_star = (phi * phi + periods * sigma * sigma).sqrt();
    let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu = mu + phi * phi * improvement;
    // Step 8: back to the rating scale.
    Glicko {
        rating: mu * SCALE + START_RATING,
        rd: (phi * SCALE).min(START_RD),
        volatility: sigma,
    }
}

/// Glickman's step 5: the volatility that solves f(x) = 0.
fn volatility(delta: f64, phi: f64, v: f64, sigma: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    while (big_b - big_a).abs() > EPSILON {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// The rating periods between two times in ms (none before a first game).
pub fn periods_between(last_ms: Option<i64>, now_ms: i64) -> f64 {
    last_ms.map_or(0.0, |last| {
        (now_ms - last).max(0) as f64 / 86_400_000.0 * PERIODS_PER_DAY
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(rating: f64, rd: f64) -> Glicko {
        Glicko {
            rating,
            rd,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        let results = [
            (player(1400.0, 30.0), 1.0),
            (player(1550.0, 100.0), 0.0),
            (player(1700.0, 300.0), 0.0),
        ];
        let after = rate(player(1500.0, 200.0), &results, 0.5, 1.0);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.rd - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_win_raises_a_loss_lowers_and_time_widens_the_deviation() {
        let a = Glicko::default();
        let won = rate(a, &[(Glicko::default(), 1.0)], TAU, 0.0);
        let lost = rate(a, &[(Glicko::default(), 0.0)], TAU, 0.0);
        let drawn = rate(a, &[(Glicko::default(), 0.5)], TAU, 0.0);
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        assert!(
            (won.rating - 1500.0 + (lost.rating - 1500.0)).abs() < 1e-9,
            "symmetric"
        );
        assert!((drawn.rating - 1500.0).abs() < 1e-9);
        assert!(won.rd < 500.0 && won.provisional());
        let settled = Glicko {
            rating: 1800.0,
            rd: 60.0,
            volatility: 0.06,
        };
        assert!(!settled.provisional());
        let a_year = periods_between(Some(0), 365 * 86_400_000);
        assert!((a_year - 365.0 * PERIODS_PER_DAY).abs() < 1e-9);
        let idle = rate(settled, &[], TAU, a_year);
        assert!(idle.rd > settled.rd && idle.rd <= START_RD, "{idle:?}");
        assert_eq!(periods_between(None, 5), 0.0);
    }
}
